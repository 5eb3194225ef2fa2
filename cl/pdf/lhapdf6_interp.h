/* SPDX-License-Identifier: MIT */
/* x f(x, Q^2) from a packed LHAPDF 6 grid: LHAPDF's log-bicubic interpolation and extrapolators. */
#ifndef HG_PDF_LHAPDF6_INTERP_H
#define HG_PDF_LHAPDF6_INTERP_H

#include "shared/portable.h"

/* The packed grid (host/pdf/lhapdf6_grid.c writes it) is one array of doubles. Counts and
 * offsets are stored as doubles (exact below 2^53) and read back as int; an offset counts
 * doubles from grid[0].
 *
 *   grid[0]  HG_PDF_TAG, the layout's version mark
 *   grid[1]  n_slots: the flavours packed; slot i is the host's pids[i]
 *   grid[2]  n_blocks: the Q subgrids in increasing Q; block b + 1 starts at block b's last Q
 *   grid[3]  the extrapolator: HG_PDF_EXTRAPOLATE_CONTINUATION, _NEAREST or _ERROR
 *   grid[4]  the grid's size in doubles; grid[5..7] are 0
 *   grid[HG_PDF_HEADER_SIZE + HG_PDF_BLOCK_FIELDS * b + k]: block b's field k (HG_PDF_B_*):
 *     nx, nq             its knot counts (nx >= 4, nq >= 2; every block has the same x knots)
 *     x, log_x           offsets of its nx x knots and their logarithms
 *     q2, log_q2         offsets of its nq Q^2 knots (the file's Q squared) and their logarithms
 *     values             offset of x f: slot s at knot (ix, iq) is values[(s * nx + ix) * nq + iq],
 *                        Q fastest, as in the .dat file
 *     dxf                offset of d(x f)/d(log x) at each knot, indexed as values: LHAPDF's
 *                        finite differences (the mean of the left and right slopes inside, the
 *                        one-sided slope at the first and last x knot), computed once by the host
 *
 * Every interpolation step repeats LHAPDF 6.5's arithmetic operation for operation (KnotArray,
 * GridPDF::_computePolynomialCoefficients, LogBicubicInterpolator, ContinuationExtrapolator), so
 * that host C should give LHAPDF's doubles (LHAPDF itself is not at hand to compare with).
 * Constants that are not exact binary fractions are written as integer quotients (1.01 as
 * (double)101 / 100): a float program's -cl-single-precision-constant would otherwise round them to
 * float. */

#define HG_PDF_TAG 6001.0
#define HG_PDF_HEADER_SIZE 8
#define HG_PDF_BLOCK_FIELDS 8
#define HG_PDF_H_SLOTS 1
#define HG_PDF_H_BLOCKS 2
#define HG_PDF_H_EXTRAPOLATOR 3
#define HG_PDF_H_SIZE 4
#define HG_PDF_B_NX 0
#define HG_PDF_B_NQ 1
#define HG_PDF_B_X 2
#define HG_PDF_B_LOG_X 3
#define HG_PDF_B_Q2 4
#define HG_PDF_B_LOG_Q2 5
#define HG_PDF_B_VALUES 6
#define HG_PDF_B_DXF 7

/* The .info's Extrapolator: continuation (LHAPDF's default), nearest, error. */
#define HG_PDF_EXTRAPOLATE_CONTINUATION 0
#define HG_PDF_EXTRAPOLATE_NEAREST 1
#define HG_PDF_EXTRAPOLATE_ERROR 2

/* Field k of block b's record. */
HG_INLINE int hg_pdf_field(HG_GLOBAL const double *grid, int block, int k) {
  return (int)grid[HG_PDF_HEADER_SIZE + HG_PDF_BLOCK_FIELDS * block + k];
}

/* One Q subgrid's arrays, values and slopes already offset to one slot. */
typedef struct {
  int nx, nq;
  HG_GLOBAL const double *x, *log_x, *q2, *log_q2, *values, *dxf;
} hg_pdf_block;

