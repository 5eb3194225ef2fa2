/* SPDX-License-Identifier: MIT */
/* RAMBO (Kleiss, Stirling, Ellis, Comput. Phys. Commun. 40 (1986) 359): flat massless n-body
 * phase space, with Bjorken x1 x2 = tau sampled in log tau and the rapidity of the pair. */
#ifndef HG_PS_RAMBO_H
#define HG_PS_RAMBO_H

#include "phasespace/point.h"

/* Dimensions of the RAMBO map for n photons: tau, rapidity, then 4 per photon. */
#define HG_RAMBO_DIMS(n) (4 * (n) + 2)

/* The massless n-body phase-space volume at energy squared s: (2 pi)^(4 - 3n) (pi / 2)^(n - 1)
 * s^(n - 2) / ((n - 1)! (n - 2)!), RAMBO's constant weight. */
HG_INLINE double hg_massless_volume(int n, double s) {
  const double two_pi = 2.0 * HG_PS_PI;
  double v = two_pi * two_pi * two_pi * two_pi;
  for (int k = 0; k < n; ++k) v /= two_pi * two_pi * two_pi;
  for (int k = 1; k < n; ++k) v *= 0.5 * HG_PS_PI;
  for (int k = 2; k < n; ++k) v *= s / ((double)k * (double)(k - 1));
  return v;
}

/* n massless momenta in their centre-of-mass frame with total energy sqrt_shat from u[0 .. 4n-1]
 * (isotropic directions, energies q e^-q, then the conformal map onto total momentum (sqrt_shat,
 * 0)), written to p[0 .. n-1]. */
HG_INLINE void hg_rambo_momenta(const double *u, int n, double sqrt_shat, double (*p)[4]) {
  const double two_pi = 2.0 * HG_PS_PI;
  double q[4] = {0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    const double c = 2.0 * u[4 * i] - 1.0, sn = sqrt(1.0 - c * c), f = two_pi * u[4 * i + 1];
    const double e = -log(u[4 * i + 2] * u[4 * i + 3]);
    p[i][0] = e;
    p[i][1] = e * sn * cos(f);
    p[i][2] = e * sn * sin(f);
    p[i][3] = e * c;
    for (int c4 = 0; c4 < 4; ++c4) q[c4] += p[i][c4];
  }
  const double m = sqrt(q[0] * q[0] - q[1] * q[1] - q[2] * q[2] - q[3] * q[3]);
  const double b[3] = {-q[1] / m, -q[2] / m, -q[3] / m};
  const double gamma = q[0] / m, a = 1.0 / (1.0 + gamma), x = sqrt_shat / m;
  for (int i = 0; i < n; ++i) {
    const double bq = b[0] * p[i][1] + b[1] * p[i][2] + b[2] * p[i][3];
    const double e = p[i][0];
    for (int c3 = 0; c3 < 3; ++c3) p[i][1 + c3] = x * (p[i][1 + c3] + b[c3] * e + a * bq * b[c3]);
    p[i][0] = x * (gamma * e + bq);
  }
}

/* The point of u[0 .. 4n+1]: tau = x1 x2 from tau_min = (n pt_min)^2 / s (below it n photons
 * cannot all have pT > pt_min) to 1, uniform in log tau (u[0]); the pair's rapidity uniform in
 * [ln tau / 2, -ln tau / 2] (u[1]); RAMBO photons (u[2..]) boosted to the lab by that rapidity. */
HG_INLINE hg_ps_point hg_rambo_point(const double *u, int n, double sqrt_s, double pt_min) {
  hg_ps_point pt;
  const double s = sqrt_s * sqrt_s;
  const double log_tau_min = log((double)(n * n) * pt_min * pt_min / s);
  const double log_tau = (1.0 - u[0]) * log_tau_min;
  const double tau = exp(log_tau);
  const double y = (u[1] - 0.5) * -log_tau;
  pt.x1 = sqrt(tau) * exp(y);
  pt.x2 = sqrt(tau) * exp(-y);
  hg_ps_set_beams(&pt, sqrt_s);
  hg_rambo_momenta(u + 2, n, sqrt(pt.shat), pt.p + 2);
  const double ch = cosh(y), sh = sinh(y);
  for (int k = 0; k < n; ++k) {
    double *p = pt.p[2 + k];
    const double e = p[0], z = p[3];
    p[0] = e * ch + z * sh;
    p[3] = z * ch + e * sh;
  }
  /* dx1 dx2 = dtau dy; dtau = -tau log(tau_min) du0, dy = -log(tau) du1 */
  pt.weight = tau * -log_tau_min * -log_tau * hg_massless_volume(n, pt.shat);
  pt.physical = pt.x1 < 1.0 && pt.x2 < 1.0;
  return pt;
}

#endif
