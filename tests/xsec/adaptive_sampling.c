/* SPDX-License-Identifier: MIT */
/* Adaptive helicity sampling and the multichannel phase space on the device under test
 * (CONVENTIONS.md, "Adaptive sampling"): for n = 3, 4, 5 they reproduce the helicity-summed
 * collider-map cross section within 2 sigma (n = 6, 7 on a GPU: docs/validation.md, "Are the errors honest?"); 20
 * seeds give pulls against their mean with a standard deviation between 0.7 and 1.4, about a mean
 * within 4 sigma of the HEGET paper's, with the default map at n = 4 (collider) and 5
 * (multichannel) and multichannel adaptive at n = 5 (RAMBO is refused there); the default map (auto) is the collider one to n = 4
 * and multichannel from n = 5, bit for bit; a run stopped while it learns resumes with the same
 * numbers bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

static hegetcl_context *ctx;
static char folder[] = "/tmp/hegetcl-adaptive-XXXXXX";

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL || mkdtemp(folder) == NULL;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  char path[256];
  snprintf(path, sizeof path, "%s/stopped.ckpt", folder);
  unlink(path);
  rmdir(folder);
  return 0;
}

static hegetcl_xsec_config config_of(unsigned n, hegetcl_phase_space ps, hegetcl_helicity_mode h,
                                     uint64_t events, uint64_t seed) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, n);
  c.orientation = HEGETCL_ORIENTATION_U_FIRST;
  c.phase_space = ps;
  c.helicity = h;
  c.vegas.adapt_iterations = 4;
  c.vegas.adapt_events = events / 2;
  c.vegas.events_per_iteration = events;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 3;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 32768;
  c.vegas.seed = seed;
  return c;
}

static const char *label_of(const hegetcl_xsec_config *c, char *out, size_t size) {
  snprintf(out, size, "n = %u, %s, helicities %s, seed %llu", c->process.n_photons,
           hegetcl_phase_space_name(c->phase_space), hegetcl_helicity_mode_name(c->helicity),
           (unsigned long long)c->vegas.seed);
  return out;
}

static hegetcl_xsec_result run(const hegetcl_xsec_config *c, int verbose) {
  char label[128];
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, c, NULL, NULL, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s)", label_of(c, label, sizeof label), hegetcl_last_error(ctx),
             hegetcl_status_name(status));
  if (verbose)
    print_message("# %s: %.6e +- %.2e fb (%.3f%%), chi2/dof %.2f, %.1f s on %s\n",
                  label_of(c, label, sizeof label), r.vegas.estimate, r.vegas.error,
                  100 * r.vegas.error / r.vegas.estimate, r.vegas.chi2_per_dof,
                  r.vegas.wall_seconds, ts_device_name(ctx));
  return r;
}

/* The helicity-summed collider-map sigma against each new setting; the collider map's errors are
 * honest at n = 5 only with enough events (its weights have a long tail: CONVENTIONS.md), so the
 * reference takes 8 times more there, and sampled helicities on it are checked for n < 5 only
 * (from n = 5 the helicity draw on top of that tail leaves no honest error: measured, docs/validation.md). */
static void agree_with_summed_collider(unsigned n) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config ref = config_of(n, HEGETCL_PHASE_SPACE_COLLIDER, HEGETCL_HELICITY_SUMMED,
                                      n < 5 ? 100000 : 400000, 3);
  ref.vegas.max_iterations = ref.vegas.min_iterations = n < 5 ? 3 : 6;
  hegetcl_xsec_result reference = run(&ref, 1);
  const struct {
    hegetcl_phase_space ps;
    hegetcl_helicity_mode h;
  } settings[] = {{HEGETCL_PHASE_SPACE_COLLIDER, HEGETCL_HELICITY_ADAPTIVE},
                  {HEGETCL_PHASE_SPACE_MULTICHANNEL, HEGETCL_HELICITY_SUMMED},
                  {HEGETCL_PHASE_SPACE_MULTICHANNEL, HEGETCL_HELICITY_ADAPTIVE}};
  for (size_t i = n < 5 ? 0 : 1; i < sizeof settings / sizeof *settings; ++i) {
    const hegetcl_xsec_config c = config_of(n, settings[i].ps, settings[i].h, 100000, 4);
    hegetcl_xsec_result r = run(&c, 1);
    const double pull =
        (r.vegas.estimate - reference.vegas.estimate) / hypot(r.vegas.error, reference.vegas.error);
    char label[128];
    if (fabs(pull) > 2.0)
      fail_msg("%s: %.6e +- %.2e fb against the summed collider map's %.6e +- %.2e: %.2f sigma "
               "(ratio %.5f) on %s",
               label_of(&c, label, sizeof label), r.vegas.estimate, r.vegas.error,
               reference.vegas.estimate, reference.vegas.error, pull,
               r.vegas.estimate / reference.vegas.estimate, ts_device_name(ctx));
    if (settings[i].h == HEGETCL_HELICITY_ADAPTIVE) {
      /* the probabilities reported: 2^n - 2, summing to 1, none 0 */
      double sum = 0.0, smallest = 1.0;
      for (size_t k = 0; k < r.n_helicity_probabilities; ++k) {
        sum += r.helicity_probabilities[k];
        smallest = fmin(smallest, r.helicity_probabilities[k]);
      }
      if (r.n_helicity_probabilities != (1u << n) - 2u || fabs(sum - 1.0) > 1e-12 ||
          !(smallest > 0.0))
        fail_msg("%s: %zu probabilities, sum %.17g, smallest %.3e", label,
                 r.n_helicity_probabilities, sum, smallest);
    }
    if (settings[i].ps == HEGETCL_PHASE_SPACE_MULTICHANNEL) {
      double sum = 0.0;
      for (unsigned k = 0; k < r.n_channel_weights; ++k) sum += r.channel_weights[k];
      if (r.n_channel_weights != n || fabs(sum - 1.0) > 1e-12)
        fail_msg("%s: %u channel weights summing to %.17g", label, r.n_channel_weights, sum);
    }
    hegetcl_xsec_result_free(&r);
  }
  hegetcl_xsec_result_free(&reference);
}

