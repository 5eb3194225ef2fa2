/* SPDX-License-Identifier: MIT */
/* HELAS four-gluon functions: ggggxx (one colour structure of the contact amplitude) and jgggxx
 * (the matching off-shell gluon current). */
#ifndef HG_VVVV_CL
#define HG_VVVV_CL

#include "helas/vvv.cl"

/* HELAS ggggxx: the part of the four-gluon contact amplitude with colour f^{abe} f^{cde}, for
 * gluons w1, w2, w3, w4 of colours a, b, c, d (dots as hg_wave_dot, momenta not used):
 *   ggggxx(w1, w2, w3, w4) = g^2 [ (w1.w4)(w2.w3) - (w1.w3)(w2.w4) ].
 * The full vertex is three calls,
 *   f^{abe} f^{cde} ggggxx(w1, w2, w3, w4) + f^{ace} f^{dbe} ggggxx(w1, w3, w4, w2)
 *   + f^{ade} f^{bce} ggggxx(w1, w4, w2, w3).
 * Odd under w1 <-> w2 and under w3 <-> w4, even under (w1, w2) <-> (w3, w4); the three
 * structures' kinematic parts add up to zero. */
HG_INLINE hg_complex ggggxx(hg_wave w1, hg_wave w2, hg_wave w3, hg_wave w4, REAL g) {
  const hg_complex v = hg_csub(hg_cmul(hg_wave_dot(w1, w4), hg_wave_dot(w2, w3)),
                               hg_cmul(hg_wave_dot(w1, w3), hg_wave_dot(w2, w4)));
  return hg_cscale(g * g, v);
}

/* HELAS jgggxx: the off-shell gluon (Feynman gauge) from w1, w2, w3 through the contact vertex,
 * colour structure f^{abe} f^{cde} with d the new gluon's colour; slots P(j) = P(w1) + P(w2)
 * + P(w3), q = -P(j):
 *   jgggxx^mu = g^2 [ w1^mu (w2.w3) - w2^mu (w1.w3) ] / q^2,
 * so q^2 (jgggxx(w1, w2, w3) . w4) = ggggxx(w1, w2, w3, w4). The full current of gluon d is
 *   f^{abe} f^{cde} jgggxx(w1, w2, w3) + f^{ace} f^{dbe} jgggxx(w3, w1, w2)
 *   + f^{ade} f^{bce} jgggxx(w2, w3, w1),
 * term by term the three ggggxx calls above with w4 the off-shell gluon. */
HG_INLINE hg_wave jgggxx(hg_wave w1, hg_wave w2, hg_wave w3, REAL g) {
  hg_wave j;
  j.w[4] = hg_cadd(hg_cadd(w1.w[4], w2.w[4]), w3.w[4]);
  j.w[5] = hg_cadd(hg_cadd(w1.w[5], w2.w[5]), w3.w[5]);
  const hg_fourvec q = hg_wave_momentum(j);
  const REAL dv = g * g / hg_minkowski(q, q);
  const hg_complex w23 = hg_wave_dot(w2, w3), w13 = hg_wave_dot(w1, w3);
  for (int mu = 0; mu < 4; ++mu)
    j.w[mu] = hg_cscale(dv, hg_csub(hg_cmul(w1.w[mu], w23), hg_cmul(w2.w[mu], w13)));
  return j;
}

#endif
