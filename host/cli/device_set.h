/* SPDX-License-Identifier: MIT */
/* The devices a `hegetcl xsec` run uses: --device names one (SPEC), several (SPEC,SPEC,...),
 * every GPU (all-gpus), or, under hegetcl-mpi, the node's GPUs dealt out over its ranks
 * (per-rank). */
#ifndef HG_CLI_DEVICE_SET_H
#define HG_CLI_DEVICE_SET_H

#include <stddef.h>

#include "hegetcl/hegetcl.h"

typedef struct {
  hegetcl_context *contexts[HEGETCL_XSEC_MAX_DEVICES];
  unsigned count;
} hg_device_set;

/* Opens the devices of spec (team may be NULL); on failure returns non-zero with message naming
 * the part of spec that failed and the fix (the set is then empty). */
int hg_device_set_open(hg_device_set *set, const char *spec, const hegetcl_team *team,
                       char *message, size_t message_size);
void hg_device_set_close(hg_device_set *set);

#endif
