/* SPDX-License-Identifier: MIT */
/* A host reference for u ubar -> n photons in plain C: Dirac matrices, spinors, n! orderings.
 *
 * Written from the Feynman rules alone, sharing no physics with cl/ (only the batch layout macro
 * of cl/shared/layout.h, to read the public API's momenta): Dirac-Pauli basis, metric
 * (+,-,-,-), helicity spinors built from the polar and azimuthal angles of each momentum. For the
 * orderings s of the photons along the quark line (s[0] next to the quark),
 *   A = (e Q)^n sum_s vbar(p1) eps*_{s[n-1]}-slash S(q_{n-1}) ... S(q_1) eps*_{s[0]}-slash u(p0),
 *   S(q) = q-slash / q^2,  q_j = p0 - k_{s[0]} - ... - k_{s[j-1]},
 * with the constant factors (-i)^n i^(n-1) of the vertices and propagators dropped (one phase for
 * every diagram). */
#include <math.h>
#include <string.h>

#include "layout.h"
#include "reference_amplitude.h"

typedef double complex spinor[4];
typedef double complex matrix[4][4];

/* Dirac-Pauli basis: gamma^0 = diag(1, 1, -1, -1), gamma^k = ((0, sigma_k), (-sigma_k, 0)). */
static const matrix gamma_matrices[4] = {
    {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, -1}},
    {{0, 0, 0, 1}, {0, 0, 1, 0}, {0, -1, 0, 0}, {-1, 0, 0, 0}},
    {{0, 0, 0, -I}, {0, 0, I, 0}, {0, I, 0, 0}, {-I, 0, 0, 0}},
    {{0, 0, 1, 0}, {0, 0, 0, -1}, {-1, 0, 0, 0}, {0, 1, 0, 0}},
};

/* a-slash = gamma^0 a^0 - gamma^1 a^1 - gamma^2 a^2 - gamma^3 a^3 for a complex four-vector a. */
static void slash(const double complex a[4], matrix out) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      out[r][c] = gamma_matrices[0][r][c] * a[0] - gamma_matrices[1][r][c] * a[1] -
                  gamma_matrices[2][r][c] * a[2] - gamma_matrices[3][r][c] * a[3];
}

/* out = m in. */
static void apply(matrix m, const spinor in, spinor out) {
  for (int r = 0; r < 4; ++r) {
    out[r] = 0;
    for (int c = 0; c < 4; ++c) out[r] += m[r][c] * in[c];
  }
}

/* Polar and azimuthal angles of the three-momentum of p. */
static void angles(const double p[4], double *theta, double *phi) {
  *theta = atan2(hypot(p[1], p[2]), p[3]);
  *phi = atan2(p[2], p[1]);
}

/* The two-spinor of helicity h along (theta, phi): (sigma . p-hat) chi = h chi. */
static void helicity_two_spinor(int h, double theta, double phi, double complex chi[2]) {
  if (h > 0) {
    chi[0] = cos(theta / 2);
    chi[1] = cexp(I * phi) * sin(theta / 2);
  } else {
    chi[0] = -cexp(-I * phi) * sin(theta / 2);
    chi[1] = cos(theta / 2);
  }
}

/* u(p, h) = sqrt(E) (chi_h, h chi_h): gamma5 = ((0, 1), (1, 0)) gives it chirality h, so helicity
 * -1 is the left-handed quark. */
static void spinor_u(const double p[4], int h, spinor u) {
  double theta, phi;
  double complex chi[2];
  angles(p, &theta, &phi);
  helicity_two_spinor(h, theta, phi, chi);
  const double root = sqrt(p[0]);
  u[0] = root * chi[0];
  u[1] = root * chi[1];
  u[2] = root * h * chi[0];
  u[3] = root * h * chi[1];
}

/* vbar(p, h) = v^dagger gamma^0 with v(p, h) = sqrt(E) (-h chi_{-h}, chi_{-h}), an antiquark of
 * helicity h (chirality -h). */
static void spinor_vbar(const double p[4], int h, spinor vbar) {
  double theta, phi;
  double complex chi[2];
  angles(p, &theta, &phi);
  helicity_two_spinor(-h, theta, phi, chi);
  const double root = sqrt(p[0]);
  const double complex v[4] = {-root * h * chi[0], -root * h * chi[1], root * chi[0],
                               root * chi[1]};
  for (int r = 0; r < 4; ++r) vbar[r] = conj(v[r]) * gamma_matrices[0][r][r];
}

/* eps*(k, h) of an outgoing photon, eps(k, h) = -h (theta-hat + i h phi-hat) / sqrt(2): for k along
 * +z, eps_+ = -(x + i y)/sqrt(2) and eps_- = (x - i y)/sqrt(2). */
