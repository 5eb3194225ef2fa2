/* SPDX-License-Identifier: MIT */
/* HELAS FFV vertex functions against explicit 4x4 gamma-matrix products (host C, double), with
 * unequal chiral couplings so that gal[0] and gal[1] are told apart. */
#include "helas_test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#define TOL 1e-12

/* Vslash for a complex vector V^mu: the same blocks as ht_slash. */
static void slash_complex(const double complex v[4], double complex m[4][4]) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[r][c] = 0;
  m[0][2] = v[0] - v[3];
  m[0][3] = -(v[1] - I * v[2]);
  m[1][2] = -(v[1] + I * v[2]);
  m[1][3] = v[0] + v[3];
  m[2][0] = v[0] + v[3];
  m[2][1] = v[1] - I * v[2];
  m[3][0] = v[1] + I * v[2];
  m[3][1] = v[0] - v[3];
}

/* Vslash (gal0 P_L + gal1 P_R): P_L keeps the upper (left-handed) components. */
static void vertex_matrix(hg_wave v, hg_coupling gc, double complex m[4][4]) {
  double complex vc[4];
  for (int mu = 0; mu < 4; ++mu) vc[mu] = ht_c(v.w[mu]);
  slash_complex(vc, m);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[r][c] *= c < 2 ? ht_c(gc.gal[0]) : ht_c(gc.gal[1]);
}

static void matmul(double complex a[4][4], double complex b[4][4], double complex out[4][4]) {
  double complex t[4][4];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      t[r][c] = 0;
      for (int k = 0; k < 4; ++k) t[r][c] += a[r][k] * b[k][c];
    }
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) out[r][c] = t[r][c];
}

static double complex sandwich(hg_wave fo, double complex m[4][4], hg_wave fi) {
  double complex s = 0;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) s += ht_c(fo.w[r]) * m[r][c] * ht_c(fi.w[c]);
  return s;
}

static hg_coupling chiral_coupling(void) {
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(0.31, 0.05);
  gc.gal[1] = hg_cmplx(-0.72, 0.11);
  return gc;
}

/* u(p1) ubar... : q qbar -> gamma gamma kinematics with random directions. */
static void random_process(uint64_t *rng, hg_fourvec *p1, hg_fourvec *p2, hg_fourvec *k1,
                           hg_fourvec *k2) {
  const double e = 10 + 400 * ht_uniform(rng);
  *p1 = hg_fourvec_make(e, 0, 0, e);
  *p2 = hg_fourvec_make(e, 0, 0, -e);
  const double theta = 0.2 + 2.7 * ht_uniform(rng), phi = 6.28 * ht_uniform(rng);
  *k1 = ht_massless(e, theta, phi);
  *k2 = hg_fourvec_make(e, -k1->v[1], -k1->v[2], -k1->v[3]);
}

/* The diagram fo Vslash2 S(p1 - k1) Vslash1 fi, with S(p) = -pslash/p^2 (HELAS's sign), built
 * three ways: fvixx0 then iovxxx, fvoxx0 then iovxxx, explicit matrices. */
static void off_shell_fermions_match_explicit_matrix_products(void **state) {
  (void)state;
  uint64_t rng = 11;
  const hg_coupling gc = chiral_coupling();
  for (int trial = 0; trial < 100; ++trial) {
    hg_fourvec p1, p2, k1, k2;
    random_process(&rng, &p1, &p2, &k1, &k2);
    for (unsigned h = 0; h < 16; ++h) {
      const hg_wave fi = ixxxx0(p1, (h & 1) ? 1 : -1, 1);
      const hg_wave fo = oxxxx0(p2, (h & 2) ? 1 : -1, -1);
      const hg_wave v1 = vxxxx0(k1, (h & 4) ? 1 : -1, 1);
      const hg_wave v2 = vxxxx0(k2, (h & 8) ? 1 : -1, 1);
      const double complex via_fvi = ht_c(iovxxx(fvixx0(fi, v1, gc), fo, v2, gc));
      const double complex via_fvo = ht_c(iovxxx(fi, fvoxx0(fo, v2, gc), v1, gc));
      double complex m1[4][4], m2[4][4], prop[4][4], chain[4][4];
      const double q[4] = {p1.v[0] - k1.v[0], p1.v[1] - k1.v[1], p1.v[2] - k1.v[2],
                           p1.v[3] - k1.v[3]};
      const double q2 = q[0] * q[0] - q[1] * q[1] - q[2] * q[2] - q[3] * q[3];
      vertex_matrix(v1, gc, m1);
      vertex_matrix(v2, gc, m2);
      ht_slash(q, prop);
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) prop[r][c] *= -1 / q2;
      matmul(prop, m1, chain);
      matmul(m2, chain, chain);
      const double complex explicit_value = sandwich(fo, chain, fi);
      const double scale = fmax(cabs(explicit_value), 1e-3);
      if (cabs(via_fvi - explicit_value) > TOL * scale || cabs(via_fvo - explicit_value) > TOL * scale)
        fail_msg("trial %d helicities %u: fvixx0 route %g%+gi, fvoxx0 route %g%+gi, explicit "
                 "%g%+gi",
                 trial, h, creal(via_fvi), cimag(via_fvi), creal(via_fvo), cimag(via_fvo),
                 creal(explicit_value), cimag(explicit_value));
    }
  }
}

