/* SPDX-License-Identifier: MIT */
/* A process run's checkpoint: the stages' state written and read back (generator/checkpoint.h). */
#include "generator/checkpoint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator/run_internal.h"
#include "generator/share.h"
#include "generator/histograms.h"
#include "generator/variations.h"
#include "io/checkpoint_file.h"
#include "xsec/checkpoint.h"

struct hg_gen_ckpt {
  hg_gen_run *run;
  const hegetcl_xsec_checkpointing *cp; /* its path may be NULL: the stop alone */
  hegetcl_xsec_result *result;
  hg_ckpt saved; /* the checkpoint resumed from (have_saved) */
  int have_saved, pilot_restored, stopped;
  unsigned done;              /* groups whose integration is complete (restored or run) */
  unsigned resume_group;      /* the group whose VEGAS state the checkpoint holds; n_groups: none */
  uint32_t *iterations;       /* per group: VEGAS iterations done (adapting ones too) */
  double **edges;             /* per complete group: the grid its last iteration sampled with */
  hegetcl_xsec_phase resumed; /* the phase resumed in (0: a fresh run) */
  uint64_t events_written;    /* unweighted events the sink has made durable */
  const char *sink_state;     /* the event sink's description of them (NULL: none) */
  hg_vegas *current;          /* the VEGAS of the group being integrated (NULL between groups) */
  unsigned current_group;
};

/* The grid's edges of a group (its VEGAS's dims x (bins + 1)). */
static size_t edge_count(const hg_gen_run *run, const gen_group *g) {
  return (size_t)g->dims * (run->config.vegas.bins + 1);
}

/* A group's hegetcl_vegas_result as the reals of a "generator.result" line. */
#define RESULT_REALS 10

static void put_result(hg_ckpt_writer *w, const hegetcl_vegas_result *r) {
  const double x[RESULT_REALS] = {r->estimate,
                                  r->error,
                                  r->chi2_per_dof,
                                  (double)r->iterations,
                                  (double)r->events,
                                  (double)r->events_total,
                                  (double)r->events_nonzero,
                                  (double)r->reached_target,
                                  r->wall_seconds,
                                  r->max_weight};
  hg_ckpt_put_reals(w, "generator.result", x, RESULT_REALS);
}

static int get_result(hg_ckpt *c, size_t nth, hegetcl_vegas_result *r) {
  double x[RESULT_REALS];
  const int status = hg_ckpt_get_reals(c, "generator.result", nth, x, RESULT_REALS);
  if (status != 0) return status;
  r->estimate = x[0];
  r->error = x[1];
  r->chi2_per_dof = x[2];
  r->iterations = (unsigned)x[3];
  r->events = (uint64_t)x[4];
  r->events_total = (uint64_t)x[5];
  r->events_nonzero = (uint64_t)x[6];
  r->reached_target = (int)x[7];
  r->wall_seconds = x[8];
  r->max_weight = x[9];
  return 0;
}

uint32_t hg_gen_ckpt_saved_iterations(const hg_gen_ckpt *k) {
  uint32_t n = 0;
  for (unsigned g = 0; k != NULL && g < k->run->n_groups; ++g) n += k->iterations[g];
  return n;
}

