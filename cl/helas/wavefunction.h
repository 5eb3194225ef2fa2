/* SPDX-License-Identifier: MIT */
/* HELAS wavefunctions: 4 spinor or vector components plus the momentum in slots 5 and 6. */
#ifndef HG_WAVEFUNCTION_H
#define HG_WAVEFUNCTION_H

#include "common/fourvec.h"

/* w[0..3]: Dirac spinor (chiral basis) or contravariant vector components; w[4] = ns*(p0 + i p3),
 * w[5] = ns*(p1 + i p2), exactly as HELAS's fi(5), fi(6) (CONVENTIONS.md, "HELAS slots"). */
typedef struct {
  hg_complex w[6];
} hg_wave;

/* The chiral couplings of an FFV vertex: gal[0] multiplies the left-handed projector, gal[1] the
 * right-handed one (HELAS's gc(1), gc(2)); for a photon both are e*Q_f. */
typedef struct {
  hg_complex gal[2];
} hg_coupling;

/* The four-momentum a wavefunction carries (HELAS's slots 5 and 6, sign ns included). */
HG_INLINE hg_fourvec hg_wave_momentum(hg_wave f) {
  return hg_fourvec_make(f.w[4].re, f.w[5].re, f.w[5].im, f.w[4].im);
}

#endif
