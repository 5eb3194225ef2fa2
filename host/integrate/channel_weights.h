/* SPDX-License-Identifier: MIT */
/* Adaptive channel weights of a multichannel phase space (Kleiss, Pittau, Comput. Phys. Commun.
 * 83 (1994) 141, hep-ph/9405257; CONVENTIONS.md, "Adaptive sampling"). Host C only. */
#ifndef HG_CHANNEL_WEIGHTS_H
#define HG_CHANNEL_WEIGHTS_H

#include <stddef.h>

/* The share of uniform weight every channel keeps (as HG_HELICITY_FLOOR). */
#define HG_CHANNEL_FLOOR 0.1

/* One Kleiss-Pittau step: alpha_k <- alpha_k sqrt(W_k), normalised, then mixed with the uniform
 * weights as (1 - floor) alpha + floor / count, where W_k = w2_sum[k] / events[k] estimates
 * integral g_k f^2 / g^2 from the squared weights of the events made in channel k. A channel
 * without events, or with no W_k positive anywhere, keeps its weight. */
void hg_channel_weights_update(double *alpha, const double *w2_sum, const double *events,
                               size_t count, double floor);

/* The cumulative table of alpha (count entries, the last exactly 1). */
void hg_channel_weights_table(const double *alpha, size_t count, double *cumulative);

#endif
