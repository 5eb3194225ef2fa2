/* SPDX-License-Identifier: MIT */
/* The run's histograms on the host: booking from the binning, the device reduction launches, and
 * the combination over iterations with the cross section's inverse-variance weights. */
#ifndef HG_ANALYSIS_HISTOGRAMS_H
#define HG_ANALYSIS_HISTOGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "hegetcl/histogram.h"
#include "hegetcl/xsec.h"

typedef struct hg_histograms hg_histograms;

/* Checks the binning (HEGETCL_ERR_INPUT naming the family and the fix). */
hegetcl_status hg_histograms_check(hegetcl_context *ctx, const hegetcl_histogram_binning *binning);

/* Histograms of n photons with the binning, reduced by program's kernels over batches of up to
 * batch events; obs_value and obs_bin are the sampler's fill buffers. */
hegetcl_status hg_histograms_create(hegetcl_context *ctx, cl_program program, unsigned n_photons,
                                    const hegetcl_histogram_binning *binning, size_t batch,
                                    cl_mem params, cl_mem obs_value, cl_mem obs_bin,
                                    hg_histograms **out);
void hg_histograms_destroy(hg_histograms *h);

/* Fills per event of n photons (the sampler's fill buffers hold fills x batch). */
size_t hg_histograms_fills(unsigned n_photons);

/* Doubles a batch's histogram sums take. */
size_t hg_histograms_batch_sums(const hg_histograms *h);

/* Reduces a batch's n_events (weights factor x me) into out (hg_histograms_batch_sums doubles,
 * overwritten): the batch's sums, which the caller adds up over the iteration in batch order. */
hegetcl_status hg_histograms_add_batch(hg_histograms *h, cl_mem factor, cl_mem me,
                                       size_t n_events, double *out);

/* Ends an iteration of n_events whose cross section has the variance `variance`: its sums (the
 * batches' added up) join the combination with weight 1 / variance. */
void hg_histograms_end_iteration(hg_histograms *h, uint64_t n_events, double variance,
                                 const double *sums);

/* The combination of the iterations so far as numbers, for a checkpoint: its length, a copy
 * into state, and back (which also refreshes the histograms). */
size_t hg_histograms_state_size(const hg_histograms *h);
void hg_histograms_save_state(const hg_histograms *h, double *state);
void hg_histograms_load_state(hg_histograms *h, const double *state);

/* The combined histograms (count of them in *count), owned by h until hg_histograms_take moves
 * them to the caller (free with hegetcl_histograms_free). */
hegetcl_histogram *hg_histograms_take(hg_histograms *h, size_t *count);

#endif
