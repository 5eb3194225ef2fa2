/* SPDX-License-Identifier: MIT */
/* The recursive colour engine on random points: it equals the diagrams engine for
 * every process both take, its helicity filter drops only configurations that vanish, gauge,
 * Bose and Lorentz invariance hold up to g g > 6 g and g g > t t~ + 4 g, and every MHV
 * configuration of 4..8 gluons equals Parke-Taylor with exact SU(3) colour. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "process/colour_ordered.h"
#include "qcd_closed_forms.h"
#include "qcd_points.h"
#include "test_support.h"

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

static hegetcl_process process_of(const char *text, hegetcl_engine engine) {
  hegetcl_process process = qcd_process_of(text);
  process.engine = engine;
  return process;
}


static double *evaluate(const hegetcl_process *process, size_t n_points, const double *momenta,
                        const uint32_t *helicity) {
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, process, &amp));
  double *me = calloc(n_points, sizeof *me);
  if (helicity == NULL)
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n_points, momenta, me));
  else
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n_points, momenta, helicity, me));
  hegetcl_amplitude_destroy(amp);
  return me;
}

/* The same points repeated per helicity configuration: point e, configuration h at h * n + e. */
static double *repeat(const double *momenta, unsigned n, size_t n_points, size_t copies) {
  double *out = malloc(4 * n * n_points * copies * sizeof *out);
  const size_t total = n_points * copies;
  for (size_t k = 0; k < copies; ++k)
    for (size_t e = 0; e < n_points; ++e)
      for (unsigned c = 0; c < 4 * n; ++c)
        out[c * total + k * n_points + e] = momenta[c * n_points + e];
  return out;
}

static const char *const both_engines[] = {"g g > t t~",  "g g > t t~ g", "g g > g g",
                                           "g g > g g g", "u u~ > g g",   "u u~ > g g g"};
/* the diagrams engine's programs for these take PoCL minutes: exhaustive suite */
static const char *const both_engines_large[] = {"g g > t t~ g g", "g g > g g g g"};

/* Summed |M|^2 and every helicity configuration equal the diagrams engine's at random points:
 * 1e-12 of the helicity sum (one configuration can be far below it). */
static void check_engines_agree(const char *text) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  enum { n_points = 4 };
  const hegetcl_process rec = process_of(text, HEGETCL_ENGINE_RECURSIVE);
  const hegetcl_process dia = process_of(text, HEGETCL_ENGINE_DIAGRAMS);
  const unsigned n = hegetcl_process_particles(&rec);
  double *momenta = qcd_points_of(&rec, n_points, 17);
  double *a = evaluate(&rec, n_points, momenta, NULL), *b = evaluate(&dia, n_points, momenta, NULL);
  for (size_t e = 0; e < n_points; ++e)
    if (!(ts_rel_diff(a[e], b[e]) <= 1e-12))
      fail_msg("%s, point %zu on %s: recursive %.17g, diagrams %.17g", text, e, ts_device_name(ctx),
               a[e], b[e]);
  const size_t configs = (size_t)1 << n;
  double *many = repeat(momenta, n, n_points, configs);
  uint32_t *helicity = malloc(configs * n_points * sizeof *helicity);
  for (size_t k = 0; k < configs * n_points; ++k) helicity[k] = (uint32_t)(k / n_points);
  double *ha = evaluate(&rec, configs * n_points, many, helicity);
  double *hb = evaluate(&dia, configs * n_points, many, helicity);
  for (size_t k = 0; k < configs * n_points; ++k)
    if (!(fabs(ha[k] - hb[k]) <= 1e-12 * a[k % n_points]))
      fail_msg("%s, configuration %u, point %zu on %s: recursive %.17g, diagrams %.17g (sum "
               "%.6g)",
               text, helicity[k], k % n_points, ts_device_name(ctx), ha[k], hb[k], a[k % n_points]);
  free(ha);
  free(hb);
  free(helicity);
  free(many);
  free(a);
  free(b);
  free(momenta);
}

static void recursive_equals_diagrams(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof both_engines / sizeof both_engines[0]; ++k)
    check_engines_agree(both_engines[k]);
  if (ts_exhaustive())
    for (size_t k = 0; k < sizeof both_engines_large / sizeof both_engines_large[0]; ++k)
      check_engines_agree(both_engines_large[k]);
}

/* The configurations the summed kernel leaves out vanish (1e-20 of the sum: rounding only) and
 * all 2^n configurations one by one add up to the summed value (1e-12). */