hegetcl_status hg_gen_ckpt_save(hg_gen_ckpt *k, hegetcl_xsec_phase phase) {
  if (k == NULL || k->cp->path == NULL || k->cp->path[0] == '\0') return HEGETCL_OK;
  /* a run resumed in the unweighting keeps the checkpoint it resumed from (with its event
   * stream) until its own events' next checkpoint */
  if (phase == HEGETCL_XSEC_UNWEIGHTING && k->sink_state == NULL &&
      k->resumed == HEGETCL_XSEC_UNWEIGHTING) {
    k->result->saved_iterations = hg_gen_ckpt_saved_iterations(k);
    return HEGETCL_OK;
  }
  hg_gen_run *run = k->run;
  hg_ckpt_writer *w = hg_ckpt_writer_create(HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION);
  if (w == NULL) return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the checkpoint");
  if (k->current != NULL) k->iterations[k->current_group] = hg_vegas_iterations_done(k->current);
  const uint32_t iterations = hg_gen_ckpt_saved_iterations(k);
  hg_ckpt_comment(w, "hegetcl xsec checkpoint of a process run: `hegetcl xsec --resume FILE`, run "
                     "in the folder the run started in, continues it");
  hg_ckpt_comment(w, "reals are C99 hexadecimal floating point (%%a): they read back bit for bit");
  hg_ckpt_comment(w, "%s, %u of %u groups integrated, %u VEGAS iterations",
                  hegetcl_xsec_phase_name(phase), k->done, run->n_groups, (unsigned)iterations);
  hg_ckpt_put_text(w, "writer", k->cp->writer ? k->cp->writer : "");
  hg_ckpt_put(w, "phase", "%s", hegetcl_xsec_phase_name(phase));
  hg_ckpt_put_text(w, "device", run->ctx->info.name);
  hg_ckpt_put_text(w, "run_card", k->cp->run_card ? k->cp->run_card : "");
  hg_xsec_ckpt_put_config(w, &run->config, k->cp->every_events);
  /* sigma and its error so far: the complete groups and the current one's combination */
  double sigma = 0.0, variance = 0.0;
  unsigned combined = 0;
  for (unsigned g = 0; g < k->done; ++g) {
    sigma += run->groups[g].result.estimate;
    variance += run->groups[g].result.error * run->groups[g].result.error;
    combined += run->groups[g].result.iterations;
  }
  hg_ckpt_put(w, "generator.progress", "%u %u %a %a", (unsigned)iterations, combined, sigma,
              sqrt(variance));
  hg_ckpt_put(w, "generator.groups", "%u %u", run->n_groups, k->done);
  for (unsigned g = 0; g < run->n_groups; ++g) {
    const gen_group *gr = &run->groups[g];
    const double pilot[3] = {gr->pilot_sigma, gr->pilot_spread, (double)gr->pilot_nonzero};
    hg_ckpt_put_reals(w, "generator.pilot", pilot, 3);
    size_t count = 0;
    const double *sums = hg_channels_combination(gr->channels, &count);
    hg_ckpt_put_reals(w, "generator.channels", sums, count);
    hg_ckpt_put(w, "generator.iterations", "%u", (unsigned)k->iterations[g]);
    hg_ckpt_put_reals(w, "generator.alpha", gr->alpha, gr->n_ps);
  }
  for (unsigned g = 0; g < k->done; ++g) {
    put_result(w, &run->groups[g].result);
    hg_ckpt_put_reals(w, "generator.edges", k->edges[g], edge_count(run, &run->groups[g]));
  }
  hg_gen_variations_save(run->variations, w);
  hg_gen_histograms_save(run->histograms, w);
  if (phase == HEGETCL_XSEC_UNWEIGHTING) {
    hg_ckpt_put(w, "generator.events", "%llu", (unsigned long long)k->events_written);
    if (k->sink_state != NULL) hg_ckpt_put_text(w, "sink", k->sink_state);
  }
  if (k->current != NULL) {
    hg_ckpt_put(w, "generator.current", "%u", k->current_group);
    hg_vegas_save(k->current, w);
  }
  char message[2048];
  const int status = hg_ckpt_writer_commit(w, k->cp->path, message, sizeof message);
  if (status != 0)
    return hg_fail(run->ctx, (hegetcl_status)status, "writing the checkpoint: %s", message);
  k->result->saved_iterations = iterations;
  return HEGETCL_OK;
}

