/* SPDX-License-Identifier: MIT */
/* Reads MadGraph5_aMC@NLO reference points: 'POINT i sqrt_s', one momentum line per particle, 'ME
 * value' (../shared/refs/mg5 and ../shared/refs/mg5-qcd: any particles, massless or massive). */
#ifndef HG_MG5_POINTS_H
#define HG_MG5_POINTS_H

#include <stddef.h>

#include "hegetcl/status.h"

typedef struct {
  unsigned n_photons;   /* n_particles - 2: the photon count of a q q~ -> n photons file */
  unsigned n_particles; /* external particles, incoming ones first (at most 16) */
  size_t n_points;
  double *momenta; /* structure of arrays, as hegetcl_amplitude_evaluate takes them */
  double *me;      /* MadGraph's helicity-summed, averaged |M|^2 */
} hg_mg5_points;

/* Reads path; n_photons is taken from the particle count of the first point. On failure returns
 * HEGETCL_ERR_IO or HEGETCL_ERR_INPUT with "path:line: problem" in message. */
hegetcl_status hg_mg5_points_read(const char *path, hg_mg5_points *out, char *message,
                                  size_t message_size);
void hg_mg5_points_free(hg_mg5_points *points);

/* Copies point e's momenta (E, px, py, pz) into p[0 .. n_particles), as closed forms take them. */
void hg_mg5_points_momenta(const hg_mg5_points *points, size_t e, double (*p)[4]);

#endif
