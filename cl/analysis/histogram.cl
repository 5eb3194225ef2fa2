/* SPDX-License-Identifier: MIT */
/* Histograms on the device: per work-group partial sums of every bin in a fixed order (no
 * atomics), then one sum over the groups added to the iteration's accumulator. The bin layout:
 * histogram h (cl/analysis/observables.h) takes its family's bins + 2 consecutive bins. Build
 * options: N_PHOTONS, AMP_REAL. */
#include "analysis/histogram_layout.h"
#include "analysis/observables.h"
#include "integrate/weight.h"
#include "shared/portable.h"
#include "xsec/params.h"

/* The first bin of histogram h in the flat layout. */
HG_INLINE hg_u32 hg_hist_offset(__global const double *params, int h) {
  hg_u32 offset = 0;
  for (int k = 0; k < h; ++k)
    offset += (hg_u32)params[HG_XSEC_HIST_BINS(hg_obs_family(k, N_PHOTONS))] + 2u;
  return offset;
}

/* Group (g, h) sums histogram h over events [g * per_group, (g + 1) * per_group) of the batch:
 * w = factor * me (non-finite weights are left out; VEGAS stops the run on them), x the fill's
 * value. Writes partial[(g * total_bins + bin) * HG_HIST_SUMS + k]. */
__kernel __attribute__((reqd_work_group_size(HG_HIST_LOCAL, 1, 1))) void
histogram_reduce(__global const double *restrict params, __global const double *restrict factor,
                 __global const AMP_REAL *restrict me, __global const float *restrict obs_value,
                 __global const ushort *restrict obs_bin, const hg_u32 n_events,
                 const hg_u32 per_group, const hg_u32 total_bins, __global double *restrict partial) {
  const hg_u32 t = (hg_u32)get_local_id(0), g = (hg_u32)get_group_id(0);
  const int h = (int)get_group_id(1);
  const hg_u32 nb = (hg_u32)params[HG_XSEC_HIST_BINS(hg_obs_family(h, N_PHOTONS))] + 2u;
  const int first = hg_obs_first_fill(h, N_PHOTONS), fills = hg_obs_fill_count(h, N_PHOTONS);
  const hg_u32 start = g * per_group, end = min(start + per_group, n_events);
  const hg_u32 own0 = t, own1 = t + HG_HIST_LOCAL;
  double a0[HG_HIST_SUMS] = {0.0, 0.0, 0.0, 0.0, 0.0}, a1[HG_HIST_SUMS] = {0.0, 0.0, 0.0, 0.0, 0.0};
  /* work-items that own no bin (narrow histograms) skip the scan */
  const hg_u32 stop = own0 < nb ? end : start;
  for (hg_u32 e = start; e < stop; ++e) {
    double w = hg_event_weight(factor[e], (double)me[e]);
    w = isfinite(w) ? w : 0.0;
    if (w == 0.0) continue; /* the same event for every work-item: no divergence */
    for (int f = first; f < first + fills; ++f) {
      const hg_u32 b = obs_bin[(size_t)f * n_events + e];
      const double x = (double)obs_value[(size_t)f * n_events + e];
      const double wx = w * x;
      const int m0 = b == own0, m1 = b == own1;
      a0[0] += m0 ? w : 0.0;
      a0[1] += m0 ? w * w : 0.0;
      a0[2] += m0 ? wx : 0.0;
      a0[3] += m0 ? wx * x : 0.0;
      a0[4] += m0 ? 1.0 : 0.0;
      a1[0] += m1 ? w : 0.0;
      a1[1] += m1 ? w * w : 0.0;
      a1[2] += m1 ? wx : 0.0;
      a1[3] += m1 ? wx * x : 0.0;
      a1[4] += m1 ? 1.0 : 0.0;
    }
  }
  const hg_u32 offset = hg_hist_offset(params, h);
  __global double *out = partial + ((size_t)g * total_bins + offset) * HG_HIST_SUMS;
  for (int k = 0; k < HG_HIST_SUMS; ++k) {
    if (own0 < nb) out[own0 * HG_HIST_SUMS + k] = a0[k];
    if (own1 < nb) out[own1 * HG_HIST_SUMS + k] = a1[k];
  }
}

/* accumulator[i] = the sum over groups 0 .. groups - 1 of partial[g * count + i], in group order
 * (count = total_bins * HG_HIST_SUMS). A store, not +=: the batch's sums are whole here, and the
 * buffer needs no clearing before (Oclgrind 21.10 does not see a clEnqueueFillBuffer as
 * initialising a fresh buffer, so reading one back flagged every cell). */
__kernel void histogram_accumulate(__global const double *restrict partial, const hg_u32 groups,
                                   const hg_u32 count, __global double *restrict accumulator) {
  const size_t i = get_global_id(0);
  if (i >= count) return;
  double sum = 0.0;
  for (hg_u32 g = 0; g < groups; ++g) sum += partial[(size_t)g * count + i];
  accumulator[i] = sum;
}
