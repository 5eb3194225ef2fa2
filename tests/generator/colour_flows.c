/* SPDX-License-Identifier: MIT */
/* The colour flows of a process run's unweighted events: every event's ICOLUP is a valid flow
 * of its channel (each tag once as colour and once as anticolour, incoming particles counted
 * with the two swapped; quarks carry a colour, antiquarks an anticolour, gluons both and
 * different; colourless particles none), and how often each flow comes matches the flows'
 * leading-colour weights |J_k|^2 evaluated again for each event by the diagrams engine's flows
 * program (a z-score per flow from the sum of the per-event probabilities; the run drew them from
 * the recursive engine's weights), for g g > t t~, u u~ > t t~ g and p p > t t~ j. A run whose
 * groups are the recursive engine's builds no flows program; one of the diagrams engine builds
 * its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "generator/run_internal.h"
#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "process/process_spec.h"
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
  size_t n, capacity;
  hegetcl_event *events;
} collected;

static hegetcl_status collect(const hegetcl_event *e, void *user) {
  collected *c = user;
  if (c->n == c->capacity) {
    c->capacity = c->capacity ? 2 * c->capacity : 1024;
    c->events = realloc(c->events, c->capacity * sizeof *c->events);
    if (c->events == NULL) return HEGETCL_ERR_NO_MEMORY;
  }
  c->events[c->n] = *e;
  c->events[c->n].variations = NULL;
  ++c->n;
  return HEGETCL_OK;
}

/* The context's programs built from cl/generator/flows.cl: the diagrams engine's flows, which a
 * group of the recursive engine does without (its weights come from its amplitude's program). */
static size_t flows_programs(void) {
  size_t n = 0;
  for (size_t i = 0; i < ctx->n_programs; ++i)
    n += strstr(ctx->programs[i].key, "generator/flows.cl") != NULL;
  return n;
}

/* n unweighted events of process (fixed scale 173 GeV, jets above 50 GeV), every group with
 * engine (-1: its own, hegetcl_process_from_text's). */
static collected generate_with(const char *process, uint64_t n, int engine) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", process);
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.cuts[HG_CUT_PTJ] = 50.0;
  c.cuts[HG_CUT_ETAJ] = 5.0;
  c.vegas.adapt_iterations = 3;
  c.vegas.adapt_events = 20000;
  c.vegas.events_per_iteration = 40000;
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 2;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 16384;
  c.vegas.seed = 31;
  c.unweighted_events = n;
  c.group_engine = engine;
  collected got = {0};
  const hegetcl_xsec_hooks hooks = {.sink = collect, .sink_user = &got};
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_generate(ctx, &c, &hooks, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s)", process, hegetcl_last_error(ctx), hegetcl_status_name(status));
  assert_int_equal(got.n, n);
  hegetcl_xsec_result_free(&r);
  return got;
}

/* The same with each group's own engine (the recursive one for every QCD group): no flows
 * program may be built, however many groups. */
static collected generate(const char *process, uint64_t n) {
  const size_t before = flows_programs(), programs = ctx->n_programs;
  collected got = generate_with(process, n, -1);
  if (flows_programs() != before)
    fail_msg("%s: the run built %zu flows programs (generator/flows.cl); its recursive groups take "
             "their flows' weights from their amplitude programs",
             process, flows_programs() - before);
  print_message("# %s: %zu programs built or taken from the cache by the run, no flows program\n",
                process, ctx->n_programs - programs);
  return got;
}

/* -1 antiquark, 1 quark, 8 gluon, 0 colourless (PDG id). */
static int colour_kind(int pdg) {
  if (pdg == 21) return 8;
  if (pdg != 0 && abs(pdg) <= 6) return pdg > 0 ? 1 : -1;
  return 0;
}

static void check_valid(const hegetcl_event *e, size_t index) {
  const int n = (int)e->n_particles;
  for (int i = 0; i < n; ++i) {
    const int kind = colour_kind(e->pid[i]), c = e->colour[i][0], a = e->colour[i][1];
    const int ok = kind == 8    ? (c != 0 && a != 0 && c != a)
                   : kind == 1  ? (c != 0 && a == 0)
                   : kind == -1 ? (c == 0 && a != 0)
                                : (c == 0 && a == 0);
    if (!ok)
      fail_msg("event %zu, particle %d (PDG %d): colour %d anticolour %d do not fit it", index, i,
               e->pid[i], c, a);
  }
  for (int i = 0; i < n; ++i)
    for (int side = 0; side < 2; ++side) {
      const int tag = e->colour[i][side];
      if (tag == 0) continue;
      /* as outgoing: an incoming colour is an outgoing anticolour */
      int as_colour = 0, as_anticolour = 0;
      for (int j = 0; j < n; ++j) {
        const int in = e->status[j] == -1;
        as_colour += e->colour[j][in ? 1 : 0] == tag;
        as_anticolour += e->colour[j][in ? 0 : 1] == tag;
      }
      if (as_colour != 1 || as_anticolour != 1)
        fail_msg("event %zu: tag %d appears %d times as colour and %d as anticolour (as if every "
                 "particle were outgoing): colour is not conserved",
                 index, tag, as_colour, as_anticolour);
    }
}

/* Validity of every event; for a single-channel process (group order = the events' order)
 * the flows' frequencies against their weights. */
