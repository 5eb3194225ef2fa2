/* SPDX-License-Identifier: MIT */
/* The recursive engine's two helicity sums agree: the work-group-shared one
 * (cl/amplitudes/recursive_shared.cl, the default where an event fits in local memory) and the
 * per-work-item one (kernels.cl's amplitude_summed), on the same points for n = 2..10, also in
 * batches that leave a work-group partly filled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "amplitude/amplitude_internal.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 10
/* not a multiple of any work-group's events: the last group is partly filled */
#define N_POINTS 7
#define SQRT_S_GEV 500.0
#define PT_MIN_FRAC 0.05
#define SOFT_PT_MIN_FRAC 0.002

static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

/* double: both sums round differently over 2^n - 2 configurations; float: 24-bit rounding with
 * the cancellations of the n! orderings (engines_agree.c uses 1e-4), which reach 2.2e-4 at
 * n = 10 with soft photons. */
static double tolerance(hegetcl_precision precision, unsigned n) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : n >= 9 ? 1e-3 : 1e-4;
}

static void shared_equals_private(unsigned n, hegetcl_precision precision, int soft) {
  ts_skip_without_fp64(ctx, precision);
  hegetcl_process process;
  hegetcl_process_defaults(&process, n);
  process.precision = precision;
  double momenta[4 * (N_MAX + 2) * N_POINTS], me[2][N_POINTS];
  /* as the cross-section pipeline hands them over: in units of sqrt(s-hat), with photons down to
   * 0.2% of it in pT (20 GeV at 10 TeV), where float products of propagators grow large */
  const double sqrt_s = soft ? 1.0 : SQRT_S_GEV, pt_min_frac = soft ? SOFT_PT_MIN_FRAC : PT_MIN_FRAC;
  ts_random_points(n, sqrt_s, N_POINTS, 0xa11ce000u + n + 100u * (unsigned)soft, pt_min_frac,
                   momenta);
  int shared_used = 0;
  for (int variant = 0; variant < 2; ++variant) {
    hegetcl_amplitude *amp = NULL;
    TS_ASSERT_OK(ctx, hg_amplitude_create_variant(ctx, &process, variant == 0, &amp));
    if (variant == 0) shared_used = amp->summed_group != 0;
    if (variant == 1) assert_int_equal(amp->summed_group, 0);
    for (int e = 0; e < N_POINTS; ++e) me[variant][e] = -1;
    const hegetcl_status status = hegetcl_amplitude_evaluate(amp, N_POINTS, momenta, me[variant]);
    hegetcl_amplitude_destroy(amp);
    TS_ASSERT_OK(ctx, status);
  }
  double worst = 0;
  for (int e = 0; e < N_POINTS; ++e) {
    const double diff = ts_rel_diff(me[0][e], me[1][e]);
    if (diff > worst) worst = diff;
    if (!(diff <= tolerance(precision, n)) || !(me[0][e] > 0) || !isfinite(me[0][e]))
      fail_msg("n=%u %s%s on %s, point %d: shared sum %.17g, per-work-item sum %.17g (tolerance "
               "%g)",
               n, hegetcl_precision_name(precision), soft ? " (soft photons)" : "",
               ts_device_name(ctx), e, me[0][e], me[1][e], tolerance(precision, n));
  }
  print_message("# n=%u %s%s: %s sum, worst |shared / private - 1| %.3g\n", n,
                hegetcl_precision_name(precision), soft ? " (soft photons)" : "",
                shared_used ? "work-group-shared" : "per-work-item (the event does not fit)", worst);
}

#define CASE(N, P)                                                                                 \
  static void photons_##N##_##P(void **state) {                                                    \
    (void)state;                                                                                   \
    shared_equals_private(N, HEGETCL_PRECISION_##P, 0);                                            \
    shared_equals_private(N, HEGETCL_PRECISION_##P, 1);                                            \
  }
#define ALL(X) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10)
#define BOTH(N) CASE(N, DOUBLE) CASE(N, FLOAT)
ALL(BOTH)

int main(void) {
#define ENTRIES(N) cmocka_unit_test(photons_##N##_DOUBLE), cmocka_unit_test(photons_##N##_FLOAT),
  const struct CMUnitTest tests[] = {ALL(ENTRIES)};
  return cmocka_run_group_tests(tests, setup, teardown);
}
