/* SPDX-License-Identifier: MIT */
/* The recursive engine: Berends-Giele off-shell quark currents over subsets of the photons. */
#ifndef HG_RECURSIVE_CL
#define HG_RECURSIVE_CL

#include "amplitudes/engine_common.cl"

#define HG_FULL_SET ((1u << N_PHOTONS) - 1u)

/* J(S), the quark line with the photons of S attached in every order, obeys
 *   J(S) = -(sigma(P_S) / P_S^2) sum_{j in S} sigma-bar(V_j) J(S \ {j}),  P_S = p_q - sum_S k,
 * which is fvixx0 summed over the last photon j, its propagator taken out of the sum (it depends
 * on S only); the amplitude closes with fo: sum_j fo sigma-bar(V_j) J(all \ {j}). A massless quark
 * keeps its chirality, so J has two components: the upper ones of fi for a left-handed quark
 * (sigma-bar at the vertex, sigma in the propagator), the lower ones for a right-handed quark
 * (the roles swapped). The cost is n 2^(n-1) vertex products. */
HG_INLINE hg_complex hg_engine_amplitude(hg_wave fi, hg_wave fo, const hg_wave *photons,
                                         int quark_helicity, hg_coupling gc) {
  const int left = quark_helicity < 0;
  const REAL t_vertex = left ? (REAL)1 : -(REAL)1;
  hg_complex current0[HG_FULL_SET], current1[HG_FULL_SET];
  hg_mat2 vertex[N_PHOTONS];
  hg_fourvec k[N_PHOTONS];
  for (int j = 0; j < N_PHOTONS; ++j) {
    vertex[j] = hg_sigma_of_wave(photons[j], t_vertex);
    k[j] = hg_wave_momentum(photons[j]);
  }
  const hg_fourvec p_quark = hg_wave_momentum(fi);
  current0[0] = hg_csel(left, fi.w[0], fi.w[2]);
  current1[0] = hg_csel(left, fi.w[1], fi.w[3]);
  for (hg_u32 set = 1; set < HG_FULL_SET; ++set) {
    hg_complex sum0 = hg_czero(), sum1 = hg_czero();
    hg_fourvec p = p_quark;
    for (int j = 0; j < N_PHOTONS; ++j) {
      if (!((set >> j) & 1u)) continue;
      const hg_u32 rest = set ^ (1u << j);
      hg_complex r0, r1;
      hg_mat2_apply(vertex[j], current0[rest], current1[rest], &r0, &r1);
      sum0 = hg_cadd(sum0, r0);
      sum1 = hg_cadd(sum1, r1);
      for (int c = 0; c < 4; ++c) p.v[c] -= k[j].v[c];
    }
    const REAL d = -(REAL)1 / hg_minkowski(p, p);
    hg_complex r0, r1;
    hg_mat2_apply(hg_sigma_real(p, -t_vertex), sum0, sum1, &r0, &r1);
    current0[set] = hg_cscale(d, r0);
    current1[set] = hg_cscale(d, r1);
  }
  const hg_complex o0 = hg_csel(left, fo.w[2], fo.w[0]);
  const hg_complex o1 = hg_csel(left, fo.w[3], fo.w[1]);
  hg_complex amp = hg_czero();
  for (int j = 0; j < N_PHOTONS; ++j) {
    const hg_u32 rest = HG_FULL_SET ^ (1u << j);
    hg_complex r0, r1;
    hg_mat2_apply(vertex[j], current0[rest], current1[rest], &r0, &r1);
    amp = hg_cfma(o1, r1, hg_cfma(o0, r0, amp));
  }
  const hg_complex g = hg_csel(left, gc.gal[0], gc.gal[1]);
  for (int j = 0; j < N_PHOTONS; ++j) amp = hg_cmul(amp, g);
  return amp;
}

#endif
