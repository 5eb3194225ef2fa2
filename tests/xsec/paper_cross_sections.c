/* SPDX-License-Identifier: MIT */
/* Cross sections of p p -> n photons through u ubar at 14 TeV on the device under test: the HEGET
 * paper's table for n = 2 and 3, and consistency between the run's options (orientations, phase
 * -space maps, helicity sampling, precision, batch size). Statistical checks use 5 sigma. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/xsec.h"
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

/* The paper's set-up with budgets small enough for 2 CPU cores. */
static hegetcl_xsec_config paper_config(unsigned n, double target) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, n);
  c.orientation = HEGETCL_ORIENTATION_U_FIRST;
  c.vegas.adapt_iterations = 4;
  c.vegas.adapt_events = 50000;
  c.vegas.events_per_iteration = 100000;
  c.vegas.max_iterations = 40;
  c.vegas.target_rel_error = target;
  c.vegas.batch_size = 65536;
  c.vegas.seed = 7;
  return c;
}

static hegetcl_xsec_result run(const hegetcl_xsec_config *c, const char *label) {
  hegetcl_xsec_result r;
  if (c->process.precision == HEGETCL_PRECISION_DOUBLE)
    ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_status status = hegetcl_xsec_run(ctx, c, NULL, NULL, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s)", label, hegetcl_last_error(ctx), hegetcl_status_name(status));
  print_message("# %s: %.6e +- %.2e fb (%.3f%%), chi2/dof %.2f, %u iterations, %llu events, "
                "%.1f s on %s\n",
                label, r.vegas.estimate, r.vegas.error, 100 * r.vegas.error / r.vegas.estimate,
                r.vegas.chi2_per_dof, r.vegas.iterations, (unsigned long long)r.vegas.events,
                r.vegas.wall_seconds, ts_device_name(ctx));
  if (r.vegas.chi2_per_dof > 5.0)
    fail_msg("%s: chi2/dof %.2f: the iterations disagree", label, r.vegas.chi2_per_dof);
  return r;
}

static void check_pull(const char *what, double a, double da, double b, double db) {
  const double pull = (a - b) / sqrt(da * da + db * db);
  if (fabs(pull) > 5.0)
    fail_msg("%s: %.6e +- %.2e vs %.6e +- %.2e, %.1f sigma apart", what, a, da, b, db, pull);
}

/* HEGET paper (Hagiwara et al.), table of sigma(u ubar -> n photons), HEGET column, fb. */
static void matches_the_paper(unsigned n, double paper, double paper_error) {
  const hegetcl_xsec_config c = paper_config(n, 2e-3);
  char label[64];
  snprintf(label, sizeof label, "u ubar -> %u photons (u from proton 1)", n);
  const hegetcl_xsec_result r = run(&c, label);
  const double rel = r.vegas.estimate / paper - 1.0;
  print_message("# paper %.5e +- %.1e fb: ours / paper - 1 = %+.4f\n", paper, paper_error, rel);
  if (fabs(rel) > 0.01)
    fail_msg("n = %u: %.6e fb differs from the paper's %.5e fb by %.2f%% (> 1%%)", n,
             r.vegas.estimate, paper, 100 * rel);
}

static void two_photons_match_the_paper_to_one_percent(void **state) {
  (void)state;
  matches_the_paper(2, 1.0822e4, 0.0056e4);
}

static void three_photons_match_the_paper_to_one_percent(void **state) {
  (void)state;
  matches_the_paper(3, 6.7776, 0.0082);
}

static void both_orientations_give_exactly_twice_the_paper_convention(void **state) {
  (void)state;
  hegetcl_xsec_config c = paper_config(2, 1e-2);
  c.vegas.min_iterations = 1;
  c.vegas.max_iterations = 2;
  const hegetcl_xsec_result one = run(&c, "n = 2, u from proton 1");
  c.orientation = HEGETCL_ORIENTATION_BOTH;
  const hegetcl_xsec_result both = run(&c, "n = 2, both orientations");
  if (ts_rel_diff(both.vegas.estimate, 2.0 * one.vegas.estimate) > 1e-12)
    fail_msg("both orientations %.17g fb, twice one orientation %.17g fb", both.vegas.estimate,
             2.0 * one.vegas.estimate);
}

static void collider_and_rambo_phase_space_agree(void **state) {
  (void)state;
  hegetcl_xsec_config c = paper_config(2, 3e-3);
  const hegetcl_xsec_result collider = run(&c, "n = 2, collider map");
  c.phase_space = HEGETCL_PHASE_SPACE_RAMBO;
  c.vegas.target_rel_error = 6e-3;
  const hegetcl_xsec_result rambo = run(&c, "n = 2, RAMBO");
  check_pull("collider vs RAMBO", collider.vegas.estimate, collider.vegas.error,
             rambo.vegas.estimate, rambo.vegas.error);
}

