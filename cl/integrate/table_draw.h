/* SPDX-License-Identifier: MIT */
/* An index drawn from a table of cumulative probabilities (the adaptive helicity configurations
 * and phase-space channels, CONVENTIONS.md "Adaptive sampling"), by a binary search of fixed trip
 * count and selects, the same on every device. */
#ifndef HG_TABLE_DRAW_H
#define HG_TABLE_DRAW_H

#include "shared/portable.h"

/* Steps enough for tables of up to 2^13 entries (4094 photon configurations at n = 12). */
#define HG_TABLE_DRAW_STEPS 13

/* The first index i < count with u < cumulative[i] (cumulative[count - 1] is exactly 1, so one
 * exists for u in (0, 1)), and in *probability the probability the draw had: cumulative[i] -
 * cumulative[i - 1] (cumulative[i] for i = 0), which is what the weight divides by. */
HG_INLINE hg_u32 hg_table_draw(HG_GLOBAL const double *cumulative, hg_u32 count, double u,
                               double *probability) {
  hg_u32 lo = 0u, hi = count - 1u;
  for (int step = 0; step < HG_TABLE_DRAW_STEPS; ++step) {
    const hg_u32 mid = (lo + hi) / 2u;
    const int right = cumulative[mid] <= u;
    lo = right ? mid + 1u : lo;
    hi = right ? hi : mid;
  }
  const double below = lo > 0u ? cumulative[lo > 0u ? lo - 1u : 0u] : 0.0;
  *probability = cumulative[lo] - below;
  return lo;
}

#endif
