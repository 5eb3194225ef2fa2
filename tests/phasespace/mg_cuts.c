/* SPDX-License-Identifier: MIT */
/* MadGraph-named cuts on constructed events just inside and just outside each cut, the off
 * values, the particle classes, and the table's validation and printout. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "phasespace/mg_cuts.h"

#define PI 3.14159265358979323846
#define MAXN 10

/* An event under construction: two beams along z, then outgoing particles made from (pT, y, phi,
 * m): E = m_T cosh y, pz = m_T sinh y. Momentum balance does not matter to the cuts. */
typedef struct {
  double p[MAXN][4];
  int code[MAXN];
  int n;
} event;

static void start(event *e) {
  memset(e, 0, sizeof *e);
  const double beams[2][4] = {{3000, 0, 0, 3000}, {3000, 0, 0, -3000}};
  memcpy(e->p, beams, sizeof beams);
  e->n = 2;
}

static void add(event *e, int pdg, double pt, double y, double phi, double m) {
  const double mt = sqrt(m * m + pt * pt);
  double *p = e->p[e->n];
  p[0] = mt * cosh(y);
  p[1] = pt * cos(phi);
  p[2] = pt * sin(phi);
  p[3] = mt * sinh(y);
  e->code[e->n++] = hg_mg_cut_class(pdg, m, 4);
}

static int passes(const event *e, const double *cuts) {
  return hg_passes_mg_cuts(HG_MOMENTA(e->p), e->code, 2, e->n, cuts);
}

static double cuts[HG_CUT_COUNT];

/* Sets one cut, all others off, checking the table accepts it. */
static void only(const char *name, double value) {
  char error[512];
  hg_mg_cuts_off(cuts);
  const int i = hg_mg_cut_index(name);
  assert_true(i >= 0);
  if (hg_mg_cut_check(i, value, error, sizeof error) != 0) fail_msg("%s", error);
  cuts[i] = value;
}

static void expect(const event *e, int expected, const char *what) {
  if (passes(e, cuts) != expected)
    fail_msg("%s: the event should %s", what, expected ? "pass" : "fail");
}

/* pT, |y| bounds on each class: a particle just above and just below. The top next to it is
 * never cut. */
static void each_particle_cut_just_inside_and_outside(void **state) {
  (void)state;
  const struct {
    const char *pt, *eta;
    int pdg;
  } classes[] = {{"ptj", "etaj", 21}, {"ptj", "etaj", 2},  {"ptb", "etab", 5},
                 {"pta", "etaa", 22}, {"ptl", "etal", 11}, {"ptl", "etal", -13}};
  for (size_t k = 0; k < sizeof classes / sizeof classes[0]; ++k) {
    event e;
    char what[128];
    only(classes[k].pt, 50);
    for (int side = 0; side < 2; ++side) {
      start(&e);
      add(&e, 6, 1.0, 0.3, 0.1, 173); /* a top with pT = 1: no cut acts on it */
      add(&e, classes[k].pdg, side ? 50 * (1 + 1e-9) : 50 * (1 - 1e-9), 0.3, 1.0, 0);
      snprintf(what, sizeof what, "%s = 50, pdg %d at pT 50 %s", classes[k].pt, classes[k].pdg,
               side ? "+" : "-");
      expect(&e, side, what);
    }
    start(&e);
    add(&e, classes[k].pdg, 50, 0.3, 1.0, 0); /* exactly at the bound: MadGraph keeps it */
    expect(&e, 1, "pT exactly at the cut");
    only(classes[k].eta, 2.5);
    for (int side = 0; side < 2; ++side)
      for (int sign = -1; sign <= 1; sign += 2) {
        start(&e);
        add(&e, classes[k].pdg, 20, sign * (side ? 2.5 * (1 - 1e-9) : 2.5 * (1 + 1e-9)), 1.0, 0);
        snprintf(what, sizeof what, "%s = 2.5, pdg %d at y = %+d x 2.5 %s", classes[k].eta,
                 classes[k].pdg, sign, side ? "-" : "+");
        expect(&e, side, what);
      }
  }
  /* b is a jet with maxjetflavor 5: ptb no longer acts on it, ptj does */
  assert_int_equal(hg_mg_cut_class(5, 0, 5), HG_CUT_CLASS_JET);
  assert_int_equal(hg_mg_cut_class(-5, 0, 4), HG_CUT_CLASS_B);
}

