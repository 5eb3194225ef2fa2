/* SPDX-License-Identifier: MIT */
/* Each scale choice on a fixed t t~ j event against numbers computed by hand, their behaviour
 * under a boost along the beam, and the choice table's validation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "phasespace/scales.h"

/* u u~ > t t~ g at m_t = 173 GeV, written out:
 *   top     p = (30, 40, 100):   pT = 50,          m_T = sqrt(173^2 + 50^2) = sqrt(32429),
 *                                E = sqrt(32429 + 100^2) = sqrt(42429) = 205.98300900802474
 *   antitop p = (-10, -20, -60): pT = sqrt(500),   m_T = sqrt(30429),
 *                                E = sqrt(30429 + 60^2) = sqrt(34029) = 184.46950967571848
 *   gluon   p = (-20, -20, 35):  pT = sqrt(800),   E = sqrt(800 + 35^2) = 45
 *   total final E = 435.45251868374322, pz = 75: the beams E1, E2 = (E +- pz)/2 along +-z.
 * Independently (Python, math.sqrt):
 *   1  sum E pT/|p| = 205.983 * 50/sqrt(12500) + 184.470 * sqrt(500)/sqrt(4100)
 *                     + 45 * sqrt(800)/45                          = 184.82222041948143
 *   2  sum m_T = sqrt(32429) + sqrt(30429) + sqrt(800)           = 382.80390990681076
 *   3  half of it                                                 = 191.40195495340538
 *   4  sqrt(E^2 - pz^2) = sqrt(435.4525...^2 - 75^2)              = 428.9450967525048
 *   10 (50 + sqrt(500) + sqrt(800)) / 2                            = 50.3224755112299 */
static void event(double p[5][4]) {
  const double top[3] = {30, 40, 100}, anti[3] = {-10, -20, -60}, glu[3] = {-20, -20, 35};
  const double *k[3] = {top, anti, glu};
  const double m[3] = {173, 173, 0};
  double e = 0, pz = 0;
  for (int i = 0; i < 3; ++i) {
    p[2 + i][0] = sqrt(m[i] * m[i] + k[i][0] * k[i][0] + k[i][1] * k[i][1] + k[i][2] * k[i][2]);
    for (int c = 0; c < 3; ++c) p[2 + i][1 + c] = k[i][c];
    e += p[2 + i][0];
    pz += k[i][2];
  }
  const double e1 = (e + pz) / 2, e2 = (e - pz) / 2;
  const double beams[2][4] = {{e1, 0, 0, e1}, {e2, 0, 0, -e2}};
  memcpy(p[0], beams[0], sizeof beams[0]);
  memcpy(p[1], beams[1], sizeof beams[1]);
}

static const double mass[5] = {0, 0, 173, 173, 0};

static void check(int choice, double expected, double p[5][4]) {
  const double mu = hg_dynamical_scale(choice, HG_MOMENTA(p), mass, 2, 5, 173.0);
  if (!(fabs(mu - expected) <= 1e-13 * expected))
    fail_msg("choice %d: %.17g, by hand %.17g (ratio - 1 = %.3g)", choice, mu, expected,
             mu / expected - 1);
}

static void each_choice_matches_the_hand_computation(void **state) {
  (void)state;
  double p[5][4];
  event(p);
  check(HG_SCALE_FIXED, 173.0, p);
  check(HG_SCALE_SUM_ET, 184.82222041948143, p);
  check(HG_SCALE_SUM_MT, 382.80390990681076, p);
  check(HG_SCALE_HALF_SUM_MT, 191.40195495340538, p);
  check(HG_SCALE_SQRT_SHAT, 428.9450967525048, p);
  check(HG_SCALE_HALF_SUM_PT, 50.3224755112299, p);
  assert_true(isnan(hg_dynamical_scale(7, HG_MOMENTA(p), mass, 2, 5, 173.0)));
}

/* m_T, pT and sqrt(s-hat) do not change under a boost along the beam; E_T = E sin(theta) does.
 * A particle along the beam (pT = 0) adds 0 to E_T (MadGraph's et() guard) and its mass to
 * the m_T sum. */
static void boosts_along_the_beam_change_only_the_transverse_energy(void **state) {
  (void)state;
  double p[5][4], q[5][4];
  event(p);
  const double beta = 0.6, gamma = 1 / sqrt(1 - beta * beta);
  for (int i = 0; i < 5; ++i) {
    q[i][0] = gamma * (p[i][0] + beta * p[i][3]);
    q[i][1] = p[i][1];
    q[i][2] = p[i][2];
    q[i][3] = gamma * (p[i][3] + beta * p[i][0]);
  }
  const int invariant[] = {HG_SCALE_SUM_MT, HG_SCALE_HALF_SUM_MT, HG_SCALE_SQRT_SHAT,
                           HG_SCALE_HALF_SUM_PT};
  for (int k = 0; k < 4; ++k) {
    const double a = hg_dynamical_scale(invariant[k], HG_MOMENTA(p), mass, 2, 5, 0);
    const double b = hg_dynamical_scale(invariant[k], HG_MOMENTA(q), mass, 2, 5, 0);
    if (!(fabs(a / b - 1) < 1e-13))
      fail_msg("choice %d: %.17g before, %.17g after", invariant[k], a, b);
  }
  const double a = hg_dynamical_scale(HG_SCALE_SUM_ET, HG_MOMENTA(p), mass, 2, 5, 0);
  const double b = hg_dynamical_scale(HG_SCALE_SUM_ET, HG_MOMENTA(q), mass, 2, 5, 0);
  assert_true(fabs(a / b - 1) > 1e-3);
  /* the gluon along the beam: E_T 0, m_T 0 (massless) */
  double r[5][4];
  memcpy(r, p, sizeof r);
  r[4][1] = r[4][2] = 0;
  r[4][0] = r[4][3] = 35;
  const double et = hg_dynamical_scale(HG_SCALE_SUM_ET, HG_MOMENTA(r), mass, 2, 5, 0);
  assert_true(fabs(et - (184.82222041948143 - 45 * sqrt(800) / 45)) < 1e-12);
}

static void the_table_names_and_checks_the_choices(void **state) {
  (void)state;
  char error[512];
  for (int i = 0; hg_scale_choice_at(i) != NULL; ++i) {
    const hg_scale_choice_info *row = hg_scale_choice_at(i);
    assert_ptr_equal(hg_scale_choice_find(row->choice), row);
    assert_ptr_equal(hg_scale_choice_by_name(row->name), row);
    assert_int_equal(hg_scale_choice_check(row->choice, 91.188, error, sizeof error), 0);
  }
  assert_string_equal(hg_scale_choice_find(3)->name, "half-sum-mt");
  assert_int_equal(hg_scale_choice_check(-1, 0, error, sizeof error), -1);
  assert_non_null(strstr(error, "clusters"));
  assert_int_equal(hg_scale_choice_check(5, 0, error, sizeof error), -1);
  assert_non_null(strstr(error, "decays"));
  assert_int_equal(hg_scale_choice_check(HG_SCALE_FIXED, 0, error, sizeof error), -1);
  assert_non_null(strstr(error, "must be positive"));
  assert_int_equal(hg_scale_choice_check(HG_SCALE_FIXED, -173, error, sizeof error), -1);
  assert_int_equal(hg_scale_choice_check(HG_SCALE_FIXED, NAN, error, sizeof error), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_choice_matches_the_hand_computation),
      cmocka_unit_test(boosts_along_the_beam_change_only_the_transverse_energy),
      cmocka_unit_test(the_table_names_and_checks_the_choices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
