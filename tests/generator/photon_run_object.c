/* SPDX-License-Identifier: MIT */
/* The photon family through the run object (hegetcl_xsec_generate with no process text: the
 * run object's photon group) against the numbers the photon pipeline gave before the run object
 * took the family: every number below is `hegetcl xsec` at commit 62d06d7 (its JSON, printed with
 * %.17g, and its Les Houches file, %.16e), run with the small run's options and those beside each
 * case. sigma, its error, chi2/dof, the largest weight, the float check, the unweighting's trials
 * and sigma, and the last event's photon must be equal bit for bit: each helicity mode, flavour
 * channels in either orientation, each phase-space map, float precision and histograms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

/* The device (CL_DEVICE_NAME) that gave the numbers below. */
#define GOLDEN_DEVICE "pthread-skylake-avx512-AMD EPYC"

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

/* `--adapt-iterations 2 --adapt-events 20000 --events 40000 --min-iterations 2 --max-iterations
 * 2 --batch 16384 --target-error 0` */
static void small_run(hegetcl_xsec_config *c, unsigned n) {
  hegetcl_xsec_defaults(c, n);
  c->vegas.adapt_iterations = 2;
  c->vegas.adapt_events = 20000;
  c->vegas.events_per_iteration = 40000;
  c->vegas.min_iterations = c->vegas.max_iterations = 2;
  c->vegas.target_rel_error = 0.0;
  c->vegas.batch_size = 16384;
}

/* The events a sink received: what a record holds that the sampler decides. */
typedef struct {
  size_t n, capacity;
  hegetcl_event *e;
} kept_events;

static hegetcl_status keep(const hegetcl_event *event, void *user) {
  kept_events *k = user;
  if (k->n == k->capacity) {
    k->capacity = k->capacity ? 2 * k->capacity : 256;
    k->e = realloc(k->e, k->capacity * sizeof *k->e);
    if (k->e == NULL) return HEGETCL_ERR_NO_MEMORY;
  }
  k->e[k->n] = *event;
  k->e[k->n].variations = NULL;
  k->e[k->n].n_variations = 0;
  ++k->n;
  return HEGETCL_OK;
}

/* What the run must give: the photon pipeline's numbers before (0 where the case has none). */
typedef struct {
  double sigma, error, chi2, max_weight;
  uint64_t tried;         /* the unweighting's weighted events */
  double sigma_pass;      /* its sigma */
  double last_e, last_pz; /* the last event's first photon */
  uint64_t float_events;
  double float_max, float_mean, float_sigma;
} golden;

static void same(const char *what, const char *which, double got, double expected) {
  if (memcmp(&got, &expected, sizeof got) != 0)
    fail_msg("%s, %s: %.17g, the photon pipeline gave %.17g before the run object took the "
             "family",
             what, which, got, expected);
}

static void run(const hegetcl_xsec_config *config, const char *what, const golden *g) {
  hegetcl_xsec_result r;
  kept_events events = {0};
  const hegetcl_xsec_hooks hooks = {.sink = keep, .sink_user = &events};
  if (hegetcl_xsec_generate(ctx, config, &hooks, &r) != HEGETCL_OK)
    fail_msg("%s: %s", what, hegetcl_last_error(ctx));
  print_message("# %s: sigma %.17g +- %.17g fb, %zu events\n", what, r.vegas.estimate,
                r.vegas.error, events.n);
  if (strcmp(ts_device_name(ctx), GOLDEN_DEVICE) != 0) {
    const double pull = (r.vegas.estimate - g->sigma) / r.vegas.error;
    print_message("# %s is not %s: sigma %+.2f errors from its sigma, the events counted\n",
                  ts_device_name(ctx), GOLDEN_DEVICE, pull);
    if (!(fabs(pull) < 3.0))
      fail_msg("%s: sigma %.17g +- %.3g fb, %.2f errors from %.17g (on %s)", what, r.vegas.estimate,
               r.vegas.error, pull, g->sigma, GOLDEN_DEVICE);
    if (events.n != config->unweighted_events)
      fail_msg("%s: %zu events of %llu", what, events.n,
               (unsigned long long)config->unweighted_events);
  } else {
    same(what, "sigma", r.vegas.estimate, g->sigma);
    same(what, "error", r.vegas.error, g->error);
    same(what, "chi2/dof", r.vegas.chi2_per_dof, g->chi2);
    same(what, "largest weight", r.vegas.max_weight, g->max_weight);
    if (config->unweighted_events > 0) {
      if (events.n != config->unweighted_events || r.unweighting.tried != g->tried)
        fail_msg("%s: %zu events of %llu tried, the photon pipeline %llu of %llu", what, events.n,
                 (unsigned long long)r.unweighting.tried,
                 (unsigned long long)config->unweighted_events, (unsigned long long)g->tried);
      same(what, "the unweighting's sigma", r.unweighting.sigma_check_fb, g->sigma_pass);
      same(what, "the last event's photon E", events.e[events.n - 1].p[2][0], g->last_e);
      same(what, "the last event's photon pz", events.e[events.n - 1].p[2][3], g->last_pz);
    }
    if (r.float_checked != g->float_events)
      fail_msg("%s: %llu events float-checked, the photon pipeline %llu", what,
               (unsigned long long)r.float_checked, (unsigned long long)g->float_events);
    if (g->float_events > 0) {
      same(what, "float's largest deviation", r.float_max_deviation, g->float_max);
      same(what, "float's mean deviation", r.float_mean_deviation, g->float_mean);
      same(what, "float's sigma deviation", r.float_sigma_deviation, g->float_sigma);
    }
  }
  if (config->histograms && r.n_histograms == 0) fail_msg("%s: no histograms", what);
  hegetcl_xsec_result_free(&r);
  free(events.e);
}

