/* SPDX-License-Identifier: MIT */
/* The photon family through the run object (its photon group: hg_gen_generate with no process
 * text) against the photon pipeline (hegetcl_xsec_generate): the same kernels, Philox keys, VEGAS
 * grid and sums, so every number of the result and every unweighted event must agree bit for bit,
 * for each helicity mode, flavour channels in both orientations, each phase-space map, float
 * precision (with its float check) and histograms. Two runs are also pinned to the numbers the
 * photon pipeline gave before the run object took the family (golden values, %.17g, from `hegetcl
 * xsec` at commit 62d06d7, the commands beside them): a second method that cannot drift with both
 * paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator/run.h"
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

static void same_double(const char *what, double a, double b) {
  if (memcmp(&a, &b, sizeof a) != 0)
    fail_msg("%s: the run object's %.17g against the photon pipeline's %.17g", what, a, b);
}

static void same_count(const char *what, uint64_t a, uint64_t b) {
  if (a != b)
    fail_msg("%s: the run object's %llu against the photon pipeline's %llu", what,
             (unsigned long long)a, (unsigned long long)b);
}

static void same_events(const kept_events *a, const kept_events *b) {
  same_count("unweighted events", a->n, b->n);
  for (size_t i = 0; i < a->n; ++i) {
    const hegetcl_event *x = &a->e[i], *y = &b->e[i];
    char what[64];
    snprintf(what, sizeof what, "event %zu's record", i);
    if (x->number != y->number || x->n_particles != y->n_particles ||
        memcmp(x->pid, y->pid, sizeof x->pid) != 0 || memcmp(x->p, y->p, sizeof x->p) != 0 ||
        memcmp(x->helicity, y->helicity, sizeof x->helicity) != 0 ||
        memcmp(x->colour, y->colour, sizeof x->colour) != 0 ||
        memcmp(&x->weight_ratio, &y->weight_ratio, sizeof x->weight_ratio) != 0 ||
        memcmp(&x->x1, &y->x1, sizeof x->x1) != 0 || memcmp(&x->x2, &y->x2, sizeof x->x2) != 0 ||
        x->process_id != y->process_id)
      fail_msg("%s (events %llu and %llu) differs between the run object and the photon "
               "pipeline",
               what, (unsigned long long)x->number, (unsigned long long)y->number);
  }
}

static void same_results(const hegetcl_xsec_result *a, const hegetcl_xsec_result *b) {
  same_double("sigma", a->vegas.estimate, b->vegas.estimate);
  same_double("error", a->vegas.error, b->vegas.error);
  same_double("chi2/dof", a->vegas.chi2_per_dof, b->vegas.chi2_per_dof);
  same_double("largest weight", a->vegas.max_weight, b->vegas.max_weight);
  same_count("iterations", a->vegas.iterations, b->vegas.iterations);
  same_count("events", a->vegas.events, b->vegas.events);
  same_count("events with adaptation", a->vegas.events_total, b->vegas.events_total);
  same_count("events in the cuts", a->vegas.events_nonzero, b->vegas.events_nonzero);
  same_double("alpha_s", a->alpha_s, b->alpha_s);
  same_count("channels", a->n_channels, b->n_channels);
  for (unsigned c = 0; c < a->n_channels; ++c) {
    same_double(a->channels[c].name, a->channels[c].sigma_fb, b->channels[c].sigma_fb);
    same_double(a->channels[c].name, a->channels[c].error_fb, b->channels[c].error_fb);
  }
  same_count("helicity probabilities", a->n_helicity_probabilities, b->n_helicity_probabilities);
  for (size_t h = 0; h < a->n_helicity_probabilities; ++h)
    same_double("a helicity probability", a->helicity_probabilities[h],
                b->helicity_probabilities[h]);
  same_count("float-checked events", a->float_checked, b->float_checked);
  same_double("float max deviation", a->float_max_deviation, b->float_max_deviation);
  same_double("float sigma deviation", a->float_sigma_deviation, b->float_sigma_deviation);
  same_count("histograms", a->n_histograms, b->n_histograms);
  for (size_t k = 0; k < a->n_histograms; ++k) {
    const hegetcl_histogram *x = &a->histograms[k], *y = &b->histograms[k];
    const size_t cells = (size_t)x->bins + 2;
    if (x->bins != y->bins || memcmp(x->sumw, y->sumw, cells * sizeof *x->sumw) != 0 ||
        memcmp(x->sumw2, y->sumw2, cells * sizeof *x->sumw2) != 0 ||
        memcmp(x->entries, y->entries, cells * sizeof *x->entries) != 0)
      fail_msg("histogram %s differs between the run object and the photon pipeline", x->name);
  }
  same_count("events written", a->unweighting.written, b->unweighting.written);
  same_count("events tried", a->unweighting.tried, b->unweighting.tried);
  same_double("the unweighting's sigma", a->unweighting.sigma_check_fb,
              b->unweighting.sigma_check_fb);
}

/* Both paths over config; the run object's result and events are compared with the pipeline's,
 * and its sigma and error returned. */
