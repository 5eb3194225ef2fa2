/* SPDX-License-Identifier: MIT */
/* The photon family as one group of the run object: its sampler is the photon family's programs
 * on every device (host/xsec/photon_family.h, cl/xsec/), with the Philox keys and counters, VEGAS
 * dimensions, channel weights, helicity modes and flavour channels of the photon runs before the
 * run object took them, so that its stages give their numbers and events bit for bit. Its
 * checkpoint is the photon runs' format (kind xsec, version 1: xsec/checkpoint.h) with the
 * family's state: VEGAS's, the adaptive sampling's, the channels', the variations' and the
 * histograms' sums, and the unweighting's progress and event file; it is written at the run's
 * start, after every VEGAS iteration, in the unweighting and at the end. */
#include <stdlib.h>
#include <string.h>

#include "analysis/histograms.h"
#include "generator/run_internal.h"
#include "xsec/checkpoint.h"
#include "xsec/photon_family.h"

/* The photon group's state: the family, and the checkpoint's (NULL cp: none). */
typedef struct {
  hg_photon_family family;
  const hegetcl_xsec_hooks *hooks;
  const hegetcl_xsec_checkpointing *cp;
  hg_ckpt saved; /* the checkpoint read back when resuming */
  hegetcl_xsec_phase resume_phase;
  char *sink_state; /* the event file's description in that checkpoint */
  hg_unweight_state events;
  gen_group *group;
  hegetcl_xsec_result *result;
} photon_group;

static photon_group *state_of(gen_group *g) { return g->family_state; }

/* Writes the run's state as the checkpoint (the histograms once the integration is complete, the
 * unweighting's state and the event sink's description when given). */
static hegetcl_status save_checkpoint(photon_group *p, hegetcl_xsec_phase phase,
                                      const hg_unweight_state *events, const char *sink) {
  const hegetcl_xsec_checkpointing *cp = p->cp;
  hg_photon_family *f = &p->family;
  hg_vegas *vegas = p->group->vegas;
  hg_ckpt_writer *w = hg_ckpt_writer_create(HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION);
  if (w == NULL) return hg_fail(f->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the checkpoint");
  hg_ckpt_comment(w, "hegetcl xsec checkpoint: `hegetcl xsec --resume FILE`, run in the folder the "
                     "run started in, continues it");
  hg_ckpt_comment(w, "reals are C99 hexadecimal floating point (%%a): they read back bit for bit");
  hg_ckpt_comment(w, "%s after %u VEGAS iterations%s", hegetcl_xsec_phase_name(phase),
                  (unsigned)hg_vegas_iterations_done(vegas),
                  events ? "; the unweighting's progress is below" : "");
  hg_ckpt_put_text(w, "writer", cp->writer ? cp->writer : "");
  hg_ckpt_put(w, "phase", "%s", hegetcl_xsec_phase_name(phase));
  hg_ckpt_put_text(w, "device", f->ctx->info.name);
  hg_ckpt_put_text(w, "run_card", cp->run_card ? cp->run_card : "");
  hg_xsec_ckpt_put_config(w, &f->config, cp->every_events);
  hg_vegas_save(vegas, w);
  hg_sampling_save(f->sampling, w);
  if (f->channels != NULL) hg_channels_save(f->channels, w);
  hg_xsec_variations_save(f->variations, w);
  if (phase != HEGETCL_XSEC_INTEGRATING && p->result->histograms != NULL)
    hg_xsec_ckpt_put_histograms(w, p->result->histograms, p->result->n_histograms);
  if (phase == HEGETCL_XSEC_INTEGRATING && f->histograms != NULL &&
      hg_vegas_iterations_done(vegas) > f->adapt_iterations) {
    /* the combined iterations' histogram sums so far */
    const size_t count = hg_histograms_state_size(f->histograms);
    double *state = malloc(count * sizeof *state);
    if (state == NULL) {
      hg_ckpt_writer_discard(w);
      return hg_fail(f->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms' checkpoint");
    }
    hg_histograms_save_state(f->histograms, state);
    hg_ckpt_put_reals(w, "histograms.state", state, count);
    free(state);
  }
  if (events != NULL) hg_unweight_save(events, w);
  if (sink != NULL) hg_ckpt_put_text(w, "sink", sink);
  char message[2048];
  const int status = hg_ckpt_writer_commit(w, cp->path, message, sizeof message);
  if (status != 0)
    return hg_fail(f->ctx, (hegetcl_status)status, "writing the checkpoint: %s", message);
  p->result->saved_iterations = hg_vegas_iterations_done(vegas);
  return HEGETCL_OK;
}

/* After every VEGAS iteration (with the histograms' sums of the combined ones). */
static hegetcl_status after_iteration(void *user) {
  return save_checkpoint(user, HEGETCL_XSEC_INTEGRATING, NULL, NULL);
}

/* During the unweighting: the event sink makes its events durable and describes them. */
static hegetcl_status during_unweighting(void *user, const hg_unweight_state *state, int stopping) {
  photon_group *p = user;
  char *sink = NULL;
  hegetcl_status status = p->hooks->events_checkpoint(p->hooks->sink_user, stopping, &sink);
  if (status == HEGETCL_OK && sink == NULL)
    status =
        hg_fail(p->family.ctx, HEGETCL_ERR_NO_MEMORY, "the event sink gave no state to checkpoint");
  if (status == HEGETCL_OK) status = save_checkpoint(p, HEGETCL_XSEC_UNWEIGHTING, state, sink);
  free(sink);
  return status;
}

/* The integration's state read back from the checkpoint being resumed: VEGAS's, the histograms'
 * sums of the combined iterations so far, the channels', the variations', the adaptive
 * sampling's, and in the unweighting its progress and the event file's description. */
static hegetcl_status restore(photon_group *p, hg_vegas *v) {
  hg_photon_family *f = &p->family;
  hegetcl_context *ctx = f->ctx;
  hg_ckpt *saved = &p->saved;
  hegetcl_status status = hg_vegas_load(v, saved);
  if (status == HEGETCL_OK && f->histograms != NULL &&
      p->resume_phase == HEGETCL_XSEC_INTEGRATING &&
      hg_vegas_iterations_done(v) > f->adapt_iterations) {
    const size_t count = hg_histograms_state_size(f->histograms);
    double *state = malloc(count * sizeof *state);
    if (state == NULL)
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms' checkpoint");
    else if (hg_ckpt_get_reals(saved, "histograms.state", 0, state, count) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved->message);
    else
      hg_histograms_load_state(f->histograms, state);
    free(state);
  }
  if (status == HEGETCL_OK && f->channels != NULL && hg_channels_load(f->channels, saved) != 0)
    status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved->message);
  if (status == HEGETCL_OK && hg_xsec_variations_load(f->variations, saved) != 0)
    status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved->message);
  if (status == HEGETCL_OK && hg_sampling_load(f->sampling, saved) != 0)
    status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved->message);
  if (status == HEGETCL_OK && p->resume_phase == HEGETCL_XSEC_UNWEIGHTING) {
    const int loaded = hg_unweight_load(&p->events, saved) == 0 &&
                       hg_ckpt_get_text(saved, "sink", &p->sink_state) == 0;
    if (!loaded) status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved->message);
  }
  if (status == HEGETCL_OK) p->result->saved_iterations = hg_vegas_iterations_done(v);
  return status;
}

