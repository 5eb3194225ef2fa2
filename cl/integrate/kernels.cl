/* SPDX-License-Identifier: MIT */
/* VEGAS for any integrand on the unit hypercube: vegas_sample_points draws the points (Philox,
 * then the grid map) and stores them with their Jacobians; an integrand kernel of the same program
 * multiplies each factor by f(x); vegas_reduce (reduce.cl) sums. Build options: VEGAS_DIMS,
 * VEGAS_BINS, AMP_REAL (unused here: factor is the whole weight). */
#include "integrate/reduce.cl"
#include "integrate/vegas_map.h"
#include "shared/philox.h"

/* Point first_event + get_global_id(0) of iteration `iteration`: x[j * n_events + e] (dimension
 * j), factor[e] = the map's Jacobian, bins[j * n_events + e]. Draw block b holds dimensions 2b and
 * 2b + 1, as in the cross-section sampler. */
__kernel void vegas_sample_points(__global const double *restrict grid, const hg_u32 seed_low,
                                  const hg_u32 seed_high, const hg_u32 iteration,
                                  const hg_u32 first_low, const hg_u32 first_high,
                                  const hg_u32 n_events, __global double *restrict x,
                                  __global double *restrict factor, __global uchar *restrict bins) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)e;
  double jacobian = 1.0;
  for (int b = 0; b < (VEGAS_DIMS + 1) / 2; ++b) {
    const hg_philox_words r =
        hg_philox4x32_10(hg_philox_counter(event, iteration, (hg_u32)b), seed_low, seed_high);
    for (int h = 0; h < 2 && 2 * b + h < VEGAS_DIMS; ++h) {
      const int j = 2 * b + h;
      int bin;
      x[(size_t)j * n_events + e] = hg_vegas_map(
          grid, j, VEGAS_BINS, hg_uniform_double(r.v[2 * h], r.v[2 * h + 1]), &jacobian, &bin);
      bins[(size_t)j * n_events + e] = (uchar)bin;
    }
  }
  factor[e] = jacobian;
}
