/* SPDX-License-Identifier: MIT */
/* The multichannel phase space of process runs against a second method and its errors against
 * their scatter: p p > j j j at 1.2e5 events (which the single map, the last jet balancing,
 * left about 1 % low) against runs of the single map with four times the events; p p > e+ e- j
 * (the Z's Breit-Wigner and the photon's 1/m^2 as channels) against the single log map; 20
 * seeds each of p p > e+ e- j and p p > e+ ve j whose pulls must scatter by about 1. Minutes on
 * PoCL: the long suite. */
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

typedef struct {
  const char *process;
  double scale, ptj, drjj, mmll, mmllmax;
  uint64_t adapt, events; /* per iteration; 4 adapting, 3 combined */
  hegetcl_phase_space map;
} setting;

static void run(const setting *s, uint64_t seed, double *sigma, double *error) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", s->process);
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = s->scale;
  c.cuts[HG_CUT_PTJ] = s->ptj;
  c.cuts[HG_CUT_ETAJ] = 5.0;
  c.cuts[HG_CUT_DRJJ] = s->drjj;
  c.cuts[HG_CUT_MMLL] = s->mmll;
  if (s->mmllmax > 0.0) c.cuts[HG_CUT_MMLLMAX] = s->mmllmax;
  c.phase_space = s->map;
  c.vegas.adapt_iterations = 4;
  c.vegas.adapt_events = s->adapt;
  c.vegas.events_per_iteration = s->events;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 3;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 16384;
  c.vegas.seed = seed;
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s seed %llu: %s (%s)", s->process, (unsigned long long)seed, hegetcl_last_error(ctx),
             hegetcl_status_name(status));
  *sigma = r.vegas.estimate;
  *error = r.vegas.error;
  print_message("# %s (%s) seed %llu: %.6e +- %.2e fb (chi2/dof %.2f)", s->process,
                s->map == HEGETCL_PHASE_SPACE_COLLIDER ? "single map" : "multichannel",
                (unsigned long long)seed, *sigma, *error, r.vegas.chi2_per_dof);
  for (unsigned g = 0; g < r.n_groups && g < 2; ++g) {
    print_message("; %s efficiency %.3f, alpha", r.groups[g].text,
                  r.groups[g].unweighting_efficiency);
    for (unsigned k = 0; k < r.groups[g].phase_space_channels; ++k)
      print_message(" %.3f", r.groups[g].channel_weights[k]);
  }
  print_message("\n");
  hegetcl_xsec_result_free(&r);
}

/* The weighted mean of n seeds from `first`, its error, and the pulls' standard deviation. */
static double mean_of(const setting *s, int n, uint64_t first, double *error, double *spread) {
  double sigma[20], err[20], mean = 0.0, weights = 0.0;
  for (int i = 0; i < n; ++i) {
    run(s, first + (uint64_t)i, &sigma[i], &err[i]);
    mean += sigma[i] / (err[i] * err[i]);
    weights += 1.0 / (err[i] * err[i]);
  }
  mean /= weights;
  double sum2 = 0.0;
  for (int i = 0; i < n; ++i) sum2 += pow((sigma[i] - mean) / err[i], 2);
  *error = sqrt(1.0 / weights);
  *spread = n > 1 ? sqrt(sum2 / (n - 1)) : 0.0;
  return mean;
}

static void agree(const char *what, double a, double ea, double b, double eb) {
  const double pull = (a - b) / hypot(ea, eb);
  print_message("# %s: %.6e +- %.2e against %.6e +- %.2e fb: %+.2f standard deviations\n", what, a,
                ea, b, eb, pull);
  if (!(fabs(pull) < 3.0))
    fail_msg("%s: %.6e +- %.2e against %.6e +- %.2e fb (%+.2f sigma) on %s", what, a, ea, b, eb,
             pull, ts_device_name(ctx));
}

static void pulls(const setting *s) {
  double error, spread;
  const double mean = mean_of(s, 20, 1000, &error, &spread);
  print_message("# %s: mean %.6e +- %.2e fb, pulls' standard deviation %.2f over 20 seeds\n",
                s->process, mean, error, spread);
  if (!(spread > 0.55 && spread < 1.45))
    fail_msg("%s: 20 seeds scatter %.2f times their errors (expected 1) on %s", s->process, spread,
             ts_device_name(ctx));
}

/* Five small multichannel runs (the honest-errors settings: 1.2e5 combined events) against two
 * single-map runs of four times the events each. */
static void three_jets_small_runs_unbiased(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const setting small = {"p p > j j j",           91.188, 50.0, 0.4, 0.0, 0.0, 20000, 40000,
                         HEGETCL_PHASE_SPACE_AUTO};
  const setting large = {
      "p p > j j j", 91.188, 50.0, 0.4, 0.0, 0.0, 80000, 160000, HEGETCL_PHASE_SPACE_COLLIDER};
  double es, spread, el, spread_l;
  const double s = mean_of(&small, 5, 1000, &es, &spread);
  const double l = mean_of(&large, 2, 2000, &el, &spread_l);
  agree("p p > j j j: 5 small multichannel runs against 2 large single-map runs", s, es, l, el);
}

static const setting zj = {"p p > e+ e- j",         91.188, 20.0, 0.4, 40.0, 0.0, 20000, 40000,
                           HEGETCL_PHASE_SPACE_AUTO};
static const setting wj = {"p p > e+ ve j",         80.419, 20.0, 0.4, 0.0, 0.0, 20000, 40000,
                           HEGETCL_PHASE_SPACE_AUTO};

/* The Z's Breit-Wigner with the photon's 1/m^2 against the log map alone (m_ll > 40). */
static void z_jet_maps_agree(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  setting multi = zj, single = zj;
  multi.adapt = single.adapt = 50000;
  multi.events = single.events = 200000;
  single.map = HEGETCL_PHASE_SPACE_COLLIDER;
  double m, em, s, es;
  run(&multi, 7, &m, &em);
  run(&single, 7, &s, &es);
  agree("p p > e+ e- j: multichannel against the log map", m, em, s, es);
}

static void z_jet_errors_are_honest(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  pulls(&zj);
}

static void w_jet_errors_are_honest(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  pulls(&wj);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(z_jet_maps_agree),
      cmocka_unit_test(z_jet_errors_are_honest),
      cmocka_unit_test(w_jet_errors_are_honest),
      cmocka_unit_test(three_jets_small_runs_unbiased),
  };
  return cmocka_run_group_tests_name("multichannel", tests, setup, teardown);
}
