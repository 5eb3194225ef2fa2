/* SPDX-License-Identifier: MIT */
/* Batches of an iteration over threads (one per device) and ranks, folded in batch order. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/batch_share.h"

/* Batches per worker and round: enough to keep a device busy while another's sums come back. */
#define HG_ROUND_BATCHES_PER_WORKER 2

/* One round's share of this process: its batches are slots mine[0 .. count) of the round. */
typedef struct {
  const hg_batch_share *s;
  uint32_t iteration;
  uint64_t n_events, first_batch;
  size_t batch_size;
  const size_t *mine;
  size_t count;
  atomic_size_t next;
  double *round;
} round_work;

typedef struct {
  round_work *work;
  unsigned worker;
  hegetcl_status status;
} worker_job;

static void *run_worker(void *arg) {
  worker_job *job = arg;
  round_work *w = job->work;
  const hg_batch_share *s = w->s;
  for (;;) {
    const size_t k = atomic_fetch_add(&w->next, 1);
    if (k >= w->count) break;
    const size_t slot = w->mine[k];
    const uint64_t first = (w->first_batch + slot) * w->batch_size;
    const uint64_t left = w->n_events - first;
    const size_t n = left < w->batch_size ? (size_t)left : w->batch_size;
    job->status = s->batch(s->user, job->worker, w->iteration, first, n,
                           w->round + slot * s->per_batch);
    if (job->status != HEGETCL_OK) {
      atomic_store(&w->next, w->count); /* the others stop after their batch */
      break;
    }
  }
  return NULL;
}

void hg_batch_share_free(hg_batch_rounds *rounds) {
  free(rounds->round);
  rounds->round = NULL;
  rounds->capacity = 0;
}

/* This process's batches of a round: every worker runs in a thread of its own (the first in the
 * calling one). Returns the first failing worker's index in *failed (or workers). */
static void run_round(round_work *w, hegetcl_status *status, unsigned *failed) {
  const unsigned workers = w->s->workers;
  worker_job jobs[HEGETCL_XSEC_MAX_DEVICES];
  pthread_t threads[HEGETCL_XSEC_MAX_DEVICES];
  int started[HEGETCL_XSEC_MAX_DEVICES] = {0};
  for (unsigned k = 0; k < workers; ++k) jobs[k] = (worker_job){w, k, HEGETCL_OK};
  for (unsigned k = 1; k < workers && k < w->count; ++k)
    started[k] = pthread_create(&threads[k], NULL, run_worker, &jobs[k]) == 0;
  run_worker(&jobs[0]);
  for (unsigned k = 1; k < workers; ++k)
    if (started[k]) pthread_join(threads[k], NULL);
  *status = HEGETCL_OK;
  *failed = workers;
  for (unsigned k = 0; k < workers; ++k)
    if (jobs[k].status != HEGETCL_OK) {
      *status = jobs[k].status;
      *failed = k;
      return;
    }
}

hegetcl_status hg_batch_share_run(hegetcl_context *ctx, const hg_batch_share *s,
                                  hg_batch_rounds *rounds, uint32_t iteration, uint64_t n_events,
                                  size_t batch_size, double *totals, int *stopped) {
  *stopped = 0;
  memset(totals, 0, s->per_batch * sizeof *totals);
  const int rank = s->team ? s->team->rank : 0, ranks = s->team ? s->team->size : 1;
  const uint64_t n_batches = (n_events + batch_size - 1) / batch_size;
  const size_t per_round = (size_t)ranks * s->workers * HG_ROUND_BATCHES_PER_WORKER;
  /* the round's batch sums, then two flags: a stop asked for, a failure (by rank + 1) */
  const size_t need = per_round * s->per_batch + 2;
  if (rounds->capacity < need) {
    double *grown = realloc(rounds->round, need * sizeof *grown);
    if (grown == NULL)
      return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for %zu batches' sums", per_round);
    rounds->round = grown;
    rounds->capacity = need;
  }
  size_t *mine = malloc(per_round * sizeof *mine);
  if (mine == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for a round's batches");
  hegetcl_status status = HEGETCL_OK;
  for (uint64_t first = 0; first < n_batches && status == HEGETCL_OK; first += per_round) {
    const size_t slots = n_batches - first < per_round ? (size_t)(n_batches - first) : per_round;
    double *round = rounds->round;
    memset(round, 0, (slots * s->per_batch + 2) * sizeof *round);
    round_work w = {.s = s,
                    .iteration = iteration,
                    .n_events = n_events,
                    .first_batch = first,
                    .batch_size = batch_size,
                    .mine = mine,
                    .round = round};
    for (size_t k = 0; k < slots; ++k)
      if ((first + k) % (uint64_t)ranks == (uint64_t)rank) mine[w.count++] = k;
    atomic_init(&w.next, 0);
    double *flags = round + slots * s->per_batch;
    if (s->stop != NULL && *s->stop != 0) flags[0] = 1.0;
    unsigned failed = s->workers;
    if (flags[0] == 0.0) run_round(&w, &status, &failed);
    if (status != HEGETCL_OK) {
      flags[1] = rank + 1.0;
      if (failed < s->workers && s->contexts[failed] != ctx)
        hg_fail(ctx, status, "%s", hegetcl_last_error(s->contexts[failed]));
    }
    if (ranks > 1) {
      char message[512];
      if (s->team->allreduce_sum(s->team->user, round, slots * s->per_batch + 2, message,
                                 sizeof message) != 0) {
        status = hg_fail(ctx, HEGETCL_ERR_IO, "combining the ranks' batch sums: %s", message);
        break;
      }
    }
    if (status != HEGETCL_OK) break;
    if (flags[1] != 0.0) {
      /* the sum of the failing ranks' numbers: one of them when a single rank failed */
      status = hg_fail(ctx, HEGETCL_ERR_IO,
                       "another rank failed (rank number sum %.0f, counted from 1); its own error "
                       "is in its output",
                       flags[1]);
      break;
    }
    if (flags[0] != 0.0) {
      *stopped = 1;
      break;
    }
    /* batch order, whoever made them: the same totals for any number of devices and ranks */
    for (size_t k = 0; k < slots; ++k) {
      const double *b = round + k * s->per_batch;
      for (size_t i = 0; i < s->per_batch; ++i)
        totals[i] = i == s->max_index ? fmax(totals[i], b[i]) : totals[i] + b[i];
    }
  }
  free(mine);
  return status;
}
