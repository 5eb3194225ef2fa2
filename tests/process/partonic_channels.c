/* SPDX-License-Identifier: MIT */
/* Multiparticle labels expanded into partonic channels and their groups, against hand counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "process/model.h"
#include "process/partonic_channels.h"
#include "process/process_spec.h"

static hg_channel_list *list; /* about 250 kB: one, on the heap */
static const hg_channel_options four = {0}, five = {1};

static int setup(void **state) {
  (void)state;
  list = calloc(1, sizeof *list);
  return list == NULL ? -1 : 0;
}
static int teardown(void **state) {
  (void)state;
  free(list);
  return 0;
}

static void expand(const char *process, const hg_channel_options *options) {
  char error[2048];
  const int rc = hg_partonic_channels(process, options, list, error, sizeof error);
  if (rc != 0) fail_msg("\"%s\": %s", process, error);
}

/* The channel with this text, or -1. */
static int find(const char *text) {
  for (unsigned i = 0; i < list->n_channels; ++i)
    if (strcmp(list->channels[i].text, text) == 0) return (int)i;
  return -1;
}

/* What every expansion must satisfy: groups tile the channels, no channel twice, each channel a
 * valid process, and each member's particle i equivalent to the group process's order[i] (same
 * spin, colour, charge, mass), order a permutation that keeps incoming incoming. */
static void check_structure(void) {
  unsigned next = 0;
  for (unsigned g = 0; g < list->n_groups; ++g) {
    const hg_channel_group *group = &list->groups[g];
    assert_int_equal(group->first, next);
    assert_true(group->count > 0);
    next += group->count;
    hg_process_spec gs;
    char error[1024];
    assert_int_equal(hg_process_parse(group->text, &gs, error, sizeof error), 0);
    for (unsigned i = group->first; i < group->first + group->count; ++i) {
      const hg_partonic_channel *c = &list->channels[i];
      assert_int_equal(c->group, g);
      hg_process_spec cs;
      if (hg_process_parse(c->text, &cs, error, sizeof error) != 0) fail_msg("%s", error);
      assert_int_equal(cs.n, gs.n);
      assert_int_equal(c->n, cs.n);
      assert_true(hg_process_iden(&cs) == hg_process_iden(&gs));
      int seen[HG_PROCESS_MAX_EXTERNAL] = {0};
      for (int k = 0; k < c->n; ++k) {
        assert_int_equal(c->pdg[k], hg_species_pdg(cs.species[k]));
        const int o = c->order[k];
        assert_true(o >= 0 && o < c->n && !seen[o]);
        seen[o] = 1;
        assert_true((k < 2) == (o < 2));
        const hg_particle *a = hg_model_particle(hg_species_particle(cs.species[k]));
        const hg_particle *b = hg_model_particle(hg_species_particle(gs.species[o]));
        assert_int_equal(a->spin, b->spin);
        assert_int_equal(a->colour, b->colour);
        assert_true(hg_species_charge(cs.species[k]) == hg_species_charge(gs.species[o]));
        assert_int_equal(a->mass, b->mass);
      }
    }
  }
  assert_int_equal(next, list->n_channels);
  for (unsigned i = 0; i < list->n_channels; ++i)
    for (unsigned k = 0; k < i; ++k)
      if (strcmp(list->channels[i].text, list->channels[k].text) == 0)
        fail_msg("channel \"%s\" listed twice", list->channels[i].text);
}

static void assert_same_group(const char *a, const char *b) {
  const int i = find(a), k = find(b);
  if (i < 0 || k < 0) fail_msg("missing channel: \"%s\" %d, \"%s\" %d", a, i, b, k);
  if (list->channels[i].group != list->channels[k].group)
    fail_msg("\"%s\" (group %u) and \"%s\" (group %u) should share a group", a,
             list->channels[i].group, b, list->channels[k].group);
}
static void assert_other_group(const char *a, const char *b) {
  const int i = find(a), k = find(b);
  assert_true(i >= 0 && k >= 0);
  if (list->channels[i].group == list->channels[k].group)
    fail_msg("\"%s\" and \"%s\" should be in different groups", a, b);
}

/* p p > t t~, four flavours: g g, and q q~, q~ q for q = u c d s: 1 + 8 = 9 channels.
 * Groups: g g; u-type (u u~, c c~, u~ u, c~ c); d-type (d d~, s s~, d~ d, s~ s): 3. u and d
 * differ in charge, so they are kept apart (their QCD |M|^2 agree, their photon/Z parts do not).
 * Five flavours add b b~, b~ b (b massless in the model, like d and s): 11 channels, 3 groups. */
