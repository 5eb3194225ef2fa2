/* SPDX-License-Identifier: MIT */
/* The host reference (tests/support/reference_amplitude.c) reproduces MadGraph, then every engine
 * reproduces the reference, helicity-summed and per helicity configuration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/mg5_points.h"
#include "layout.h"
#include "reference_amplitude.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 6
#define N_POINTS 24
#define SQRT_S_GEV 500.0
#define PT_MIN_FRAC 0.05
#define ALPHA (1.0 / 132.507)
#define QUARK_CHARGE (2.0 / 3.0)

/* double: rounding of O(1) terms over n! diagrams stays near 1e-14; float: 24-bit rounding over
 * the same sums, whose cancellations cost up to two digits. */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
}

static hegetcl_context *ctx;
static ts_amplitude_set amps;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  if (ctx == NULL) return -1;
  ts_amplitude_set_create(ctx, N_MIN, N_MAX, NULL, &amps);
  return 0;
}

/* Batches of one test, kept here so that a failing check (which jumps out) leaks nothing. */
static double *batch, *batch_me;
static uint32_t *batch_helicity;

static void free_batch(void) {
  free(batch);
  free(batch_me);
  free(batch_helicity);
  batch = batch_me = NULL;
  batch_helicity = NULL;
}

/* The reference's per-configuration values for N_POINTS points, computed once per n. */
typedef struct {
  int done;
  double momenta[4 * (N_MAX + 2) * N_POINTS];
  double *per_helicity; /* [point * n_configs + config] */
  double summed[N_POINTS];
} reference_values;
static reference_values references[N_MAX + 1];

static void reference_free(void) {
  for (unsigned n = N_MIN; n <= N_MAX; ++n) {
    free(references[n].per_helicity);
    references[n].per_helicity = NULL;
    references[n].done = 0;
  }
}

static int teardown(void **state) {
  (void)state;
  free_batch();
  reference_free();
  ts_amplitude_set_destroy(&amps);
  hegetcl_context_destroy(ctx);
  return 0;
}

/* The reference alone against MadGraph5_aMC@NLO's helicity-summed |M|^2: it proves the reference
 * (spinors, polarisations, propagators, normalisation) before the kernels are held to it. */
static void reference_matches_madgraph(unsigned n) {
  const double tol = 1e-10; /* MadGraph's printed digits and double rounding over n! diagrams */
  char path[1024], message[1024];
  hg_mg5_points points;
  const hegetcl_status read =
      hg_mg5_points_read(ts_refs_path(n, path, sizeof path), &points, message, sizeof message);
  if (read != HEGETCL_OK) fail_msg("%s", message);
  assert_int_equal(points.n_photons, n);
  assert_true(points.n_points > 0);
  double worst = 0;
  for (size_t e = 0; e < points.n_points; ++e) {
    ts_reference_point p;
    ts_reference_point_load(n, points.momenta, points.n_points, e, &p);
    const double me = ts_reference_me(&p, ALPHA, QUARK_CHARGE);
    const double rel = ts_rel_diff(me, points.me[e]);
    if (rel > worst) worst = rel;
    if (!(rel <= tol)) {
      const double madgraph = points.me[e];
      hg_mg5_points_free(&points);
      fail_msg("n=%u host reference (double), point %zu of %s: reference %.17g, MadGraph %.17g, "
               "ratio %.17g (tolerance %g)",
               n, e + 1, path, me, madgraph, me / madgraph, tol);
    }
  }
  print_message("# n=%u: worst reference / MadGraph - 1 over %zu points: %.3g\n", n,
                points.n_points, worst);
  hg_mg5_points_free(&points);
}

static const reference_values *reference(unsigned n) {
  reference_values *r = &references[n];
  if (r->done) return r;
  const uint32_t n_configs = 1u << (n + 2);
  ts_random_points(n, SQRT_S_GEV, N_POINTS, 0x7ef0000u + n, PT_MIN_FRAC, r->momenta);
  r->per_helicity = malloc(N_POINTS * n_configs * sizeof *r->per_helicity);
  assert_non_null(r->per_helicity);
  for (size_t point = 0; point < N_POINTS; ++point) {
    ts_reference_point p;
    ts_reference_point_load(n, r->momenta, N_POINTS, point, &p);
    r->summed[point] = 0;
    for (uint32_t config = 0; config < n_configs; ++config) {
      const double value = ts_reference_me_helicity(&p, config, ALPHA, QUARK_CHARGE);
      r->per_helicity[point * n_configs + config] = value;
      r->summed[point] += value;
    }
  }
  r->done = 1;
  return r;
}

/* Every engine's per-configuration values (N_POINTS x 2^(n+2) in one call) against the
 * reference's; configurations that vanish are compared on the point's summed value. */
