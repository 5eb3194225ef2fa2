/* SPDX-License-Identifier: MIT */
/* The quark-line recursion with two and three quark lines (identical flavours, tops) and with
 * colourless bosons on the lines (W + jets, Z/gamma* + jets, photons, t t~ h, two lines and a
 * lepton pair, coupling orders): |M|^2 against MadGraph5_aMC@NLO's reference files (1e-12
 * relative in double, 1e-4 in float), equal to the independent diagrams engine in every helicity
 * configuration at seeded RAMBO points, gauge invariant, and symmetric under exchanges of
 * identical particles and Lorentz boosts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "io/mg5_points.h"
#include "process/diagrams.h"
#include "qcd_points.h"
#include "test_support.h"

static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

static double *evaluate(const hegetcl_process *process, size_t n_points, const double *momenta,
                        const uint32_t *helicity) {
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, process, &amp));
  double *me = calloc(n_points, sizeof *me);
  for (size_t e = 0; e < n_points; ++e) me[e] = -1; /* poison */
  if (helicity == NULL)
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n_points, momenta, me));
  else
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n_points, momenta, helicity, me));
  hegetcl_amplitude_destroy(amp);
  return me;
}

/* ---- MadGraph's reference files ---- */

static void check_madgraph(const char *text, const char *dir_variable, const char *default_dir,
                           const char *file, hegetcl_width_scheme scheme,
                           hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  const double tolerance = precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
  const char *dir = getenv(dir_variable);
  char path[1024], message[1024];
  snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : default_dir, file);
  hg_mg5_points points;
  if (hg_mg5_points_read(path, &points, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  hegetcl_process process;
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  /* the recursive engine is the default for every quark-and-gluon process */
  assert_int_equal(process.engine, HEGETCL_ENGINE_RECURSIVE);
  process.precision = precision;
  process.width_scheme = scheme;
  assert_int_equal(hegetcl_process_particles(&process), points.n_particles);
  double *me = evaluate(&process, points.n_points, points.momenta, NULL);
  for (size_t e = 0; e < points.n_points; ++e)
    if (!(ts_rel_diff(me[e], points.me[e]) <= tolerance))
      fail_msg("%s (%s, %s width scheme) on %s, point %zu: hegetcl %.17g, MadGraph %.17g, ratio "
               "%.17g",
               text, hegetcl_precision_name(precision),
               scheme == HEGETCL_WIDTH_ALL ? "MadGraph's" : "resonant", ts_device_name(ctx), e + 1,
               me[e], points.me[e], me[e] / points.me[e]);
  free(me);
  hg_mg5_points_free(&points);
}

#define NEXT(name, text, file, scheme)                                                             \
  static void name##_matches_madgraph(void **state) {                                              \
    (void)state;                                                                                   \
    check_madgraph(text, "HEGETCL_NEXT_REFS_DIR", "../shared/refs/mg5-next", file, scheme,         \
                   HEGETCL_PRECISION_DOUBLE);                                                      \
    check_madgraph(text, "HEGETCL_NEXT_REFS_DIR", "../shared/refs/mg5-next", file, scheme,         \
                   HEGETCL_PRECISION_FLOAT);                                                       \
  }
#define QCD(name, text, file, scheme)                                                              \
  static void name##_matches_madgraph(void **state) {                                              \
    (void)state;                                                                                   \
    check_madgraph(text, "HEGETCL_QCD_REFS_DIR", "../shared/refs/mg5-qcd", file, scheme,           \
                   HEGETCL_PRECISION_DOUBLE);                                                      \
    check_madgraph(text, "HEGETCL_QCD_REFS_DIR", "../shared/refs/mg5-qcd", file, scheme,           \
                   HEGETCL_PRECISION_FLOAT);                                                       \
  }
NEXT(uu_uug, "u u > u u g", "me_uu_uug.txt", HEGETCL_WIDTH_RESONANT)
NEXT(ud_udg, "u d > u d g", "me_ud_udg.txt", HEGETCL_WIDTH_RESONANT)
NEXT(uux_uuxg, "u u~ > u u~ g", "me_uux_uuxg.txt", HEGETCL_WIDTH_RESONANT)
NEXT(gu_gug, "g u > g u g", "me_gu_gug.txt", HEGETCL_WIDTH_RESONANT)
NEXT(gu_ttxu, "g u > t t~ u", "me_gu_ttxu_WT0.txt", HEGETCL_WIDTH_RESONANT)
NEXT(gu_ttxu_width, "g u > t t~ u", "me_gu_ttxu.txt", HEGETCL_WIDTH_ALL)
NEXT(uux_ddxgg, "u u~ > d d~ g g", "me_uux_ddxgg.txt", HEGETCL_WIDTH_RESONANT)
QCD(uux_ddxg, "u u~ > d d~ g", "me_uux_ddxg.txt", HEGETCL_WIDTH_RESONANT)
QCD(uux_ttx, "u u~ > t t~", "me_uux_ttx.txt", HEGETCL_WIDTH_RESONANT)

