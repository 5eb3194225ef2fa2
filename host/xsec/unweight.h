/* SPDX-License-Identifier: MIT */
/* The photon family's unweighting after the integration: batches of weighted events made by its
 * sampler, hit-or-miss and gather on the device (cl/events/unweight.cl), events to a sink. */
#ifndef HG_XSEC_UNWEIGHT_H
#define HG_XSEC_UNWEIGHT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "events/record.h"
#include "hegetcl/events.h"
#include "hegetcl/xsec.h"
#include "integrate/vegas.h"
#include "io/checkpoint_file.h"

/* Where the unweighting stands after a batch: what a checkpoint saves to continue it exactly. */
typedef struct {
  uint64_t first;   /* the next batch's first event (Philox counter) */
  uint64_t written; /* events handed to the sink */
  uint64_t tried;   /* weighted events made */
  uint64_t kept;    /* of them kept by the hit-or-miss (written or beyond the request) */
  double stats[HG_EVENT_STATS]; /* the batches' statistics, summed in order */
  double seconds;               /* spent so far */
} hg_unweight_state;

/* Called at a checkpoint: after the batch whose events pass a multiple of checkpoint_every events
 * written (stopping = 0), or when the run stops (stopping = 1). A status other than HEGETCL_OK
 * stops the run. */
typedef hegetcl_status (*hg_unweight_checkpoint)(void *user, const hg_unweight_state *state,
                                                 int stopping);

/* The variation ratios of the n kept events first + index[a] of a batch: ratios[a * count + k]
 * for the run's count variations. */
typedef hegetcl_status (*hg_unweight_ratios)(void *user, uint64_t first, const uint32_t *index,
                                             size_t n, double *ratios);

/* What the unweighting needs from the run. sampler fills factor and me for a batch (its
 * iteration argument is HG_ITERATION_EVENTS); params, grid, pdf and sampling (the adaptive
 * tables) are the sampler's buffers. */
typedef struct {
  cl_program program;
  unsigned n_photons;
  int quark_pid;
  int both_orientations; /* mirror the events the gather marks, so either proton gives the quark */
  /* a run over flavour channels (n_channels > 0, no mirroring): channel c's parton from proton 1
   * (along +z) has PDG id channel_pid[c], proton 2's the opposite; quark_pid is then unused */
  unsigned n_channels;
  int channel_pid[HEGETCL_XSEC_MAX_CHANNELS];
  int helicity_sampled;
  /* what every event record carries (hegetcl_event): the scales, the couplings, the process */
  double mu_f_gev, mu_r_gev, alpha_s, alpha_qed;
  int process_id;
  uint64_t seed;
  size_t batch;
  double max_weight;
  uint64_t requested, max_tries;
  uint64_t first_event; /* a fresh run's first event (Philox counter): 0, or a rank's stream */
  hg_vegas_sampler sampler;
  void *sampler_user;
  cl_mem params, grid, pdf, factor, me, sampling;
  /* variation weights: n_variations ratios per event from ratios (0 and NULL: none) */
  unsigned n_variations;
  hg_unweight_ratios ratios;
  void *ratios_user;
  const hg_unweight_state *resume;   /* NULL: from event 0; else go on from this state */
  uint64_t checkpoint_every;         /* events written between checkpoints (0: none but the stop) */
  hg_unweight_checkpoint checkpoint; /* NULL: none */
  void *checkpoint_user;
  const volatile sig_atomic_t *stop; /* non-zero at a batch boundary: checkpoint and stop */
} hg_unweight_inputs;

/* Makes in->requested events, calling sink for each in event order and progress (may be NULL)
 * after every batch. HEGETCL_ERR_INPUT when max_tries is reached first (naming the efficiency),
 * HEGETCL_ERR_NONFINITE on a non-finite weight. When *in->stop is set it stops at the next batch
 * boundary after the stopping checkpoint, returns HEGETCL_OK with the result so far and sets
 * *stopped. *end (may be NULL) receives the state where it ended. */
hegetcl_status hg_unweight_run(hegetcl_context *ctx, const hg_unweight_inputs *in,
                               hegetcl_event_sink sink, void *sink_user,
                               hegetcl_events_progress progress, void *progress_user,
                               hegetcl_unweighting_result *result, int *stopped,
                               hg_unweight_state *end);

/* The result a state stands for (requested and max_weight_fb untouched). */
void hg_unweight_summarise(const hg_unweight_state *state, hegetcl_unweighting_result *result);

/* The state as checkpoint lines "unweight.*", and back (HEGETCL_ERR_INPUT with c->message). */
void hg_unweight_save(const hg_unweight_state *state, hg_ckpt_writer *w);
int hg_unweight_load(hg_unweight_state *state, hg_ckpt *c);

#endif
