/* SPDX-License-Identifier: MIT */
/* Float |M|^2 equals double's to within what rounding the momenta to 24 bits allows
 * (ts_float_tolerance), for n = 2..12 at 10 GeV, 500 GeV and 14 TeV, where |M|^2 in GeV^(4 - 2n)
 * lies far outside float's range (1e-72 at n = 12 and 14 TeV): the amplitude API scales float
 * programs' momenta to s-hat = 1 and restores s-hat^(2 - n) in double (CONVENTIONS.md,
 * "Precision"). Summed over helicities (the recursive engine's shared sum; the permutation and
 * unrolled engines at n = 7), one configuration at a time, and with event-major momenta. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

#define N_MIN 2
#define N_MAX 12
#define N_POINTS 5
#define PT_MIN_FRAC 0.05
#define SOFT_PT_MIN_FRAC 0.002
/* the other engines' summed float, at an energy where it underflowed before the scaling */
#define N_OTHER_ENGINES 7
#define OTHER_ENGINES_POINTS 2
#define LHC_GEV 14000.0

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

/* The engine's |M|^2 of the points in precision, summed (helicity NULL) or per configuration. */
static void evaluate(unsigned n, hegetcl_engine engine, hegetcl_precision precision,
                     size_t n_points, const double *momenta, const uint32_t *helicity, double *me) {
  hegetcl_process process;
  hegetcl_process_defaults(&process, n);
  process.engine = engine;
  process.precision = precision;
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  for (size_t e = 0; e < n_points; ++e) me[e] = -1; /* poison */
  const hegetcl_status status =
      helicity == NULL ? hegetcl_amplitude_evaluate(amp, n_points, momenta, me)
                       : hegetcl_amplitude_evaluate_helicity(amp, n_points, momenta, helicity, me);
  hegetcl_amplitude_destroy(amp);
  TS_ASSERT_OK(ctx, status);
}

/* float against double for the summed |M|^2 of n_points points at sqrt_s; the worst difference
 * and its ratio to the tolerance into *worst and *worst_ratio. */
static void compare_summed(unsigned n, hegetcl_engine engine, double sqrt_s, double pt_min_frac,
                           size_t n_points, double *worst, double *worst_ratio) {
  double *momenta = malloc(4 * (n + 2) * n_points * sizeof *momenta);
  double *me_float = malloc(n_points * sizeof(double)),
         *me_double = malloc(n_points * sizeof(double));
  assert_true(momenta != NULL && me_float != NULL && me_double != NULL);
  ts_random_points(n, sqrt_s, n_points, 0xf10a7000u + 37u * n + (uint64_t)sqrt_s, pt_min_frac,
                   momenta);
  evaluate(n, engine, HEGETCL_PRECISION_FLOAT, n_points, momenta, NULL, me_float);
  evaluate(n, engine, HEGETCL_PRECISION_DOUBLE, n_points, momenta, NULL, me_double);
  for (size_t e = 0; e < n_points; ++e) {
    const double diff = ts_rel_diff(me_float[e], me_double[e]);
    const double tol = ts_float_tolerance(n, momenta, n_points, e);
    if (diff > *worst) *worst = diff;
    if (diff / tol > *worst_ratio) *worst_ratio = diff / tol;
    if (!(diff <= tol) || !(me_double[e] > 0))
      fail_msg("n=%u %s at %g GeV (photon pT > %g sqrt(s)) on %s, point %zu: float %.9g, double "
               "%.17g, ratio %.9g (tolerance %.3g)",
               n, hegetcl_engine_name(engine), sqrt_s, pt_min_frac, ts_device_name(ctx), e,
               me_float[e], me_double[e], me_float[e] / me_double[e], tol);
  }
  free(momenta);
  free(me_float);
  free(me_double);
}

static void summed(unsigned n) {
  if (!ts_has_fp64(ctx)) skip();
  static const double energies[3] = {10.0, 500.0, LHC_GEV};
  double worst[4] = {0, 0, 0, 0}, ratio = 0;
  for (int i = 0; i < 3; ++i)
    compare_summed(n, HEGETCL_ENGINE_RECURSIVE, energies[i], PT_MIN_FRAC, N_POINTS, &worst[i],
                   &ratio);
  compare_summed(n, HEGETCL_ENGINE_RECURSIVE, 500.0, SOFT_PT_MIN_FRAC, N_POINTS, &worst[3], &ratio);
  print_message("# n=%u recursive: worst |float / double - 1| at 10 GeV %.2g, 500 GeV %.2g, "
                "14 TeV %.2g, 500 GeV with soft photons %.2g; worst difference / tolerance %.2g\n",
                n, worst[0], worst[1], worst[2], worst[3], ratio);
}

