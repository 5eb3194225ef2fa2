/* SPDX-License-Identifier: MIT */
/* HELAS three-vector vertex: vvvxxx (the amplitude) and jvvxxx (the off-shell current), the
 * triple-gluon (and WWZ/WWA) Lorentz structure. */
#ifndef HG_VVV_CL
#define HG_VVV_CL

#include "helas/propagator.h"
#include "helas/wavefunction.h"

/* a.b with the metric (+,-,-,-) and no complex conjugation, for the vector components w[0..3]. */
HG_INLINE hg_complex hg_wave_dot(hg_wave a, hg_wave b) {
  hg_complex s = hg_cmul(a.w[0], b.w[0]);
  s = hg_csub(s, hg_cmul(a.w[1], b.w[1]));
  s = hg_csub(s, hg_cmul(a.w[2], b.w[2]));
  return hg_csub(s, hg_cmul(a.w[3], b.w[3]));
}

/* p.w for a real four-vector p and a wave's vector components. */
HG_INLINE hg_complex hg_momentum_dot(hg_fourvec p, hg_wave w) {
  hg_complex s = hg_cscale(p.v[0], w.w[0]);
  s = hg_csub(s, hg_cscale(p.v[1], w.w[1]));
  s = hg_csub(s, hg_cscale(p.v[2], w.w[2]));
  return hg_csub(s, hg_cscale(p.v[3], w.w[3]));
}

HG_INLINE hg_fourvec hg_fourvec_diff(hg_fourvec a, hg_fourvec b) {
  return hg_fourvec_make(a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3]);
}

/* HELAS vvvxxx: the three-vector amplitude, with P(w) a wave's slot momentum (outgoing, as
 * vxxxxx's nsv = +1 gives it) and dot products as hg_wave_dot:
 *   vvvxxx = -g [ (wm.wp) (P(wm) - P(wp)).w3 + (wp.w3) (P(wp) - P(w3)).wm
 *                 + (w3.wm) (P(w3) - P(wm)).wp ].
 * HELAS adds and subtracts x_i w_i (x_i = P(w_i)^0 / w_i^0) inside the momenta, terms that cancel
 * identically; they are left out. Cyclic in (wm, wp, w3), odd under exchanging two of them. */
HG_INLINE hg_complex vvvxxx(hg_wave wm, hg_wave wp, hg_wave w3, REAL g) {
  const hg_fourvec pm = hg_wave_momentum(wm), pp = hg_wave_momentum(wp);
  const hg_fourvec p3 = hg_wave_momentum(w3);
  hg_complex v = hg_cmul(hg_wave_dot(wm, wp), hg_momentum_dot(hg_fourvec_diff(pm, pp), w3));
  v = hg_cfma(hg_wave_dot(wp, w3), hg_momentum_dot(hg_fourvec_diff(pp, p3), wm), v);
  v = hg_cfma(hg_wave_dot(w3, wm), hg_momentum_dot(hg_fourvec_diff(p3, pm), wp), v);
  return hg_cscale(-g, v);
}

/* HELAS jvvxxx: the off-shell vector current of v1 and v2 (vector mass M, width Gamma), slots
 * P(jvv) = P(v1) + P(v2), q = -P(jvv), s = q^2, p1 = P(v1), p2 = P(v2):
 *   j12^mu = (p1 - p2)^mu (v1.v2) + ((p2 - q).v1) v2^mu - ((p1 - q).v2) v1^mu;
 *   M = 0: jvv^mu = -g j12^mu / s                                        (Feynman gauge);
 *   M > 0: jvv^mu = -g (j12^mu - q^mu js) / (s - M^2 + i M Gamma theta(s)),
 *          js = ((v1.v2)(p2^2 - p1^2) + (p1.v1)(p1.v2) - (p2.v1)(p2.v2)) / M^2   (unitary gauge;
 *          HELAS puts the width in only for s >= 0).
 * So vvvxxx(v1, v2, w3, g) = s (jvvxxx(v1, v2, g, 0, 0) . w3) when P(w3) = q, and with a mass
 * (s - M^2 + i M Gamma theta(s)) (jvv . w3) when also q.w3 = 0. */
HG_INLINE hg_wave jvvxxx(hg_wave v1, hg_wave v2, REAL g, REAL vmass, REAL vwidth) {
  hg_wave jvv;
  jvv.w[4] = hg_cadd(v1.w[4], v2.w[4]);
  jvv.w[5] = hg_cadd(v1.w[5], v2.w[5]);
  const hg_fourvec p1 = hg_wave_momentum(v1), p2 = hg_wave_momentum(v2);
  const hg_fourvec pj = hg_wave_momentum(jvv);
  const hg_fourvec q = hg_fourvec_make(-pj.v[0], -pj.v[1], -pj.v[2], -pj.v[3]);
  const REAL s = hg_minkowski(q, q);
  const hg_complex v12 = hg_wave_dot(v1, v2);
  const hg_complex sv1 = hg_momentum_dot(hg_fourvec_diff(p2, q), v1);
  const hg_complex sv2 = hg_cneg(hg_momentum_dot(hg_fourvec_diff(p1, q), v2));
  hg_complex j12[4];
  for (int mu = 0; mu < 4; ++mu)
    j12[mu] = hg_cadd(hg_cscale(p1.v[mu] - p2.v[mu], v12),
                      hg_cadd(hg_cmul(sv1, v2.w[mu]), hg_cmul(sv2, v1.w[mu])));
  if (vmass == (REAL)0) {
    const REAL gs = -g / s;
    for (int mu = 0; mu < 4; ++mu) jvv.w[mu] = hg_cscale(gs, j12[mu]);
    return jvv;
  }
  const REAL vm2 = vmass * vmass;
  const REAL m1 = hg_minkowski(p1, p1), m2 = hg_minkowski(p2, p2);
  const hg_complex s11 = hg_momentum_dot(p1, v1), s12 = hg_momentum_dot(p1, v2);
  const hg_complex s21 = hg_momentum_dot(p2, v1), s22 = hg_momentum_dot(p2, v2);
  const hg_complex js = hg_cscale(
      (REAL)1 / vm2, hg_csub(hg_cfma(s11, s12, hg_cscale(m2 - m1, v12)), hg_cmul(s21, s22)));
  const hg_complex dg = hg_cscale(-g, hg_cinv(s - vm2, s >= (REAL)0 ? vmass * vwidth : (REAL)0));
  for (int mu = 0; mu < 4; ++mu) jvv.w[mu] = hg_cmul(dg, hg_csub(j12[mu], hg_cscale(q.v[mu], js)));
  return jvv;
}

#endif
