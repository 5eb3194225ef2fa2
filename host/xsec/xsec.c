/* SPDX-License-Identifier: MIT */
/* p p -> n photons cross sections: configuration checks, the sampler program, VEGAS, unweighted
 * events, and the checkpoints that let a long run stop and go on (docs/user-guide.md, "Long runs").
*/ #include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amplitude/amplitude_internal.h"
#include "analysis/histograms.h"
#include "core/program.h"
#include "events/unweight.h"
#include "generator/run.h"
#include "hegetcl/pdf.h"
#include "hegetcl/xsec.h"
#include "integrate/vegas.h"
#include "pdf/lhapdf6_grid.h"
#include "phasespace/mg_cuts.h"
#include "shared/kernel_names.h"
#include "xsec/channels.h"
#include "xsec/checkpoint.h"
#include "xsec/params.h"
#include "xsec/photon_family.h"
#include "xsec/precision_check.h"
#include "xsec/sampling.h"
#include "xsec/variations.h"
#include "xsec/xsec_device.h"

static const char *const phase_space_names[] = {"collider", "rambo", "multichannel", "auto"};
static const char *const orientation_names[] = {"both", "u-first"};
static const char *const helicity_names[] = {"summed", "sampled", "adaptive"};
/* how many values each enum has: its names, so that a new value is one entry above */
#define N_NAMES(names) ((int)(sizeof names / sizeof names[0]))

static hegetcl_status parse_name(const char *name, const char *const *names, int count, int *out) {
  for (int i = 0; i < count; ++i)
    if (name != NULL && strcmp(name, names[i]) == 0) {
      *out = i;
      return HEGETCL_OK;
    }
  return HEGETCL_ERR_INPUT;
}

const char *hegetcl_phase_space_name(hegetcl_phase_space p) {
  return (unsigned)p < (unsigned)N_NAMES(phase_space_names) ? phase_space_names[p] : "unknown";
}
hegetcl_status hegetcl_phase_space_parse(const char *name, hegetcl_phase_space *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, phase_space_names, N_NAMES(phase_space_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_phase_space)v;
  return s;
}
hegetcl_phase_space hegetcl_phase_space_for(hegetcl_phase_space p, unsigned n_photons) {
  if (p != HEGETCL_PHASE_SPACE_AUTO) return p;
  return n_photons >= HEGETCL_MULTICHANNEL_FROM ? HEGETCL_PHASE_SPACE_MULTICHANNEL
                                                : HEGETCL_PHASE_SPACE_COLLIDER;
}
const char *hegetcl_orientation_name(hegetcl_orientation o) {
  return (unsigned)o < (unsigned)N_NAMES(orientation_names) ? orientation_names[o] : "unknown";
}
hegetcl_status hegetcl_orientation_parse(const char *name, hegetcl_orientation *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, orientation_names, N_NAMES(orientation_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_orientation)v;
  return s;
}
const char *hegetcl_helicity_mode_name(hegetcl_helicity_mode h) {
  return (unsigned)h < (unsigned)N_NAMES(helicity_names) ? helicity_names[h] : "unknown";
}
hegetcl_status hegetcl_helicity_mode_parse(const char *name, hegetcl_helicity_mode *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, helicity_names, N_NAMES(helicity_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_helicity_mode)v;
  return s;
}

static const char *const flavour_names[5] = {"d", "u", "s", "c", "b"};

hegetcl_status hegetcl_flavours_parse(const char *list, unsigned *out) {
  if (list == NULL || list[0] == '\0') return HEGETCL_ERR_INPUT;
  if (strcmp(list, "all") == 0) {
    *out = HEGETCL_ALL_FLAVOURS;
    return HEGETCL_OK;
  }
  unsigned set = 0;
  for (const char *p = list;;) {
    const size_t length = strcspn(p, ",");
    int pid = 0;
    for (int q = 1; q <= 5; ++q)
      if (length == 1 && p[0] == flavour_names[q - 1][0]) pid = q;
    if (pid == 0 || (set & HEGETCL_FLAVOUR_BIT(pid))) return HEGETCL_ERR_INPUT;
    set |= HEGETCL_FLAVOUR_BIT(pid);
    if (p[length] == '\0') break;
    p += length + 1;
  }
  *out = set;
  return HEGETCL_OK;
}

