/* SPDX-License-Identifier: MIT */
/* The serial CPU build of the amplitude kernels (bench/serial) reproduces the host reference,
 * helicity-summed and per helicity configuration, and its two modes agree with each other. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "rambo.h"
#include "reference_amplitude.h"
#include "serial_cases.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 8         /* the reference's limit (TS_REFERENCE_MAX_PHOTONS) */
#define N_ALL_ENGINES 6 /* every engine from N_MIN to here; above it the recursive one alone */
#define MAX_POINTS 10
#define ALPHA (1.0 / 132.507)
#define QUARK_CHARGE (2.0 / 3.0)

/* double: rounding of O(1) terms over n! diagrams stays near 1e-14; float: 24-bit rounding over
 * the same sums, whose cancellations cost up to two digits. */
static double tolerance(int is_double) { return is_double ? 1e-12 : 1e-4; }
static const char *precision_name(int is_double) { return is_double ? "double" : "float"; }

/* Points of one n: the benchmark's own (hg_bench_rambo at 50 GeV, the first of them) and the
 * reference points' energy of the device tests (500 GeV, the last). The reference costs n! per
 * configuration, so n = 7 and 8 take fewer. */
static size_t points_50_gev(unsigned n) { return n <= 6 ? 8 : n == 7 ? 3 : 1; }
static size_t points_500_gev(unsigned n) { return n <= 6 ? 2 : 1; }

/* The reference's values for one n, computed once: per configuration (bit i: particle i has
 * helicity +1) and summed. */
typedef struct {
  int done;
  size_t n_points;
  double momenta[4 * (N_MAX + 2) * MAX_POINTS];
  double *per_helicity; /* [point * n_configs + config] */
  double summed[MAX_POINTS];
} reference_values;
static reference_values references[N_MAX + 1];

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

static int teardown(void **state) {
  (void)state;
  free_batch();
  for (unsigned n = N_MIN; n <= N_MAX; ++n) free(references[n].per_helicity);
  return 0;
}

static const reference_values *reference(unsigned n) {
  reference_values *r = &references[n];
  if (r->done) return r;
  const size_t low = points_50_gev(n), high = points_500_gev(n);
  const unsigned n_particles = n + 2;
  const uint32_t n_configs = 1u << n_particles;
  r->n_points = low + high;
  double low_momenta[4 * (N_MAX + 2) * MAX_POINTS], high_momenta[4 * (N_MAX + 2) * MAX_POINTS];
  hg_bench_rambo(n, 50.0, low, 0x5e71a1u + n, low_momenta);
  ts_random_points(n, 500.0, high, 0x5e71a2u + n, 0.05, high_momenta);
  for (size_t point = 0; point < r->n_points; ++point)
    for (int c = 0; c < 4; ++c)
      for (unsigned i = 0; i < n_particles; ++i)
        r->momenta[HG_SOA_INDEX(c, i, n_particles, r->n_points, point)] =
            point < low ? low_momenta[HG_SOA_INDEX(c, i, n_particles, low, point)]
                        : high_momenta[HG_SOA_INDEX(c, i, n_particles, high, point - low)];
  r->per_helicity = malloc(r->n_points * n_configs * sizeof *r->per_helicity);
  assert_non_null(r->per_helicity);
  for (size_t point = 0; point < r->n_points; ++point) {
    ts_reference_point p;
    ts_reference_point_load(n, r->momenta, r->n_points, point, &p);
    double sum = 0;
    /* From n = 7 on one configuration costs milliseconds: the reference skips those that
     * vanish identically (they are 0, and the serial values are held to 0 against the sum) and
     * gives the sum that ts_reference_me would (reference_amplitude.c adds the same terms) */
    const int cheap = n <= N_ALL_ENGINES;
    for (uint32_t config = 0; config < n_configs; ++config) {
      const double value = cheap || !ts_configuration_vanishes(config, n)
                               ? ts_reference_me_helicity(&p, config, ALPHA, QUARK_CHARGE)
                               : 0;
      r->per_helicity[point * n_configs + config] = value;
      sum += value;
    }
    r->summed[point] = cheap ? ts_reference_me(&p, ALPHA, QUARK_CHARGE) : sum;
  }
  r->done = 1;
  return r;
}

