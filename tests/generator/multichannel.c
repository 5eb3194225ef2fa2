/* SPDX-License-Identifier: MIT */
/* The multichannel phase space of process runs against a second method and its errors against
 * their scatter: p p > j j j at 1.2e5 events asked for (which the single map, the last jet
 * balancing, left about 2 % low) against a run of 3e6 events; p p > e+ e- j
 * (the Z's Breit-Wigner and the photon's 1/m^2 as channels) against the single log map; 20
 * seeds each of p p > e+ e- j and p p > e+ ve j whose pulls must scatter by about 1; the
 * t-channel chains against the default channels (p p > t t~ j, p p > j j j) and 20 seeds of
 * p p > t t~ j with them. Minutes on PoCL: the long suite. */
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

static hegetcl_xsec_result run_result(const setting *s, uint64_t seed) {
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
  print_message("# %s (%s) seed %llu: %.6e +- %.2e fb (chi2/dof %.2f)", s->process,
                s->map == HEGETCL_PHASE_SPACE_COLLIDER       ? "single map"
                : s->map == HEGETCL_PHASE_SPACE_MULTICHANNEL ? "with chains"
                                                             : "multichannel",
                (unsigned long long)seed, r.vegas.estimate, r.vegas.error, r.vegas.chi2_per_dof);
  for (unsigned g = 0; g < r.n_groups && g < 2; ++g) {
    print_message("; %s efficiency %.3f, alpha", r.groups[g].text,
                  r.groups[g].unweighting_efficiency);
    for (unsigned k = 0; k < r.groups[g].phase_space_channels; ++k)
      print_message(" %.3f", r.groups[g].channel_weights[k]);
  }
  print_message("\n");
  return r;
}

static void run(const setting *s, uint64_t seed, double *sigma, double *error) {
  hegetcl_xsec_result r = run_result(s, seed);
  *sigma = r.vegas.estimate;
  *error = r.vegas.error;
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

/* sigma of the groups that carry at least 2 % of sigma (`big`: 1) or the others (0) of a run,
 * and its variance; the groups by name against the reference run's. */
static void split(const hegetcl_xsec_result *r, const hegetcl_xsec_result *ref, int big,
                  double *sigma, double *variance) {
  for (unsigned g = 0; g < r->n_groups; ++g)
    for (unsigned k = 0; k < ref->n_groups; ++k)
      if (strcmp(r->groups[g].text, ref->groups[k].text) == 0 &&
          (ref->groups[k].sigma_fb >= 0.02 * ref->vegas.estimate) == big) {
        *sigma += r->groups[g].sigma_fb;
        *variance += r->groups[g].error_fb * r->groups[g].error_fb;
      }
}

/* Five small multichannel runs (the honest-errors settings: 4 x 2e4 + 3 x 4e4 events asked
 * for, about 7.7e5 combined with the floor of 2000 events per channel and group) against one of
 * 4 x 2e5 + 3 x 1e6: the groups that carry the cross section (each at least 2 % of it, 87 %)
 * and sigma within 3 standard deviations (the single map's small runs were 2.4 % low, 5
 * sigma of their mean). */
static void three_jets_small_runs_unbiased(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const setting small = {"p p > j j j",           91.188, 50.0, 0.4, 0.0, 0.0, 20000, 40000,
                         HEGETCL_PHASE_SPACE_AUTO};
  setting large = small;
  large.adapt = 200000;
  large.events = 1000000;
  hegetcl_xsec_result ref = run_result(&large, 4000);
  double big_ref = 0.0, big_ref_var = 0.0;
  split(&ref, &ref, 1, &big_ref, &big_ref_var);
  double big = 0.0, big_var = 0.0, total = 0.0, total_var = 0.0;
  const int n = 5;
  for (int i = 0; i < n; ++i) {
    hegetcl_xsec_result r = run_result(&small, 1000 + (uint64_t)i);
    split(&r, &ref, 1, &big, &big_var);
    total += r.vegas.estimate;
    total_var += r.vegas.error * r.vegas.error;
    hegetcl_xsec_result_free(&r);
  }
  agree("p p > j j j: groups of >= 2 % of sigma, 5 small runs against a large one", big / n,
        sqrt(big_var) / n, big_ref, sqrt(big_ref_var));
  agree("p p > j j j: sigma, 5 small runs' mean against a large run", total / n,
        sqrt(total_var) / n, ref.vegas.estimate, ref.vegas.error);
  hegetcl_xsec_result_free(&ref);
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

/* The t-channel chains (--phase-space multichannel) against the default channels: p p > t t~ j
 * and p p > j j j agree within errors, and 20 seeds of p p > t t~ j with the chains scatter by
 * their errors. */
static const setting ttj_chains = {
    "p p > t t~ j", 173.0, 50.0, 0.0, 0.0, 0.0, 20000, 40000, HEGETCL_PHASE_SPACE_MULTICHANNEL};

static void chains_agree_with_the_default_channels(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const setting jjj = {
      "p p > j j j", 91.188, 50.0, 0.4, 0.0, 0.0, 20000, 100000, HEGETCL_PHASE_SPACE_MULTICHANNEL};
  const setting *chained[2] = {&ttj_chains, &jjj};
  for (int k = 0; k < 2; ++k) {
    setting plain = *chained[k];
    plain.map = HEGETCL_PHASE_SPACE_AUTO;
    hegetcl_xsec_result a = run_result(chained[k], 11), b = run_result(&plain, 12);
    if (a.groups[0].phase_space_channels <= b.groups[0].phase_space_channels)
      fail_msg("%s: the chains did not join the channels (%u and %u)", plain.process,
               a.groups[0].phase_space_channels, b.groups[0].phase_space_channels);
    agree(chained[k]->process, a.vegas.estimate, a.vegas.error, b.vegas.estimate, b.vegas.error);
    hegetcl_xsec_result_free(&a);
    hegetcl_xsec_result_free(&b);
  }
}

static void top_pair_jet_chain_errors_are_honest(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  pulls(&ttj_chains);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(z_jet_maps_agree),
      cmocka_unit_test(z_jet_errors_are_honest),
      cmocka_unit_test(w_jet_errors_are_honest),
      cmocka_unit_test(three_jets_small_runs_unbiased),
      cmocka_unit_test(chains_agree_with_the_default_channels),
      cmocka_unit_test(top_pair_jet_chain_errors_are_honest),
  };
  return cmocka_run_group_tests_name("multichannel", tests, setup, teardown);
}
