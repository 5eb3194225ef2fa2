/* SPDX-License-Identifier: MIT */
/* Every process of ../shared/refs/mg5-next (MadGraph5_aMC@NLO 3.5.7, model sm restrict_default)
 * through the diagrams engine, and the recursive engine (the colour-ordered kernels or the
 * quark-line recursion with its colourless bosons) where it takes the process: |M|^2
 * equals MadGraph's to 1e-12 relative in double and 1e-4 in float. The electroweak processes
 * (e+ e- > mu+ mu-, Drell-Yan and W + jets, g g > t t~ h, u u~ > a g g), their resonance-region
 * points, and the QCD processes, which MadGraph computes at the lowest WEIGHTED order: the
 * model's electroweak vertices must not add photon, Z or W exchange to them. */
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

/* Compares the process with file (in HEGETCL_NEXT_REFS_DIR); top_width < 0 keeps the default. */
static void check(const char *text, const char *file, hegetcl_width_scheme scheme, double top_width,
                  hegetcl_precision precision, hegetcl_engine engine) {
  ts_skip_without_fp64(ctx, precision);
  if (precision == HEGETCL_PRECISION_DOUBLE && !ts_has_fp64(ctx)) return;
  const double tolerance = precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
  const char *dir = getenv("HEGETCL_NEXT_REFS_DIR");
  char path[1024], message[1024];
  snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "../shared/refs/mg5-next", file);
  hg_mg5_points points;
  if (hg_mg5_points_read(path, &points, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  hegetcl_process process;
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  process.precision = precision;
  process.width_scheme = scheme;
  process.engine = engine;
  if (top_width >= 0) process.top_width = top_width;
  assert_int_equal(hegetcl_process_particles(&process), points.n_particles);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *me = calloc(points.n_points, sizeof *me);
  double *me_double = calloc(points.n_points, sizeof *me_double);
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
  double worst = 0;
  for (size_t e = 0; e < points.n_points; ++e) {
    const double rel = ts_rel_diff(me[e], points.me[e]);
    /* as qcd_agreement_with_madgraph: where diagrams cancel, double shows it first (its own
     * difference d is ~1e-16 times the cancellation), which float multiplies by 6e-8 instead:
     * a point's float tolerance is max(1e-4, 1e10 d) */
    const double cancellation = precision == HEGETCL_PRECISION_FLOAT && me_double[e] != 0
                                    ? 1e10 * ts_rel_diff(me_double[e], points.me[e])
                                    : 0;
    const double tolerance_here = tolerance > cancellation ? tolerance : cancellation;
    if (!(rel <= tolerance_here))
      fail_msg("%s (%s engine, %s) on %s, %s point %zu: hegetcl %.17g, MadGraph %.17g, ratio "
               "%.17g (tolerance %g)",
               text, hegetcl_engine_name(engine), hegetcl_precision_name(precision),
               ts_device_name(ctx), file, e + 1, me[e], points.me[e], me[e] / points.me[e],
               tolerance_here);
    if (rel > worst) worst = rel;
  }
  printf("# %-18s %-22s %-9s %-6s largest relative difference %.2e\n", text, file,
         hegetcl_engine_name(engine), hegetcl_precision_name(precision), worst);
  free(me);
  free(me_double);
  hegetcl_amplitude_destroy(amp);
  hg_mg5_points_free(&points);
}

#define CASE_ENGINE(name, text, file, scheme, top_width, engine)                                   \
  static void name##_double(void **state) {                                                        \
    (void)state;                                                                                   \
    check(text, file, scheme, top_width, HEGETCL_PRECISION_DOUBLE, engine);                        \
  }                                                                                                \
  static void name##_float(void **state) {                                                         \
    (void)state;                                                                                   \
    check(text, file, scheme, top_width, HEGETCL_PRECISION_FLOAT, engine);                         \
  }
