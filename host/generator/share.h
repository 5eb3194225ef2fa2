/* SPDX-License-Identifier: MIT */
/* A process run shared over several devices and processes (generator/share.c). */
#ifndef HG_GENERATOR_SHARE_H
#define HG_GENERATOR_SHARE_H

#include "generator/run.h"

struct hg_gen_run;

/* From hooks->sharing: the run built again on every other device (its replicas), the team and
 * this process's first event number (rank x 2^40). HEGETCL_ERR_INPUT for a team that is no team,
 * HEGETCL_ERR_UNSUPPORTED for a checkpoint of a run shared by processes (as photon runs). */
hegetcl_status hg_gen_share_open(struct hg_gen_run *run, const hegetcl_xsec_hooks *hooks);
void hg_gen_share_close(struct hg_gen_run *run);

/* This process's share of n unweighted events: the first n % size ranks make one more. */
uint64_t hg_gen_share_events(const struct hg_gen_run *run, uint64_t n);

/* The ranks' unweighting statistics, the run's and each group's, added up into every rank's
 * result (requested: the run's); every rank calls it whatever its status. */
hegetcl_status hg_gen_share_combine_unweighting(struct hg_gen_run *run, hegetcl_status status,
                                                uint64_t requested, hegetcl_xsec_result *r);

#endif
