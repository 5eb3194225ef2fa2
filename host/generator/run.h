/* SPDX-License-Identifier: MIT */
/* A cross-section run over a process (CONVENTIONS.md, "Partonic channels"; docs/generator.md):
 * built once from the configuration (process -> partonic channels and groups -> one amplitude
 * and one sampler program per group -> PDFs -> VEGAS per group), then stages that own their
 * state: a pilot (checks that events pass the cuts and learns each group's spread), the
 * integration (events per group in proportion to its spread, each group's VEGAS to its share of
 * the target error), and the result per group and per channel. */
#ifndef HG_GENERATOR_RUN_H
#define HG_GENERATOR_RUN_H

#include "hegetcl/xsec.h"

typedef struct hg_gen_run hg_gen_run;

/* Builds the run (config->process_text non-empty): HEGETCL_ERR_INPUT naming the problem and the
 * fix for a process or setting the generator cannot take; program build errors as
 * hegetcl_amplitude_create's. */
hegetcl_status hg_gen_run_create(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                 hg_gen_run **out);
void hg_gen_run_destroy(hg_gen_run *run);

/* The pilot: a short plain-VEGAS pass per group; HEGETCL_ERR_INPUT when no event of any group
 * passes the cuts (said before the integration). */
hegetcl_status hg_gen_run_pilot(hg_gen_run *run);

/* The integration, progress hearing every group's iterations; fills result (sigma, error, the
 * groups and the channels). */
hegetcl_status hg_gen_run_integrate(hg_gen_run *run, hegetcl_vegas_progress progress,
                                    void *progress_user, hegetcl_xsec_result *result);

/* hegetcl_xsec_generate for any run. The photon family (config->process_text empty): its run
 * (hg_gen_photon_run_create), its stage plan (no pilot, one group with the whole budget), the
 * integration, the events, its checkpoints in the photon runs' format. A process: create, pilot,
 * integrate and, with config->unweighted_events, events_begin and the unweighting into the
 * hooks' sink; destroy. With hooks->checkpointing, checkpoints and stopping
 * (generator/checkpoint.h); with hooks->sharing, several devices and processes
 * (generator/share.h). */
hegetcl_status hg_gen_generate(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                               const hegetcl_xsec_hooks *hooks, hegetcl_xsec_result *result);

#endif
