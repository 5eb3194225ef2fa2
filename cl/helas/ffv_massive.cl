/* SPDX-License-Identifier: MIT */
/* HELAS fermion-fermion-vector off-shell functions with masses and widths: fvixxx, fvoxxx (massive
 * fermion propagator), jioxxx (massless vector in Feynman gauge, massive in unitary gauge). At
 * mass 0 fvixxx, fvoxxx give fvixx0, fvoxx0; jioxxx gives jioxx0 with the opposite momentum slots
 * (CONVENTIONS.md, "Massive particles and gluon vertices"). */
#ifndef HG_FFV_MASSIVE_CL
#define HG_FFV_MASSIVE_CL

#include "helas/ffv.cl"
#include "helas/propagator.h"

/* HELAS fvixxx: the off-shell flowing-in fermion of mass m, width Gamma after fi emits vc,
 *   fvi = d (pslash + m) Vslash (gal[0] P_L + gal[1] P_R) fi,
 *   d = -1/(p^2 - m^2 + i m Gamma),  p = P(fi) - P(vc) (slots 5, 6 = those of fi minus vc's).
 * In two-component form, with sl = sigma-bar(V) fi_upper, sr = sigma(V) fi_lower:
 *   fvi_upper = d (gal[0] sigma(p) sl + gal[1] m sr), fvi_lower = d (gal[1] sigma-bar(p) sr
 *   + gal[0] m sl)   (sigma(p) = p0 - sigma.p, sigma-bar(p) = p0 + sigma.p). */
HG_INLINE hg_wave fvixxx(hg_wave fi, hg_wave vc, hg_coupling gc, REAL fmass, REAL fwidth) {
  hg_wave fvi;
  fvi.w[4] = hg_csub(fi.w[4], vc.w[4]);
  fvi.w[5] = hg_csub(fi.w[5], vc.w[5]);
  const hg_fourvec pf = hg_wave_momentum(fvi);
  const hg_complex d = hg_cneg(hg_breit_wigner(hg_minkowski(pf, pf), fmass, fwidth));
  hg_complex sl1, sl2, sr1, sr2, u1, u2, l1, l2;
  hg_mat2_apply(hg_sigma_of_wave(vc, (REAL)1), fi.w[0], fi.w[1], &sl1, &sl2);
  hg_mat2_apply(hg_sigma_of_wave(vc, -(REAL)1), fi.w[2], fi.w[3], &sr1, &sr2);
  hg_mat2_apply(hg_sigma_real(pf, -(REAL)1), sl1, sl2, &u1, &u2);
  hg_mat2_apply(hg_sigma_real(pf, (REAL)1), sr1, sr2, &l1, &l2);
  const hg_complex left = hg_cmul(d, gc.gal[0]), right = hg_cmul(d, gc.gal[1]);
  const hg_complex left_m = hg_cscale(fmass, left), right_m = hg_cscale(fmass, right);
  fvi.w[0] = hg_cadd(hg_cmul(left, u1), hg_cmul(right_m, sr1));
  fvi.w[1] = hg_cadd(hg_cmul(left, u2), hg_cmul(right_m, sr2));
  fvi.w[2] = hg_cadd(hg_cmul(right, l1), hg_cmul(left_m, sl1));
  fvi.w[3] = hg_cadd(hg_cmul(right, l2), hg_cmul(left_m, sl2));
  return fvi;
}

/* HELAS fvoxxx: the off-shell flowing-out fermion of mass m, width Gamma after fo absorbs vc,
 *   fvo = d fo-bar Vslash (gal[0] P_L + gal[1] P_R) (pslash + m),
 *   d = -1/(p^2 - m^2 + i m Gamma),  p = P(fo) + P(vc) (slots: fo's plus vc's).
 * In two-component form (row spinors), with sr = fo_upper sigma(V), sl = fo_lower sigma-bar(V):
 *   fvo_upper = d (gal[1] sr sigma-bar(p) + gal[0] m sl), fvo_lower = d (gal[0] sl sigma(p)
 *   + gal[1] m sr). */
HG_INLINE hg_wave fvoxxx(hg_wave fo, hg_wave vc, hg_coupling gc, REAL fmass, REAL fwidth) {
  hg_wave fvo;
  fvo.w[4] = hg_cadd(fo.w[4], vc.w[4]);
  fvo.w[5] = hg_cadd(fo.w[5], vc.w[5]);
  const hg_fourvec pf = hg_wave_momentum(fvo);
  const hg_complex d = hg_cneg(hg_breit_wigner(hg_minkowski(pf, pf), fmass, fwidth));
  hg_complex sl1, sl2, sr1, sr2, u1, u2, l1, l2;
  hg_mat2_apply_row(hg_sigma_of_wave(vc, -(REAL)1), fo.w[0], fo.w[1], &sr1, &sr2);
  hg_mat2_apply_row(hg_sigma_of_wave(vc, (REAL)1), fo.w[2], fo.w[3], &sl1, &sl2);
  hg_mat2_apply_row(hg_sigma_real(pf, (REAL)1), sr1, sr2, &u1, &u2);
  hg_mat2_apply_row(hg_sigma_real(pf, -(REAL)1), sl1, sl2, &l1, &l2);
  const hg_complex left = hg_cmul(d, gc.gal[0]), right = hg_cmul(d, gc.gal[1]);
  const hg_complex left_m = hg_cscale(fmass, left), right_m = hg_cscale(fmass, right);
  fvo.w[0] = hg_cadd(hg_cmul(right, u1), hg_cmul(left_m, sl1));
  fvo.w[1] = hg_cadd(hg_cmul(right, u2), hg_cmul(left_m, sl2));
  fvo.w[2] = hg_cadd(hg_cmul(left, l1), hg_cmul(right_m, sr1));
  fvo.w[3] = hg_cadd(hg_cmul(left, l2), hg_cmul(right_m, sr2));
  return fvo;
}

