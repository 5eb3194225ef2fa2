/* SPDX-License-Identifier: MIT */
/* HELAS external wavefunctions: Dirac equation, completeness, polarisation vectors, and the
 * +z / -z variants equal to the generic ones (host C, double). */
#include "helas_test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#define TOL 1e-13

static void spinor_of(hg_wave f, double complex s[4]) {
  for (int i = 0; i < 4; ++i) s[i] = ht_c(f.w[i]);
}

static void massless_spinors_solve_the_dirac_equation(void **state) {
  (void)state;
  uint64_t rng = 1;
  for (int trial = 0; trial < 200; ++trial) {
    const hg_fourvec p =
        ht_massless(1 + 500 * ht_uniform(&rng), 3.14159 * ht_uniform(&rng), 6.28 * ht_uniform(&rng));
    double complex slash[4][4];
    ht_slash(p.v, slash);
    for (int nhel = -1; nhel <= 1; nhel += 2)
      for (int nsf = -1; nsf <= 1; nsf += 2) {
        double complex u[4], ubar[4];
        spinor_of(ixxxx0(p, nhel, nsf), u);
        spinor_of(oxxxx0(p, nhel, nsf), ubar);
        for (int r = 0; r < 4; ++r) {
          double complex column = 0, row = 0;
          for (int c = 0; c < 4; ++c) {
            column += slash[r][c] * u[c];
            row += ubar[c] * slash[c][r];
          }
          if (cabs(column) > TOL * p.v[0] || cabs(row) > TOL * p.v[0])
            fail_msg("trial %d nhel %d nsf %d row %d: |pslash u| = %g, |ubar pslash| = %g "
                     "(E = %g)",
                     trial, nhel, nsf, r, cabs(column), cabs(row), p.v[0]);
        }
      }
  }
}

/* sum_h u(p,h) ubar(p,h) = pslash, with ubar = u^dagger gamma^0 (gamma^0 swaps the halves). */
static void spinor_completeness_gives_pslash(void **state) {
  (void)state;
  uint64_t rng = 2;
  for (int trial = 0; trial < 100; ++trial) {
    const hg_fourvec p =
        ht_massless(1 + 300 * ht_uniform(&rng), 3.14159 * ht_uniform(&rng), 6.28 * ht_uniform(&rng));
    double complex slash[4][4], sum[4][4] = {{0}};
    ht_slash(p.v, slash);
    for (int nhel = -1; nhel <= 1; nhel += 2) {
      double complex u[4], bar[4];
      spinor_of(ixxxx0(p, nhel, 1), u);
      for (int i = 0; i < 4; ++i) bar[i] = conj(u[(i + 2) % 4]);
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) sum[r][c] += u[r] * bar[c];
    }
    /* HELAS's formula divides by sqrt(p0 + p3): near -z the cancellation in p0 + p3 costs
     * digits in proportion to E / (p0 + p3), which the tolerance follows */
    const double tolerance = 1e-14 * p.v[0] * fmax(1, p.v[0] / (p.v[0] + p.v[3]));
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c)
        if (cabs(sum[r][c] - slash[r][c]) > tolerance)
          fail_msg("trial %d element (%d,%d): sum u ubar = %g%+gi, pslash = %g%+gi", trial, r, c,
                   creal(sum[r][c]), cimag(sum[r][c]), creal(slash[r][c]), cimag(slash[r][c]));
  }
}

