/* SPDX-License-Identifier: MIT */
/* HELAS external wavefunctions with mass: ixxxxx, oxxxxx (Dirac spinors in the helicity basis) and
 * vxxxxx (vector boson polarisations, nhel = 0 for a massive one). At mass 0 each is its massless
 * counterpart of external.cl, exactly (the massless case calls it). */
#ifndef HG_EXTERNAL_MASSIVE_CL
#define HG_EXTERNAL_MASSIVE_CL

#include "helas/external.cl"

/* The pieces HELAS's massive ixxxxx and oxxxxx share, for p = (E, px, py, pz), |p| = pp,
 * nh = nhel*nsf:
 *   omega_+ = sqrt(E + pp), omega_- = m / omega_+ (so omega_+ omega_- = m);
 *   sf_1 = (1 + nsf + (1 - nsf) nh)/2, sf_2 = (1 + nsf - (1 - nsf) nh)/2 (1, 1 for nsf = +1;
 *   nh, -nh for nsf = -1);
 *   chi_+ = sqrt((pp + pz)/(2 pp)), chi_- = (nh px + i s py)/sqrt(2 pp (pp + pz)) (s = +1 for
 *   ixxxxx, -1 for oxxxxx), the helicity-nh two-spinor's components, taken as
 *   (chi_a, chi_b) = (chi_+, chi_-) for nh = +1 and (chi_-, chi_+) for nh = -1;
 *   along -z (pp + pz = 0): chi_+ = 0, chi_- = -nh;
 *   at rest (pp = 0): chi_+ = 1, chi_- = 0, omega_+ = sqrt|m|, omega_- = sign(m) sqrt|m|, the
 *   p -> 0 limit along +z (HELAS's ixxxxx and MadGraph 5's oxxxxx have exactly these values; the
 *   old HELAS oxxxxx.F put the other spin state in its nh = +1 rest spinor).
 *   w_up = sf_1 omega_(-nh), w_down = sf_2 omega_(nh) (HELAS's sfomeg(1), sfomeg(2)). */
typedef struct {
  REAL w_up, w_down;
  hg_complex chi_a, chi_b;
} hg_massive_spinor_parts;

HG_INLINE hg_massive_spinor_parts hg_massive_spinor(hg_fourvec p, REAL fmass, int nhel, int nsf,
                                                    REAL im_sign) {
  const int nh = nhel * nsf;
  const int right = nh == 1;
  const REAL pp = fmin(p.v[0], sqrt(p.v[1] * p.v[1] + p.v[2] * p.v[2] + p.v[3] * p.v[3]));
  const int at_rest = pp == (REAL)0;
  const REAL pp_safe = at_rest ? (REAL)1 : pp;
  const REAL sqm = sqrt(fabs(fmass));
  const REAL omega_plus = at_rest ? sqm : sqrt(p.v[0] + pp);
  const REAL omega_minus = at_rest ? (fmass < (REAL)0 ? -sqm : sqm) : fmass / omega_plus;
  const REAL sf1 = (REAL)(1 + nsf + (1 - nsf) * nh) * (REAL)0.5;
  const REAL sf2 = (REAL)(1 + nsf - (1 - nsf) * nh) * (REAL)0.5;
  const REAL pp3 = fmax(pp + p.v[3], (REAL)0);
  const int along_minus_z = !at_rest && pp3 == (REAL)0;
  const REAL denominator = (at_rest || along_minus_z) ? (REAL)1 : sqrt((REAL)2 * pp * pp3);
  const hg_complex chi_plus =
      hg_cmplx(at_rest ? (REAL)1 : sqrt(pp3 * (REAL)0.5 / pp_safe), (REAL)0);
  hg_complex chi_minus = hg_cmplx((REAL)nh * p.v[1] / denominator, im_sign * p.v[2] / denominator);
  chi_minus = hg_csel(along_minus_z, hg_cmplx(-(REAL)nh, (REAL)0), chi_minus);
  chi_minus = hg_csel(at_rest, hg_czero(), chi_minus);
  hg_massive_spinor_parts s;
  s.w_up = sf1 * (right ? omega_minus : omega_plus);
  s.w_down = sf2 * (right ? omega_plus : omega_minus);
  s.chi_a = hg_csel(right, chi_plus, chi_minus);
  s.chi_b = hg_csel(right, chi_minus, chi_plus);
  return s;
}

/* HELAS ixxxxx: the flowing-in fermion of mass fmass, u(p, nhel) for nsf = +1, v(p, nhel) for
 * nsf = -1, nhel = +-1 the helicity, in the chiral basis of CONVENTIONS.md:
 *   fi = (w_up chi_a, w_up chi_b, w_down chi_a, w_down chi_b) with the pieces above (chi_- with
 *   +i py); slots 5, 6 = nsf*(E + i pz), nsf*(px + i py).
 * Satisfies (pslash - m) u = 0, (pslash + m) v = 0; p along +-z and p = 0 need no other function.
 * fmass = 0 (batch-uniform) returns ixxxx0(p, nhel, nsf). */
