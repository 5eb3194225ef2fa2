/* SPDX-License-Identifier: MIT */
/* Symmetries of the QCD amplitudes at MadGraph's reference points (../shared/refs/mg5-qcd):
 * gauge invariance (a gluon's polarisation replaced by its momentum gives |M|^2 = 0 relative to
 * the helicity sum), Bose symmetry (identical gluons exchanged), Lorentz invariance (every
 * momentum rotated and boosted; Gamma_t = 0 in every propagator of these processes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "io/mg5_points.h"
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

typedef struct {
  const char *text, *file;
} qcd_case;

/* Every process with external gluons, each against its Gamma_t = 0 (or massless) reference. */
static const qcd_case cases[] = {
    {"g g > t t~", "me_gg_ttx_WT0.txt"},   {"g g > t t~ g", "me_gg_ttxg_WT0.txt"},
    {"g g > t t~ g g", "me_gg_ttxgg_WT0.txt"}, {"g g > g g", "me_gg_gg.txt"},
    {"g g > g g g", "me_gg_ggg.txt"},      {"g g > g g g g", "me_gg_gggg.txt"},
    {"u u~ > g g", "me_uux_gg.txt"},       {"u u~ > g g g", "me_uux_ggg.txt"},
    {"u u~ > d d~ g", "me_uux_ddxg.txt"},
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* g g > t t~ g g and g g > g g g g take PoCL minutes per program (each gauge check is one more):
 * the exhaustive suite (HEGETCL_TEST_EXHAUSTIVE=1) checks them, the default run the others. */
static int in_this_run(const qcd_case *c) {
  const char *all = getenv("HEGETCL_TEST_EXHAUSTIVE");
  if (all != NULL && strcmp(all, "1") == 0) return 1;
  return strcmp(c->text, "g g > t t~ g g") != 0 && strcmp(c->text, "g g > g g g g") != 0;
}

static void read_points(const qcd_case *c, hg_mg5_points *points, hegetcl_process *process) {
  const char *dir = getenv("HEGETCL_QCD_REFS_DIR");
  char path[1024], message[1024];
  snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "../shared/refs/mg5-qcd", c->file);
  if (hg_mg5_points_read(path, points, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  if (hegetcl_process_from_text(process, c->text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
}

static double *evaluate(const hegetcl_process *process, const hg_mg5_points *points,
                        const double *momenta) {
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, process, &amp));
  double *me = calloc(points->n_points, sizeof *me);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, points->n_points, momenta, me));
  hegetcl_amplitude_destroy(amp);
  return me;
}

static int is_gluon_in(const char *text, unsigned particle) {
  char buf[160];
  snprintf(buf, sizeof buf, "%s", text);
  unsigned k = 0;
  for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    if (strcmp(tok, ">") == 0) continue;
    if (k++ == particle) return strcmp(tok, "g") == 0;
  }
  return 0;
}

/* Ward identity: the amplitude with eps_i -> p_i / E_i vanishes; summed over the other particles'
 * helicities it is measured against the physical helicity sum. Rounding leaves ~1e-16 of the
 * largest diagrams in the amplitude, so |M|^2 / sum ~ 1e-28; 1e-20 leaves room for the
 * cancellations between diagrams (a gauge-violating term would be O(1)). */
static void gluon_polarisation_replaced_by_its_momentum_gives_zero(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  for (size_t c = 0; c < N_CASES; ++c) {
    if (!in_this_run(&cases[c])) continue;
    hg_mg5_points points;
    hegetcl_process process;
    read_points(&cases[c], &points, &process);
    double *physical = evaluate(&process, &points, points.momenta);
    for (unsigned i = 0; i < points.n_particles; ++i) {
      if (!is_gluon_in(cases[c].text, i)) continue;
      hegetcl_amplitude *amp = NULL;
      TS_ASSERT_OK(ctx, hg_amplitude_create_gauge_check(ctx, &process, (int)i, &amp));
      double *me = calloc(points.n_points, sizeof *me);
      TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, points.n_points, points.momenta, me));
      for (size_t e = 0; e < points.n_points; ++e)
        if (!(fabs(me[e]) <= 1e-20 * physical[e]))
          fail_msg("%s, gluon %u's polarisation -> p/E, point %zu on %s: |M|^2 %.3e against the "
                   "helicity sum %.3e (ratio %.3e, tolerance 1e-20)",
                   cases[c].text, i, e + 1, ts_device_name(ctx), me[e], physical[e],
                   me[e] / physical[e]);
      free(me);
      hegetcl_amplitude_destroy(amp);
    }
    free(physical);
    hg_mg5_points_free(&points);
  }
}

/* Exchanging two identical gluons' momenta (the two incoming ones, and the last two outgoing
 * ones where they are gluons) leaves |M|^2 unchanged: the diagrams map onto each other, so only
 * rounding differs: 1e-12, since rounding is amplified where diagrams cancel (g g > g g g g,
 * point 2: 2e-13 here, and 2e-13 against MadGraph). */
