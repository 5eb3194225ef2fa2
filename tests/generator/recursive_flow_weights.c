/* SPDX-License-Identifier: MIT */
/* The recursive engines' colour-flow weights (the amplitude_flow_weights kernel of a group's own
 * program, which process runs draw each kept event's colour flow from) against the diagrams
 * engine's (a program of its own, cl/generator/flows.cl, from straight-line diagram code): at
 * seeded RAMBO points, each flow's share of the flows' sum agrees to 1e-12 in double, for the
 * colour-ordered kernels (a quark line, gluons only: their (n - 1)! traces, not the DDM basis)
 * and the quark-line recursion (two lines, a W-less lepton pair, identical quarks). The engine's
 * flows map one to one onto the diagrams engine's basis, and an event's flows are valid colour
 * flows. CONVENTIONS.md, "Colour flows of the recursive engines". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../amplitudes/qcd_points.h"
#include "amplitude/amplitude_internal.h"
#include "generator/run_internal.h"
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

#define N_POINTS 6

static void check_process(const char *text) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_process p = qcd_process_of(text);
  p.engine = HEGETCL_ENGINE_RECURSIVE;
  p.precision = HEGETCL_PRECISION_DOUBLE;
  hegetcl_amplitude *amp = NULL;
  if (hegetcl_amplitude_create(ctx, &p, &amp) != HEGETCL_OK)
    fail_msg("%s: %s", text, hegetcl_last_error(ctx));
  hg_process_spec spec;
  char error[256];
  assert_int_equal(hg_process_parse(text, &spec, error, sizeof error), 0);
  hg_gen_flows engine, diagrams;
  if (hg_gen_flows_open(ctx, &spec, amp, N_POINTS, &engine) != HEGETCL_OK)
    fail_msg("%s, the recursive engine's flows: %s", text, hegetcl_last_error(ctx));
  if (hg_gen_flows_open(ctx, &spec, NULL, N_POINTS, &diagrams) != HEGETCL_OK)
    fail_msg("%s, the diagrams engine's flows: %s", text, hegetcl_last_error(ctx));
  /* the recursive engine's own weights, not the diagrams program */
  assert_non_null(engine.amp);
  assert_null(engine.program);
  assert_null(diagrams.amp);
  const size_t nf = diagrams.set.n_flows;
  assert_int_equal(engine.set.n_flows, nf);
  /* one to one: every basis element is exactly one of the engine's flows */
  assert_int_equal(engine.n_engine, nf);
  unsigned char *hit = calloc(nf, 1);
  for (size_t k = 0; k < engine.n_engine; ++k) {
    assert_true(engine.basis_of[k] < nf);
    if (hit[engine.basis_of[k]]++) fail_msg("%s: basis flow %zu met twice", text, k);
  }
  size_t invalid = 0;
  for (size_t k = 0; k < nf; ++k) invalid += !diagrams.valid[k];
  free(hit);
  double *momenta = qcd_points_of(&p, N_POINTS, 20261126);
  double *we = malloc(nf * N_POINTS * sizeof *we), *wd = malloc(nf * N_POINTS * sizeof *wd);
  if (hg_gen_flows_weights(ctx, &engine, NULL, N_POINTS, momenta, we) != HEGETCL_OK ||
      hg_gen_flows_weights(ctx, &diagrams, amp->params, N_POINTS, momenta, wd) != HEGETCL_OK)
    fail_msg("%s: %s", text, hegetcl_last_error(ctx));
  double worst = 0.0, smallest = 1.0, scale = 0.0; /* scale: the sums' largest ratio - 1 */
  for (size_t e = 0; e < N_POINTS; ++e) {
    double se = 0.0, sd = 0.0;
    for (size_t k = 0; k < nf; ++k) {
      se += we[k * N_POINTS + e];
      sd += wd[k * N_POINTS + e];
    }
    if (!(sd > 0.0) || !(se > 0.0)) fail_msg("%s point %zu: the flows' weights sum to 0", text, e);
    scale = fabs(se / sd - 1.0) > scale ? fabs(se / sd - 1.0) : scale;
    for (size_t k = 0; k < nf; ++k) {
      const double a = we[k * N_POINTS + e] / se, b = wd[k * N_POINTS + e] / sd;
      /* relative for a flow's share; a share below 1e-3 of the sum against the sum's rounding */
      const double d = fabs(a - b) / (b > 1e-3 ? b : 1e-3);
      worst = d > worst ? d : worst;
      smallest = b > 0.0 && b < smallest ? b : smallest;
      if (!(d < 1e-12))
        fail_msg("%s point %zu flow %zu: share %.17g of the recursive engine against %.17g of "
                 "the diagrams engine (%.2e)",
                 text, e, k, a, b, d);
    }
  }
  /* the same J_k, not only the same shares: no factor between the engines' weights */
  if (!(scale < 1e-12))
    fail_msg("%s: the flows' weights of the two engines differ by a factor (their sums' ratio is "
             "1 to %.2e)",
             text, scale);
  print_message("# %s: %zu flows (%zu not valid), %d points, shares agree to %.1e (smallest "
                "share %.1e); the sums' ratio is 1 to %.1e\n",
                text, nf, invalid, N_POINTS, worst, smallest, scale);
  free(momenta);
  free(we);
  free(wd);
  hg_gen_flows_close(&engine);
  hg_gen_flows_close(&diagrams);
  hegetcl_amplitude_destroy(amp);
}