/* Delta R with rapidity and phi (across phi = pi too) for each pair type. */
static void delta_r_just_inside_and_outside(void **state) {
  (void)state;
  const struct {
    const char *name;
    int a, b;
  } pairs[] = {
      {"drjj", 21, 1}, {"draa", 22, 22}, {"draj", 22, 21}, {"drja", 21, 22}, {"drll", 11, -13}};
  for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; ++k) {
    only(pairs[k].name, 0.4);
    for (int side = 0; side < 2; ++side) {
      event e;
      const double d = side ? 0.4 * (1 + 1e-9) : 0.4 * (1 - 1e-9);
      start(&e);
      add(&e, pairs[k].a, 30, 0.5, 0.2, 0);
      add(&e, pairs[k].b, 40, 0.5 + d * 0.6, 0.2 + d * 0.8, 0); /* Delta y, Delta phi: 3-4-5 */
      char what[128];
      snprintf(what, sizeof what, "%s = 0.4 at Delta R = 0.4 %s", pairs[k].name, side ? "+" : "-");
      expect(&e, side, what);
      start(&e); /* the same distance across phi = +-pi */
      add(&e, pairs[k].a, 30, 0.5, PI - 0.1, 0);
      add(&e, pairs[k].b, 40, 0.5 + d * 0.6, -PI - 0.1 + d * 0.8, 0);
      expect(&e, side, "across phi = pi");
    }
  }
  /* drjj does not act on a jet-photon pair, drll not on a lepton-jet pair */
  only("drjj", 1.0);
  event e;
  start(&e);
  add(&e, 21, 30, 0, 0, 0);
  add(&e, 22, 30, 0.1, 0, 0);
  add(&e, 11, 30, 0.05, 0, 0);
  expect(&e, 1, "drjj with one jet");
}

/* mmll and mmllmax on same-flavour opposite-charge pairs only: two massless leptons back to back
 * in phi at y = 0 have m = 2 pT. */
static void lepton_pair_mass_window(void **state) {
  (void)state;
  hg_mg_cuts_off(cuts);
  cuts[HG_CUT_MMLL] = 66;
  cuts[HG_CUT_MMLLMAX] = 116;
  char error[256];
  assert_int_equal(hg_mg_cuts_check(cuts, error, sizeof error), 0);
  const double masses[] = {66 * (1 - 1e-9), 66 * (1 + 1e-9), 116 * (1 - 1e-9), 116 * (1 + 1e-9)};
  const int pass[] = {0, 1, 1, 0};
  for (int k = 0; k < 4; ++k) {
    event e;
    start(&e);
    add(&e, 11, masses[k] / 2, 0, 0, 0);
    add(&e, -11, masses[k] / 2, 0, PI, 0);
    add(&e, 21, 30, 1, 1, 0);
    char what[64];
    snprintf(what, sizeof what, "e- e+ at m = %.9g", masses[k]);
    expect(&e, pass[k], what);
  }
  const int others[][2] = {{11, -13}, {11, 11}, {13, 13}};
  for (int k = 0; k < 3; ++k) {
    event e;
    start(&e);
    add(&e, others[k][0], 10, 0, 0, 0);
    add(&e, others[k][1], 10, 0, PI, 0); /* m = 20, but not a same-flavour opposite pair */
    expect(&e, 1, "a pair that is not same-flavour opposite-charge");
  }
  event e;
  start(&e);
  add(&e, 13, 10, 0, 0, 0);
  add(&e, -13, 10, 0, PI, 0);
  expect(&e, 0, "mu- mu+ at m = 20");
}

/* xptj: the hardest jet at least xptj (no jets: no cut, as MadGraph); ihtmin: jets and b only. */
static void hardest_jet_and_inclusive_ht(void **state) {
  (void)state;
  only("xptj", 100);
  for (int side = 0; side < 2; ++side) {
    event e;
    start(&e);
    add(&e, 21, 30, 0, 0, 0);
    add(&e, 2, side ? 100 * (1 + 1e-9) : 100 * (1 - 1e-9), 1, 2, 0);
    add(&e, 22, 500, 0, 1, 0); /* a photon does not count */
    expect(&e, side, "xptj = 100");
  }
  event e;
  start(&e);
  add(&e, 11, 10, 0, 0, 0);
  add(&e, -11, 10, 0, 1, 0);
  expect(&e, 1, "xptj without jets");
  only("ihtmin", 200);
  for (int side = 0; side < 2; ++side) {
    start(&e);
    add(&e, 21, 80, 0, 0, 0);
    add(&e, 5, 70, 1, 2, 0);
    add(&e, -1, side ? 50 * (1 + 1e-9) : 50 * (1 - 1e-9), -1, 4, 0);
    add(&e, 6, 400, 0, 1, 173); /* a top does not count */
    add(&e, 22, 400, 0, 2, 0);  /* nor a photon */
    expect(&e, side, "ihtmin = 200");
  }
  start(&e);
  add(&e, 6, 400, 0, 1, 173);
  add(&e, -6, 400, 0, 2, 173);
  expect(&e, 0, "ihtmin on t t~: nothing to sum");
}

