/* SPDX-License-Identifier: MIT */
/* The HELAS sources (all of helas/qcd.cl) compiled as host C in double, with complex 4x4 helpers
 * for the checks. */
#ifndef HG_HELAS_TEST_SUPPORT_H
#define HG_HELAS_TEST_SUPPORT_H

#include <complex.h>
#include <math.h>
#include <stdint.h>

#include "helas/qcd.cl"

static inline double complex ht_c(hg_complex z) { return z.re + I * z.im; }

/* pslash = gamma^mu p_mu in HELAS's chiral basis (CONVENTIONS.md): [[0, p0 - sigma.p],
 * [p0 + sigma.p, 0]]. */
static inline void ht_slash(const double p[4], double complex m[4][4]) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[r][c] = 0;
  /* upper right: sigma_mu p^mu = p0 - sigma.p */
  m[0][2] = p[0] - p[3];
  m[0][3] = -(p[1] - I * p[2]);
  m[1][2] = -(p[1] + I * p[2]);
  m[1][3] = p[0] + p[3];
  /* lower left: sigma-bar_mu p^mu = p0 + sigma.p */
  m[2][0] = p[0] + p[3];
  m[2][1] = p[1] - I * p[2];
  m[3][0] = p[1] + I * p[2];
  m[3][1] = p[0] - p[3];
}

/* A massless momentum of energy e in the direction (theta, phi). */
static inline hg_fourvec ht_massless(double e, double theta, double phi) {
  return hg_fourvec_make(e, e * sin(theta) * cos(phi), e * sin(theta) * sin(phi), e * cos(theta));
}

static inline double ht_uniform(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return ((double)((z ^ (z >> 31)) >> 11) + 0.5) * 0x1p-53;
}

#endif
