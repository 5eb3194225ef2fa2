/* SPDX-License-Identifier: MIT */
/* Histograms of a run over a process (CONVENTIONS.md, "Histograms of a run over a process"):
 * each event of a group's batch is made again from its Philox counter (generator/event.h, the
 * sampler's doubles) and its final-state particles fill the photon runs' observables
 * (analysis/observables.h: pT and eta of the particle ranked k in pT, Delta R, the final state's
 * mass). A group's members with the incoming pair swapped are its events rotated by pi about the
 * x axis, which flips every eta: an event takes that orientation with the probability of those
 * members' share of its weight (a Philox draw of its own), so the eta histograms are those of
 * the events. The program also holds the histogram reduction. Build options: the group's sampler
 * options (generator/kernels.cl), GEN_HIST_OBJECTS (the final-state particles). */
#undef N_PHOTONS
#define N_PHOTONS GEN_HIST_OBJECTS
#include "analysis/histogram.cl"
#include "analysis/observables.h"
#include "generator/event.h"

/* Event first + get_global_id(0) of iteration `iteration` (the group's key): every observable
 * fill's value and bin (hist_params: the binning, at xsec/params.h's HG_XSEC_HIST_* places) at
 * f * n_events + e; an event of weight 0 fills 0s (its weight makes them count nothing). */
__kernel void generator_observables(
    __global const double *restrict params, __global const double *restrict grid,
    __global const double *restrict pdf, __global const double *restrict alpha_s_table,
    const hg_u32 seed_low, const hg_u32 seed_high, const hg_u32 iteration, const hg_u32 first_low,
    const hg_u32 first_high, const hg_u32 n_events, __global const double *restrict hist_params,
    __global float *restrict obs_value, __global ushort *restrict obs_bin) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)e;
  const hg_gen_event ev =
      hg_gen_make_event(params, grid, pdf, alpha_s_table, seed_low, seed_high, iteration, event);
  double value[HG_OBS_FILLS(N_PHOTONS)];
  const int live = ev.factor != 0.0;
  hg_obs_values_of((const double(*)[4])ev.pt.p, N_PHOTONS, value);
  double mirrored = 0.0;
  for (int m = 0; m < GEN_MEMBERS; ++m)
    mirrored += params[HG_GEN_MEMBER_MIRROR(m)] != 0.0 ? ev.member[m] : 0.0;
  const hg_philox_words r = hg_philox4x32_10(
      hg_philox_counter(event, iteration, HG_GEN_BLOCK_HISTOGRAM), seed_low, seed_high);
  const double u = hg_uniform_double(r.v[0], r.v[1]);
  const double eta_sign = live && u * ev.factor < mirrored ? -1.0 : 1.0;
  for (int k = N_PHOTONS; k < 2 * N_PHOTONS; ++k) value[k] *= eta_sign;
  for (int h = 0; h < HG_OBS_HISTOGRAMS(N_PHOTONS); ++h) {
    const int family = hg_obs_family(h, N_PHOTONS), first = hg_obs_first_fill(h, N_PHOTONS);
    const int nb = (int)hist_params[HG_XSEC_HIST_BINS(family)];
    const double lo = hist_params[HG_XSEC_HIST_LO(family)];
    const double hi = hist_params[HG_XSEC_HIST_HI(family)];
    for (int f = first; f < first + hg_obs_fill_count(h, N_PHOTONS); ++f) {
      const double x = live ? value[f] : 0.0;
      obs_value[(size_t)f * n_events + e] = (float)x;
      obs_bin[(size_t)f * n_events + e] = (ushort)hg_obs_bin(x, nb, lo, hi);
    }
  }
}
