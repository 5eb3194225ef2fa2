/* SPDX-License-Identifier: MIT */
/* The flavour channels' share of a batch: per work-group sums of each channel's weight and its
 * square, in a fixed order (no atomics); histogram_accumulate adds the groups up. Build options:
 * CHANNELS (nothing is built for 0), AMP_REAL. */
#include "integrate/weight.h"
#include "shared/portable.h"
#include "xsec/params.h"

#if CHANNELS
/* Group g sums events [g * per_group, (g + 1) * per_group) of the batch: w_c = channel_factor[c *
 * n_events + e] * me[e] (non-finite weights count 0: VEGAS stops the run on them). Writes
 * partial[(g * CHANNELS + c) * 2] = sum of w_c and partial[... + 1] = sum of w_c^2. */
__kernel __attribute__((reqd_work_group_size(HG_CHANNEL_LOCAL, 1, 1))) void
xsec_channel_reduce(__global const double *restrict channel_factor,
                    __global const AMP_REAL *restrict me, const hg_u32 n_events,
                    const hg_u32 per_group, __global double *restrict partial) {
  __local double scratch[2 * HG_CHANNEL_LOCAL];
  const hg_u32 t = (hg_u32)get_local_id(0), g = (hg_u32)get_group_id(0);
  const hg_u32 start = g * per_group, end = min(start + per_group, n_events);
  for (int c = 0; c < CHANNELS; ++c) {
    double sum_w = 0.0, sum_w2 = 0.0;
    for (hg_u32 e = start + t; e < end; e += HG_CHANNEL_LOCAL) {
      double w = hg_event_weight(channel_factor[(size_t)c * n_events + e], (double)me[e]);
      w = isfinite(w) ? w : 0.0;
      sum_w += w;
      sum_w2 += w * w;
    }
    scratch[t] = sum_w;
    scratch[HG_CHANNEL_LOCAL + t] = sum_w2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (hg_u32 stride = HG_CHANNEL_LOCAL / 2; stride > 0; stride /= 2) {
      if (t < stride) {
        scratch[t] += scratch[t + stride];
        scratch[HG_CHANNEL_LOCAL + t] += scratch[HG_CHANNEL_LOCAL + t + stride];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t < 2) partial[((size_t)g * CHANNELS + c) * 2 + t] = scratch[t * HG_CHANNEL_LOCAL];
    barrier(CLK_LOCAL_MEM_FENCE); /* scratch is reused by the next channel */
  }
}
#endif
