/* SPDX-License-Identifier: MIT */
/* Permuting the photon momenta leaves every engine's helicity-summed |M|^2 unchanged (identical
 * photons, n = 2..7). The default run leaves the diagram engine's n = 7 program (two minutes of
 * PoCL compilation; its split form is checked from n = 6) to the exhaustive suite
 * (HEGETCL_TEST_EXHAUSTIVE=1), which also takes more points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 7
#define N_POINTS 12       /* random points per n, exhaustive; by default DEFAULT_POINTS */
#define DEFAULT_POINTS 6  /* the first of the exhaustive run's */
#define N_PERMUTATIONS 3 /* random ones per point, none the identity */
#define SQRT_S_GEV 500.0
#define PT_MIN_FRAC 0.05

/* double: the n! diagrams are summed in another order, rounding near 1e-14; float: 24-bit
 * rounding over the same sums, whose cancellations cost up to two digits. */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
}

static hegetcl_context *ctx;
static ts_amplitude_set amps;

/* Every engine at every n, but the diagram engine at n = 7 only in the exhaustive suite. */
static int wanted(unsigned engine, unsigned n, hegetcl_precision precision) {
  (void)precision;
  return engine != HEGETCL_ENGINE_DIAGRAMS || n < 7 || ts_exhaustive();
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
  ts_amplitude_set_destroy(&amps);
  hegetcl_context_destroy(ctx);
  return 0;
}

/* A uniformly drawn permutation of 0..n-1 other than the identity (Fisher-Yates, redrawn). */
static void random_permutation(unsigned n, uint64_t *rng, unsigned *perm) {
  int identity = 1;
  while (identity) {
    for (unsigned i = 0; i < n; ++i) perm[i] = i;
    for (unsigned i = n - 1; i > 0; --i) {
      const unsigned j = (unsigned)(ts_splitmix64(rng) % (i + 1));
      const unsigned t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (unsigned i = 0; i < n; ++i) identity &= perm[i] == i;
  }
}

static void check(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  enum { PER_POINT = N_PERMUTATIONS + 1, MAX_EVENTS = N_POINTS * PER_POINT };
  const size_t n_points = ts_exhaustive() ? N_POINTS : DEFAULT_POINTS;
  const size_t n_events = n_points * PER_POINT;
  const unsigned n_particles = n + 2;
  double points[4 * (N_MAX + 2) * N_POINTS], momenta[4 * (N_MAX + 2) * MAX_EVENTS], me[MAX_EVENTS];
  unsigned perms[MAX_EVENTS][N_MAX];
  ts_random_points(n, SQRT_S_GEV, n_points, 0x9e70000u + n, PT_MIN_FRAC, points);
  uint64_t rng = 0xbe1a0000u + n;
  /* event point * PER_POINT + k: k = 0 the point itself, k > 0 its photons permuted */
  for (size_t point = 0; point < n_points; ++point)
    for (unsigned k = 0; k < PER_POINT; ++k) {
      const size_t event = point * PER_POINT + k;
      if (k == 0)
        for (unsigned j = 0; j < n; ++j) perms[event][j] = j;
      else
        random_permutation(n, &rng, perms[event]);
      for (int c = 0; c < 4; ++c)
        for (unsigned i = 0; i < n_particles; ++i) {
          const unsigned source = i < 2 ? i : 2 + perms[event][i - 2];
          momenta[HG_SOA_INDEX(c, i, n_particles, n_events, event)] =
              points[HG_SOA_INDEX(c, source, n_particles, n_points, point)];
        }
    }
  const double tol = tolerance(precision);
  double worst = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (!wanted(engine, n, precision)) continue;
    for (size_t e = 0; e < n_events; ++e) me[e] = -1; /* poison */
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(ts_amplitude_set_get(&amps, engine, n, precision),
                                                 n_events, momenta, me));
    for (size_t point = 0; point < n_points; ++point) {
      const double original = me[point * PER_POINT];
      if (!(original > 0))
        fail_msg("n=%u %s %s on %s, point %zu: |M|^2 = %.17g is not positive", n,
                 hegetcl_engine_name((hegetcl_engine)engine), hegetcl_precision_name(precision),
                 ts_device_name(ctx), point, original);
      for (unsigned k = 1; k < PER_POINT; ++k) {
        const size_t event = point * PER_POINT + k;
        const double rel = ts_rel_diff(me[event], original);
        if (rel > worst) worst = rel;
        if (!(rel <= tol)) {
          char order[4 * N_MAX + 1];
          for (unsigned j = 0; j < n; ++j)
            snprintf(order + 2 * j, sizeof order - 2 * j, "%u%s", perms[event][j],
                     j + 1 < n ? "," : "");
          fail_msg("n=%u %s %s on %s, point %zu: photons in the order (%s) give %.17g, in their "
                   "own order %.17g, ratio %.17g (tolerance %g)",
                   n, hegetcl_engine_name((hegetcl_engine)engine),
                   hegetcl_precision_name(precision), ts_device_name(ctx), point, order, me[event],
                   original, me[event] / original, tol);
        }
      }
    }
  }
  print_message("# n=%u %s: worst permuted / original - 1: %.3g\n", n,
                hegetcl_precision_name(precision), worst);
}

#define CASE(n, p, P)                                                                              \
  static void permuting_photons_leaves_summed_squared_amplitude_n##n##_##p(void **state) {         \
    (void)state;                                                                                   \
    check(n, P);                                                                                   \
  }
#define CASES(n)                                                                                   \
  CASE(n, double, HEGETCL_PRECISION_DOUBLE)                                                        \
  CASE(n, float, HEGETCL_PRECISION_FLOAT)
CASES(2)
CASES(3)
CASES(4)
CASES(5)
CASES(6)
CASES(7)

#define TEST(n, p) cmocka_unit_test(permuting_photons_leaves_summed_squared_amplitude_n##n##_##p)

int main(void) {
  const struct CMUnitTest tests[] = {
      TEST(2, double), TEST(3, double), TEST(4, double), TEST(5, double),
      TEST(6, double), TEST(7, double), TEST(2, float),  TEST(3, float),
      TEST(4, float),  TEST(5, float),  TEST(6, float),  TEST(7, float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
