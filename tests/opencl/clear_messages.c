/* SPDX-License-Identifier: MIT */
/* Bad requests get errors that name the problem and the fix; a failed build shows the compiler
 * log naming the real cl/ file; sources read from HEGETCL_CL_DIR give the embedded results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
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

static void assert_message_has(const char *message, const char *part) {
  if (strstr(message, part) == NULL) fail_msg("message lacks '%s': %s", part, message);
}

static void an_unknown_device_lists_the_devices_found(void **state) {
  (void)state;
  hegetcl_context *bad = NULL;
  assert_int_equal(hegetcl_context_create("no-such-device-xyz", &bad), HEGETCL_ERR_NO_DEVICE);
  assert_message_has(hegetcl_last_error(bad), "'no-such-device-xyz' matches no OpenCL device");
  assert_message_has(hegetcl_last_error(bad), "0:0");
  hegetcl_context_destroy(bad);
  bad = NULL;
  assert_int_equal(hegetcl_context_create("7:3", &bad), HEGETCL_ERR_NO_DEVICE);
  assert_message_has(hegetcl_last_error(bad), "there is no platform 7 device 3");
  hegetcl_context_destroy(bad);
}

static void photon_counts_outside_an_engine_are_refused(void **state) {
  (void)state;
  hegetcl_process process;
  hegetcl_amplitude *amp = NULL;
  hegetcl_process_defaults(&process, 9);
  process.engine = HEGETCL_ENGINE_PERMUTATION;
  process.precision = HEGETCL_PRECISION_FLOAT;
  assert_int_equal(hegetcl_amplitude_create(ctx, &process, &amp), HEGETCL_ERR_INPUT);
  assert_null(amp);
  assert_message_has(hegetcl_last_error(ctx), "n_photons = 9: the permutation engine takes 2 to 8");
  assert_message_has(hegetcl_last_error(ctx), "recursive engine takes up to 12");
  hegetcl_process_defaults(&process, 13);
  assert_int_equal(hegetcl_amplitude_create(ctx, &process, &amp), HEGETCL_ERR_INPUT);
  hegetcl_process_defaults(&process, 1);
  assert_int_equal(hegetcl_amplitude_create(ctx, &process, &amp), HEGETCL_ERR_INPUT);
  hegetcl_process_defaults(&process, 3);
  process.alpha = -1;
  assert_int_equal(hegetcl_amplitude_create(ctx, &process, &amp), HEGETCL_ERR_INPUT);
  assert_message_has(hegetcl_last_error(ctx), "alpha = -1");
}

static void bad_batches_and_helicities_are_refused(void **state) {
  (void)state;
  hegetcl_process process;
  hegetcl_process_defaults(&process, 2);
  process.precision = HEGETCL_PRECISION_FLOAT;
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double momenta[16] = {0}, me[1];
  assert_int_equal(hegetcl_amplitude_evaluate(amp, 0, momenta, me), HEGETCL_ERR_INPUT);
  assert_message_has(hegetcl_last_error(ctx), "n_events = 0");
  const uint32_t helicity[1] = {16};
  assert_int_equal(hegetcl_amplitude_evaluate_helicity(amp, 1, momenta, helicity, me),
                   HEGETCL_ERR_INPUT);
  assert_message_has(hegetcl_last_error(ctx), "helicity[0] = 16");
  /* all-zero momenta put every propagator at p^2 = 0: reported, never passed on silently */
  assert_int_equal(hegetcl_amplitude_evaluate(amp, 1, momenta, me), HEGETCL_ERR_NONFINITE);
  assert_message_has(hegetcl_last_error(ctx), "non-finite");
  hegetcl_amplitude_destroy(amp);
}

static void a_failed_build_shows_the_log_naming_the_file(void **state) {
  (void)state;
  const hg_source_part parts[] = {{"amplitudes/kernels.cl", NULL}};
  cl_program program = NULL;
  /* no -D N_PHOTONS: engine_common.cl's #error must fire and be reported with its file */
  const hegetcl_status status =
      hg_program_get(ctx, parts, 1, "-cl-std=CL1.2 -D REAL=float -D REAL_IS_DOUBLE=0", &program,
                     NULL);
  assert_int_equal(status, HEGETCL_ERR_PROGRAM_BUILD);
  const char *message = hegetcl_last_error(ctx);
  assert_message_has(message, "clBuildProgram: CL_BUILD_PROGRAM_FAILURE");
  assert_message_has(message, "amplitudes/kernels.cl");
  assert_message_has(message, "-D REAL=float");
  assert_message_has(message, "cl/amplitudes/engine_common.cl");
  assert_message_has(message, "N_PHOTONS is undefined");
}

static void double_without_fp64_names_the_fix(void **state) {
  (void)state;
  hegetcl_context fake;
  memset(&fake, 0, sizeof fake);
  strcpy(fake.info.name, "A Device Without fp64");
  char options[256];
  assert_int_equal(hg_build_options(&fake, HEGETCL_PRECISION_DOUBLE, 3, options, sizeof options),
                   HEGETCL_ERR_UNSUPPORTED);
  assert_message_has(fake.message, "cl_khr_fp64");
  assert_message_has(fake.message, "--precision float");
  free(fake.message);
  assert_int_equal(hg_build_options(&fake, HEGETCL_PRECISION_FLOAT, 3, options, sizeof options),
                   HEGETCL_OK);
  assert_message_has(options, "-cl-single-precision-constant");
}

/* The same |M|^2 from sources read at run time (HEGETCL_CL_DIR) as from the embedded ones. */
static void sources_from_the_cl_folder_give_the_embedded_results(void **state) {
  (void)state;
  const char *dir = getenv("HEGETCL_CL_SOURCE_DIR");
  if (dir == NULL) fail_msg("HEGETCL_CL_SOURCE_DIR is not set (tests/meson.build sets it)");
  char path[1024], message[512];
  hg_mg5_points points;
  if (hg_mg5_points_read(ts_refs_path(3, path, sizeof path), &points, message, sizeof message) !=
      HEGETCL_OK)
    fail_msg("%s", message);
  double embedded[64], from_dir[64];
  hegetcl_process process;
  hegetcl_process_defaults(&process, 3);
  process.precision = HEGETCL_PRECISION_FLOAT;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) setenv("HEGETCL_CL_DIR", dir, 1);
    hegetcl_amplitude *amp = NULL;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
    if (pass == 1) assert_message_has(hegetcl_amplitude_build_options(amp), dir);
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, points.n_points, points.momenta,
                                                 pass ? from_dir : embedded));
    hegetcl_amplitude_destroy(amp);
  }
  unsetenv("HEGETCL_CL_DIR");
  for (size_t e = 0; e < points.n_points; ++e)
    if (embedded[e] != from_dir[e])
      fail_msg("point %zu: embedded %.9g, from %s %.9g", e, embedded[e], dir, from_dir[e]);
  hg_mg5_points_free(&points);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(an_unknown_device_lists_the_devices_found),
      cmocka_unit_test(photon_counts_outside_an_engine_are_refused),
      cmocka_unit_test(bad_batches_and_helicities_are_refused),
      cmocka_unit_test(a_failed_build_shows_the_log_naming_the_file),
      cmocka_unit_test(double_without_fp64_names_the_fix),
      cmocka_unit_test(sources_from_the_cl_folder_give_the_embedded_results),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