static hegetcl_status photon_prepare(gen_group *g, hg_vegas *v, hg_vegas_work *work) {
  photon_group *p = state_of(g);
  hg_photon_family_prepare(&p->family, v, work);
  if (p->hooks->checkpointing != NULL) hg_vegas_set_stop(v, p->hooks->checkpointing->stop);
  hegetcl_status status = HEGETCL_OK;
  if (p->resume_phase != 0)
    status = restore(p, v);
  else if (p->cp != NULL)
    status = save_checkpoint(p, HEGETCL_XSEC_INTEGRATING, NULL, NULL); /* claims the path */
  if (status == HEGETCL_OK && p->cp != NULL) hg_vegas_set_checkpoint(v, after_iteration, p);
  return status;
}

static hegetcl_status photon_integrated(gen_group *g, hegetcl_status status,
                                        hegetcl_xsec_result *result) {
  photon_group *p = state_of(g);
  hg_photon_family *f = &p->family;
  if (status != HEGETCL_OK) {
    if (f->channels != NULL) hg_channels_result(f->channels, result->channels);
    return status;
  }
  status = hg_photon_family_integrated(f, result);
  if (status != HEGETCL_OK) return status;
  if (hg_vegas_stopped(g->vegas)) {
    result->stopped = HEGETCL_XSEC_INTEGRATING; /* the checkpoint holds the last saved iteration */
    return HEGETCL_OK;
  }
  status = hg_photon_family_float_check(f, g->vegas, result);
  if (status == HEGETCL_OK) status = hg_photon_family_take_histograms(f, result);
  if (status == HEGETCL_OK && f->histograms != NULL &&
      p->resume_phase == HEGETCL_XSEC_UNWEIGHTING &&
      hg_xsec_ckpt_get_histograms(&p->saved, result->histograms, result->n_histograms) != 0)
    status = hg_fail(f->ctx, HEGETCL_ERR_INPUT, "%s", p->saved.message);
  return status;
}

static hegetcl_status photon_unweight(gen_group *g, const hegetcl_xsec_hooks *hooks,
                                      hegetcl_xsec_result *result) {
  photon_group *p = state_of(g);
  const hegetcl_xsec_checkpointing *cp = hooks->checkpointing;
  /* a resumed unweighting goes on in the event file where its checkpoint left it */
  const int go_on = p->resume_phase == HEGETCL_XSEC_UNWEIGHTING && p->sink_state[0] != '\0';
  hegetcl_status status = HEGETCL_OK;
  if (go_on)
    status = hooks->events_resume(result, p->sink_state, hooks->sink_user);
  else if (hooks->events_begin != NULL)
    status = hooks->events_begin(result, hooks->sink_user);
  if (status == HEGETCL_OK && p->cp != NULL && !go_on) {
    memset(&p->events, 0, sizeof p->events);
    status = save_checkpoint(p, HEGETCL_XSEC_UNWEIGHTING, &p->events, "");
  }
  const hg_photon_unweighting u = {.vegas = g->vegas,
                                   .hooks = hooks,
                                   .resume = go_on ? &p->events : NULL,
                                   .checkpoint_every = p->cp != NULL ? cp->every_events : 0,
                                   .checkpoint = p->cp != NULL ? during_unweighting : NULL,
                                   .checkpoint_user = p,
                                   .stop = cp != NULL ? cp->stop : NULL};
  int stopped = 0;
  status = hg_photon_family_unweight(&p->family, &u, status, result, &stopped, &p->events);
  if (status == HEGETCL_OK && stopped) result->stopped = HEGETCL_XSEC_UNWEIGHTING;
  return status;
}

