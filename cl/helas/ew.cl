/* SPDX-License-Identifier: MIT */
/* HELAS functions of the electroweak sector: scalars (the Higgs), fermion-fermion-scalar,
 * vector-vector-scalar, three- and four-vector vertices with complex couplings and massive
 * (unitary-gauge) currents, and the scalar self-couplings (CONVENTIONS.md, "HELAS slots" and
 * "Electroweak parameters").
 *
 * Conventions, as the rest of cl/helas: a vertex function returns the Feynman rule's vertex over
 * i; an off-shell current is i times the propagator times the vertex, so that for a current J of
 * momentum q, contracting J with a wavefunction w of momentum -q gives the vertex with w over the
 * propagator's denominator:
 *   scalar:  S = -V / (q^2 - M^2 + i M Gamma),
 *   vector:  J^mu = (X^mu - q^mu (q.X) / (M^2 - i M Gamma)) / (q^2 - M^2 + i M Gamma)
 *            (unitary gauge, the complex mass in q q as jioxxx; M = 0:
 *            X^mu / q^2, Feynman gauge),
 * V (X^mu) the vertex without the new particle's wavefunction. Momentum slots (w[4], w[5]) hold
 * the outgoing momentum for scalars and vectors, as vxxxxx with nsv = +1. A scalar's value sits
 * in w[0]. */
#ifndef HG_EW_CL
#define HG_EW_CL

#include "helas/external.cl"
#include "helas/ffv_massive.cl"
#include "helas/propagator.h"
#include "helas/vvv.cl"

/* The external scalar: value 1, slots nss (E + i pz), nss (px + i py) (nss = +1 outgoing, -1
 * incoming). */
HG_INLINE hg_wave sxxxxx(hg_fourvec p, int nss) {
  hg_wave s;
  s.w[0] = hg_cmplx((REAL)1, (REAL)0);
  s.w[1] = s.w[2] = s.w[3] = hg_czero();
  hg_set_momentum_slots(&s, p, nss);
  return s;
}

/* i/(...) helpers: the scalar propagator -1/(q^2 - M^2 + i M Gamma) */
HG_INLINE hg_complex hg_scalar_propagator(hg_fourvec q, REAL mass, REAL width) {
  return hg_cneg(hg_breit_wigner(hg_minkowski(q, q), mass, width));
}

/* The vector current of numerator x (index up) at momentum q: unitary gauge with mass M, width
 * Gamma for every q^2 (MadGraph's fixed width), Feynman gauge x/q^2 when M = 0. */
HG_INLINE void hg_vector_propagate(hg_wave *j, const hg_complex x[4], hg_fourvec q, REAL mass,
                                   REAL width) {
  const REAL q2 = hg_minkowski(q, q);
  if (mass == (REAL)0) {
    const REAL inv = (REAL)1 / q2;
    for (int mu = 0; mu < 4; ++mu) j->w[mu] = hg_cscale(inv, x[mu]);
    return;
  }
  const hg_complex qx = hg_csub(
      hg_cscale(q.v[0], x[0]),
      hg_cadd(hg_cadd(hg_cscale(q.v[1], x[1]), hg_cscale(q.v[2], x[2])), hg_cscale(q.v[3], x[3])));
  /* q.X / (M^2 - i M Gamma), as jioxxx: the complex mass of the propagator's pole, so that a
   * current's Ward identity survives a width in every propagator (complex-mass scheme) */
  const hg_complex cs = hg_cmul(qx, hg_cinv(mass * mass, -mass * width));
  const hg_complex d = hg_breit_wigner(q2, mass, width);
  for (int mu = 0; mu < 4; ++mu) j->w[mu] = hg_cmul(d, hg_csub(x[mu], hg_cscale(q.v[mu], cs)));
}

/* ---- fermion-fermion-scalar: fo-bar (gc[0] P_L + gc[1] P_R) fi S ---- */

/* HELAS iosxxx: the amplitude. */
HG_INLINE hg_complex iosxxx(hg_wave fi, hg_wave fo, hg_wave sc, hg_coupling gc) {
  /* fo is the barred spinor: fo-bar P_L fi pairs the upper (left-handed) components */
  const hg_complex left = hg_cadd(hg_cmul(fo.w[0], fi.w[0]), hg_cmul(fo.w[1], fi.w[1]));
  const hg_complex right = hg_cadd(hg_cmul(fo.w[2], fi.w[2]), hg_cmul(fo.w[3], fi.w[3]));
  return hg_cmul(sc.w[0], hg_cadd(hg_cmul(gc.gal[0], left), hg_cmul(gc.gal[1], right)));
}

