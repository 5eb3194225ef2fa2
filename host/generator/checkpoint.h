/* SPDX-License-Identifier: MIT */
/* A process run's checkpoint (docs/user-guide.md, "Long runs"; docs/generator.md): the stages'
 * state in the xsec checkpoint format (io/checkpoint_file.h), written after the pilot, after
 * every VEGAS iteration of every group, when a group's integration is complete and when the
 * integration is: the settings (xsec/checkpoint.h), every group's pilot estimate and spread, the
 * result and last grid of each group whose integration is complete, every group's channel and
 * variation sums, and the VEGAS state of the group being integrated. A run resumed from it goes
 * on where it stopped and gives the numbers of a run that never stopped, bit for bit on the same
 * device. In the unweighting, a stop is heard after every event and every_events events the
 * event sink makes its events durable (hooks->events_checkpoint) and the checkpoint counts them;
 * a run resumed there makes the unweighting's events again from the first (they depend on the
 * seed alone; the integration is not repeated) and gives the sink those after the ones counted
 * (hooks->events_resume), so the file is the one of a run never stopped. */
#ifndef HG_GENERATOR_CHECKPOINT_H
#define HG_GENERATOR_CHECKPOINT_H

#include "hegetcl/xsec.h"
#include "integrate/vegas.h"

struct hg_gen_run;
typedef struct hg_gen_ckpt hg_gen_ckpt;

/* Opens the checkpointing of hooks->checkpointing for the run (NULL in *out when there is none):
 * a fresh run refuses a path that holds an unfinished run's checkpoint; a resumed one reads the
 * checkpoint, refuses another configuration's (naming the setting and both values) or a
 * finished run's, and restores the pilot and the groups whose integration is complete.
 * result->resumed says the phase it resumed in. */
hegetcl_status hg_gen_ckpt_open(struct hg_gen_run *run, const hegetcl_xsec_hooks *hooks,
                                hegetcl_xsec_result *result, hg_gen_ckpt **out);
void hg_gen_ckpt_close(hg_gen_ckpt *k);

/* 1 when the pilot's estimates came from the checkpoint (NULL k: 0). */
int hg_gen_ckpt_pilot_restored(const hg_gen_ckpt *k);
/* *restored = 1 when group g's integration came from the checkpoint: its result is in the group,
 * and its last grid is put in its reducer here (NULL k: 0). */
hegetcl_status hg_gen_ckpt_restore_group(hg_gen_ckpt *k, unsigned g, int *restored);
/* 1 once a stop was heard: the integration ends, the checkpoint holds its last iteration. */
int hg_gen_ckpt_stopped(const hg_gen_ckpt *k);

/* Around group g's integration (its VEGAS v created, not yet run): the VEGAS state loaded when
 * the checkpoint holds this group's, a checkpoint after every iteration, the stop; and after the
 * run, its last grid kept and, unless stopped, the checkpoint that says the group is complete. */
hegetcl_status hg_gen_ckpt_attach(hg_gen_ckpt *k, unsigned g, hg_vegas *v);
hegetcl_status hg_gen_ckpt_detach(hg_gen_ckpt *k, unsigned g, hg_vegas *v);

/* Saves the checkpoint in phase (HEGETCL_XSEC_INTEGRATING after the pilot, UNWEIGHTING or
 * FINISHED when the integration is complete); result gets saved_iterations. */
hegetcl_status hg_gen_ckpt_save(hg_gen_ckpt *k, hegetcl_xsec_phase phase);

/* The unweighting (the integration complete): the sink begun, or resumed where the checkpoint
 * says; result->stopped = HEGETCL_XSEC_UNWEIGHTING when a stop ended it. */
hegetcl_status hg_gen_ckpt_unweight(hg_gen_ckpt *k, const hegetcl_xsec_hooks *hooks,
                                    hegetcl_xsec_result *result);

/* VEGAS iterations (adapting ones too) the latest checkpoint holds, over the groups. */
uint32_t hg_gen_ckpt_saved_iterations(const hg_gen_ckpt *k);

#endif
