/* SPDX-License-Identifier: MIT */
/* The diagrams engine against closed forms from the literature (tests/support/qcd_closed_forms.h),
 * at random points away from MadGraph's: g g -> t t~ and q q~ -> t t~ (Combridge; Glueck-Owens-
 * Reya), g g -> g g and q q~ -> g g, and Parke-Taylor for every MHV and anti-MHV helicity
 * configuration of g g -> g g g and g g -> g g g g, colour-summed in exact SU(3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qcd_closed_forms.h"
#include "test_support.h"

#define N_POINTS 16
#define ALPHA_S 0.118

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

static double g_s(void) { return sqrt(4 * 3.14159265358979323846 * ALPHA_S); }

/* 2 -> 2 in the centre-of-mass frame: massless incoming along +-z, outgoing of mass m at a random
 * angle (|cos theta| < 0.95, away from the forward poles of massless t-channel exchange). */
static void two_to_two(double sqrt_s, double m, uint64_t *rng, double p[4][4]) {
  const double e = sqrt_s / 2, k = sqrt(e * e - m * m);
  const double ct = 0.95 * (2 * ts_uniform(rng) - 1), st = sqrt(1 - ct * ct);
  const double phi = 6.283185307179586 * ts_uniform(rng);
  const double q[4][4] = {{e, 0, 0, e},
                          {e, 0, 0, -e},
                          {e, k * st * cos(phi), k * st * sin(phi), k * ct},
                          {e, -k * st * cos(phi), -k * st * sin(phi), -k * ct}};
  memcpy(p, q, sizeof q);
}

/* The engine's |M|^2 (one configuration when helicity != NULL) for points p[e][i][mu]. */
static void engine(const char *text, unsigned n, size_t n_points, double (*p)[8][4],
                   const uint32_t *helicity, double *me) {
  hegetcl_process process;
  char message[1024];
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  process.alpha_s = ALPHA_S;
  double *momenta = malloc(4 * n * n_points * sizeof *momenta);
  for (size_t e = 0; e < n_points; ++e)
    for (unsigned i = 0; i < n; ++i)
      for (unsigned mu = 0; mu < 4; ++mu) momenta[(mu * n + i) * n_points + e] = p[e][i][mu];
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  if (helicity == NULL)
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n_points, momenta, me));
  else
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n_points, momenta, helicity, me));
  hegetcl_amplitude_destroy(amp);
  free(momenta);
}

typedef double (*closed_2to2)(double p[4][4], double g_s);

static double gg_ttx(double p[4][4], double g) { return hg_closed_gg_ttx(p, g, 173.0); }
static double qqx_ttx(double p[4][4], double g) { return hg_closed_qqx_ttx(p, g, 173.0); }

/* Rounding of a few diagrams of O(1) terms: 1e-12. */
static void check_2to2(const char *text, double m, closed_2to2 closed) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  uint64_t rng = 42;
  double(*p)[8][4] = calloc(N_POINTS, sizeof *p);
  double expected[N_POINTS], me[N_POINTS];
  for (size_t e = 0; e < N_POINTS; ++e) {
    double q[4][4];
    two_to_two(e % 2 ? 1000.0 : 400.0, m, &rng, q);
    memcpy(p[e], q, sizeof q);
    expected[e] = closed(q, g_s());
  }
  engine(text, 4, N_POINTS, p, NULL, me);
  for (size_t e = 0; e < N_POINTS; ++e)
    if (!(ts_rel_diff(me[e], expected[e]) <= 1e-12))
      fail_msg("%s, point %zu on %s: hegetcl %.17g, closed form %.17g, ratio %.17g", text, e,
               ts_device_name(ctx), me[e], expected[e], me[e] / expected[e]);
  free(p);
}

static void gg_to_ttx_equals_combridge(void **state) {
  (void)state;
  check_2to2("g g > t t~", 173.0, gg_ttx);
}
static void uux_to_ttx_equals_combridge(void **state) {
  (void)state;
  check_2to2("u u~ > t t~", 173.0, qqx_ttx);
}
static void gg_to_gg_equals_the_textbook_formula(void **state) {
  (void)state;
  check_2to2("g g > g g", 0.0, hg_closed_gg_gg);
}
static void uux_to_gg_equals_the_textbook_formula(void **state) {
  (void)state;
  check_2to2("u u~ > g g", 0.0, hg_closed_qqx_gg);
}

/* Every MHV and anti-MHV configuration of n gluons at random RAMBO points: the engine's
 * per-helicity |M|^2 times IDEN equals Parke-Taylor's colour sum to 1e-11 (the configurations'
 * values spread over decades; each is compared on its own). */
