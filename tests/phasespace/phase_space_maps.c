/* SPDX-License-Identifier: MIT */
/* The phase-space maps (cl/phasespace, compiled here as host C): momentum conservation, massless
 * photons, RAMBO's weight equal to the massless n-body volume, and the collider map's weight
 * against RAMBO's on the same cut region. */
#include <math.h>
#include <stdio.h>

#include "test_support.h"

#define REAL double
#define REAL_IS_DOUBLE 1
#include "phasespace/collider.h"
#include "phasespace/cuts.h"
#include "phasespace/rambo.h"

#define SQRT_S 14000.0
#define PT_MIN 20.0
#define ETA_MAX 2.5
#define DR_MIN 0.4

static void random_u(uint64_t *state, double *u, int dims) {
  for (int j = 0; j < dims; ++j) u[j] = ts_uniform(state);
}

/* Largest |sum of photons - (p_quark + p_antiquark)| over components, relative to the energy,
 * and the largest |p^2| / E^2 of a photon. */
static void check_kinematics(const hg_ps_point *pt, int n, const char *map) {
  double total[4] = {0, 0, 0, 0};
  for (int k = 0; k < n; ++k) {
    const double *p = pt->p[2 + k];
    for (int c = 0; c < 4; ++c) total[c] += p[c];
    const double mass2 = p[0] * p[0] - p[1] * p[1] - p[2] * p[2] - p[3] * p[3];
    if (fabs(mass2) > 1e-12 * p[0] * p[0])
      fail_msg("%s n = %d: photon %d has p^2 = %g GeV^2 at E = %g GeV", map, n, k, mass2, p[0]);
  }
  const double e = pt->p[0][0] + pt->p[1][0];
  for (int c = 0; c < 4; ++c) {
    const double in = pt->p[0][c] + pt->p[1][c];
    if (fabs(total[c] - in) > 1e-12 * e)
      fail_msg("%s n = %d: component %d of the photons' sum %.17g differs from the partons' %.17g",
               map, n, c, total[c], in);
  }
  if (fabs(pt->shat - 4.0 * pt->p[0][0] * pt->p[1][0]) > 1e-12 * pt->shat)
    fail_msg("%s n = %d: shat %g is not x1 x2 s", map, n, pt->shat);
}

static void rambo_conserves_momentum_and_makes_massless_photons(void **state) {
  (void)state;
  uint64_t rng = 11;
  double u[HG_RAMBO_DIMS(HG_PS_MAX_PHOTONS)];
  for (int n = 2; n <= HG_PS_MAX_PHOTONS; ++n)
    for (int trial = 0; trial < 200; ++trial) {
      random_u(&rng, u, HG_RAMBO_DIMS(n));
      const hg_ps_point pt = hg_rambo_point(u, n, SQRT_S, PT_MIN);
      check_kinematics(&pt, n, "RAMBO");
      if (!(pt.x1 > 0 && pt.x1 <= 1 && pt.x2 > 0 && pt.x2 <= 1))
        fail_msg("RAMBO n = %d: x1 = %g, x2 = %g outside (0, 1]", n, pt.x1, pt.x2);
    }
}

static void collider_map_conserves_momentum_and_meets_cuts_by_construction(void **state) {
  (void)state;
  uint64_t rng = 12;
  double u[HG_COLLIDER_DIMS(HG_PS_MAX_PHOTONS)];
  for (int n = 2; n <= HG_PS_MAX_PHOTONS; ++n)
    for (int trial = 0; trial < 200; ++trial) {
      random_u(&rng, u, HG_COLLIDER_DIMS(n));
      const hg_ps_point pt = hg_collider_point(u, n, SQRT_S, PT_MIN, ETA_MAX);
      check_kinematics(&pt, n, "collider");
      for (int k = 0; k < n; ++k) {
        const double *p = pt.p[2 + k];
        const double pt_k = hypot(p[1], p[2]), eta = asinh(p[3] / pt_k);
        if (k < n - 1 && !(pt_k >= PT_MIN * (1 - 1e-12) && fabs(eta) <= ETA_MAX * (1 + 1e-12)))
          fail_msg("collider n = %d: photon %d has pT %g, eta %g outside the sampled cuts", n, k,
                   pt_k, eta);
        if (k == n - 1 && fabs(eta) > ETA_MAX * (1 + 1e-12))
          fail_msg("collider n = %d: the last photon has |eta| %g > %g", n, eta, ETA_MAX);
      }
    }
}

/* Phi_n(s) by recursion from two-body phase space alone: Phi_n(s) = int_0^s dm^2 / (2 pi)
 * Phi_2(s; m, 0) Phi_(n-1)(m^2), Phi_2(s; m, 0) = (1 - m^2 / s) / (8 pi), the integral done by
 * Simpson's rule on Phi_(n-1) evaluated the same way: the integrand is a polynomial in m^2 of
 * degree n - 2, so for n <= 5 (cubic) the rule is exact up to rounding. */
