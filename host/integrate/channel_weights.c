/* SPDX-License-Identifier: MIT */
/* Kleiss-Pittau channel weights: the update from the channels' squared weights, and the table. */
#include <math.h>

#include "integrate/channel_weights.h"

void hg_channel_weights_update(double *alpha, const double *w2_sum, const double *events,
                               size_t count, double floor) {
  double next[64], total = 0.0;
  if (count > sizeof next / sizeof *next) return;
  for (size_t k = 0; k < count; ++k) {
    const double w = events[k] > 0.0 && w2_sum[k] > 0.0 ? w2_sum[k] / events[k] : -1.0;
    next[k] = w > 0.0 ? alpha[k] * sqrt(w) : -1.0;
  }
  /* channels without events keep their weight's share of the total */
  double kept = 0.0, moved = 0.0;
  for (size_t k = 0; k < count; ++k) {
    if (next[k] < 0.0)
      kept += alpha[k];
    else
      moved += next[k];
  }
  if (!(moved > 0.0)) return;
  for (size_t k = 0; k < count; ++k) {
    next[k] = next[k] < 0.0 ? alpha[k] : next[k] / moved * (1.0 - kept);
    total += next[k];
  }
  for (size_t k = 0; k < count; ++k)
    alpha[k] = (1.0 - floor) * next[k] / total + floor / (double)count;
}

void hg_channel_weights_table(const double *alpha, size_t count, double *cumulative) {
  double sum = 0.0;
  for (size_t k = 0; k < count; ++k) {
    sum += alpha[k];
    cumulative[k] = sum;
  }
  cumulative[count - 1] = 1.0;
}
