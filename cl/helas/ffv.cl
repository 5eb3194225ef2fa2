/* SPDX-License-Identifier: MIT */
/* HELAS fermion-fermion-vector vertex functions for massless fermions and a massless vector. */
#ifndef HG_FFV_CL
#define HG_FFV_CL

#include "helas/wavefunction.h"

/* A 2x2 complex matrix acting on two-component spinors. */
typedef struct {
  hg_complex m[2][2];
} hg_mat2;

/* sigma(V) with sign t: V0 + t sigma.V for t = +1 (sigma-bar_mu V^mu, the left-handed vertex),
 * V0 - sigma.V for t = -1 (sigma_mu V^mu): see CONVENTIONS.md, "chiral basis". */
HG_INLINE hg_mat2 hg_sigma_complex(hg_complex v0, hg_complex v1, hg_complex v2, hg_complex v3,
                                   REAL t) {
  hg_mat2 s;
  s.m[0][0] = hg_cadd(v0, hg_cscale(t, v3));
  s.m[0][1] = hg_cscale(t, hg_csub(v1, hg_cmuli(v2)));
  s.m[1][0] = hg_cscale(t, hg_cadd(v1, hg_cmuli(v2)));
  s.m[1][1] = hg_csub(v0, hg_cscale(t, v3));
  return s;
}

/* The same for a real four-vector (a propagator momentum). */
HG_INLINE hg_mat2 hg_sigma_real(hg_fourvec p, REAL t) {
  hg_mat2 s;
  s.m[0][0] = hg_cmplx(p.v[0] + t * p.v[3], (REAL)0);
  s.m[0][1] = hg_cmplx(t * p.v[1], -t * p.v[2]);
  s.m[1][0] = hg_cmplx(t * p.v[1], t * p.v[2]);
  s.m[1][1] = hg_cmplx(p.v[0] - t * p.v[3], (REAL)0);
  return s;
}

/* Matrix times column two-spinor (a0, a1); result in (r0, r1). */
HG_INLINE void hg_mat2_apply(hg_mat2 s, hg_complex a0, hg_complex a1, hg_complex *r0,
                             hg_complex *r1) {
  *r0 = hg_cfma(s.m[0][1], a1, hg_cmul(s.m[0][0], a0));
  *r1 = hg_cfma(s.m[1][1], a1, hg_cmul(s.m[1][0], a0));
}

/* Row two-spinor (a0, a1) times matrix; result in (r0, r1). */
HG_INLINE void hg_mat2_apply_row(hg_mat2 s, hg_complex a0, hg_complex a1, hg_complex *r0,
                                 hg_complex *r1) {
  *r0 = hg_cfma(a1, s.m[1][0], hg_cmul(a0, s.m[0][0]));
  *r1 = hg_cfma(a1, s.m[1][1], hg_cmul(a0, s.m[0][1]));
}

HG_INLINE hg_mat2 hg_sigma_of_wave(hg_wave v, REAL t) {
  return hg_sigma_complex(v.w[0], v.w[1], v.w[2], v.w[3], t);
}

/* HELAS iovxxx: the FFV amplitude fo-bar gamma^mu (gal[0] P_L + gal[1] P_R) fi V_mu. */
HG_INLINE hg_complex iovxxx(hg_wave fi, hg_wave fo, hg_wave vc, hg_coupling gc) {
  const hg_complex i1 = fi.w[0], i2 = fi.w[1], i3 = fi.w[2], i4 = fi.w[3];
  const hg_complex o1 = fo.w[0], o2 = fo.w[1], o3 = fo.w[2], o4 = fo.w[3];
  const hg_complex v1 = vc.w[0], v2 = vc.w[1], v3 = vc.w[2], v4 = vc.w[3];
  hg_complex left = hg_cmul(hg_cadd(hg_cmul(o3, i1), hg_cmul(o4, i2)), v1);
  left = hg_cfma(hg_cadd(hg_cmul(o3, i2), hg_cmul(o4, i1)), v2, left);
  left = hg_csub(left, hg_cmuli(hg_cmul(hg_csub(hg_cmul(o3, i2), hg_cmul(o4, i1)), v3)));
  left = hg_cfma(hg_csub(hg_cmul(o3, i1), hg_cmul(o4, i2)), v4, left);
  hg_complex right = hg_cmul(hg_cadd(hg_cmul(o1, i3), hg_cmul(o2, i4)), v1);
  right = hg_csub(right, hg_cmul(hg_cadd(hg_cmul(o1, i4), hg_cmul(o2, i3)), v2));
  right = hg_cadd(right, hg_cmuli(hg_cmul(hg_csub(hg_cmul(o1, i4), hg_cmul(o2, i3)), v3)));
  right = hg_csub(right, hg_cmul(hg_csub(hg_cmul(o1, i3), hg_cmul(o2, i4)), v4));
  return hg_cadd(hg_cmul(gc.gal[0], left), hg_cmul(gc.gal[1], right));
}

/* HELAS fvixxx (massless fermion): the off-shell flowing-in fermion after fi emits vc,
 * -(pslash) Vslash (gal[0] P_L + gal[1] P_R) fi / p^2 with p = p_fi - p_vc. */
