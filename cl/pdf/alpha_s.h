/* SPDX-License-Identifier: MIT */
/* Running alpha_s from a table of doubles the host makes (host/pdf/alpha_s.c): the PDF set's
 * own grid as LHAPDF interpolates it, the set's analytic Lambda formula, or MadGraph's one-loop
 * running from alpha_s(M_Z) (CONVENTIONS.md, "Running alpha_s"). */
#ifndef HG_PDF_ALPHA_S_H
#define HG_PDF_ALPHA_S_H

#include "shared/portable.h"

/* pi as an exact quotient (a float program's -cl-single-precision-constant would round a decimal
 * literal to float); alpha_s where the analytic formula has none (Q <= Lambda): NaN, which the
 * kernels count as a non-finite weight. */
#define HG_ALPHA_S_PI ((double)7074237752028440 / 2251799813685248)
#define HG_ALPHA_S_INVALID NAN

/* table[0], the mode; every mode computes in double, whatever REAL is (as the PDFs do). */
#define HG_ALPHA_S_INTERPOLATED 0 /* the PDF set's AlphaS_Qs / AlphaS_Vals grid, LHAPDF's ipol */
#define HG_ALPHA_S_ONE_LOOP 1     /* MadGraph's running for LO sets (alfas_functions.f, nloop 1) */
#define HG_ALPHA_S_ANALYTIC 2     /* the set's AlphaS_Lambda3..6 at its order, LHAPDF's analytic */

/* HG_ALPHA_S_INTERPOLATED: table[1] rows, [2] Q^2 of the first knot, [3] alpha_s there, [4] the
 * power of Q^2 below it, [5] Q^2 of the last knot, [6] alpha_s there; then per knot interval
 * (zero-width ones, at a repeated knot between subgrids, left out) HG_ALPHA_S_ROW doubles: */
#define HG_ALPHA_S_IPOL_HEADER 7
#define HG_ALPHA_S_ROW 7
#define HG_ALPHA_S_R_Q2 0         /* Q^2 at the interval's low knot */
#define HG_ALPHA_S_R_LOG_Q2 1     /* its log */
#define HG_ALPHA_S_R_DLOG_Q2 2    /* the interval's width in log Q^2 */
#define HG_ALPHA_S_R_LOW 3        /* alpha_s at the low knot */
#define HG_ALPHA_S_R_HIGH 4       /* at the high knot */
#define HG_ALPHA_S_R_SLOPE_LOW 5  /* d alpha_s / d log Q^2 at the low knot times the width */
#define HG_ALPHA_S_R_SLOPE_HIGH 6 /* at the high knot times the width */

/* HG_ALPHA_S_ONE_LOOP: table[1] alpha_s(M_Z), [2] M_Z^2, [3] m_b^2, [4] m_c^2, [5] alpha_s(m_b),
 * [6] alpha_s(m_c), [7..9] b0 for nf = 5, 4, 3 ((33 - 2 nf) / (12 pi)). */
#define HG_ALPHA_S_ONE_LOOP_SIZE 10

/* HG_ALPHA_S_ANALYTIC: table[1] loops (1..4), [2] nf below every threshold, [3..5] the squared
 * thresholds where nf becomes 4, 5, 6 (0 when that flavour never becomes active), [6..9] Lambda^2
 * for nf = 3, 4, 5, 6 (each nf's own or the nearest lower one given), [10..13] alpha_s(M_Z) and
 * 0 0 0 (loops 0: LHAPDF's fixed alpha_s(M_Z)). */
#define HG_ALPHA_S_ANALYTIC_SIZE 14

/* LHAPDF's ipol: a cubic Hermite polynomial in log Q^2 between knots, the slopes the mean of
 * the neighbouring secants (one-sided at a subgrid's ends); below the first knot alpha_s
 * continues as a power of Q^2 through the first two distinct knots, above the last it stays. */
