/* SPDX-License-Identifier: MIT */
/* An iteration's batches shared out over devices (one host thread each) and processes (MPI ranks,
 * through hegetcl_team), with sums that do not depend on how they were shared: every batch's sums
 * are made on one device, then folded into the totals in batch order. docs/user-guide.md, "Several
 * GPUs and machines". */
#ifndef HG_BATCH_SHARE_H
#define HG_BATCH_SHARE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "hegetcl/xsec.h"

/* Makes the sums (per_batch doubles, overwritten) of events [first_event, first_event + n_events)
 * of iteration `iteration` on worker `worker`; a worker is called from one thread at a time. */
typedef hegetcl_status (*hg_batch_fn)(void *user, unsigned worker, uint32_t iteration,
                                      uint64_t first_event, size_t n_events, double *out);

typedef struct {
  unsigned workers;                  /* devices of this process, 1 or more */
  hegetcl_context *const *contexts;  /* worker w's context (its failure's message) */
  size_t per_batch;                  /* doubles a batch's sums take */
  size_t max_index;                  /* the sum that is a maximum, not a total (per_batch: none) */
  hg_batch_fn batch;
  void *user;
  const hegetcl_team *team;          /* NULL: this process alone */
  const volatile sig_atomic_t *stop; /* non-zero: stop at the next round (may be NULL) */
} hg_batch_share;

/* The work area of hg_batch_share_run, kept between calls (zeroed before the first; free with
 * hg_batch_share_free). */
typedef struct {
  double *round;
  size_t capacity;
} hg_batch_rounds;
void hg_batch_share_free(hg_batch_rounds *rounds);

/* Runs iteration `iteration`'s n_events in batches of batch_size events (the last one shorter)
 * and folds their sums, batch by batch in order, into totals (per_batch doubles, zeroed here).
 * Batch b is this process's when b % team size == rank; its workers take their batches as they
 * become free. Every process learns the others' batches after each round (a few batches per
 * worker), so a stop or a failure anywhere ends the run everywhere: *stopped = 1 and HEGETCL_OK
 * when a stop was asked for (the iteration's sums are then incomplete), the failing worker's
 * status and message on ctx, or "rank R failed" on the others. */
hegetcl_status hg_batch_share_run(hegetcl_context *ctx, const hg_batch_share *s,
                                  hg_batch_rounds *rounds, uint32_t iteration, uint64_t n_events,
                                  size_t batch_size, double *totals, int *stopped);

#endif
