/* SPDX-License-Identifier: MIT */
/* Multichannel phase space for p p -> n photons: channel k is the collider map with photon k
 * balancing the others' transverse momentum; a point's density is the channels' sum weighted by
 * the channel weights alpha_k (Kleiss, Pittau, Comput. Phys. Commun. 83 (1994) 141,
 * hep-ph/9405257; CONVENTIONS.md, "Phase space"). The channels share one VEGAS grid, read in each
 * channel's own coordinates: |M|^2 and the cuts are symmetric in the photons, so every channel's
 * best grid is the same. */
#ifndef HG_PS_MULTICHANNEL_H
#define HG_PS_MULTICHANNEL_H

#include "integrate/vegas_map.h"
#include "phasespace/collider.h"

/* Channel k's point of x[0 .. 3n - 3]: the collider map's photon of slot s (s < n - 1) becomes
 * photon s (s < k) or s + 1 (s >= k), its balancing photon photon k. */
HG_INLINE hg_ps_point hg_multichannel_point(const double *x, int n, int k, double sqrt_s,
                                            double pt_min, double eta_max) {
  hg_ps_point pt = hg_collider_point(x, n, sqrt_s, pt_min, eta_max);
  double balancing[4];
  for (int c = 0; c < 4; ++c) balancing[c] = pt.p[1 + n][c];
  for (int i = n - 1; i >= 1; --i)
    for (int c = 0; c < 4; ++c) {
      const double moved = pt.p[1 + i][c]; /* slot i - 1 */
      pt.p[2 + i][c] = i > k ? moved : pt.p[2 + i][c];
    }
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 4; ++c) pt.p[2 + i][c] = i == k ? balancing[c] : pt.p[2 + i][c];
  return pt;
}

/* 1 / g for the point's photons, g = sum_k alpha_k g_k, where channel k's density g_k =
 * rho(x_k) / weight_k is the VEGAS grid's density at channel k's coordinates x_k of the point
 * over the collider map's weight with photon k balancing (weight_k = w0 prod_{i != k} pT_i^3,
 * hg_collider_point). alpha holds the cumulative channel weights. The point must pass the cuts
 * (every photon then lies in every channel's range); elsewhere the value is finite but
 * meaningless. */
HG_INLINE double hg_multichannel_weight(const hg_ps_point *pt, int n, HG_GLOBAL const double *grid,
                                        int bins, HG_GLOBAL const double *alpha, double sqrt_s,
                                        double pt_min, double eta_max) {
  const double two_pi = 2.0 * HG_PS_PI, s = sqrt_s * sqrt_s;
  const double inv_low = 1.0 / pt_min, inv_span = inv_low - 2.0 / sqrt_s;
  const double per_photon = 1.0 / (2.0 * two_pi * two_pi * two_pi);
  /* weight_k = w0 prod_{i != k} pT_i^3 (collider.h's factors) */
  double w0 = two_pi * two_pi * two_pi * two_pi * 2.0 / s * per_photon * (2.0 * eta_max);
  double pt3_all = 1.0;
  /* per photon: its grid density in the slot it has in channels k > i (slot i) and k < i
   * (slot i - 1), and in the balancing photon's rapidity dimension */
  double below[HG_PS_MAX_PHOTONS], above[HG_PS_MAX_PHOTONS], rapidity[HG_PS_MAX_PHOTONS];
  double pt3[HG_PS_MAX_PHOTONS];
  for (int i = 0; i < n; ++i) {
    const double *p = pt->p[2 + i];
    const double pt_i = sqrt(p[1] * p[1] + p[2] * p[2]);
    const double eta = asinh(p[3] / pt_i);
    const double phi = atan2(p[2], p[1]);
    const double x_pt = (inv_low - 1.0 / pt_i) / inv_span;
    const double x_eta = 0.5 * (eta / eta_max + 1.0);
    const double x_phi = (phi < 0.0 ? phi + two_pi : phi) / two_pi;
    pt3[i] = pt_i * pt_i * pt_i;
    pt3_all *= pt3[i];
    const int own = i < n - 1 ? i : n - 2, lower = i > 0 ? i - 1 : 0;
    below[i] = hg_vegas_density(grid, 3 * own, bins, x_pt) *
               hg_vegas_density(grid, 3 * own + 1, bins, x_eta) *
               hg_vegas_density(grid, 3 * own + 2, bins, x_phi);
    above[i] = hg_vegas_density(grid, 3 * lower, bins, x_pt) *
               hg_vegas_density(grid, 3 * lower + 1, bins, x_eta) *
               hg_vegas_density(grid, 3 * lower + 2, bins, x_phi);
    rapidity[i] = hg_vegas_density(grid, 3 * n - 3, bins, x_eta);
  }
  for (int i = 0; i < n - 1; ++i) w0 *= per_photon * inv_span * (2.0 * eta_max) * two_pi;
  /* sum_k alpha_k rho_k pT_k^3 with rho_k = prod_{i < k} below_i prod_{i > k} above_i
   * rapidity_k: prefix products from the left, suffix products from the right */
  double suffix[HG_PS_MAX_PHOTONS];
  double product = 1.0;
  for (int i = n - 1; i >= 0; --i) {
    suffix[i] = product;
    product *= above[i];
  }
  double sum = 0.0, prefix = 1.0, previous = 0.0;
  for (int k = 0; k < n; ++k) {
    const double a = alpha[k] - previous;
    previous = alpha[k];
    sum += a * prefix * suffix[k] * rapidity[k] * pt3[k];
    prefix *= below[k];
  }
  /* 1 / g = w0 prod_i pT_i^3 / sum_k alpha_k rho_k pT_k^3 */
  return w0 * pt3_all / sum;
}

#endif