static void check_filter(const char *text) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  enum { n_points = 3 };
  const hegetcl_process rec = process_of(text, HEGETCL_ENGINE_RECURSIVE);
  const unsigned n = hegetcl_process_particles(&rec);
  hg_process_spec spec;
  hg_colour_ordered co;
  char error[512];
  assert_int_equal(hg_process_parse(text, &spec, error, sizeof error), 0);
  assert_int_equal(hg_colour_ordered_build(&spec, &co, error, sizeof error), 0);
  double *momenta = qcd_points_of(&rec, n_points, 29);
  double *sum = evaluate(&rec, n_points, momenta, NULL);
  const size_t configs = (size_t)1 << n;
  double *many = repeat(momenta, n, n_points, configs);
  uint32_t *helicity = malloc(configs * n_points * sizeof *helicity);
  for (size_t k = 0; k < configs * n_points; ++k) helicity[k] = (uint32_t)(k / n_points);
  double *h = evaluate(&rec, configs * n_points, many, helicity);
  for (size_t e = 0; e < n_points; ++e) {
    double total = 0;
    for (size_t c = 0; c < configs; ++c) {
      const double v = h[c * n_points + e];
      total += v;
      /* a quark line sums its gluon configurations times its ends' allowed pairs */
      const uint32_t ends = co.quark_line ? 1u << co.o_particle | 1u << co.i_particle : 0;
      int gluons_kept = 0, pair_kept = !co.quark_line;
      for (size_t j = 0; j < co.n_helicities; ++j) gluons_kept |= co.helicities[j] == (c & ~ends);
      for (int f = 0; f < co.n_fermion_pairs; ++f) pair_kept |= co.fermion_pairs[f] == (c & ends);
      const int kept = gluons_kept && pair_kept;
      if (!kept && !(fabs(v) <= 1e-20 * sum[e]))
        fail_msg("%s: configuration %zu is left out of the sum but gives %.3e (sum %.3e)", text, c,
                 v, sum[e]);
    }
    if (!(ts_rel_diff(total, sum[e]) <= 1e-12))
      fail_msg("%s, point %zu: the 2^%u configurations add up to %.17g, the sum is %.17g", text, e,
               n, total, sum[e]);
  }
  printf("# %s: %zu of %zu helicity configurations summed\n", text,
         co.n_helicities * (size_t)(co.quark_line ? co.n_fermion_pairs : 1), configs);
  hg_colour_ordered_free(&co);
  free(h);
  free(helicity);
  free(many);
  free(sum);
  free(momenta);
}

static void the_helicity_filter_drops_only_vanishing_configurations(void **state) {
  (void)state;
  check_filter("g g > t t~ g");
  check_filter("u u~ > g g g");
  check_filter("g g > g g g g");
}

/* Ward identity, Bose symmetry and Lorentz invariance at random points of a large process. */
static void check_symmetries(const char *text, size_t n_points) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process rec = process_of(text, HEGETCL_ENGINE_RECURSIVE);
  const unsigned n = hegetcl_process_particles(&rec);
  double *momenta = qcd_points_of(&rec, n_points, 41);
  double *physical = evaluate(&rec, n_points, momenta, NULL);
  /* gauge: the first incoming and the last outgoing gluon's polarisation -> p / E */
  const int gauge[2] = {0, (int)n - 1};
  for (int k = 0; k < 2; ++k) {
    hegetcl_amplitude *amp = NULL;
    TS_ASSERT_OK(ctx, hg_amplitude_create_gauge_check(ctx, &rec, gauge[k], &amp));
    double *me = calloc(n_points, sizeof *me);
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n_points, momenta, me));
    for (size_t e = 0; e < n_points; ++e)
      if (!(fabs(me[e]) <= 1e-20 * physical[e]))
        fail_msg("%s, gluon %d's polarisation -> p/E, point %zu on %s: %.3e against %.3e", text,
                 gauge[k], e, ts_device_name(ctx), me[e], physical[e]);
    free(me);
    hegetcl_amplitude_destroy(amp);
  }
  /* Bose: the incoming gluons exchanged, then the last two outgoing gluons */
  const unsigned pairs[2][2] = {{0, 1}, {n - 2, n - 1}};
  for (int k = 0; k < 2; ++k) {
    double *swapped = malloc(4 * n * n_points * sizeof *swapped);
    memcpy(swapped, momenta, 4 * n * n_points * sizeof *swapped);
    for (size_t e = 0; e < n_points; ++e)
      for (unsigned mu = 0; mu < 4; ++mu) {
        double *x = &swapped[(mu * n + pairs[k][0]) * n_points + e];
        double *y = &swapped[(mu * n + pairs[k][1]) * n_points + e];
        const double t = *x;
        *x = *y;
        *y = t;
      }
    double *me = evaluate(&rec, n_points, swapped, NULL);
    for (size_t e = 0; e < n_points; ++e)
      if (!(ts_rel_diff(me[e], physical[e]) <= 1e-12))
        fail_msg("%s, particles %u and %u exchanged, point %zu on %s: %.17g against %.17g", text,
                 pairs[k][0], pairs[k][1], e, ts_device_name(ctx), me[e], physical[e]);
    free(me);
    free(swapped);
  }
  /* Lorentz: a boost of speed 0.6 along a random direction (tops with Gamma = 0) */
  uint64_t rng = 7;
  double *moved = malloc(4 * n * n_points * sizeof *moved);
  for (size_t e = 0; e < n_points; ++e) {
    const double ct = 2 * ts_uniform(&rng) - 1, phi = 6.283185307179586 * ts_uniform(&rng);
    const double b[3] = {0.6 * sqrt(1 - ct * ct) * cos(phi), 0.6 * sqrt(1 - ct * ct) * sin(phi),
                         0.6 * ct};
    const double gamma = 1 / sqrt(1 - 0.36);
    for (unsigned i = 0; i < n; ++i) {
      double v[4];
      for (unsigned mu = 0; mu < 4; ++mu) v[mu] = momenta[(mu * n + i) * n_points + e];
      const double bp = b[0] * v[1] + b[1] * v[2] + b[2] * v[3];
      moved[(0 * n + i) * n_points + e] = gamma * (v[0] + bp);
      for (unsigned k = 0; k < 3; ++k)
        moved[((k + 1) * n + i) * n_points + e] =
            v[k + 1] + ((gamma - 1) * bp / 0.36 + gamma * v[0]) * b[k];
    }
  }
  double *me = evaluate(&rec, n_points, moved, NULL);
  for (size_t e = 0; e < n_points; ++e)
    if (!(ts_rel_diff(me[e], physical[e]) <= 1e-11))
      fail_msg("%s, boosted point %zu on %s: %.17g against %.17g", text, e, ts_device_name(ctx),
               me[e], physical[e]);
  free(me);
  free(moved);
  free(physical);
  free(momenta);
}