static void exchanging_identical_gluons_changes_nothing(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  for (size_t c = 0; c < N_CASES; ++c) {
    if (!in_this_run(&cases[c])) continue;
    hg_mg5_points points;
    hegetcl_process process;
    read_points(&cases[c], &points, &process);
    double *reference = evaluate(&process, &points, points.momenta);
    const unsigned n = points.n_particles;
    const unsigned pairs[2][2] = {{0, 1}, {n - 2, n - 1}};
    for (int k = 0; k < 2; ++k) {
      const unsigned a = pairs[k][0], b = pairs[k][1];
      if (!is_gluon_in(cases[c].text, a) || !is_gluon_in(cases[c].text, b)) continue;
      double *swapped = malloc(4 * n * points.n_points * sizeof *swapped);
      memcpy(swapped, points.momenta, 4 * n * points.n_points * sizeof *swapped);
      for (size_t e = 0; e < points.n_points; ++e)
        for (unsigned mu = 0; mu < 4; ++mu) {
          double *x = &swapped[(mu * n + a) * points.n_points + e];
          double *y = &swapped[(mu * n + b) * points.n_points + e];
          const double t = *x;
          *x = *y;
          *y = t;
        }
      double *me = evaluate(&process, &points, swapped);
      for (size_t e = 0; e < points.n_points; ++e)
        if (!(ts_rel_diff(me[e], reference[e]) <= 1e-12))
          fail_msg("%s, gluons %u and %u exchanged, point %zu on %s: %.17g against %.17g",
                   cases[c].text, a, b, e + 1, ts_device_name(ctx), me[e], reference[e]);
      free(me);
      free(swapped);
    }
    free(reference);
    hg_mg5_points_free(&points);
  }
}

/* A rotation about a random axis by a random angle, then a boost of speed 0.6 along another. */
static void transform(double *v, const double axis[3], double angle, const double beta[3]) {
  const double c = cos(angle), s = sin(angle);
  const double x = v[1], y = v[2], z = v[3];
  const double dot = axis[0] * x + axis[1] * y + axis[2] * z;
  const double cross[3] = {axis[1] * z - axis[2] * y, axis[2] * x - axis[0] * z,
                           axis[0] * y - axis[1] * x};
  double r[3] = {x * c + cross[0] * s + axis[0] * dot * (1 - c),
                 y * c + cross[1] * s + axis[1] * dot * (1 - c),
                 z * c + cross[2] * s + axis[2] * dot * (1 - c)};
  const double b2 = beta[0] * beta[0] + beta[1] * beta[1] + beta[2] * beta[2];
  const double gamma = 1 / sqrt(1 - b2);
  const double bp = beta[0] * r[0] + beta[1] * r[1] + beta[2] * r[2];
  const double e = gamma * (v[0] + bp);
  for (int k = 0; k < 3; ++k) r[k] += ((gamma - 1) * bp / b2 + gamma * v[0]) * beta[k];
  v[0] = e;
  v[1] = r[0];
  v[2] = r[1];
  v[3] = r[2];
}

/* |M|^2 is a Lorentz scalar: a rotated and boosted point gives the same value; the helicity sum
 * does not depend on the frame's polarisation vectors (gauge invariance), and Gamma_t = 0 keeps
 * the top propagators gauge invariant. Tolerance 1e-11: the boost of speed 0.6 spreads the
 * energies, and cancellations between diagrams cost a few digits (MadGraph's author saw 3.6e-13). */
static void rotated_and_boosted_points_give_the_same_value(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  uint64_t rng = 20261124;
  for (size_t c = 0; c < N_CASES; ++c) {
    if (!in_this_run(&cases[c])) continue;
    hg_mg5_points points;
    hegetcl_process process;
    read_points(&cases[c], &points, &process);
    double *reference = evaluate(&process, &points, points.momenta);
    const unsigned n = points.n_particles;
    double *moved = malloc(4 * n * points.n_points * sizeof *moved);
    for (size_t e = 0; e < points.n_points; ++e) {
      const double ct = 2 * ts_uniform(&rng) - 1, phi = 6.283185307179586 * ts_uniform(&rng);
      const double axis[3] = {sqrt(1 - ct * ct) * cos(phi), sqrt(1 - ct * ct) * sin(phi), ct};
      const double angle = 6.283185307179586 * ts_uniform(&rng);
      const double bt = 2 * ts_uniform(&rng) - 1, bphi = 6.283185307179586 * ts_uniform(&rng);
      const double beta[3] = {0.6 * sqrt(1 - bt * bt) * cos(bphi),
                              0.6 * sqrt(1 - bt * bt) * sin(bphi), 0.6 * bt};
      for (unsigned i = 0; i < n; ++i) {
        double v[4];
        for (unsigned mu = 0; mu < 4; ++mu) v[mu] = points.momenta[(mu * n + i) * points.n_points + e];
        transform(v, axis, angle, beta);
        for (unsigned mu = 0; mu < 4; ++mu) moved[(mu * n + i) * points.n_points + e] = v[mu];
      }
    }
    double *me = evaluate(&process, &points, moved);
    for (size_t e = 0; e < points.n_points; ++e)
      if (!(ts_rel_diff(me[e], reference[e]) <= 1e-11))
        fail_msg("%s, point %zu rotated and boosted, on %s: %.17g against %.17g (ratio - 1 = "
                 "%.3e, tolerance 1e-11)",
                 cases[c].text, e + 1, ts_device_name(ctx), me[e], reference[e],
                 me[e] / reference[e] - 1);
    free(me);
    free(moved);
    free(reference);
    hg_mg5_points_free(&points);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gluon_polarisation_replaced_by_its_momentum_gives_zero),
      cmocka_unit_test(exchanging_identical_gluons_changes_nothing),
      cmocka_unit_test(rotated_and_boosted_points_give_the_same_value),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