static void three_photons_agree_with_summed_collider(void **state) {
  (void)state;
  agree_with_summed_collider(3);
}

static void four_photons_agree_with_summed_collider(void **state) {
  (void)state;
  agree_with_summed_collider(4);
}

static void five_photons_agree_with_summed_collider(void **state) {
  (void)state;
  agree_with_summed_collider(5);
}

/* The HEGET paper's sigma(u ubar -> n photons) in fb, its HEGET column (u from proton 1): an
 * independent value for the mean of the seeds (docs/validation.md, "Cross sections to n = 12": ours agree
 * within 0.3 sigma at n = 4, 5). */
static const double paper_sigma[6][2] = {[4] = {1.2400e-2, 0.0030e-2}, [5] = {2.598e-5, 0.011e-5}};

/* 20 seeds: the pulls against their mean have a standard deviation between 0.7 and 1.4 (an
 * honest error gives 1, within about 0.16 for 20 runs), and their mean agrees with the paper's
 * value within 4 sigma. The second half matters: runs can agree with each other and all be
 * wrong. With the collider map at n = 5 and these event counts the 20 seeds scattered as their
 * errors (1.14) about a mean 3.9 % below the paper's, 9 sigma (PoCL, commit 79ba59c): why the
 * default map is multichannel from n = 5. */
static void seeds_scatter_as_their_errors(unsigned n, hegetcl_phase_space ps,
                                          hegetcl_helicity_mode h) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  enum { seeds = 20 };
  double sigma[seeds], error[seeds], mean = 0.0, mean_var = 0.0;
  for (int s = 0; s < seeds; ++s) {
    const hegetcl_xsec_config c = config_of(n, ps, h, 50000, 1 + s);
    hegetcl_xsec_result r = run(&c, 0);
    sigma[s] = r.vegas.estimate;
    error[s] = r.vegas.error;
    mean += sigma[s] / seeds;
    mean_var += error[s] * error[s] / ((double)seeds * seeds);
    hegetcl_xsec_result_free(&r);
  }
  double sum2 = 0.0;
  for (int s = 0; s < seeds; ++s)
    sum2 += (sigma[s] - mean) * (sigma[s] - mean) / (error[s] * error[s]);
  const double sd = sqrt(sum2 / seeds);
  const double pull = (mean - paper_sigma[n][0]) / sqrt(mean_var + paper_sigma[n][1] * paper_sigma[n][1]);
  const char *map = hegetcl_phase_space_name(hegetcl_phase_space_for(ps, n));
  print_message("# n = %u, %s (%s), helicities %s: 20 seeds, mean %.6e +- %.2e fb, pulls' "
                "standard deviation %.2f; the paper's %.4e +- %.1e fb, pull %+.2f on %s\n",
                n, hegetcl_phase_space_name(ps), map, hegetcl_helicity_mode_name(h), mean,
                sqrt(mean_var), sd, paper_sigma[n][0], paper_sigma[n][1], pull,
                ts_device_name(ctx));
  if (!(sd >= 0.7 && sd <= 1.4))
    fail_msg("n = %u, %s, helicities %s: the pulls' standard deviation is %.2f, outside [0.7, 1.4]",
             n, map, hegetcl_helicity_mode_name(h), sd);
  if (!(fabs(pull) <= 4.0))
    fail_msg("n = %u, %s, helicities %s: the 20 seeds' mean %.6e +- %.2e fb is %.1f sigma from "
             "the paper's %.4e +- %.1e fb",
             n, map, hegetcl_helicity_mode_name(h), mean, sqrt(mean_var), pull, paper_sigma[n][0],
             paper_sigma[n][1]);
}