HG_INLINE double hg_alpha_s_interpolated(HG_GLOBAL const double *table, double q2) {
  const int rows = (int)table[1];
  if (q2 < table[2]) return table[3] * pow(q2 / table[2], table[4]);
  if (q2 > table[5]) return table[6];
  HG_GLOBAL const double *row = table + HG_ALPHA_S_IPOL_HEADER;
  int lo = 0, hi = rows - 1; /* the last row whose low knot is <= q2 */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (row[mid * HG_ALPHA_S_ROW + HG_ALPHA_S_R_Q2] <= q2)
      lo = mid;
    else
      hi = mid - 1;
  }
  row += lo * HG_ALPHA_S_ROW;
  const double t = (log(q2) - row[HG_ALPHA_S_R_LOG_Q2]) / row[HG_ALPHA_S_R_DLOG_Q2];
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * row[HG_ALPHA_S_R_LOW] +
         (t3 - 2 * t2 + t) * row[HG_ALPHA_S_R_SLOPE_LOW] +
         (-2 * t3 + 3 * t2) * row[HG_ALPHA_S_R_HIGH] + (t3 - t2) * row[HG_ALPHA_S_R_SLOPE_HIGH];
}

/* MadGraph's one-loop running: from alpha_s(M_Z) with five flavours down to m_b, then from
 * alpha_s(m_b) with four down to m_c, then three: alpha_s(Q) = a / (1 + a b0 ln(Q^2 / mu^2)). */
HG_INLINE double hg_alpha_s_one_loop(HG_GLOBAL const double *table, double q2) {
  const int five = q2 >= table[3], four = !five && q2 >= table[4];
  const double a = five ? table[1] : (four ? table[5] : table[6]);
  const double mu2 = five ? table[2] : (four ? table[3] : table[4]);
  const double b0 = five ? table[7] : (four ? table[8] : table[9]);
  return a / (1 + a * b0 * log(q2 / mu2));
}

/* LHAPDF's analytic approximation: with L = ln(Q^2 / Lambda_nf^2), alpha_s = 1 / (beta0 L) times
 * the expansion in 1/L to the set's number of loops (beta_i in LHAPDF's normalisation,
 * beta0 = (33 - 2 nf) / (12 pi)). */
HG_INLINE double hg_alpha_s_analytic(HG_GLOBAL const double *table, double q2) {
  const int loops = (int)table[1];
  int nf = (int)table[2];
  for (int k = 0; k < 3; ++k)
    if (table[3 + k] > 0 && q2 > table[3 + k] && nf == 3 + k) nf = 4 + k;
  const double lambda2 = table[6 + (nf - 3)];
  const double lnx = log(q2 / lambda2), lnlnx = log(lnx), y = 1 / lnx;
  const double f = (double)nf;
  const double b0 = (33 - 2 * f) / (12 * HG_ALPHA_S_PI);
  const double b1 = (153 - 19 * f) / (24 * HG_ALPHA_S_PI * HG_ALPHA_S_PI);
  const double b2 = (2857 - (double)5033 / 9 * f + (double)325 / 27 * f * f) /
                    (128 * HG_ALPHA_S_PI * HG_ALPHA_S_PI * HG_ALPHA_S_PI);
  const double b3 = (double)1172686 / 1000000 - (double)2785458 / 10000000 * f +
                    (double)1624467 / 100000000 * f * f + (double)601247 / 10000000000 * f * f * f;
  double sum = 1;
  if (loops > 1) sum -= b1 * lnlnx / (b0 * b0) * y;
  if (loops > 2)
    sum +=
        b1 * b1 / (b0 * b0 * b0 * b0) * y * y * (lnlnx * lnlnx - lnlnx + b2 * b0 / (b1 * b1) - 1);
  if (loops > 3)
    sum -=
        y * y * y / (b0 * b0 * b0 * b0 * b0 * b0) *
        (b1 * b1 * b1 *
             (lnlnx * lnlnx * lnlnx - (double)5 / 2 * lnlnx * lnlnx - 2 * lnlnx + (double)1 / 2) +
         3 * b0 * b1 * b2 * lnlnx - (double)1 / 2 * b0 * b0 * b3);
  return loops == 0 ? table[10] : (q2 <= lambda2 ? HG_ALPHA_S_INVALID : y / b0 * sum);
}

/* alpha_s at Q^2 = q2 GeV^2 from a table of any mode. */
HG_INLINE double hg_alpha_s(HG_GLOBAL const double *table, double q2) {
  const int mode = (int)table[0];
  return mode == HG_ALPHA_S_INTERPOLATED
             ? hg_alpha_s_interpolated(table, q2)
             : (mode == HG_ALPHA_S_ONE_LOOP ? hg_alpha_s_one_loop(table, q2)
                                            : hg_alpha_s_analytic(table, q2));
}

#endif
