/* SPDX-License-Identifier: MIT */
/* One event of a process group from its Philox counter: VEGAS map -> phase space -> scales ->
 * PDFs of the group's members -> the factor that multiplies |M|^2. The sampler and the
 * unweighted-event gather share it. Build options: VEGAS_DIMS, VEGAS_BINS, GEN_N_JETS,
 * GEN_SYSTEM (1: a massive pair balances; 0: the last jet), GEN_MEMBERS (at least the group's
 * members, params[HG_GEN_N_MEMBERS]), GEN_ALPHA_S_POWER (k in |M|^2 ~ alpha_s^k),
 * GEN_SCALE_CHOICE (phasespace/scales.h: 0 for the fixed scales), GEN_PS_CHANNELS (the
 * phase-space channels, generator/multichannel.h; 1: no draw, the map's own weight),
 * GEN_PS_CHAINS (how many of them, the last ones, are t-channel chains; 0 when left out). */
#ifndef HG_GENERATOR_EVENT_H
#define HG_GENERATOR_EVENT_H

#include "generator/multichannel.h"
#include "generator/params.h"
#include "generator/phase_space.h"
#include "integrate/vegas_map.h"
#include "pdf/alpha_s.h"
#include "pdf/lhapdf6_interp.h"
#include "phasespace/scales.h"
#include "shared/philox.h"

#define HG_GEN_N_EXTERNAL (2 + GEN_N_JETS + 2 * GEN_SYSTEM)
#ifndef GEN_PS_CHAINS
#define GEN_PS_CHAINS 0
#endif

typedef struct {
  hg_gen_point pt;
  double factor; /* the weight is factor |M|^2; 0 outside the map's region or the cuts */
  double member[GEN_MEMBERS];   /* each member's share of factor (they add up to it) */
  double mu_f2, mu_r2, alpha_s; /* the scales squared and alpha_s(mu_R) */
  double base; /* factor / the sum of the members' PDF products (generator/variations.cl) */
  int bin[VEGAS_DIMS];
  int channel; /* the phase-space channel the point was made with */
} hg_gen_event;

