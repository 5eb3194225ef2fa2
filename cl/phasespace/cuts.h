/* SPDX-License-Identifier: MIT */
/* The photon cuts: pT > pt_min, |eta| < eta_max and Delta R > dr_min for every pair. */
#ifndef HG_PS_CUTS_H
#define HG_PS_CUTS_H

#include "phasespace/point.h"

/* 1 when every photon of the point passes the cuts (eta = asinh(pz / pT) for massless photons,
 * Delta phi folded into [0, pi]); written without early exits so work-items do not diverge. */
HG_INLINE int hg_passes_cuts(const hg_ps_point *pt, int n, double pt_min, double eta_max,
                             double dr_min) {
  double eta[HG_PS_MAX_PHOTONS], phi[HG_PS_MAX_PHOTONS];
  int pass = 1;
  for (int k = 0; k < n; ++k) {
    const double *p = pt->p[2 + k];
    const double pt_k = sqrt(p[1] * p[1] + p[2] * p[2]);
    eta[k] = asinh(p[3] / pt_k);
    phi[k] = atan2(p[2], p[1]);
    pass &= (pt_k > pt_min) & (fabs(eta[k]) < eta_max);
  }
  const double dr2_min = dr_min * dr_min;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dphi = fabs(phi[i] - phi[j]);
      dphi = dphi > HG_PS_PI ? 2.0 * HG_PS_PI - dphi : dphi;
      const double deta = eta[i] - eta[j];
      pass &= deta * deta + dphi * dphi > dr2_min;
    }
  return pass;
}

#endif
