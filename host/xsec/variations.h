/* SPDX-License-Identifier: MIT */
/* Factorisation-scale and PDF variation weights of a photon run (CONVENTIONS.md, "Variation
 * weights of a photon run"; kernel in cl/xsec/variations.cl): the run's variation list and every
 * PDF table it needs, built once on the host; per device a program whose kernel gives each
 * event's factor per variation, the integration's sums per variation (the flavour channels'
 * reduction, so sigma per variation is combined over the iterations as sigma is) and the
 * unweighted events' ratios. */
#ifndef HG_XSEC_VARIATIONS_H
#define HG_XSEC_VARIATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "analysis/histograms.h"
#include "hegetcl/pdf.h"
#include "hegetcl/xsec.h"
#include "io/checkpoint_file.h"

/* The host's part, the same for every device: the list and the packed tables. */
typedef struct {
  hegetcl_variation_result meta; /* list, n_scales, first_pdf, n_pdf, first_alt, n_alt, type */
  double *var;                   /* 2 per variation: f_F and its table */
  double *tables;                /* per table, the offset of its grid in pdfs */
  size_t n_tables;
  double *pdfs; /* the tables' packed grids, one after the other */
  size_t n_pdfs;
} hg_xsec_var_setup;

/* The variations config asks for (s->meta.list.n 0 when none): pdf is the run's own member, pids
 * its grid's flavour slots. HEGETCL_ERR_INPUT naming the problem and the fix for a set whose
 * members or ErrorType it cannot take, or a varied scale or another set whose grid does not cover
 * the cuts. Free with hg_xsec_var_setup_free whatever it returns. */
hegetcl_status hg_xsec_var_setup_make(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                      const hegetcl_pdf *pdf, const int *pids, size_t n_pids,
                                      hg_xsec_var_setup *s);
void hg_xsec_var_setup_free(hg_xsec_var_setup *s);

typedef struct hg_xsec_variations hg_xsec_variations;

/* One device's part: the program (sampler_options plus the variations' own), the buffers and
 * the reductions. params, pdf and sampling are the sampler's buffers, me the amplitude's. */
hegetcl_status hg_xsec_variations_open(hegetcl_context *ctx, const hg_xsec_var_setup *s,
                                       const char *sampler_options, unsigned orientations,
                                       size_t batch, uint64_t seed, cl_mem params, cl_mem pdf,
                                       cl_mem sampling, cl_mem me, hg_xsec_variations **out,
                                       double *build_seconds);
void hg_xsec_variations_close(hg_xsec_variations *v);

/* Fills a copy of the run's histograms per variation (the sampler's fill buffers obs_value and
 * obs_bin, reduced by program's kernels), each event weighted with the variation's weight. */
hegetcl_status hg_xsec_variations_add_histograms(hg_xsec_variations *v, cl_program program,
                                                 unsigned n_photons,
                                                 const hegetcl_histogram_binning *binning,
                                                 size_t batch, cl_mem obs_value, cl_mem obs_bin);
/* The combined histograms of every variation, variation k's histogram h at [k * *per + h]
 * (malloc'ed: free with hegetcl_histograms_free(out, n * *per)); NULL without histograms. */
hegetcl_histogram *hg_xsec_variations_take_histograms(hg_xsec_variations *v, size_t *per);

/* Doubles of a batch's sums (0 for NULL). */
size_t hg_xsec_variations_batch_sums(const hg_xsec_variations *v);
/* After the sampler and the amplitude ran over the batch: each variation's sums of w and w^2 into
 * out, with the batch's grid. */
hegetcl_status hg_xsec_variations_add_batch(hg_xsec_variations *v, cl_mem grid, uint32_t iteration,
                                            uint64_t first_event, size_t n_events, double *out);
/* A combined iteration's sums join each variation's combination (weight 1 / variance). */
void hg_xsec_variations_end_iteration(hg_xsec_variations *v, uint64_t n_events, double variance,
                                      const double *sums);
/* The result: sigma per variation, envelope and PDF uncertainty (malloc'ed into
 * result->variations). */
hegetcl_status hg_xsec_variations_result(const hg_xsec_variations *v, hegetcl_xsec_result *result);

/* Variations per event (0 for NULL). */
unsigned hg_xsec_variations_count(const hg_xsec_variations *v);
/* Ratios of the n events first + index[a] of the unweighting's batch (iteration
 * HG_ITERATION_EVENTS): ratios[a * count + k] for variation k, the event's weights in a row. */
hegetcl_status hg_xsec_variations_ratios(hg_xsec_variations *v, cl_mem grid, uint64_t first,
                                         const uint32_t *index, size_t n, double *ratios);

/* The combinations as checkpoint lines "variations.sums.<chunk>" (and the histograms' as
 * "variations.histograms.<variation>"), and back (HEGETCL_ERR_INPUT
 * with c->message when one is missing or of another length). */
void hg_xsec_variations_save(const hg_xsec_variations *v, hg_ckpt_writer *w);
int hg_xsec_variations_load(hg_xsec_variations *v, hg_ckpt *c);

#endif
