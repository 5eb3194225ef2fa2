/* SPDX-License-Identifier: MIT */
/* Scale and PDF variation weights of a run over a process (CONVENTIONS.md, "Variation weights";
 * kernels in cl/generator/variations.cl): the run's variation list, every PDF member's grid and
 * alpha_s table on the device, per group a program whose kernel gives each event's factor per
 * variation, the integration's sums per variation (the channels' reduction, so that sigma per
 * variation is combined over the iterations as sigma is) and the unweighted events' ratios. */
#ifndef HG_GENERATOR_VARIATIONS_H
#define HG_GENERATOR_VARIATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/xsec.h"
#include "io/checkpoint_file.h"

struct hg_gen_run;
typedef struct hg_gen_variations hg_gen_variations;

/* Builds the variations the run's config asks for (NULL in *out when none): after the groups
 * are open. HEGETCL_ERR_INPUT naming the problem for a set whose members or ErrorType it cannot
 * take. */
hegetcl_status hg_gen_variations_create(struct hg_gen_run *run, hg_gen_variations **out);
void hg_gen_variations_destroy(hg_gen_variations *v);

/* The alpha_s table (malloc'ed, *size doubles) of the run's set's member when its own header
 * (the lines of its .dat file before the first ---) gives alpha_s (an AlphaS_ key), as LHAPDF
 * lets a member override the .info: the table of the .info's entries with the member's in their
 * place. *table NULL when the member gives none, or for MadGraph's running (one for all). */
hegetcl_status hg_gen_member_alpha_s_table(struct hg_gen_run *run, int member, double **table,
                                           size_t *size);

/* Doubles of group g's batch sums (0 without variations). */
size_t hg_gen_variations_batch_sums(const hg_gen_variations *v);
/* After group g's sampler and amplitude ran over the batch (hg_gen_group_sample): each
 * variation's sums of w and w^2 into out, and with the run's histograms each variation's
 * histogram sums into histogram_out (hg_gen_histograms_add_variation; NULL: none). */
hegetcl_status hg_gen_variations_add_batch(hg_gen_variations *v, unsigned g, uint32_t iteration,
                                           uint64_t first_event, size_t n_events, double *out,
                                           double *histogram_out);
/* A combined iteration's sums join each variation's combination (weight 1 / variance). */
void hg_gen_variations_end_iteration(hg_gen_variations *v, unsigned g, uint64_t n_events,
                                     double variance, const double *sums);
/* The result: sigma per variation summed over the groups, envelope and PDF uncertainty
 * (malloc'ed into result->variations). */
hegetcl_status hg_gen_variations_result(hg_gen_variations *v, hegetcl_xsec_result *result);

/* Variations per event (0 without). */
unsigned hg_gen_variations_count(const hg_gen_variations *v);
/* Ratios of the n accepted events first + index[a] of group g's unweighting batch (iteration,
 * the key in the group): ratios[k * n + a] for variation k. */
hegetcl_status hg_gen_variations_ratios(hg_gen_variations *v, unsigned g, uint32_t iteration,
                                        uint64_t first, const uint32_t *index, size_t n,
                                        double *ratios);

/* Every group's sums per variation so far as checkpoint lines "generator.variations", and
 * back (HEGETCL_ERR_INPUT with c->message when missing or of another length). */
void hg_gen_variations_save(hg_gen_variations *v, hg_ckpt_writer *w);
int hg_gen_variations_load(hg_gen_variations *v, hg_ckpt *c);

#endif
