/* SPDX-License-Identifier: MIT */
/* hegetcl-bench's floating-point operations for the quark-line recursion (bench/flops.c), counted
 * from its tape, against counts made by hand from the HELAS functions' code for u u~ > d d~ and
 * u u~ > d d~ g (their tapes checked first, operation by operation). Host only: no device. */
#include <stdio.h>
#include <stdlib.h>

#include "amplitude/amplitude_internal.h"
#include "flops.h"
#include "process/flow_recursion.h"
#include "process/process_spec.h"
#include "test_support.h"

/* The tape of text, its configurations counted. */
static void build(const char *text, hg_flow_recursion *fr, size_t *n_configs) {
  hg_process_spec spec;
  char error[1024];
  if (hg_process_parse(text, &spec, error, sizeof error) != 0) fail_msg("%s", error);
  if (hg_flow_recursion_build(&spec, 0, fr, error, sizeof error) != 0)
    fail_msg("%s: %s", text, error);
  uint32_t *configs = NULL;
  assert_int_equal(hg_fr_configurations(&spec, &configs, n_configs), 0);
  free(configs);
}

/* The number of operations of kind with mass (HG_PARAM_ZERO or not: massive) and their targets. */
static size_t count_ops(const hg_flow_recursion *fr, int kind, int massive, size_t *targets) {
  size_t n = 0;
  *targets = 0;
  for (size_t o = 0; o < fr->n_ops; ++o)
    if (fr->ops[o].kind == kind && (fr->ops[o].mass != HG_PARAM_ZERO) == massive) {
      ++n;
      *targets += fr->ops[o].n_targets;
    }
  return n;
}

static void expect_flops(const char *text, double got, double by_hand) {
  printf("# %s: %.0f operations per event, by hand %.0f\n", text, got, by_hand);
  if (got != by_hand)
    fail_msg("%s: bench/flops.c counts %.0f, the hand count %.0f", text, got, by_hand);
}

/* u u~ > d d~: one s-channel gluon. Its tape: one jioxxx (u u~ -> gluon, massless) adding into
 * the two gluon currents of the Fierz identity's terms, and two iovxxx (each gluon current with
 * d d~, the last particle) adding into the two colour flows (1 target each); 4 helicity
 * configurations (each line of one chirality at both ends, massless quarks), 2 flows.
 * Per configuration, from the code in cl/helas:
 *   externals: 4 x ixxxx0/oxxxx0 = 4 x 13 (sqrt(E + pz) and its sign 3, chi2 6, slots 4)   52
 *   jioxxx at mass 0 = jioxx0: slots 4, q^2 7, 1/q^2 1, couplings 4, 8 bilinears of two
 *     complex products and a sum (8 x 14 = 112), four components (4 x 14 = 56)              184
 *   its 2 targets: 4 complex multiply-adds each (2 x 32)                                    64
 *   2 x iovxxx: left and right (2 x 86), the couplings (14) = 186 each                     372
 *   their 2 targets: 1 complex multiply-add each (2 x 8)                                    16
 *   colour sum of 2 flows: row 0 2 + 4, row 1 2 + 6 + 4 (6 F + 3 F (F - 1) = 18), the helicity
 *     sum's addition 1                                                                      19
 *   total per configuration                                                                707
 * summed: 4 x 707 = 2828; one configuration: 707.
 * Sampled colours: the two flows are d(1, 3) d(2, 0) and d(1, 0) d(2, 3), strings of no
 * generator: per string the selected entry 6 and the product 6, 4 strings = 48 once per event;
 * per configuration sum_f c_f A_f 2 x 8 and |M|^2 with its sum 4 instead of the colour sum's 19:
 * 707 - 19 + 20 = 708; summed 48 + 4 x 708 = 2880. */
