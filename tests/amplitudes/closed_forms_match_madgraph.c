/* SPDX-License-Identifier: MIT */
/* The closed-form QCD |M|^2 of tests/support/qcd_closed_forms.c reproduce MadGraph5_aMC@NLO.
 *
 * References: ../shared/refs/mg5-qcd (HEGETCL_QCD_REFS_DIR; its README gives the normalisation:
 * alpha_s = 0.118 fixed, m_t = 173 GeV, the *_WT0 files for tops, since MadGraph's width in the
 * t-channel top propagator is not in the analytic formulas). Every point must agree to 1e-12
 * relative, host double. The Parke-Taylor colour sum is checked twice: its colour factors against
 * an explicit sum over Gell-Mann matrices (n <= 7), and, for g g -> g g and g g -> g g g, where
 * every non-vanishing helicity configuration is MHV or anti-MHV, its sum over configurations
 * divided by IDEN against MadGraph's ME. For g g -> g g g g the MHV part is only a part of the sum
 * (the NMHV configurations are missing): its share is printed, not asserted. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "io/mg5_points.h"
#include "qcd_closed_forms.h"

#define TOLERANCE 1e-12
#define G_S 1.2177157847767197 /* 2 sqrt(pi 0.118), the README's value */
#define M_TOP 173.0
#define MAX_PARTICLES 16