/* ---- the diagrams engine, per helicity configuration ---- */

/* The same points repeated per helicity configuration: point e, configuration h at h * n + e. */
static double *repeat(const double *momenta, unsigned n, size_t n_points, size_t copies) {
  double *out = malloc(4 * n * n_points * copies * sizeof *out);
  const size_t total = n_points * copies;
  for (size_t k = 0; k < copies; ++k)
    for (size_t e = 0; e < n_points; ++e)
      for (unsigned c = 0; c < 4 * n; ++c)
        out[c * total + k * n_points + e] = momenta[c * n_points + e];
  return out;
}

/* Summed |M|^2 (1e-12) and every one of the helicity configurations (1e-12 of the sum: one
 * configuration can be far below it) equal the diagrams engine's. */
static void check_engines_agree(const char *text, size_t n_points) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_process rec = qcd_process_of(text), dia = rec;
  assert_int_equal(rec.engine, HEGETCL_ENGINE_RECURSIVE);
  dia.engine = HEGETCL_ENGINE_DIAGRAMS;
  const unsigned n = hegetcl_process_particles(&rec);
  /* the configurations' bits as the diagrams engine lays them out (a massive vector takes two) */
  hg_process_spec spec;
  char message[1024];
  if (hg_process_parse(text, &spec, message, sizeof message) != 0) fail_msg("%s", message);
  const int bits = hg_diagrams_helicity_layout(&spec, NULL);
  double *momenta = qcd_points_of(&rec, n_points, 23);
  double *a = evaluate(&rec, n_points, momenta, NULL), *b = evaluate(&dia, n_points, momenta, NULL);
  for (size_t e = 0; e < n_points; ++e)
    if (!(a[e] > 0 && ts_rel_diff(a[e], b[e]) <= 1e-12))
      fail_msg("%s, point %zu on %s: recursive %.17g, diagrams %.17g", text, e, ts_device_name(ctx),
               a[e], b[e]);
  const size_t configs = (size_t)1 << bits;
  double *many = repeat(momenta, n, n_points, configs);
  uint32_t *helicity = malloc(configs * n_points * sizeof *helicity);
  for (size_t k = 0; k < configs * n_points; ++k) helicity[k] = (uint32_t)(k / n_points);
  double *ha = evaluate(&rec, configs * n_points, many, helicity);
  double *hb = evaluate(&dia, configs * n_points, many, helicity);
  for (size_t k = 0; k < configs * n_points; ++k)
    if (!(fabs(ha[k] - hb[k]) <= 1e-12 * a[k % n_points]))
      fail_msg("%s, configuration %u, point %zu on %s: recursive %.17g, diagrams %.17g (sum "
               "%.6g)",
               text, helicity[k], k % n_points, ts_device_name(ctx), ha[k], hb[k], a[k % n_points]);
  free(ha);
  free(hb);
  free(helicity);
  free(many);
  free(a);
  free(b);
  free(momenta);
}

/* the diagrams engine's programs for these take PoCL seconds; g u > d d~ u g has diagrams whose
 * four-gluon vertex closes the amplitude with quark lines of odd pairing inside, whose Fermi sign
 * the diagrams engine once left out (its Ward identity failed) */
static const char *const both_engines[] = {"u d > u d g", "u u~ > u u~ g", "u u~ > d d~ s s~",
                                           "g u > d d~ u g"};
/* ... and for these up to minutes: exhaustive suite */
static const char *const both_engines_large[] = {
    "u u~ > t t~ g g",   "u u > u u g g",  "g u > t t~ u g",  "u u~ > u u~ g g",
    "u u~ > d d~ g g g", "u d > u d c c~", "u u~ > u u~ d d~"};

static void recursive_equals_diagrams(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof both_engines / sizeof both_engines[0]; ++k)
    check_engines_agree(both_engines[k], 3);
  if (ts_exhaustive())
    for (size_t k = 0; k < sizeof both_engines_large / sizeof both_engines_large[0]; ++k)
      check_engines_agree(both_engines_large[k], 3);
}

/* colourless bosons on the lines: W and Z/gamma* + jets, a photon, the Higgs on the top line, a
 * lepton pair between two quark lines, coupling orders that add photon and Z exchange */
static const char *const bosons[] = {"u d~ > e+ ve g g", "u u~ > a g g"};
/* ... and more programs (the exhaustive suite), with the boson self-couplings (W W Z, W W Z Z,
 * H H H, Z Z H H) */
