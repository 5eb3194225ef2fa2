/* SPDX-License-Identifier: MIT */
/* p p > t t~ at 14 TeV (CTEQ6L1, MadGraph's alpha_s, fixed mu = 173 GeV, no cuts) against
 * MadEvent's cross section and subprocess groups in ../shared/refs/mg5-next/xsec.txt (and the same
 * with MadGraph's dynamical_scale_choice 3), within 3
 * combined standard deviations with a run of a few seconds; and the process runs' bad input,
 * each refused with a message before any integration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "test_support.h"

static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

/* The reference file's text (malloc'ed). */
static char *read_refs(void) {
  const char *dir = getenv("HEGETCL_REFS_NEXT_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/xsec.txt", dir ? dir : "../shared/refs/mg5-next");
  FILE *f = fopen(path, "rb");
  if (f == NULL) fail_msg("cannot read %s (HEGETCL_REFS_NEXT_DIR)", path);
  char *text = calloc(1, 1 << 20);
  const size_t n = fread(text, 1, (1 << 20) - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

/* MadEvent's recommended (combined) sigma and error in pb of run id ("B1a"). */
static void combined(const char *text, const char *id, double *sigma, double *error) {
  char key[64];
  snprintf(key, sizeof key, "\n%s ", id);
  for (const char *at = strstr(text, key); at != NULL; at = strstr(at + 1, key)) {
    const char *line_end = strchr(at + 1, '\n');
    const char *word = strstr(at, "combined");
    if (word != NULL && word < line_end && sscanf(word, "combined %lf %lf", sigma, error) == 2)
      return;
  }
  fail_msg("no 'combined' line for %s in xsec.txt", id);
}

/* Group `name`'s sigma and error in pb from the first "subprocess groups (50k run)" line after
 * the section header `section`. */
static void group(const char *text, const char *section, const char *name, double *sigma,
                  double *error) {
  const char *at = strstr(text, section);
  if (at != NULL) at = strstr(at, "subprocess groups (50k run)");
  if (at != NULL) at = strstr(at, name);
  if (at == NULL || sscanf(at + strlen(name), " %lf +- %lf", sigma, error) != 2)
    fail_msg("no group %s after %s in xsec.txt", name, section);
}

static hegetcl_xsec_config ttbar_config(void) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", "p p > t t~");
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.alpha_s_running = HEGETCL_ALPHA_S_MADGRAPH;
  c.vegas.adapt_iterations = 3;
  c.vegas.adapt_events = 40000;
  c.vegas.events_per_iteration = 150000;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 3;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 32768;
  c.vegas.seed = 7;
  return c;
}

static void check_pull(const char *what, double sigma_fb, double error_fb, double ref_pb,
                       double ref_error_pb) {
  const double combined_error = sqrt(error_fb * error_fb + 1e6 * ref_error_pb * ref_error_pb);
  const double pull = (sigma_fb - 1e3 * ref_pb) / combined_error;
  print_message("# %s: %.6f +- %.6f pb, MadEvent %.6f +- %.6f pb, pull %+.2f\n", what,
                sigma_fb * 1e-3, error_fb * 1e-3, ref_pb, ref_error_pb, pull);
  if (!(fabs(pull) < 3.0))
    fail_msg("%s: %.6f +- %.6f pb against MadEvent's %.6f +- %.6f pb: %.2f combined standard "
             "deviations (ratio %.6f) on %s",
             what, sigma_fb * 1e-3, error_fb * 1e-3, ref_pb, ref_error_pb, pull,
             sigma_fb * 1e-3 / ref_pb, ts_device_name(ctx));
}

/* sigma and the g g and q q~ groups of p p > t t~ against MadEvent's run `id` (section header
 * `section`) with scale choice `choice` (0: fixed 173 GeV). */
static void ttbar_matches_madevent(const char *id, const char *section, int choice) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  char *refs = read_refs();
  double ref, ref_error, gg, gg_error, qq, qq_error;
  combined(refs, id, &ref, &ref_error);
  group(refs, section, "P1_gg_ttx", &gg, &gg_error);
  group(refs, section, "P1_qq_ttx", &qq, &qq_error);
  free(refs);
  hegetcl_xsec_config c = ttbar_config();
  c.dynamical_scale_choice = choice;
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status != HEGETCL_OK)
    fail_msg("p p > t t~: %s (%s)", hegetcl_last_error(ctx), hegetcl_status_name(status));
  /* the AQCDUP MadEvent's events carry at the fixed scale; -1 for a dynamical one */
  if (choice == 0)
    assert_true(fabs(r.alpha_s_mu_r - 0.1180125) < 2e-7);
  else
    assert_true(r.alpha_s_mu_r == -1.0);
  assert_int_equal(r.alpha_s_power, 2);
  check_pull("p p > t t~", r.vegas.estimate, r.vegas.error, ref, ref_error);
  /* MadEvent's q q~ subprocess holds u u~, c c~, d d~, s s~ and their mirrors: our u-type and
   * d-type groups together */
  double qq_sigma = 0.0, qq_variance = 0.0, sum = 0.0;
  int found_gg = 0;
  for (unsigned g = 0; g < r.n_groups; ++g) {
    sum += r.groups[g].sigma_fb;
    if (strcmp(r.groups[g].text, "g g > t t~") == 0) {
      found_gg = 1;
      check_pull("group g g > t t~", r.groups[g].sigma_fb, r.groups[g].error_fb, gg, gg_error);
    } else {
      qq_sigma += r.groups[g].sigma_fb;
      qq_variance += r.groups[g].error_fb * r.groups[g].error_fb;
    }
  }
  assert_true(found_gg);
  check_pull("groups q q~ > t t~", qq_sigma, sqrt(qq_variance), qq, qq_error);
  assert_true(fabs(sum / r.vegas.estimate - 1.0) < 1e-12);
  /* 1 + 4 + 4 channels (g g; u u~, c c~, d d~, s s~ and mirrors) adding up to their group */
  assert_int_equal(r.n_process_channels, 9);
  for (unsigned g = 0; g < r.n_groups; ++g) {
    double channels = 0.0;
    for (unsigned k = 0; k < r.n_process_channels; ++k)
      if (r.process_channels[k].group == g) channels += r.process_channels[k].sigma_fb;
    /* the same events and iteration weights: equal to rounding */
    if (fabs(channels / r.groups[g].sigma_fb - 1.0) > 1e-9)
      fail_msg("group %s: its channels add up to %.6e fb, the group has %.6e +- %.2e fb",
               r.groups[g].text, channels, r.groups[g].sigma_fb, r.groups[g].error_fb);
  }
  hegetcl_xsec_result_free(&r);
}