/* HELAS fsixxx: the off-shell flowing-in fermion after fi emits sc,
 *   fsi = d (pslash + m) (gc[0] P_L + gc[1] P_R) fi S,  d = -1/(p^2 - m^2 + i m Gamma),
 *   p = P(fi) - P(sc). Upper = d S (gc[1] sigma(p) fi_lower + m gc[0] fi_upper), lower = d S
 *   (gc[0] sigma-bar(p) fi_upper + m gc[1] fi_lower). */
HG_INLINE hg_wave fsixxx(hg_wave fi, hg_wave sc, hg_coupling gc, REAL fmass, REAL fwidth) {
  hg_wave f;
  f.w[4] = hg_csub(fi.w[4], sc.w[4]);
  f.w[5] = hg_csub(fi.w[5], sc.w[5]);
  const hg_fourvec pf = hg_wave_momentum(f);
  const hg_complex d =
      hg_cmul(sc.w[0], hg_cneg(hg_breit_wigner(hg_minkowski(pf, pf), fmass, fwidth)));
  hg_complex u1, u2, l1, l2;
  hg_mat2_apply(hg_sigma_real(pf, -(REAL)1), fi.w[2], fi.w[3], &u1, &u2);
  hg_mat2_apply(hg_sigma_real(pf, (REAL)1), fi.w[0], fi.w[1], &l1, &l2);
  const hg_complex left = hg_cmul(d, gc.gal[0]), right = hg_cmul(d, gc.gal[1]);
  const hg_complex left_m = hg_cscale(fmass, left), right_m = hg_cscale(fmass, right);
  f.w[0] = hg_cadd(hg_cmul(right, u1), hg_cmul(left_m, fi.w[0]));
  f.w[1] = hg_cadd(hg_cmul(right, u2), hg_cmul(left_m, fi.w[1]));
  f.w[2] = hg_cadd(hg_cmul(left, l1), hg_cmul(right_m, fi.w[2]));
  f.w[3] = hg_cadd(hg_cmul(left, l2), hg_cmul(right_m, fi.w[3]));
  return f;
}

/* HELAS fsoxxx: the off-shell flowing-out fermion after fo absorbs sc,
 *   fso = d fo-bar (gc[0] P_L + gc[1] P_R) (pslash + m) S,  p = P(fo) + P(sc). Upper = d S
 *   (gc[1] fo_lower sigma-bar(p) + m gc[0] fo_upper), lower = d S (gc[0] fo_upper sigma(p)
 *   + m gc[1] fo_lower). */
HG_INLINE hg_wave fsoxxx(hg_wave fo, hg_wave sc, hg_coupling gc, REAL fmass, REAL fwidth) {
  hg_wave f;
  f.w[4] = hg_cadd(fo.w[4], sc.w[4]);
  f.w[5] = hg_cadd(fo.w[5], sc.w[5]);
  const hg_fourvec pf = hg_wave_momentum(f);
  const hg_complex d =
      hg_cmul(sc.w[0], hg_cneg(hg_breit_wigner(hg_minkowski(pf, pf), fmass, fwidth)));
  hg_complex u1, u2, l1, l2;
  hg_mat2_apply_row(hg_sigma_real(pf, (REAL)1), fo.w[2], fo.w[3], &u1, &u2);
  hg_mat2_apply_row(hg_sigma_real(pf, -(REAL)1), fo.w[0], fo.w[1], &l1, &l2);
  const hg_complex left = hg_cmul(d, gc.gal[0]), right = hg_cmul(d, gc.gal[1]);
  const hg_complex left_m = hg_cscale(fmass, left), right_m = hg_cscale(fmass, right);
  f.w[0] = hg_cadd(hg_cmul(right, u1), hg_cmul(left_m, fo.w[0]));
  f.w[1] = hg_cadd(hg_cmul(right, u2), hg_cmul(left_m, fo.w[1]));
  f.w[2] = hg_cadd(hg_cmul(left, l1), hg_cmul(right_m, fo.w[2]));
  f.w[3] = hg_cadd(hg_cmul(left, l2), hg_cmul(right_m, fo.w[3]));
  return f;
}

/* HELAS hioxxx: the off-shell scalar of fi and fo, slots P(fo) - P(fi). */
HG_INLINE hg_wave hioxxx(hg_wave fi, hg_wave fo, hg_coupling gc, REAL smass, REAL swidth) {
  hg_wave s;
  s.w[4] = hg_csub(fo.w[4], fi.w[4]);
  s.w[5] = hg_csub(fo.w[5], fi.w[5]);
  const hg_wave one = sxxxxx(hg_fourvec_make((REAL)0, (REAL)0, (REAL)0, (REAL)0), 1);
  s.w[0] =
      hg_cmul(hg_scalar_propagator(hg_wave_momentum(s), smass, swidth), iosxxx(fi, fo, one, gc));
  s.w[1] = s.w[2] = s.w[3] = hg_czero();
  return s;
}

