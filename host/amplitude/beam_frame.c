/* SPDX-License-Identifier: MIT */
/* cl/common/beam_frame.h in double for the host: the photon family's events staged in the beam
 * frame before a program of either precision gets them. */
#define REAL double
#define REAL_IS_DOUBLE 1
#include "common/beam_frame.h"

#include "amplitude_internal.h"

int hg_event_in_beam_frame(const double *p) { return hg_in_beam_frame(p); }

void hg_event_to_beam_frame(double *p, unsigned n_particles) {
  hg_to_beam_frame(p, (int)n_particles);
}