static void ttbar_fixed_scale_matches_madevent(void **state) {
  (void)state;
  ttbar_matches_madevent("B1a", "---- B1a", 0);
}

/* mu_R = mu_F = half the sum of the transverse masses (MadGraph's dynamical_scale_choice 3). */
static void ttbar_dynamical_scale_matches_madevent(void **state) {
  (void)state;
  ttbar_matches_madevent("B1b", "---- B1b", 3);
}

/* Each bad input is an error naming it, before any integration. */
static void bad_process_input_is_refused(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  struct {
    const char *process, *expect;
    double scale, ptj;
  } cases[] = {
      {"p p > t t~ x", "x", 173.0, 0.0},                /* unknown label */
      {"p p > t t", "no partonic channel", 173.0, 0.0}, /* no channel at these beams */
      {"p p > t t~ j", "pT cut", 173.0, 0.0},           /* jets without a pT cut */
      {"p p > t t~", "positive", -1.0, 0.0},            /* a scale that is not positive */
      {"p p > j j", "none of", 91.188, 7000.0},         /* cuts that remove everything */
      {"p p > j j j", "Delta R", 91.188, 20.0}, /* collinear partons without a Delta R cut */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    hegetcl_xsec_config c = ttbar_config();
    snprintf(c.process_text, sizeof c.process_text, "%s", cases[i].process);
    c.mu_f_gev = c.mu_r_gev = cases[i].scale;
    c.cuts[HG_CUT_PTJ] = cases[i].ptj;
    c.cuts[HG_CUT_DRJJ] = strcmp(cases[i].expect, "Delta R") == 0 ? 0.0 : 0.4;
    hegetcl_xsec_result r;
    const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
    const char *message = hegetcl_last_error(ctx);
    print_message("# %s: %s\n", cases[i].process, message);
    if (status != HEGETCL_ERR_INPUT || strstr(message, cases[i].expect) == NULL)
      fail_msg("%s (scale %g, ptj %g): %s, \"%s\"; expected HEGETCL_ERR_INPUT naming '%s'",
               cases[i].process, cases[i].scale, cases[i].ptj, hegetcl_status_name(status), message,
               cases[i].expect);
    hegetcl_xsec_result_free(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ttbar_fixed_scale_matches_madevent),
      cmocka_unit_test(ttbar_dynamical_scale_matches_madevent),
      cmocka_unit_test(bad_process_input_is_refused),
  };
  return cmocka_run_group_tests_name("madevent_cross_sections", tests, setup, teardown);
}
