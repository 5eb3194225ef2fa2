/* SPDX-License-Identifier: MIT */
/* The colour factors of one colour assignment, for the recursive colour engine's sampled colours
 * (CONVENTIONS.md, "Colour sampling"): the DDM coefficient of a gluon ordering,
 * Tr(T^c [T^x1, [..., [T^xk, T^a0]]]), and a quark line's (T^x1 ... T^xk)_{o i}, from the SU(3)
 * structure constants and generators (Tr(T^a T^b) = delta^ab / 2). Adjoint indices 0..7 stand
 * for a = 1..8, fundamental ones 0..2. Every table index is a constant after macro expansion;
 * only the colours are data, chosen by selects. Host C and OpenCL C. Needs REAL and
 * common/real.h. */
#ifndef HG_COLOUR_FACTORS_H
#define HG_COLOUR_FACTORS_H

#include "common/real.h"
#include "shared/portable.h"

#define HG_SQRT3_2 0.86602540378443864676
#define HG_INV_SQRT3 0.57735026918962576451

/* The independent non-zero f^{abc}, a < b < c (zero-based): f^123 = 1, f^147 = f^246 = f^257 =
 * f^345 = 1/2, f^156 = f^367 = -1/2, f^458 = f^678 = sqrt(3)/2. */
#define HG_SU3_F(X)                                                                                \
  X(0, 1, 2, 1.0)                                                                                  \
  X(0, 3, 6, 0.5)                                                                                  \
  X(0, 4, 5, -0.5) X(1, 3, 5, 0.5) X(1, 4, 6, 0.5) X(2, 3, 4, 0.5) X(2, 5, 6, -0.5)                \
      X(3, 4, 7, HG_SQRT3_2) X(5, 6, 7, HG_SQRT3_2)

/* The non-zero entries (x, row, column, re, im) of the generators T^x = lambda^x / 2. */
#define HG_SU3_T(X)                                                                                \
  X(0, 0, 1, 0.5, 0.0)                                                                             \
  X(0, 1, 0, 0.5, 0.0) X(1, 0, 1, 0.0, -0.5) X(1, 1, 0, 0.0, 0.5) X(2, 0, 0, 0.5, 0.0)             \
      X(2, 1, 1, -0.5, 0.0) X(3, 0, 2, 0.5, 0.0) X(3, 2, 0, 0.5, 0.0) X(4, 0, 2, 0.0, -0.5)        \
          X(4, 2, 0, 0.0, 0.5) X(5, 1, 2, 0.5, 0.0) X(5, 2, 1, 0.5, 0.0) X(6, 1, 2, 0.0, -0.5)     \
              X(6, 2, 1, 0.0, 0.5) X(7, 0, 0, 0.5 * HG_INV_SQRT3, 0.0)                             \
                  X(7, 1, 1, 0.5 * HG_INV_SQRT3, 0.0) X(7, 2, 2, -HG_INV_SQRT3, 0.0)

/* w_d = sum_e f^{x e d} v_e: the adjoint vector of [T^x, v_e T^e] / i. */
HG_INLINE void hg_cf_adjoint_step(hg_u32 x, const REAL *v, REAL *w) {
  for (int d = 0; d < 8; ++d) w[d] = (REAL)0;
    /* f^{abc} = f^{bca} = f^{cab} = -f^{acb} = -f^{bac} = -f^{cba} */
#define HG_CF_F_TERMS(a, b, c, value)                                                              \
  {                                                                                                \
    const REAL fa = x == (a) ? (REAL)(value) : (REAL)0;                                            \
    const REAL fb = x == (b) ? (REAL)(value) : (REAL)0;                                            \
    const REAL fc = x == (c) ? (REAL)(value) : (REAL)0;                                            \
    w[c] += fa * v[b];                                                                             \
    w[b] -= fa * v[c];                                                                             \
    w[a] += fb * v[c];                                                                             \
    w[c] -= fb * v[a];                                                                             \
    w[b] += fc * v[a];                                                                             \
    w[a] -= fc * v[b];                                                                             \
  }
  HG_SU3_F(HG_CF_F_TERMS)
#undef HG_CF_F_TERMS
}

/* The DDM coefficient without its phase i^k: Tr(T^c [T^x1, [..., [T^xk, T^a0]]]) / i^k =
 * (1/2) sum f^{xk a0 d1} f^{x(k-1) d1 d2} ... f^{x1 d(k-1) c}, the inner gluons' colours
 * x[0..k-1] in the ordering's order. */
HG_INLINE REAL hg_cf_ddm(const hg_u32 *x, int k, hg_u32 a0, hg_u32 c) {
  REAL v[8], w[8];
  for (int d = 0; d < 8; ++d) v[d] = a0 == (hg_u32)d ? (REAL)1 : (REAL)0;
  for (int j = k - 1; j >= 0; --j) {
    hg_cf_adjoint_step(x[j], v, w);
    for (int d = 0; d < 8; ++d) v[d] = w[d];
  }
  REAL r = (REAL)0;
  for (int d = 0; d < 8; ++d) r += c == (hg_u32)d ? v[d] : (REAL)0;
  return (REAL)0.5 * r;
}

/* u_b <- sum_a u_a (T^x)_{ab}: a row vector times a generator. */
HG_INLINE void hg_cf_fundamental_step(hg_u32 x, hg_complex *u) {
  hg_complex t[3] = {hg_czero(), hg_czero(), hg_czero()};
#define HG_CF_T_TERM(gen, row, column, re, im)                                                     \
  {                                                                                                \
    const int on = x == (gen);                                                                     \
    const hg_complex entry = hg_cmplx(on ? (REAL)(re) : (REAL)0, on ? (REAL)(im) : (REAL)0);       \
    t[column] = hg_cadd(t[column], hg_cmul(u[row], entry));                                        \
  }
  HG_SU3_T(HG_CF_T_TERM)
#undef HG_CF_T_TERM
  for (int b = 0; b < 3; ++b) u[b] = t[b];
}

/* A quark line's colour factor (T^x1 ... T^xk)_{o i}, the gluons' colours x[0..k-1] in the
 * ordering's order, o and i the fundamental indices of the line's flowing-out and flowing-in
 * ends. */
HG_INLINE hg_complex hg_cf_quark_line(const hg_u32 *x, int k, hg_u32 o, hg_u32 i) {
  hg_complex u[3];
  for (int a = 0; a < 3; ++a) u[a] = hg_cmplx(o == (hg_u32)a ? (REAL)1 : (REAL)0, (REAL)0);
  for (int j = 0; j < k; ++j) hg_cf_fundamental_step(x[j], u);
  hg_complex r = hg_czero();
  for (int a = 0; a < 3; ++a) r = hg_csel(i == (hg_u32)a, u[a], r);
  return r;
}

#endif