/* The state of the checkpoint resumed from: the pilot, the complete groups, the sums. */
static int restore(hg_gen_ckpt *k) {
  hg_gen_run *run = k->run;
  hg_ckpt *c = &k->saved;
  uint64_t n_groups = 0, done = 0;
  int status = hg_ckpt_scan(c, "generator.groups", 0, "uu", &n_groups, &done);
  if (status == 0 && (n_groups != run->n_groups || done > n_groups)) {
    snprintf(c->message, sizeof c->message,
             "%s holds %llu groups (%llu integrated), this run has %u: the checkpoint is another "
             "run's",
             c->path, (unsigned long long)n_groups, (unsigned long long)done, run->n_groups);
    return HEGETCL_ERR_INPUT;
  }
  for (unsigned g = 0; g < run->n_groups && status == 0; ++g) {
    gen_group *gr = &run->groups[g];
    double pilot[3];
    status = hg_ckpt_get_reals(c, "generator.pilot", g, pilot, 3);
    if (status == 0) {
      gr->pilot_sigma = pilot[0];
      gr->pilot_spread = pilot[1];
      gr->pilot_nonzero = (uint64_t)pilot[2];
      size_t count = 0;
      double *sums = hg_channels_combination(gr->channels, &count);
      status = hg_ckpt_get_reals(c, "generator.channels", g, sums, count);
    }
    uint64_t its = 0;
    if (status == 0) status = hg_ckpt_scan(c, "generator.iterations", g, "u", &its);
    k->iterations[g] = (uint32_t)its;
    /* the phase-space channels' weights as the adapting iterations left them */
    if (status == 0) status = hg_ckpt_get_reals(c, "generator.alpha", g, gr->alpha, gr->n_ps);
    if (status == 0 && hg_gen_channel_weights_upload(gr) != HEGETCL_OK) {
      snprintf(c->message, sizeof c->message, "%s", hegetcl_last_error(run->ctx));
      status = HEGETCL_ERR_OPENCL;
    }
  }
  for (unsigned g = 0; g < done && status == 0; ++g) {
    gen_group *gr = &run->groups[g];
    k->edges[g] = malloc(edge_count(run, gr) * sizeof **k->edges);
    if (k->edges[g] == NULL) {
      snprintf(c->message, sizeof c->message, "no memory for the groups' grids");
      return HEGETCL_ERR_NO_MEMORY;
    }
    status = get_result(c, g, &gr->result);
    if (status == 0)
      status = hg_ckpt_get_reals(c, "generator.edges", g, k->edges[g], edge_count(run, gr));
  }
  if (status == 0) status = hg_gen_variations_load(run->variations, c);
  if (status == 0) status = hg_gen_histograms_load(run->histograms, c);
  uint64_t current = run->n_groups;
  if (status == 0 && hg_ckpt_find(c, "generator.current", 0) != NULL)
    status = hg_ckpt_scan(c, "generator.current", 0, "u", &current);
  if (status == 0 && hg_ckpt_find(c, "generator.current", 0) != NULL && current != done) {
    snprintf(c->message, sizeof c->message,
             "%s: the group being integrated is %llu, after %llu complete ones: the checkpoint "
             "is corrupt",
             c->path, (unsigned long long)current, (unsigned long long)done);
    return HEGETCL_ERR_INPUT;
  }
  uint64_t events = 0;
  if (status == 0 && hg_ckpt_find(c, "generator.events", 0) != NULL)
    status = hg_ckpt_scan(c, "generator.events", 0, "u", &events);
  k->events_written = events;
  k->done = (unsigned)done;
  k->resume_group = (unsigned)current;
  return status;
}

