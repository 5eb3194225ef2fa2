/* SPDX-License-Identifier: MIT */
/* The cross-section sampler: each event (xsec/event.h) writes its momenta (scaled by 1/sqrt(shat),
 * in the amplitude's precision), its helicity configuration when sampled, the weight factor that
 * multiplies |M|^2 (0 outside the cuts), its VEGAS bins and, when histograms are filled, the
 * value and bin of every observable fill. The program also holds the VEGAS reduction, the
 * histogram reduction, the flavour channels' reduction, the adaptive sampling's sums and the
 * unweighting kernels. Build options: N_PHOTONS, VEGAS_DIMS, VEGAS_BINS, AMP_REAL,
 * PHASE_SPACE_RAMBO and PHASE_SPACE_MULTICHANNEL (0 or 1), HELICITY_SAMPLED and HELICITY_ADAPTIVE
 * (0 or 1), HISTOGRAMS (0 or 1), FLAVOURS and CHANNELS (xsec/event.h). */
#include "analysis/histogram.cl"
#include "analysis/observables.h"
#include "events/unweight.cl"
#include "integrate/reduce.cl"
#include "shared/layout.h"
#include "xsec/channels.cl"
#include "xsec/event.h"
#include "xsec/sampling_sums.cl"

/* Event first_event + get_global_id(0) of iteration `iteration`; momenta, helicity, factor, bins,
 * obs_value and obs_bin (written when fill_observables) and channel_factor (when CHANNELS > 0) are
 * indexed by the batch position (n_events per batch; fill f or channel c of event e at
 * f * n_events + e, c * n_events + e). pdf holds the quark (slot 0) and antiquark (slot 1) grids,
 * or with CHANNELS > 0 those of each flavour k in slots 2k and 2k + 1. sampling: the adaptive
 * tables (xsec/params.h); ps_channel: each event's phase-space channel (written with
 * PHASE_SPACE_MULTICHANNEL). */
__kernel void xsec_sample(__global const double *restrict params,
                          __global const double *restrict grid, __global const double *restrict pdf,
                          const hg_u32 seed_low, const hg_u32 seed_high, const hg_u32 iteration,
                          const hg_u32 first_low, const hg_u32 first_high, const hg_u32 n_events,
                          __global AMP_REAL *restrict momenta, __global hg_u32 *restrict helicity,
                          __global double *restrict factor, __global uchar *restrict bins,
                          __global float *restrict obs_value, __global ushort *restrict obs_bin,
                          const hg_u32 fill_observables, __global double *restrict channel_factor,
                          __global const double *restrict sampling,
                          __global uchar *restrict ps_channel) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)e;
  const hg_xsec_event ev =
      hg_xsec_make_event(params, grid, pdf, sampling, seed_low, seed_high, iteration, event);
#if PHASE_SPACE_MULTICHANNEL
  ps_channel[e] = (uchar)ev.ps_channel;
#else
  (void)ps_channel;
#endif
  for (int j = 0; j < VEGAS_DIMS; ++j) bins[(size_t)j * n_events + e] = (uchar)ev.bin[j];
#if HELICITY_SAMPLED
  helicity[e] = ev.helicity;
#endif
  factor[e] = ev.factor;
#if CHANNELS
  for (int c = 0; c < CHANNELS; ++c) channel_factor[(size_t)c * n_events + e] = ev.channel[c];
#else
  (void)channel_factor;
#endif
  const double inv_sqrt_shat = 1.0 / sqrt(ev.pt.shat);
  for (int i = 0; i < HG_N_PARTICLES; ++i)
    for (int c = 0; c < 4; ++c)
      momenta[HG_SOA_INDEX(c, i, HG_N_PARTICLES, n_events, e)] =
          (AMP_REAL)(ev.pt.p[i][c] * inv_sqrt_shat);
#if HISTOGRAMS
  /* the same for the whole batch: only the combined iterations fill histograms */
  if (!fill_observables) return;
  double value[HG_OBS_FILLS(N_PHOTONS)];
  hg_obs_values(&ev.pt, N_PHOTONS, value);
  /* orientation both with one flavour: the event counts for either proton's quark; its
   * orientation draw (the one the unweighted event takes) mirrors it, which flips the sign of
   * every eta (flavour channels count either proton's quark in their weights: no mirror) */
  const hg_philox_words r = hg_philox4x32_10(
      hg_philox_counter(event, iteration, HG_BLOCK_ORIENTATION), seed_low, seed_high);
  const double eta_sign = (params[HG_XSEC_MIRROR] != 0.0 && (r.v[0] & 1u)) ? -1.0 : 1.0;
  for (int k = N_PHOTONS; k < 2 * N_PHOTONS; ++k) value[k] *= eta_sign;
  for (int h = 0; h < HG_OBS_HISTOGRAMS(N_PHOTONS); ++h) {
    const int family = hg_obs_family(h, N_PHOTONS), first = hg_obs_first_fill(h, N_PHOTONS);
    const int nb = (int)params[HG_XSEC_HIST_BINS(family)];
    const double lo = params[HG_XSEC_HIST_LO(family)], hi = params[HG_XSEC_HIST_HI(family)];
    for (int f = first; f < first + hg_obs_fill_count(h, N_PHOTONS); ++f) {
      obs_value[(size_t)f * n_events + e] = (float)value[f];
      obs_bin[(size_t)f * n_events + e] = (ushort)hg_obs_bin(value[f], nb, lo, hi);
    }
  }
#endif
}
