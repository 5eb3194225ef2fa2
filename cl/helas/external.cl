/* SPDX-License-Identifier: MIT */
/* HELAS external wavefunctions for massless fermions and vector bosons, HEGET's three variants. */
#ifndef HG_EXTERNAL_CL
#define HG_EXTERNAL_CL

#include "helas/wavefunction.h"

/* Slots 5 and 6: ns*(p0 + i p3), ns*(p1 + i p2). */
HG_INLINE void hg_set_momentum_slots(hg_wave *f, hg_fourvec p, int ns) {
  f->w[4] = hg_cmplx((REAL)ns * p.v[0], (REAL)ns * p.v[3]);
  f->w[5] = hg_cmplx((REAL)ns * p.v[1], (REAL)ns * p.v[2]);
}

/* Places the two-spinor (chi1, chi2) as HELAS ixxxxx does: nh = -1 fills the left-handed upper
 * components (chi2, chi1), nh = +1 the right-handed lower ones (chi1, chi2). */
HG_INLINE hg_wave hg_place_in_spinor(hg_fourvec p, int nsf, int nh, hg_complex chi1,
                                     hg_complex chi2) {
  hg_wave fi;
  const int right = nh == 1;
  const hg_complex zero = hg_czero();
  fi.w[0] = hg_csel(right, zero, chi2);
  fi.w[1] = hg_csel(right, zero, chi1);
  fi.w[2] = hg_csel(right, chi1, zero);
  fi.w[3] = hg_csel(right, chi2, zero);
  hg_set_momentum_slots(&fi, p, nsf);
  return fi;
}

/* Places the two-spinor as HELAS oxxxxx does: nh = +1 in the upper components (chi1, chi2),
 * nh = -1 in the lower ones (chi2, chi1). */
HG_INLINE hg_wave hg_place_out_spinor(hg_fourvec p, int nsf, int nh, hg_complex chi1,
                                      hg_complex chi2) {
  hg_wave fo;
  const int right = nh == 1;
  const hg_complex zero = hg_czero();
  fo.w[0] = hg_csel(right, chi1, zero);
  fo.w[1] = hg_csel(right, chi2, zero);
  fo.w[2] = hg_csel(right, zero, chi2);
  fo.w[3] = hg_csel(right, zero, chi1);
  hg_set_momentum_slots(&fo, p, nsf);
  return fo;
}

/* HELAS ixxxxx (massless), generic momentum: flowing-in fermion, u(p) for nsf = +1 (incoming
 * particle), v(p) for nsf = -1 (outgoing antiparticle); nhel = +-1 is the helicity. */
HG_INLINE hg_wave ixxxx0(hg_fourvec p, int nhel, int nsf) {
  const int nh = nhel * nsf;
  const REAL plus = fmax(p.v[0] + p.v[3], (REAL)0);
  const int along_minus_z = plus == (REAL)0;
  const REAL sqp0p3 = sqrt(plus) * (REAL)nsf;
  const REAL denominator = along_minus_z ? (REAL)1 : sqp0p3;
  const hg_complex chi1 = hg_cmplx(sqp0p3, (REAL)0);
  const hg_complex chi2 =
      hg_csel(along_minus_z, hg_cmplx(-(REAL)nhel * sqrt((REAL)2 * p.v[0]), (REAL)0),
              hg_cmplx((REAL)nh * p.v[1] / denominator, p.v[2] / denominator));
  return hg_place_in_spinor(p, nsf, nh, chi1, chi2);
}

/* HELAS ixxxxx (massless) for p along +z, p = (E, 0, 0, E): chi = (sqrt(2E) nsf, 0). */
HG_INLINE hg_wave ixxxx1(hg_fourvec p, int nhel, int nsf) {
  const hg_complex chi1 = hg_cmplx(sqrt(p.v[0] + p.v[3]) * (REAL)nsf, (REAL)0);
  return hg_place_in_spinor(p, nsf, nhel * nsf, chi1, hg_czero());
}

/* HELAS ixxxxx (massless) for p along -z, p = (E, 0, 0, -E): chi = (0, -nhel sqrt(2E)). */
HG_INLINE hg_wave ixxxx2(hg_fourvec p, int nhel, int nsf) {
  const hg_complex chi2 = hg_cmplx(-(REAL)nhel * sqrt((REAL)2 * p.v[0]), (REAL)0);
  return hg_place_in_spinor(p, nsf, nhel * nsf, hg_czero(), chi2);
}

/* HELAS oxxxxx (massless), generic momentum: flowing-out fermion, ubar(p) for nsf = +1 (outgoing
 * particle), vbar(p) for nsf = -1 (incoming antiparticle). */
