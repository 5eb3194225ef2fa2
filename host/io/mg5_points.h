/* SPDX-License-Identifier: MIT */
/* Reads MadGraph5_aMC@NLO reference points: 'POINT i sqrt_s', n+2 momentum lines, 'ME value'. */
#ifndef HG_MG5_POINTS_H
#define HG_MG5_POINTS_H

#include <stddef.h>

#include "hegetcl/status.h"

typedef struct {
  unsigned n_photons;
  size_t n_points;
  double *momenta; /* structure of arrays, as hegetcl_amplitude_evaluate takes them */
  double *me;      /* MadGraph's helicity-summed, averaged |M|^2 */
} hg_mg5_points;

/* Reads path; n_photons is taken from the particle count of the first point. On failure returns
 * HEGETCL_ERR_IO or HEGETCL_ERR_INPUT with "path:line: problem" in message. */
hegetcl_status hg_mg5_points_read(const char *path, hg_mg5_points *out, char *message,
                                  size_t message_size);
void hg_mg5_points_free(hg_mg5_points *points);

#endif
