/* SPDX-License-Identifier: MIT */
/* Hadron-collider phase space for a process with jets and at most one massive pair: each jet but
 * a balancing one in (pT, eta, phi), the rest as one system of sampled invariant mass and
 * rapidity that decays in two bodies, x1 and x2 from energy and momentum conservation
 * (CONVENTIONS.md, "Phase space of a process"). */
#ifndef HG_GENERATOR_PHASE_SPACE_H
#define HG_GENERATOR_PHASE_SPACE_H

#include "shared/portable.h"

/* External particles a generated point holds at most. */
#define HG_GEN_MAX_EXTERNAL 10
#define HG_GEN_PI 3.14159265358979323846

/* The sampler's order: 0 the parton from beam 1 (x1, along +z), 1 the one from beam 2 (x2, -z),
 * 2 .. 1 + n_jets the jets, then with a system its two daughters a and b. weight is the density
 * of the point in the unit hypercube: sigma = integral d^D u f1(x1) f2(x2) |M|^2 / (2 shat)
 * weight, so it holds dx1 dx2, the phase space (2 pi)^4 delta^4 prod d^3k / ((2 pi)^3 2E) and
 * every map's Jacobian. physical is 0 outside the map's region (x > 1, the balancing jet below
 * the pT cut or beyond the eta cut); such a point keeps finite momenta. */
typedef struct {
  double p[HG_GEN_MAX_EXTERNAL][4];
  double x1, x2, shat, weight;
  double m2, mass_jacobian; /* a system's mass squared and the weight's factor dm^2/du (else 1) */
  int physical;
} hg_gen_point;

/* The incoming partons along the beams for the point's Bjorken x1, x2, and s-hat (s = sqrt_s^2). */
HG_INLINE void hg_gen_set_beams(hg_gen_point *pt, double sqrt_s, double s) {
  const double e1 = 0.5 * pt->x1 * sqrt_s, e2 = 0.5 * pt->x2 * sqrt_s;
  pt->p[0][0] = e1;
  pt->p[0][1] = 0.0;
  pt->p[0][2] = 0.0;
  pt->p[0][3] = e1;
  pt->p[1][0] = e2;
  pt->p[1][1] = 0.0;
  pt->p[1][2] = 0.0;
  pt->p[1][3] = -e2;
  pt->shat = pt->x1 * pt->x2 * s;
}

/* Dimensions of the map: 3 per jet sampled in (pT, eta, phi) (every jet, or all but the last
 * without a system), 1 for the balancing object's rapidity, 3 for a system (mass, decay angles). */
HG_INLINE int hg_gen_dims(int n_jets, int has_system) {
  return 3 * (has_system ? n_jets : n_jets - 1) + 1 + (has_system ? 3 : 0);
}

/* sqrt(lambda(a, b, c)) / (2 sqrt(a)) for a = M^2: the daughters' momentum in the rest frame. */
HG_INLINE double hg_gen_two_body_momentum(double m2, double ma, double mb) {
  const double sum = (ma + mb) * (ma + mb), diff = (ma - mb) * (ma - mb);
  const double l = (m2 - sum) * (m2 - diff);
  return sqrt(l > 0.0 ? l : 0.0) / (2.0 * sqrt(m2));
}

/* The mass squared of u in (0, 1) between m_min^2 and m_max^2 and dm^2/du: log-uniform
 * (bw_width <= 0; m_min > 0), or by the Breit-Wigner's tan map m^2 = M^2 + M Gamma tan(theta),
 * theta uniform (bw_mass M, bw_width Gamma > 0). Both are computed and one is selected. */
HG_INLINE double hg_gen_mass2(double u, double m_min, double m_max, double bw_mass, double bw_width,
                              double *jacobian) {
  const double m2_min = m_min * m_min, m2_max = m_max * m_max;
  const double span = log(m2_max / (m2_min > 0.0 ? m2_min : m2_max));
  const double m2_log = m2_min * exp(u * span);
  const double mg = bw_width > 0.0 ? bw_mass * bw_width : 1.0, mm = bw_mass * bw_mass;
  const double t_min = atan((m2_min - mm) / mg), t_max = atan((m2_max - mm) / mg);
  const double t = tan(t_min + u * (t_max - t_min));
  const double m2_bw = mm + mg * t;
  const int bw = bw_width > 0.0;
  *jacobian = bw ? mg * (1.0 + t * t) * (t_max - t_min) : m2_log * span;
  return bw ? m2_bw : m2_log;
}

/* The point of u[0 .. dims) in (0, 1). Object k (a jet, or another massless particle with a pT
 * cut) has 1/pT uniform between 1/pt_min[k] and 2/sqrt_s, eta uniform in [-eta_max[k],
 * eta_max[k]] (<= 0: within ln(sqrt_s / pT), the kinematic bound) and phi uniform. The
 * balancing object takes minus the objects' transverse momentum; its rapidity is uniform within
 * ln(sqrt_s / mT). A system's mass squared comes from hg_gen_mass2 (log-uniform, or the
 * Breit-Wigner of bw_mass and bw_width), and it decays isotropically (cos theta, phi in its rest
 * frame). Without a system object `balance` balances (the others take the dimensions in their
 * order), massless, and must meet its pT and eta cuts (physical = 0 otherwise). */
