/* SPDX-License-Identifier: MIT */
/* The recursive engine's helicity sums agree: the work-group-shared one
 * (cl/amplitudes/recursive_shared.cl, the default), with its tables where they fit (local memory,
 * else global) and with them forced into global memory, against the per-work-item one
 * (kernels.cl's amplitude_summed), on the same points for n = 2..12, also in batches that leave a
 * work-group partly filled and (n = 9, 10) with more events than work-groups launched; for
 * n = 2..6 the global-table sum also against MadGraph5_aMC@NLO (../shared/refs/mg5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "amplitude/amplitude_internal.h"
#include "io/mg5_points.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 12
#define N_MADGRAPH_MAX 6
/* not a multiple of any work-group's events: the last group is partly filled */
#define N_POINTS 7
/* more than the global-table groups PoCL's 2 compute units get (16): each goes over several */
#define N_MANY 37
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

/* double: both sums round differently over 2^n - 2 configurations (7.8e-13 seen at n = 11 with
 * soft photons); float: both carry the rounding of the momenta to 24 bits, which the propagators
 * nearest their poles magnify (ts_float_tolerance; 1.8e-3 seen at n = 11 with soft photons). */
static double tolerance(hegetcl_precision precision, unsigned n, const double *momenta,
                        size_t n_events, size_t e) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12
                                               : ts_float_tolerance(n, momenta, n_events, e);
}

static const char *const variant_names[3] = {"per-work-item", "shared", "shared, global tables"};

/* |M|^2 of the n_points events by the helicity sum variant (HG_SUMMED_*); whether that sum was
 * shared by a work-group and kept its tables in global memory in *shared and *global. */
static void evaluate(const hegetcl_process *process, int variant, size_t n_points,
                     const double *momenta, double *me, int *shared, int *global) {
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hg_amplitude_create_variant(ctx, process, variant, &amp));
  *shared = amp->summed_group != 0;
  *global = amp->summed_tables != NULL;
  if (variant == HG_SUMMED_PRIVATE) assert_int_equal(*shared, 0);
  /* n = 2 has no tables to put anywhere */
  if (variant == HG_SUMMED_SHARED_GLOBAL)
    assert_true(*shared && (*global || process->n_photons == 2));
  for (size_t e = 0; e < n_points; ++e) me[e] = -1; /* poison */
  const hegetcl_status status = hegetcl_amplitude_evaluate(amp, n_points, momenta, me);
  hegetcl_amplitude_destroy(amp);
  TS_ASSERT_OK(ctx, status);
}

static void shared_equals_private(unsigned n, hegetcl_precision precision, int soft) {
  hegetcl_process process;
  hegetcl_process_defaults(&process, n);
  process.precision = precision;
  double momenta[4 * (N_MAX + 2) * N_POINTS], me[3][N_POINTS];
  /* in GeV as the API takes them, and in units of sqrt(s-hat) as the cross-section pipeline hands
   * them over, with photons down to 0.2% of it in pT (20 GeV at 10 TeV), where float products of
   * propagators grow large */
  const double sqrt_s = soft ? 1.0 : SQRT_S_GEV,
               pt_min_frac = soft ? SOFT_PT_MIN_FRAC : PT_MIN_FRAC;
  ts_random_points(n, sqrt_s, N_POINTS, 0xa11ce000u + n + 100u * (unsigned)soft, pt_min_frac,
                   momenta);
  int shared[3], global[3];
  for (int variant = 0; variant < 3; ++variant)
    evaluate(&process, variant, N_POINTS, momenta, me[variant], &shared[variant], &global[variant]);
  double worst[3] = {0, 0, 0};
  for (int variant = 1; variant < 3; ++variant)
    for (int e = 0; e < N_POINTS; ++e) {
      const double diff = ts_rel_diff(me[variant][e], me[0][e]);
      const double tol = tolerance(precision, n, momenta, N_POINTS, (size_t)e);
      if (diff > worst[variant]) worst[variant] = diff;
      if (!(diff <= tol) || !(me[variant][e] > 0) || !isfinite(me[variant][e]))
        fail_msg("n=%u %s%s on %s, point %d: %s sum %.17g, per-work-item sum %.17g, ratio "
                 "%.17g (tolerance %g)",
                 n, hegetcl_precision_name(precision), soft ? " (soft photons)" : "",
                 ts_device_name(ctx), e, variant_names[variant], me[variant][e], me[0][e],
                 me[variant][e] / me[0][e], tol);
    }
  print_message("# n=%u %s%s: the default sum is %s%s; worst |sum / per-work-item - 1|: default "
                "%.3g, global tables %.3g\n",
                n, hegetcl_precision_name(precision), soft ? " (soft photons)" : "",
                shared[1] ? "shared" : "per-work-item",
                shared[1] ? (global[1] ? " (tables in global memory)" : " (tables in local memory)")
                          : "",
                worst[1], worst[2]);
}