/* ---- vector-vector-scalar: g (v1.v2) S ---- */

HG_INLINE hg_complex vvsxxx(hg_wave v1, hg_wave v2, hg_wave sc, hg_complex g) {
  return hg_cmul(hg_cmul(g, sc.w[0]), hg_wave_dot(v1, v2));
}

/* HELAS jvsxxx: the off-shell vector of vc and sc (mass M, width Gamma), slots P(vc) + P(sc). */
HG_INLINE hg_wave jvsxxx(hg_wave vc, hg_wave sc, hg_complex g, REAL vmass, REAL vwidth) {
  hg_wave j;
  j.w[4] = hg_cadd(vc.w[4], sc.w[4]);
  j.w[5] = hg_cadd(vc.w[5], sc.w[5]);
  const hg_complex gs = hg_cmul(g, sc.w[0]);
  hg_complex x[4];
  for (int mu = 0; mu < 4; ++mu) x[mu] = hg_cmul(gs, vc.w[mu]);
  hg_vector_propagate(&j, x, hg_wave_momentum(j), vmass, vwidth);
  return j;
}

/* HELAS hvvxxx: the off-shell scalar of v1 and v2, slots P(v1) + P(v2). */
HG_INLINE hg_wave hvvxxx(hg_wave v1, hg_wave v2, hg_complex g, REAL smass, REAL swidth) {
  hg_wave s;
  s.w[4] = hg_cadd(v1.w[4], v2.w[4]);
  s.w[5] = hg_cadd(v1.w[5], v2.w[5]);
  s.w[0] = hg_cmul(hg_scalar_propagator(hg_wave_momentum(s), smass, swidth),
                   hg_cmul(g, hg_wave_dot(v1, v2)));
  s.w[1] = s.w[2] = s.w[3] = hg_czero();
  return s;
}

/* ---- vector-vector-scalar-scalar: g (v1.v2) S1 S2 ---- */

HG_INLINE hg_complex vvssxx(hg_wave v1, hg_wave v2, hg_wave s1, hg_wave s2, hg_complex g) {
  return hg_cmul(hg_cmul(g, hg_cmul(s1.w[0], s2.w[0])), hg_wave_dot(v1, v2));
}

HG_INLINE hg_wave jvssxx(hg_wave vc, hg_wave s1, hg_wave s2, hg_complex g, REAL vmass,
                         REAL vwidth) {
  hg_wave s12 = s1;
  s12.w[0] = hg_cmul(s1.w[0], s2.w[0]);
  s12.w[4] = hg_cadd(s1.w[4], s2.w[4]);
  s12.w[5] = hg_cadd(s1.w[5], s2.w[5]);
  return jvsxxx(vc, s12, g, vmass, vwidth);
}

HG_INLINE hg_wave hvvsxx(hg_wave v1, hg_wave v2, hg_wave sc, hg_complex g, REAL smass,
                         REAL swidth) {
  hg_wave s;
  s.w[4] = hg_cadd(hg_cadd(v1.w[4], v2.w[4]), sc.w[4]);
  s.w[5] = hg_cadd(hg_cadd(v1.w[5], v2.w[5]), sc.w[5]);
  s.w[0] = hg_cmul(hg_scalar_propagator(hg_wave_momentum(s), smass, swidth),
                   hg_cmul(hg_cmul(g, sc.w[0]), hg_wave_dot(v1, v2)));
  s.w[1] = s.w[2] = s.w[3] = hg_czero();
  return s;
}

/* ---- scalar self-couplings: g S1 S2 S3 (S4) ---- */

HG_INLINE hg_complex sssxxx(hg_wave s1, hg_wave s2, hg_wave s3, hg_complex g) {
  return hg_cmul(g, hg_cmul(s1.w[0], hg_cmul(s2.w[0], s3.w[0])));
}

HG_INLINE hg_wave hssxxx(hg_wave s1, hg_wave s2, hg_complex g, REAL smass, REAL swidth) {
  hg_wave s;
  s.w[4] = hg_cadd(s1.w[4], s2.w[4]);
  s.w[5] = hg_cadd(s1.w[5], s2.w[5]);
  s.w[0] = hg_cmul(hg_scalar_propagator(hg_wave_momentum(s), smass, swidth),
                   hg_cmul(g, hg_cmul(s1.w[0], s2.w[0])));
  s.w[1] = s.w[2] = s.w[3] = hg_czero();
  return s;
}