static void gauge_bose_and_lorentz_invariance_of_large_processes(void **state) {
  (void)state;
  check_symmetries("g g > g g g g g", 2);
  check_symmetries("g g > t t~ g g g", 2);
  if (ts_exhaustive()) {
    check_symmetries("g g > g g g g g g", 1);
    check_symmetries("g g > t t~ g g g g", 1);
  }
}

/* Every MHV and anti-MHV configuration of n gluons (a few at n = 8, whose closed-form colour
 * sum runs over 5040^2 pairs) at one point: per-helicity |M|^2 times IDEN equals Parke-Taylor's
 * colour sum to 1e-11. */
static void check_parke_taylor(unsigned n, unsigned max_configs) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  static const char *const texts[] = {"",
                                      "",
                                      "",
                                      "",
                                      "g g > g g",
                                      "g g > g g g",
                                      "g g > g g g g",
                                      "g g > g g g g g",
                                      "g g > g g g g g g"};
  const hegetcl_process rec = process_of(texts[n], HEGETCL_ENGINE_RECURSIVE);
  double *momenta = qcd_points_of(&rec, 1, 53 + n);
  double q[HG_CLOSED_GLUONS_MAX][4];
  for (unsigned i = 0; i < n; ++i)
    for (unsigned mu = 0; mu < 4; ++mu) q[i][mu] = momenta[mu * n + i];
  double iden = 4 * 64;
  for (unsigned k = 2; k <= n - 2; ++k) iden *= k;
  uint32_t configs[256];
  double expected[256];
  unsigned count = 0;
  for (uint32_t h = 0; h < 1u << n && count < max_configs; ++h) {
    const double value = hg_closed_mhv_gluons(n, q, h, 2 * sqrt(3.14159265358979323846 * 0.118));
    if (value == HG_CLOSED_NMHV || value <= 0) continue;
    configs[count] = h;
    expected[count++] = value / iden;
  }
  assert_true(count > 0);
  double *many = repeat(momenta, n, 1, count);
  double *me = evaluate(&rec, count, many, configs);
  /* 1e-11, or 1e-14 of the largest configuration for one far below it (qcd_closed_forms.c) */
  double largest = 0;
  for (unsigned k = 0; k < count; ++k) largest = expected[k] > largest ? expected[k] : largest;
  for (unsigned k = 0; k < count; ++k)
    if (!(ts_rel_diff(me[k], expected[k]) <= 1e-11 ||
          fabs(me[k] - expected[k]) <= 1e-14 * largest))
      fail_msg("%u gluons, configuration %u on %s: recursive %.17g, Parke-Taylor %.17g", n,
               configs[k], ts_device_name(ctx), me[k], expected[k]);
  printf("# %u gluons: %u MHV configurations equal Parke-Taylor\n", n, count);
  free(me);
  free(many);
  free(momenta);
}

static void mhv_configurations_equal_parke_taylor(void **state) {
  (void)state;
  for (unsigned n = 4; n <= 7; ++n) check_parke_taylor(n, 256);
  if (ts_exhaustive()) check_parke_taylor(8, 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(recursive_equals_diagrams),
      cmocka_unit_test(the_helicity_filter_drops_only_vanishing_configurations),
      cmocka_unit_test(gauge_bose_and_lorentz_invariance_of_large_processes),
      cmocka_unit_test(mhv_configurations_equal_parke_taylor),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