HG_INLINE hg_gen_event hg_gen_make_event(HG_GLOBAL const double *params,
                                         HG_GLOBAL const double *grid, HG_GLOBAL const double *pdf,
                                         HG_GLOBAL const double *alpha_s_table, hg_u32 seed_low,
                                         hg_u32 seed_high, hg_u32 iteration, hg_u64 event) {
  hg_gen_event ev;
  double u[VEGAS_DIMS + 1];
  for (int b = 0; b < (VEGAS_DIMS + 1) / 2; ++b) {
    const hg_philox_words r =
        hg_philox4x32_10(hg_philox_counter(event, iteration, (hg_u32)b), seed_low, seed_high);
    u[2 * b] = hg_uniform_double(r.v[0], r.v[1]);
    u[2 * b + 1] = hg_uniform_double(r.v[2], r.v[3]);
  }
  double x[VEGAS_DIMS];
  double jacobian = 1.0;
  for (int j = 0; j < VEGAS_DIMS; ++j)
    x[j] = hg_vegas_map(grid, j, VEGAS_BINS, u[j], &jacobian, &ev.bin[j]);
  double pt_min[GEN_N_JETS + 1], eta_max[GEN_N_JETS + 1];
  for (int k = 0; k < GEN_N_JETS; ++k) {
    pt_min[k] = params[HG_GEN_OBJECT_PT(k)];
    eta_max[k] = params[HG_GEN_OBJECT_ETA(k)];
  }
  /* the channel: drawn by its weight alpha_c when the group has several */
  int c = 0;
#if GEN_PS_CHANNELS > 1
  {
    const hg_philox_words r = hg_philox4x32_10(
        hg_philox_counter(event, iteration, HG_GEN_BLOCK_CHANNEL), seed_low, seed_high);
    /* the first c with u < cumulative[c], by a scan of the few channels (at most 8): the same c
     * as hg_table_draw's binary search, whose use here Intel's OpenCL CPU compiler (2026.2.0)
     * turned into a generator_sample that crashed (p p > j j) */
    const double u_c = hg_uniform_double(r.v[0], r.v[1]);
    for (int k = 0; k + 1 < GEN_PS_CHANNELS; ++k)
      c += u_c >= params[HG_GEN_CHANNEL_TABLE(GEN_MEMBERS) + k] ? 1 : 0;
  }
#endif
  ev.channel = c;
  const int kind = (int)params[HG_GEN_CHANNEL_KIND(GEN_MEMBERS, GEN_PS_CHANNELS, c)];
  const double ca = params[HG_GEN_CHANNEL_A(GEN_MEMBERS, GEN_PS_CHANNELS, c)];
  const double cb = params[HG_GEN_CHANNEL_B(GEN_MEMBERS, GEN_PS_CHANNELS, c)];
  const int balance = kind == HG_GEN_CHANNEL_BALANCE ? (int)ca : GEN_N_JETS - 1;
  ev.pt = hg_gen_make_point(x, GEN_N_JETS, GEN_SYSTEM, params[HG_GEN_SQRT_S], pt_min, eta_max,
                            params[HG_GEN_MASS_A], params[HG_GEN_MASS_B], params[HG_GEN_M_MIN],
                            params[HG_GEN_M_MAX], balance, kind == HG_GEN_CHANNEL_MASS ? ca : 0.0,
                            kind == HG_GEN_CHANNEL_MASS ? cb : 0.0);
#if GEN_PS_CHAINS > 0
  /* a chain channel's point (the first chain's map computed for the other channels, unused) */
  double mass[HG_GEN_MAX_EXTERNAL];
  double sqrt_shat_min = 0.0;
  for (int i = 0; i < HG_GEN_MAX_EXTERNAL; ++i) mass[i] = 0.0;
  for (int k = 0; k < GEN_N_JETS; ++k) sqrt_shat_min += pt_min[k];
  if (GEN_SYSTEM) {
    mass[2 + GEN_N_JETS] = params[HG_GEN_MASS_A];
    mass[3 + GEN_N_JETS] = params[HG_GEN_MASS_B];
    sqrt_shat_min += params[HG_GEN_MASS_A] + params[HG_GEN_MASS_B];
  }
  const double shat_min = sqrt_shat_min * sqrt_shat_min;
  {
    const int chain_c = kind == HG_GEN_CHANNEL_CHAIN ? c : GEN_PS_CHANNELS - GEN_PS_CHAINS;
    const hg_gen_point chained = hg_gen_chain_point(
        x, HG_GEN_N_EXTERNAL - 2, params[HG_GEN_SQRT_S], mass,
        params + HG_GEN_CHANNEL_CHAIN_RECORD(GEN_MEMBERS, GEN_PS_CHANNELS, chain_c), shat_min);
    if (kind == HG_GEN_CHANNEL_CHAIN) ev.pt = chained;
  }
  {
    /* every channel's density at the point, whatever its kind: the weight 1 / sum_c alpha_c g_c */
    double below = 0.0, sum = 0.0;
    for (int k = 0; k < GEN_PS_CHANNELS; ++k) {
      const double cumulative = params[HG_GEN_CHANNEL_TABLE(GEN_MEMBERS) + k];
      const double alpha = cumulative - below;
      below = cumulative;
      sum += alpha * hg_gen_channel_density(
                         &ev.pt, (int)params[HG_GEN_CHANNEL_KIND(GEN_MEMBERS, GEN_PS_CHANNELS, k)],
                         params[HG_GEN_CHANNEL_A(GEN_MEMBERS, GEN_PS_CHANNELS, k)],
                         params[HG_GEN_CHANNEL_B(GEN_MEMBERS, GEN_PS_CHANNELS, k)],
                         params + HG_GEN_CHANNEL_CHAIN_RECORD(GEN_MEMBERS, GEN_PS_CHANNELS, k),
                         GEN_N_JETS, GEN_SYSTEM, params[HG_GEN_SQRT_S], pt_min, eta_max,
                         params[HG_GEN_M_MIN], params[HG_GEN_M_MAX], mass, shat_min);
    }
    ev.pt.weight = ev.pt.physical && sum > 0.0 ? 1.0 / sum : 0.0;
  }
#elif GEN_PS_CHANNELS > 1
  {
    /* every channel's density at the point: the weight 1 / sum_c alpha_c g_c */
    double alpha[GEN_PS_CHANNELS], a[GEN_PS_CHANNELS], b[GEN_PS_CHANNELS], below = 0.0;
    for (int k = 0; k < GEN_PS_CHANNELS; ++k) {
      const double cumulative = params[HG_GEN_CHANNEL_TABLE(GEN_MEMBERS) + k];
      alpha[k] = cumulative - below;
      below = cumulative;
      a[k] = params[HG_GEN_CHANNEL_A(GEN_MEMBERS, GEN_PS_CHANNELS, k)];
      b[k] = params[HG_GEN_CHANNEL_B(GEN_MEMBERS, GEN_PS_CHANNELS, k)];
    }
    const double w = hg_gen_multichannel_weight(&ev.pt, GEN_PS_CHANNELS, kind, alpha, a, b,
                                                GEN_N_JETS, params[HG_GEN_SQRT_S], pt_min, eta_max,
                                                params[HG_GEN_M_MIN], params[HG_GEN_M_MAX]);
    ev.pt.weight = ev.pt.physical ? w : 0.0;
  }
#endif
  /* MadGraph's cuts on every particle (those the map meets by construction included) */
  int codes[HG_GEN_N_EXTERNAL];
  for (int i = 0; i < HG_GEN_N_EXTERNAL; ++i) codes[i] = (int)params[HG_GEN_CUT_CODES + i];
  const int passes =
      hg_passes_mg_cuts(HG_MOMENTA(ev.pt.p), codes, 2, HG_GEN_N_EXTERNAL, params + HG_GEN_CUTS);
  ev.pt.physical = ev.pt.physical && passes;
  const double x1 = ev.pt.physical ? ev.pt.x1 : 0.5, x2 = ev.pt.physical ? ev.pt.x2 : 0.5;
#if GEN_SCALE_CHOICE == HG_SCALE_FIXED
  ev.mu_f2 = params[HG_GEN_MU_F2];
  ev.mu_r2 = params[HG_GEN_MU_R2];
#else
  /* symmetric in the final state and invariant under the mirror's rotation, so the sampler's
   * order serves every member */
  const double mu =
      hg_dynamical_scale(GEN_SCALE_CHOICE, HG_MOMENTA(ev.pt.p), 0, 2, HG_GEN_N_EXTERNAL, 0.0);
  const double mu_f = mu * params[HG_GEN_MU_F_FACTOR], mu_r = mu * params[HG_GEN_MU_R_FACTOR];
  ev.mu_f2 = ev.pt.physical ? mu_f * mu_f : params[HG_GEN_MU_F2];
  ev.mu_r2 = ev.pt.physical ? mu_r * mu_r : params[HG_GEN_MU_R2];
#endif
  ev.alpha_s = hg_alpha_s(alpha_s_table, ev.mu_r2);
  const double q2 = ev.mu_f2;
  /* |M|^2 came with the amplitude's alpha_s: (alpha_s(mu_R) / that)^k */
  double coupling = 1.0;
  for (int k = 0; k < GEN_ALPHA_S_POWER; ++k) coupling *= ev.alpha_s / params[HG_GEN_ALPHA_S_AMP];
  int outside = 0;
  double sum = 0.0;
  const int n_members = (int)params[HG_GEN_N_MEMBERS];
  for (int m = 0; m < GEN_MEMBERS; ++m) {
    /* the same count for every event of the group: no divergence */
    if (m >= n_members) {
      ev.member[m] = 0.0;
      continue;
    }
    const int slot1 = (int)params[HG_GEN_MEMBER_SLOT1(m)];
    const int slot2 = (int)params[HG_GEN_MEMBER_SLOT2(m)];
    const int mirror = params[HG_GEN_MEMBER_MIRROR(m)] != 0.0;
    /* a mirror member at this point is the group's process at the point rotated by pi about x:
     * beam 1's parton then carries x2 (CONVENTIONS.md, "Partonic channels") */
    const double xa = mirror ? x2 : x1, xb = mirror ? x1 : x2;
    ev.member[m] =
        hg_pdf_xfxq2(pdf, slot1, xa, q2, &outside) * hg_pdf_xfxq2(pdf, slot2, xb, q2, &outside);
    sum += ev.member[m];
  }
  const double shat = ev.pt.shat;
  const double base = ev.pt.physical ? ev.pt.weight * jacobian * coupling *
                                           params[HG_GEN_NORMALISATION] / (2.0 * shat * x1 * x2)
                                     : 0.0;
  ev.base = base;
  ev.factor = base * sum;
  for (int m = 0; m < GEN_MEMBERS; ++m) ev.member[m] *= base;
  return ev;
}

#endif
