/* SPDX-License-Identifier: MIT */
/* A process run shared over several devices of this process and over processes (docs/user-guide.md,
 * "Several GPUs and machines"), as a photon run is: the run is built once more on every other
 * device (a replica: the same groups, programs and buffers there), and the pilot's and the
 * integration's batches go to the devices and the processes through hg_vegas_run's work
 * (integrate/batch_share.h), so the sums, folded in batch order, do not depend on how many
 * share them. The unweighting runs on the context's device of every process, each making its
 * share of the events from a stream of its own (event numbers from rank x 2^40). */
#include "generator/share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator/run_internal.h"

gen_group *hg_gen_worker_group(gen_group *g, unsigned worker) {
  return worker == 0 ? g : &g->run->replicas[worker - 1]->groups[g->index];
}

hegetcl_status hg_gen_share_open(hg_gen_run *run, const hegetcl_xsec_hooks *hooks) {
  const hegetcl_xsec_sharing *sharing = hooks ? hooks->sharing : NULL;
  if (sharing == NULL) return HEGETCL_OK;
  hegetcl_context *ctx = run->ctx;
  const hegetcl_team *team = sharing->team;
  if (team != NULL &&
      (team->size < 1 || team->rank < 0 || team->rank >= team->size || team->allreduce_sum == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "a team of %d processes with rank %d: not a team",
                   team->size, team->rank);
  if (sharing->n_devices > HEGETCL_XSEC_MAX_DEVICES - 1)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%u devices: at most %d share one process's run",
                   sharing->n_devices + 1, HEGETCL_XSEC_MAX_DEVICES);
  if (team != NULL && team->size > 1 && hooks->checkpointing != NULL &&
      hooks->checkpointing->path != NULL && hooks->checkpointing->path[0] != '\0')
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "checkpoints of a run shared by %d processes are not supported: run without "
                   "--checkpoint, or in one process, which may use several GPUs (--device "
                   "all-gpus, or a list)",
                   team->size);
  run->team = team;
  if (team != NULL) run->first_event = (uint64_t)team->rank << 40;
  if (sharing->n_devices == 0) return HEGETCL_OK;
  run->replicas = calloc(sharing->n_devices, sizeof *run->replicas);
  if (run->replicas == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  for (unsigned k = 0; k < sharing->n_devices; ++k) {
    hg_gen_run *replica = NULL;
    const hegetcl_status status = hg_gen_run_create(sharing->devices[k], &run->config, &replica);
    if (replica != NULL) run->replicas[run->n_replicas++] = replica;
    if (status != HEGETCL_OK)
      return hg_fail(ctx, status, "device %u of the run: %s", k + 1,
                     hegetcl_last_error(sharing->devices[k]));
  }
  return HEGETCL_OK;
}

void hg_gen_share_close(hg_gen_run *run) {
  for (unsigned k = 0; k < run->n_replicas; ++k) hg_gen_run_destroy(run->replicas[k]);
  free(run->replicas);
  run->replicas = NULL;
  run->n_replicas = 0;
}

uint64_t hg_gen_share_events(const hg_gen_run *run, uint64_t n) {
  const hegetcl_team *team = run->team;
  if (team == NULL || team->size <= 1) return n;
  const uint64_t size = (uint64_t)team->size, rank = (uint64_t)team->rank;
  return n / size + (rank < n % size ? 1 : 0);
}

hegetcl_status hg_gen_share_combine_unweighting(hg_gen_run *run, hegetcl_status status,
                                                uint64_t requested, hegetcl_xsec_result *r) {
  const hegetcl_team *team = run->team;
  if (team == NULL || team->size <= 1) return status;
  hegetcl_unweighting_result *u = &r->unweighting;
  /* every rank calls it, whatever its status, so that none waits for a rank that failed: one
   * sum of the run's counts (10) and each group's (4 a group) */
  const size_t n_groups = r->n_groups, n_sums = 10 + 4 * n_groups;
  double *sums = calloc(n_sums, sizeof *sums);
  if (sums == NULL) /* a few bytes a group: the ranks' calls no longer match, said as the cause */
    return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY,
                   "no memory to combine the ranks' unweighting of %zu groups", n_groups);
  sums[0] = (double)u->written;
  sums[1] = (double)u->tried;
  sums[2] = (double)u->overweight;
  sums[3] = (double)u->negative;
  sums[4] = u->sigma_check_fb * (double)u->tried;
  sums[5] = u->overweight_sigma_fraction * u->sigma_check_fb * (double)u->tried;
  sums[6] = u->seconds;
  sums[7] = status != HEGETCL_OK ? team->rank + 1.0 : 0.0;
  sums[8] = (double)u->sampled;
  sums[9] = (double)u->batches;
  for (size_t g = 0; g < n_groups; ++g) {
    sums[10 + 4 * g] = (double)r->groups[g].unweighted_events;
    sums[11 + 4 * g] = (double)r->groups[g].unweighting_tried;
    sums[12 + 4 * g] = (double)r->groups[g].unweighting_sampled;
    sums[13 + 4 * g] = (double)r->groups[g].unweighting_batches;
  }
  char message[512];
  const int failed = team->allreduce_sum(team->user, sums, n_sums, message, sizeof message);
  if (!failed && status == HEGETCL_OK && sums[7] == 0.0) {
    for (size_t g = 0; g < n_groups; ++g) {
      r->groups[g].unweighted_events = (uint64_t)sums[10 + 4 * g];
      r->groups[g].unweighting_tried = (uint64_t)sums[11 + 4 * g];
      r->groups[g].unweighting_sampled = (uint64_t)sums[12 + 4 * g];
      r->groups[g].unweighting_batches = (uint64_t)sums[13 + 4 * g];
    }
    u->requested = requested;
    u->written = (uint64_t)sums[0];
    u->tried = (uint64_t)sums[1];
    u->overweight = (uint64_t)sums[2];
    u->negative = (uint64_t)sums[3];
    u->sampled = (uint64_t)sums[8];
    u->batches = (uint64_t)sums[9];
    u->efficiency = u->tried > 0 ? (double)u->written / (double)u->tried : 0.0;
    u->sigma_check_fb = u->tried > 0 ? sums[4] / (double)u->tried : 0.0;
    u->overweight_sigma_fraction = sums[4] > 0.0 ? sums[5] / sums[4] : 0.0;
    u->seconds = sums[6] / team->size; /* the ranks ran side by side */
  }
  const double failed_ranks = sums[7];
  free(sums);
  if (failed)
    return hg_fail(run->ctx, HEGETCL_ERR_IO, "combining the ranks' unweighting: %s", message);
  if (status != HEGETCL_OK) return status;
  if (failed_ranks != 0.0)
    return hg_fail(run->ctx, HEGETCL_ERR_IO,
                   "another rank failed in the unweighting (rank number sum %.0f, counted from "
                   "1); its own error is in its output",
                   failed_ranks);
  return HEGETCL_OK;
}