static void polarisation_conj(const double k[4], int h, double complex eps_conj[4]) {
  double theta, phi;
  angles(k, &theta, &phi);
  const double theta_hat[3] = {cos(theta) * cos(phi), cos(theta) * sin(phi), -sin(theta)};
  const double phi_hat[3] = {-sin(phi), cos(phi), 0};
  eps_conj[0] = 0;
  for (int c = 0; c < 3; ++c)
    eps_conj[c + 1] = conj(-h * (theta_hat[c] + I * h * phi_hat[c]) / sqrt(2.0));
}

typedef struct {
  unsigned n;
  matrix eps_slash[TS_REFERENCE_MAX_PHOTONS];
  double k[TS_REFERENCE_MAX_PHOTONS][4];
  spinor vbar;
} orderings;

/* Adds to *sum every ordering that continues the quark line w, which has absorbed the photons in
 * used (depth of them) and carries momentum q, closing with vbar after the last photon. */
static void sum_orderings(orderings *o, const spinor w, unsigned used, unsigned depth,
                          const double q[4], double complex *sum) {
  for (unsigned j = 0; j < o->n; ++j) {
    if (used & (1u << j)) continue;
    spinor x;
    apply(o->eps_slash[j], w, x);
    if (depth + 1 == o->n) {
      for (int r = 0; r < 4; ++r) *sum += o->vbar[r] * x[r];
      continue;
    }
    double q_next[4];
    double complex q_complex[4];
    for (int c = 0; c < 4; ++c) q_complex[c] = q_next[c] = q[c] - o->k[j][c];
    const double q2 = q_next[0] * q_next[0] - q_next[1] * q_next[1] - q_next[2] * q_next[2] -
                      q_next[3] * q_next[3];
    matrix propagator;
    slash(q_complex, propagator);
    spinor y;
    apply(propagator, x, y);
    for (int r = 0; r < 4; ++r) y[r] /= q2;
    sum_orderings(o, y, used | (1u << j), depth + 1, q_next, sum);
  }
}

/* Bit particle of a configuration: 1 is helicity +1, 0 is -1. */
static int helicity_of(uint32_t helicity, unsigned particle) {
  return (helicity >> particle) & 1u ? 1 : -1;
}

void ts_reference_point_load(unsigned n_photons, const double *momenta, size_t n_events,
                             size_t event, ts_reference_point *point) {
  point->n_photons = n_photons;
  for (unsigned i = 0; i < n_photons + 2; ++i)
    for (int c = 0; c < 4; ++c)
      point->p[i][c] = momenta[HG_SOA_INDEX(c, i, n_photons + 2, n_events, event)];
}

double complex ts_reference_amplitude(const ts_reference_point *point, uint32_t helicity,
                                      double alpha, double quark_charge) {
  const unsigned n = point->n_photons;
  if (n < 1 || n > TS_REFERENCE_MAX_PHOTONS) return NAN;
  orderings o;
  o.n = n;
  for (unsigned j = 0; j < n; ++j) {
    double complex eps_conj[4];
    polarisation_conj(point->p[2 + j], helicity_of(helicity, 2 + j), eps_conj);
    slash(eps_conj, o.eps_slash[j]);
    memcpy(o.k[j], point->p[2 + j], sizeof o.k[j]);
  }
  spinor_vbar(point->p[1], helicity_of(helicity, 1), o.vbar);
  spinor u;
  spinor_u(point->p[0], helicity_of(helicity, 0), u);
  double complex sum = 0;
  sum_orderings(&o, u, 0, 0, point->p[0], &sum);
  const double pi = 3.14159265358979323846;
  const double coupling = sqrt(4 * pi * alpha) * quark_charge;
  return sum * pow(coupling, n);
}

double ts_reference_me_helicity(const ts_reference_point *point, uint32_t helicity, double alpha,
                                double quark_charge) {
  const double complex a = ts_reference_amplitude(point, helicity, alpha, quark_charge);
  double orderings_count = 1;
  for (unsigned i = 2; i <= point->n_photons; ++i) orderings_count *= i;
  const double colour_sum = 3, spin_average = 1.0 / 4, colour_average = 1.0 / 9;
  return creal(a * conj(a)) * colour_sum * spin_average * colour_average / orderings_count;
}

double ts_reference_me(const ts_reference_point *point, double alpha, double quark_charge) {
  double sum = 0;
  for (uint32_t helicity = 0; helicity < (1u << (point->n_photons + 2)); ++helicity)
    sum += ts_reference_me_helicity(point, helicity, alpha, quark_charge);
  return sum;
}
