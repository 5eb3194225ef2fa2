/* SPDX-License-Identifier: MIT */
/* Histograms of a run over a process (CONVENTIONS.md, "Histograms of a run over a process";
 * kernel in cl/generator/histograms.cl): per group the observables of its final-state particles,
 * the photon runs' histograms (pT and eta of the particle ranked k in pT, Delta R, the final
 * state's mass) filled with the nominal weights and, with variations, once more per variation;
 * each combined over the group's iterations as its sigma is, then added over the groups. */
#ifndef HG_GENERATOR_HISTOGRAMS_H
#define HG_GENERATOR_HISTOGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "hegetcl/xsec.h"
#include "io/checkpoint_file.h"

struct hg_gen_run;
typedef struct hg_gen_histograms hg_gen_histograms;

/* The histograms the run's config asks for (NULL in *out without): after the groups and the
 * variations are open. HEGETCL_ERR_INPUT when the groups' final states differ in size. */
hegetcl_status hg_gen_histograms_create(struct hg_gen_run *run, hg_gen_histograms **out);
void hg_gen_histograms_destroy(hg_gen_histograms *h);

/* Doubles of a group's batch sums: the nominal histograms', then each variation's (0 for NULL). */
size_t hg_gen_histograms_batch_sums(const hg_gen_histograms *h);
/* After group g's sampler and amplitude ran over the batch: the observables, and the nominal
 * histograms' sums into out (the first of hg_gen_histograms_batch_sums). */
hegetcl_status hg_gen_histograms_add_batch(hg_gen_histograms *h, unsigned g, uint32_t iteration,
                                           uint64_t first_event, size_t n_events, double *out);
/* Variation k's histograms' sums of the same batch into out (the whole batch sums' array), its
 * weights factors[offset + e] |M|^2 (factors: the variations' buffer of doubles). */
hegetcl_status hg_gen_histograms_add_variation(hg_gen_histograms *h, unsigned g, unsigned k,
                                               cl_mem factors, size_t offset, size_t n_events,
                                               double *out);
/* Every group's histogram state (nominal and per variation) into a checkpoint, and back: a
 * resumed run's histograms hold the iterations combined before the stop (nonzero and a message
 * in c when the checkpoint holds another set). */
void hg_gen_histograms_save(const hg_gen_histograms *h, hg_ckpt_writer *w);
int hg_gen_histograms_load(hg_gen_histograms *h, hg_ckpt *c);

/* A combined iteration's sums join group g's combinations (weight 1 / variance). */
void hg_gen_histograms_end_iteration(hg_gen_histograms *h, unsigned g, uint64_t n_events,
                                     double variance, const double *sums);
/* The histograms added over the groups into result->histograms and, with variations,
 * result->variation_histograms (after result->variations is set). */
hegetcl_status hg_gen_histograms_result(hg_gen_histograms *h, hegetcl_xsec_result *result);

#endif
