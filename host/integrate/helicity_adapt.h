/* SPDX-License-Identifier: MIT */
/* Adaptive helicity sampling (CONVENTIONS.md, "Adaptive sampling"): the probabilities of the
 * photon helicity configurations from their estimated shares of sigma, and the cumulative table
 * the sampler draws from. Host C only, no device. */
#ifndef HG_HELICITY_ADAPT_H
#define HG_HELICITY_ADAPT_H

#include <stddef.h>

/* The uniform share every configuration keeps: p_c = (1 - floor) s_c / sum s + floor / count, so
 * no configuration with a non-zero |M|^2 has probability 0 and its weight is at most count /
 * floor times its |M|^2 share (uniform sampling: count times). */
#define HG_HELICITY_FLOOR 0.1

/* The cumulative table (count entries, the last exactly 1) of the probabilities (1 - floor)
 * max(s_c, 0) / sum max(s, 0) + floor / count from shares s (count values); uniform when no
 * share is positive. floor must be in (0, 1]. */
void hg_helicity_table(const double *shares, size_t count, double floor, double *cumulative);

/* The probability of entry c of a cumulative table as the sampler draws it (cl/integrate/
 * table_draw.h): cumulative[c] - cumulative[c - 1]. */
double hg_table_probability(const double *cumulative, size_t c);

#endif