static void both(const hegetcl_xsec_config *config, const char *what, double *sigma,
                 double *error) {
  hegetcl_xsec_result a, b;
  kept_events ea = {0}, eb = {0};
  hegetcl_xsec_hooks ha = {.sink = keep, .sink_user = &ea}, hb = {.sink = keep, .sink_user = &eb};
  if (hg_gen_generate(ctx, config, &ha, memset(&a, 0, sizeof a)) != HEGETCL_OK)
    fail_msg("%s through the run object: %s", what, hegetcl_last_error(ctx));
  if (hegetcl_xsec_generate(ctx, config, &hb, &b) != HEGETCL_OK)
    fail_msg("%s through the photon pipeline: %s", what, hegetcl_last_error(ctx));
  print_message("# %s: sigma %.17g +- %.17g fb, %llu events, bit for bit\n", what, a.vegas.estimate,
                a.vegas.error, (unsigned long long)ea.n);
  same_results(&a, &b);
  same_events(&ea, &eb);
  if (sigma != NULL) *sigma = a.vegas.estimate;
  if (error != NULL) *error = a.vegas.error;
  hegetcl_xsec_result_free(&a);
  hegetcl_xsec_result_free(&b);
  free(ea.e);
  free(eb.e);
}

static void golden(const char *what, double got, double expected) {
  if (got != expected)
    fail_msg("%s: %.17g, the photon pipeline gave %.17g before the run object took the family",
             what, got, expected);
}

static void summed_helicities_with_histograms_and_events(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  small_run(&c, 2);
  c.histograms = 1;
  c.unweighted_events = 300;
  double sigma = 0, error = 0;
  both(&c, "n = 2, summed, histograms, 300 events", &sigma, &error);
  /* hegetcl xsec --n 2 (+ the small run's options above) --yoda h.yoda --unweighted-events 300 */
  golden("n = 2 sigma", sigma, 21724.679400841891);
  golden("n = 2 error", error, 40.740229559652533);
}

static void flavour_channels_and_helicity_modes(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  small_run(&c, 2);
  c.helicity = HEGETCL_HELICITY_SAMPLED;
  c.flavours = HEGETCL_FLAVOUR_BIT(1) | HEGETCL_FLAVOUR_BIT(2) | HEGETCL_FLAVOUR_BIT(3) |
               HEGETCL_FLAVOUR_BIT(4);
  c.unweighted_events = 200;
  both(&c, "n = 2, sampled, flavours d u s c both ways, 200 events", NULL, NULL);
  small_run(&c, 3);
  c.helicity = HEGETCL_HELICITY_ADAPTIVE;
  c.phase_space = HEGETCL_PHASE_SPACE_MULTICHANNEL;
  c.flavours = HEGETCL_ALL_FLAVOURS;
  c.orientation = HEGETCL_ORIENTATION_U_FIRST;
  double sigma = 0, error = 0;
  both(&c, "n = 3, adaptive, multichannel, all flavours u-first", &sigma, &error);
  /* hegetcl xsec --n 3 --helicity adaptive --phase-space multichannel --flavours all
   * --orientation u-first (+ the small run's options) */
  golden("n = 3 sigma", sigma, 7.9632666554170948);
  golden("n = 3 error", error, 0.051420143616570747);
}

static void float_precision_and_rambo(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  small_run(&c, 3);
  c.process.precision = HEGETCL_PRECISION_FLOAT;
  c.phase_space = HEGETCL_PHASE_SPACE_RAMBO;
  both(&c, "n = 3, float, rambo", NULL, NULL);
  small_run(&c, 2);
  c.process.precision = HEGETCL_PRECISION_FLOAT;
  c.helicity = HEGETCL_HELICITY_ADAPTIVE;
  c.flavours = HEGETCL_FLAVOUR_BIT(1) | HEGETCL_FLAVOUR_BIT(2);
  c.unweighted_events = 200;
  both(&c, "n = 2, float, adaptive, flavours u d, 200 events", NULL, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(summed_helicities_with_histograms_and_events),
      cmocka_unit_test(flavour_channels_and_helicity_modes),
      cmocka_unit_test(float_precision_and_rambo),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