/* The colour-ordered kernels: a top line, an incoming quark line, gluons only. */
static void tops_and_a_gluon(void **state) {
  (void)state;
  check_process("g g > t t~ g");
}
static void quark_line_into_gluons(void **state) {
  (void)state;
  check_process("u u~ > g g g");
}
static void five_gluons(void **state) {
  (void)state;
  check_process("g g > g g g");
}
/* The quark-line recursion: two lines, identical flavours, crossed quarks, a lepton pair. */
static void two_lines_with_tops(void **state) {
  (void)state;
  check_process("u u~ > t t~ g");
}
static void two_light_lines(void **state) {
  (void)state;
  check_process("u u~ > d d~ g");
}
static void quarks_scattering(void **state) {
  (void)state;
  check_process("u d > u d g");
}
static void gluon_quark_to_tops(void **state) {
  (void)state;
  check_process("g u > t t~ u");
}
static void drell_yan_and_a_gluon(void **state) {
  (void)state;
  check_process("u u~ > e+ e- g");
}
/* Larger bases (24 to 120 flows), and the incoming quark line: the exhaustive suite. */
static void tops_and_two_gluons(void **state) {
  (void)state;
  check_process("g g > t t~ g g");
}
static void two_lines_with_tops_and_two_gluons(void **state) {
  (void)state;
  check_process("u u~ > t t~ g g");
}
static void six_gluons(void **state) {
  (void)state;
  check_process("g g > g g g g");
}
static void identical_quarks_and_two_gluons(void **state) {
  (void)state;
  check_process("u u > u u g g");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tops_and_a_gluon),
      cmocka_unit_test(five_gluons),
      cmocka_unit_test(two_lines_with_tops),
      cmocka_unit_test(two_light_lines),
      cmocka_unit_test(quarks_scattering),
      cmocka_unit_test(gluon_quark_to_tops),
      cmocka_unit_test(drell_yan_and_a_gluon),
  };
  const struct CMUnitTest exhaustive[] = {
      cmocka_unit_test(quark_line_into_gluons),
      cmocka_unit_test(tops_and_two_gluons),
      cmocka_unit_test(two_lines_with_tops_and_two_gluons),
      cmocka_unit_test(six_gluons),
      cmocka_unit_test(identical_quarks_and_two_gluons),
  };
  if (ts_exhaustive())
    return cmocka_run_group_tests_name("recursive_flow_weights_exhaustive", exhaustive, setup,
                                       teardown);
  return cmocka_run_group_tests_name("recursive_flow_weights", tests, setup, teardown);
}
