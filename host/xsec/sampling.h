/* SPDX-License-Identifier: MIT */
/* A run's adaptive sampling (CONVENTIONS.md, "Adaptive sampling"): the helicity configurations'
 * probabilities (--helicity adaptive) and the phase-space channel weights (--phase-space
 * multichannel), learnt in the adapting VEGAS iterations from the device's sums
 * (cl/xsec/sampling_sums.cl) and fixed afterwards; the table the sampler draws from, the
 * checkpoint lines and what the outputs report. */
#ifndef HG_XSEC_SAMPLING_H
#define HG_XSEC_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/xsec.h"
#include "io/checkpoint_file.h"

typedef struct hg_sampling hg_sampling;

/* The state of config's run: uniform probabilities and channel weights. NULL when out of
 * memory. */
hg_sampling *hg_sampling_create(const hegetcl_xsec_config *config);
void hg_sampling_destroy(hg_sampling *s);

/* 1 when the run adapts anything (the device then sums what it learns from). */
int hg_sampling_adapts(const hg_sampling *s);

/* The table the sampler reads (HG_SAMPLING_TABLE_SIZE(n) doubles, xsec/params.h). */
const double *hg_sampling_table(const hg_sampling *s);

/* Learns from an adapting iteration of n_events whose sums (HG_SAMPLING_SUMS(n) doubles) are
 * given, and remakes the table. */
void hg_sampling_learn(hg_sampling *s, uint64_t n_events, const double *sums);

/* Checkpoint lines "sampling.*", and back (HEGETCL_ERR_INPUT with c->message when missing or of
 * another size; nothing to do for a run that adapts nothing). */
void hg_sampling_save(const hg_sampling *s, hg_ckpt_writer *w);
int hg_sampling_load(hg_sampling *s, hg_ckpt *c);

/* What the result reports: the probabilities of the photon configurations 1 .. 2^n - 2 (malloc'ed,
 * NULL unless adaptive) and the channel weights. */
void hg_sampling_report(const hg_sampling *s, hegetcl_xsec_result *result);

#endif
