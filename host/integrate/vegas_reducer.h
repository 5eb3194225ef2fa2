/* SPDX-License-Identifier: MIT */
/* One device's part of VEGAS: the grid in a device buffer and the reduction of a batch's weights
 * (cl/integrate/reduce.cl) into that batch's sums, which the host folds in batch order
 * (host/integrate/vegas.c). A run on several devices has one reducer per device. */
#ifndef HG_VEGAS_REDUCER_H
#define HG_VEGAS_REDUCER_H

#include <stddef.h>

#include "core/context.h"
#include "integrate/reduce_layout.h"

/* The buffers a sampler fills and the reduction reads: factor (doubles), me (|M|^2 in the
 * program's AMP_REAL, or NULL when the factor is the whole weight), bins (uchar, dims x batch). */
typedef struct {
  cl_mem factor, me, bins;
} hg_vegas_buffers;

typedef struct hg_vegas_reducer hg_vegas_reducer;

/* A reducer on ctx with program's vegas_reduce (built with VEGAS_DIMS = dims, VEGAS_BINS = bins)
 * for batches of up to batch events. */
hegetcl_status hg_vegas_reducer_create(hegetcl_context *ctx, cl_program program, unsigned dims,
                                       unsigned bins, size_t batch, hg_vegas_reducer **out);
void hg_vegas_reducer_destroy(hg_vegas_reducer *r);

/* The buffers the reduction reads (set once per integration). */
hegetcl_status hg_vegas_reducer_set_buffers(hg_vegas_reducer *r, const hg_vegas_buffers *b);

/* Uploads edges (dims x (bins + 1)) into the device grid; the buffer a sampler reads. */
hegetcl_status hg_vegas_reducer_upload(hg_vegas_reducer *r, const double *edges);
cl_mem hg_vegas_reducer_grid(const hg_vegas_reducer *r);

/* Doubles a batch's sums take: HG_REDUCE_SUMS, then dims x bins squared weights per grid bin. */
size_t hg_vegas_batch_sums(unsigned dims, unsigned bins);

/* Reduces a batch of n_events (the buffers filled) into out (hg_vegas_batch_sums doubles,
 * overwritten): the work-groups' partial sums added group by group, the largest weight at
 * HG_REDUCE_MAX. */
hegetcl_status hg_vegas_reducer_run(hg_vegas_reducer *r, size_t n_events, double *out);

#endif
