/* SPDX-License-Identifier: MIT */
/* Every QCD process of ../shared/refs/mg5-qcd through the diagrams engine and, where it takes
 * the process, the recursive colour engine: |M|^2 equals
 * MadGraph5_aMC@NLO's to 1e-12 relative in double (Gamma_t = 0 files with the default, resonant
 * width scheme; the default-width files with MadGraph's scheme, every top propagator) and 1e-4
 * in float. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/mg5_points.h"
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

/* Compares the process with file (in HEGETCL_QCD_REFS_DIR); width_all for MadGraph's scheme. */
static void check(const char *text, const char *file, hegetcl_width_scheme scheme,
                  hegetcl_precision precision, hegetcl_engine engine) {
  ts_skip_without_fp64(ctx, precision);

  if (precision == HEGETCL_PRECISION_DOUBLE && !ts_has_fp64(ctx)) return;
  /* double: rounding over up to a few thousand diagrams and the colour sum of O(1) terms; float:
   * 24-bit rounding through the same sums, 1e-4 where the diagrams do not cancel. Where they do,
   * double shows it first: its own difference to MadGraph, d, is ~1e-16 times the cancellation
   * factor, which float multiplies by 6e-8 instead, so a point's float tolerance is
   * max(1e-4, 1e10 d) (g g > g g g g, point 2: d = 2e-13, float 1.8e-4 off) */
  const double tolerance = precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
  const char *dir = getenv("HEGETCL_QCD_REFS_DIR");
  char path[1024], message[1024];
  snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "../shared/refs/mg5-qcd", file);
  hg_mg5_points points;
  if (hg_mg5_points_read(path, &points, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  hegetcl_process process;
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  process.precision = precision;
  process.width_scheme = scheme;
  process.engine = engine;
  assert_int_equal(hegetcl_process_particles(&process), points.n_particles);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *me = calloc(points.n_points, sizeof *me), *me_double = calloc(points.n_points, sizeof *me);
  for (size_t e = 0; e < points.n_points; ++e) me[e] = -1; /* poison */
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, points.n_points, points.momenta, me));
  if (precision == HEGETCL_PRECISION_FLOAT && ts_has_fp64(ctx)) {
    hegetcl_process in_double = process;
    in_double.precision = HEGETCL_PRECISION_DOUBLE;
    hegetcl_amplitude *twin = NULL;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &in_double, &twin));
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(twin, points.n_points, points.momenta, me_double));
    hegetcl_amplitude_destroy(twin);
  }
  for (size_t e = 0; e < points.n_points; ++e) {
    const double rel = ts_rel_diff(me[e], points.me[e]);
    const double cancellation = precision == HEGETCL_PRECISION_FLOAT && me_double[e] != 0
                                    ? 1e10 * ts_rel_diff(me_double[e], points.me[e])
                                    : 0;
    const double tolerance_here = tolerance > cancellation ? tolerance : cancellation;
    if (!(rel <= tolerance_here))
      fail_msg("%s (%s engine, %s, %s width scheme) on %s, point %zu: hegetcl %.17g, MadGraph "
               "%.17g, ratio %.17g (tolerance %g)",
               text, hegetcl_engine_name(engine), hegetcl_precision_name(precision),
               scheme == HEGETCL_WIDTH_ALL ? "MadGraph's" : "resonant", ts_device_name(ctx), e + 1,
               me[e], points.me[e], me[e] / points.me[e], tolerance_here);
  }
  free(me);
  free(me_double);
  hegetcl_amplitude_destroy(amp);
  hg_mg5_points_free(&points);
}

#define CASE_ENGINE(name, text, file, scheme, engine)                                              \
  static void name##_matches_madgraph_double(void **state) {                                      \
    (void)state;                                                                                   \
    check(text, file, scheme, HEGETCL_PRECISION_DOUBLE, engine);                                   \
  }                                                                                                \
  static void name##_matches_madgraph_float(void **state) {                                       \
    (void)state;                                                                                   \
    check(text, file, scheme, HEGETCL_PRECISION_FLOAT, engine);                                    \
  }