static void check_flows(const char *process, uint64_t n, int frequencies) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  collected got = generate(process, n);
  for (size_t e = 0; e < got.n; ++e) check_valid(&got.events[e], e);
  if (!frequencies) {
    print_message("# %s: %zu events, every ICOLUP a valid flow\n", process, got.n);
    free(got.events);
    return;
  }
  hg_process_spec spec;
  char error[256];
  assert_int_equal(hg_process_parse(process, &spec, error, sizeof error), 0);
  hegetcl_process p;
  assert_int_equal(hegetcl_process_from_text(&p, process, NULL, 0), HEGETCL_OK);
  hegetcl_amplitude *amp = NULL;
  assert_int_equal(hegetcl_amplitude_create(ctx, &p, &amp), HEGETCL_OK);
  hg_gen_flows flows;
  if (hg_gen_flows_open(ctx, &spec, NULL, got.n, &flows) != HEGETCL_OK)
    fail_msg("flows of %s: %s", process, hegetcl_last_error(ctx));
  const size_t np = (size_t)spec.n, nf = flows.set.n_flows, ne = got.n;
  double *momenta = malloc(4 * np * ne * sizeof *momenta), *w = malloc(nf * ne * sizeof *w);
  for (size_t e = 0; e < ne; ++e)
    for (size_t i = 0; i < np; ++i)
      for (size_t k = 0; k < 4; ++k) momenta[(k * np + i) * ne + e] = got.events[e].p[i][k];
  if (hg_gen_flows_weights(ctx, &flows, amp->params, ne, momenta, w) != HEGETCL_OK)
    fail_msg("flow weights: %s", hegetcl_last_error(ctx));
  double expected[64] = {0}, variance[64] = {0};
  unsigned observed[64] = {0};
  assert_true(nf <= 64);
  for (size_t e = 0; e < ne; ++e) {
    double total = 0.0;
    for (size_t k = 0; k < nf; ++k) total += w[k * ne + e];
    int which = -1;
    for (size_t k = 0; k < nf; ++k) {
      const double prob = w[k * ne + e] / total;
      expected[k] += prob;
      variance[k] += prob * (1.0 - prob);
      int colour[HG_GEN_MAX_EXTERNAL][2];
      assert_int_equal(hg_gen_flow_colours(&spec, &flows.set.flows[k], colour), 0);
      int same = 1;
      for (size_t i = 0; i < np; ++i)
        same = same && colour[i][0] == got.events[e].colour[i][0] &&
               colour[i][1] == got.events[e].colour[i][1];
      if (same) which = (int)k;
    }
    if (which < 0) fail_msg("%s event %zu: its ICOLUP is none of the %zu flows", process, e, nf);
    if (!(w[(size_t)which * ne + e] > 0))
      fail_msg("%s event %zu: flow %d has weight 0 there", process, e, which);
    ++observed[which];
  }
  for (size_t k = 0; k < nf; ++k) {
    const double z = variance[k] > 0 ? (observed[k] - expected[k]) / sqrt(variance[k]) : 0.0;
    print_message("# %s flow %zu: %u events, expected %.1f from |J_k|^2, z = %+.2f\n", process, k,
                  observed[k], expected[k], z);
    if (!(fabs(z) < 4.0))
      fail_msg("%s flow %zu: %u events, %.1f expected from the flows' weights (z = %.2f)", process,
               k, observed[k], expected[k], z);
  }
  free(momenta);
  free(w);
  hg_gen_flows_close(&flows);
  hegetcl_amplitude_destroy(amp);
  free(got.events);
}

static void gluon_fusion_to_tops(void **state) {
  (void)state;
  check_flows("g g > t t~", 3000, 1);
}

static void quark_annihilation_to_tops_and_a_gluon(void **state) {
  (void)state;
  check_flows("u u~ > t t~ g", 2000, 1);
}

/* The diagrams engine's groups keep their flows program (one, built by the run), and their
 * events stay valid colour flows. */
static void diagrams_engine_keeps_its_flows_program(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  /* a context of its own: its program list holds this run's programs only */
  hegetcl_context *shared = ctx;
  ctx = ts_context_create();
  assert_non_null(ctx);
  collected got = generate_with("g g > t t~", 500, HEGETCL_ENGINE_DIAGRAMS);
  const size_t n = flows_programs();
  hegetcl_context_destroy(ctx);
  ctx = shared;
  assert_int_equal(n, 1);
  for (size_t e = 0; e < got.n; ++e) check_valid(&got.events[e], e);
  print_message("# g g > t t~ (diagrams engine): %zu events, one flows program\n", got.n);
  free(got.events);
}

/* Seven groups' programs: a minute on PoCL, so the exhaustive run alone. */
static void every_channel_of_tops_and_a_jet(void **state) {
  (void)state;
  check_flows("p p > t t~ j", 2000, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gluon_fusion_to_tops),
      cmocka_unit_test(quark_annihilation_to_tops_and_a_gluon),
      cmocka_unit_test(diagrams_engine_keeps_its_flows_program),
  };
  const struct CMUnitTest exhaustive[] = {
      cmocka_unit_test(gluon_fusion_to_tops),
      cmocka_unit_test(quark_annihilation_to_tops_and_a_gluon),
      cmocka_unit_test(diagrams_engine_keeps_its_flows_program),
      cmocka_unit_test(every_channel_of_tops_and_a_jet),
  };
  if (getenv("HEGETCL_TEST_EXHAUSTIVE") != NULL)
    return cmocka_run_group_tests_name("colour_flows", exhaustive, setup, teardown);
  return cmocka_run_group_tests_name("colour_flows", tests, setup, teardown);
}
