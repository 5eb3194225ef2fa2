/* SPDX-License-Identifier: MIT */
/* The VEGAS reduction: per work-group sums of the weights, their squares, counts, and the squared
 * weights per (dimension, bin) that the grid refinement needs, in a fixed order (no atomics).
 * The largest weight is kept too (the unweighting's maximum). Build options: VEGAS_DIMS,
 * VEGAS_BINS (<= 255), AMP_REAL (the |M|^2 buffer's type). */
#include "integrate/reduce_layout.h"
#include "integrate/weight.h"
#include "shared/kernel_names.h"
#include "shared/portable.h"

/* Work-group g reduces events [g * per_group, (g + 1) * per_group): w = factor (times me when
 * use_me), non-finite weights counted and left out. It writes sums[HG_REDUCE_SUMS * g + ...] and
 * hist[(g * VEGAS_DIMS + j) * VEGAS_BINS + b] = sum of w^2 over its events in bin b of dimension
 * j (bins[j * n_events + event]). */
__kernel __attribute__((reqd_work_group_size(HG_REDUCE_LOCAL, 1, 1))) void
vegas_reduce(__global const double *restrict factor, __global const AMP_REAL *restrict me,
             const hg_u32 use_me, __global const uchar *restrict bins, const hg_u32 n_events,
             const hg_u32 per_group, __global double *restrict sums,
             __global double *restrict hist) {
  __local double tile_w2[HG_REDUCE_LOCAL];
  __local uchar tile_bins[VEGAS_DIMS * HG_REDUCE_LOCAL];
  __local double local_hist[VEGAS_DIMS * VEGAS_BINS];
  __local double scratch[HG_REDUCE_SUMS * HG_REDUCE_LOCAL];
  const hg_u32 t = (hg_u32)get_local_id(0), g = (hg_u32)get_group_id(0);
  const hg_u32 start = g * per_group;
  const hg_u32 end = min(start + per_group, n_events);
  for (hg_u32 i = t; i < VEGAS_DIMS * VEGAS_BINS; i += HG_REDUCE_LOCAL) local_hist[i] = 0.0;
  double sum_w = 0.0, sum_w2 = 0.0, nonzero = 0.0, nonfinite = 0.0, largest = 0.0;
  for (hg_u32 base = start; base < end; base += HG_REDUCE_LOCAL) {
    const hg_u32 event = base + t;
    const int valid = event < end;
    const size_t e = valid ? event : start;
    double w = hg_event_weight(factor[e], use_me ? (double)me[e] : 1.0);
    const int finite = isfinite(w);
    nonfinite += (valid && !finite) ? 1.0 : 0.0;
    w = (valid && finite) ? w : 0.0;
    sum_w += w;
    sum_w2 += w * w;
    nonzero += w != 0.0 ? 1.0 : 0.0;
    largest = fmax(largest, w);
    barrier(CLK_LOCAL_MEM_FENCE);
    tile_w2[t] = w * w;
    for (int j = 0; j < VEGAS_DIMS; ++j)
      tile_bins[j * HG_REDUCE_LOCAL + t] = bins[(size_t)j * n_events + e];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (hg_u32 i = t; i < VEGAS_DIMS * VEGAS_BINS; i += HG_REDUCE_LOCAL) {
      const hg_u32 j = i / VEGAS_BINS, b = i % VEGAS_BINS;
      double acc = 0.0;
      for (int s = 0; s < HG_REDUCE_LOCAL; ++s)
        acc += tile_bins[j * HG_REDUCE_LOCAL + s] == b ? tile_w2[s] : 0.0;
      local_hist[i] += acc;
    }
  }
  scratch[t] = sum_w;
  scratch[HG_REDUCE_LOCAL + t] = sum_w2;
  scratch[2 * HG_REDUCE_LOCAL + t] = nonzero;
  scratch[3 * HG_REDUCE_LOCAL + t] = nonfinite;
  scratch[HG_REDUCE_MAX * HG_REDUCE_LOCAL + t] = largest;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (hg_u32 stride = HG_REDUCE_LOCAL / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      for (int k = 0; k < HG_REDUCE_MAX; ++k)
        scratch[k * HG_REDUCE_LOCAL + t] += scratch[k * HG_REDUCE_LOCAL + t + stride];
      scratch[HG_REDUCE_MAX * HG_REDUCE_LOCAL + t] =
          fmax(scratch[HG_REDUCE_MAX * HG_REDUCE_LOCAL + t],
               scratch[HG_REDUCE_MAX * HG_REDUCE_LOCAL + t + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t < HG_REDUCE_SUMS) sums[HG_REDUCE_SUMS * g + t] = scratch[t * HG_REDUCE_LOCAL];
  for (hg_u32 i = t; i < VEGAS_DIMS * VEGAS_BINS; i += HG_REDUCE_LOCAL)
    hist[(size_t)g * VEGAS_DIMS * VEGAS_BINS + i] = local_hist[i];
}
