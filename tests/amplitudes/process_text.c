/* SPDX-License-Identifier: MIT */
/* Processes written as text: what parses, what is refused with which message, and the colour
 * algebra's basis sizes and colour factors against known values (no device). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "process/colour_loops.h"
#include "process/colour_ordered.h"
#include "process/diagrams.h"
#include "process/model_params.h"
#include "process/process_spec.h"
#include "test_support.h"

static void refused(const char *text, const char *expected) {
  hegetcl_process p;
  char message[1024] = "";
  const hegetcl_status status = hegetcl_process_from_text(&p, text, message, sizeof message);
  if (status != HEGETCL_ERR_INPUT || strstr(message, expected) == NULL)
    fail_msg("\"%s\": status %s, message \"%s\"; expected HEGETCL_ERR_INPUT and \"%s\"", text,
             hegetcl_status_name(status), message, expected);
}

static void bad_processes_are_refused_with_the_fix(void **state) {
  (void)state;
  refused("g g t t~", "no '>' between the incoming and the outgoing particles");
  refused("g g > t t~ > g", "more than one '>'");
  refused("g g > top t~", "unknown particle 'top'");
  refused("g g > top t~", "g a d d~ u u~");
  refused("g > g g", "1 incoming particles");
  refused("g g g > g g", "3 incoming particles");
  refused("g g > g", "fewer than two outgoing particles");
  refused("u u~ > t t", "electric charge is not conserved");
  refused("u d~ > g g", "electric charge is not conserved");
  refused("u u > g g", "electric charge is not conserved");
  refused("u c~ > g g", "the number of (d, u) fermions is not conserved");
  refused("u d~ > e+ vm", "the number of (e-, ve) fermions is not conserved");
  refused("u u~ > w+ g", "electric charge is not conserved");
  refused("u u~ > e+ e- QED<=x", "is not a coupling order");
  refused("u u~ > e+ e- QEW<=2", "is not a coupling order");
  refused("u u~ QED<=2 > e+ e-", "a coupling order before '>'");
  refused("u u~ > e+ QED<=2 e-", "a particle after a coupling order");
  refused("e- e+ > u d~", "electric charge is not conserved");
  refused("g g > g g g g g g g g g", "more than 10 particles");
  refused("", "no '>'");
}

/* Characters a terminal does not show are written out in the message, and named: a no-break
 * space (U+00A0, what some editors and web pages put between words), a carriage return or line
 * feed (a process pasted from a file), other control and non-ASCII characters. */
static void invisible_characters_are_shown_escaped(void **state) {
  (void)state;
  refused("g\xc2\xa0> t t~", "process \"g\\u00a0> t t~\"");
  refused("g\xc2\xa0> t t~",
          "unknown particle 'g\\u00a0>' (\\u00a0 is a no-break space: write the particles "
          "apart with plain spaces)");
  refused("g g > t t~\r", "unknown particle 't~\\r' (\\r and \\n are line breaks: give the "
                          "process on one line)");
  refused("g g\n> t t~", "unknown particle 'g\\n>'");
  refused("g g > t t\x7f", "unknown particle 't\\x7f' (a control character");
  refused("g g > t t\xe2\x80\x93", "unknown particle 't\\u2013' (a character outside ASCII");
}

/* The photon family given as text beyond the text's 2 -> 8: the message gives the engines'
 * photon limits (8, and 12 for the recursive engine) and how to reach them. */
static void the_photon_family_limit_is_quoted_per_engine(void **state) {
  (void)state;
  refused("u u~ > a a a a a a a a a",
          "more than 10 particles: a process given as text goes up to 2 -> 8; the photon family "
          "q q~ > n a goes further by its photon count, up to 8 photons with the permutation, "
          "unrolled and diagrams engines and 12 with the recursive engine");
  hegetcl_process p;
  char message[1024] = "";
  hegetcl_process_from_text(&p, "g g > g g g g g g g g g", message, sizeof message);
  if (strstr(message, "photon family") != NULL) fail_msg("gluons named the photons: %s", message);
}