/* each file through both engines: name (diagrams) and name##_rec (recursive) */
#define CASE2(name, text, file, scheme, top_width)                                                 \
  CASE_ENGINE(name, text, file, scheme, top_width, HEGETCL_ENGINE_DIAGRAMS)                        \
  CASE_ENGINE(name##_rec, text, file, scheme, top_width, HEGETCL_ENGINE_RECURSIVE)
#define CASE(name, text, file) CASE2(name, text, file, HEGETCL_WIDTH_RESONANT, -1)
#define R HEGETCL_WIDTH_RESONANT
#define ALL HEGETCL_WIDTH_ALL
#define DIAGRAMS HEGETCL_ENGINE_DIAGRAMS

CASE(epem_mupmum, "e+ e- > mu+ mu-", "me_epem_mupmum.txt")
CASE(epem_mupmum_res, "e+ e- > mu+ mu-", "me_epem_mupmum_res.txt")
CASE(uux_epemg, "u u~ > e+ e- g", "me_uux_epemg.txt")
CASE(uux_epemg_res, "u u~ > e+ e- g", "me_uux_epemg_res.txt")
CASE(uux_epemgg, "u u~ > e+ e- g g", "me_uux_epemgg.txt")
CASE(uux_epemgg_res, "u u~ > e+ e- g g", "me_uux_epemgg_res.txt")
CASE(udx_epvegg, "u d~ > e+ ve g g", "me_udx_epvegg.txt")
CASE(udx_epvegg_res, "u d~ > e+ ve g g", "me_udx_epvegg_res.txt")
CASE(uux_agg, "u u~ > a g g", "me_uux_agg.txt")
/* the top width in every top propagator, as MadGraph's standalone output; and Gamma_t = 0 */
CASE2(gg_ttxh, "g g > t t~ h", "me_gg_ttxh.txt", ALL, -1)
CASE2(gg_ttxh_wt0, "g g > t t~ h", "me_gg_ttxh_WT0.txt", R, 0)
CASE2(gu_ttxu, "g u > t t~ u", "me_gu_ttxu.txt", ALL, -1)
CASE2(gu_ttxu_wt0, "g u > t t~ u", "me_gu_ttxu_WT0.txt", R, 0)
/* QCD at the lowest WEIGHTED order */
CASE(uu_uug, "u u > u u g", "me_uu_uug.txt")
CASE(ud_udg, "u d > u d g", "me_ud_udg.txt")
CASE(uux_uuxg, "u u~ > u u~ g", "me_uux_uuxg.txt")
CASE(gu_gug, "g u > g u g", "me_gu_gug.txt")
CASE(uux_ddxgg, "u u~ > d d~ g g", "me_uux_ddxgg.txt")

#define BOTH(name) cmocka_unit_test(name##_double), cmocka_unit_test(name##_float)
#define DOUBLE(name) cmocka_unit_test(name##_double)
#define BOTH2(name) BOTH(name), BOTH(name##_rec)

int main(void) {
  /* the default run (PoCL builds each program in a second or two): one file of each kind, the
   * done-when process u d~ > e+ ve g g in both precisions and both engines, a QCD file with the
   * electroweak vertices present; the exhaustive run (HEGETCL_TEST_EXHAUSTIVE=1) every file in
   * both precisions and both engines */
  const struct CMUnitTest tests[] = {
      BOTH(epem_mupmum),      DOUBLE(uux_epemg_res), DOUBLE(uux_epemgg_rec),  BOTH2(udx_epvegg),
      DOUBLE(udx_epvegg_res), DOUBLE(gg_ttxh_wt0),   DOUBLE(gg_ttxh_wt0_rec), DOUBLE(uux_agg),
      DOUBLE(uux_agg_rec),    DOUBLE(uu_uug),
  };
  const struct CMUnitTest exhaustive[] = {
      BOTH2(epem_mupmum), BOTH2(epem_mupmum_res), BOTH2(uux_epemg),   BOTH2(uux_epemg_res),
      BOTH2(uux_epemgg),  BOTH2(uux_epemgg_res),  BOTH2(udx_epvegg),  BOTH2(udx_epvegg_res),
      BOTH2(uux_agg),     BOTH2(gg_ttxh),         BOTH2(gg_ttxh_wt0), BOTH2(gu_ttxu),
      BOTH2(gu_ttxu_wt0), BOTH2(uu_uug),          BOTH2(ud_udg),      BOTH2(uux_uuxg),
      BOTH2(gu_gug),      BOTH2(uux_ddxgg),
  };
  const char *ex = getenv("HEGETCL_TEST_EXHAUSTIVE");
  if (ex != NULL && strcmp(ex, "1") == 0)
    return cmocka_run_group_tests(exhaustive, setup, teardown);
  return cmocka_run_group_tests(tests, setup, teardown);
}
