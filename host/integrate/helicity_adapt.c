/* SPDX-License-Identifier: MIT */
/* Adaptive helicity sampling: probabilities from shares of sigma, with a uniform floor. */
#include <math.h>

#include "integrate/helicity_adapt.h"

void hg_helicity_table(const double *shares, size_t count, double floor, double *cumulative) {
  double total = 0.0;
  for (size_t c = 0; c < count; ++c) total += shares[c] > 0.0 ? shares[c] : 0.0;
  const double learnt = total > 0.0 ? 1.0 - floor : 0.0, uniform = (1.0 - learnt) / count;
  double sum = 0.0;
  for (size_t c = 0; c < count; ++c) {
    const double share = total > 0.0 && shares[c] > 0.0 ? shares[c] / total : 0.0;
    sum += learnt * share + uniform;
    cumulative[c] = sum;
  }
  /* the draw needs u < cumulative[count - 1] for every u in (0, 1) */
  cumulative[count - 1] = 1.0;
}

double hg_table_probability(const double *cumulative, size_t c) {
  return cumulative[c] - (c > 0 ? cumulative[c - 1] : 0.0);
}