static void sampled_and_summed_helicities_agree(void **state) {
  (void)state;
  hegetcl_xsec_config c = paper_config(3, 4e-3);
  const hegetcl_xsec_result summed = run(&c, "n = 3, helicities summed");
  c.helicity = HEGETCL_HELICITY_SAMPLED;
  c.vegas.target_rel_error = 8e-3;
  c.vegas.seed = 8;
  const hegetcl_xsec_result sampled = run(&c, "n = 3, helicities sampled");
  check_pull("summed vs sampled helicities", summed.vegas.estimate, summed.vegas.error,
             sampled.vegas.estimate, sampled.vegas.error);
}

static void float_and_double_amplitudes_agree(void **state) {
  (void)state;
  hegetcl_xsec_config c = paper_config(3, 4e-3);
  const hegetcl_xsec_result d = run(&c, "n = 3, double");
  c.process.precision = HEGETCL_PRECISION_FLOAT;
  const hegetcl_xsec_result f = run(&c, "n = 3, float");
  /* the same events: float rounding of |M|^2 (1e-6) moves sigma far less than its error */
  if (ts_rel_diff(d.vegas.estimate, f.vegas.estimate) > 1e-4)
    fail_msg("double %.8e fb, float %.8e fb: more apart than float rounding", d.vegas.estimate,
             f.vegas.estimate);
  check_pull("double vs float", d.vegas.estimate, d.vegas.error, f.vegas.estimate, f.vegas.error);
  /* the float run checks a sample of its own events against double and says how far it strays;
   * the double run has nothing to check */
  print_message("# float check: %llu events, largest deviation %.2e, mean %.2e, of the sum %.2e\n",
                (unsigned long long)f.float_checked, f.float_max_deviation,
                f.float_mean_deviation, f.float_sigma_deviation);
  assert_int_equal(d.float_checked, 0);
  if (f.float_checked < 2000 || f.float_checked > 4096)
    fail_msg("the float run checked %llu events, expected most of 4096 (those inside the cuts)",
             (unsigned long long)f.float_checked);
  /* float rounds at 6e-8: a deviation of exactly 0 over thousands of events would mean the check
   * compared float with itself; 1e-3 would mean a float amplitude lost most of its digits */
  if (!(f.float_max_deviation > 0.0 && f.float_max_deviation < 1e-3))
    fail_msg("largest float deviation %.3e outside (0, 1e-3)", f.float_max_deviation);
  if (!(f.float_mean_deviation > 1e-9 && f.float_mean_deviation < 1e-4))
    fail_msg("mean float deviation %.3e outside (1e-9, 1e-4)", f.float_mean_deviation);
  if (!(f.float_sigma_deviation < 1e-5))
    fail_msg("float moves the sample's sum of weights by %.3e", f.float_sigma_deviation);
}

static void same_seed_gives_the_same_sigma_whatever_the_batch(void **state) {
  (void)state;
  hegetcl_xsec_config c = paper_config(3, 1e-2);
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 2;
  const hegetcl_xsec_result a = run(&c, "n = 3, batch 65536");
  c.vegas.batch_size = 10000;
  const hegetcl_xsec_result b = run(&c, "n = 3, batch 10000");
  if (ts_rel_diff(a.vegas.estimate, b.vegas.estimate) > 1e-12)
    fail_msg("batch 65536: %.17g fb, batch 10000: %.17g fb", a.vegas.estimate, b.vegas.estimate);
}

static void bad_configurations_are_refused_with_the_reason(void **state) {
  (void)state;
  struct {
    const char *what, *expect;
    double pt_min, sqrt_s;
  } cases[] = {
      {"no pT cut", "must be > 0", 0.0, 14000.0},
      {"below threshold", "below the threshold", 20.0, 50.0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    hegetcl_xsec_config c = paper_config(3, 1e-2);
    c.pt_min_gev = cases[i].pt_min;
    c.sqrt_s_gev = cases[i].sqrt_s;
    hegetcl_xsec_result r;
    const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
    if (status != HEGETCL_ERR_INPUT || strstr(hegetcl_last_error(ctx), cases[i].expect) == NULL)
      fail_msg("%s: status %s, message '%s' (expected '%s')", cases[i].what,
               hegetcl_status_name(status), hegetcl_last_error(ctx), cases[i].expect);
  }
  hegetcl_xsec_config c = paper_config(2, 1e-2);
  snprintf(c.pdf_set, sizeof c.pdf_set, "%s", "no-such-set");
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status == HEGETCL_OK || strstr(hegetcl_last_error(ctx), "no-such-set") == NULL)
    fail_msg("a missing PDF set gave %s: '%s'", hegetcl_status_name(status),
             hegetcl_last_error(ctx));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_photons_match_the_paper_to_one_percent),
      cmocka_unit_test(three_photons_match_the_paper_to_one_percent),
      cmocka_unit_test(both_orientations_give_exactly_twice_the_paper_convention),
      cmocka_unit_test(collider_and_rambo_phase_space_agree),
      cmocka_unit_test(sampled_and_summed_helicities_agree),
      cmocka_unit_test(float_and_double_amplitudes_agree),
      cmocka_unit_test(same_seed_gives_the_same_sigma_whatever_the_batch),
      cmocka_unit_test(bad_configurations_are_refused_with_the_reason),
  };
  return cmocka_run_group_tests_name("paper_cross_sections", tests, setup, teardown);
}