static void off_shell_wavefunctions_carry_the_conserved_momentum(void **state) {
  (void)state;
  uint64_t rng = 12;
  const hg_coupling gc = chiral_coupling();
  hg_fourvec p1, p2, k1, k2;
  random_process(&rng, &p1, &p2, &k1, &k2);
  const hg_wave fi = ixxxx1(p1, -1, 1), fo = oxxxx2(p2, 1, -1), v = vxxxx0(k1, 1, 1);
  const hg_fourvec after_fi = hg_wave_momentum(fvixx0(fi, v, gc));
  const hg_fourvec after_fo = hg_wave_momentum(fvoxx0(fo, v, gc));
  const hg_fourvec current = hg_wave_momentum(jioxx0(fi, fo, gc));
  for (int mu = 0; mu < 4; ++mu) {
    assert_true(fabs(after_fi.v[mu] - (p1.v[mu] - k1.v[mu])) < 1e-12 * p1.v[0]);
    assert_true(fabs(after_fo.v[mu] - (-p2.v[mu] + k1.v[mu])) < 1e-12 * p1.v[0]);
    assert_true(fabs(current.v[mu] - (p1.v[mu] + p2.v[mu])) < 1e-12 * p1.v[0]);
  }
}

/* iovxxx(fi, fo, V) = q^2 (jio . V) for the off-shell photon jio of fi and fo. */
static void off_shell_photon_current_contracts_to_the_vertex(void **state) {
  (void)state;
  uint64_t rng = 13;
  const hg_coupling gc = chiral_coupling();
  for (int trial = 0; trial < 100; ++trial) {
    hg_fourvec p1, p2, k1, k2;
    random_process(&rng, &p1, &p2, &k1, &k2);
    for (unsigned h = 0; h < 8; ++h) {
      const hg_wave fi = ixxxx0(p1, (h & 1) ? 1 : -1, 1);
      const hg_wave fo = oxxxx0(p2, (h & 2) ? 1 : -1, -1);
      const hg_wave v = vxxxx0(k1, (h & 4) ? 1 : -1, 1);
      const hg_wave jio = jioxx0(fi, fo, gc);
      const hg_fourvec q = hg_wave_momentum(jio);
      const double q2 = hg_minkowski(q, q);
      const double complex contracted =
          q2 * (ht_c(jio.w[0]) * ht_c(v.w[0]) - ht_c(jio.w[1]) * ht_c(v.w[1]) -
                ht_c(jio.w[2]) * ht_c(v.w[2]) - ht_c(jio.w[3]) * ht_c(v.w[3]));
      const double complex vertex = ht_c(iovxxx(fi, fo, v, gc));
      if (cabs(contracted - vertex) > TOL * fmax(cabs(vertex), 1e-3))
        fail_msg("trial %d helicities %u: q^2 jio.V = %g%+gi, iovxxx = %g%+gi", trial, h,
                 creal(contracted), cimag(contracted), creal(vertex), cimag(vertex));
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(off_shell_fermions_match_explicit_matrix_products),
      cmocka_unit_test(off_shell_wavefunctions_carry_the_conserved_momentum),
      cmocka_unit_test(off_shell_photon_current_contracts_to_the_vertex),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