/* name: the diagrams engine; name_rec: the recursive colour engine */
#define CASE(name, text, file, scheme)                                                             \
  CASE_ENGINE(name, text, file, scheme, HEGETCL_ENGINE_DIAGRAMS)                                   \
  CASE_ENGINE(name##_rec, text, file, scheme, HEGETCL_ENGINE_RECURSIVE)
CASE(gg_ttx, "g g > t t~", "me_gg_ttx_WT0.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_ttxg, "g g > t t~ g", "me_gg_ttxg_WT0.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_ttxgg, "g g > t t~ g g", "me_gg_ttxgg_WT0.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_ttxggg, "g g > t t~ g g g", "me_gg_ttxggg_WT0.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_ttx_width, "g g > t t~", "me_gg_ttx.txt", HEGETCL_WIDTH_ALL)
CASE(gg_ttxg_width, "g g > t t~ g", "me_gg_ttxg.txt", HEGETCL_WIDTH_ALL)
CASE(gg_ttxgg_width, "g g > t t~ g g", "me_gg_ttxgg.txt", HEGETCL_WIDTH_ALL)
CASE(gg_ttxggg_width, "g g > t t~ g g g", "me_gg_ttxggg.txt", HEGETCL_WIDTH_ALL)
CASE(uux_ttx, "u u~ > t t~", "me_uux_ttx.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_gg, "g g > g g", "me_gg_gg.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_ggg, "g g > g g g", "me_gg_ggg.txt", HEGETCL_WIDTH_RESONANT)
CASE(gg_gggg, "g g > g g g g", "me_gg_gggg.txt", HEGETCL_WIDTH_RESONANT)
CASE(uux_gg, "u u~ > g g", "me_uux_gg.txt", HEGETCL_WIDTH_RESONANT)
CASE(uux_ggg, "u u~ > g g g", "me_uux_ggg.txt", HEGETCL_WIDTH_RESONANT)
CASE(uux_ddxg, "u u~ > d d~ g", "me_uux_ddxg.txt", HEGETCL_WIDTH_RESONANT)

#define BOTH(name)                                                                                 \
  cmocka_unit_test(name##_matches_madgraph_double), cmocka_unit_test(name##_matches_madgraph_float)

int main(void) {
  /* the default run (meant for minutes on 2 cores): every process through the recursive colour
   * engine where it takes it (each program builds in about a second), and the diagrams engine
   * for a few processes whose programs PoCL builds in seconds; the exhaustive suite
   * (HEGETCL_TEST_EXHAUSTIVE=1) adds the diagrams engine's g g > t t~ g g and g g > g g g g
   * (minutes each) */
  const struct CMUnitTest tests[] = {
      BOTH(gg_ttx_rec),   BOTH(gg_ttxg_rec),       BOTH(gg_ttxgg_rec),   BOTH(gg_ttxggg_rec),
      BOTH(gg_ttx_width_rec), BOTH(gg_ttxg_width_rec), BOTH(gg_ttxgg_width_rec),
      BOTH(gg_ttxggg_width_rec), BOTH(gg_gg_rec),  BOTH(gg_ggg_rec),     BOTH(gg_gggg_rec),
      BOTH(uux_gg_rec),   BOTH(uux_ggg_rec),      BOTH(uux_ttx_rec),    BOTH(uux_ddxg_rec),
      /* the diagrams engine: the processes only it takes, and one of each kind (a top line
       * with each width scheme, gluons only); recursive_colour.c checks it equals the recursive
       * engine per helicity configuration for the others, the exhaustive run against MadGraph */
      BOTH(gg_ttxg), BOTH(gg_ttx_width), BOTH(uux_ttx), BOTH(gg_ggg), BOTH(uux_ddxg),
  };
  const struct CMUnitTest exhaustive[] = {
      BOTH(gg_ttx_rec),   BOTH(gg_ttxg_rec),       BOTH(gg_ttxgg_rec),   BOTH(gg_ttxggg_rec),
      BOTH(gg_ttx_width_rec), BOTH(gg_ttxg_width_rec), BOTH(gg_ttxgg_width_rec),
      BOTH(gg_ttxggg_width_rec), BOTH(gg_gg_rec),  BOTH(gg_ggg_rec),     BOTH(gg_gggg_rec),
      BOTH(uux_gg_rec),   BOTH(uux_ggg_rec),      BOTH(uux_ttx_rec),    BOTH(uux_ddxg_rec),
      BOTH(gg_ttx),  BOTH(gg_ttxg), BOTH(gg_ttxgg), BOTH(gg_ttx_width), BOTH(gg_ttxg_width),
      BOTH(gg_ttxgg_width), BOTH(uux_ttx), BOTH(gg_gg), BOTH(gg_ggg), BOTH(gg_gggg),
      BOTH(uux_gg),  BOTH(uux_ggg), BOTH(uux_ddxg),
  };
  /* g g > t t~ g g g through the diagrams engine (1890 diagrams): its four programs take PoCL 27
   * minutes and NVIDIA's compiler longer, so the suite large (HEGETCL_TEST_LARGE=1, run by hand:
   * docs/user-guide.md, "Processes and engines") checks it alone */
  const struct CMUnitTest large[] = {BOTH(gg_ttxggg), BOTH(gg_ttxggg_width)};
  const char *only_large = getenv("HEGETCL_TEST_LARGE");
  if (only_large != NULL && strcmp(only_large, "1") == 0)
    return cmocka_run_group_tests(large, setup, teardown);
  const char *all = getenv("HEGETCL_TEST_EXHAUSTIVE");
  if (all != NULL && strcmp(all, "1") == 0)
    return cmocka_run_group_tests(exhaustive, setup, teardown);
  return cmocka_run_group_tests(tests, setup, teardown);
}