static void check_mhv(unsigned n, double iden) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  enum { points_per_config = 2 };
  const uint32_t n_configs = 1u << n;
  double *momenta = malloc(4 * n * points_per_config * sizeof *momenta);
  ts_random_points(n - 2, 1000.0, points_per_config, 7 + n, 0.05, momenta);
  const char *text = n == 5 ? "g g > g g g" : "g g > g g g g";
  size_t count = 0;
  double(*p)[8][4] = calloc((size_t)n_configs * points_per_config, sizeof *p);
  uint32_t *helicity = calloc((size_t)n_configs * points_per_config, sizeof *helicity);
  double *expected = calloc((size_t)n_configs * points_per_config, sizeof *expected);
  for (uint32_t h = 0; h < n_configs; ++h)
    for (size_t e = 0; e < points_per_config; ++e) {
      double q[8][4];
      for (unsigned i = 0; i < n; ++i)
        for (unsigned mu = 0; mu < 4; ++mu) q[i][mu] = momenta[(mu * n + i) * points_per_config + e];
      const double value = hg_closed_mhv_gluons(n, q, h, g_s());
      if (value == HG_CLOSED_NMHV) continue;
      if (value < 0) fail_msg("closed form: %s", hg_closed_error_message(value));
      memcpy(p[count], q, sizeof q);
      helicity[count] = h;
      expected[count] = value / iden;
      ++count;
    }
  double *me = calloc(count, sizeof *me);
  engine(text, n, count, p, helicity, me);
  size_t nonzero = 0;
  /* the largest configuration of all points: a configuration's rounding error is about 1e-16 of
   * the squared partial amplitudes it is made of, which the largest configuration bounds, so a
   * configuration 10^10 below it (g g > g g g g, configuration 15: 1.7e-15) may be 1e-11 off */
  double largest = 0;
  for (size_t k = 0; k < count; ++k) largest = expected[k] > largest ? expected[k] : largest;
  for (size_t k = 0; k < count; ++k) {
    const double scale = expected[k] > 0 ? expected[k] : 1e-300;
    if (expected[k] > 0) ++nonzero;
    const int ok = expected[k] > 0 ? (ts_rel_diff(me[k], expected[k]) <= 1e-11 ||
                                      fabs(me[k] - expected[k]) <= 1e-14 * largest)
                                   : fabs(me[k]) <= 1e-20 * me[0] + 1e-300;
    if (!ok)
      fail_msg("%s, helicity configuration %u on %s: hegetcl %.17g, Parke-Taylor %.17g (scale "
               "%.3g)",
               text, helicity[k], ts_device_name(ctx), me[k], expected[k], scale);
  }
  assert_true(nonzero > 0);
  free(me);
  free(expected);
  free(helicity);
  free(p);
  free(momenta);
}

static void every_mhv_configuration_of_gg_to_ggg_equals_parke_taylor(void **state) {
  (void)state;
  check_mhv(5, 1536);
}
static void every_mhv_configuration_of_gg_to_gggg_equals_parke_taylor(void **state) {
  (void)state;
  check_mhv(6, 6144);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gg_to_ttx_equals_combridge),
      cmocka_unit_test(uux_to_ttx_equals_combridge),
      cmocka_unit_test(gg_to_gg_equals_the_textbook_formula),
      cmocka_unit_test(uux_to_gg_equals_the_textbook_formula),
      cmocka_unit_test(every_mhv_configuration_of_gg_to_ggg_equals_parke_taylor),
  };
  /* g g > g g g g's program takes NVIDIA's compiler minutes: the exhaustive suite adds it */
  const struct CMUnitTest exhaustive[] = {
      cmocka_unit_test(gg_to_ttx_equals_combridge),
      cmocka_unit_test(uux_to_ttx_equals_combridge),
      cmocka_unit_test(gg_to_gg_equals_the_textbook_formula),
      cmocka_unit_test(uux_to_gg_equals_the_textbook_formula),
      cmocka_unit_test(every_mhv_configuration_of_gg_to_ggg_equals_parke_taylor),
      cmocka_unit_test(every_mhv_configuration_of_gg_to_gggg_equals_parke_taylor),
  };
  const char *all = getenv("HEGETCL_TEST_EXHAUSTIVE");
  if (all != NULL && strcmp(all, "1") == 0)
    return cmocka_run_group_tests(exhaustive, setup, teardown);
  return cmocka_run_group_tests(tests, setup, teardown);
}