/* Reads ../shared/refs/mg5-qcd/<name>, failing the test with the reader's message. */
static void read_reference(const char *name, unsigned n_particles, hg_mg5_points *points) {
  const char *dir = getenv("HEGETCL_QCD_REFS_DIR");
  char path[1024], message[1024];
  snprintf(path, sizeof path, "%s/%s", dir ? dir : "../shared/refs/mg5-qcd", name);
  if (hg_mg5_points_read(path, points, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s (set HEGETCL_QCD_REFS_DIR to the folder of the mg5-qcd references)", message);
  if (points->n_particles != n_particles)
    fail_msg("%s: %u particles a point, expected %u", path, points->n_particles, n_particles);
}

static double rel_diff(double a, double b) { return b == 0 ? fabs(a) : fabs(a / b - 1); }

/* |M|^2 of one point from a closed form. */
typedef double (*closed_form)(double (*p)[4]);

static double gg_ttx(double (*p)[4]) { return hg_closed_gg_ttx(p, G_S, M_TOP); }
static double qqx_ttx(double (*p)[4]) { return hg_closed_qqx_ttx(p, G_S, M_TOP); }
static double gg_gg(double (*p)[4]) { return hg_closed_gg_gg(p, G_S); }
static double qqx_gg(double (*p)[4]) { return hg_closed_qqx_gg(p, G_S); }

/* Sum over every helicity configuration of the Parke-Taylor colour sum, / IDEN; returns -1 if a
 * configuration is NMHV (and then sums the others into *mhv_part). */
static double mhv_sum(unsigned n, double (*p)[4], double iden, double *mhv_part) {
  double sum = 0;
  int complete = 1;
  for (uint32_t h = 0; h < (1u << n); ++h) {
    const double value = hg_closed_mhv_gluons(n, p, h, G_S);
    if (value == HG_CLOSED_NMHV) {
      complete = 0;
      continue;
    }
    if (value < 0)
      fail_msg("n=%u helicity %#x: %s", n, (unsigned)h, hg_closed_error_message(value));
    sum += value;
  }
  if (mhv_part) *mhv_part = sum / iden;
  return complete ? sum / iden : -1;
}

static double gg_gg_parke_taylor(double (*p)[4]) { return mhv_sum(4, p, 512, NULL); }
static double gg_ggg_parke_taylor(double (*p)[4]) { return mhv_sum(5, p, 1536, NULL); }

/* Compares form with every point of file to TOLERANCE and prints the worst deviation. */
static void check_file(const char *file, unsigned n_particles, closed_form form, const char *what) {
  hg_mg5_points points;
  read_reference(file, n_particles, &points);
  double worst = 0, p[MAX_PARTICLES][4];
  for (size_t e = 0; e < points.n_points; ++e) {
    hg_mg5_points_momenta(&points, e, p);
    const double value = form(p), rel = rel_diff(value, points.me[e]);
    if (!(rel <= TOLERANCE))
      fail_msg("%s, %s point %zu: closed form %.17g, MadGraph %.17g, ratio %.17g (tolerance "
               "%.0e, host double)",
               what, file, e + 1, value, points.me[e], value / points.me[e], TOLERANCE);
    worst = fmax(worst, rel);
  }
  print_message("# %s vs %s: %zu points, worst |ratio - 1| %.2e\n", what, file, points.n_points,
                worst);
  hg_mg5_points_free(&points);
}

/* ---- Colour factors against an explicit sum over the Gell-Mann matrices ---- */

/* t^a = lambda^a / 2, Gell-Mann's matrices. */
static void gell_mann_generators(double complex t[8][3][3]) {
  memset(t, 0, 8 * sizeof t[0]);
  t[0][0][1] = t[0][1][0] = 0.5;
  t[1][0][1] = -0.5 * I, t[1][1][0] = 0.5 * I;
  t[2][0][0] = 0.5, t[2][1][1] = -0.5;
  t[3][0][2] = t[3][2][0] = 0.5;
  t[4][0][2] = -0.5 * I, t[4][2][0] = 0.5 * I;
  t[5][1][2] = t[5][2][1] = 0.5;
  t[6][1][2] = -0.5 * I, t[6][2][1] = 0.5 * I;
  t[7][0][0] = t[7][1][1] = 0.5 / sqrt(3.0), t[7][2][2] = -1 / sqrt(3.0);
}

/* Every ordering up to n = 6 and the first 8 of 720 at n = 7, where the explicit sum runs over
 * 8^7 = 2 million colour tuples an ordering. */
static void
the_trace_colour_factors_equal_a_sum_over_gell_mann_matrices_for_n_2_to_7(void **state) {
  (void)state;
  double complex t[8][3][3];
  gell_mann_generators(t);
  for (unsigned n = 2; n <= 7; ++n) {
    const unsigned max_orderings = n == 7 ? 8 : 720;
    /* tr[a] = Tr(t^a0 t^a1 ... ) for every colour tuple, a0 the most significant octal digit */
    const size_t n_tuples = (size_t)1 << (3 * n);
    double complex *tr = malloc(n_tuples * sizeof *tr);
    assert_non_null(tr);
    for (size_t a = 0; a < n_tuples; ++a) {
      double complex m[3][3], next[3][3];
      memcpy(m, t[(a >> (3 * (n - 1))) & 7], sizeof m);
      for (unsigned k = 1; k < n; ++k) {
        double complex(*g)[3] = t[(a >> (3 * (n - 1 - k))) & 7];
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c)
            next[r][c] = m[r][0] * g[0][c] + m[r][1] * g[1][c] + m[r][2] * g[2][c];
        memcpy(m, next, sizeof m);
      }
      tr[a] = m[0][0] + m[1][1] + m[2][2];
    }
    /* the taus of 1..n-1 in the order of their octal codes */
    unsigned tau[8], count = 0;
    double worst = 0;
    const unsigned m = n - 1;
    for (unsigned code = 0; code < (1u << (3 * m)) && count < max_orderings; ++code) {
      unsigned seen = 0, ok = 1;
      for (unsigned k = 0; k < m; ++k) {
        tau[k] = (code >> (3 * k)) & 7;
        if (tau[k] >= m || (seen >> tau[k] & 1u)) ok = 0;
        seen |= 1u << (tau[k] & 7);
      }
      if (!ok) continue;
      ++count;
      /* 8^n terms: summed in long double so that the sum adds no error of its own beyond the
       * terms' (each a few units of 1e-16 of its size: magnitude is the sum of |terms|) */
      long double sum_re = 0, sum_im = 0;
      double magnitude = 0;
      for (size_t a = 0; a < n_tuples; ++a) {
        /* the second trace Tr(t^b0 t^b_(1+tau0) ...) */
        size_t b = (a >> (3 * (n - 1))) & 7;
        for (unsigned k = 0; k < m; ++k) b = b << 3 | ((a >> (3 * (n - 2 - tau[k]))) & 7);
        const double complex term = tr[a] * conj(tr[b]);
        sum_re += creal(term), sum_im += cimag(term);
        magnitude += cabs(term);
      }
      const double complex sum = (double)sum_re + (double)sum_im * I;
      const double fierz = hg_closed_trace_colour_factor(n, tau);
      if (!(fabs(fierz - creal(sum)) <= 1e-14 * magnitude && fabs(cimag(sum)) <= 1e-14 * magnitude))
        fail_msg("n=%u tau code %o: Fierz %.17g, Gell-Mann sum %.17g%+.3gi (sum of |terms| %.3g)",
                 n, code, fierz, creal(sum), cimag(sum), magnitude);
      worst = fmax(worst, fabs(fierz - creal(sum)) / magnitude);
    }
    print_message("# colour factors n=%u: %u orderings, worst |Fierz - Gell-Mann| / sum of "
                  "|terms| %.2e\n",
                  n, count, worst);
    free(tr);
  }
  /* a known value: sum_a |Tr(t^a t^b)|^2 = (N^2 - 1) / 4 = 2 */
  const unsigned identity[1] = {0};
  assert_true(hg_closed_trace_colour_factor(2, identity) == 2.0);
}

static void gg_to_ttbar_matches_madgraph_with_zero_top_width(void **state) {
  (void)state;
  check_file("me_gg_ttx_WT0.txt", 4, gg_ttx, "g g -> t t~ (Combridge)");
}

static void uubar_to_ttbar_matches_madgraph(void **state) {
  (void)state;
  check_file("me_uux_ttx.txt", 4, qqx_ttx, "u u~ -> t t~ (Combridge)");
}

static void gg_to_gg_matches_madgraph(void **state) {
  (void)state;
  check_file("me_gg_gg.txt", 4, gg_gg, "g g -> g g (2 -> 2 formula)");
}

static void uubar_to_gg_matches_madgraph(void **state) {
  (void)state;
  check_file("me_uux_gg.txt", 4, qqx_gg, "u u~ -> g g (2 -> 2 formula)");
}

static void parke_taylor_summed_over_helicities_matches_madgraph_for_gg_to_gg(void **state) {
  (void)state;
  check_file("me_gg_gg.txt", 4, gg_gg_parke_taylor, "g g -> g g (Parke-Taylor, full colour)");
}

static void parke_taylor_summed_over_helicities_matches_madgraph_for_gg_to_ggg(void **state) {
  (void)state;
  check_file("me_gg_ggg.txt", 5, gg_ggg_parke_taylor, "g g -> g g g (Parke-Taylor, full colour)");
}

/* Not asserted against MadGraph: the NMHV configurations are missing. Asserted: exactly the 20
 * NMHV configurations (three gluons of each helicity) are refused, and the MHV part is below ME. */
static void parke_taylor_part_of_gg_to_gggg_is_reported(void **state) {
  (void)state;
  hg_mg5_points points;
  read_reference("me_gg_gggg.txt", 6, &points);
  double p[MAX_PARTICLES][4];
  unsigned nmhv = 0;
  for (uint32_t h = 0; h < 64; ++h) {
    hg_mg5_points_momenta(&points, 0, p);
    if (hg_closed_mhv_gluons(6, p, h, G_S) == HG_CLOSED_NMHV) ++nmhv;
  }
  assert_int_equal(nmhv, 20);
  for (size_t e = 0; e < points.n_points; ++e) {
    hg_mg5_points_momenta(&points, e, p);
    double part = 0;
    assert_true(mhv_sum(6, p, 6144, &part) == -1);
    assert_true(part > 0 && part < points.me[e]);
    print_message("# g g -> g g g g point %zu: MHV + anti-MHV part / MadGraph ME = %.6f\n", e + 1,
                  part / points.me[e]);
  }
  hg_mg5_points_free(&points);
}

/* For n = 6..8, where no reference holds all configurations: relabelling the outgoing gluons
 * (momentum and helicity together) leaves the colour-summed |M|^2 unchanged (Bose symmetry of the
 * full-colour sum, which no single ordering has), and so does flipping every helicity (parity).
 * Momenta: point 2 of g g -> g g g g, and for n = 7, 8 gluons 2, 3 again rotated by 90 degrees
 * about z; these identities hold for any massless momenta, conserved or not. */
static void parke_taylor_is_bose_and_parity_symmetric_for_n_6_to_8(void **state) {
  (void)state;
  hg_mg5_points points;
  read_reference("me_gg_gggg.txt", 6, &points);
  double base[MAX_PARTICLES][4];
  hg_mg5_points_momenta(&points, 1, base);
  hg_mg5_points_free(&points);
  for (unsigned n = 6; n <= 8; ++n) {
    double p[8][4], q[8][4];
    for (unsigned i = 0; i < n; ++i) {
      /* gluons 6, 7 are gluons 2, 3 rotated by 90 degrees about z: distinct directions */
      const double *src = base[i < 6 ? i : i - 4];
      p[i][0] = src[0], p[i][3] = src[3];
      p[i][1] = i < 6 ? src[1] : -src[2];
      p[i][2] = i < 6 ? src[2] : src[1];
    }
    /* MHV: incoming 0 of helicity + (outgoing -), outgoing 3 of helicity -; the rest + */
    const uint32_t all = (1u << n) - 1;
    const uint32_t h = all & ~(1u << 0) & ~(1u << 3);
    const double value = hg_closed_mhv_gluons(n, p, h, G_S);
    assert_true(value > 0);
    /* the cyclic relabelling of the outgoing gluons 2..n-1, helicities carried along */
    uint32_t hq = h & 3u;
    for (unsigned i = 2; i < n; ++i) {
      const unsigned from = i + 1 < n ? i + 1 : 2;
      memcpy(q[i], p[from], sizeof q[i]);
      hq |= ((h >> from) & 1u) << i;
    }
    memcpy(q[0], p[0], sizeof q[0]);
    memcpy(q[1], p[1], sizeof q[1]);
    const double relabelled = hg_closed_mhv_gluons(n, q, hq, G_S);
    const double parity = hg_closed_mhv_gluons(n, p, all ^ h, G_S);
    if (!(rel_diff(relabelled, value) <= TOLERANCE && rel_diff(parity, value) <= TOLERANCE))
      fail_msg("n=%u: |M|^2 %.17g, relabelled %.17g, parity-flipped %.17g", n, value, relabelled,
               parity);
    print_message("# n=%u: relabelled/original - 1 = %.2e, parity-flipped/original - 1 = %.2e\n", n,
                  relabelled / value - 1, parity / value - 1);
  }
}

/* In MadGraph's physical helicities g g -> g g conserves helicity: + + -> + + is the MHV
 * configuration (- - + + all-outgoing), + + -> - - vanishes (all minus all-outgoing), as do all
 * but one alike; the error returns are what the header says. */
static void helicities_are_crossed_and_bad_input_is_refused(void **state) {
  (void)state;
  hg_mg5_points points;
  read_reference("me_gg_gg.txt", 4, &points);
  double p[MAX_PARTICLES][4];
  hg_mg5_points_momenta(&points, 0, p);
  hg_mg5_points_free(&points);
  assert_true(hg_closed_mhv_gluons(4, p, 0xf, G_S) > 0);  /* + + -> + + */
  assert_true(hg_closed_mhv_gluons(4, p, 0x3, G_S) == 0); /* + + -> - - */
  assert_true(hg_closed_mhv_gluons(4, p, 0x7, G_S) == 0); /* + + -> + - */
  assert_true(hg_closed_mhv_gluons(4, p, 0x0, G_S) > 0);  /* - - -> - - */
  assert_true(hg_closed_mhv_gluons(3, p, 0x3, G_S) == HG_CLOSED_BAD_INPUT);
  assert_true(hg_closed_mhv_gluons(HG_CLOSED_GLUONS_MAX + 1, p, 0x3, G_S) == HG_CLOSED_BAD_INPUT);
  assert_true(hg_closed_mhv_gluons(4, p, 0x10, G_S) == HG_CLOSED_BAD_INPUT);
  memcpy(p[3], p[2], sizeof p[3]); /* two collinear gluons */
  assert_true(hg_closed_mhv_gluons(4, p, 0xf, G_S) == HG_CLOSED_BAD_INPUT);
  const unsigned not_a_permutation[2] = {1, 1};
  assert_true(isnan(hg_closed_trace_colour_factor(3, not_a_permutation)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_trace_colour_factors_equal_a_sum_over_gell_mann_matrices_for_n_2_to_7),
      cmocka_unit_test(gg_to_ttbar_matches_madgraph_with_zero_top_width),
      cmocka_unit_test(uubar_to_ttbar_matches_madgraph),
      cmocka_unit_test(gg_to_gg_matches_madgraph),
      cmocka_unit_test(uubar_to_gg_matches_madgraph),
      cmocka_unit_test(parke_taylor_summed_over_helicities_matches_madgraph_for_gg_to_gg),
      cmocka_unit_test(parke_taylor_summed_over_helicities_matches_madgraph_for_gg_to_ggg),
      cmocka_unit_test(parke_taylor_part_of_gg_to_gggg_is_reported),
      cmocka_unit_test(parke_taylor_is_bose_and_parity_symmetric_for_n_6_to_8),
      cmocka_unit_test(helicities_are_crossed_and_bad_input_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