static const char *const bosons_large[] = {
    "g g > t t~ h",   "u u~ > d d~ e+ e-",   "u u~ > e+ e- g g g", "u u > u u g QED<=2",
    "e+ e- > w+ w-",  "u d~ > w+ z g",       "e+ e- > z h h",      "e+ e- > w+ w- z",
    "u u~ > w+ w- g", "d d~ > e+ e- mu+ mu-"};

static void recursive_equals_diagrams_with_bosons(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof bosons / sizeof bosons[0]; ++k) check_engines_agree(bosons[k], 3);
  if (ts_exhaustive())
    for (size_t k = 0; k < sizeof bosons_large / sizeof bosons_large[0]; ++k)
      check_engines_agree(bosons_large[k], 3);
}

/* ---- symmetries ---- */

static double *swapped(const double *momenta, unsigned n, size_t n_points, unsigned i, unsigned j) {
  double *out = malloc(4 * n * n_points * sizeof *out);
  memcpy(out, momenta, 4 * n * n_points * sizeof *out);
  for (size_t e = 0; e < n_points; ++e)
    for (unsigned mu = 0; mu < 4; ++mu) {
      double *x = &out[(mu * n + i) * n_points + e], *y = &out[(mu * n + j) * n_points + e];
      const double t = *x;
      *x = *y;
      *y = t;
    }
  return out;
}

/* |M|^2 vanishes (1e-20 of it) with the polarisation of the gluon gauge replaced by its momentum,
 * is unchanged (1e-12) when the identical particles i and j exchange momenta, and under a boost of
 * speed 0.6 in a random direction (1e-11); float equals double to 1e-4. */
static void check_symmetries(const char *text, int gauge, const unsigned (*exchanges)[2],
                             int n_exchanges) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  enum { n_points = 4 };
  const hegetcl_process rec = qcd_process_of(text);
  assert_int_equal(rec.engine, HEGETCL_ENGINE_RECURSIVE);
  const unsigned n = hegetcl_process_particles(&rec);
  double *momenta = qcd_points_of(&rec, n_points, 41);
  double *physical = evaluate(&rec, n_points, momenta, NULL);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hg_amplitude_create_gauge_check(ctx, &rec, gauge, &amp));
  double *ward = calloc(n_points, sizeof *ward);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n_points, momenta, ward));
  for (size_t e = 0; e < n_points; ++e)
    if (!(fabs(ward[e]) <= 1e-20 * physical[e]))
      fail_msg("%s, gluon %d's polarisation -> p/E, point %zu on %s: %.3e against %.3e", text,
               gauge, e, ts_device_name(ctx), ward[e], physical[e]);
  free(ward);
  hegetcl_amplitude_destroy(amp);
  for (int k = 0; k < n_exchanges; ++k) {
    double *moved = swapped(momenta, n, n_points, exchanges[k][0], exchanges[k][1]);
    double *me = evaluate(&rec, n_points, moved, NULL);
    for (size_t e = 0; e < n_points; ++e)
      if (!(physical[e] > 0 && ts_rel_diff(me[e], physical[e]) <= 1e-12))
        fail_msg("%s, particles %u and %u exchanged, point %zu on %s: %.17g against %.17g", text,
                 exchanges[k][0], exchanges[k][1], e, ts_device_name(ctx), me[e], physical[e]);
    free(me);
    free(moved);
  }
  uint64_t rng = 7;
  double *moved = malloc(4 * n * n_points * sizeof *moved);
  for (size_t e = 0; e < n_points; ++e) {
    const double ct = 2 * ts_uniform(&rng) - 1, phi = 6.283185307179586 * ts_uniform(&rng);
    const double b[3] = {0.6 * sqrt(1 - ct * ct) * cos(phi), 0.6 * sqrt(1 - ct * ct) * sin(phi),
                         0.6 * ct};
    const double gamma = 1 / sqrt(1 - 0.36);
    for (unsigned i = 0; i < n; ++i) {
      double v[4];
      for (unsigned mu = 0; mu < 4; ++mu) v[mu] = momenta[(mu * n + i) * n_points + e];
      const double bp = b[0] * v[1] + b[1] * v[2] + b[2] * v[3];
      moved[(0 * n + i) * n_points + e] = gamma * (v[0] + bp);
      for (unsigned k = 0; k < 3; ++k)
        moved[((k + 1) * n + i) * n_points + e] =
            v[k + 1] + ((gamma - 1) * bp / 0.36 + gamma * v[0]) * b[k];
    }
  }
  double *me = evaluate(&rec, n_points, moved, NULL);
  for (size_t e = 0; e < n_points; ++e)
    if (!(ts_rel_diff(me[e], physical[e]) <= 1e-11))
      fail_msg("%s, boosted point %zu on %s: %.17g against %.17g", text, e, ts_device_name(ctx),
               me[e], physical[e]);
  hegetcl_process in_float = rec;
  in_float.precision = HEGETCL_PRECISION_FLOAT;
  double *single = evaluate(&in_float, n_points, momenta, NULL);
  for (size_t e = 0; e < n_points; ++e)
    if (!(ts_rel_diff(single[e], physical[e]) <= 1e-4))
      fail_msg("%s in float, point %zu on %s: %.9g against %.17g in double", text, e,
               ts_device_name(ctx), single[e], physical[e]);
  free(single);
  free(me);
  free(moved);
  free(physical);
  free(momenta);
}

