/* SPDX-License-Identifier: MIT */
/* The four engines give the same |M|^2 for every helicity configuration, which obey the helicity
 * selection rules, flip symmetry and the helicity sum. The default run checks every property at
 * every n on fewer points and leaves the diagram engine's n = 7 program (two minutes of PoCL
 * compilation) to the exhaustive suite (HEGETCL_TEST_EXHAUSTIVE=1: 100 points at every n). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 8
#define N_POINTS 100 /* random points per n, exhaustive */
/* The first points of each batch also go through the summed kernel. */
#define N_SUMMED_POINTS 25
#define SQRT_S_GEV 500.0
#define PT_MIN_FRAC 0.05

/* Points per n: N_POINTS in the exhaustive suite; by default as many where they cost nothing
 * (n <= 4), fewer from n = 5, where every configuration of 100 points takes the loop engines
 * tens of seconds on PoCL's two cores. The points are the first of the exhaustive run's. */
static size_t points_at(unsigned n) {
  static const size_t fewer[N_MAX + 1] = {0, 0, N_POINTS, N_POINTS, N_POINTS, 20, 12, 4, 8};
  return ts_exhaustive() ? N_POINTS : fewer[n];
}
static size_t summed_points_at(unsigned n) {
  return points_at(n) < N_SUMMED_POINTS ? points_at(n) : N_SUMMED_POINTS;
}

/* Engines run on every configuration at n: all four up to 7. At n = 8 (100 points x 1024
 * configurations) the loop engines would take minutes on PoCL's two cores, so only the recursive
 * one does, and the unrolled one joins through the summed kernel on N8_SUMMED_POINTS points. By
 * default the diagram engine stops at n = 6: its split form (kernels of <= 60 diagrams) starts
 * there, and its n = 7 program alone takes PoCL two minutes to compile. */
static unsigned engines_at(unsigned n) {
  if (n == N_MAX) return 1u << HEGETCL_ENGINE_RECURSIVE;
  if (n == 7 && !ts_exhaustive()) return 0xfu & ~(1u << HEGETCL_ENGINE_DIAGRAMS);
  return 0xfu;
}
#define N8_SUMMED_ENGINE HEGETCL_ENGINE_UNROLLED
#define N8_SUMMED_POINTS 4

/* The engine every other is compared with: the recursive one runs at every n. */
#define BASE_ENGINE HEGETCL_ENGINE_RECURSIVE

/* double: rounding of the n! diagram sum stays near 1e-14 of the amplitude; float: 24-bit
 * rounding of the same sum, whose cancellations cost up to two digits. */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
}
/* Vanishing configurations against the point's summed |M|^2: rounding noise of amplitudes that
 * cancel exactly, |A|^2 ~ (eps sqrt(S))^2: measured at most 2e-26 (double, n = 2; below 1e-29
 * from n = 3) and 5e-14 (float). */
static double vanishing_tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-13 : 1e-10;
}

static hegetcl_context *ctx;
static ts_amplitude_set amps;

/* One (n, precision): points_at(n) points, every engine's per-configuration values (event =
 * point * n_configs + config), their sums over configurations per point, and the summed kernel's
 * values on the first summed_points_at(n) points. */
typedef struct {
  int attempted, done;
  size_t n_points, n_summed; /* points_at(n), summed_points_at(n) */
  uint32_t n_configs;
  double *momenta;
  double *per_helicity[HEGETCL_ENGINE_COUNT];
  double *sum_over_configs[HEGETCL_ENGINE_COUNT];
  double *summed[HEGETCL_ENGINE_COUNT];
  double *batch;      /* the points repeated for every configuration, while evaluating */
  uint32_t *helicity; /* the configuration of each event of batch */
} results;
static results cache[N_MAX + 1][2];