static void engines_match_reference_per_configuration(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const reference_values *r = reference(n);
  const unsigned n_particles = n + 2;
  const uint32_t n_configs = 1u << n_particles;
  const size_t n_events = (size_t)N_POINTS * n_configs;
  free_batch();
  batch = malloc(4 * n_particles * n_events * sizeof *batch);
  batch_me = malloc(n_events * sizeof *batch_me);
  batch_helicity = malloc(n_events * sizeof *batch_helicity);
  assert_non_null(batch);
  assert_non_null(batch_me);
  assert_non_null(batch_helicity);
  double *me = batch_me;
  uint32_t *helicity = batch_helicity;
  for (size_t point = 0; point < N_POINTS; ++point)
    for (uint32_t config = 0; config < n_configs; ++config) {
      const size_t event = point * n_configs + config;
      helicity[event] = config;
      for (int c = 0; c < 4; ++c)
        for (unsigned i = 0; i < n_particles; ++i)
          batch[HG_SOA_INDEX(c, i, n_particles, n_events, event)] =
              r->momenta[HG_SOA_INDEX(c, i, n_particles, N_POINTS, point)];
    }
  const double tol = tolerance(precision);
  double worst = 0, worst_ratio = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    hegetcl_amplitude *amp = ts_amplitude_set_get(&amps, engine, n, precision);
    for (size_t e = 0; e < n_events; ++e) me[e] = -1; /* poison */
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n_events, batch, helicity, me));
    for (size_t event = 0; event < n_events; ++event) {
      const size_t point = event / n_configs;
      const uint32_t config = helicity[event];
      const double ref = r->per_helicity[event];
      const int zero = ts_configuration_vanishes(config, n);
      const double diff = ts_configuration_difference(me[event], ref, r->summed[point], zero);
      if (diff > worst) worst = diff;
      if (!zero && ts_rel_diff(me[event], ref) > worst_ratio)
        worst_ratio = ts_rel_diff(me[event], ref);
      if (!(diff <= tol) || !(me[event] >= 0))
        fail_msg("n=%u %s %s on %s, point %zu, helicity configuration 0x%x%s: engine %.17g, "
                 "reference %.17g, ratio %.17g, point's sum %.17g, difference %.3g (tolerance %g)",
                 n, hegetcl_engine_name((hegetcl_engine)engine), hegetcl_precision_name(precision),
                 ts_device_name(ctx), point, config, zero ? " (vanishing)" : "", me[event], ref,
                 me[event] / ref, r->summed[point], diff, tol);
    }
  }
  print_message("# n=%u %s: worst difference from the reference %.3g, worst ratio - 1 %.3g\n", n,
                hegetcl_precision_name(precision), worst, worst_ratio);
  free_batch();
}

/* Every engine's summed kernel against the reference's sum over configurations. */
static void engines_match_reference_summed(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const reference_values *r = reference(n);
  const double tol = tolerance(precision);
  double worst = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    double me[N_POINTS];
    for (size_t e = 0; e < N_POINTS; ++e) me[e] = -1; /* poison */
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(ts_amplitude_set_get(&amps, engine, n, precision),
                                                 N_POINTS, r->momenta, me));
    for (size_t point = 0; point < N_POINTS; ++point) {
      const double rel = ts_rel_diff(me[point], r->summed[point]);
      if (rel > worst) worst = rel;
      if (!(rel <= tol))
        fail_msg("n=%u %s %s on %s, point %zu: summed kernel %.17g, reference %.17g, ratio %.17g "
                 "(tolerance %g)",
                 n, hegetcl_engine_name((hegetcl_engine)engine), hegetcl_precision_name(precision),
                 ts_device_name(ctx), point, me[point], r->summed[point],
                 me[point] / r->summed[point], tol);
    }
  }
  print_message("# n=%u %s: worst summed engine / reference - 1: %.3g\n", n,
                hegetcl_precision_name(precision), worst);
}

#define MADGRAPH_CASE(n)                                                                           \
  static void reference_reproduces_madgraph_n##n(void **state) {                                   \
    (void)state;                                                                                   \
    reference_matches_madgraph(n);                                                                 \
  }
#define ENGINE_CASES(n, p, P)                                                                      \
  static void every_engine_matches_reference_per_helicity_configuration_n##n##_##p(void **state) { \
    (void)state;                                                                                   \
    engines_match_reference_per_configuration(n, P);                                               \
  }                                                                                                \
  static void every_engine_matches_reference_summed_over_helicities_n##n##_##p(void **state) {     \
    (void)state;                                                                                   \
    engines_match_reference_summed(n, P);                                                          \
  }
#define CASES(n)                                                                                   \
  MADGRAPH_CASE(n)                                                                                 \
  ENGINE_CASES(n, double, HEGETCL_PRECISION_DOUBLE)                                                \
  ENGINE_CASES(n, float, HEGETCL_PRECISION_FLOAT)
CASES(2)
CASES(3)
CASES(4)
CASES(5)
CASES(6)

#define ENGINE_TESTS(n, p)                                                                         \
  cmocka_unit_test(every_engine_matches_reference_per_helicity_configuration_n##n##_##p),          \
      cmocka_unit_test(every_engine_matches_reference_summed_over_helicities_n##n##_##p)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reference_reproduces_madgraph_n2),
      cmocka_unit_test(reference_reproduces_madgraph_n3),
      cmocka_unit_test(reference_reproduces_madgraph_n4),
      cmocka_unit_test(reference_reproduces_madgraph_n5),
      cmocka_unit_test(reference_reproduces_madgraph_n6),
      ENGINE_TESTS(2, double),
      ENGINE_TESTS(3, double),
      ENGINE_TESTS(4, double),
      ENGINE_TESTS(5, double),
      ENGINE_TESTS(6, double),
      ENGINE_TESTS(2, float),
      ENGINE_TESTS(3, float),
      ENGINE_TESTS(4, float),
      ENGINE_TESTS(5, float),
      ENGINE_TESTS(6, float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