static void identical_particles_gauge_and_boosts(void **state) {
  (void)state;
  const unsigned uu[][2] = {{0, 1}, {2, 3}};
  check_symmetries("u u > u u g g", 5, uu, 2);
  const unsigned gluons[][2] = {{4, 5}};
  check_symmetries("u u~ > d d~ g g", 4, gluons, 1);
  const unsigned none[][2] = {{0, 0}};
  check_symmetries("g u > t t~ u g", 0, none, 0);
  /* V + jets: each gluon's Ward identity, the gluons exchanged */
  const unsigned vjets[][2] = {{4, 5}};
  check_symmetries("u d~ > e+ ve g g", 5, vjets, 1);
  if (!ts_exhaustive()) return; /* more programs: the exhaustive suite */
  check_symmetries("u u~ > e+ e- g g", 4, vjets, 1);
  check_symmetries("u d~ > e+ ve g g", 4, vjets, 1);
  const unsigned vjets3[][2] = {{4, 5}, {5, 6}};
  check_symmetries("u u~ > e+ e- g g g", 6, vjets3, 2);
  check_symmetries("u u~ > u u~ g g", 5, gluons, 1);
  const unsigned three[][2] = {{5, 6}};
  check_symmetries("u u~ > d d~ g g g", 6, three, 1);
}

/* V + jets and t t~ h go to the recursive engine by default; a process with no diagram within
 * the coupling orders it gives is refused by it as by the diagrams engine, naming the fix;
 * sampled colours of such a process with the diagrams engine: refused, naming the exact colour
 * sum (the quark-line recursion's sampled colours: flow_colour_sampling). */
static void routing_and_refusals(void **state) {
  (void)state;
  const char *const recursive[] = {"u d~ > e+ ve g g", "u u~ > e+ e- g g g g",
                                   "g g > t t~ h",     "u u~ > a g g",
                                   "u u~ > d d~ a",    "u u > u u g QED<=2"};
  for (size_t k = 0; k < sizeof recursive / sizeof recursive[0]; ++k)
    if (qcd_process_of(recursive[k]).engine != HEGETCL_ENGINE_RECURSIVE)
      fail_msg("%s: the default engine is %s, not the recursive one", recursive[k],
               hegetcl_engine_name(qcd_process_of(recursive[k]).engine));
  hegetcl_process p = qcd_process_of("u u~ > g g g QCD==1");
  assert_int_equal(p.engine, HEGETCL_ENGINE_RECURSIVE);
  hegetcl_amplitude *amp = NULL;
  for (int e = 0; e < 2; ++e) {
    p.engine = e ? HEGETCL_ENGINE_DIAGRAMS : HEGETCL_ENGINE_RECURSIVE;
    assert_int_equal(hegetcl_amplitude_create(ctx, &p, &amp), HEGETCL_ERR_INPUT);
    assert_null(amp);
    assert_non_null(strstr(hegetcl_last_error(ctx), "within the coupling orders given"));
  }
  hegetcl_process two = qcd_process_of("u d~ > e+ ve g");
  two.engine = HEGETCL_ENGINE_DIAGRAMS;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &two, &amp));
  double *momenta = qcd_points_of(&two, 2, 5), me[2] = {0, 0};
  const uint32_t colour[2] = {0, 0};
  assert_int_equal(hegetcl_amplitude_evaluate_colour(amp, 2, momenta, NULL, colour, me),
                   HEGETCL_ERR_UNSUPPORTED);
  assert_non_null(strstr(hegetcl_last_error(ctx), "hegetcl_amplitude_evaluate"));
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(uu_uug_matches_madgraph),
      cmocka_unit_test(ud_udg_matches_madgraph),
      cmocka_unit_test(uux_uuxg_matches_madgraph),
      cmocka_unit_test(gu_gug_matches_madgraph),
      cmocka_unit_test(gu_ttxu_matches_madgraph),
      cmocka_unit_test(gu_ttxu_width_matches_madgraph),
      cmocka_unit_test(uux_ddxgg_matches_madgraph),
      cmocka_unit_test(uux_ddxg_matches_madgraph),
      cmocka_unit_test(uux_ttx_matches_madgraph),
      cmocka_unit_test(recursive_equals_diagrams),
      cmocka_unit_test(recursive_equals_diagrams_with_bosons),
      cmocka_unit_test(identical_particles_gauge_and_boosts),
      cmocka_unit_test(routing_and_refusals),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
