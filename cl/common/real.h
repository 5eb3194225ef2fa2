/* SPDX-License-Identifier: MIT */
/* hg_complex in the program's precision REAL, and the few operations the HELAS functions need. */
#ifndef HG_REAL_H
#define HG_REAL_H

#include "shared/portable.h"

#ifndef REAL
#error "REAL is undefined: build with -D REAL=float or -D REAL=double (hg_build_options() does)"
#endif
#ifndef REAL_IS_DOUBLE
#error "REAL_IS_DOUBLE is undefined: build with -D REAL_IS_DOUBLE=0 or 1 (hg_build_options() does)"
#endif

typedef struct {
  REAL re, im;
} hg_complex;

HG_INLINE hg_complex hg_cmplx(REAL re, REAL im) {
  hg_complex z;
  z.re = re;
  z.im = im;
  return z;
}
HG_INLINE hg_complex hg_czero(void) { return hg_cmplx((REAL)0, (REAL)0); }
HG_INLINE hg_complex hg_cadd(hg_complex a, hg_complex b) { return hg_cmplx(a.re + b.re, a.im + b.im); }
HG_INLINE hg_complex hg_csub(hg_complex a, hg_complex b) { return hg_cmplx(a.re - b.re, a.im - b.im); }
HG_INLINE hg_complex hg_cmul(hg_complex a, hg_complex b) {
  return hg_cmplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
/* a*b + c, the workhorse of spinor-matrix products. */
HG_INLINE hg_complex hg_cfma(hg_complex a, hg_complex b, hg_complex c) {
  return hg_cmplx(c.re + a.re * b.re - a.im * b.im, c.im + a.re * b.im + a.im * b.re);
}
HG_INLINE hg_complex hg_cscale(REAL s, hg_complex a) { return hg_cmplx(s * a.re, s * a.im); }
/* i*a */
HG_INLINE hg_complex hg_cmuli(hg_complex a) { return hg_cmplx(-a.im, a.re); }
HG_INLINE hg_complex hg_cconj(hg_complex a) { return hg_cmplx(a.re, -a.im); }
HG_INLINE hg_complex hg_cneg(hg_complex a) { return hg_cmplx(-a.re, -a.im); }
HG_INLINE REAL hg_cabs2(hg_complex a) { return a.re * a.re + a.im * a.im; }
/* c ? a : b on complex values: a select, not a branch. */
HG_INLINE hg_complex hg_csel(int c, hg_complex a, hg_complex b) {
  return hg_cmplx(c ? a.re : b.re, c ? a.im : b.im);
}

#endif
