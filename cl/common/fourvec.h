/* SPDX-License-Identifier: MIT */
/* Four-momenta (E, px, py, pz) in GeV, metric (+,-,-,-): see CONVENTIONS.md. */
#ifndef HG_FOURVEC_H
#define HG_FOURVEC_H

#include "common/real.h"

typedef struct {
  REAL v[4];
} hg_fourvec;

HG_INLINE hg_fourvec hg_fourvec_make(REAL e, REAL x, REAL y, REAL z) {
  hg_fourvec p;
  p.v[0] = e;
  p.v[1] = x;
  p.v[2] = y;
  p.v[3] = z;
  return p;
}
HG_INLINE REAL hg_minkowski(hg_fourvec a, hg_fourvec b) {
  return a.v[0] * b.v[0] - a.v[1] * b.v[1] - a.v[2] * b.v[2] - a.v[3] * b.v[3];
}

#endif