static int wanted(unsigned engine, unsigned n, hegetcl_precision precision) {
  (void)precision;
  return ((engines_at(n) >> engine) & 1u) || (n == N_MAX && engine == N8_SUMMED_ENGINE);
}

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  if (ctx == NULL) return -1;
  ts_amplitude_set_create(ctx, N_MIN, N_MAX, wanted, &amps);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (unsigned n = N_MIN; n <= N_MAX; ++n)
    for (int p = 0; p < 2; ++p) {
      results *r = &cache[n][p];
      for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
        free(r->per_helicity[engine]);
        free(r->sum_over_configs[engine]);
        free(r->summed[engine]);
      }
      free(r->momenta);
      free(r->batch);
      free(r->helicity);
    }
  ts_amplitude_set_destroy(&amps);
  hegetcl_context_destroy(ctx);
  return 0;
}

static void *allocate(size_t size) {
  void *p = malloc(size);
  assert_non_null(p);
  return p;
}

/* Evaluates every engine of n on points_at(n) points x all configurations, one call each, and
 * the summed kernel on the first summed_points_at(n); once per (n, precision), shared by the
 * tests. */
static const results *evaluate(unsigned n, hegetcl_precision precision) {
  results *r = &cache[n][precision];
  if (r->done) return r;
  if (r->attempted)
    fail_msg("the evaluation for n=%u in %s failed in an earlier test", n,
             hegetcl_precision_name(precision));
  r->attempted = 1;
  const unsigned n_particles = n + 2;
  const size_t n_points = r->n_points = points_at(n), n_summed = r->n_summed = summed_points_at(n);
  r->n_configs = 1u << n_particles;
  const size_t n_events = n_points * r->n_configs;
  r->momenta = allocate(4 * n_particles * n_points * sizeof *r->momenta);
  r->batch = allocate(4 * n_particles * n_events * sizeof *r->batch);
  r->helicity = allocate(n_events * sizeof *r->helicity);
  ts_random_points(n, SQRT_S_GEV, n_points, 0x5eed0000u + n, PT_MIN_FRAC, r->momenta);
  if (!ts_exhaustive())
    print_message("# n=%u %s: %zu points (the exhaustive suite takes %d)\n", n,
                  hegetcl_precision_name(precision), n_points, N_POINTS);
  for (size_t point = 0; point < n_points; ++point)
    for (uint32_t config = 0; config < r->n_configs; ++config) {
      const size_t event = point * r->n_configs + config;
      r->helicity[event] = config;
      for (int c = 0; c < 4; ++c)
        for (unsigned i = 0; i < n_particles; ++i)
          r->batch[HG_SOA_INDEX(c, i, n_particles, n_events, event)] =
              r->momenta[HG_SOA_INDEX(c, i, n_particles, n_points, point)];
    }
  double summed_momenta[4 * (N_MAX + 2) * N_SUMMED_POINTS];
  for (int c = 0; c < 4; ++c)
    for (unsigned i = 0; i < n_particles; ++i)
      for (size_t point = 0; point < n_summed; ++point)
        summed_momenta[HG_SOA_INDEX(c, i, n_particles, n_summed, point)] =
            r->momenta[HG_SOA_INDEX(c, i, n_particles, n_points, point)];
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (!((engines_at(n) >> engine) & 1u)) continue;
    hegetcl_amplitude *amp = ts_amplitude_set_get(&amps, engine, n, precision);
    double *per_helicity = r->per_helicity[engine] = allocate(n_events * sizeof(double));
    double *summed = r->summed[engine] = allocate(n_summed * sizeof(double));
    double *sum = r->sum_over_configs[engine] = allocate(n_points * sizeof(double));
    for (size_t e = 0; e < n_events; ++e) per_helicity[e] = -1; /* poison */
    for (size_t e = 0; e < n_summed; ++e) summed[e] = -1;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n_events, r->batch, r->helicity,
                                                          per_helicity));
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n_summed, summed_momenta, summed));
    for (size_t point = 0; point < n_points; ++point) {
      sum[point] = 0;
      for (uint32_t config = 0; config < r->n_configs; ++config)
        sum[point] += per_helicity[point * r->n_configs + config];
    }
  }
  free(r->batch);
  free(r->helicity);
  r->batch = NULL;
  r->helicity = NULL;
  r->done = 1;
  return r;
}