hegetcl_status hg_gen_ckpt_open(hg_gen_run *run, const hegetcl_xsec_hooks *hooks,
                                hegetcl_xsec_result *result, hg_gen_ckpt **out) {
  *out = NULL;
  const hegetcl_xsec_checkpointing *cp = hooks ? hooks->checkpointing : NULL;
  if (cp == NULL) return HEGETCL_OK;
  hegetcl_context *ctx = run->ctx;
  const int saving = cp->path != NULL && cp->path[0] != '\0';
  if (cp->resume && !saving)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "resuming needs the checkpoint's path");
  if (saving && run->config.unweighted_events > 0 &&
      (hooks->events_checkpoint == NULL || hooks->events_resume == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "checkpoints of a run with unweighted events need the events_checkpoint and "
                   "events_resume hooks (the event file must continue where it stopped)");
  hg_gen_ckpt *k = calloc(1, sizeof *k);
  if (k != NULL) {
    k->iterations = calloc(run->n_groups, sizeof *k->iterations);
    k->edges = calloc(run->n_groups, sizeof *k->edges);
  }
  if (k == NULL || k->iterations == NULL || k->edges == NULL) {
    if (k != NULL) {
      free(k->iterations);
      free(k->edges);
    }
    free(k);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the checkpoint");
  }
  k->run = run;
  k->cp = cp;
  k->result = result;
  k->resume_group = run->n_groups;
  *out = k;
  if (!saving) return HEGETCL_OK;
  if (!cp->resume) return hg_xsec_ckpt_check_fresh(ctx, cp->path);
  hegetcl_xsec_phase phase = 0;
  hegetcl_status status = hg_xsec_ckpt_open_resume(ctx, &run->config, cp, &k->saved, &phase);
  k->have_saved = 1;
  if (status != HEGETCL_OK) return status;
  if (hg_ckpt_find(&k->saved, "generator.groups", 0) == NULL)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%s has no generator lines: it is not a process run's checkpoint", cp->path);
  status = (hegetcl_status)restore(k);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", k->saved.message);
  k->pilot_restored = 1;
  k->resumed = phase;
  result->resumed = (int)phase;
  return HEGETCL_OK;
}

void hg_gen_ckpt_close(hg_gen_ckpt *k) {
  if (k == NULL) return;
  if (k->have_saved) hg_ckpt_free(&k->saved);
  for (unsigned g = 0; g < k->run->n_groups; ++g) free(k->edges[g]);
  free(k->edges);
  free(k->iterations);
  free(k);
}

int hg_gen_ckpt_pilot_restored(const hg_gen_ckpt *k) { return k != NULL && k->pilot_restored; }

hegetcl_status hg_gen_ckpt_restore_group(hg_gen_ckpt *k, unsigned g, int *restored) {
  *restored = k != NULL && k->pilot_restored && g < k->done && k->edges[g] != NULL;
  if (!*restored) return HEGETCL_OK;
  /* the unweighting samples with the grid of the group's last iteration */
  return hg_vegas_reducer_upload(k->run->groups[g].reducer, k->edges[g]);
}

int hg_gen_ckpt_stopped(const hg_gen_ckpt *k) { return k != NULL && k->stopped; }

/* After every iteration of the group being integrated. */
static hegetcl_status after_iteration(void *user) {
  return hg_gen_ckpt_save(user, HEGETCL_XSEC_INTEGRATING);
}

hegetcl_status hg_gen_ckpt_attach(hg_gen_ckpt *k, unsigned g, hg_vegas *v) {
  if (k == NULL) return HEGETCL_OK;
  hg_vegas_set_stop(v, k->cp->stop);
  k->current = v;
  k->current_group = g;
  if (k->have_saved && g == k->resume_group) {
    k->resume_group = k->run->n_groups; /* once */
    const hegetcl_status status = hg_vegas_load(v, &k->saved);
    if (status != HEGETCL_OK) return status;
  }
  if (k->cp->path != NULL && k->cp->path[0] != '\0') hg_vegas_set_checkpoint(v, after_iteration, k);
  return HEGETCL_OK;
}

hegetcl_status hg_gen_ckpt_detach(hg_gen_ckpt *k, unsigned g, hg_vegas *v) {
  if (k == NULL) return HEGETCL_OK;
  k->iterations[g] = hg_vegas_iterations_done(v);
  if (hg_vegas_stopped(v)) {
    k->stopped = 1;
    k->current = NULL;
    return HEGETCL_OK;
  }
  hg_gen_run *run = k->run;
  const size_t n = edge_count(run, &run->groups[g]);
  free(k->edges[g]);
  k->edges[g] = malloc(n * sizeof **k->edges);
  if (k->edges[g] == NULL) return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  memcpy(k->edges[g], hg_vegas_last_edges(v), n * sizeof **k->edges);
  k->current = NULL;
  k->done = g + 1;
  return hg_gen_ckpt_save(k, HEGETCL_XSEC_INTEGRATING);
}