static void a_process_without_tree_diagrams_is_refused(void **state) {
  (void)state;
  hg_process_spec spec;
  char error[1024];
  assert_int_equal(hg_process_parse("a a > a a", &spec, error, sizeof error), 0);
  hg_diagram_set set;
  assert_int_equal(hg_diagrams_build(&spec, 0, &set, error, sizeof error), -1);
  if (strstr(error, "has no tree-level diagram") == NULL) fail_msg("message: %s", error);
  /* e+ e- > ve ve~ exists through the Z (QED = 2), not within QED <= 1 */
  assert_int_equal(hg_process_parse("e+ e- > ve ve~ QED<=1", &spec, error, sizeof error), 0);
  assert_int_equal(hg_diagrams_build(&spec, 0, &set, error, sizeof error), -1);
  if (strstr(error, "within the coupling orders") == NULL) fail_msg("message: %s", error);
  assert_int_equal(hg_process_parse("a a > z z", &spec, error, sizeof error), 0);
  assert_int_equal(hg_diagrams_build(&spec, 0, &set, error, sizeof error), -1);
  if (strstr(error, "has no tree-level diagram") == NULL) fail_msg("message: %s", error);
}

static void the_photon_family_keeps_its_engines(void **state) {
  (void)state;
  hegetcl_process p;
  char message[256];
  assert_int_equal(hegetcl_process_from_text(&p, "d d~ > a a a", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(p.n_photons, 3);
  assert_true(fabs(p.quark_charge + 1.0 / 3.0) < 1e-15);
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
  assert_int_equal(hegetcl_process_particles(&p), 5);
  /* quarks and gluons, any number of quark lines, photons, leptons, W, Z, H and coupling orders:
   * the recursive engine (the colour-ordered kernels or the quark-line recursion) */
  assert_int_equal(hegetcl_process_from_text(&p, "g g > t t~ g", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
  assert_int_equal(hegetcl_process_particles(&p), 5);
  assert_int_equal(hegetcl_process_from_text(&p, "u u~ > d d~ g", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
  assert_int_equal(hegetcl_process_from_text(&p, "u u~ > d d~ s s~", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
  assert_int_equal(hegetcl_process_from_text(&p, "u u~ > d d~ a", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
  /* coupling orders may add photon and Z exchanges, which the quark-line recursion applies */
  assert_int_equal(hegetcl_process_from_text(&p, "u u~ > d d~ g QED<=2", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
}

/* Colour flows: (n-1)! traces for n gluons, n! strings for a quark line with n gluons (MadGraph's
 * colour bases); diagonal colour factors of known values: Tr(T^a T^b)-normalised single traces
 * of n gluons have (N^2-1)/2^n (N^n + ...) (for n = 4: 19/6), a quark line with two gluons
 * (T^a T^b)_ij has C_F^2 N = 16/3. Diagram counts with each four-gluon vertex counted once per
 * colour structure (MadGraph's count: 4, 25, 220, 16, 123). */
static void colour_bases_and_diagram_counts_are_madgraphs(void **state) {
  (void)state;
  const struct {
    const char *text;
    size_t diagrams, flows;
    double c00;
  } cases[] = {
      {"g g > g g", 6, 6, 19.0 / 6.0},
      {"g g > g g g", 45, 24, -1},
      {"g g > g g g g", 510, 120, -1},
      {"g g > t t~", 3, 2, 16.0 / 3.0},
      {"g g > t t~ g", 18, 6, -1},
      {"g g > t t~ g g", 159, 24, -1},
      {"u u~ > d d~ g", 5, 4, -1},
      {"u u~ > t t~", 1, 2, 9},
      /* the electroweak processes of ../shared/refs/mg5-next (their headers' counts) and the QCD
       * ones there, at MadGraph's lowest WEIGHTED order (a four-gluon vertex once per colour
       * structure: 16 + 2 and 36 + 2 for g u > g u g and u u~ > d d~ g g) */
      {"e+ e- > mu+ mu-", 2, 1, -1},
      {"u u~ > e+ e- g", 4, 1, -1},
      {"u u~ > e+ e- g g", 16, 2, -1},
      {"u d~ > e+ ve g g", 8, 2, -1},
      {"g g > t t~ h", 8, 2, -1},
      {"u u~ > a g g", 8, 2, -1},
      {"u u > u u g", 10, 4, -1},
      {"u d > u d g", 5, 4, -1},
      {"u u~ > u u~ g", 10, 4, -1},
      {"g u > g u g", 18, 6, -1},
      {"g u > t t~ u", 5, 4, -1},
      {"u u~ > d d~ g g", 38, 12, -1},
      /* e+ e- > W+ W-: photon and Z in the s channel, the neutrino in the t channel */
      {"e+ e- > w+ w-", 3, 1, -1},
      /* coupling orders: the QCD diagrams and the photon and Z exchanges between the lines */
      {"u u > u u g QED<=2", 10 + 2 * 2 * 4, 4, -1},
      {"u u~ > e+ e- g QCD==1 QED==2", 4, 1, -1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    hg_process_spec spec;
    char error[1024];
    hg_diagram_set set;
    assert_int_equal(hg_process_parse(cases[k].text, &spec, error, sizeof error), 0);
    if (hg_diagrams_build(&spec, 0, &set, error, sizeof error) != 0) fail_msg("%s", error);
    if (set.n_diagrams != cases[k].diagrams || set.n_flows != cases[k].flows)
      fail_msg("%s: %zu diagrams and %zu colour flows, expected %zu and %zu", cases[k].text,
               set.n_diagrams, set.n_flows, cases[k].diagrams, cases[k].flows);
    if (cases[k].c00 > 0 && fabs(set.colour_matrix[0] - cases[k].c00) > 1e-14)
      fail_msg("%s: colour factor C_00 = %.17g, expected %.17g", cases[k].text,
               set.colour_matrix[0], cases[k].c00);
    hg_diagrams_free(&set);
  }
}

/* Colour sums by index loops (colour_loops.c) against textbook values, N = 3, Tr(T^a T^b) =
 * delta/2: Tr(T^a T^a) = C_F N = 4; Tr(T^a T^a T^b T^b) = C_F^2 N = 16/3; Tr(T^a T^b T^a T^b) =
 * C_F (C_F - N/2) N = -2/3; f^abc f^abc = N (N^2 - 1) = 24 as |2 Tr([T^a,T^b] T^c)|^2 summed, which
 * U(N) generators give too (the commutator kills the U(1) part); and the recursive engine's
 * colour matrices: g g > t t~ g's 2x2 block {16/3, -2/3}, g g > g g's DDM entries. */
static void colour_loops_give_the_textbook_values(void **state) {
  (void)state;
  const unsigned char aa[] = {0, 0}, aabb[] = {0, 0, 1, 1}, abab[] = {0, 1, 0, 1};
  const int two = 2, four = 4;
  assert_true(fabs(hg_colour_loops(aa, &two, 1, 1) - 4.0) < 1e-14);
  assert_true(fabs(hg_colour_loops(aabb, &four, 1, 1) - 16.0 / 3) < 1e-14);
  assert_true(fabs(hg_colour_loops(abab, &four, 1, 1) + 2.0 / 3) < 1e-14);
  /* sum |Tr([T^a,T^b] T^c)|^2 = Tr(abc)Tr(cba) - Tr(abc)Tr(cab)... as four products of traces */
  const int threes[2] = {3, 3};
  const unsigned char t1[] = {0, 1, 2, 2, 1, 0}, t2[] = {0, 1, 2, 2, 0, 1};
  const unsigned char t3[] = {1, 0, 2, 2, 1, 0}, t4[] = {1, 0, 2, 2, 0, 1};
  for (int su = 0; su < 2; ++su) {
    const double f2 = 4 * (hg_colour_loops(t1, threes, 2, su) - hg_colour_loops(t2, threes, 2, su) -
                           hg_colour_loops(t3, threes, 2, su) + hg_colour_loops(t4, threes, 2, su));
    if (!(fabs(f2 - 24.0) < 1e-12)) fail_msg("f^abc f^abc = %.17g (su = %d), expected 24", f2, su);
  }
  hg_process_spec spec;
  hg_colour_ordered co;
  char error[512];
  assert_int_equal(hg_process_parse("g g > t t~ g", &spec, error, sizeof error), 0);
  assert_int_equal(hg_colour_ordered_build(&spec, &co, error, sizeof error), 0);
  assert_int_equal((int)co.n_orderings, 6);
  assert_true(fabs(co.colour[0] - 64.0 / 9) < 1e-13); /* Tr(T^a T^b T^c T^c T^b T^a) = C_F^3 N */
  hg_colour_ordered_free(&co);
  assert_int_equal(hg_process_parse("g g > t t~", &spec, error, sizeof error), 0);
  assert_int_equal(hg_colour_ordered_build(&spec, &co, error, sizeof error), 0);
  assert_true(fabs(co.colour[0] - 16.0 / 3) < 1e-14 && fabs(co.colour[1] + 2.0 / 3) < 1e-14);
  hg_colour_ordered_free(&co);
  /* g g > g g: one DDM element, Tr(T^c [T^1, [T^2, T^0]]) summed squared = N^2 (N^2 - 1) / 4 */
  assert_int_equal(hg_process_parse("g g > g g", &spec, error, sizeof error), 0);
  assert_int_equal(hg_colour_ordered_build(&spec, &co, error, sizeof error), 0);
  assert_int_equal((int)co.n_orderings, 2);
  if (!(fabs(co.colour[0] - 18.0) < 1e-12))
    fail_msg("g g > g g: DDM C_00 = %.17g, expected N^2 (N^2 - 1) / 4 = 18", co.colour[0]);
  hg_colour_ordered_free(&co);
  /* refused with the other engine named */
  assert_int_equal(hg_process_parse("u u~ > d d~ g", &spec, error, sizeof error), 0);
  assert_int_equal(hg_colour_ordered_build(&spec, &co, error, sizeof error), -1);
  assert_non_null(strstr(error, "--engine diagrams"));
}

/* The derived electroweak parameters and the couplings are MadGraph's (../shared/refs/mg5-next:
 * README and the GC_n values in the headers, HELAS's coupling = the UFO's over i). */
static void parameters_and_couplings_are_madgraphs(void **state) {
  (void)state;
  hegetcl_process p;
  hegetcl_process_defaults(&p, 2);
  const struct {
    const char *name;
    double value;
  } derived[] = {{"MW", 80.41900244575616},  {"sw2", 0.22224648578577766},
                 {"ee", 0.3079537672443688}, {"vev", 246.21845810181637},
                 {"yt", 0.9936661458150062}, {"G", 1.2177157847767197}};
  for (size_t k = 0; k < sizeof derived / sizeof derived[0]; ++k) {
    double v = 0;
    assert_int_equal(hegetcl_process_get_derived(&p, derived[k].name, &v), HEGETCL_OK);
    if (!(fabs(v / derived[k].value - 1) <= 4e-16))
      fail_msg("%s = %.17g, MadGraph %.17g", derived[k].name, v, derived[k].value);
  }
  double c[HG_PARAMS_SIZE];
  char error[512];
  assert_int_equal(hg_model_params(&p, c, error, sizeof error), 0);
  const double *g = c + HG_PARAMS_MASSES;
  const struct {
    int slot;
    double re, im;
    const char *what;
  } couplings[] = {
      /* GC_100 = i ee / (sw sqrt2): W */
      {HG_C_W, 0.46190543474313339, 0, "W left"},
      {HG_C_W + 1, 0, 0, "W right"},
      /* e: left -i (GC_50 + GC_59), right -2 i GC_59 */
      {HG_C_Z_E, -(0.28804415396362731 - 0.082309883272248419), 0, "Z e left"},
      {HG_C_Z_E + 1, 2 * 0.082309883272248419, 0, "Z e right"},
      /* GC_94 = -i yt / sqrt2: the top Yukawa */
      {HG_C_H_T, -0.70262806994129157, 0, "H t t~"},
  };
  for (size_t k = 0; k < sizeof couplings / sizeof couplings[0]; ++k) {
    const double re = g[2 * couplings[k].slot], im = g[2 * couplings[k].slot + 1];
    if (!(fabs(re - couplings[k].re) <= 4e-16 * fabs(couplings[k].re) + 1e-300 &&
          im == couplings[k].im))
      fail_msg("%s: %.17g%+.17gi, MadGraph %.17g%+.17gi", couplings[k].what, re, im,
               couplings[k].re, couplings[k].im);
  }
  assert_true(c[HG_PARAM_SLOT_MW] == derived[0].value ||
              fabs(c[HG_PARAM_SLOT_MW] / 80.41900244575616 - 1) < 4e-16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bad_processes_are_refused_with_the_fix),
      cmocka_unit_test(invisible_characters_are_shown_escaped),
      cmocka_unit_test(the_photon_family_limit_is_quoted_per_engine),
      cmocka_unit_test(a_process_without_tree_diagrams_is_refused),
      cmocka_unit_test(the_photon_family_keeps_its_engines),
      cmocka_unit_test(colour_bases_and_diagram_counts_are_madgraphs),
      cmocka_unit_test(parameters_and_couplings_are_madgraphs),
      cmocka_unit_test(colour_loops_give_the_textbook_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