/* The case (engine, n, precision); every engine must have one up to N_ALL_ENGINES. */
static const hg_serial_case *find_case(int engine, unsigned n, int is_double) {
  const hg_serial_case *c = hg_serial_find(engine, n, is_double);
  if (c == NULL && n <= N_ALL_ENGINES)
    fail_msg("no serial case for %s n=%u %s: bench/serial/meson.build and HG_SERIAL_CASES must "
             "build every engine from n = 2 to %u",
             hg_serial_engine_name(engine), n, precision_name(is_double),
             hg_serial_max_photons(engine));
  return c;
}

/* Every engine's summed mode against the reference's helicity sum. */
static void summed_matches_reference(unsigned n, int is_double) {
  const reference_values *r = reference(n);
  double coupling, me_factor;
  hg_serial_constants(n, &coupling, &me_factor);
  const double tol = tolerance(is_double);
  double worst = 0;
  for (int engine = 0; engine < HG_SERIAL_ENGINE_COUNT; ++engine) {
    const hg_serial_case *c = find_case(engine, n, is_double);
    if (c == NULL) continue;
    double me[MAX_POINTS];
    for (size_t e = 0; e < r->n_points; ++e) me[e] = -1; /* poison */
    c->summed(r->n_points, r->momenta, coupling, me_factor, me);
    for (size_t point = 0; point < r->n_points; ++point) {
      const double rel = ts_rel_diff(me[point], r->summed[point]);
      if (rel > worst) worst = rel;
      if (!(rel <= tol))
        fail_msg("n=%u %s %s serial on the host, point %zu (%s GeV): summed %.17g, reference "
                 "%.17g, ratio %.17g (tolerance %g)",
                 n, hg_serial_engine_name(engine), precision_name(is_double), point,
                 point < points_50_gev(n) ? "50" : "500", me[point], r->summed[point],
                 me[point] / r->summed[point], tol);
    }
  }
  print_message("# n=%u %s: worst serial summed / reference - 1: %.3g\n", n,
                precision_name(is_double), worst);
}

/* Every engine's helicity mode, one event per (point, configuration), against the reference's
 * value of that configuration (vanishing ones against the point's sum); then its values summed
 * over the configurations of each point against its own summed mode. */