void hegetcl_flavours_name(unsigned flavours, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int q = 1; q <= 5; ++q)
    if (flavours & HEGETCL_FLAVOUR_BIT(q))
      used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%s",
                               used > 0 ? "," : "", flavour_names[q - 1]);
  if (flavours == 0) snprintf(out, size, "%s", "none");
}

void hegetcl_xsec_defaults(hegetcl_xsec_config *c, unsigned n_photons) {
  memset(c, 0, sizeof *c);
  hegetcl_process_defaults(&c->process, n_photons);
  c->quark_pid = 2;
  c->sqrt_s_gev = 14000.0;
  c->mu_f_gev = 20.0;
  c->pt_min_gev = 20.0;
  c->eta_max = 2.5;
  c->delta_r_min = 0.4;
  snprintf(c->pdf_set, sizeof c->pdf_set, "%s", "cteq6l1");
  c->pdf_member = 0;
  c->phase_space = HEGETCL_PHASE_SPACE_AUTO;
  c->orientation = HEGETCL_ORIENTATION_BOTH;
  c->helicity = HEGETCL_HELICITY_SUMMED;
  hegetcl_vegas_settings_defaults(&c->vegas);
  hegetcl_histogram_binning_defaults(&c->binning);
  c->max_unweighting_tries = 1000000000000ull;
  c->mu_r_gev = c->mu_f_gev;
  c->dynamical_scale_choice = 3;
  c->group_engine = -1;
  hg_mg_cuts_off(c->cuts);
  c->mu_r_factor = 1.0;
  c->mu_f_factor = 1.0;
}

void hegetcl_xsec_result_free(hegetcl_xsec_result *result) {
  if (result->variation_histograms != NULL && result->variations != NULL)
    hegetcl_histograms_free(result->variation_histograms,
                            result->variations->list.n * result->n_histograms);
  result->variation_histograms = NULL;
  hegetcl_histograms_free(result->histograms, result->n_histograms);
  result->histograms = NULL;
  result->n_histograms = 0;
  free(result->helicity_probabilities);
  result->helicity_probabilities = NULL;
  result->n_helicity_probabilities = 0;
  free(result->groups);
  result->groups = NULL;
  result->n_groups = 0;
  free(result->process_channels);
  result->process_channels = NULL;
  result->n_process_channels = 0;
  free(result->variations);
  result->variations = NULL;
}

/* The photon family's run and the driver's state, passed to the callbacks. */
typedef struct {
  hegetcl_context *ctx;
  hg_photon_family family;
  /* checkpoints */
  const hegetcl_xsec_config *config;
  const hegetcl_xsec_hooks *hooks;
  const hegetcl_xsec_checkpointing *cp; /* NULL: none */
  hg_vegas *vegas;
  hegetcl_xsec_result *result;
} xsec_run;

/* Writes the run's state as the checkpoint (the histograms once the integration is complete, the
 * unweighting's state and the event sink's description when given). */
