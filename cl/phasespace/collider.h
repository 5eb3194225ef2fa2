/* SPDX-License-Identifier: MIT */
/* Hadron-collider phase space for p p -> n massless photons in (pT, eta, phi) of n - 1 photons
 * and the rapidity of the last, whose transverse momentum balances the others; x1 and x2 follow
 * from energy and momentum conservation (CONVENTIONS.md, "Phase space"). */
#ifndef HG_PS_COLLIDER_H
#define HG_PS_COLLIDER_H

#include "phasespace/point.h"

/* Dimensions of the collider map for n photons. */
#define HG_COLLIDER_DIMS(n) (3 * (n)-2)

/* The point of u[0 .. 3n - 3] in (0, 1): photon k < n - 1 has 1/pT uniform between 1/pt_min and
 * 2/sqrt_s (u[3k]), eta uniform in [-eta_max, eta_max] (u[3k + 1]), phi uniform (u[3k + 2]); the
 * last photon's rapidity is uniform in [-eta_max, eta_max] (u[3n - 3]). Every photon but the last
 * thus meets the pT and eta cuts by construction. dx1 dx2 delta(E) delta(pz) = 2 / s and
 * d^3k / (2E) = pT dpT deta dphi / 2 give the weight. */
HG_INLINE hg_ps_point hg_collider_point(const double *u, int n, double sqrt_s, double pt_min,
                                        double eta_max) {
  hg_ps_point pt;
  const double two_pi = 2.0 * HG_PS_PI, s = sqrt_s * sqrt_s;
  const double inv_low = 1.0 / pt_min, inv_span = inv_low - 2.0 / sqrt_s;
  const double per_photon = 1.0 / (2.0 * two_pi * two_pi * two_pi);
  double weight = two_pi * two_pi * two_pi * two_pi * 2.0 / s;
  double px = 0.0, py = 0.0, e = 0.0, pz = 0.0;
  for (int k = 0; k < n - 1; ++k) {
    const double pt_k = 1.0 / (inv_low - u[3 * k] * inv_span);
    const double eta = eta_max * (2.0 * u[3 * k + 1] - 1.0);
    const double phi = two_pi * u[3 * k + 2];
    double *p = pt.p[2 + k];
    p[1] = pt_k * cos(phi);
    p[2] = pt_k * sin(phi);
    p[3] = pt_k * sinh(eta);
    p[0] = pt_k * cosh(eta);
    px += p[1];
    py += p[2];
    pz += p[3];
    e += p[0];
    /* pT dpT deta dphi with dpT/du = pT^2 inv_span */
    weight *= per_photon * pt_k * pt_k * pt_k * inv_span * (2.0 * eta_max) * two_pi;
  }
  double *last = pt.p[1 + n];
  const double y = eta_max * (2.0 * u[3 * n - 3] - 1.0);
  const double pt_last = sqrt(px * px + py * py);
  last[1] = -px;
  last[2] = -py;
  last[3] = pt_last * sinh(y);
  last[0] = pt_last * cosh(y);
  e += last[0];
  pz += last[3];
  weight *= per_photon * (2.0 * eta_max);
  pt.x1 = (e + pz) / sqrt_s;
  pt.x2 = (e - pz) / sqrt_s;
  pt.physical = pt.x1 < 1.0 && pt.x2 < 1.0 && pt_last > 0.0;
  hg_ps_set_beams(&pt, sqrt_s);
  pt.weight = weight;
  return pt;
}

#endif