HG_INLINE hg_wave oxxxx0(hg_fourvec p, int nhel, int nsf) {
  const int nh = nhel * nsf;
  const REAL plus = fmax(p.v[0] + p.v[3], (REAL)0);
  const int along_minus_z = plus == (REAL)0;
  const REAL sqp0p3 = sqrt(plus) * (REAL)nsf;
  const REAL denominator = along_minus_z ? (REAL)1 : sqp0p3;
  const hg_complex chi1 = hg_cmplx(sqp0p3, (REAL)0);
  const hg_complex chi2 =
      hg_csel(along_minus_z, hg_cmplx(-(REAL)nhel * sqrt((REAL)2 * p.v[0]), (REAL)0),
              hg_cmplx((REAL)nh * p.v[1] / denominator, -p.v[2] / denominator));
  return hg_place_out_spinor(p, nsf, nh, chi1, chi2);
}

/* HELAS oxxxxx (massless) for p along +z. */
HG_INLINE hg_wave oxxxx1(hg_fourvec p, int nhel, int nsf) {
  const hg_complex chi1 = hg_cmplx(sqrt(p.v[0] + p.v[3]) * (REAL)nsf, (REAL)0);
  return hg_place_out_spinor(p, nsf, nhel * nsf, chi1, hg_czero());
}

/* HELAS oxxxxx (massless) for p along -z. */
HG_INLINE hg_wave oxxxx2(hg_fourvec p, int nhel, int nsf) {
  const hg_complex chi2 = hg_cmplx(-(REAL)nhel * sqrt((REAL)2 * p.v[0]), (REAL)0);
  return hg_place_out_spinor(p, nsf, nhel * nsf, hg_czero(), chi2);
}

/* HELAS vxxxxx (massless), generic momentum: the helicity-nhel polarisation vector of a photon,
 * eps* for a final-state photon (nsv = +1), eps for an initial one (nsv = -1). */
HG_INLINE hg_wave vxxxx0(hg_fourvec p, int nhel, int nsv) {
  const REAL sqh = sqrt((REAL)0.5);
  const REAL hel = (REAL)nhel;
  const REAL pt = sqrt(p.v[1] * p.v[1] + p.v[2] * p.v[2]);
  const int on_axis = pt == (REAL)0;
  const REAL pt_safe = on_axis ? (REAL)1 : pt;
  const REAL pzpt = p.v[3] / (p.v[0] * pt_safe) * sqh * hel;
  const REAL axis_sign = p.v[3] < (REAL)0 ? -sqh : sqh;
  hg_wave vc;
  vc.w[0] = hg_czero();
  vc.w[1] = hg_csel(on_axis, hg_cmplx(-hel * sqh, (REAL)0),
                    hg_cmplx(-p.v[1] * pzpt, -(REAL)nsv * p.v[2] / pt_safe * sqh));
  vc.w[2] = hg_csel(on_axis, hg_cmplx((REAL)0, (REAL)nsv * axis_sign),
                    hg_cmplx(-p.v[2] * pzpt, (REAL)nsv * p.v[1] / pt_safe * sqh));
  vc.w[3] = hg_cmplx(hel * pt / p.v[0] * sqh, (REAL)0);
  hg_set_momentum_slots(&vc, p, nsv);
  return vc;
}

/* HELAS vxxxxx (massless) for p along +z: eps = (0, -nhel, i nsv, 0)/sqrt(2). */
HG_INLINE hg_wave vxxxx1(hg_fourvec p, int nhel, int nsv) {
  const REAL sqh = sqrt((REAL)0.5);
  hg_wave vc;
  vc.w[0] = hg_czero();
  vc.w[1] = hg_cmplx(-(REAL)nhel * sqh, (REAL)0);
  vc.w[2] = hg_cmplx((REAL)0, (REAL)nsv * sqh);
  vc.w[3] = hg_czero();
  hg_set_momentum_slots(&vc, p, nsv);
  return vc;
}

/* HELAS vxxxxx (massless) for p along -z: eps = (0, -nhel, -i nsv, 0)/sqrt(2). */
HG_INLINE hg_wave vxxxx2(hg_fourvec p, int nhel, int nsv) {
  const REAL sqh = sqrt((REAL)0.5);
  hg_wave vc;
  vc.w[0] = hg_czero();
  vc.w[1] = hg_cmplx(-(REAL)nhel * sqh, (REAL)0);
  vc.w[2] = hg_cmplx((REAL)0, -(REAL)nsv * sqh);
  vc.w[3] = hg_czero();
  hg_set_momentum_slots(&vc, p, nsv);
  return vc;
}

#endif