static void helicity_matches_reference(unsigned n, int is_double) {
  const reference_values *r = reference(n);
  double coupling, me_factor;
  hg_serial_constants(n, &coupling, &me_factor);
  const unsigned n_particles = n + 2;
  const uint32_t n_configs = 1u << n_particles;
  const size_t n_events = r->n_points * n_configs;
  free_batch();
  batch = malloc(4 * n_particles * n_events * sizeof *batch);
  batch_me = malloc(n_events * sizeof *batch_me);
  batch_helicity = malloc(n_events * sizeof *batch_helicity);
  assert_non_null(batch);
  assert_non_null(batch_me);
  assert_non_null(batch_helicity);
  for (size_t point = 0; point < r->n_points; ++point)
    for (uint32_t config = 0; config < n_configs; ++config) {
      const size_t event = point * n_configs + config;
      batch_helicity[event] = config;
      for (int c = 0; c < 4; ++c)
        for (unsigned i = 0; i < n_particles; ++i)
          batch[HG_SOA_INDEX(c, i, n_particles, n_events, event)] =
              r->momenta[HG_SOA_INDEX(c, i, n_particles, r->n_points, point)];
    }
  const double tol = tolerance(is_double);
  double worst = 0, worst_sum = 0;
  for (int engine = 0; engine < HG_SERIAL_ENGINE_COUNT; ++engine) {
    const hg_serial_case *c = find_case(engine, n, is_double);
    if (c == NULL) continue;
    for (size_t e = 0; e < n_events; ++e) batch_me[e] = -1; /* poison */
    c->helicity(n_events, batch, coupling, me_factor, batch_helicity, batch_me);
    for (size_t event = 0; event < n_events; ++event) {
      const size_t point = event / n_configs;
      const uint32_t config = batch_helicity[event];
      const double ref = r->per_helicity[event];
      const int zero = ts_configuration_vanishes(config, n);
      const double diff = ts_configuration_difference(batch_me[event], ref, r->summed[point], zero);
      if (diff > worst) worst = diff;
      if (!(diff <= tol) || !(batch_me[event] >= 0))
        fail_msg("n=%u %s %s serial on the host, point %zu, helicity configuration 0x%x%s: "
                 "serial %.17g, reference %.17g, ratio %.17g, point's sum %.17g, difference "
                 "%.3g (tolerance %g)",
                 n, hg_serial_engine_name(engine), precision_name(is_double), point, config,
                 zero ? " (vanishing)" : "", batch_me[event], ref, batch_me[event] / ref,
                 r->summed[point], diff, tol);
    }
    double summed[MAX_POINTS];
    c->summed(r->n_points, r->momenta, coupling, me_factor, summed);
    for (size_t point = 0; point < r->n_points; ++point) {
      double sum = 0;
      for (uint32_t config = 0; config < n_configs; ++config)
        sum += batch_me[point * n_configs + config];
      const double rel = ts_rel_diff(sum, summed[point]);
      if (rel > worst_sum) worst_sum = rel;
      if (!(rel <= tol))
        fail_msg("n=%u %s %s serial on the host, point %zu: helicity mode summed over the %u "
                 "configurations %.17g, summed mode %.17g, ratio %.17g (tolerance %g)",
                 n, hg_serial_engine_name(engine), precision_name(is_double), point, n_configs, sum,
                 summed[point], sum / summed[point], tol);
    }
  }
  print_message("# n=%u %s: worst per-configuration difference %.3g, worst sum of configurations "
                "/ summed mode - 1 %.3g\n",
                n, precision_name(is_double), worst, worst_sum);
  free_batch();
}

/* Beyond the reference's reach (n = 9 to 12, the recursive engine alone): the summed mode against
 * the helicity mode's values summed over every configuration, at one 50 GeV point. Compilers have
 * broken the summed loop alone before (bench/serial/meson.build). */
static void summed_matches_sum_of_configurations(unsigned n, int is_double) {
  const unsigned n_particles = n + 2;
  const uint32_t n_configs = 1u << n_particles;
  double coupling, me_factor, momenta[4 * (12 + 2)], summed = -1;
  hg_bench_rambo(n, 50.0, 1, 0x5e71a3u + n, momenta);
  hg_serial_constants(n, &coupling, &me_factor);
  const hg_serial_case *c = hg_serial_find(HG_SERIAL_RECURSIVE, n, is_double);
  if (c == NULL) fail_msg("no serial case for recursive n=%u %s", n, precision_name(is_double));
  free_batch();
  batch = malloc(4 * n_particles * (size_t)n_configs * sizeof *batch);
  batch_me = malloc(n_configs * sizeof *batch_me);
  batch_helicity = malloc(n_configs * sizeof *batch_helicity);
  assert_non_null(batch);
  assert_non_null(batch_me);
  assert_non_null(batch_helicity);
  for (uint32_t config = 0; config < n_configs; ++config) {
    batch_helicity[config] = config;
    for (unsigned row = 0; row < 4 * n_particles; ++row)
      batch[row * n_configs + config] = momenta[row];
  }
  c->helicity(n_configs, batch, coupling, me_factor, batch_helicity, batch_me);
  c->summed(1, momenta, coupling, me_factor, &summed);
  double sum = 0;
  for (uint32_t config = 0; config < n_configs; ++config) sum += batch_me[config];
  const double rel = ts_rel_diff(sum, summed), tol = tolerance(is_double);
  print_message("# n=%u %s recursive: sum of configurations / summed mode - 1: %.3g\n", n,
                precision_name(is_double), rel);
  if (!(rel <= tol) || !(summed > 0))
    fail_msg("n=%u recursive %s serial on the host: helicity mode summed over the %u "
             "configurations %.17g, summed mode %.17g, ratio %.17g (tolerance %g)",
             n, precision_name(is_double), n_configs, sum, summed, sum / summed, tol);
  free_batch();
}