static hegetcl_status photon_finish(gen_group *g, hegetcl_xsec_result *result) {
  (void)result;
  photon_group *p = state_of(g);
  if (p->cp == NULL) return HEGETCL_OK;
  return save_checkpoint(p, HEGETCL_XSEC_FINISHED,
                         p->family.config.unweighted_events > 0 ? &p->events : NULL, NULL);
}

static void photon_close(gen_group *g) {
  photon_group *p = state_of(g);
  if (p == NULL) return;
  hg_photon_family_close(&p->family);
  free(p->sink_state);
  hg_ckpt_free(&p->saved);
  free(p);
  g->family_state = NULL;
}

static const hg_gen_family_sampler photon_sampler = {.prepare = photon_prepare,
                                                     .integrated = photon_integrated,
                                                     .unweight = photon_unweight,
                                                     .finish = photon_finish,
                                                     .close = photon_close};

/* The checks before anything is opened, in the photon runs' order: the configuration on every
 * device, the team, then the checkpointing's own. */
static hegetcl_status check(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                            const hegetcl_xsec_hooks *hooks) {
  if (config->unweighted_events > 0 && hooks->sink == NULL)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%llu unweighted events asked for but no event sink given",
                   (unsigned long long)config->unweighted_events);
  const hegetcl_team *team = hooks->sharing ? hooks->sharing->team : NULL;
  hegetcl_status status = hg_photon_family_check(ctx, config, hooks->sharing);
  if (status != HEGETCL_OK) return status;
  const hegetcl_xsec_checkpointing *cp = hooks->checkpointing;
  const int checkpoints = cp != NULL && cp->path != NULL && cp->path[0] != '\0';
  if (team != NULL && team->size > 1 && checkpoints)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "checkpoints of a run shared by %d processes are not supported: run without "
                   "--checkpoint, or in one process, which may use several GPUs (--device "
                   "all-gpus, or a list)",
                   team->size);
  if (cp != NULL && cp->resume && !checkpoints)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "resuming needs the checkpoint's path");
  if (checkpoints && config->unweighted_events > 0 &&
      (hooks->events_checkpoint == NULL || hooks->events_resume == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "checkpoints of a run with unweighted events need the events_checkpoint and "
                   "events_resume hooks (the event file must continue where it stopped)");
  return HEGETCL_OK;
}

hegetcl_status hg_gen_photon_run_create(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                        const hegetcl_xsec_hooks *hooks,
                                        hegetcl_xsec_result *result, hg_gen_run **out) {
  *out = NULL;
  hegetcl_xsec_config resolved;
  hg_photon_family_resolve(config, &resolved);
  hegetcl_status status = check(ctx, &resolved, hooks);
  if (status != HEGETCL_OK) return status;
  hg_gen_run *run = calloc(1, sizeof *run);
  gen_group *g = run != NULL ? calloc(1, sizeof *g) : NULL;
  photon_group *p = g != NULL ? calloc(1, sizeof *p) : NULL;
  if (p == NULL) {
    free(g);
    free(run);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the run");
  }
  run->ctx = ctx;
  run->config = resolved;
  run->family_plan = 1;
  run->team = hooks->sharing != NULL ? hooks->sharing->team : NULL;
  run->groups = g;
  run->n_groups = 1;
  g->run = run;
  g->family = &photon_sampler;
  g->family_state = p;
  p->hooks = hooks;
  p->group = g;
  p->result = result;
  *out = run;
  const hegetcl_xsec_checkpointing *cp = hooks->checkpointing;
  if (cp != NULL && cp->path != NULL && cp->path[0] != '\0') {
    p->cp = cp;
    if (cp->resume) {
      status = hg_xsec_ckpt_open_resume(ctx, &run->config, cp, &p->saved, &p->resume_phase);
      if (status != HEGETCL_OK) return status;
      result->resumed = (int)p->resume_phase;
    } else {
      status = hg_xsec_ckpt_check_fresh(ctx, cp->path);
      if (status != HEGETCL_OK) return status;
    }
  }
  status = hg_photon_family_open(ctx, &run->config, hooks->sharing, result, &p->family);
  if (status != HEGETCL_OK) return status;
  g->program = p->family.devices[0].program;
  g->dims = p->family.setup.dims;
  run->build_seconds = result->build_seconds;
  return HEGETCL_OK;
}