HG_INLINE hg_gen_point hg_gen_make_point(const double *u, int n_jets, int has_system, double sqrt_s,
                                         const double *pt_min, const double *eta_max, double mass_a,
                                         double mass_b, double m_min, double m_max, int balance,
                                         double bw_mass, double bw_width) {
  hg_gen_point pt;
  const double two_pi = 2.0 * HG_GEN_PI, s = sqrt_s * sqrt_s;
  const int n_final = n_jets + (has_system ? 2 : 0);
  const int n_sampled = has_system ? n_jets : n_jets - 1;
  /* (2 pi)^(4 - 3 n_final) and dx1 dx2 delta(E) delta(pz) = 2 / s */
  double weight = two_pi * two_pi * two_pi * two_pi * 2.0 / s;
  for (int k = 0; k < n_final; ++k) weight /= two_pi * two_pi * two_pi;
  double px = 0.0, py = 0.0, e = 0.0, pz = 0.0;
  int physical = 1;
  const int bal = has_system ? n_jets : balance;
  for (int j = 0; j < n_sampled; ++j) {
    const int k = j + (j >= bal);
    const double inv_low = 1.0 / pt_min[k], inv_span = inv_low - 2.0 / sqrt_s;
    const double pt_k = 1.0 / (inv_low - u[3 * j] * inv_span);
    const double eta_range = eta_max[k] > 0.0 ? eta_max[k] : log(sqrt_s / pt_k);
    const double eta = eta_range * (2.0 * u[3 * j + 1] - 1.0);
    const double phi = two_pi * u[3 * j + 2];
    double *p = pt.p[2 + k];
    p[1] = pt_k * cos(phi);
    p[2] = pt_k * sin(phi);
    p[3] = pt_k * sinh(eta);
    p[0] = pt_k * cosh(eta);
    px += p[1];
    py += p[2];
    pz += p[3];
    e += p[0];
    /* d^3k / (2E) = pT dpT deta dphi / 2, dpT / du = pT^2 inv_span */
    weight *= 0.5 * pt_k * pt_k * pt_k * inv_span * (2.0 * eta_range) * two_pi;
  }
  const int next = 3 * n_sampled;
  const double qx = -px, qy = -py, qt2 = qx * qx + qy * qy;
  double m2 = 0.0;
  pt.mass_jacobian = 1.0;
  if (has_system) {
    m2 = hg_gen_mass2(u[next + 1], m_min, m_max, bw_mass, bw_width, &pt.mass_jacobian);
    weight *= pt.mass_jacobian;
    /* a Breit-Wigner from m_min = 0 may round to m^2 <= 0 at its edge: outside, kept finite */
    physical = m2 > 0.0;
    m2 = m2 > 0.0 ? m2 : m_max * m_max;
  }
  pt.m2 = m2;
  const double mt = sqrt(m2 + qt2);
  const double y_range = log(sqrt_s / mt);
  const double y = y_range * (2.0 * u[next] - 1.0);
  /* d^3Q / (2 E_Q) with the transverse delta: dy / 2 */
  weight *= 0.5 * (2.0 * y_range);
  physical = physical && y_range > 0.0;
  const double q[4] = {mt * cosh(y), qx, qy, mt * sinh(y)};
  if (has_system) {
    const double m = sqrt(m2), p_star = hg_gen_two_body_momentum(m2, mass_a, mass_b);
    const double cos_t = 2.0 * u[next + 2] - 1.0, sin_t = sqrt(fmax(1.0 - cos_t * cos_t, 0.0));
    const double phi = two_pi * u[next + 3];
    const double k[3] = {p_star * sin_t * cos(phi), p_star * sin_t * sin(phi), p_star * cos_t};
    const double ea = sqrt(p_star * p_star + mass_a * mass_a);
    /* boost (ea, k) from the system's rest frame by its velocity q / q0 */
    const double kq = k[0] * q[1] + k[1] * q[2] + k[2] * q[3];
    const double ea_lab = (ea * q[0] + kq) / m;
    const double c = (kq / (q[0] + m) + ea) / m;
    double *a = pt.p[2 + n_jets], *b = pt.p[3 + n_jets];
    a[0] = ea_lab;
    for (int i = 0; i < 3; ++i) a[i + 1] = k[i] + c * q[i + 1];
    for (int i = 0; i < 4; ++i) b[i] = q[i] - a[i];
    /* (2 body) |p*| / (4 M) dOmega */
    weight *= p_star / (4.0 * m) * 4.0 * HG_GEN_PI;
    physical = physical && p_star > 0.0;
  } else {
    double *last = pt.p[2 + bal];
    for (int i = 0; i < 4; ++i) last[i] = q[i];
    const double pt_last = sqrt(qt2);
    const int k = bal;
    physical = physical && pt_last >= pt_min[k] && (eta_max[k] <= 0.0 || fabs(y) <= eta_max[k]);
  }
  e += q[0];
  pz += q[3];
  pt.x1 = (e + pz) / sqrt_s;
  pt.x2 = (e - pz) / sqrt_s;
  pt.physical = physical && pt.x1 < 1.0 && pt.x2 < 1.0;
  hg_gen_set_beams(&pt, sqrt_s, s);
  pt.weight = weight;
  return pt;
}

#endif
