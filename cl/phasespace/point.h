/* SPDX-License-Identifier: MIT */
/* A phase-space point of p p -> n photons: parton momenta, Bjorken x's and the point's weight. */
#ifndef HG_PS_POINT_H
#define HG_PS_POINT_H

#include "shared/portable.h"

#define HG_PS_MAX_PHOTONS 12
#define HG_PS_PI 3.14159265358979323846

/* p[0]: the quark from proton 1 (x1, along +z), p[1]: the antiquark from proton 2 (x2, along -z),
 * p[2 + k]: photon k, in GeV in the lab (collider) frame. weight is the density of the point in
 * the unit hypercube: sigma = integral d^D u  f1(x1) f2(x2) |M|^2 / (2 shat) * weight, so it holds
 * dx1 dx2, the n-body phase space (2 pi)^4 delta^4 prod d^3k / ((2 pi)^3 2E) and every map's
 * Jacobian (GeV^(2n - 4)). physical is 0 where the map leaves the physical region (x > 1); such a
 * point still has finite massless momenta, so the amplitude stays finite, and its weight is
 * dropped. */
typedef struct {
  double p[HG_PS_MAX_PHOTONS + 2][4];
  double x1, x2, shat, weight;
  int physical;
} hg_ps_point;

/* The incoming partons along the beams for Bjorken x1, x2. */
HG_INLINE void hg_ps_set_beams(hg_ps_point *pt, double sqrt_s) {
  const double e1 = 0.5 * pt->x1 * sqrt_s, e2 = 0.5 * pt->x2 * sqrt_s;
  pt->p[0][0] = e1;
  pt->p[0][1] = 0.0;
  pt->p[0][2] = 0.0;
  pt->p[0][3] = e1;
  pt->p[1][0] = e2;
  pt->p[1][1] = 0.0;
  pt->p[1][2] = 0.0;
  pt->p[1][3] = -e2;
  pt->shat = pt->x1 * pt->x2 * sqrt_s * sqrt_s;
}

#endif
