/* SPDX-License-Identifier: MIT */
/* The photon observables histogrammed during a run, their fill layout and binning; read by host C
 * and OpenCL C. */
#ifndef HG_ANALYSIS_OBSERVABLES_H
#define HG_ANALYSIS_OBSERVABLES_H

#include "phasespace/point.h"

/* Observable families; each has one binning (bins, lo, hi) for all its histograms. */
#define HG_OBS_FAMILY_PT 0    /* photon pT, GeV */
#define HG_OBS_FAMILY_ETA 1   /* photon pseudorapidity */
#define HG_OBS_FAMILY_DR 2    /* Delta R between two photons */
#define HG_OBS_FAMILY_MASS 3  /* invariant mass of the photon system, GeV */
#define HG_OBS_FAMILIES 4

/* Histograms for n photons: h in [0, n) pT of the photon ranked h + 1 in pT, [n, 2n) eta of the
 * photon ranked h - n + 1, 2n the smallest Delta R, 2n + 1 Delta R of every pair, 2n + 2 the
 * photon-system mass. Fills per event follow the same order; the pair histogram takes
 * n (n - 1) / 2 of them. */
#define HG_OBS_HISTOGRAMS(n) (2 * (n) + 3)
#define HG_OBS_PAIRS(n) ((n) * ((n)-1) / 2)
#define HG_OBS_FILLS(n) (2 * (n) + 2 + HG_OBS_PAIRS(n))
/* Per histogram at most this many bins plus the underflow and overflow (the reduction gives each
 * work-item two). */
#define HG_OBS_MAX_BINS 254

HG_INLINE int hg_obs_family(int h, int n) {
  return h < n ? HG_OBS_FAMILY_PT
               : (h < 2 * n ? HG_OBS_FAMILY_ETA
                            : (h < 2 * n + 2 ? HG_OBS_FAMILY_DR : HG_OBS_FAMILY_MASS));
}
/* The first fill of histogram h, and how many fills per event it takes. */
HG_INLINE int hg_obs_first_fill(int h, int n) { return h <= 2 * n + 1 ? h : h + HG_OBS_PAIRS(n) - 1; }
HG_INLINE int hg_obs_fill_count(int h, int n) { return h == 2 * n + 1 ? HG_OBS_PAIRS(n) : 1; }

/* The bin of x on (bins, lo, hi): 0 below lo (and NaN), 1 .. bins inside [lo, hi), bins + 1 at
 * or above hi. */
HG_INLINE int hg_obs_bin(double x, int bins, double lo, double hi) {
  const double t = (x - lo) / (hi - lo) * (double)bins;
  const int inside = (int)floor(t); /* rounding can reach bins just below hi */
  return !(x >= lo) ? 0 : (x >= hi ? bins + 1 : 1 + (inside < bins ? inside : bins - 1));
}

/* Every fill of the n final-state objects momenta[2 .. n + 1] (lab frame; photons, or a process
 * run's final-state particles) into value[HG_OBS_FILLS(n)]. pT ranking is a selection sort over
 * the values only (no early exits; ties keep their order). */
HG_INLINE void hg_obs_values_of(const double (*momenta)[4], int n, double *value) {
  double pt_k[HG_PS_MAX_PHOTONS], eta[HG_PS_MAX_PHOTONS], phi[HG_PS_MAX_PHOTONS];
  double e = 0.0, px = 0.0, py = 0.0, pz = 0.0;
  for (int k = 0; k < n; ++k) {
    const double *p = momenta[2 + k];
    pt_k[k] = sqrt(p[1] * p[1] + p[2] * p[2]);
    eta[k] = asinh(p[3] / pt_k[k]);
    phi[k] = atan2(p[2], p[1]);
    e += p[0];
    px += p[1];
    py += p[2];
    pz += p[3];
  }
  double rank_pt[HG_PS_MAX_PHOTONS], rank_eta[HG_PS_MAX_PHOTONS];
  for (int k = 0; k < n; ++k) {
    rank_pt[k] = pt_k[k];
    rank_eta[k] = eta[k];
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const int swap = rank_pt[j] > rank_pt[i];
      const double a = rank_pt[i], b = rank_pt[j], c = rank_eta[i], d = rank_eta[j];
      rank_pt[i] = swap ? b : a;
      rank_pt[j] = swap ? a : b;
      rank_eta[i] = swap ? d : c;
      rank_eta[j] = swap ? c : d;
    }
  for (int k = 0; k < n; ++k) {
    value[k] = rank_pt[k];
    value[n + k] = rank_eta[k];
  }
  double dr_min = 1e300;
  int f = 2 * n + 1;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dphi = fabs(phi[i] - phi[j]);
      dphi = dphi > HG_PS_PI ? 2.0 * HG_PS_PI - dphi : dphi;
      const double deta = eta[i] - eta[j];
      const double dr = sqrt(deta * deta + dphi * dphi);
      value[f++] = dr;
      dr_min = dr < dr_min ? dr : dr_min;
    }
  value[2 * n] = dr_min;
  value[f] = sqrt(fmax(e * e - px * px - py * py - pz * pz, 0.0));
}

/* Every fill of the point's photons. */
HG_INLINE void hg_obs_values(const hg_ps_point *pt, int n, double *value) {
  hg_obs_values_of((const double(*)[4])pt->p, n, value);
}

#endif