static void top_pairs_have_nine_channels_in_three_groups(void **state) {
  (void)state;
  expand("p p > t t~", &four);
  check_structure();
  assert_int_equal(list->n_channels, 9);
  assert_int_equal(list->n_groups, 3);
  assert_string_equal(list->groups[0].text, "g g > t t~");
  assert_int_equal(list->groups[0].count, 1);
  assert_same_group("u u~ > t t~", "c c~ > t t~");
  assert_same_group("u u~ > t t~", "c~ c > t t~");
  assert_same_group("d d~ > t t~", "s~ s > t t~");
  assert_other_group("u u~ > t t~", "d d~ > t t~");
  const hg_partonic_channel *c = &list->channels[find("u~ u > t t~")];
  assert_string_equal(list->groups[c->group].text, "u u~ > t t~");
  assert_int_equal(c->order[0], 1);
  assert_int_equal(c->order[1], 0);
  assert_int_equal(c->order[2], 2);
  assert_int_equal(c->order[3], 3);
  assert_int_equal(c->pdg[0], -2);
  assert_int_equal(c->pdg[1], 2);
  assert_int_equal(list->groups[0].n_diagrams, 3); /* g g > t t~: s, t and u channel */
  assert_int_equal(list->groups[c->group].n_diagrams, 1);

  expand("p p > t t~", &five);
  check_structure();
  assert_int_equal(list->n_channels, 11);
  assert_int_equal(list->n_groups, 3);
  assert_same_group("b b~ > t t~", "d d~ > t t~");
  assert_same_group("b~ b > t t~", "s s~ > t t~");
}

/* p p > t t~ j, four flavours. Final t t~ g: g g, q q~, q~ q (1 + 8); final t t~ q: g q, q g
 * (2 x 4); final t t~ q~: g q~, q~ g (2 x 4): 25 channels. Groups: g g > t t~ g; u u~ > t t~ g and
 * d d~ > t t~ g (each with its c/s partner and the mirrors); g u > t t~ u, g d > t t~ d; g u~ >
 * t t~ u~, g d~ > t t~ d~: 7. MadGraph lists 13 processes (1 + 4 + 4 + 4), the mirrors inside.
 * Five flavours: 11 + 10 + 10 = 31 channels, still 7 groups. */
static void top_pairs_with_a_jet_have_twenty_five_channels_in_seven_groups(void **state) {
  (void)state;
  expand("p p > t t~ j", &four);
  check_structure();
  assert_int_equal(list->n_channels, 25);
  assert_int_equal(list->n_groups, 7);
  assert_same_group("u u~ > t t~ g", "c c~ > t t~ g");
  assert_same_group("u u~ > t t~ g", "u~ u > t t~ g");
  assert_same_group("g u > t t~ u", "c g > t t~ c");
  assert_same_group("g d~ > t t~ d~", "s~ g > t t~ s~");
  assert_other_group("g u > t t~ u", "g u~ > t t~ u~");
  assert_int_equal(find("u d > t t~ g"), -1);
  assert_int_equal(find("u g > t t~ g"), -1);
  const hg_partonic_channel *c = &list->channels[find("u~ u > t t~ g")];
  assert_string_equal(list->groups[c->group].text, "u u~ > t t~ g");
  const int swapped[] = {1, 0, 2, 3, 4};
  assert_memory_equal(c->order, swapped, sizeof swapped);
  c = &list->channels[find("c g > t t~ c")];
  assert_string_equal(list->groups[c->group].text, "g u > t t~ u");
  assert_memory_equal(c->order, swapped, sizeof swapped);

  expand("p p > t t~ j", &five);
  check_structure();
  assert_int_equal(list->n_channels, 31);
  assert_int_equal(list->n_groups, 7);
  assert_same_group("g b > t t~ b", "g d > t t~ d");
}

