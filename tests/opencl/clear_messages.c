/* SPDX-License-Identifier: MIT */
/* Bad requests get errors that name the problem and the fix; a failed build shows the compiler
 * log naming the real cl/ file; sources read from HEGETCL_CL_DIR give the embedded results; cross
 * sections refuse, before any build, cuts no event passes, a PDF grid that does not cover them and
 * a batch the device cannot hold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
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
  if (message == NULL) fail_msg("no message where '%s' was expected", part);
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

static void auto_says_when_it_found_no_gpu(void **state) {
  (void)state;
  hegetcl_context *chosen = NULL;
  hegetcl_device_info info;
  TS_ASSERT_OK(chosen, hegetcl_context_create("auto", &chosen));
  TS_ASSERT_OK(chosen, hegetcl_context_device(chosen, &info));
  /* auto takes a GPU when there is one: a device that is not one means there was none */
  assert_int_equal(info.auto_without_gpu, !info.is_gpu);
  if (info.max_buffer_bytes == 0 || info.max_buffer_bytes > info.global_memory_bytes)
    fail_msg("%s: largest buffer %llu bytes of %llu", info.name, info.max_buffer_bytes,
             info.global_memory_bytes);
  hegetcl_context_destroy(chosen);
  chosen = NULL;
  /* by its place (P:D): "gpu" names no single device on a node of several GPUs */
  char spec[32];
  snprintf(spec, sizeof spec, "%u:%u", info.platform_index, info.device_index);
  TS_ASSERT_OK(chosen, hegetcl_context_create(spec, &chosen));
  TS_ASSERT_OK(chosen, hegetcl_context_device(chosen, &info));
  assert_int_equal(info.auto_without_gpu, 0); /* asked for by type: nothing to say */
  hegetcl_context_destroy(chosen);
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
  assert_message_has(hegetcl_last_error(ctx),
                     "recursive engine takes up to 12 (--engine recursive)");
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
  /* more events at once than one buffer of the device holds: refused before asking for it */
  hegetcl_device_info info;
  TS_ASSERT_OK(ctx, hegetcl_context_device(ctx, &info));
  const size_t per_event = 4 * 4 * sizeof(float),
               fits = (size_t)(info.max_buffer_bytes / per_event);
  assert_int_equal(hg_amplitude_reserve(amp, fits + 1), HEGETCL_ERR_DEVICE_MEMORY);
  assert_message_has(hegetcl_last_error(ctx), "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  char most[64];
  snprintf(most, sizeof most, "pass at most %zu events per call", fits);
  assert_message_has(hegetcl_last_error(ctx), most);
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

/* Options added through HEGETCL_CL_OPTIONS that break the build: the message says so first. */
static void a_build_broken_by_extra_options_names_them_and_has_the_log(void **state) {
  (void)state;
  setenv("HEGETCL_CL_OPTIONS", "-D N_PHOTONS=x", 1);
  hegetcl_process process;
  hegetcl_process_defaults(&process, 2);
  process.precision = HEGETCL_PRECISION_FLOAT;
  process.engine = HEGETCL_ENGINE_PERMUTATION;
  hegetcl_amplitude *amp = NULL;
  const hegetcl_status status = hegetcl_amplitude_create(ctx, &process, &amp);
  unsetenv("HEGETCL_CL_OPTIONS");
  hegetcl_amplitude_destroy(amp);
  assert_int_equal(status, HEGETCL_ERR_PROGRAM_BUILD);
  const char *message = hegetcl_last_error(ctx);
  assert_message_has(message, "HEGETCL_CL_OPTIONS='-D N_PHOTONS=x' adds options to every build");
  assert_message_has(message, "compiler log:\n");
  assert_message_has(message, "N_PHOTONS");
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
  fake.message = NULL;
  assert_int_equal(hg_build_options(&fake, HEGETCL_PRECISION_FLOAT, 3, options, sizeof options),
                   HEGETCL_OK);
  assert_message_has(options, "-cl-single-precision-constant");
  /* a cross section samples in double even for float amplitudes: float is no fix there */
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 3);
  c.process.precision = HEGETCL_PRECISION_FLOAT;
  hegetcl_xsec_result r;
  assert_int_equal(hegetcl_xsec_run(&fake, &c, NULL, NULL, &r), HEGETCL_ERR_UNSUPPORTED);
  assert_message_has(fake.message, "A Device Without fp64 does not offer double precision "
                                   "(cl_khr_fp64), which the cross section's phase space, PDFs "
                                   "and sums need even with --precision float");
  assert_message_has(fake.message, "choose another --device");
  free(fake.message);
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

/* A cross-section configuration refused in its checks, before any program is built. */
static void assert_xsec_refused(const hegetcl_xsec_config *c, hegetcl_status expected,
                                const char *part) {
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, c, NULL, NULL, &r);
  if (status != expected || strstr(hegetcl_last_error(ctx), part) == NULL)
    fail_msg("%s instead of %s with '%s': %s", hegetcl_status_name(status),
             hegetcl_status_name(expected), part, hegetcl_last_error(ctx));
  hegetcl_xsec_result_free(&r);
}

