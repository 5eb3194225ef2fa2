/* SPDX-License-Identifier: MIT */
/* Are a process run's errors honest? 20 seeds of p p > t t~ j (ptj 50, etaj 5) and of
 * p p > j j j (ptj 50, etaj 5, drjj 0.4; mu = 173 and 91.188 GeV): the pulls (sigma_i - mean) /
 * error_i must scatter with a standard deviation near 1 (within 0.55..1.45: 20 seeds know it to
 * about 0.16) and every group's chi2/dof stay sane. Minutes on PoCL: the exhaustive suite alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "test_support.h"

#define SEEDS 20

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

static void pulls_of(const char *process, double scale, double drjj) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  double sigma[SEEDS], error[SEEDS], mean = 0.0, weights = 0.0;
  for (int i = 0; i < SEEDS; ++i) {
    hegetcl_xsec_config c;
    hegetcl_xsec_defaults(&c, 2);
    snprintf(c.process_text, sizeof c.process_text, "%s", process);
    c.dynamical_scale_choice = 0;
    c.mu_f_gev = c.mu_r_gev = scale;
    c.cuts[HG_CUT_PTJ] = 50.0;
    c.cuts[HG_CUT_ETAJ] = 5.0;
    c.cuts[HG_CUT_DRJJ] = drjj;
    c.vegas.adapt_iterations = 4;
    c.vegas.adapt_events = 20000;
    c.vegas.events_per_iteration = 40000;
    c.vegas.min_iterations = 3;
    c.vegas.max_iterations = 3;
    c.vegas.target_rel_error = 0.0;
    c.vegas.batch_size = 16384;
    c.vegas.seed = 1000 + (uint64_t)i;
    hegetcl_xsec_result r;
    const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
    if (status != HEGETCL_OK)
      fail_msg("%s seed %d: %s (%s)", process, i, hegetcl_last_error(ctx),
               hegetcl_status_name(status));
    sigma[i] = r.vegas.estimate;
    error[i] = r.vegas.error;
    print_message("# %s seed %llu: %.6e +- %.2e fb (chi2/dof %.2f)\n", process,
                  (unsigned long long)c.vegas.seed, sigma[i], error[i], r.vegas.chi2_per_dof);
    hegetcl_xsec_result_free(&r);
    mean += sigma[i] / (error[i] * error[i]);
    weights += 1.0 / (error[i] * error[i]);
  }
  mean /= weights;
  double sum2 = 0.0;
  for (int i = 0; i < SEEDS; ++i) sum2 += pow((sigma[i] - mean) / error[i], 2);
  const double spread = sqrt(sum2 / (SEEDS - 1));
  print_message("# %s: mean %.6e +- %.2e fb, pulls' standard deviation %.2f over %d seeds\n",
                process, mean, sqrt(1.0 / weights), spread, SEEDS);
  if (!(spread > 0.55 && spread < 1.45))
    fail_msg("%s: 20 seeds scatter %.2f times their errors (expected 1) on %s", process, spread,
             ts_device_name(ctx));
}

static void ttbar_jet_errors_are_honest(void **state) {
  (void)state;
  pulls_of("p p > t t~ j", 173.0, 0.0);
}

static void three_jet_errors_are_honest(void **state) {
  (void)state;
  pulls_of("p p > j j j", 91.188, 0.4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ttbar_jet_errors_are_honest),
      cmocka_unit_test(three_jet_errors_are_honest),
  };
  return cmocka_run_group_tests_name("honest_errors", tests, setup, teardown);
}
