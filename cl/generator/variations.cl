/* SPDX-License-Identifier: MIT */
/* Scale and PDF variation weights of one group's events (CONVENTIONS.md, "Variation weights"):
 * each event is made again from its Philox counter (generator/event.h, the same doubles as the
 * sampler's), then for variation v with factors f_R, f_F and PDF member m
 *   factor_v = base * sum over the group's members of f_a(x_a, f_F^2 mu_F^2) f_b(x_b, ...)
 *              * (alpha_s_m(f_R^2 mu_R^2) / alpha_s(mu_R^2))^k
 * where base * (the members' sum at the nominal) is the nominal factor, so |M|^2 is not needed:
 * the weight is factor_v |M|^2 and the ratio to the nominal factor_v / factor. The program also
 * holds the channels' reduction over GEN_VAR_CHUNK variations (xsec/channels.cl), which sums the
 * integration's weights per variation as the nominal's are summed. Build options: those of
 * generator/kernels.cl, GEN_VAR_CHUNK (variations per launch). */
#include "analysis/histogram.cl"
#include "generator/event.h"
#undef CHANNELS
#define CHANNELS GEN_VAR_CHUNK
#include "xsec/channels.cl"

/* doubles kept per event between the chunks of one batch */
#define HG_GEN_VAR_STATE 7

/* var[3 v + 0 .. 2]: f_R, f_F and the PDF table t of variation v; tables[2 t], tables[2 t + 1]:
 * the offsets (doubles) of table t's packed grid in pdfs and of its alpha_s table in alpha_s_all.
 * Events: first + get_global_id(0), or first + index[get_global_id(0)] with use_index (the
 * unweighting's accepted events). The first launch over a batch (load_state 0) keeps what the
 * variations need of each event in state (HG_GEN_VAR_STATE doubles per event, at k * n_events +
 * e); the next chunks (load_state 1) read it back instead of making the event again.
 * out[c * n_events + e] for c < GEN_VAR_CHUNK: variation
 * first_variation + c's factor (ratio == 0), or its ratio to the nominal (ratio != 0; 1 when
 * the nominal is 0); variations past n_variations give 0. */
__kernel void generator_variations(
    __global const double *restrict params, __global const double *restrict grid,
    __global const double *restrict pdf, __global const double *restrict alpha_s_table,
    const hg_u32 seed_low, const hg_u32 seed_high, const hg_u32 iteration, const hg_u32 first_low,
    const hg_u32 first_high, const hg_u32 n_events, __global const hg_u32 *restrict index,
    const hg_u32 use_index, __global const double *restrict var, const hg_u32 first_variation,
    const hg_u32 n_variations, __global const double *restrict tables,
    __global const double *restrict pdfs, __global const double *restrict alpha_s_all,
    const hg_u32 ratio, __global double *restrict state, const hg_u32 load_state,
    __global double *restrict out) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const size_t n = n_events;
  double x1, x2, mu_f2, mu_r2, alpha_s, base, factor;
  if (load_state) {
    x1 = state[e];
    x2 = state[n + e];
    mu_f2 = state[2 * n + e];
    mu_r2 = state[3 * n + e];
    alpha_s = state[4 * n + e];
    base = state[5 * n + e];
    factor = state[6 * n + e];
  } else {
    const hg_u64 offset = use_index ? (hg_u64)index[e] : (hg_u64)e;
    const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + offset;
    const hg_gen_event ev =
        hg_gen_make_event(params, grid, pdf, alpha_s_table, seed_low, seed_high, iteration, event);
    x1 = ev.pt.physical ? ev.pt.x1 : 0.5;
    x2 = ev.pt.physical ? ev.pt.x2 : 0.5;
    mu_f2 = ev.mu_f2;
    mu_r2 = ev.mu_r2;
    alpha_s = ev.alpha_s;
    base = ev.base;
    factor = ev.factor;
    state[e] = x1;
    state[n + e] = x2;
    state[2 * n + e] = mu_f2;
    state[3 * n + e] = mu_r2;
    state[4 * n + e] = alpha_s;
    state[5 * n + e] = base;
    state[6 * n + e] = factor;
  }
  for (int c = 0; c < GEN_VAR_CHUNK; ++c) {
    const hg_u32 v = first_variation + (hg_u32)c;
    double f = 0.0;
    if (v < n_variations) {
      const double f_r = var[3 * v], f_f = var[3 * v + 1];
      const int t = (int)var[3 * v + 2];
      HG_GLOBAL const double *member_pdf = pdfs + (size_t)tables[2 * t];
      HG_GLOBAL const double *member_alpha_s = alpha_s_all + (size_t)tables[2 * t + 1];
      const double q2 = f_f * f_f * mu_f2;
      double coupling = 1.0;
      const double as = hg_alpha_s(member_alpha_s, f_r * f_r * mu_r2);
      for (int k = 0; k < GEN_ALPHA_S_POWER; ++k) coupling *= as / alpha_s;
      int outside = 0;
      double sum = 0.0;
      const int n_members = (int)params[HG_GEN_N_MEMBERS];
      for (int m = 0; m < GEN_MEMBERS && m < n_members; ++m) {
        const int slot1 = (int)params[HG_GEN_MEMBER_SLOT1(m)];
        const int slot2 = (int)params[HG_GEN_MEMBER_SLOT2(m)];
        const int mirror = params[HG_GEN_MEMBER_MIRROR(m)] != 0.0;
        const double xa = mirror ? x2 : x1, xb = mirror ? x1 : x2;
        sum += hg_pdf_xfxq2(member_pdf, slot1, xa, q2, &outside) *
               hg_pdf_xfxq2(member_pdf, slot2, xb, q2, &outside);
      }
      f = base * sum * coupling;
      if (ratio) f = factor != 0.0 ? f / factor : 1.0;
    }
    out[(size_t)c * n_events + e] = f;
  }
}