static double complex minkowski_c(const double complex a[4], const double complex b[4]) {
  return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

static void photon_polarisations_are_transverse_normalised_and_orthogonal(void **state) {
  (void)state;
  uint64_t rng = 3;
  for (int trial = 0; trial < 200; ++trial) {
    const hg_fourvec k =
        ht_massless(1 + 300 * ht_uniform(&rng), 3.14159 * ht_uniform(&rng), 6.28 * ht_uniform(&rng));
    const double complex kc[4] = {k.v[0], k.v[1], k.v[2], k.v[3]};
    for (int nsv = -1; nsv <= 1; nsv += 2) {
      double complex e[2][4], ec[2][4];
      for (int h = 0; h < 2; ++h) {
        const hg_wave v = vxxxx0(k, 2 * h - 1, nsv);
        for (int mu = 0; mu < 4; ++mu) {
          e[h][mu] = ht_c(v.w[mu]);
          ec[h][mu] = conj(e[h][mu]);
        }
        assert_true(cabs(minkowski_c(e[h], kc)) < TOL * k.v[0]);
        assert_true(cabs(minkowski_c(e[h], ec[h]) + 1) < TOL);
        assert_true(cabs(e[h][0]) < TOL);
      }
      assert_true(cabs(minkowski_c(e[0], ec[1])) < TOL);
    }
  }
}

/* For k along +z a final-state photon of helicity +1 carries eps_+^* = -(0, 1, -i, 0)/sqrt(2),
 * eps_+ = -(0, 1, i, 0)/sqrt(2) being the positive-helicity vector. */
static void photon_helicity_labels_are_physical(void **state) {
  (void)state;
  const hg_fourvec k = hg_fourvec_make(10, 0, 0, 10);
  const hg_wave v = vxxxx0(k, 1, 1);
  const double s = sqrt(0.5);
  assert_true(cabs(ht_c(v.w[1]) + s) < TOL);
  assert_true(cabs(ht_c(v.w[2]) - I * s) < TOL);
  /* a left-handed (helicity -1) incoming quark fills the upper, left-handed components */
  const hg_wave u = ixxxx1(k, -1, 1);
  assert_true(cabs(ht_c(u.w[2])) + cabs(ht_c(u.w[3])) == 0);
  assert_true(cabs(ht_c(u.w[1])) > 1);
}

static void assert_same_wave(hg_wave a, hg_wave b, const char *what, int nhel, int ns) {
  for (int i = 0; i < 6; ++i)
    if (cabs(ht_c(a.w[i]) - ht_c(b.w[i])) > TOL * 100)
      fail_msg("%s nhel %d ns %d slot %d: %g%+gi (axis variant) vs %g%+gi (generic)", what, nhel,
               ns, i + 1, a.w[i].re, a.w[i].im, b.w[i].re, b.w[i].im);
}

static void axis_variants_equal_the_generic_functions(void **state) {
  (void)state;
  for (double e = 1; e < 5000; e *= 3.7) {
    const hg_fourvec plus = hg_fourvec_make(e, 0, 0, e), minus = hg_fourvec_make(e, 0, 0, -e);
    for (int nhel = -1; nhel <= 1; nhel += 2)
      for (int ns = -1; ns <= 1; ns += 2) {
        assert_same_wave(ixxxx1(plus, nhel, ns), ixxxx0(plus, nhel, ns), "ixxxx1", nhel, ns);
        assert_same_wave(ixxxx2(minus, nhel, ns), ixxxx0(minus, nhel, ns), "ixxxx2", nhel, ns);
        assert_same_wave(oxxxx1(plus, nhel, ns), oxxxx0(plus, nhel, ns), "oxxxx1", nhel, ns);
        assert_same_wave(oxxxx2(minus, nhel, ns), oxxxx0(minus, nhel, ns), "oxxxx2", nhel, ns);
        assert_same_wave(vxxxx1(plus, nhel, ns), vxxxx0(plus, nhel, ns), "vxxxx1", nhel, ns);
        assert_same_wave(vxxxx2(minus, nhel, ns), vxxxx0(minus, nhel, ns), "vxxxx2", nhel, ns);
      }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(massless_spinors_solve_the_dirac_equation),
      cmocka_unit_test(spinor_completeness_gives_pslash),
      cmocka_unit_test(photon_polarisations_are_transverse_normalised_and_orthogonal),
      cmocka_unit_test(photon_helicity_labels_are_physical),
      cmocka_unit_test(axis_variants_equal_the_generic_functions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