/* Fails unless every value is a |M|^2 (the poison, -1, is not). */
static void assert_written(const results *r, unsigned engine, unsigned n,
                           hegetcl_precision precision) {
  for (size_t e = 0; e < r->n_points * r->n_configs; ++e)
    if (!(r->per_helicity[engine][e] >= 0))
      fail_msg("n=%u %s %s on %s, point %zu, helicity configuration 0x%zx: %.17g is no |M|^2", n,
               hegetcl_engine_name((hegetcl_engine)engine), hegetcl_precision_name(precision),
               ts_device_name(ctx), e / r->n_configs, e % r->n_configs, r->per_helicity[engine][e]);
}

static void engines_agree_per_configuration(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const results *r = evaluate(n, precision);
  const double tol = tolerance(precision);
  double worst = 0, worst_ratio = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (r->per_helicity[engine] == NULL) continue;
    assert_written(r, engine, n, precision);
    if (engine == BASE_ENGINE) continue;
    for (size_t point = 0; point < r->n_points; ++point) {
      const double scale = r->sum_over_configs[BASE_ENGINE][point];
      for (uint32_t config = 0; config < r->n_configs; ++config) {
        const size_t event = point * r->n_configs + config;
        const double a = r->per_helicity[engine][event], b = r->per_helicity[BASE_ENGINE][event];
        const int zero = ts_configuration_vanishes(config, n);
        const double diff = ts_configuration_difference(a, b, scale, zero);
        if (diff > worst) worst = diff;
        if (!zero && ts_rel_diff(a, b) > worst_ratio) worst_ratio = ts_rel_diff(a, b);
        if (!(diff <= tol))
          fail_msg("n=%u %s on %s, point %zu, helicity configuration 0x%x%s: %s %.17g, %s %.17g, "
                   "ratio %.17g, point's sum %.17g, difference %.3g (tolerance %g)",
                   n, hegetcl_precision_name(precision), ts_device_name(ctx), point, config,
                   zero ? " (vanishing)" : "", hegetcl_engine_name((hegetcl_engine)engine), a,
                   hegetcl_engine_name(BASE_ENGINE), b, a / b, scale, diff, tol);
      }
    }
  }
  print_message("# n=%u %s: worst difference from the %s engine %.3g, worst ratio - 1 %.3g\n", n,
                hegetcl_precision_name(precision), hegetcl_engine_name(BASE_ENGINE), worst,
                worst_ratio);
}

static void summed_equals_sum_over_configurations(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const results *r = evaluate(n, precision);
  const double tol = tolerance(precision);
  double worst = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (r->per_helicity[engine] == NULL) continue;
    assert_written(r, engine, n, precision);
    for (size_t point = 0; point < r->n_summed; ++point) {
      const double summed = r->summed[engine][point], sum = r->sum_over_configs[engine][point];
      const double diff = ts_rel_diff(summed, sum);
      if (diff > worst) worst = diff;
      if (!(diff <= tol) || !(summed > 0))
        fail_msg("n=%u %s %s on %s, point %zu: summed kernel %.17g, sum over the %u "
                 "configurations %.17g, ratio %.17g (tolerance %g)",
                 n, hegetcl_engine_name((hegetcl_engine)engine), hegetcl_precision_name(precision),
                 ts_device_name(ctx), point, summed, r->n_configs, sum, summed / sum, tol);
    }
  }
  print_message("# n=%u %s: worst summed kernel / sum over configurations - 1: %.3g\n", n,
                hegetcl_precision_name(precision), worst);
}