/* The scaling is the API's, not an engine's: the permutation and unrolled engines too. */
static void other_engines(void **state) {
  (void)state;
  if (!ts_has_fp64(ctx)) skip();
  const hegetcl_engine engines[2] = {HEGETCL_ENGINE_PERMUTATION, HEGETCL_ENGINE_UNROLLED};
  for (int i = 0; i < 2; ++i) {
    double worst = 0, ratio = 0;
    compare_summed(N_OTHER_ENGINES, engines[i], LHC_GEV, PT_MIN_FRAC, OTHER_ENGINES_POINTS, &worst,
                   &ratio);
    print_message("# n=%u %s at 14 TeV: worst |float / double - 1| %.2g\n", N_OTHER_ENGINES,
                  hegetcl_engine_name(engines[i]), worst);
  }
}

/* One helicity configuration per event, and event-major momenta, at n = 12 and 14 TeV: each
 * configuration's difference is measured in units of sqrt(|M_h|^2 |M|^2) (rounding acts on the
 * amplitude: ts_configuration_difference), against the point's tolerance. */
static void per_configuration_and_event_major(void **state) {
  (void)state;
  if (!ts_has_fp64(ctx)) skip();
  enum { n = N_MAX, points = 4 };
  double momenta[4 * (n + 2) * points], major[4 * (n + 2) * points];
  double summed_double[points], me[2][points], me_major[2][points];
  uint32_t helicity[points];
  ts_random_points(n, LHC_GEV, points, 0x5ca1e, PT_MIN_FRAC, momenta);
  for (size_t e = 0; e < points; ++e) {
    /* quark -1, antiquark +1, the photons alternating and one more flipped per event */
    helicity[e] = 2u | (((0x555u ^ (1u << e)) & ((1u << n) - 1u)) << 2);
    for (unsigned i = 0; i < n + 2; ++i)
      for (unsigned c = 0; c < 4; ++c)
        major[(e * (n + 2) + i) * 4 + c] = momenta[(c * (n + 2) + i) * points + e];
  }
  evaluate(n, HEGETCL_ENGINE_RECURSIVE, HEGETCL_PRECISION_DOUBLE, points, momenta, NULL,
           summed_double);
  for (int p = 0; p < 2; ++p) {
    hegetcl_process process;
    hegetcl_process_defaults(&process, n);
    process.precision = p == 0 ? HEGETCL_PRECISION_FLOAT : HEGETCL_PRECISION_DOUBLE;
    hegetcl_amplitude *amp = NULL;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
    hegetcl_status status =
        hegetcl_amplitude_evaluate_helicity(amp, points, momenta, helicity, me[p]);
    if (status == HEGETCL_OK)
      status = hegetcl_amplitude_evaluate_events(amp, points, major, NULL, me_major[p]);
    hegetcl_amplitude_destroy(amp);
    TS_ASSERT_OK(ctx, status);
  }
  for (size_t e = 0; e < points; ++e) {
    const double tol = ts_float_tolerance(n, momenta, points, e);
    const double diff = ts_configuration_difference(me[0][e], me[1][e], summed_double[e], 0);
    const double diff_major = ts_rel_diff(me_major[0][e], me_major[1][e]);
    if (!(diff <= tol) || !(me[1][e] > 0))
      fail_msg("n=%d at 14 TeV on %s, point %zu, configuration 0x%x: float %.9g, double %.17g "
               "(summed %.17g), difference %.3g (tolerance %.3g)",
               n, ts_device_name(ctx), e, helicity[e], me[0][e], me[1][e], summed_double[e], diff,
               tol);
    if (!(diff_major <= tol) || !(ts_rel_diff(me_major[1][e], summed_double[e]) <= 1e-12))
      fail_msg("n=%d at 14 TeV on %s, point %zu, event-major momenta: float %.9g, double %.17g, "
               "double from the structure of arrays %.17g (tolerance %.3g)",
               n, ts_device_name(ctx), e, me_major[0][e], me_major[1][e], summed_double[e], tol);
  }
}

#define CASE(N)                                                                                    \
  static void photons_##N(void **state) {                                                          \
    (void)state;                                                                                   \
    summed(N);                                                                                     \
  }
#define ALL(X) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)
ALL(CASE)

int main(void) {
#define ENTRY(N) cmocka_unit_test(photons_##N),
  const struct CMUnitTest tests[] = {ALL(ENTRY) cmocka_unit_test(other_engines),
                                     cmocka_unit_test(per_configuration_and_event_major)};
  return cmocka_run_group_tests(tests, setup, teardown);
}