static void default_map_errors_are_honest_at_four_photons(void **state) {
  (void)state;
  seeds_scatter_as_their_errors(4, HEGETCL_PHASE_SPACE_AUTO, HEGETCL_HELICITY_SUMMED);
}

static void default_map_errors_are_honest_at_five_photons(void **state) {
  (void)state;
  seeds_scatter_as_their_errors(5, HEGETCL_PHASE_SPACE_AUTO, HEGETCL_HELICITY_SUMMED);
}

static void multichannel_adaptive_errors_are_honest_at_five_photons(void **state) {
  (void)state;
  seeds_scatter_as_their_errors(5, HEGETCL_PHASE_SPACE_MULTICHANNEL, HEGETCL_HELICITY_ADAPTIVE);
}

static void rambo_is_refused_where_its_error_is_not_honest(void **state) {
  (void)state;
  const hegetcl_xsec_config c = config_of(HEGETCL_RAMBO_MAX_PHOTONS + 1, HEGETCL_PHASE_SPACE_RAMBO,
                                          HEGETCL_HELICITY_SUMMED, 50000, 1);
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status != HEGETCL_ERR_INPUT ||
      strstr(hegetcl_last_error(ctx), "--phase-space multichannel") == NULL ||
      strstr(hegetcl_last_error(ctx), "no honest error") == NULL)
    fail_msg("RAMBO at n = %d: %s, \"%s\"", HEGETCL_RAMBO_MAX_PHOTONS + 1,
             hegetcl_status_name(status), hegetcl_last_error(ctx));
}

/* Sampled and adaptive helicities beyond HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS (measured on the
 * H200: 12 % to 4.7x low with 1-4 % errors at n = 10..12) are refused before any device work. */
static void sampled_helicities_are_refused_where_their_error_is_not_honest(void **state) {
  (void)state;
  const hegetcl_helicity_mode modes[2] = {HEGETCL_HELICITY_SAMPLED, HEGETCL_HELICITY_ADAPTIVE};
  for (int k = 0; k < 2; ++k) {
    const hegetcl_xsec_config c = config_of(HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS + 1,
                                            HEGETCL_PHASE_SPACE_MULTICHANNEL, modes[k], 50000, 1);
    hegetcl_xsec_result r;
    const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
    if (status != HEGETCL_ERR_INPUT ||
        strstr(hegetcl_last_error(ctx), "--helicity summed") == NULL ||
        strstr(hegetcl_last_error(ctx), "no honest error") == NULL)
      fail_msg("helicity %s at n = %d: %s, \"%s\"", hegetcl_helicity_mode_name(modes[k]),
               HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS + 1, hegetcl_status_name(status),
               hegetcl_last_error(ctx));
  }
}

/* The default map (HEGETCL_PHASE_SPACE_AUTO) is the collider one below HEGETCL_MULTICHANNEL_FROM
 * photons, keeping the paper's runs bit for bit, and multichannel from there: a default run equals
 * the run that names that map, bit for bit, and reports its channel weights only from n = 5. */
static void the_default_map_is_collider_then_multichannel(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 8);
  if (c.phase_space != HEGETCL_PHASE_SPACE_AUTO)
    fail_msg("the default phase space is %s, not auto", hegetcl_phase_space_name(c.phase_space));
  for (unsigned n = 2; n <= HEGETCL_MAX_XSEC_PHOTONS; ++n) {
    const hegetcl_phase_space want =
        n < 5 ? HEGETCL_PHASE_SPACE_COLLIDER : HEGETCL_PHASE_SPACE_MULTICHANNEL;
    if (hegetcl_phase_space_for(HEGETCL_PHASE_SPACE_AUTO, n) != want ||
        hegetcl_phase_space_for(HEGETCL_PHASE_SPACE_COLLIDER, n) != HEGETCL_PHASE_SPACE_COLLIDER)
      fail_msg("n = %u: auto gives %s", n,
               hegetcl_phase_space_name(hegetcl_phase_space_for(HEGETCL_PHASE_SPACE_AUTO, n)));
  }
  for (unsigned n = 4; n <= 5; ++n) {
    const hegetcl_phase_space named =
        n < 5 ? HEGETCL_PHASE_SPACE_COLLIDER : HEGETCL_PHASE_SPACE_MULTICHANNEL;
    const hegetcl_xsec_config automatic =
        config_of(n, HEGETCL_PHASE_SPACE_AUTO, HEGETCL_HELICITY_SUMMED, 8000, 3);
    const hegetcl_xsec_config explicit = config_of(n, named, HEGETCL_HELICITY_SUMMED, 8000, 3);
    hegetcl_xsec_result a = run(&automatic, 1), b = run(&explicit, 0);
    if (a.vegas.estimate != b.vegas.estimate || a.vegas.error != b.vegas.error)
      fail_msg("n = %u: auto %.17g +- %.17g fb, %s %.17g +- %.17g fb", n, a.vegas.estimate,
               a.vegas.error, hegetcl_phase_space_name(named), b.vegas.estimate, b.vegas.error);
    if (a.n_channel_weights != (n < 5 ? 0u : n))
      fail_msg("n = %u: auto ran %u channels", n, a.n_channel_weights);
    hegetcl_xsec_result_free(&a);
    hegetcl_xsec_result_free(&b);
  }
  c.phase_space = (hegetcl_phase_space)4;
  hegetcl_xsec_result r;
  if (hegetcl_xsec_run(ctx, &c, NULL, NULL, &r) != HEGETCL_ERR_INPUT)
    fail_msg("phase space 4 was not refused");
}