/* The fermion bilinear c^mu = fo-bar gamma^mu (gal[0] P_L + gal[1] P_R) fi, index up (the
 * numerator of jioxx0 and jioxxx). */
HG_INLINE void hg_ffv_bilinear(hg_wave fi, hg_wave fo, hg_coupling gc, hg_complex c[4]) {
  const hg_complex i1 = fi.w[0], i2 = fi.w[1], i3 = fi.w[2], i4 = fi.w[3];
  const hg_complex o1 = fo.w[0], o2 = fo.w[1], o3 = fo.w[2], o4 = fo.w[3];
  const hg_complex l0 = hg_cadd(hg_cmul(o3, i1), hg_cmul(o4, i2));
  const hg_complex l1 = hg_cneg(hg_cadd(hg_cmul(o3, i2), hg_cmul(o4, i1)));
  const hg_complex l2 = hg_cmuli(hg_csub(hg_cmul(o3, i2), hg_cmul(o4, i1)));
  const hg_complex l3 = hg_cneg(hg_csub(hg_cmul(o3, i1), hg_cmul(o4, i2)));
  const hg_complex r0 = hg_cadd(hg_cmul(o1, i3), hg_cmul(o2, i4));
  const hg_complex r1 = hg_cadd(hg_cmul(o1, i4), hg_cmul(o2, i3));
  const hg_complex r2 = hg_cneg(hg_cmuli(hg_csub(hg_cmul(o1, i4), hg_cmul(o2, i3))));
  const hg_complex r3 = hg_csub(hg_cmul(o1, i3), hg_cmul(o2, i4));
  c[0] = hg_cadd(hg_cmul(gc.gal[0], l0), hg_cmul(gc.gal[1], r0));
  c[1] = hg_cadd(hg_cmul(gc.gal[0], l1), hg_cmul(gc.gal[1], r1));
  c[2] = hg_cadd(hg_cmul(gc.gal[0], l2), hg_cmul(gc.gal[1], r2));
  c[3] = hg_cadd(hg_cmul(gc.gal[0], l3), hg_cmul(gc.gal[1], r3));
}

/* HELAS jioxxx: the off-shell vector current of fo and fi, vector mass M, width Gamma,
 *   c^mu = fo-bar gamma^mu (gal[0] P_L + gal[1] P_R) fi,   q = P(fo) - P(fi) (slots: fo's minus
 *   fi's, as HELAS; jioxx0 stores fi's minus fo's),
 *   M = 0: jio^mu = c^mu / q^2                                         (Feynman gauge);
 *   M > 0: jio^mu = (c^mu - q^mu (q.c)/(M^2 - i M Gamma)) / (q^2 - M^2 + i M Gamma)
 *                                                                       (unitary gauge; the
 *   complex mass in q.c/... is MadGraph's fixed-width form). */
HG_INLINE hg_wave jioxxx(hg_wave fi, hg_wave fo, hg_coupling gc, REAL vmass, REAL vwidth) {
  hg_wave jio;
  if (vmass == (REAL)0) {
    jio = jioxx0(fi, fo, gc); /* c^mu / q^2: q^2 is even in q */
    jio.w[4] = hg_cneg(jio.w[4]);
    jio.w[5] = hg_cneg(jio.w[5]);
    return jio;
  }
  jio.w[4] = hg_csub(fo.w[4], fi.w[4]);
  jio.w[5] = hg_csub(fo.w[5], fi.w[5]);
  const hg_fourvec q = hg_wave_momentum(jio);
  hg_complex c[4];
  hg_ffv_bilinear(fi, fo, gc, c);
  const hg_complex qc = hg_csub(
      hg_cscale(q.v[0], c[0]),
      hg_cadd(hg_cadd(hg_cscale(q.v[1], c[1]), hg_cscale(q.v[2], c[2])), hg_cscale(q.v[3], c[3])));
  /* cs = q.c / (M^2 - i M Gamma) */
  const hg_complex cs = hg_cmul(qc, hg_cinv(vmass * vmass, -vmass * vwidth));
  const hg_complex d = hg_breit_wigner(hg_minkowski(q, q), vmass, vwidth);
  for (int mu = 0; mu < 4; ++mu) jio.w[mu] = hg_cmul(d, hg_csub(c[mu], hg_cscale(q.v[mu], cs)));
  return jio;
}

#endif