/* Block b's arrays for a slot. */
HG_INLINE hg_pdf_block hg_pdf_block_get(HG_GLOBAL const double *grid, int block, int slot) {
  hg_pdf_block g;
  g.nx = hg_pdf_field(grid, block, HG_PDF_B_NX);
  g.nq = hg_pdf_field(grid, block, HG_PDF_B_NQ);
  g.x = grid + hg_pdf_field(grid, block, HG_PDF_B_X);
  g.log_x = grid + hg_pdf_field(grid, block, HG_PDF_B_LOG_X);
  g.q2 = grid + hg_pdf_field(grid, block, HG_PDF_B_Q2);
  g.log_q2 = grid + hg_pdf_field(grid, block, HG_PDF_B_LOG_Q2);
  g.values = grid + hg_pdf_field(grid, block, HG_PDF_B_VALUES) + slot * g.nx * g.nq;
  g.dxf = grid + hg_pdf_field(grid, block, HG_PDF_B_DXF) + slot * g.nx * g.nq;
  return g;
}

/* The knot interval [i, i + 1] LHAPDF takes for v (KnotArray's indexbelow): the last knot <= v,
 * or the last interval when v is the last knot. v must lie within the knots. */
HG_INLINE int hg_pdf_index_below(HG_GLOBAL const double *knots, int n, double v) {
  int lo = 0, hi = n; /* upper_bound: the first knot > v */
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (v < knots[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  return (lo == n ? n - 1 : lo) - 1;
}

/* The subgrid that owns q2: the last one whose first knot is <= q2, so a Q^2 on a boundary
 * belongs to the upper subgrid, as in LHAPDF's concatenated knot array. */
HG_INLINE int hg_pdf_block_of(HG_GLOBAL const double *grid, double q2) {
  const int n_blocks = (int)grid[HG_PDF_H_BLOCKS];
  int block = 0;
  for (int b = 1; b < n_blocks; ++b)
    if (grid[hg_pdf_field(grid, b, HG_PDF_B_Q2)] <= q2) block = b;
  return block;
}

/* LHAPDF's cubic in log x at Q^2 knot iq: Hermite on [x_ix, x_ix+1] with the knots' slopes times
 * the interval, as the polynomial a t^3 + b t^2 + c t + d whose coefficients LHAPDF precomputes. */
HG_INLINE double hg_pdf_cubic_in_x(hg_pdf_block g, int ix, int iq, double dlogx, double t) {
  const int low = ix * g.nq + iq, high = low + g.nq;
  const double vl = g.values[low], vh = g.values[high];
  const double vdl = g.dxf[low] * dlogx, vdh = g.dxf[high] * dlogx;
  const double a = vdh + vdl - 2 * vh + 2 * vl;
  const double b = 3 * vh - 3 * vl - 2 * vdl - vdh;
  const double t2 = t * t, t3 = t2 * t;
  return a * t3 + b * t2 + vdl * t + vl;
}

/* Cubic Hermite on [0, 1] from the end values and the end slopes times the interval. */
HG_INLINE double hg_pdf_hermite(double t, double vl, double vdl, double vh, double vdh) {
  const double t2 = t * t, t3 = t * t2;
  const double p0 = (2 * t3 - 3 * t2 + 1) * vl;
  const double m0 = (t3 - 2 * t2 + t) * vdl;
  const double p1 = (-2 * t3 + 3 * t2) * vh;
  const double m1 = (t3 - t2) * vdh;
  return p0 + m0 + p1 + m1;
}

/* The straight line through (xl, yl) and (xh, yh) at v. */
HG_INLINE double hg_pdf_linear(double v, double xl, double xh, double yl, double yh) {
  return yl + (v - xl) / (xh - xl) * (yh - yl);
}

/* LHAPDF's LogBicubicInterpolator at (x, q2) inside the grid, given log x and log Q^2: cubic in
 * log x at four Q^2 knots, then Hermite in log Q^2 with finite-difference slopes (one-sided in a
 * subgrid's first and last interval); bilinear in (log x, log Q^2) in a subgrid of two Q knots. */
HG_INLINE double hg_pdf_interpolate(HG_GLOBAL const double *grid, int slot, double x, double log_x,
                                    double q2, double log_q2) {
  const hg_pdf_block g = hg_pdf_block_get(grid, hg_pdf_block_of(grid, q2), slot);
  const int ix = hg_pdf_index_below(g.x, g.nx, x);
  const int iq = hg_pdf_index_below(g.q2, g.nq, q2);
  const int lower = iq == 0, upper = iq + 1 == g.nq - 1;
  if (lower && upper) {
    const int low = ix * g.nq + iq, high = low + g.nq;
    const double f_ql =
        hg_pdf_linear(log_x, g.log_x[ix], g.log_x[ix + 1], g.values[low], g.values[high]);
    const double f_qh =
        hg_pdf_linear(log_x, g.log_x[ix], g.log_x[ix + 1], g.values[low + 1], g.values[high + 1]);
    return hg_pdf_linear(log_q2, g.log_q2[iq], g.log_q2[iq + 1], f_ql, f_qh);
  }
  const double dlogx = g.log_x[ix + 1] - g.log_x[ix];
  const double tlogx = (log_x - g.log_x[ix]) / dlogx;
  const double dlogq_1 = g.log_q2[iq + 1] - g.log_q2[iq];
  const double tlogq = (log_q2 - g.log_q2[iq]) / dlogq_1;
  const double vl = hg_pdf_cubic_in_x(g, ix, iq, dlogx, tlogx);
  const double vh = hg_pdf_cubic_in_x(g, ix, iq + 1, dlogx, tlogx);
  double vdl, vdh;
  if (lower) {
    const double inv_dlogq_2 = 1. / (g.log_q2[iq + 2] - g.log_q2[iq + 1]);
    const double vhh = hg_pdf_cubic_in_x(g, ix, iq + 2, dlogx, tlogx);
    vdl = vh - vl;
    vdh = (vdl + (vhh - vh) * dlogq_1 * inv_dlogq_2) * 0.5;
  } else if (upper) {
    const double inv_dlogq_0 = 1. / (g.log_q2[iq] - g.log_q2[iq - 1]);
    const double vll = hg_pdf_cubic_in_x(g, ix, iq - 1, dlogx, tlogx);
    vdh = vh - vl;
    vdl = (vdh + (vl - vll) * dlogq_1 * inv_dlogq_0) * 0.5;
  } else {
    const double inv_dlogq_0 = 1. / (g.log_q2[iq] - g.log_q2[iq - 1]);
    const double inv_dlogq_2 = 1. / (g.log_q2[iq + 2] - g.log_q2[iq + 1]);
    const double vll = hg_pdf_cubic_in_x(g, ix, iq - 1, dlogx, tlogx);
    const double vhh = hg_pdf_cubic_in_x(g, ix, iq + 2, dlogx, tlogx);
    vdl = ((vh - vl) + (vl - vll) * dlogq_1 * inv_dlogq_0) * 0.5;
    vdh = ((vh - vl) + (vhh - vh) * dlogq_1 * inv_dlogq_2) * 0.5;
  }
  return hg_pdf_hermite(tlogq, vl, vdl, vh, vdh);
}

/* ContinuationExtrapolator's line in log v through two knots' values (given as logarithms):
 * in log y where both values exceed 1e-3, so that the result stays positive, else in y. */
HG_INLINE double hg_pdf_continue_line(double log_v, double log_vl, double log_vh, double yl,
                                      double yh) {
  const double threshold = (double)1 / 1000;
  if (yl > threshold && yh > threshold)
    return exp(log(yl) + (log_v - log_vl) / (log_vh - log_vl) * (log(yh) - log(yl)));
  return yl + (log_v - log_vl) / (log_vh - log_vl) * (yh - yl);
}

/* LHAPDF's ContinuationExtrapolator (the MSTW scheme, G. Watt 2014) outside the grid: straight
 * lines in log x below the first x knot and in log Q^2 above the last Q knot; below the first Q
 * knot, f(Q^2_min) (Q^2/Q^2_min)^(a Q^2/Q^2_min + 1 - Q^2/Q^2_min) with the anomalous dimension
 * a = d log f / d log Q^2 at Q^2_min (from 1.01 Q^2_min), at least -2.5, or 1 where
 * |f(Q^2_min)| < 1e-5. Above the last x knot LHAPDF stops with an error: 0 here. */
HG_INLINE double hg_pdf_continuation(HG_GLOBAL const double *grid, int slot, double x, double q2) {
  const hg_pdf_block first = hg_pdf_block_get(grid, 0, slot);
  const hg_pdf_block last = hg_pdf_block_get(grid, (int)grid[HG_PDF_H_BLOCKS] - 1, slot);
  const double x_min = first.x[0], x_min1 = first.x[1], x_max = first.x[first.nx - 1];
  const double log_x_min = first.log_x[0], log_x_min1 = first.log_x[1];
  const double q2_min = first.q2[0], log_q2_min = first.log_q2[0];
  const double q2_max = last.q2[last.nq - 1], log_q2_max = last.log_q2[last.nq - 1];
  const double q2_max1 = last.q2[last.nq - 2], log_q2_max1 = last.log_q2[last.nq - 2];
  if (x < x_min && q2 >= q2_min && q2 <= q2_max) {
    const double log_q2 = log(q2);
    const double f_x_min = hg_pdf_interpolate(grid, slot, x_min, log_x_min, q2, log_q2);
    const double f_x_min1 = hg_pdf_interpolate(grid, slot, x_min1, log_x_min1, q2, log_q2);
    return hg_pdf_continue_line(log(x), log_x_min, log_x_min1, f_x_min, f_x_min1);
  }
  if (x >= x_min && x <= x_max && q2 > q2_max) {
    const double log_x = log(x);
    const double f_q2_max = hg_pdf_interpolate(grid, slot, x, log_x, q2_max, log_q2_max);
    const double f_q2_max1 = hg_pdf_interpolate(grid, slot, x, log_x, q2_max1, log_q2_max1);
    return hg_pdf_continue_line(log(q2), log_q2_max, log_q2_max1, f_q2_max, f_q2_max1);
  }
  if (x < x_min && q2 > q2_max) {
    const double log_q2 = log(q2);
    double f_max = hg_pdf_interpolate(grid, slot, x_min, log_x_min, q2_max, log_q2_max);
    double f_max1 = hg_pdf_interpolate(grid, slot, x_min, log_x_min, q2_max1, log_q2_max1);
    const double f_x_min = hg_pdf_continue_line(log_q2, log_q2_max, log_q2_max1, f_max, f_max1);
    f_max = hg_pdf_interpolate(grid, slot, x_min1, log_x_min1, q2_max, log_q2_max);
    f_max1 = hg_pdf_interpolate(grid, slot, x_min1, log_x_min1, q2_max1, log_q2_max1);
    const double f_x_min1 = hg_pdf_continue_line(log_q2, log_q2_max, log_q2_max1, f_max, f_max1);
    return hg_pdf_continue_line(log(x), log_x_min, log_x_min1, f_x_min, f_x_min1);
  }
  if (q2 < q2_min && x <= x_max) {
    const double q2_up = (double)101 / 100 * q2_min, log_q2_up = log(q2_up);
    double f_q2_min, f_q2_up;
    if (x < x_min) {
      const double log_x = log(x);
      double f_low = hg_pdf_interpolate(grid, slot, x_min, log_x_min, q2_min, log_q2_min);
      double f_high = hg_pdf_interpolate(grid, slot, x_min1, log_x_min1, q2_min, log_q2_min);
      f_q2_min = hg_pdf_continue_line(log_x, log_x_min, log_x_min1, f_low, f_high);
      f_low = hg_pdf_interpolate(grid, slot, x_min, log_x_min, q2_up, log_q2_up);
      f_high = hg_pdf_interpolate(grid, slot, x_min1, log_x_min1, q2_up, log_q2_up);
      f_q2_up = hg_pdf_continue_line(log_x, log_x_min, log_x_min1, f_low, f_high);
    } else {
      const double log_x = log(x);
      f_q2_min = hg_pdf_interpolate(grid, slot, x, log_x, q2_min, log_q2_min);
      f_q2_up = hg_pdf_interpolate(grid, slot, x, log_x, q2_up, log_q2_up);
    }
    double anom = 1.0;
    if (fabs(f_q2_min) >= (double)1 / 100000) {
      const double slope = (f_q2_up - f_q2_min) / f_q2_min / ((double)1 / 100);
      anom = -2.5 < slope ? slope : -2.5;
    }
    return f_q2_min * pow(q2 / q2_min, anom * q2 / q2_min + 1.0 - q2 / q2_min);
  }
  return 0; /* x above the last x knot */
}

/* x f(x, Q^2) of the flavour in `slot` (Q^2 in GeV^2): LHAPDF's log-bicubic interpolation inside
 * the grid; outside it sets *outside = 1 and applies the grid's extrapolator (error: 0; nearest:
 * the value at the closest point of the grid; continuation: hg_pdf_continuation). x outside
 * [0, 1], Q^2 < 0 and NaN, which LHAPDF rejects for every extrapolator, give 0 and *outside = 1;
 * x = 0 gives what LHAPDF's continuation gives there (infinite or NaN: log 0 enters its line).
 * *outside is left alone inside the grid. */
HG_INLINE double hg_pdf_xfxq2(HG_GLOBAL const double *grid, int slot, double x, double q2,
                              int *outside) {
  if (!(x >= 0 && x <= 1 && q2 >= 0)) {
    *outside = 1;
    return 0;
  }
  const hg_pdf_block first = hg_pdf_block_get(grid, 0, slot);
  const hg_pdf_block last = hg_pdf_block_get(grid, (int)grid[HG_PDF_H_BLOCKS] - 1, slot);
  const double x_min = first.x[0], x_max = first.x[first.nx - 1];
  const double q2_min = first.q2[0], q2_max = last.q2[last.nq - 1];
  const int x_inside = x >= x_min && x <= x_max, q2_inside = q2 >= q2_min && q2 <= q2_max;
  if (x_inside && q2_inside) return hg_pdf_interpolate(grid, slot, x, log(x), q2, log(q2));
  *outside = 1;
  const int extrapolator = (int)grid[HG_PDF_H_EXTRAPOLATOR];
  if (extrapolator == HG_PDF_EXTRAPOLATE_NEAREST) {
    /* Each coordinate moved to the nearest edge of the grid, its logarithm the stored one. */
    const double near_x = x_inside ? x : (x < x_min ? x_min : x_max);
    const double log_x =
        x_inside ? log(x) : (x < x_min ? first.log_x[0] : first.log_x[first.nx - 1]);
    const double near_q2 = q2_inside ? q2 : (q2 < q2_min ? q2_min : q2_max);
    const double log_q2 =
        q2_inside ? log(q2) : (q2 < q2_min ? first.log_q2[0] : last.log_q2[last.nq - 1]);
    return hg_pdf_interpolate(grid, slot, near_x, log_x, near_q2, log_q2);
  }
  if (extrapolator == HG_PDF_EXTRAPOLATE_CONTINUATION)
    return hg_pdf_continuation(grid, slot, x, q2);
  return 0;
}

#endif