static volatile sig_atomic_t stop_flag;

static void stop_after_two(const hegetcl_vegas_iteration *it, void *user) {
  (void)user;
  if (!it->restored && it->index == 1) stop_flag = 1;
}

/* Stopped after two of four adapting iterations (the tables half learnt) and resumed. */
static void a_run_stopped_while_learning_resumes_exactly(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c =
      config_of(3, HEGETCL_PHASE_SPACE_MULTICHANNEL, HEGETCL_HELICITY_ADAPTIVE, 40000, 9);
  c.vegas.batch_size = 8192;
  hegetcl_xsec_result whole = run(&c, 1), resumed;
  char path[256];
  snprintf(path, sizeof path, "%s/stopped.ckpt", folder);
  unlink(path);
  for (int resume = 0; resume <= 1; ++resume) {
    stop_flag = 0;
    const hegetcl_xsec_checkpointing cp = {
        .path = path, .resume = resume, .stop = &stop_flag, .writer = "adaptive_sampling"};
    const hegetcl_xsec_hooks hooks = {.progress = resume ? NULL : stop_after_two,
                                      .checkpointing = &cp};
    const hegetcl_status status = hegetcl_xsec_generate(ctx, &c, &hooks, &resumed);
    if (status != HEGETCL_OK)
      fail_msg("%s run: %s", resume ? "resumed" : "stopped", hegetcl_last_error(ctx));
    if (!resume && resumed.stopped != HEGETCL_XSEC_INTEGRATING)
      fail_msg("the run did not stop (stopped = %d)", resumed.stopped);
    if (!resume) hegetcl_xsec_result_free(&resumed);
  }
  if (resumed.vegas.estimate != whole.vegas.estimate || resumed.vegas.error != whole.vegas.error ||
      resumed.vegas.max_weight != whole.vegas.max_weight)
    fail_msg("resumed %.17g +- %.17g fb, uninterrupted %.17g +- %.17g fb", resumed.vegas.estimate,
             resumed.vegas.error, whole.vegas.estimate, whole.vegas.error);
  for (size_t k = 0; k < whole.n_helicity_probabilities; ++k)
    if (resumed.helicity_probabilities[k] != whole.helicity_probabilities[k])
      fail_msg("configuration %zu: probability %.17g resumed, %.17g uninterrupted", k + 1,
               resumed.helicity_probabilities[k], whole.helicity_probabilities[k]);
  for (unsigned k = 0; k < whole.n_channel_weights; ++k)
    if (resumed.channel_weights[k] != whole.channel_weights[k])
      fail_msg("channel %u: weight %.17g resumed, %.17g uninterrupted", k,
               resumed.channel_weights[k], whole.channel_weights[k]);
  hegetcl_xsec_result_free(&resumed);
  hegetcl_xsec_result_free(&whole);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(three_photons_agree_with_summed_collider),
      cmocka_unit_test(the_default_map_is_collider_then_multichannel),
      cmocka_unit_test(four_photons_agree_with_summed_collider),
      cmocka_unit_test(five_photons_agree_with_summed_collider),
      cmocka_unit_test(default_map_errors_are_honest_at_four_photons),
      cmocka_unit_test(default_map_errors_are_honest_at_five_photons),
      cmocka_unit_test(multichannel_adaptive_errors_are_honest_at_five_photons),
      cmocka_unit_test(rambo_is_refused_where_its_error_is_not_honest),
      cmocka_unit_test(sampled_helicities_are_refused_where_their_error_is_not_honest),
      cmocka_unit_test(a_run_stopped_while_learning_resumes_exactly),
  };
  return cmocka_run_group_tests_name("adaptive_sampling", tests, setup, teardown);
}