/* --n 2 --yoda h.yoda --unweighted-events 300 --lhe e.lhe */
static void summed_helicities_with_histograms_and_events(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  small_run(&c, 2);
  c.histograms = 1;
  c.unweighted_events = 300;
  const golden g = {.sigma = 21724.679400841891,
                    .error = 40.740229559652533,
                    .chi2 = 0.06265218702933209,
                    .max_weight = 68509.779696097699,
                    .tried = 16384,
                    .sigma_pass = 21688.562555806708,
                    .last_e = 2.4177118464971798e+01,
                    .last_pz = 9.5856605322832173e+00};
  run(&c, "n = 2, summed, histograms, 300 events", &g);
}

/* --n 2 --helicity sampled --flavours d,u,s,c --unweighted-events 200 --lhe e.lhe, and --n 3
 * --helicity adaptive --phase-space multichannel --flavours all --orientation u-first */
static void flavour_channels_and_helicity_modes(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  small_run(&c, 2);
  c.helicity = HEGETCL_HELICITY_SAMPLED;
  c.flavours = HEGETCL_FLAVOUR_BIT(1) | HEGETCL_FLAVOUR_BIT(2) | HEGETCL_FLAVOUR_BIT(3) |
               HEGETCL_FLAVOUR_BIT(4);
  c.unweighted_events = 200;
  const golden sampled = {.sigma = 29020.42988236008,
                          .error = 92.254770625410032,
                          .chi2 = 0.17556686107442185,
                          .max_weight = 113373.48332247719,
                          .tried = 16384,
                          .sigma_pass = 28889.558886509101,
                          .last_e = 2.6933749824698491e+01,
                          .last_pz = 6.7474002827136408e+00};
  run(&c, "n = 2, sampled, flavours d u s c both ways, 200 events", &sampled);
  small_run(&c, 3);
  c.helicity = HEGETCL_HELICITY_ADAPTIVE;
  c.phase_space = HEGETCL_PHASE_SPACE_MULTICHANNEL;
  c.flavours = HEGETCL_ALL_FLAVOURS;
  c.orientation = HEGETCL_ORIENTATION_U_FIRST;
  const golden adaptive = {.sigma = 7.9632666554170948,
                           .error = 0.051420143616570747,
                           .chi2 = 1.2284012777296103,
                           .max_weight = 178.56930014334694};
  run(&c, "n = 3, adaptive, multichannel, all flavours u-first", &adaptive);
}

/* --n 3 --precision float --phase-space rambo, and --n 2 --precision float --helicity adaptive
 * --flavours u,d --unweighted-events 200 --lhe e.lhe */
static void float_precision_and_rambo(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  small_run(&c, 3);
  c.process.precision = HEGETCL_PRECISION_FLOAT;
  c.phase_space = HEGETCL_PHASE_SPACE_RAMBO;
  const golden rambo = {.sigma = 13.524490196971248,
                        .error = 0.1190340782605646,
                        .chi2 = 0.11158892122818967,
                        .max_weight = 1335.1962368076295,
                        .float_events = 1925,
                        .float_max = 3.440609441085485e-05,
                        .float_mean = 1.1919974871327594e-06,
                        .float_sigma = 9.821346658167585e-08};
  run(&c, "n = 3, float, rambo", &rambo);
  small_run(&c, 2);
  c.process.precision = HEGETCL_PRECISION_FLOAT;
  c.helicity = HEGETCL_HELICITY_ADAPTIVE;
  c.flavours = HEGETCL_FLAVOUR_BIT(1) | HEGETCL_FLAVOUR_BIT(2);
  c.unweighted_events = 200;
  const golden adaptive = {.sigma = 23014.125386547395,
                           .error = 73.522315770886124,
                           .chi2 = 0.1865440368843608,
                           .max_weight = 87732.549920835852,
                           .tried = 16384,
                           .sigma_pass = 22783.364247924939,
                           .last_e = 7.9083329994120277e+01,
                           .last_pz = 7.4543801560009825e+01,
                           .float_events = 4095,
                           .float_max = 5.362465929747984e-06,
                           .float_mean = 2.7941798094580236e-07,
                           .float_sigma = 8.21972252484926e-08};
  run(&c, "n = 2, float, adaptive, flavours u d, 200 events", &adaptive);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(summed_helicities_with_histograms_and_events),
      cmocka_unit_test(flavour_channels_and_helicity_modes),
      cmocka_unit_test(float_precision_and_rambo),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
