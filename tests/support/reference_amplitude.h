/* SPDX-License-Identifier: MIT */
/* A host reference for u ubar -> n photons in plain C: Dirac matrices, spinors, n! orderings. */
#ifndef HG_REFERENCE_AMPLITUDE_H
#define HG_REFERENCE_AMPLITUDE_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

/* The most photons the reference takes (its cost grows as n! 2^n per point). */
#define TS_REFERENCE_MAX_PHOTONS 8

/* One phase-space point: p[i] = (E, px, py, pz) of particle i in GeV, 0 = u, 1 = ubar, 2.. the
 * photons, all massless; any directions (no axis is assumed). */
typedef struct {
  unsigned n_photons;
  double p[TS_REFERENCE_MAX_PHOTONS + 2][4];
} ts_reference_point;

/* Copies event e of a structure-of-arrays batch (the public API's layout) into *point. */
void ts_reference_point_load(unsigned n_photons, const double *momenta, size_t n_events,
                             size_t event, ts_reference_point *point);

/* The amplitude of helicity configuration helicity (bit i: particle i has helicity +1, else -1)
 * for u ubar -> n photons with photon coupling e*quark_charge, e = sqrt(4 pi alpha): the sum over
 * the n! orderings of the photons along the quark line. Its overall phase is a convention; |A|^2
 * is not. */
double complex ts_reference_amplitude(const ts_reference_point *point, uint32_t helicity,
                                      double alpha, double quark_charge);

/* |A|^2 of one configuration times the colour sum (3) and the averages over initial spins (1/4),
 * colours (1/9) and identical photons (1/n!): the per-configuration value the kernels return. */
double ts_reference_me_helicity(const ts_reference_point *point, uint32_t helicity, double alpha,
                                double quark_charge);

/* The same summed over all 2^(n+2) helicity configurations (MadGraph's standalone |M|^2). */
double ts_reference_me(const ts_reference_point *point, double alpha, double quark_charge);

#endif
