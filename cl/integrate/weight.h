/* SPDX-License-Identifier: MIT */
/* An event's weight: its factor (Jacobian, PDFs, flux, cuts) times |M|^2. */
#ifndef HG_INTEGRATE_WEIGHT_H
#define HG_INTEGRATE_WEIGHT_H

#include "shared/portable.h"

/* factor * me, and exactly 0 where the factor is 0: the amplitude kernels evaluate every event of
 * a batch, also those the cuts removed, and such an event may sit on a soft or collinear
 * singularity where |M|^2 is infinite or NaN; 0 * inf would be NaN and stop the run as a
 * non-finite weight. Inside the cuts the propagators are bounded away from zero (pT and |eta|
 * cuts keep every photon off the beams), so a non-finite weight there is a real fault and is
 * counted. A select, not a branch. */
HG_INLINE double hg_event_weight(double factor, double me) {
  return factor != 0.0 ? factor * me : 0.0;
}

#endif