static hegetcl_status save_checkpoint(xsec_run *r, hegetcl_xsec_phase phase,
                                      const hg_unweight_state *events, const char *sink) {
  const hegetcl_xsec_checkpointing *cp = r->cp;
  hg_ckpt_writer *w = hg_ckpt_writer_create(HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION);
  if (w == NULL) return hg_fail(r->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the checkpoint");
  hg_ckpt_comment(w, "hegetcl xsec checkpoint: `hegetcl xsec --resume FILE`, run in the folder the "
                     "run started in, continues it");
  hg_ckpt_comment(w, "reals are C99 hexadecimal floating point (%%a): they read back bit for bit");
  hg_ckpt_comment(w, "%s after %u VEGAS iterations%s", hegetcl_xsec_phase_name(phase),
                  (unsigned)hg_vegas_iterations_done(r->vegas),
                  events ? "; the unweighting's progress is below" : "");
  hg_ckpt_put_text(w, "writer", cp->writer ? cp->writer : "");
  hg_ckpt_put(w, "phase", "%s", hegetcl_xsec_phase_name(phase));
  hg_ckpt_put_text(w, "device", r->ctx->info.name);
  hg_ckpt_put_text(w, "run_card", cp->run_card ? cp->run_card : "");
  hg_xsec_ckpt_put_config(w, r->config, cp->every_events);
  hg_vegas_save(r->vegas, w);
  hg_sampling_save(r->family.sampling, w);
  if (r->family.channels != NULL) hg_channels_save(r->family.channels, w);
  hg_xsec_variations_save(r->family.variations, w);
  if (phase != HEGETCL_XSEC_INTEGRATING && r->result->histograms != NULL)
    hg_xsec_ckpt_put_histograms(w, r->result->histograms, r->result->n_histograms);
  if (phase == HEGETCL_XSEC_INTEGRATING && r->family.histograms != NULL &&
      hg_vegas_iterations_done(r->vegas) > r->family.adapt_iterations) {
    /* the combined iterations' histogram sums so far */
    const size_t count = hg_histograms_state_size(r->family.histograms);
    double *state = malloc(count * sizeof *state);
    if (state == NULL) {
      hg_ckpt_writer_discard(w);
      return hg_fail(r->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms' checkpoint");
    }
    hg_histograms_save_state(r->family.histograms, state);
    hg_ckpt_put_reals(w, "histograms.state", state, count);
    free(state);
  }
  if (events != NULL) hg_unweight_save(events, w);
  if (sink != NULL) hg_ckpt_put_text(w, "sink", sink);
  char message[2048];
  const int status = hg_ckpt_writer_commit(w, cp->path, message, sizeof message);
  if (status != 0)
    return hg_fail(r->ctx, (hegetcl_status)status, "writing the checkpoint: %s", message);
  r->result->saved_iterations = hg_vegas_iterations_done(r->vegas);
  return HEGETCL_OK;
}

/* After every VEGAS iteration (with the histograms' sums of the combined ones). */
static hegetcl_status after_iteration(void *user) {
  return save_checkpoint(user, HEGETCL_XSEC_INTEGRATING, NULL, NULL);
}

/* During the unweighting: the event sink makes its events durable and describes them. */
static hegetcl_status during_unweighting(void *user, const hg_unweight_state *state, int stopping) {
  xsec_run *r = user;
  char *sink = NULL;
  hegetcl_status status = r->hooks->events_checkpoint(r->hooks->sink_user, stopping, &sink);
  if (status == HEGETCL_OK && sink == NULL)
    status = hg_fail(r->ctx, HEGETCL_ERR_NO_MEMORY, "the event sink gave no state to checkpoint");
  if (status == HEGETCL_OK) status = save_checkpoint(r, HEGETCL_XSEC_UNWEIGHTING, state, sink);
  free(sink);
  return status;
}

hegetcl_status hg_xsec_ckpt_check_fresh(hegetcl_context *ctx, const char *path) {
  if (access(path, F_OK) != 0 && errno == ENOENT) return HEGETCL_OK;
  hegetcl_xsec_checkpoint_info info;
  char message[2048];
  const hegetcl_status status = hegetcl_xsec_checkpoint_read(path, &info, message, sizeof message);
  const hegetcl_xsec_phase phase = info.phase;
  const unsigned iterations = info.iterations;
  hegetcl_xsec_checkpoint_info_free(&info);
  if (status == HEGETCL_OK && phase == HEGETCL_XSEC_FINISHED) return HEGETCL_OK;
  if (status == HEGETCL_OK)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "checkpoint %s holds an unfinished run (%s, %u VEGAS iterations done): resume "
                   "it, or remove the file to start afresh",
                   path, hegetcl_xsec_phase_name(phase), iterations);
  return hg_fail(ctx, HEGETCL_ERR_INPUT,
                 "checkpoint %s exists and is not a finished run's checkpoint (%s): remove it or "
                 "choose another file",
                 path, message);
}

hegetcl_status hg_xsec_ckpt_open_resume(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                        const hegetcl_xsec_checkpointing *cp, hg_ckpt *c,
                                        hegetcl_xsec_phase *phase) {
  hegetcl_xsec_checkpoint_info info;
  char message[2048];
  hegetcl_status status = hegetcl_xsec_checkpoint_read(cp->path, &info, message, sizeof message);
  *phase = info.phase;
  if (status == HEGETCL_OK && info.phase == HEGETCL_XSEC_FINISHED) {
    char events[96] = "";
    if (config->unweighted_events > 0)
      snprintf(events, sizeof events, ", %llu unweighted events",
               (unsigned long long)info.events_written);
    status = hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "checkpoint %s: the run finished (sigma = %.6e +- %.2e fb%s): there is "
                     "nothing to resume",
                     cp->path, info.sigma_fb, info.error_fb, events);
  } else if (status != HEGETCL_OK) {
    hg_fail(ctx, status, "%s", message);
  }
  hegetcl_xsec_checkpoint_info_free(&info);
  if (status != HEGETCL_OK) return status;
  status = (hegetcl_status)hg_ckpt_read(cp->path, HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION, c);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", c->message);
  if (hg_xsec_ckpt_check_config(c, config, cp->every_events, message, sizeof message) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", message);
  return HEGETCL_OK;
}

hegetcl_status hegetcl_xsec_run(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                hegetcl_vegas_progress progress, void *progress_user,
                                hegetcl_xsec_result *result) {
  const hegetcl_xsec_hooks hooks = {.progress = progress, .progress_user = progress_user};
  return hegetcl_xsec_generate(ctx, config, &hooks, result);
}

hegetcl_status hegetcl_xsec_generate(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                     const hegetcl_xsec_hooks *hooks, hegetcl_xsec_result *result) {
  memset(result, 0, sizeof *result);
  if (config->process_text[0] != '\0') return hg_gen_generate(ctx, config, hooks, result);
  hegetcl_xsec_config resolved;
  hg_photon_family_resolve(config, &resolved);
  config = &resolved;
  if (config->unweighted_events > 0 && (hooks == NULL || hooks->sink == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%llu unweighted events asked for but no event sink given",
                   (unsigned long long)config->unweighted_events);
  const hegetcl_xsec_sharing *sharing = hooks ? hooks->sharing : NULL;
  const hegetcl_team *team = sharing ? sharing->team : NULL;
  hegetcl_status status = hg_photon_family_check(ctx, config, sharing);
  if (status != HEGETCL_OK) return status;
  if (team != NULL && team->size > 1 && hooks->checkpointing != NULL &&
      hooks->checkpointing->path != NULL && hooks->checkpointing->path[0] != '\0')
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "checkpoints of a run shared by %d processes are not supported: run without "
                   "--checkpoint, or in one process, which may use several GPUs (--device all-gpus, or a list)",
                   team->size);
  const hegetcl_xsec_checkpointing *cp = hooks ? hooks->checkpointing : NULL;
  const int checkpoints = cp != NULL && cp->path != NULL && cp->path[0] != '\0';
  if (cp != NULL && cp->resume && !checkpoints)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "resuming needs the checkpoint's path");
  if (checkpoints && config->unweighted_events > 0 &&
      (hooks->events_checkpoint == NULL || hooks->events_resume == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "checkpoints of a run with unweighted events need the events_checkpoint and "
                   "events_resume hooks (the event file must continue where it stopped)");
  hg_ckpt saved;
  memset(&saved, 0, sizeof saved);
  hegetcl_xsec_phase resume_phase = 0;
  if (checkpoints && cp->resume) {
    status = hg_xsec_ckpt_open_resume(ctx, config, cp, &saved, &resume_phase);
    if (status != HEGETCL_OK) {
      hg_ckpt_free(&saved);
      return status;
    }
    result->resumed = (int)resume_phase;
  } else if (checkpoints) {
    status = hg_xsec_ckpt_check_fresh(ctx, cp->path);
    if (status != HEGETCL_OK) return status;
  }
  xsec_run *run = calloc(1, sizeof *run);
  if (run == NULL) {
    hg_ckpt_free(&saved);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the run");
  }
  run->ctx = ctx;
  run->config = config;
  run->hooks = hooks;
  run->cp = checkpoints ? cp : NULL;
  run->result = result;
  hg_photon_family *fam = &run->family;
  hg_vegas *vegas = NULL;
  char *sink_state = NULL;
  hg_unweight_state events_state;
  memset(&events_state, 0, sizeof events_state);
  status = hg_photon_family_open(ctx, config, sharing, result, fam);
  if (status != HEGETCL_OK) goto done;
  hg_xsec_device *first = &fam->devices[0];
  status = hg_vegas_create(ctx, first->program, fam->setup.dims, &config->vegas, &vegas);
  if (status != HEGETCL_OK) goto done;
  run->vegas = vegas;
  hg_vegas_work work;
  hg_photon_family_prepare(fam, vegas, &work);
  if (cp != NULL) hg_vegas_set_stop(vegas, cp->stop);
  if (resume_phase != 0) {
    status = hg_vegas_load(vegas, &saved);
    if (status == HEGETCL_OK && fam->histograms != NULL &&
        resume_phase == HEGETCL_XSEC_INTEGRATING &&
        hg_vegas_iterations_done(vegas) > fam->adapt_iterations) {
      const size_t count = hg_histograms_state_size(fam->histograms);
      double *state = malloc(count * sizeof *state);
      if (state == NULL)
        status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms' checkpoint");
      else if (hg_ckpt_get_reals(&saved, "histograms.state", 0, state, count) != 0)
        status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
      else
        hg_histograms_load_state(fam->histograms, state);
      free(state);
    }
    if (status == HEGETCL_OK && fam->channels != NULL &&
        hg_channels_load(fam->channels, &saved) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status == HEGETCL_OK && hg_xsec_variations_load(fam->variations, &saved) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status == HEGETCL_OK && hg_sampling_load(fam->sampling, &saved) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status == HEGETCL_OK && resume_phase == HEGETCL_XSEC_UNWEIGHTING) {
      const int loaded = hg_unweight_load(&events_state, &saved) == 0 &&
                         hg_ckpt_get_text(&saved, "sink", &sink_state) == 0;
      if (!loaded) status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    }
    if (status != HEGETCL_OK) goto done;
    result->saved_iterations = hg_vegas_iterations_done(vegas);
  } else if (run->cp != NULL) {
    status = save_checkpoint(run, HEGETCL_XSEC_INTEGRATING, NULL, NULL); /* claims the path */
    if (status != HEGETCL_OK) goto done;
  }
  if (run->cp != NULL) hg_vegas_set_checkpoint(vegas, after_iteration, run);
  status = hg_vegas_run(vegas, &work, hooks ? hooks->progress : NULL,
                        hooks ? hooks->progress_user : NULL, &result->vegas);
  if (status == HEGETCL_OK) status = hg_photon_family_integrated(fam, result);
  else if (fam->channels != NULL) hg_channels_result(fam->channels, result->channels);
  if (status != HEGETCL_OK) goto done;
  if (hg_vegas_stopped(vegas)) {
    result->stopped = HEGETCL_XSEC_INTEGRATING; /* the checkpoint holds the last saved iteration */
    goto done;
  }
  status = hg_photon_family_float_check(fam, vegas, result);
  if (status == HEGETCL_OK) status = hg_photon_family_take_histograms(fam, result);
  if (status != HEGETCL_OK) goto done;
  if (fam->histograms != NULL && resume_phase == HEGETCL_XSEC_UNWEIGHTING) {
    const int loaded =
        hg_xsec_ckpt_get_histograms(&saved, result->histograms, result->n_histograms) == 0;
    if (!loaded) status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status != HEGETCL_OK) goto done;
  }
  if (config->unweighted_events > 0) {
    /* a resumed unweighting goes on in the event file where its checkpoint left it */
    const int go_on = resume_phase == HEGETCL_XSEC_UNWEIGHTING && sink_state[0] != '\0';
    if (go_on)
      status = hooks->events_resume(result, sink_state, hooks->sink_user);
    else if (hooks->events_begin)
      status = hooks->events_begin(result, hooks->sink_user);
    if (status == HEGETCL_OK && run->cp != NULL && !go_on) {
      memset(&events_state, 0, sizeof events_state);
      status = save_checkpoint(run, HEGETCL_XSEC_UNWEIGHTING, &events_state, "");
    }
    int stopped = 0;
    const hg_photon_unweighting u = {.vegas = vegas,
                                     .hooks = hooks,
                                     .resume = go_on ? &events_state : NULL,
                                     .checkpoint_every = run->cp != NULL ? cp->every_events : 0,
                                     .checkpoint = run->cp != NULL ? during_unweighting : NULL,
                                     .checkpoint_user = run,
                                     .stop = cp != NULL ? cp->stop : NULL};
    status = hg_photon_family_unweight(fam, &u, status, result, &stopped, &events_state);
    if (status != HEGETCL_OK) goto done;
    if (stopped) {
      result->stopped = HEGETCL_XSEC_UNWEIGHTING;
      goto done;
    }
  }
  if (run->cp != NULL)
    status = save_checkpoint(run, HEGETCL_XSEC_FINISHED,
                             config->unweighted_events > 0 ? &events_state : NULL, NULL);
done:
  hg_vegas_destroy(vegas);
  hg_photon_family_close(fam);
  free(run);
  free(sink_state);
  hg_ckpt_free(&saved);
  return status;
}