static void forbidden_configurations_vanish(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const results *r = evaluate(n, precision);
  const double tol = vanishing_tolerance(precision);
  double worst = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (r->per_helicity[engine] == NULL) continue;
    assert_written(r, engine, n, precision);
    for (size_t point = 0; point < r->n_points; ++point) {
      const double scale = r->sum_over_configs[engine][point];
      for (uint32_t config = 0; config < r->n_configs; ++config) {
        if (!ts_configuration_vanishes(config, n)) continue;
        const double value = r->per_helicity[engine][point * r->n_configs + config];
        if (value / scale > worst) worst = value / scale;
        if (!(value <= tol * scale))
          fail_msg("n=%u %s %s on %s, point %zu, helicity configuration 0x%x (%s): %.17g, the "
                   "point's sum over configurations %.17g, ratio %.3g (tolerance %g)",
                   n, hegetcl_engine_name((hegetcl_engine)engine),
                   hegetcl_precision_name(precision), ts_device_name(ctx), point, config,
                   (config & 1u) == ((config >> 1) & 1u) ? "equal quark helicities"
                                                         : "photons all alike",
                   value, scale, value / scale, tol);
      }
    }
  }
  print_message("# n=%u %s: largest vanishing configuration / point's sum: %.3g\n", n,
                hegetcl_precision_name(precision), worst);
}

static void flip_leaves_squared_amplitude(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const results *r = evaluate(n, precision);
  const double tol = tolerance(precision);
  const uint32_t flip = r->n_configs - 1;
  double worst = 0, worst_ratio = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (r->per_helicity[engine] == NULL) continue;
    assert_written(r, engine, n, precision);
    for (size_t point = 0; point < r->n_points; ++point) {
      const double scale = r->sum_over_configs[engine][point];
      for (uint32_t config = 0; config < r->n_configs; ++config) {
        if (config > (config ^ flip)) continue;
        const double a = r->per_helicity[engine][point * r->n_configs + config];
        const double b = r->per_helicity[engine][point * r->n_configs + (config ^ flip)];
        const int zero = ts_configuration_vanishes(config, n);
        const double diff = ts_configuration_difference(a, b, scale, zero);
        if (diff > worst) worst = diff;
        if (!zero && ts_rel_diff(a, b) > worst_ratio) worst_ratio = ts_rel_diff(a, b);
        if (!(diff <= tol))
          fail_msg("n=%u %s %s on %s, point %zu: configuration 0x%x gives %.17g, its flip 0x%x "
                   "%.17g, ratio %.17g, point's sum %.17g, difference %.3g (tolerance %g)",
                   n, hegetcl_engine_name((hegetcl_engine)engine),
                   hegetcl_precision_name(precision), ts_device_name(ctx), point, config, a,
                   config ^ flip, b, a / b, scale, diff, tol);
      }
    }
  }
  print_message("# n=%u %s: worst flip difference %.3g, worst ratio - 1 %.3g\n", n,
                hegetcl_precision_name(precision), worst, worst_ratio);
}

/* At n = 8: N8_SUMMED_ENGINE's summed kernel against the recursive engine's sum over
 * configurations on the first points. */
static void summed_engines_agree_n8(hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const results *r = evaluate(N_MAX, precision);
  hegetcl_amplitude *amp = ts_amplitude_set_get(&amps, N8_SUMMED_ENGINE, N_MAX, precision);
  double me[N8_SUMMED_POINTS];
  for (size_t e = 0; e < N8_SUMMED_POINTS; ++e) me[e] = -1; /* poison */
  const unsigned n_particles = N_MAX + 2;
  double momenta[4 * (N_MAX + 2) * N8_SUMMED_POINTS];
  for (int c = 0; c < 4; ++c)
    for (unsigned i = 0; i < n_particles; ++i)
      for (size_t e = 0; e < N8_SUMMED_POINTS; ++e)
        momenta[HG_SOA_INDEX(c, i, n_particles, N8_SUMMED_POINTS, e)] =
            r->momenta[HG_SOA_INDEX(c, i, n_particles, r->n_points, e)];
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, N8_SUMMED_POINTS, momenta, me));
  const double tol = tolerance(precision);
  double worst = 0;
  for (size_t e = 0; e < N8_SUMMED_POINTS; ++e) {
    const double base = r->sum_over_configs[BASE_ENGINE][e], diff = ts_rel_diff(me[e], base);
    if (diff > worst) worst = diff;
    if (!(diff <= tol) || !(me[e] > 0))
      fail_msg("n=8 %s on %s, point %zu: %s summed %.17g, %s summed over configurations %.17g, "
               "ratio %.17g (tolerance %g)",
               hegetcl_precision_name(precision), ts_device_name(ctx), e,
               hegetcl_engine_name(N8_SUMMED_ENGINE), me[e], hegetcl_engine_name(BASE_ENGINE), base,
               me[e] / base, tol);
  }
  print_message("# n=8 %s: worst %s summed / %s sum - 1: %.3g\n", hegetcl_precision_name(precision),
                hegetcl_engine_name(N8_SUMMED_ENGINE), hegetcl_engine_name(BASE_ENGINE), worst);
}

