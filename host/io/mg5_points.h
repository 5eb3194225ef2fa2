/* SPDX-License-Identifier: MIT */
/* Reads MadGraph5_aMC@NLO reference points: 'POINT i sqrt_s', one momentum line per particle, 'ME
 * value' (../shared/refs/mg5 and ../shared/refs/mg5-qcd: any particles, massless or massive). */
#ifndef HG_MG5_POINTS_H
#define HG_MG5_POINTS_H

#include <stddef.h>
#include <stdio.h>

#include "hegetcl/status.h"

/* Particles in a point: the quark pair and 2 to 14 photons. */
#define HG_MG5_MIN_PARTICLES 4
#define HG_MG5_MAX_PARTICLES 16

typedef struct {
  unsigned n_photons;   /* n_particles - 2: the photon count of a q q~ -> n photons file */
  unsigned n_particles; /* external particles, incoming ones first (at most 16) */
  size_t n_points;
  double *momenta; /* structure of arrays, as hegetcl_amplitude_evaluate takes them */
  double *me;      /* MadGraph's helicity-summed, averaged |M|^2 */
} hg_mg5_points;

/* Reads path; n_photons is taken from the particle count of the first point. On failure returns
 * HEGETCL_ERR_IO or HEGETCL_ERR_INPUT with "path:line: problem" in message: a line that is not a
 * comment, blank, POINT, four finite momentum components or 'ME' with one finite |M|^2 >= 0;
 * points of different particle counts; a POINT without its ME line; over-long lines. */
hegetcl_status hg_mg5_points_read(const char *path, hg_mg5_points *out, char *message,
                                  size_t message_size);

/* The same from an open file, named name in messages (the fuzzer reads from memory). */
hegetcl_status hg_mg5_points_parse(FILE *file, const char *name, hg_mg5_points *out,
                                   char *message, size_t message_size);

/* Checks point (0-based) of points: every energy > 0, every particle on its mass shell to a
 * relative tolerance (|E^2 - |p|^2 - m^2| <= tolerance E^2; masses[i] in GeV, NULL: all
 * massless), incoming minus outgoing four-momentum zero to tolerance times sqrt(s). 0, or -1
 * with "point K, ...: problem" in message. */
int hg_mg5_points_check_momenta(const hg_mg5_points *points, size_t point, const double *masses,
                                double tolerance, char *message, size_t message_size);
void hg_mg5_points_free(hg_mg5_points *points);

/* Copies point e's momenta (E, px, py, pz) into p[0 .. n_particles), as closed forms take them. */
void hg_mg5_points_momenta(const hg_mg5_points *points, size_t e, double (*p)[4]);

#endif
