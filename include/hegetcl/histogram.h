/* SPDX-License-Identifier: MIT */
/* One-dimensional histograms of a cross section: filled on the device during the integration's
 * combined iterations, combined like the cross section, written as YODA and CSV. */
#ifndef HEGETCL_HISTOGRAM_H
#define HEGETCL_HISTOGRAM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Regular bins on [lo, hi) plus an underflow and an overflow bin. Arrays hold bins + 2 values:
 * [0] underflow (x < lo), [1 .. bins] the bins, [bins + 1] overflow (x >= hi). sumw is the cross
 * section in the bin (fb), sumw2 its squared Monte Carlo error (fb^2); sumwx and sumwx2 are the
 * same estimates of the integrals of x and x^2 (fb times the unit of x, and its square); entries
 * counts the events that filled the bin. An observable filled k times per event (every photon
 * pair) has integral k sigma. */
typedef struct {
  char name[32];    /* "pt_1" .. "pt_n", "eta_1" .. "eta_n", "dr_min", "dr_pairs", "m_photons" */
  char title[96];   /* "pT of the photon ranked 1 in pT", ... */
  char x_label[48]; /* "pT [GeV]", "eta", "Delta R", "m [GeV]" */
  unsigned bins;
  double lo, hi;
  double *sumw, *sumw2, *sumwx, *sumwx2, *entries;
} hegetcl_histogram;

/* Regular binning of one observable family. */
typedef struct {
  unsigned bins; /* 1 .. 254 */
  double lo, hi;
} hegetcl_bins;

/* The binning of each family: every photon's pT, every photon's eta, the Delta R histograms, the
 * photon-system mass. */
typedef struct {
  hegetcl_bins pt_gev, eta, delta_r, mass_gev;
} hegetcl_histogram_binning;

/* 50 bins each: pT 0 .. 500 GeV, eta -2.5 .. 2.5, Delta R 0 .. 6, mass 0 .. 2000 GeV. */
void hegetcl_histogram_binning_defaults(hegetcl_histogram_binning *b);

/* Frees count histograms made by the library (NULL is fine). */
void hegetcl_histograms_free(hegetcl_histogram *h, size_t count);

#ifdef __cplusplus
}
#endif

#endif