/* The table holds each engine at every n from 2 to its largest, in both precisions. */
static void every_engine_is_built_at_every_n_in_both_precisions(void **state) {
  (void)state;
  size_t expected = 0;
  for (int engine = 0; engine < HG_SERIAL_ENGINE_COUNT; ++engine) {
    const unsigned max = hg_serial_max_photons(engine);
    assert_true(max >= N_MIN);
    for (unsigned n = N_MIN; n <= max; ++n)
      for (int is_double = 0; is_double < 2; ++is_double) {
        const hg_serial_case *c = hg_serial_find(engine, n, is_double);
        if (c == NULL || c->summed == NULL || c->helicity == NULL)
          fail_msg("no serial case for %s n=%u %s", hg_serial_engine_name(engine), n,
                   precision_name(is_double));
        ++expected;
      }
  }
  assert_int_equal(hg_serial_case_count, expected);
}

#define CASES(n, p, is_double)                                                                     \
  static void serial_summed_matches_reference_n##n##_##p(void **state) {                           \
    (void)state;                                                                                   \
    summed_matches_reference(n, is_double);                                                        \
  }                                                                                                \
  static void serial_helicity_matches_reference_and_sums_to_summed_n##n##_##p(void **state) {      \
    (void)state;                                                                                   \
    helicity_matches_reference(n, is_double);                                                      \
  }
#define BOTH(n) CASES(n, double, 1) CASES(n, float, 0)
BOTH(2)
BOTH(3)
BOTH(4)
BOTH(5)
BOTH(6)
BOTH(7)
BOTH(8)

#define LARGE_CASES(n, p, is_double)                                                               \
  static void serial_recursive_summed_equals_sum_of_configurations_n##n##_##p(void **state) {      \
    (void)state;                                                                                   \
    summed_matches_sum_of_configurations(n, is_double);                                            \
  }
#define LARGE_BOTH(n) LARGE_CASES(n, double, 1) LARGE_CASES(n, float, 0)
LARGE_BOTH(9)
LARGE_BOTH(10)
LARGE_BOTH(11)
LARGE_BOTH(12)
#define LARGE_TESTS(n)                                                                             \
  cmocka_unit_test(serial_recursive_summed_equals_sum_of_configurations_n##n##_double),            \
      cmocka_unit_test(serial_recursive_summed_equals_sum_of_configurations_n##n##_float)

#define TESTS(n, p)                                                                                \
  cmocka_unit_test(serial_summed_matches_reference_n##n##_##p),                                    \
      cmocka_unit_test(serial_helicity_matches_reference_and_sums_to_summed_n##n##_##p)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_engine_is_built_at_every_n_in_both_precisions),
      TESTS(2, double),
      TESTS(3, double),
      TESTS(4, double),
      TESTS(5, double),
      TESTS(6, double),
      TESTS(7, double),
      TESTS(8, double),
      TESTS(2, float),
      TESTS(3, float),
      TESTS(4, float),
      TESTS(5, float),
      TESTS(6, float),
      TESTS(7, float),
      TESTS(8, float),
      LARGE_TESTS(9),
      LARGE_TESTS(10),
      LARGE_TESTS(11),
      LARGE_TESTS(12),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
