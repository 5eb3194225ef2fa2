/* SPDX-License-Identifier: MIT */
/* VEGAS on the device (Lepage, J. Comput. Phys. 27 (1978) 192): the grid on the host and in a
 * device buffer, the reduction kernel (cl/integrate/reduce.cl), refinement and the combination of
 * iterations on the host. Any integrand whose sampler writes weight factors and bin indices. */
#ifndef HG_VEGAS_H
#define HG_VEGAS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "hegetcl/vegas.h"
#include "integrate/batch_share.h"
#include "integrate/vegas_reducer.h"
#include "io/checkpoint_file.h"

/* Enqueues the sampling of events [first_event, first_event + n_events) of iteration `iteration`
 * (and whatever else makes the weights, e.g. amplitudes), reading the grid from `grid`. */
typedef hegetcl_status (*hg_vegas_sampler)(void *user, uint32_t iteration, uint64_t first_event,
                                           size_t n_events, cl_mem grid);

typedef struct hg_vegas hg_vegas;

/* A VEGAS integrator over dims dimensions (the grid, its refinement and the combination on the
 * host); hg_vegas_integrate reduces with program's vegas_reduce (built with VEGAS_DIMS = dims
 * and VEGAS_BINS = settings->bins; program may be NULL for hg_vegas_run alone). */
hegetcl_status hg_vegas_create(hegetcl_context *ctx, cl_program program, unsigned dims,
                               const hegetcl_vegas_settings *settings, hg_vegas **out);
void hg_vegas_destroy(hg_vegas *v);

/* freeze = 1: the grid is refined after the adapting iterations only, so every combined iteration
 * samples the same density (0, the default: after every iteration, classic VEGAS). */
void hg_vegas_freeze_after_adaptation(hg_vegas *v, int freeze);

/* Who makes a batch's sums (host/integrate/batch_share.h): workers (devices of this process), each
 * told the grid at the start of every iteration (edges, dims x (bins + 1)), then batches whose
 * sums are HG_REDUCE_SUMS weight sums, dims x bins grid-bin sums (hg_vegas_reducer_run) and
 * `extra` doubles of the caller's own, which the observer receives summed over the iteration. */
typedef struct {
  unsigned workers;
  hegetcl_context *const *contexts; /* worker w's */
  size_t extra;
  hegetcl_status (*grid)(void *user, unsigned worker, const double *edges);
  hg_batch_fn batch;
  void *user;
  const hegetcl_team *team; /* NULL: this process alone */
} hg_vegas_work;

/* Runs the integration (see hegetcl_vegas_settings) with work's batches; after hg_vegas_load, it
 * goes on from the loaded state (the progress callback first hears the loaded iterations, marked
 * restored) and a complete one only reports its result. */
hegetcl_status hg_vegas_run(hg_vegas *v, const hg_vegas_work *work,
                            hegetcl_vegas_progress progress, void *progress_user,
                            hegetcl_vegas_result *result);

/* hg_vegas_run on the VEGAS context alone, calling sampler for every batch; after
 * hg_vegas_load, it goes on from the loaded state (the progress callback first hears the loaded
 * iterations, marked restored) and a complete one only reports its result. */
hegetcl_status hg_vegas_integrate(hg_vegas *v, hg_vegas_sampler sampler, void *user,
                                  const hg_vegas_buffers *buffers, hegetcl_vegas_progress progress,
                                  void *progress_user, hegetcl_vegas_result *result);

/* Called after every iteration's sums, before the grid is refined (index counts adaptation
 * iterations too; adapting != 0 for those; extra: the work's extra sums over the iteration). A
 * status other than HEGETCL_OK stops the run. */
typedef hegetcl_status (*hg_vegas_iteration_end)(void *user, uint32_t index, int adapting,
                                                 uint64_t n_events, double estimate,
                                                 double variance, const double *extra);
void hg_vegas_set_observer(hg_vegas *v, hg_vegas_iteration_end observer, void *user);

/* Called after every iteration, its sums combined, the grid refined and progress told: the
 * moment to save the state (hg_vegas_save). A status other than HEGETCL_OK stops the run. */
typedef hegetcl_status (*hg_vegas_checkpoint)(void *user);
void hg_vegas_set_checkpoint(hg_vegas *v, hg_vegas_checkpoint checkpoint, void *user);

/* When *stop != 0 at a batch boundary, the integration stops: the unfinished iteration is
 * dropped (the state stays that after the last finished one), hg_vegas_integrate returns
 * HEGETCL_OK with the result so far, and hg_vegas_stopped() is 1. */
void hg_vegas_set_stop(hg_vegas *v, const volatile sig_atomic_t *stop);
int hg_vegas_stopped(const hg_vegas *v);

/* 1 once the integration is complete; the iterations done (adapting ones included). */
int hg_vegas_done(const hg_vegas *v);
uint32_t hg_vegas_iterations_done(const hg_vegas *v);

/* The state between iterations (grids, combination, every iteration's record, exactly) as
 * checkpoint lines "vegas.*", and back; hg_vegas_load fails with the context's message naming the
 * file and line when the lines are missing, malformed or of another grid. */
void hg_vegas_save(const hg_vegas *v, hg_ckpt_writer *w);
hegetcl_status hg_vegas_load(hg_vegas *v, hg_ckpt *c);

/* The largest weight of the latest iteration, and that iteration's grid (dims x (bins + 1)
 * edges), for unweighting after the integration. */
double hg_vegas_last_max_weight(const hg_vegas *v);
const double *hg_vegas_last_edges(const hg_vegas *v);

/* The grid edges (dims x (bins + 1)), for outputs and tests. */
const double *hg_vegas_edges(const hg_vegas *v);

/* Lepage's refinement of one dimension's edges (bins + 1 values) from the squared weights per bin
 * (d, bins values): smoothed, compressed with exponent alpha, then equal shares per new bin. */
void hg_vegas_refine_dimension(double *edges, const double *d, unsigned bins, double alpha,
                               double *scratch);

/* Non-zero when chi2_per_dof over iterations combined iterations (at least 3) lies so far above
 * 1 that iterations agreeing within their errors would reach it with a probability below about
 * 1e-6: the run ends with an error instead of a sigma that cannot be trusted. */
int hg_vegas_chi2_unreliable(double chi2_per_dof, unsigned iterations);

#endif
