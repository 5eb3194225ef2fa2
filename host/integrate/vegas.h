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
#include "io/checkpoint_file.h"

/* Enqueues the sampling of events [first_event, first_event + n_events) of iteration `iteration`
 * (and whatever else makes the weights, e.g. amplitudes), reading the grid from `grid`. */
typedef hegetcl_status (*hg_vegas_sampler)(void *user, uint32_t iteration, uint64_t first_event,
                                           size_t n_events, cl_mem grid);

/* The buffers a sampler fills and the reduction reads: factor (doubles), me (|M|^2 in the
 * program's AMP_REAL, or NULL when the factor is the whole weight), bins (uchar, dims x batch). */
typedef struct {
  cl_mem factor, me, bins;
} hg_vegas_buffers;

typedef struct hg_vegas hg_vegas;

/* A VEGAS integrator over dims dimensions using program's vegas_reduce (built with VEGAS_DIMS =
 * dims and VEGAS_BINS = settings->bins). */
hegetcl_status hg_vegas_create(hegetcl_context *ctx, cl_program program, unsigned dims,
                               const hegetcl_vegas_settings *settings, hg_vegas **out);
void hg_vegas_destroy(hg_vegas *v);

/* Runs the integration (see hegetcl_vegas_settings), calling sampler for every batch; after
 * hg_vegas_load, it goes on from the loaded state (the progress callback first hears the loaded
 * iterations, marked restored) and a complete one only reports its result. */
hegetcl_status hg_vegas_integrate(hg_vegas *v, hg_vegas_sampler sampler, void *user,
                                  const hg_vegas_buffers *buffers, hegetcl_vegas_progress progress,
                                  void *progress_user, hegetcl_vegas_result *result);

/* Called after every iteration's sums, before the grid is refined (index counts adaptation
 * iterations too; adapting != 0 for those). A status other than HEGETCL_OK stops the run. */
typedef hegetcl_status (*hg_vegas_iteration_end)(void *user, uint32_t index, int adapting,
                                                 uint64_t n_events, double estimate,
                                                 double variance);
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

/* The largest weight of the latest iteration, and that iteration's grid uploaded to the device
 * (*grid: the buffer a sampler reads), for unweighting after the integration. */
double hg_vegas_last_max_weight(const hg_vegas *v);
hegetcl_status hg_vegas_upload_last_grid(hg_vegas *v, cl_mem *grid);

/* The grid edges (dims x (bins + 1)), for outputs and tests. */
const double *hg_vegas_edges(const hg_vegas *v);

/* Lepage's refinement of one dimension's edges (bins + 1 values) from the squared weights per bin
 * (d, bins values): smoothed, compressed with exponent alpha, then equal shares per new bin. */
void hg_vegas_refine_dimension(double *edges, const double *d, unsigned bins, double alpha,
                               double *scratch);

#endif
