/* SPDX-License-Identifier: MIT */
/* The lexicographic next-permutation step both loop engines use. */
#ifndef HG_NEXT_PERMUTATION_H
#define HG_NEXT_PERMUTATION_H

#include "shared/portable.h"

/* Reverses order[lo..hi]. */
HG_INLINE void hg_reverse(int *order, int lo, int hi) {
  for (; lo < hi; ++lo, --hi) {
    const int t = order[lo];
    order[lo] = order[hi];
    order[hi] = t;
  }
}

/* Steps order[0..n-1] to its lexicographic successor and returns the first position that
 * changed, or -1 (order left as is) when order was the last permutation. */
HG_INLINE int hg_next_permutation(int *order, int n) {
  int i = n - 2;
  while (i >= 0 && order[i] > order[i + 1]) --i;
  if (i < 0) return -1;
  int j = n - 1;
  while (order[j] < order[i]) --j;
  const int t = order[i];
  order[i] = order[j];
  order[j] = t;
  hg_reverse(order, i + 1, n - 1);
  return i;
}

#endif
