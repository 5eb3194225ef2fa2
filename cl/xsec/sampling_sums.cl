/* SPDX-License-Identifier: MIT */
/* What the adaptive sampling learns from a batch: per work-group sums of the weights by photon
 * helicity configuration and of the squared weights and counts by phase-space channel, in a fixed
 * order (no atomics); histogram_accumulate adds the groups up (CONVENTIONS.md, "Adaptive
 * sampling"). Build options: N_PHOTONS, AMP_REAL, HELICITY_ADAPTIVE, PHASE_SPACE_MULTICHANNEL
 * (nothing is built when both are 0). */
#include "integrate/weight.h"
#include "shared/portable.h"
#include "xsec/params.h"

#if HELICITY_ADAPTIVE || PHASE_SPACE_MULTICHANNEL
/* Group g sums events [g * per_group, (g + 1) * per_group) of the batch into
 * partial[g * HG_SAMPLING_SUMS(N_PHOTONS) + slot] (slots: xsec/params.h), w = factor * me
 * (non-finite weights count 0: VEGAS stops the run on them). Work-item t owns the slots congruent
 * to t modulo the group size and scans every event of the group in order, adding those that fall
 * in its slots: each sum has one writer and a fixed order. */
__kernel __attribute__((reqd_work_group_size(HG_SAMPLING_LOCAL, 1, 1))) void
xsec_sampling_reduce(__global const double *restrict factor, __global const AMP_REAL *restrict me,
                     __global const hg_u32 *restrict helicity,
                     __global const uchar *restrict ps_channel, const hg_u32 n_events,
                     const hg_u32 per_group, __global double *restrict partial) {
  __local double sums[HG_SAMPLING_SUMS(N_PHOTONS)];
  const hg_u32 t = (hg_u32)get_local_id(0), g = (hg_u32)get_group_id(0);
  const hg_u32 start = g * per_group, end = min(start + per_group, n_events);
  for (hg_u32 i = t; i < HG_SAMPLING_SUMS(N_PHOTONS); i += HG_SAMPLING_LOCAL) sums[i] = 0.0;
  for (hg_u32 e = start; e < end; ++e) {
    double w = hg_event_weight(factor[e], (double)me[e]);
    w = isfinite(w) ? w : 0.0;
#if HELICITY_ADAPTIVE
    const hg_u32 c = (helicity[e] >> 2) - 1u;
    if (c % HG_SAMPLING_LOCAL == t) sums[c] += w;
#endif
#if PHASE_SPACE_MULTICHANNEL
    const hg_u32 k = HG_PHOTON_CONFIGS(N_PHOTONS) + 2u * (hg_u32)ps_channel[e];
    if (k % HG_SAMPLING_LOCAL == t) sums[k] += w * w;
    if ((k + 1u) % HG_SAMPLING_LOCAL == t) sums[k + 1u] += 1.0;
#endif
  }
  (void)helicity;
  (void)ps_channel;
  __global double *out = partial + (size_t)g * HG_SAMPLING_SUMS(N_PHOTONS);
  for (hg_u32 i = t; i < HG_SAMPLING_SUMS(N_PHOTONS); i += HG_SAMPLING_LOCAL) out[i] = sums[i];
}
#endif
