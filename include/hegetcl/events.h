/* SPDX-License-Identifier: MIT */
/* Unweighted events of p p -> n photons: hit-or-miss after the integration, handed to a sink one
 * by one in event order (the Les Houches writer is one such sink). */
#ifndef HEGETCL_EVENTS_H
#define HEGETCL_EVENTS_H

#include <stdint.h>

#include "hegetcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HEGETCL_EVENT_MAX_PARTICLES 14

/* One unweighted event in the lab frame. Particle 0 comes from proton 1 (moving along +z),
 * particle 1 from proton 2; then the photons. */
typedef struct {
  unsigned n_particles;
  int pid[HEGETCL_EVENT_MAX_PARTICLES];      /* PDG ids: the two partons, then 22s */
  double p[HEGETCL_EVENT_MAX_PARTICLES][4];  /* E, px, py, pz in GeV */
  int helicity[HEGETCL_EVENT_MAX_PARTICLES]; /* +1 or -1; 0 when helicities were summed */
  double x1, x2;                             /* Bjorken x of protons 1 and 2 */
  double weight_ratio; /* w / max weight: above 1 for an overweight event (kept once) */
  uint64_t number;     /* the event's Philox counter: it can be made again alone */
  /* What every sink writes (CONVENTIONS.md, "Event record"). Mothers follow from status: an
   * incoming particle has none, every other one comes from particles 1 and 2. */
  /* Les Houches ISTUP: -1 incoming, 1 outgoing, 2 intermediate */
  int status[HEGETCL_EVENT_MAX_PARTICLES];
  /* ICOLUP: colour and anticolour tags (501, 502, ...), 0 for none */
  int colour[HEGETCL_EVENT_MAX_PARTICLES][2];
  double mass[HEGETCL_EVENT_MAX_PARTICLES]; /* GeV (Les Houches VUP's mass column) */
  double mu_f_gev, mu_r_gev; /* the scales the event was made with (SCALUP = mu_f_gev) */
  double alpha_s, alpha_qed; /* AQCDUP (0 when the process has no strong coupling), AQEDUP */
  int process_id;            /* IDPRUP: 1-based index of the process (channel group) of the run */
  unsigned n_variations;     /* variation weights that follow (0: none) */
  /* n_variations weights, each w_variation / w_nominal, in the order of the run's variation list
   * (hegetcl/variations.h); valid until the sink returns */
  const double *variations;
} hegetcl_event;

/* Receives every event; a status other than HEGETCL_OK stops the generation with it. */
typedef hegetcl_status (*hegetcl_event_sink)(const hegetcl_event *event, void *user);

/* Called after every batch: events written so far of requested, weighted events tried. */
typedef void (*hegetcl_events_progress)(uint64_t written, uint64_t requested, uint64_t tried,
                                        void *user);

/* What the unweighting did. The efficiency is written / tried; an overweight event (w above the
 * maximum) is kept with unit weight, so overweight_sigma_fraction, the share of the weights
 * above the maximum, is the bias that truncation leaves. */
typedef struct {
  uint64_t requested, written, tried;
  uint64_t overweight, negative; /* weighted events above the maximum, below zero */
  double max_weight_fb;          /* the maximum: the last iteration's largest weight */
  double efficiency, overweight_sigma_fraction;
  double sigma_check_fb; /* mean weight of the tried events: sigma from this pass */
  double seconds;
  /* a run over a process (0 otherwise): the weighted events sampled on the device (tried, plus
   * those after each group's last kept event in its last batch) and the batches */
  uint64_t sampled, batches;
} hegetcl_unweighting_result;

#ifdef __cplusplus
}
#endif

#endif