/* The sink between the unweighting and the caller's: a resumed run's unweighting makes its
 * events again from the first (they depend on the seed alone) and passes on those after the ones
 * the checkpoint counts; a stop is heard after every event, and every every_events events the
 * caller's sink makes its events durable and the checkpoint is saved. */
typedef struct {
  hg_gen_ckpt *k;
  const hegetcl_xsec_hooks *hooks;
  uint64_t skip, seen, total;
  int stopped;
} gen_sink;

static hegetcl_status events_checkpoint(gen_sink *s, int stopping) {
  hg_gen_ckpt *k = s->k;
  if (k->cp->path == NULL || k->cp->path[0] == '\0') return HEGETCL_OK;
  char *state = NULL;
  hegetcl_status status = s->hooks->events_checkpoint(s->hooks->sink_user, stopping, &state);
  if (status == HEGETCL_OK && state == NULL)
    status = hg_fail(k->run->ctx, HEGETCL_ERR_NO_MEMORY, "the event sink gave no state");
  k->events_written = s->seen;
  k->sink_state = state;
  if (status == HEGETCL_OK) status = hg_gen_ckpt_save(k, HEGETCL_XSEC_UNWEIGHTING);
  k->sink_state = NULL;
  free(state);
  return status;
}

static hegetcl_status through(const hegetcl_event *event, void *user) {
  gen_sink *s = user;
  if (s->seen < s->skip) {
    ++s->seen;
    return HEGETCL_OK;
  }
  hegetcl_status status = s->hooks->sink(event, s->hooks->sink_user);
  if (status != HEGETCL_OK) return status;
  ++s->seen;
  const uint64_t every = s->k->cp->every_events;
  const int last = s->seen == s->total;
  if (s->k->cp->stop != NULL && *s->k->cp->stop && !last) {
    s->stopped = 1;
    status = events_checkpoint(s, 1);
    /* ends the unweighting; hg_gen_ckpt_unweight tells a stop from a failure */
    return status != HEGETCL_OK ? status : HEGETCL_ERR_INPUT;
  }
  if (every > 0 && s->seen % every == 0 && !last) status = events_checkpoint(s, 0);
  return status;
}

hegetcl_status hg_gen_ckpt_unweight(hg_gen_ckpt *k, const hegetcl_xsec_hooks *hooks,
                                    hegetcl_xsec_result *result) {
  hg_gen_run *run = k->run;
  gen_sink s = {
      .k = k, .hooks = hooks, .total = hg_gen_share_events(run, run->config.unweighted_events)};
  hegetcl_status status = HEGETCL_OK;
  char *state = NULL;
  if (k->resumed == HEGETCL_XSEC_UNWEIGHTING && hg_ckpt_find(&k->saved, "sink", 0) != NULL) {
    status = (hegetcl_status)hg_ckpt_get_text(&k->saved, "sink", &state);
    if (status != HEGETCL_OK) return hg_fail(run->ctx, status, "%s", k->saved.message);
    s.skip = k->events_written;
    status = hooks->events_resume(result, state, hooks->sink_user);
    free(state);
  } else if (hooks->events_begin != NULL) {
    status = hooks->events_begin(result, hooks->sink_user);
  }
  if (status == HEGETCL_OK)
    status = hg_gen_run_unweight(run, s.total, through, &s, hooks->events_progress,
                                 hooks->events_progress_user, &result->unweighting, result);
  if (s.stopped) {
    /* the checkpoint holds the events given to the sink */
    result->unweighting.written = s.seen;
    result->stopped = HEGETCL_XSEC_UNWEIGHTING;
    if (status == HEGETCL_ERR_INPUT) status = HEGETCL_OK;
  }
  return hg_gen_share_combine_unweighting(run, status, run->config.unweighted_events,
                                          result);
}