HG_INLINE hg_wave fvixx0(hg_wave fi, hg_wave vc, hg_coupling gc) {
  hg_wave fvi;
  fvi.w[4] = hg_csub(fi.w[4], vc.w[4]);
  fvi.w[5] = hg_csub(fi.w[5], vc.w[5]);
  const hg_fourvec pf = hg_wave_momentum(fvi);
  const REAL d = -(REAL)1 / hg_minkowski(pf, pf);
  hg_complex s1, s2;
  /* left-handed: sigma(pf) sigma-bar(V) acting on the upper components */
  hg_mat2_apply(hg_sigma_of_wave(vc, (REAL)1), fi.w[0], fi.w[1], &s1, &s2);
  hg_mat2_apply(hg_sigma_real(pf, -(REAL)1), s1, s2, &fvi.w[0], &fvi.w[1]);
  /* right-handed: sigma-bar(pf) sigma(V) acting on the lower components */
  hg_mat2_apply(hg_sigma_of_wave(vc, -(REAL)1), fi.w[2], fi.w[3], &s1, &s2);
  hg_mat2_apply(hg_sigma_real(pf, (REAL)1), s1, s2, &fvi.w[2], &fvi.w[3]);
  const hg_complex left = hg_cscale(d, gc.gal[0]), right = hg_cscale(d, gc.gal[1]);
  fvi.w[0] = hg_cmul(left, fvi.w[0]);
  fvi.w[1] = hg_cmul(left, fvi.w[1]);
  fvi.w[2] = hg_cmul(right, fvi.w[2]);
  fvi.w[3] = hg_cmul(right, fvi.w[3]);
  return fvi;
}

/* HELAS fvoxxx (massless fermion): the off-shell flowing-out fermion after fo absorbs vc,
 * -fo-bar Vslash (gal[0] P_L + gal[1] P_R) pslash / p^2 with p = p_fo + p_vc. */
HG_INLINE hg_wave fvoxx0(hg_wave fo, hg_wave vc, hg_coupling gc) {
  hg_wave fvo;
  fvo.w[4] = hg_cadd(fo.w[4], vc.w[4]);
  fvo.w[5] = hg_cadd(fo.w[5], vc.w[5]);
  const hg_fourvec pf = hg_wave_momentum(fvo);
  const REAL d = -(REAL)1 / hg_minkowski(pf, pf);
  hg_complex s1, s2;
  /* right-handed (gal[1]): the upper row components, fo sigma(V) sigma-bar(pf) */
  hg_mat2_apply_row(hg_sigma_of_wave(vc, -(REAL)1), fo.w[0], fo.w[1], &s1, &s2);
  hg_mat2_apply_row(hg_sigma_real(pf, (REAL)1), s1, s2, &fvo.w[0], &fvo.w[1]);
  /* left-handed (gal[0]): the lower row components, fo sigma-bar(V) sigma(pf) */
  hg_mat2_apply_row(hg_sigma_of_wave(vc, (REAL)1), fo.w[2], fo.w[3], &s1, &s2);
  hg_mat2_apply_row(hg_sigma_real(pf, -(REAL)1), s1, s2, &fvo.w[2], &fvo.w[3]);
  const hg_complex left = hg_cscale(d, gc.gal[0]), right = hg_cscale(d, gc.gal[1]);
  fvo.w[0] = hg_cmul(right, fvo.w[0]);
  fvo.w[1] = hg_cmul(right, fvo.w[1]);
  fvo.w[2] = hg_cmul(left, fvo.w[2]);
  fvo.w[3] = hg_cmul(left, fvo.w[3]);
  return fvo;
}

/* HELAS jioxxx (massless vector): the off-shell vector current of fo and fi in Feynman gauge,
 * fo-bar gamma^mu (gal[0] P_L + gal[1] P_R) fi / q^2, with q = p_fi - p_fo flowing out of the
 * vertex as vxxxxx's nsv = +1 momentum does (CONVENTIONS.md, "off-shell photon"). */
HG_INLINE hg_wave jioxx0(hg_wave fi, hg_wave fo, hg_coupling gc) {
  const hg_complex i1 = fi.w[0], i2 = fi.w[1], i3 = fi.w[2], i4 = fi.w[3];
  const hg_complex o1 = fo.w[0], o2 = fo.w[1], o3 = fo.w[2], o4 = fo.w[3];
  hg_wave jio;
  jio.w[4] = hg_csub(fi.w[4], fo.w[4]);
  jio.w[5] = hg_csub(fi.w[5], fo.w[5]);
  const hg_fourvec q = hg_wave_momentum(jio);
  const REAL d = (REAL)1 / hg_minkowski(q, q);
  const hg_complex left = hg_cscale(d, gc.gal[0]), right = hg_cscale(d, gc.gal[1]);
  const hg_complex l0 = hg_cadd(hg_cmul(o3, i1), hg_cmul(o4, i2));
  const hg_complex l1 = hg_cneg(hg_cadd(hg_cmul(o3, i2), hg_cmul(o4, i1)));
  const hg_complex l2 = hg_cmuli(hg_csub(hg_cmul(o3, i2), hg_cmul(o4, i1)));
  const hg_complex l3 = hg_cneg(hg_csub(hg_cmul(o3, i1), hg_cmul(o4, i2)));
  const hg_complex r0 = hg_cadd(hg_cmul(o1, i3), hg_cmul(o2, i4));
  const hg_complex r1 = hg_cadd(hg_cmul(o1, i4), hg_cmul(o2, i3));
  const hg_complex r2 = hg_cneg(hg_cmuli(hg_csub(hg_cmul(o1, i4), hg_cmul(o2, i3))));
  const hg_complex r3 = hg_csub(hg_cmul(o1, i3), hg_cmul(o2, i4));
  jio.w[0] = hg_cadd(hg_cmul(left, l0), hg_cmul(right, r0));
  jio.w[1] = hg_cadd(hg_cmul(left, l1), hg_cmul(right, r1));
  jio.w[2] = hg_cadd(hg_cmul(left, l2), hg_cmul(right, r2));
  jio.w[3] = hg_cadd(hg_cmul(left, l3), hg_cmul(right, r3));
  return jio;
}

#endif