HG_INLINE hg_complex ssssxx(hg_wave s1, hg_wave s2, hg_wave s3, hg_wave s4, hg_complex g) {
  return hg_cmul(hg_cmul(g, hg_cmul(s1.w[0], s2.w[0])), hg_cmul(s3.w[0], s4.w[0]));
}

HG_INLINE hg_wave hsssxx(hg_wave s1, hg_wave s2, hg_wave s3, hg_complex g, REAL smass,
                         REAL swidth) {
  hg_wave s;
  s.w[4] = hg_cadd(hg_cadd(s1.w[4], s2.w[4]), s3.w[4]);
  s.w[5] = hg_cadd(hg_cadd(s1.w[5], s2.w[5]), s3.w[5]);
  s.w[0] = hg_cmul(hg_scalar_propagator(hg_wave_momentum(s), smass, swidth),
                   hg_cmul(g, hg_cmul(s1.w[0], hg_cmul(s2.w[0], s3.w[0]))));
  s.w[1] = s.w[2] = s.w[3] = hg_czero();
  return s;
}

/* ---- three vectors with a complex coupling (W W a, W W Z) ---- */

/* vvvxxx's Lorentz structure times the complex coupling g. */
HG_INLINE hg_complex vvvcxx(hg_wave w1, hg_wave w2, hg_wave w3, hg_complex g) {
  return hg_cmul(g, vvvxxx(w1, w2, w3, (REAL)1));
}

/* jvvxxx's current times g, with hg_vector_propagate's propagator: the width for every q^2
 * (jvvxxx keeps HELAS's width for q^2 >= 0 only, and 1/M^2 in the q q term). */
HG_INLINE hg_wave jvvcxx(hg_wave v1, hg_wave v2, hg_complex g, REAL vmass, REAL vwidth) {
  const hg_wave massless = jvvxxx(v1, v2, (REAL)1, (REAL)0, (REAL)0);
  hg_wave j = massless;
  const hg_fourvec q = hg_wave_momentum(massless);
  const REAL q2 = hg_minkowski(q, q);
  /* massless = -j12 / q^2: X = g (-j12) = g q^2 massless */
  hg_complex x[4];
  for (int mu = 0; mu < 4; ++mu) x[mu] = hg_cmul(g, hg_cscale(q2, massless.w[mu]));
  hg_vector_propagate(&j, x, q, vmass, vwidth);
  return j;
}

/* ---- four vectors: g (2 (w1.w2)(w3.w4) - (w1.w3)(w2.w4) - (w1.w4)(w2.w3)) ---- */

HG_INLINE hg_complex vvvvcx(hg_wave w1, hg_wave w2, hg_wave w3, hg_wave w4, hg_complex g) {
  const hg_complex a = hg_cscale((REAL)2, hg_cmul(hg_wave_dot(w1, w2), hg_wave_dot(w3, w4)));
  const hg_complex b = hg_cmul(hg_wave_dot(w1, w3), hg_wave_dot(w2, w4));
  const hg_complex c = hg_cmul(hg_wave_dot(w1, w4), hg_wave_dot(w2, w3));
  return hg_cmul(g, hg_csub(a, hg_cadd(b, c)));
}

/* The current in the fourth slot: X = g (2 (w1.w2) w3 - (w1.w3) w2 - (w2.w3) w1), slots
 * P(w1) + P(w2) + P(w3). Any slot is the fourth after the vertex's symmetries (1 <-> 2,
 * 3 <-> 4, (12) <-> (34)). */
HG_INLINE hg_wave jvvvcx(hg_wave w1, hg_wave w2, hg_wave w3, hg_complex g, REAL vmass,
                         REAL vwidth) {
  hg_wave j;
  j.w[4] = hg_cadd(hg_cadd(w1.w[4], w2.w[4]), w3.w[4]);
  j.w[5] = hg_cadd(hg_cadd(w1.w[5], w2.w[5]), w3.w[5]);
  const hg_complex d12 = hg_cscale((REAL)2, hg_wave_dot(w1, w2));
  const hg_complex d13 = hg_wave_dot(w1, w3), d23 = hg_wave_dot(w2, w3);
  hg_complex x[4];
  for (int mu = 0; mu < 4; ++mu)
    x[mu] = hg_cmul(g, hg_csub(hg_cmul(d12, w3.w[mu]),
                               hg_cadd(hg_cmul(d13, w2.w[mu]), hg_cmul(d23, w1.w[mu]))));
  hg_vector_propagate(&j, x, hg_wave_momentum(j), vmass, vwidth);
  return j;
}

#endif
