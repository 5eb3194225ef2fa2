/* SPDX-License-Identifier: MIT */
/* Renormalisation and factorisation scales of an event: a fixed scale, MadGraph's
 * dynamical_scale_choice 1-4 (its setscales.f), and H_T/2 from the transverse momenta
 * (CONVENTIONS.md, "Scales"). */
#ifndef HG_PS_SCALES_H
#define HG_PS_SCALES_H

#include "shared/portable.h"

#define HG_SCALE_FIXED 0       /* hegetcl's: mu = the fixed scale (MadGraph's 0 is user code) */
#define HG_SCALE_SUM_ET 1      /* MadGraph 1: sum over the final state of E_T = E pT / |p| */
#define HG_SCALE_SUM_MT 2      /* MadGraph 2: sum of m_T = sqrt((E + pz)(E - pz)) (H_T) */
#define HG_SCALE_HALF_SUM_MT 3 /* MadGraph 3: that sum over 2 (H_T/2) */
#define HG_SCALE_SQRT_SHAT 4   /* MadGraph 4: sqrt((p1 + p2)^2), the partonic energy */
#define HG_SCALE_HALF_SUM_PT                                                                       \
  10 /* hegetcl's: sum of final-state pT over 2 (Pepper's, Sherpa's                                \
        H_T/2); MadGraph has no number for it */

/* p as the const array these functions take: C before C23 (and OpenCL C) does not convert
 * double (*)[4] to const double (*)[4] by itself, and -Wpedantic says so. */
#ifndef HG_MOMENTA
#define HG_MOMENTA(p) ((const double(*)[4])(p))
#endif

/* mu in GeV for choice (scalefact not applied) from the external momenta p (E px py pz, the n_in
 * incoming first, n in all); mass is not read by these choices, which take the masses from the
 * momenta as MadGraph does (it is there for choices that need the nominal masses, and may be
 * NULL); fixed_gev is returned for HG_SCALE_FIXED. An unknown choice gives NaN, which the
 * kernels count as a non-finite weight (the host refuses it first: hg_scale_choice_check).
 * Branch-free over the particles: the choice is uniform over a batch. */
HG_INLINE double hg_dynamical_scale(int choice, const double p[][4], const double *mass, int n_in,
                                    int n, double fixed_gev) {
  (void)mass;
  double sum_et = 0, sum_mt = 0, sum_pt = 0;
  for (int i = n_in; i < n; ++i) {
    const double pt2 = p[i][1] * p[i][1] + p[i][2] * p[i][2], pt = sqrt(pt2);
    const double p_abs = sqrt(pt2 + p[i][3] * p[i][3]);
    sum_et += pt > 0 ? p[i][0] * pt / p_abs : 0;
    sum_mt += sqrt(fmax(0.0, (p[i][0] + p[i][3]) * (p[i][0] - p[i][3])));
    sum_pt += pt;
  }
  const double e = p[0][0] + p[1][0], px = p[0][1] + p[1][1], py = p[0][2] + p[1][2],
               pz = p[0][3] + p[1][3];
  const double sqrt_shat = sqrt(fmax(0.0, e * e - px * px - py * py - pz * pz));
  return choice == HG_SCALE_FIXED         ? fixed_gev
         : choice == HG_SCALE_SUM_ET      ? sum_et
         : choice == HG_SCALE_SUM_MT      ? sum_mt
         : choice == HG_SCALE_HALF_SUM_MT ? 0.5 * sum_mt
         : choice == HG_SCALE_SQRT_SHAT   ? sqrt_shat
         : choice == HG_SCALE_HALF_SUM_PT ? 0.5 * sum_pt
                                          : NAN;
}

#endif