HG_INLINE hg_wave ixxxxx(hg_fourvec p, REAL fmass, int nhel, int nsf) {
  if (fmass == (REAL)0) return ixxxx0(p, nhel, nsf);
  const hg_massive_spinor_parts s = hg_massive_spinor(p, fmass, nhel, nsf, (REAL)1);
  hg_wave fi;
  fi.w[0] = hg_cscale(s.w_up, s.chi_a);
  fi.w[1] = hg_cscale(s.w_up, s.chi_b);
  fi.w[2] = hg_cscale(s.w_down, s.chi_a);
  fi.w[3] = hg_cscale(s.w_down, s.chi_b);
  hg_set_momentum_slots(&fi, p, nsf);
  return fi;
}

/* HELAS oxxxxx: the flowing-out fermion of mass fmass, ubar(p, nhel) for nsf = +1, vbar(p, nhel)
 * for nsf = -1:
 *   fo = (w_down chi_a, w_down chi_b, w_up chi_a, w_up chi_b) with the pieces above (chi_- with
 *   -i py); slots 5, 6 = nsf*(E + i pz), nsf*(px + i py).
 * Satisfies ubar (pslash - m) = 0, vbar (pslash + m) = 0. fmass = 0 returns oxxxx0(p, nhel, nsf).
 */
HG_INLINE hg_wave oxxxxx(hg_fourvec p, REAL fmass, int nhel, int nsf) {
  if (fmass == (REAL)0) return oxxxx0(p, nhel, nsf);
  const hg_massive_spinor_parts s = hg_massive_spinor(p, fmass, nhel, nsf, -(REAL)1);
  hg_wave fo;
  fo.w[0] = hg_cscale(s.w_down, s.chi_a);
  fo.w[1] = hg_cscale(s.w_down, s.chi_b);
  fo.w[2] = hg_cscale(s.w_up, s.chi_a);
  fo.w[3] = hg_cscale(s.w_up, s.chi_b);
  hg_set_momentum_slots(&fo, p, nsf);
  return fo;
}

/* HELAS vxxxxx: the polarisation vector of a vector boson of mass vmass and helicity nhel (-1, 0,
 * +1; 0 only when vmass > 0), eps* for a final-state boson (nsv = +1), eps for an initial one
 * (nsv = -1). With pp = |p|, pt = |p_T|, h = nhel, h0 = 1 - |h|, s = nsv |h|, 1/sqrt2 = sqh:
 *   eps = h0 (pp/m, E px/(m pp), E py/(m pp), E pz/(m pp))                     (longitudinal)
 *       + (0, -h pz px/(pp pt) sqh - i s py/pt sqh, -h pz py/(pp pt) sqh + i s px/pt sqh,
 *          h pt/pp sqh)                                                        (transverse);
 *   pt = 0: eps = (h0 pp/m, -h sqh, i s sign(pz) sqh, h0 E pz/(m pp)) (sign(0) = +);
 *   p = 0:  eps = (0, -h sqh, i s sqh, h0).
 * Slots 5, 6 = nsv*(E + i pz), nsv*(px + i py). eps.p = 0, eps.eps* = -1. vmass = 0
 * (batch-uniform) returns vxxxx0(p, nhel, nsv). */
HG_INLINE hg_wave vxxxxx(hg_fourvec p, REAL vmass, int nhel, int nsv) {
  if (vmass == (REAL)0) return vxxxx0(p, nhel, nsv);
  const REAL sqh = sqrt((REAL)0.5);
  const REAL hel = (REAL)nhel;
  const REAL hel0 = (REAL)1 - fabs(hel);
  const REAL nsvahl = (REAL)nsv * fabs(hel);
  const REAL pt2 = p.v[1] * p.v[1] + p.v[2] * p.v[2];
  const REAL pp = fmin(p.v[0], sqrt(pt2 + p.v[3] * p.v[3]));
  const REAL pt = fmin(pp, sqrt(pt2));
  const int at_rest = pp == (REAL)0;
  const int on_axis = pt == (REAL)0;
  const REAL pp_safe = at_rest ? (REAL)1 : pp;
  const REAL pt_safe = on_axis ? (REAL)1 : pt;
  const REAL emp = p.v[0] / (vmass * pp_safe);
  const REAL pzpt = p.v[3] / (pp_safe * pt_safe) * sqh * hel;
  const REAL axis_sign = p.v[3] < (REAL)0 ? -sqh : sqh;
  hg_wave vc;
  vc.w[0] = hg_cmplx(at_rest ? (REAL)0 : hel0 * pp / vmass, (REAL)0);
  vc.w[1] =
      hg_csel(on_axis, hg_cmplx(-hel * sqh, (REAL)0),
              hg_cmplx(hel0 * p.v[1] * emp - p.v[1] * pzpt, -nsvahl * p.v[2] / pt_safe * sqh));
  vc.w[2] = hg_csel(on_axis, hg_cmplx((REAL)0, nsvahl * (at_rest ? sqh : axis_sign)),
                    hg_cmplx(hel0 * p.v[2] * emp - p.v[2] * pzpt, nsvahl * p.v[1] / pt_safe * sqh));
  vc.w[3] = hg_cmplx(at_rest ? hel0 : hel0 * p.v[3] * emp + hel * pt / pp_safe * sqh, (REAL)0);
  hg_set_momentum_slots(&vc, p, nsv);
  return vc;
}

#endif
