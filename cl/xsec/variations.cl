/* SPDX-License-Identifier: MIT */
/* Factorisation-scale and PDF variation weights of a photon run (CONVENTIONS.md, "Variation
 * weights of a photon run"): each event is made again from its Philox counter (xsec/event.h, the
 * same doubles as the sampler's), then for variation v with factor f_F and PDF table t
 *   factor_v = factor * S_t(f_F^2 mu_F^2) / S_0(mu_F^2),
 *   S = sum over the run's channels of norm_c f_a(x_a, Q^2) f_b(x_b, Q^2)
 * (one flavour: f_q(x1) f_qbar(x2)), so |M|^2 is not needed; the variation with the nominal
 * table and f_F = 1 gives factor itself, bit for bit. alpha is fixed, so mu_R does nothing. The
 * program also holds the channels' reduction over XSEC_VAR_CHUNK variations
 * (xsec/channels.cl), which sums the integration's weights per variation as the flavour
 * channels' are summed. Build options: those of xsec/kernels.cl, XSEC_VAR_CHUNK (variations per
 * launch) and XSEC_VAR_ORIENTATIONS (1, or 2 when a flavour run counts qbar q too). */
#include "analysis/histogram.cl"
#include "xsec/event.h"
#define XSEC_VAR_RUN_FLAVOURS FLAVOURS
#undef CHANNELS
#define CHANNELS XSEC_VAR_CHUNK
#include "xsec/channels.cl"

/* S of one PDF grid at Q^2 (the channels' sum weighted by their normalisations relative to the
 * first, or the one flavour's product). */
HG_INLINE double hg_xsec_var_pdf_sum(HG_GLOBAL const double *params, HG_GLOBAL const double *pdf,
                                     double x1, double x2, double q2, int *outside) {
#if XSEC_VAR_RUN_FLAVOURS
  double sum = 0.0;
  for (int k = 0; k < XSEC_VAR_RUN_FLAVOURS; ++k) {
    const double norm = params[HG_XSEC_CHANNEL_NORM(k)];
    const double q1 = hg_pdf_xfxq2(pdf, 2 * k, x1, q2, outside) / x1;
    const double qbar2 = hg_pdf_xfxq2(pdf, 2 * k + 1, x2, q2, outside) / x2;
    double s = q1 * qbar2;
#if XSEC_VAR_ORIENTATIONS == 2
    const double qbar1 = hg_pdf_xfxq2(pdf, 2 * k + 1, x1, q2, outside) / x1;
    const double q2f = hg_pdf_xfxq2(pdf, 2 * k, x2, q2, outside) / x2;
    s += qbar1 * q2f;
#endif
    sum += norm * s;
  }
  return sum;
#else
  return (hg_pdf_xfxq2(pdf, 0, x1, q2, outside) / x1) * (hg_pdf_xfxq2(pdf, 1, x2, q2, outside) / x2);
#endif
}

/* var[2 v], var[2 v + 1]: f_F and the PDF table t of variation v; tables[t]: the offset
 * (doubles) of table t's packed grid in pdfs (table 0: the run's own). Events: first +
 * get_global_id(0), or first + index[get_global_id(0)] with use_index (the unweighting's kept
 * events). out[c * n_events + e] for c < count: variation first_variation + c's factor
 * (ratio == 0), or its ratio to the nominal (ratio != 0; 1 when the nominal is 0); variations
 * past n_variations give 0. */
__kernel void xsec_variations(
    __global const double *restrict params, __global const double *restrict grid,
    __global const double *restrict pdf, __global const double *restrict sampling,
    const hg_u32 seed_low, const hg_u32 seed_high, const hg_u32 iteration, const hg_u32 first_low,
    const hg_u32 first_high, const hg_u32 n_events, __global const hg_u32 *restrict index,
    const hg_u32 use_index, __global const double *restrict var, const hg_u32 first_variation,
    const hg_u32 count, const hg_u32 n_variations, __global const double *restrict tables,
    __global const double *restrict pdfs, const hg_u32 ratio, __global double *restrict out) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const hg_u64 offset = use_index ? (hg_u64)index[e] : (hg_u64)e;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + offset;
  const hg_xsec_event ev =
      hg_xsec_make_event(params, grid, pdf, sampling, seed_low, seed_high, iteration, event);
  const double factor = ev.factor;
  const int live = factor != 0.0;
  const double x1 = live ? ev.pt.x1 : 0.5, x2 = live ? ev.pt.x2 : 0.5;
  const double mu_f2 = params[HG_XSEC_MU_F2];
  int outside = 0;
  const double nominal = hg_xsec_var_pdf_sum(params, pdf, x1, x2, mu_f2, &outside);
  for (hg_u32 c = 0; c < count; ++c) {
    const hg_u32 v = first_variation + c;
    double f = 0.0;
    if (v < n_variations) {
      const double f_f = var[2 * v];
      HG_GLOBAL const double *member = pdfs + (size_t)tables[(int)var[2 * v + 1]];
      const double varied = hg_xsec_var_pdf_sum(params, member, x1, x2, f_f * f_f * mu_f2, &outside);
      const double r = live && nominal != 0.0 ? varied / nominal : 0.0;
      f = ratio ? (live ? r : 1.0) : factor * r;
    }
    out[(size_t)c * n_events + e] = f;
  }
}