static void two_lines_by_hand(void **state) {
  (void)state;
  hg_flow_recursion fr;
  size_t n_configs = 0, targets = 0;
  build("u u~ > d d~", &fr, &n_configs);
  assert_int_equal(n_configs, 4);
  assert_int_equal(fr.n_flows, 2);
  assert_int_equal(fr.n_ops, 3);
  assert_int_equal(count_ops(&fr, HG_WF_JIO, 0, &targets), 1);
  assert_int_equal(targets, 2);
  assert_int_equal(count_ops(&fr, HG_FR_AMPLITUDE + HG_AMP_IOV, 0, &targets), 2);
  assert_int_equal(targets, 2);
  for (size_t f = 0; f < fr.n_flows; ++f) {
    assert_int_equal(fr.flows[f].n_strings, 2);
    for (int k = 0; k < 2; ++k) assert_int_equal(fr.flows[f].s[k].length, 0);
  }
  expect_flops("u u~ > d d~, summed", hg_bench_flops_flow_recursion(&fr, n_configs, 0, 0), 2828);
  expect_flops("u u~ > d d~, one configuration",
               hg_bench_flops_flow_recursion(&fr, n_configs, 1, 0), 707);
  expect_flops("u u~ > d d~, sampled colours", hg_bench_flops_flow_recursion(&fr, n_configs, 0, 1),
               2880);
  hg_flow_recursion_free(&fr);
}

/* u u~ > d d~ g (particles 0..4, the gluon 4 closes every amplitude): 8 configurations, 4 flows
 * (1->3 with the gluon, 2->0; 1->0 with it, 2->3; 1->3, 2->0 with it; 1->0, 2->3 with it). Its
 * tape: 2 jioxxx (u u~ and d d~ to a gluon, 2 Fierz terms each: 4 targets), 4 fvoxxx and
 * 4 fvixxx (a quark of one line taking the other line's gluon current, each Fierz term:
 * 1 target each), 8 iovxxx (1 flow each) and 1 vvvxxx (the two lines' gluon currents with the
 * gluon; 2 flows; the three vvvxxx with a U(1) term of the Fierz identity vanish, [1, X] = 0,
 * and are not on the tape). Per configuration:
 *   externals: 4 x 13 (the quarks) + 23 (vxxxx0, F_VXXXX0)                                   75
 *   2 jioxxx 2 x 184 + 4 targets x 32                                             368 + 128 = 496
 *   4 fvoxxx 4 x 252 + 4 x 32                                                   1008 + 128 = 1136
 *   4 fvixxx the same                                                                       1136
 *   8 iovxxx 8 x 186 + 8 x 8                                                    1488 + 64 = 1552
 *   1 vvvxxx: three dots (90), momentum differences and dots (54), sum (22), coupling (2)
 *     = 168, + 2 x 8                                                                         184
 *   colour sum of 4 flows: 6 x 4 + 3 x 4 x 3 = 60, the helicity sum's addition 1            61
 *   total                                                                                   4640
 * summed: 8 x 4640 = 37120. Sampled colours: per flow a string of one generator (144 + 6 + 6)
 * and one of none (6 + 6), 168 x 4 = 672 once per event; per configuration 4640 - 61 + 4 x 8
 * + 4 = 4615: 672 + 8 x 4615 = 37592. */
static void one_gluon_by_hand(void **state) {
  (void)state;
  hg_flow_recursion fr;
  size_t n_configs = 0, targets = 0;
  build("u u~ > d d~ g", &fr, &n_configs);
  assert_int_equal(n_configs, 8);
  assert_int_equal(fr.n_flows, 4);
  assert_int_equal(fr.n_ops, 19);
  assert_int_equal(count_ops(&fr, HG_WF_JIO, 0, &targets), 2);
  assert_int_equal(targets, 4);
  assert_int_equal(count_ops(&fr, HG_WF_FVO, 0, &targets), 4);
  assert_int_equal(targets, 4);
  assert_int_equal(count_ops(&fr, HG_WF_FVI, 0, &targets), 4);
  assert_int_equal(targets, 4);
  assert_int_equal(count_ops(&fr, HG_FR_AMPLITUDE + HG_AMP_IOV, 0, &targets), 8);
  assert_int_equal(targets, 8);
  assert_int_equal(count_ops(&fr, HG_FR_AMPLITUDE + HG_AMP_VVV, 0, &targets), 1);
  assert_int_equal(targets, 2);
  for (size_t f = 0; f < fr.n_flows; ++f) {
    assert_int_equal(fr.flows[f].n_strings, 2);
    assert_int_equal(fr.flows[f].s[0].length + fr.flows[f].s[1].length, 1);
  }
  expect_flops("u u~ > d d~ g, summed", hg_bench_flops_flow_recursion(&fr, n_configs, 0, 0), 37120);
  expect_flops("u u~ > d d~ g, sampled colours",
               hg_bench_flops_flow_recursion(&fr, n_configs, 0, 1), 37592);
  hg_flow_recursion_free(&fr);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_lines_by_hand),
      cmocka_unit_test(one_gluon_by_hand),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