/* With every cut off, extreme events pass: pT near 0, |y| = 8, overlapping partons. */
static void nothing_is_cut_unless_asked(void **state) {
  (void)state;
  hg_mg_cuts_off(cuts);
  char text[64];
  hg_mg_cuts_print(cuts, text, sizeof text);
  assert_string_equal(text, "none");
  event e;
  start(&e);
  add(&e, 21, 1e-3, 8, 0, 0);
  add(&e, 21, 1e-3, 8, 1e-6, 0);
  add(&e, 22, 0.5, -7, 1, 0);
  add(&e, 11, 0.2, 6, 2, 0);
  add(&e, -11, 0.2, 6, 2.01, 0);
  add(&e, 5, 0.1, 0, 3, 0);
  expect(&e, 1, "all cuts off");
}

static void the_table_checks_and_prints(void **state) {
  (void)state;
  char error[512], text[256];
  for (int i = 0; i < HG_CUT_COUNT; ++i) {
    const hg_mg_cut_info *r = hg_mg_cut_info_at(i);
    assert_int_equal(r->index, i);
    assert_int_equal(hg_mg_cut_index(r->name), i);
    assert_int_equal(hg_mg_cut_check(i, r->off, error, sizeof error), 0);
  }
  assert_null(hg_mg_cut_info_at(HG_CUT_COUNT));
  assert_int_equal(hg_mg_cut_index("drja"), HG_CUT_DRJA);
  assert_int_equal(hg_mg_cut_index("ptjmax"), -1);
  const struct {
    const char *name;
    double value;
    const char *words;
  } bad[] = {{"ptj", -5, "cannot be negative"},
             {"etaj", 0, "removes them all"},
             {"etaj", -2, "-1 for no cut"},
             {"drjj", -0.4, "cannot be negative"},
             {"mmllmax", 0, "-1 for no cut"},
             {"ihtmin", -1, "cannot be negative"},
             {"pta", NAN, "finite"},
             {"etal", INFINITY, "finite"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
    const int i = hg_mg_cut_index(bad[k].name);
    if (hg_mg_cut_check(i, bad[k].value, error, sizeof error) == 0)
      fail_msg("%s = %g was accepted", bad[k].name, bad[k].value);
    if (strstr(error, bad[k].words) == NULL || strstr(error, bad[k].name) == NULL)
      fail_msg("%s = %g: message \"%s\" lacks \"%s\"", bad[k].name, bad[k].value, error,
               bad[k].words);
  }
  hg_mg_cuts_off(cuts);
  cuts[HG_CUT_MMLL] = 120;
  cuts[HG_CUT_MMLLMAX] = 116;
  assert_int_equal(hg_mg_cuts_check(cuts, error, sizeof error), -1);
  assert_non_null(strstr(error, "mmllmax"));
  hg_mg_cuts_off(cuts);
  cuts[HG_CUT_PTJ] = 50;
  cuts[HG_CUT_ETAJ] = 5;
  cuts[HG_CUT_PTB] = 20;
  assert_int_equal(hg_mg_cuts_check(cuts, error, sizeof error), 0);
  hg_mg_cuts_print(cuts, text, sizeof text);
  assert_string_equal(text, "ptj = 50 GeV, etaj = 5, ptb = 20 GeV");
  /* p p > t t~ j: ptb acts on nothing */
  const int codes[5] = {0, 0, hg_mg_cut_class(6, 173, 4), hg_mg_cut_class(-6, 173, 4),
                        hg_mg_cut_class(21, 0, 4)};
  hg_mg_cuts_unused(cuts, codes, 2, 5, text, sizeof text);
  assert_string_equal(text, "ptb");
  assert_int_equal(hg_mg_cut_class(12, 0, 4), HG_CUT_CLASS_NEUTRINO);
  assert_int_equal(hg_mg_cut_code_class(hg_mg_cut_class(-11, 0, 4)), HG_CUT_CLASS_LEPTON);
  assert_int_equal(hg_mg_cut_code_pdg(hg_mg_cut_class(-11, 0, 4)), -11);
  assert_int_equal(hg_mg_cut_code_pdg(hg_mg_cut_class(13, 0, 4)), 13);
  assert_int_equal(hg_mg_cut_class(24, 80.4, 4), HG_CUT_CLASS_NONE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_particle_cut_just_inside_and_outside),
      cmocka_unit_test(delta_r_just_inside_and_outside),
      cmocka_unit_test(lepton_pair_mass_window),
      cmocka_unit_test(hardest_jet_and_inclusive_ht),
      cmocka_unit_test(nothing_is_cut_unless_asked),
      cmocka_unit_test(the_table_checks_and_prints),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
