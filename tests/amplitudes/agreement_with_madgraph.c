/* SPDX-License-Identifier: MIT */
/* Every engine reproduces MadGraph5_aMC@NLO's helicity-summed |M|^2 (../shared/refs/mg5, n = 2..6)
 * to 1e-10 relative in double and 1e-4 in float. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

static void check(unsigned n, hegetcl_precision precision) {
  if (precision == HEGETCL_PRECISION_DOUBLE && !ts_has_fp64(ctx)) {
    skip();
    return;
  }
  /* double: rounding over n! diagrams of O(1) terms; float: 24-bit rounding, same sum */
  const double tolerance = precision == HEGETCL_PRECISION_DOUBLE ? 1e-10 : 1e-4;
  char path[1024], message[1024];
  hg_mg5_points points;
  const hegetcl_status read = hg_mg5_points_read(ts_refs_path(n, path, sizeof path), &points,
                                                 message, sizeof message);
  if (read != HEGETCL_OK) fail_msg("%s", message);
  assert_int_equal(points.n_photons, n);
  double *me = calloc(points.n_points, sizeof *me);
  for (int engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    hegetcl_process process;
    hegetcl_process_defaults(&process, n);
    process.engine = (hegetcl_engine)engine;
    process.precision = precision;
    hegetcl_amplitude *amp = NULL;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
    for (size_t e = 0; e < points.n_points; ++e) me[e] = -1; /* poison */
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, points.n_points, points.momenta, me));
    for (size_t e = 0; e < points.n_points; ++e) {
      const double rel = ts_rel_diff(me[e], points.me[e]);
      if (!(rel <= tolerance))
        fail_msg("n=%u %s %s on %s, point %zu: hegetcl %.17g, MadGraph %.17g, ratio %.17g "
                 "(tolerance %g)",
                 n, hegetcl_engine_name(process.engine), hegetcl_precision_name(precision),
                 ts_device_name(ctx), e + 1, me[e], points.me[e], me[e] / points.me[e],
                 tolerance);
    }
    hegetcl_amplitude_destroy(amp);
  }
  free(me);
  hg_mg5_points_free(&points);
}

#define CASE(n, p, P)                                                                              \
  static void every_engine_matches_madgraph_n##n##_##p(void **state) {                            \
    (void)state;                                                                                   \
    check(n, P);                                                                                   \
  }
CASE(2, double, HEGETCL_PRECISION_DOUBLE)
CASE(3, double, HEGETCL_PRECISION_DOUBLE)
CASE(4, double, HEGETCL_PRECISION_DOUBLE)
CASE(5, double, HEGETCL_PRECISION_DOUBLE)
CASE(6, double, HEGETCL_PRECISION_DOUBLE)
CASE(2, float, HEGETCL_PRECISION_FLOAT)
CASE(3, float, HEGETCL_PRECISION_FLOAT)
CASE(4, float, HEGETCL_PRECISION_FLOAT)
CASE(5, float, HEGETCL_PRECISION_FLOAT)
CASE(6, float, HEGETCL_PRECISION_FLOAT)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_engine_matches_madgraph_n2_double),
      cmocka_unit_test(every_engine_matches_madgraph_n3_double),
      cmocka_unit_test(every_engine_matches_madgraph_n4_double),
      cmocka_unit_test(every_engine_matches_madgraph_n5_double),
      cmocka_unit_test(every_engine_matches_madgraph_n6_double),
      cmocka_unit_test(every_engine_matches_madgraph_n2_float),
      cmocka_unit_test(every_engine_matches_madgraph_n3_float),
      cmocka_unit_test(every_engine_matches_madgraph_n4_float),
      cmocka_unit_test(every_engine_matches_madgraph_n5_float),
      cmocka_unit_test(every_engine_matches_madgraph_n6_float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
