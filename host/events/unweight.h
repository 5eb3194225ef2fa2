/* SPDX-License-Identifier: MIT */
/* Unweighting after the integration: batches of weighted events made by the cross-section
 * sampler, hit-or-miss and gather on the device (cl/events/unweight.cl), events to a sink. */
#ifndef HG_EVENTS_UNWEIGHT_H
#define HG_EVENTS_UNWEIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "hegetcl/events.h"
#include "integrate/vegas.h"

/* What the unweighting needs from the run. sampler fills factor and me for a batch (its
 * iteration argument is HG_ITERATION_EVENTS); params, grid and pdf are the sampler's buffers. */
typedef struct {
  cl_program program;
  unsigned n_photons;
  int quark_pid;
  int both_orientations; /* mirror the events the gather marks, so either proton gives the quark */
  int helicity_sampled;
  uint64_t seed;
  size_t batch;
  double max_weight;
  uint64_t requested, max_tries;
  hg_vegas_sampler sampler;
  void *sampler_user;
  cl_mem params, grid, pdf, factor, me;
} hg_unweight_inputs;

/* Makes in->requested events, calling sink for each in event order and progress (may be NULL)
 * after every batch. HEGETCL_ERR_INPUT when max_tries is reached first (naming the efficiency),
 * HEGETCL_ERR_NONFINITE on a non-finite weight. */
hegetcl_status hg_unweight_run(hegetcl_context *ctx, const hg_unweight_inputs *in,
                               hegetcl_event_sink sink, void *sink_user,
                               hegetcl_events_progress progress, void *progress_user,
                               hegetcl_unweighting_result *result);

#endif
