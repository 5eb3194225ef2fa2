/* SPDX-License-Identifier: MIT */
/* --device lists, all-gpus and per-rank: each device opened as its own context. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/device_set.h"

void hg_device_set_close(hg_device_set *set) {
  for (unsigned k = 0; k < set->count; ++k) hegetcl_context_destroy(set->contexts[k]);
  set->count = 0;
}

static int open_one(hg_device_set *set, const char *spec, char *message, size_t size) {
  if (set->count == HEGETCL_XSEC_MAX_DEVICES) {
    snprintf(message, size, "more than %d devices: a process runs on at most %d",
             HEGETCL_XSEC_MAX_DEVICES, HEGETCL_XSEC_MAX_DEVICES);
    return 1;
  }
  hegetcl_context *ctx = NULL;
  if (hegetcl_context_create(spec, &ctx) != HEGETCL_OK) {
    snprintf(message, size, "%s", hegetcl_last_error(ctx));
    hegetcl_context_destroy(ctx);
    return 1;
  }
  set->contexts[set->count++] = ctx;
  return 0;
}

/* The GPUs' "P:D" names; 0 with message when there are none. */
static size_t list_gpus(char names[][16], size_t capacity, char *message, size_t size) {
  hegetcl_device_info infos[64];
  size_t count = 0, gpus = 0;
  char why[512] = "";
  if (hegetcl_device_list(infos, 64, &count, why, sizeof why) != HEGETCL_OK) {
    snprintf(message, size, "listing devices: %s", why);
    return 0;
  }
  for (size_t k = 0; k < count && k < 64; ++k)
    if (infos[k].is_gpu && gpus < capacity)
      snprintf(names[gpus++], 16, "%u:%u", infos[k].platform_index, infos[k].device_index);
  if (gpus == 0)
    snprintf(message, size,
             "no GPU found (`hegetcl devices` lists the %zu devices there are); name the devices "
             "to use instead, e.g. --device cpu",
             count);
  return gpus;
}

int hg_device_set_open(hg_device_set *set, const char *spec, const hegetcl_team *team,
                       char *message, size_t message_size) {
  set->count = 0;
  message[0] = '\0';
  int failed = 0;
  if (strcmp(spec, "all-gpus") == 0 || strcmp(spec, "per-rank") == 0) {
    const int per_rank = strcmp(spec, "per-rank") == 0;
    if (per_rank && team == NULL) {
      snprintf(message, message_size,
               "--device per-rank deals a node's GPUs out over its MPI ranks: it needs "
               "hegetcl-mpi (one process here: use all-gpus)");
      return 1;
    }
    char gpus[HEGETCL_XSEC_MAX_DEVICES][16];
    const size_t n = list_gpus(gpus, HEGETCL_XSEC_MAX_DEVICES, message, message_size);
    if (n == 0) return 1;
    const size_t ranks = per_rank ? (size_t)team->local_size : 1;
    const size_t mine = per_rank ? (size_t)team->local_rank : 0;
    /* rank k of the node takes GPUs k, k + ranks, ...; more ranks than GPUs share them */
    for (size_t g = mine % n; g < n && !failed; g += ranks)
      failed = open_one(set, gpus[g], message, message_size);
  } else {
    char part[256];
    for (const char *p = spec; !failed;) {
      const size_t length = strcspn(p, ",");
      if (length == 0 || length >= sizeof part) {
        snprintf(message, message_size,
                 "--device %s: an empty or overlong name in the list; give SPEC or "
                 "SPEC,SPEC,... (each auto, gpu, cpu, P:D or a name part), or all-gpus",
                 spec);
        failed = 1;
        break;
      }
      memcpy(part, p, length);
      part[length] = '\0';
      failed = open_one(set, part, message, message_size);
      if (p[length] == '\0') break;
      p += length + 1;
    }
  }
  if (failed) hg_device_set_close(set);
  return failed;
}

void hg_cli_note_auto_without_gpu(const hegetcl_device_info *info) {
  fprintf(stderr,
          "hegetcl: note: --device auto found no GPU, so this runs on %s (%s), which is not a "
          "GPU; `hegetcl devices` lists what was found, --device gpu makes a missing GPU an "
          "error\n",
          info->name, info->platform);
}