#define AGREE_CASE(n, p, P)                                                                        \
  static void engines_agree_on_every_helicity_configuration_n##n##_##p(void **state) {             \
    (void)state;                                                                                   \
    engines_agree_per_configuration(n, P);                                                         \
  }
#define PROPERTY_CASES(n, p, P)                                                                    \
  static void summed_kernel_equals_sum_over_helicity_configurations_n##n##_##p(void **state) {     \
    (void)state;                                                                                   \
    summed_equals_sum_over_configurations(n, P);                                                   \
  }                                                                                                \
  static void equal_quark_helicities_or_alike_photons_vanish_n##n##_##p(void **state) {            \
    (void)state;                                                                                   \
    forbidden_configurations_vanish(n, P);                                                         \
  }                                                                                                \
  static void flipping_every_helicity_keeps_squared_amplitude_n##n##_##p(void **state) {           \
    (void)state;                                                                                   \
    flip_leaves_squared_amplitude(n, P);                                                           \
  }
#define CASES(n)                                                                                   \
  AGREE_CASE(n, double, HEGETCL_PRECISION_DOUBLE)                                                  \
  AGREE_CASE(n, float, HEGETCL_PRECISION_FLOAT)                                                    \
  PROPERTY_CASES(n, double, HEGETCL_PRECISION_DOUBLE)                                              \
  PROPERTY_CASES(n, float, HEGETCL_PRECISION_FLOAT)
CASES(2)
CASES(3)
CASES(4)
CASES(5)
CASES(6)
CASES(7)
PROPERTY_CASES(8, double, HEGETCL_PRECISION_DOUBLE)
PROPERTY_CASES(8, float, HEGETCL_PRECISION_FLOAT)

static void unrolled_and_recursive_summed_values_agree_n8_double(void **state) {
  (void)state;
  summed_engines_agree_n8(HEGETCL_PRECISION_DOUBLE);
}
static void unrolled_and_recursive_summed_values_agree_n8_float(void **state) {
  (void)state;
  summed_engines_agree_n8(HEGETCL_PRECISION_FLOAT);
}

#define PROPERTY_TESTS(n, p)                                                                       \
  cmocka_unit_test(summed_kernel_equals_sum_over_helicity_configurations_n##n##_##p),              \
      cmocka_unit_test(equal_quark_helicities_or_alike_photons_vanish_n##n##_##p),                 \
      cmocka_unit_test(flipping_every_helicity_keeps_squared_amplitude_n##n##_##p)
#define TESTS(n, p)                                                                                \
  cmocka_unit_test(engines_agree_on_every_helicity_configuration_n##n##_##p), PROPERTY_TESTS(n, p)

int main(void) {
  const struct CMUnitTest tests[] = {
      TESTS(2, double),
      TESTS(3, double),
      TESTS(4, double),
      TESTS(5, double),
      TESTS(6, double),
      TESTS(7, double),
      PROPERTY_TESTS(8, double),
      cmocka_unit_test(unrolled_and_recursive_summed_values_agree_n8_double),
      TESTS(2, float),
      TESTS(3, float),
      TESTS(4, float),
      TESTS(5, float),
      TESTS(6, float),
      TESTS(7, float),
      PROPERTY_TESTS(8, float),
      cmocka_unit_test(unrolled_and_recursive_summed_values_agree_n8_float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