static void cuts_no_event_passes_are_refused(void **state) {
  (void)state;
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 3);
  c.eta_max = 0.05; /* a ring of circumference 2 pi: two photons Delta R > 3 apart fit, three not */
  c.delta_r_min = 3.0;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "3 photons cannot all lie in |eta| < 0.05");
  hegetcl_xsec_defaults(&c, 4);
  c.delta_r_min = 3.5; /* beyond pi every pair needs Delta eta > 1.54: four need 4.6 > 2 * 2 */
  c.eta_max = 2.0;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "4 photons cannot all lie in |eta| < 2");
  /* the same cuts with room for the photons pass these checks (the scale's is the next one) */
  c.eta_max = 2.5;
  c.mu_f_gev = -1.0;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "scale = -1 GeV (the factorisation scale)");
  hegetcl_xsec_defaults(&c, 3);
  c.sqrt_s_gev = 50.0;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "raise --sqrt-s, or lower --pt-min or --n");
  hegetcl_xsec_defaults(&c, 3);
  c.delta_r_min = -0.4;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "dr-min = -0.4 (the photon pair Delta R cut)");
  hegetcl_xsec_defaults(&c, 1);
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "n = 1 photons: the cross section supports 2..12");
}

/* The sampler drops points outside the PDF grid, so a grid that misses the cuts is refused. */
static void a_pdf_grid_that_misses_the_cuts_is_refused(void **state) {
  (void)state;
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  c.mu_f_gev = 1.0; /* cteq6l1's Q knots span 1.3 to 10000 GeV */
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT,
                      "scale = 1 GeV lies outside PDF set cteq6l1's grid, which spans Q = 1.3 to "
                      "10000 GeV");
  c.mu_f_gev = 2e4;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "give a --scale inside the grid");
  hegetcl_xsec_defaults(&c, 2);
  c.sqrt_s_gev = 1e6; /* x >= 2 * 1 GeV * e^-5 / 1e6 GeV = 1.35e-8, below x = 1e-6 */
  c.pt_min_gev = 1.0;
  c.eta_max = 5.0;
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT,
                      "the cuts reach x = 1.35e-08 (n * pt-min * e^-eta-max / sqrt-s = 2 * 1 GeV "
                      "* e^-5 / 1e+06 GeV), below PDF set cteq6l1's grid, which starts at x = "
                      "1e-06");
  c.eta_max = 2.5; /* x >= 1.64e-7: still below */
  assert_xsec_refused(&c, HEGETCL_ERR_INPUT, "raise --pt-min, lower --eta-max or --sqrt-s");
}

/* A batch whose buffers the device cannot hold is refused before any is allocated, naming the
 * largest power-of-two batch that fits. */
static void a_batch_the_device_cannot_hold_is_refused(void **state) {
  (void)state;
  hegetcl_device_info info;
  TS_ASSERT_OK(ctx, hegetcl_context_device(ctx, &info));
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 12); /* 4 * 14 doubles = 448 bytes of momenta an event */
  c.vegas.batch_size = 2147483647;
  if ((double)c.vegas.batch_size * 448.0 <= (double)info.max_buffer_bytes)
    skip(); /* a device with buffers over 896 GiB */
  assert_xsec_refused(&c, HEGETCL_ERR_DEVICE_MEMORY,
                      "batch = 2147483647 events per launch: the momenta alone would take 896 GiB "
                      "(448 bytes an event)");
  assert_message_has(hegetcl_last_error(ctx), "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  size_t fits = 128;
  while (2 * fits * 448 <= info.max_buffer_bytes) fits *= 2;
  char fix[64];
  snprintf(fix, sizeof fix, "use --batch %zu or less", fits);
  assert_message_has(hegetcl_last_error(ctx), fix);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(an_unknown_device_lists_the_devices_found),
      cmocka_unit_test(auto_says_when_it_found_no_gpu),
      cmocka_unit_test(photon_counts_outside_an_engine_are_refused),
      cmocka_unit_test(bad_batches_and_helicities_are_refused),
      cmocka_unit_test(a_failed_build_shows_the_log_naming_the_file),
      cmocka_unit_test(a_build_broken_by_extra_options_names_them_and_has_the_log),
      cmocka_unit_test(double_without_fp64_names_the_fix),
      cmocka_unit_test(cuts_no_event_passes_are_refused),
      cmocka_unit_test(a_pdf_grid_that_misses_the_cuts_is_refused),
      cmocka_unit_test(a_batch_the_device_cannot_hold_is_refused),
      cmocka_unit_test(sources_from_the_cl_folder_give_the_embedded_results),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