static double volume_by_recursion(int n, double s) {
  if (n == 2) return 1.0 / (8.0 * HG_PS_PI);
  const int intervals = 20;
  const double h = s / intervals;
  double sum = 0.0;
  for (int i = 0; i <= intervals; ++i) {
    const double m2 = i * h;
    const double w = (i == 0 || i == intervals) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    const double inner = volume_by_recursion(n - 1, m2);
    sum += w * (1.0 - m2 / s) / (8.0 * HG_PS_PI) * inner / (2.0 * HG_PS_PI);
  }
  return sum * h / 3.0;
}

static void rambo_weight_is_the_massless_n_body_volume(void **state) {
  (void)state;
  const double s = 500.0 * 500.0;
  /* textbook values: 1/(8 pi) and s / (256 pi^3) */
  if (ts_rel_diff(hg_massless_volume(2, s), 1.0 / (8.0 * HG_PS_PI)) > 1e-15)
    fail_msg("Phi_2 = %.17g, expected 1/(8 pi)", hg_massless_volume(2, s));
  if (ts_rel_diff(hg_massless_volume(3, s), s / (256.0 * HG_PS_PI * HG_PS_PI * HG_PS_PI)) > 1e-15)
    fail_msg("Phi_3 = %.17g, expected s/(256 pi^3)", hg_massless_volume(3, s));
  for (int n = 2; n <= 5; ++n) {
    const double by_recursion = volume_by_recursion(n, s);
    const double closed = hg_massless_volume(n, s);
    if (ts_rel_diff(by_recursion, closed) > 1e-12)
      fail_msg("n = %d: closed-form volume %.12g, recursion %.12g (ratio %.12g)", n, closed,
               by_recursion, closed / by_recursion);
  }
  /* RAMBO's weight over dtau dy is tau-independent apart from those Jacobians */
  uint64_t rng = 13;
  double u[HG_RAMBO_DIMS(HG_PS_MAX_PHOTONS)];
  for (int n = 2; n <= HG_PS_MAX_PHOTONS; ++n) {
    random_u(&rng, u, HG_RAMBO_DIMS(n));
    const hg_ps_point pt = hg_rambo_point(u, n, SQRT_S, PT_MIN);
    const double log_tau_min = log((double)(n * n) * PT_MIN * PT_MIN / (SQRT_S * SQRT_S));
    const double tau = pt.x1 * pt.x2;
    const double jac = tau * -log_tau_min * -log(tau);
    if (ts_rel_diff(pt.weight / jac, hg_massless_volume(n, pt.shat)) > 1e-12)
      fail_msg("n = %d: RAMBO weight / Jacobian %.17g != Phi_n %.17g", n, pt.weight / jac,
               hg_massless_volume(n, pt.shat));
  }
}

/* int dx1 dx2 dPhi_n Theta(cuts) g, g = (n pt_min)^(2n) / shat^n (finite, and bounded times either
 * map's weight), by plain Monte Carlo through a map; returns the estimate and its error. */
static void cut_volume(int collider, int n, size_t points, uint64_t seed, double *mean,
                       double *error) {
  uint64_t rng = seed;
  double u[HG_RAMBO_DIMS(HG_PS_MAX_PHOTONS)];
  double sum = 0, sum2 = 0;
  const int dims = collider ? HG_COLLIDER_DIMS(n) : HG_RAMBO_DIMS(n);
  for (size_t i = 0; i < points; ++i) {
    random_u(&rng, u, dims);
    const hg_ps_point pt = collider ? hg_collider_point(u, n, SQRT_S, PT_MIN, ETA_MAX)
                                    : hg_rambo_point(u, n, SQRT_S, PT_MIN);
    const int pass = pt.physical && hg_passes_cuts(&pt, n, PT_MIN, ETA_MAX, DR_MIN);
    const double g = pow((double)(n * n) * PT_MIN * PT_MIN / pt.shat, n);
    const double w = pass ? pt.weight * g : 0.0;
    sum += w;
    sum2 += w * w;
  }
  *mean = sum / points;
  *error = sqrt((sum2 / points - *mean * *mean) / (points - 1));
}

static void collider_and_rambo_maps_give_the_same_cut_volume(void **state) {
  (void)state;
  for (int n = 2; n <= 3; ++n) {
    double c, dc, r, dr;
    cut_volume(1, n, 400000, 21 + n, &c, &dc);
    cut_volume(0, n, 400000, 31 + n, &r, &dr);
    const double pull = (c - r) / sqrt(dc * dc + dr * dr);
    print_message("# n = %d: collider %.6e +- %.1e, RAMBO %.6e +- %.1e, pull %.2f\n", n, c, dc, r,
                  dr, pull);
    if (fabs(pull) > 5.0 || dc > 0.01 * c || dr > 0.05 * r)
      fail_msg("n = %d: the maps disagree: collider %.6e +- %.1e, RAMBO %.6e +- %.1e (pull %.2f)",
               n, c, dc, r, dr, pull);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rambo_conserves_momentum_and_makes_massless_photons),
      cmocka_unit_test(collider_map_conserves_momentum_and_meets_cuts_by_construction),
      cmocka_unit_test(rambo_weight_is_the_massless_n_body_volume),
      cmocka_unit_test(collider_and_rambo_maps_give_the_same_cut_volume),
  };
  return cmocka_run_group_tests_name("phase_space_maps", tests, NULL, NULL);
}
