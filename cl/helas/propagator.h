/* SPDX-License-Identifier: MIT */
/* The complex propagator denominators of the massive HELAS functions. */
#ifndef HG_PROPAGATOR_H
#define HG_PROPAGATOR_H

#include "common/real.h"

/* 1/(a + i b), exactly 1/a when b = 0 (so a zero width or mass changes nothing by rounding). */
HG_INLINE hg_complex hg_cinv(REAL a, REAL b) {
  const int real_only = b == (REAL)0;
  const REAL norm = real_only ? a : a * a + b * b;
  return hg_cmplx(real_only ? (REAL)1 / a : a / norm, real_only ? (REAL)0 : -b / norm);
}

/* 1/(p2 - m^2 + i m Gamma): HELAS's fixed-width Breit-Wigner (fvixxx, fvoxxx, jioxxx). */
HG_INLINE hg_complex hg_breit_wigner(REAL p2, REAL mass, REAL width) {
  return hg_cinv(p2 - mass * mass, mass * width);
}

#endif
