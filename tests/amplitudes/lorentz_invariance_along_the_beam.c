/* SPDX-License-Identifier: MIT */
/* Rotations about and boosts along the beam axis leave every engine's helicity-summed |M|^2
 * unchanged (n = 2..7). They keep the quark on +z and the antiquark on -z, as the kernels'
 * ixxxx1/oxxxx2 require; general Lorentz transformations are tested with generic wavefunctions.
 * The default run leaves the diagram engine's n = 7 program (two minutes of PoCL compilation; its
 * split form is checked from n = 6) to the exhaustive suite (HEGETCL_TEST_EXHAUSTIVE=1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 7
#define N_POINTS 12
#define N_TRANSFORMS 3 /* random ones per point */
#define MAX_RAPIDITY 2.0
#define SQRT_S_GEV 500.0
#define PT_MIN_FRAC 0.05

/* A boost of rapidity y leaves the invariants p.k alone but makes the components it is computed
 * from up to e^|y| larger each, so rounding of the components costs e^(2|y|) times more; measured
 * worst: 1.5e-13 in double (flat 1e-11 covers e^4 times the unboosted 2e-15), and in float
 * (relative difference) e^(-2|y|) below 1e-5 over 1650 boosted points, 1.4e-4 near |y| = 2. */
static double tolerance(hegetcl_precision precision, double rapidity) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-11 : 1e-4 * exp(2 * fabs(rapidity));
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

/* A rotation by angle about z, then a boost along z with rapidity: px, py of the beams stay 0. */
typedef struct {
  double angle, rapidity;
} beam_transform;

static void transform(beam_transform t, const double in[4], double out[4]) {
  const double c = cos(t.angle), s = sin(t.angle);
  const double ch = cosh(t.rapidity), sh = sinh(t.rapidity);
  out[1] = c * in[1] - s * in[2];
  out[2] = s * in[1] + c * in[2];
  out[0] = ch * in[0] + sh * in[3];
  out[3] = sh * in[0] + ch * in[3];
}

static void check(unsigned n, hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  enum { PER_POINT = N_TRANSFORMS + 1, N_EVENTS = N_POINTS * PER_POINT };
  const unsigned n_particles = n + 2;
  double points[4 * (N_MAX + 2) * N_POINTS], momenta[4 * (N_MAX + 2) * N_EVENTS], me[N_EVENTS];
  beam_transform transforms[N_EVENTS];
  ts_random_points(n, SQRT_S_GEV, N_POINTS, 0x10e0000u + n, PT_MIN_FRAC, points);
  uint64_t rng = 0xb0057000u + n;
  /* event point * PER_POINT + k: k = 0 the point itself, k > 0 the point transformed */
  for (size_t point = 0; point < N_POINTS; ++point)
    for (unsigned k = 0; k < PER_POINT; ++k) {
      const size_t event = point * PER_POINT + k;
      transforms[event].angle = k == 0 ? 0 : 2 * 3.14159265358979323846 * ts_uniform(&rng);
      transforms[event].rapidity = k == 0 ? 0 : MAX_RAPIDITY * (2 * ts_uniform(&rng) - 1);
      for (unsigned i = 0; i < n_particles; ++i) {
        double p[4], q[4];
        for (int c = 0; c < 4; ++c) p[c] = points[HG_SOA_INDEX(c, i, n_particles, N_POINTS, point)];
        if (k == 0)
          for (int c = 0; c < 4; ++c) q[c] = p[c];
        else
          transform(transforms[event], p, q);
        for (int c = 0; c < 4; ++c)
          momenta[HG_SOA_INDEX(c, i, n_particles, N_EVENTS, event)] = q[c];
      }
    }
  double worst = 0, worst_scaled = 0;
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (!wanted(engine, n, precision)) continue;
    for (size_t e = 0; e < N_EVENTS; ++e) me[e] = -1; /* poison */
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(ts_amplitude_set_get(&amps, engine, n, precision),
                                                 N_EVENTS, momenta, me));
    for (size_t point = 0; point < N_POINTS; ++point) {
      const double original = me[point * PER_POINT];
      if (!(original > 0))
        fail_msg("n=%u %s %s on %s, point %zu: |M|^2 = %.17g is not positive", n,
                 hegetcl_engine_name((hegetcl_engine)engine), hegetcl_precision_name(precision),
                 ts_device_name(ctx), point, original);
      for (unsigned k = 1; k < PER_POINT; ++k) {
        const size_t event = point * PER_POINT + k;
        const double rel = ts_rel_diff(me[event], original);
        const double tol = tolerance(precision, transforms[event].rapidity);
        if (rel > worst) worst = rel;
        if (rel / tol > worst_scaled) worst_scaled = rel / tol;
        if (!(rel <= tol))
          fail_msg("n=%u %s %s on %s, point %zu: rotated by %.6f rad about z and boosted with "
                   "rapidity %.6f along z it gives %.17g, in its own frame %.17g, ratio %.17g "
                   "(tolerance %g)",
                   n, hegetcl_engine_name((hegetcl_engine)engine),
                   hegetcl_precision_name(precision), ts_device_name(ctx), point,
                   transforms[event].angle, transforms[event].rapidity, me[event], original,
                   me[event] / original, tol);
      }
    }
  }
  print_message("# n=%u %s: worst transformed / original - 1: %.3g, %.3g of its tolerance\n", n,
                hegetcl_precision_name(precision), worst, worst_scaled);
}

#define CASE(n, p, P)                                                                              \
  static void beam_rotations_and_boosts_leave_summed_squared_amplitude_n##n##_##p(void **state) {  \
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

#define TEST(n, p)                                                                                 \
  cmocka_unit_test(beam_rotations_and_boosts_leave_summed_squared_amplitude_n##n##_##p)

int main(void) {
  const struct CMUnitTest tests[] = {
      TEST(2, double), TEST(3, double), TEST(4, double), TEST(5, double),
      TEST(6, double), TEST(7, double), TEST(2, float),  TEST(3, float),
      TEST(4, float),  TEST(5, float),  TEST(6, float),  TEST(7, float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
