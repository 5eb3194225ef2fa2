/* SPDX-License-Identifier: MIT */
/* The recursive engines' colour flows (those whose weights their amplitude_flow_weights kernel
 * gives, hg_recursive_flows) against the diagrams engine's colour basis, which process runs draw
 * an event's flow in and take its ICOLUP from: for every group of p p > t t~ j j j and
 * p p > j j j j (and the processes of recursive_flow_weights), each engine flow is exactly one
 * basis element and every basis element is one engine flow, so the weights cover the whole basis
 * (CONVENTIONS.md, "Colour flows of the recursive engines"). Host only: no device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "process/diagrams.h"
#include "process/partonic_channels.h"
#include "process/process_spec.h"
#include "test_support.h"

/* Checks one process; returns its flows, and counts the colour-ordered (*co) or recursion
 * (*fr) engines and the bases in another order (*permuted). */
static size_t check_process(const char *text, int *co, int *fr, int *permuted) {
  hg_process_spec spec;
  char error[1024];
  if (hg_process_parse(text, &spec, error, sizeof error) != 0) fail_msg("%s", error);
  hg_colour_term *flows = NULL;
  size_t n = 0;
  if (hg_recursive_flows(&spec, 0, &flows, &n, error, sizeof error) != 0)
    fail_msg("%s: %s", text, error);
  hg_diagram_set set;
  if (hg_diagrams_build(&spec, 0, &set, error, sizeof error) != 0) fail_msg("%s: %s", text, error);
  if (n != set.n_flows)
    fail_msg("%s: the recursive engine has %zu colour flows, the diagrams engine's basis %zu", text,
             n, set.n_flows);
  unsigned char *hit = calloc(n + 1, 1);
  int same_order = 1;
  for (size_t k = 0; k < n; ++k) {
    size_t b = 0;
    while (b < set.n_flows && !hg_colour_same_structure(&flows[k], &set.flows[b])) ++b;
    if (b == set.n_flows)
      fail_msg("%s: the recursive engine's flow %zu is no element of the diagrams engine's basis",
               text, k);
    if (hit[b]++) fail_msg("%s: basis element %zu is two of the engine's flows", text, b);
    same_order = same_order && b == k;
  }
  *co += !hg_recursive_uses_flows(&spec);
  *fr += hg_recursive_uses_flows(&spec);
  *permuted += !same_order;
  free(hit);
  free(flows);
  hg_diagrams_free(&set);
  return n;
}

static void every_group_of(const char *process) {
  hg_channel_list *list = malloc(sizeof *list);
  assert_non_null(list);
  char error[512];
  const hg_channel_options options = {0};
  if (hg_partonic_channels(process, &options, list, error, sizeof error) != 0)
    fail_msg("%s: %s", process, error);
  int co = 0, fr = 0, permuted = 0;
  size_t most = 0;
  for (unsigned g = 0; g < list->n_groups; ++g) {
    const size_t n = check_process(list->groups[g].text, &co, &fr, &permuted);
    most = n > most ? n : most;
  }
  print_message("# %s: %u groups (%d colour-ordered, %d quark-line recursion), every engine flow "
                "one basis element, up to %zu flows; %d bases in another order\n",
                process, list->n_groups, co, fr, most, permuted);
  free(list);
}

static void tops_and_three_jets(void **state) {
  (void)state;
  every_group_of("p p > t t~ j j j");
}

static void four_jets(void **state) {
  (void)state;
  every_group_of("p p > j j j j");
}

/* Leptons and photons (the quark-line recursion), and the processes of recursive_flow_weights. */
static void other_shapes(void **state) {
  (void)state;
  const char *texts[] = {"u u~ > e+ e- g g", "u d~ > e+ ve g g", "u u~ > a g g", "g g > t t~ g",
                         "g g > g g g",      "u u~ > g g g",     "u d > u d g",  "g u > t t~ u",
                         "u u~ > e+ e- g"};
  int co = 0, fr = 0, permuted = 0;
  for (size_t k = 0; k < sizeof texts / sizeof *texts; ++k)
    check_process(texts[k], &co, &fr, &permuted);
  print_message("# %zu more processes (%d colour-ordered): every engine flow one basis element\n",
                sizeof texts / sizeof *texts, co);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tops_and_three_jets),
      cmocka_unit_test(four_jets),
      cmocka_unit_test(other_shapes),
  };
  return cmocka_run_group_tests_name("recursive_flow_basis", tests, NULL, NULL);
}
