/* SPDX-License-Identifier: MIT */
/* The VEGAS map (Lepage 1978): a uniform number per dimension to a point of the adapted grid. */
#ifndef HG_VEGAS_MAP_H
#define HG_VEGAS_MAP_H

#include "shared/portable.h"

/* Grid layout: dimension j's bins+1 increasing edges, from 0 to 1, at grid[j * (bins + 1) + i]. */

/* Maps u in (0, 1) through dimension j's grid: returns the point, multiplies *jacobian by the
 * map's density bins * (bin width) and stores the bin index in *bin. */
HG_INLINE double hg_vegas_map(HG_GLOBAL const double *grid, int j, int bins, double u,
                              double *jacobian, int *bin) {
  const double y = u * (double)bins;
  int i = (int)y;
  i = i < bins ? i : bins - 1;
  const HG_GLOBAL double *edges = grid + (size_t)j * (size_t)(bins + 1);
  const double low = edges[i], width = edges[i + 1] - edges[i];
  *jacobian *= (double)bins * width;
  *bin = i;
  return low + (y - (double)i) * width;
}

/* The inverse: the density in (0, 1) of dimension j's map at the point x, 1 / (bins * width of
 * the bin holding x) (x outside [0, 1] is taken at the nearest end). A binary search of fixed trip
 * count (bins <= 255 needs 8 steps) and selects. */
HG_INLINE double hg_vegas_density(HG_GLOBAL const double *grid, int j, int bins, double x) {
  const HG_GLOBAL double *edges = grid + (size_t)j * (size_t)(bins + 1);
  int lo = 0, hi = bins - 1;
  for (int step = 0; step < 8; ++step) {
    const int mid = (lo + hi) / 2;
    const int right = edges[mid + 1] <= x;
    lo = right ? mid + 1 : lo;
    hi = right ? hi : mid;
  }
  return 1.0 / ((double)bins * (edges[lo + 1] - edges[lo]));
}

#endif