/* p p > j j with N light flavours (N = 4; 5 with b):
 *   g g > g g, g g > q q~                      1 + N
 *   g q > g q, q g > g q; the same for q~      2N + 2N
 *   q q > q q; q q' > q q' (q != q', ordered)  N + N(N-1); the same for antiquarks
 *   q q~ > g g, q q~ > q' q~' (all q'); mirrors 2N(1 + N)
 *   q q~' > q q~' (q != q'); mirrors           2N(N-1)
 * N = 4: 5 + 16 + 16 + 16 + 40 + 24 = 117; N = 5: 6 + 20 + 25 + 25 + 60 + 40 = 176.
 * Groups (u-type {u c}, d-type {d s (b)}): g g > g g 1; g g > q q~ 2; g q 2; g q~ 2; q q same
 * flavour 2; q q' 3 (u c, d s, u d types); antiquarks 2 + 3; q q~ same flavour: > g g, > q q~, >
 * q' q~' of the same type, > of the other type, per type: 8; q q~' 4 (u c~, d s~, u d~, d u~
 * types): 29, for four and five flavours alike. */
static void dijets_have_hand_counted_channels_and_groups(void **state) {
  (void)state;
  expand("p p > j j", &four);
  check_structure();
  assert_int_equal(list->n_channels, 117);
  assert_int_equal(list->n_groups, 29);
  assert_same_group("u u~ > d d~", "c~ c > s s~");
  assert_same_group("u u~ > d d~", "u u~ > s s~");
  assert_other_group("u u~ > u u~", "u u~ > c c~");
  assert_same_group("u u~ > c c~", "c c~ > u u~");
  assert_same_group("u d > u d", "s c > c s");
  assert_int_equal(find("u u~ > u~ u"), -1); /* each final state once, in the order written */
  assert_true(find("u u~ > u u~") >= 0);
  const hg_partonic_channel *c = &list->channels[find("s c > c s")];
  assert_string_equal(list->groups[c->group].text, "u d > u d");
  const int map[] = {1, 0, 2, 3}; /* s <- d (incoming 2), c <- u; the final c s keeps u d's order */
  assert_memory_equal(c->order, map, sizeof map);

  expand("p p > j j", &five);
  check_structure();
  assert_int_equal(list->n_channels, 176);
  assert_int_equal(list->n_groups, 29);
}

/* Labels that name leptons, explicit particles, and a label inside the final state twice. */
static void labels_and_particles_mix(void **state) {
  (void)state;
  /* u u~, c c~, d d~, s s~ and mirrors, each to e+ e- and mu+ mu- (photon): 16; g g has no
   * tree diagram; groups: (u-type, d-type) x (same lepton class e ~ mu): 2 */
  expand("p p > l+ l-", &four);
  check_structure();
  assert_int_equal(list->n_channels, 16);
  assert_int_equal(list->n_groups, 2);
  assert_same_group("u u~ > e+ e-", "c~ c > mu+ mu-");
  expand("g g > t t~ g", &four);
  assert_int_equal(list->n_channels, 1);
  assert_int_equal(list->n_groups, 1);
  assert_true(list->groups[0].n_diagrams > 0);
  /* g g > j j: g g and the 4 q q~ final states, written in the label's order */
  expand("g g > j j", &four);
  assert_int_equal(list->n_channels, 5);
  assert_true(find("g g > u u~") >= 0);
  assert_int_equal(list->n_groups, 3);
}

static void expect_error(const char *process, const char *words) {
  char error[2048] = "";
  if (hg_partonic_channels(process, &four, list, error, sizeof error) == 0)
    fail_msg("\"%s\" was accepted", process);
  if (strstr(error, words) == NULL)
    fail_msg("\"%s\": message \"%s\" lacks \"%s\"", process, error, words);
  assert_int_equal(list->n_channels, 0);
}

static void bad_processes_get_clear_messages(void **state) {
  (void)state;
  expect_error("p p > t t~ x", "unknown particle or label 'x'");
  expect_error("p p > q q~", "no label q");
  expect_error("p p > e+", "fewer than two outgoing");
  expect_error("p p > e+ mu-", "no partonic channel");
  expect_error("g g > e+ e-", "no partonic channel");
  expect_error("p p t t~", "no '>'");
  expect_error("p > t t~", "1 incoming");
  /* 2 -> 6 jets: 1395 channels conserve charge, colour and flavour */
  expect_error("p p > j j j j j j", "hegetcl takes at most 1024");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(top_pairs_have_nine_channels_in_three_groups),
      cmocka_unit_test(top_pairs_with_a_jet_have_twenty_five_channels_in_seven_groups),
      cmocka_unit_test(dijets_have_hand_counted_channels_and_groups),
      cmocka_unit_test(labels_and_particles_mix),
      cmocka_unit_test(bad_processes_get_clear_messages),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