/* Many more events than the global-table sum launches work-groups: each group goes over several
 * events of the batch, and every event must still get its own value. */
static void many_events(unsigned n, hegetcl_precision precision) {
  hegetcl_process process;
  hegetcl_process_defaults(&process, n);
  process.precision = precision;
  double *momenta = malloc(4 * (n + 2) * N_MANY * sizeof *momenta);
  double *me[2] = {malloc(N_MANY * sizeof(double)), malloc(N_MANY * sizeof(double))};
  assert_non_null(momenta);
  assert_true(me[0] != NULL && me[1] != NULL);
  ts_random_points(n, SQRT_S_GEV, N_MANY, 0xb0b0u + n, PT_MIN_FRAC, momenta);
  int shared = 0, global = 0;
  evaluate(&process, HG_SUMMED_PRIVATE, N_MANY, momenta, me[0], &shared, &global);
  evaluate(&process, HG_SUMMED_SHARED_GLOBAL, N_MANY, momenta, me[1], &shared, &global);
  for (int e = 0; e < N_MANY; ++e) {
    const double tol = tolerance(precision, n, momenta, N_MANY, (size_t)e);
    if (!(ts_rel_diff(me[1][e], me[0][e]) <= tol))
      fail_msg("n=%u %s on %s, %d events, event %d: global-table sum %.17g, per-work-item sum "
               "%.17g (tolerance %g)",
               n, hegetcl_precision_name(precision), ts_device_name(ctx), N_MANY, e, me[1][e],
               me[0][e], tol);
  }
  free(momenta);
  free(me[0]);
  free(me[1]);
}

/* The global-table sum against MadGraph's values: 1e-12 in double (6.9e-15 seen for the
 * recursive engine), 1e-4 in float (agreement_with_madgraph.c's). */
static void global_tables_match_madgraph(unsigned n, hegetcl_precision precision) {
  const double tol = precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
  char path[1024], message[1024];
  hg_mg5_points points;
  if (hg_mg5_points_read(ts_refs_path(n, path, sizeof path), &points, message, sizeof message) !=
      HEGETCL_OK)
    fail_msg("%s", message);
  assert_int_equal(points.n_photons, n);
  hegetcl_process process;
  hegetcl_process_defaults(&process, n);
  process.precision = precision;
  double *me = calloc(points.n_points, sizeof *me);
  assert_non_null(me);
  int shared = 0, global = 0;
  evaluate(&process, HG_SUMMED_SHARED_GLOBAL, points.n_points, points.momenta, me, &shared,
           &global);
  for (size_t e = 0; e < points.n_points; ++e)
    if (!(ts_rel_diff(me[e], points.me[e]) <= tol))
      fail_msg("n=%u %s on %s, point %zu: global-table sum %.17g, MadGraph %.17g, ratio %.17g "
               "(tolerance %g)",
               n, hegetcl_precision_name(precision), ts_device_name(ctx), e + 1, me[e],
               points.me[e], me[e] / points.me[e], tol);
  free(me);
  hg_mg5_points_free(&points);
}

static void check(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  shared_equals_private(n, precision, 0);
  shared_equals_private(n, precision, 1);
  if (n == 9 || n == 10) many_events(n, precision);
  if (n <= N_MADGRAPH_MAX) global_tables_match_madgraph(n, precision);
}

#define CASE(N, P)                                                                                 \
  static void photons_##N##_##P(void **state) {                                                    \
    (void)state;                                                                                   \
    check(N, HEGETCL_PRECISION_##P);                                                               \
  }
#define ALL(X) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)
#define BOTH(N) CASE(N, DOUBLE) CASE(N, FLOAT)
ALL(BOTH)

int main(void) {
#define ENTRIES(N) cmocka_unit_test(photons_##N##_DOUBLE), cmocka_unit_test(photons_##N##_FLOAT),
  const struct CMUnitTest tests[] = {ALL(ENTRIES)};
  return cmocka_run_group_tests(tests, setup, teardown);
}
