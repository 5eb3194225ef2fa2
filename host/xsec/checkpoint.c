/* SPDX-License-Identifier: MIT */
/* A cross-section run's checkpoint: settings written and compared by name, the final histograms,
 * the phase, the device-free reader of what a checkpoint says, and the checks of a fresh run's
 * path and of a checkpoint to resume. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/context.h"
#include "phasespace/mg_cuts.h"
#include "xsec/checkpoint.h"
#include "xsec/unweight.h"

#define HG_SETTINGS_MAX 64
#define HG_SETTING_TEXT 600

typedef struct {
  const char *name;
  char value[HG_SETTING_TEXT];
  const char *unset; /* a setting newer than the format: a checkpoint without its line is of a
                        run with this value (NULL: the line must be there) */
} setting;

static const char *const phase_names[] = {"", "integrating", "unweighting", "finished"};

const char *hegetcl_xsec_phase_name(hegetcl_xsec_phase phase) {
  return phase >= HEGETCL_XSEC_INTEGRATING && phase <= HEGETCL_XSEC_FINISHED ? phase_names[phase]
                                                                             : "unknown";
}

/* The shortest of %.15g .. %.17g that reads back as x (the run card's way of writing reals). */
static void real_text(char *out, size_t size, double x) {
  for (int digits = 15; digits <= 17; ++digits) {
    snprintf(out, size, "%.*g", digits, x);
    if (strtod(out, NULL) == x) return;
  }
}

static void bins_text(char *out, size_t size, const hegetcl_bins *b) {
  char lo[40], hi[40];
  real_text(lo, sizeof lo, b->lo);
  real_text(hi, sizeof hi, b->hi);
  snprintf(out, size, "%u:%s:%s", b->bins, lo, hi);
}

/* Every setting of the run, by the names of `hegetcl xsec`'s options. */
static size_t settings_of(const hegetcl_xsec_config *c, uint64_t every, setting *s) {
  size_t n = 0;
#define TEXT(key, ...)                                                                             \
  (s[n].name = key, s[n].unset = NULL, snprintf(s[n].value, HG_SETTING_TEXT, __VA_ARGS__), ++n)
#define REAL(key, x)                                                                               \
  (s[n].name = key, s[n].unset = NULL, real_text(s[n].value, HG_SETTING_TEXT, x), ++n)
#define BINS(key, b)                                                                               \
  (s[n].name = key, s[n].unset = NULL, bins_text(s[n].value, HG_SETTING_TEXT, b), ++n)
  const hegetcl_vegas_settings *v = &c->vegas;
  /* first, so that a photon run's checkpoint and a process run's name what differs; photon runs'
   * checkpoints from before process runs have no line */
  s[n].name = "process";
  s[n].unset = "none";
  snprintf(s[n].value, HG_SETTING_TEXT, "%s", c->process_text[0] ? c->process_text : "none");
  ++n;
  if (c->process_text[0] != '\0') {
    TEXT("beams", "%s", c->beams == HEGETCL_BEAMS_PP ? "p p" : "p p~");
    TEXT("five-flavour", "%d", c->five_flavour);
    TEXT("dynamical-scale-choice", "%d", c->dynamical_scale_choice);
    REAL("mu-r", c->mu_r_gev);
    REAL("mu-r-factor", c->mu_r_factor);
    REAL("mu-f-factor", c->mu_f_factor);
    TEXT("alpha-s-running", "%s", c->alpha_s_running == HEGETCL_ALPHA_S_PDF ? "pdf" : "madgraph");
    TEXT("group-engine", "%d", c->group_engine);
    /* the cuts that are on, by MadGraph's names */
    s[n].name = "cuts";
    s[n].unset = NULL;
    size_t used = (size_t)snprintf(s[n].value, HG_SETTING_TEXT, "%s", "");
    for (int k = 0; k < HG_CUT_COUNT && used < HG_SETTING_TEXT; ++k) {
      if (!hg_mg_cut_is_on(k, c->cuts[k])) continue;
      char x[40];
      real_text(x, sizeof x, c->cuts[k]);
      used += (size_t)snprintf(s[n].value + used, HG_SETTING_TEXT - used, "%s%s=%s",
                               used ? " " : "", hg_mg_cut_info_at(k)->name, x);
    }
    if (used == 0) snprintf(s[n].value, HG_SETTING_TEXT, "none");
    ++n;
  }
  TEXT("n", "%u", c->process.n_photons);
  TEXT("orientation", "%s", hegetcl_orientation_name(c->orientation));
  TEXT("engine", "%s", hegetcl_engine_name(c->process.engine));
  TEXT("precision", "%s", hegetcl_precision_name(c->process.precision));
  TEXT("helicity", "%s", hegetcl_helicity_mode_name(c->helicity));
  TEXT("phase-space", "%s", hegetcl_phase_space_name(c->phase_space));
  TEXT("quark-pid", "%d", c->quark_pid);
  /* checkpoints from before flavour channels have no line: theirs is a one-flavour run */
  s[n].name = "flavours";
  s[n].unset = "none";
  hegetcl_flavours_name(c->flavours, s[n].value, HG_SETTING_TEXT);
  ++n;
  TEXT("seed", "%llu", (unsigned long long)v->seed);
  REAL("target-error", v->target_rel_error);
  TEXT("max-events", "%llu", (unsigned long long)v->max_events);
  TEXT("events", "%llu", (unsigned long long)v->events_per_iteration);
  TEXT("min-iterations", "%u", v->min_iterations);
  TEXT("max-iterations", "%u", v->max_iterations);
  TEXT("adapt-iterations", "%u", v->adapt_iterations);
  TEXT("adapt-events", "%llu", (unsigned long long)v->adapt_events);
  TEXT("vegas-bins", "%u", v->bins);
  REAL("vegas-alpha", v->alpha);
  /* checkpoints from before the sizing have no line: theirs took --events per iteration */
  s[n].name = "iteration-events";
  s[n].unset = "fixed";
  snprintf(s[n].value, HG_SETTING_TEXT, "%s", v->fixed_iteration_events ? "fixed" : "auto");
  ++n;
  TEXT("batch", "%zu", v->batch_size);
  REAL("sqrt-s", c->sqrt_s_gev);
  REAL("scale", c->mu_f_gev);
  REAL("pt-min", c->pt_min_gev);
  REAL("eta-max", c->eta_max);
  REAL("dr-min", c->delta_r_min);
  TEXT("pdf", "%s", c->pdf_set);
  TEXT("pdf-member", "%d", c->pdf_member);
  REAL("alpha", c->process.alpha);
  REAL("charge", c->process.quark_charge);
  TEXT("histograms", "%s", c->histograms ? "yes" : "no");
  BINS("pt-bins", &c->binning.pt_gev);
  BINS("eta-bins", &c->binning.eta);
  BINS("dr-bins", &c->binning.delta_r);
  BINS("mass-bins", &c->binning.mass_gev);
  TEXT("unweighted-events", "%llu", (unsigned long long)c->unweighted_events);
  TEXT("max-unweighting-tries", "%llu", (unsigned long long)c->max_unweighting_tries);
  TEXT("checkpoint-every", "%llu", (unsigned long long)every);
  /* checkpoints from before photon variation weights have no lines: theirs had none */
  s[n].name = "scale-variations";
  s[n].unset = "0";
  snprintf(s[n].value, HG_SETTING_TEXT, "%d", c->scale_variations);
  ++n;
  s[n].name = "pdf-variations";
  s[n].unset = "off";
  snprintf(s[n].value, HG_SETTING_TEXT, "%s", c->pdf_variations ? "on" : "off");
  ++n;
  s[n].name = "alt-pdf";
  s[n].unset = "none";
  snprintf(s[n].value, HG_SETTING_TEXT, "%s", c->alt_pdf_sets[0] ? c->alt_pdf_sets : "none");
  ++n;
#undef TEXT
#undef REAL
#undef BINS
  return n;
}

void hg_xsec_ckpt_put_config(hg_ckpt_writer *w, const hegetcl_xsec_config *config,
                             uint64_t every_events) {
  setting s[HG_SETTINGS_MAX];
  const size_t n = settings_of(config, every_events, s);
  char key[64];
  for (size_t i = 0; i < n; ++i) {
    snprintf(key, sizeof key, "config.%s", s[i].name);
    hg_ckpt_put_text(w, key, s[i].value);
  }
}

int hg_xsec_ckpt_check_config(const hg_ckpt *c, const hegetcl_xsec_config *config,
                              uint64_t every_events, char *message, size_t message_size) {
  setting s[HG_SETTINGS_MAX];
  const size_t n = settings_of(config, every_events, s);
  char key[64];
  for (size_t i = 0; i < n; ++i) {
    snprintf(key, sizeof key, "config.%s", s[i].name);
    const hg_ckpt_entry *e = hg_ckpt_find(c, key, 0);
    const char *stored = e != NULL ? e->value : s[i].unset;
    if (stored == NULL) {
      snprintf(message, message_size, "%s: no '%s' line: the checkpoint is incomplete", c->path,
               key);
      return HEGETCL_ERR_INPUT;
    }
    /* settings hold no backslash or line feed but the PDF path might: compare the escaped text */
    char *escaped = malloc(2 * strlen(s[i].value) + 1), *q = escaped;
    if (escaped == NULL) {
      snprintf(message, message_size, "no memory to compare settings");
      return HEGETCL_ERR_NO_MEMORY;
    }
    for (const char *p = s[i].value; *p != '\0'; ++p) {
      if (*p == '\\' || *p == '\n') *q++ = '\\';
      *q++ = *p == '\n' ? 'n' : *p;
    }
    *q = '\0';
    const int same = strcmp(stored, escaped) == 0;
    free(escaped);
    if (!same) {
      snprintf(message, message_size,
               "%s was written by a run with %s = %s; this run has %s = %s: a run is resumed with "
               "the settings it started with",
               c->path, s[i].name, stored, s[i].name, s[i].value);
      return HEGETCL_ERR_INPUT;
    }
  }
  return 0;
}

static const char *const array_keys[5] = {"histogram.sumw", "histogram.sumw2", "histogram.sumwx",
                                          "histogram.sumwx2", "histogram.entries"};

static double *array_of(const hegetcl_histogram *h, int a) {
  double *const arrays[5] = {h->sumw, h->sumw2, h->sumwx, h->sumwx2, h->entries};
  return arrays[a];
}

void hg_xsec_ckpt_put_histograms(hg_ckpt_writer *w, const hegetcl_histogram *h, size_t count) {
  hg_ckpt_put(w, "histograms", "%zu", count);
  for (size_t k = 0; k < count; ++k) {
    hg_ckpt_put(w, "histogram", "%zu %u %s", k, h[k].bins, h[k].name);
    for (int a = 0; a < 5; ++a)
      hg_ckpt_put_reals(w, array_keys[a], array_of(&h[k], a), h[k].bins + 2);
  }
}

int hg_xsec_ckpt_get_histograms(hg_ckpt *c, hegetcl_histogram *h, size_t count) {
  uint64_t stored = 0;
  int status = hg_ckpt_scan(c, "histograms", 0, "u", &stored);
  if (status != 0) return status;
  if (stored != count) {
    snprintf(c->message, sizeof c->message,
             "%s holds %llu histograms, this run books %zu: the checkpoint is another run's",
             c->path, (unsigned long long)stored, count);
    return HEGETCL_ERR_INPUT;
  }
  for (size_t k = 0; k < count; ++k) {
    const hg_ckpt_entry *e = hg_ckpt_find(c, "histogram", k);
    char want[96];
    snprintf(want, sizeof want, "%zu %u %s", k, h[k].bins, h[k].name);
    if (e == NULL || strcmp(e->value, want) != 0) {
      snprintf(c->message, sizeof c->message,
               "%s: histogram %zu is \"%.60s\", this run's \"%s\": the checkpoint is another "
               "run's",
               c->path, k, e ? e->value : "missing", want);
      return HEGETCL_ERR_INPUT;
    }
    for (int a = 0; a < 5 && status == 0; ++a)
      status = hg_ckpt_get_reals(c, array_keys[a], k, array_of(&h[k], a), h[k].bins + 2);
    if (status != 0) return status;
  }
  return 0;
}

int hg_xsec_ckpt_phase(hg_ckpt *c) {
  const hg_ckpt_entry *e = hg_ckpt_find(c, "phase", 0);
  for (int p = HEGETCL_XSEC_INTEGRATING; e != NULL && p <= HEGETCL_XSEC_FINISHED; ++p)
    if (strcmp(e->value, phase_names[p]) == 0) return p;
  if (e == NULL)
    snprintf(c->message, sizeof c->message, "%s: no 'phase' line: the checkpoint is incomplete",
             c->path);
  else
    snprintf(c->message, sizeof c->message,
             "%s:%d: phase \"%.40s\": not integrating, unweighting or finished", c->path, e->line,
             e->value);
  return 0;
}

static char *empty_text(void) { return calloc(1, 1); }

void hegetcl_xsec_checkpoint_info_free(hegetcl_xsec_checkpoint_info *info) {
  free(info->run_card);
  free(info->writer);
  free(info->device);
  free(info->events_state);
  memset(info, 0, sizeof *info);
}

hegetcl_status hegetcl_xsec_checkpoint_read(const char *path, hegetcl_xsec_checkpoint_info *info,
                                            char *message, size_t message_size) {
  memset(info, 0, sizeof *info);
  hg_ckpt c;
  int status = hg_ckpt_read(path, HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION, &c);
  if (status == 0) {
    info->phase = (hegetcl_xsec_phase)hg_xsec_ckpt_phase(&c);
    if (info->phase == 0) status = HEGETCL_ERR_INPUT;
  }
  if (status == 0) status = hg_ckpt_get_text(&c, "run_card", &info->run_card);
  if (status == 0) status = hg_ckpt_get_text(&c, "writer", &info->writer);
  if (status == 0) status = hg_ckpt_get_text(&c, "device", &info->device);
  uint64_t index = 0, combined = 0, done = 0, events = 0, total = 0, nonzero = 0, reached = 0;
  double sums[7];
  /* a process run's checkpoint sums its groups' iterations and sigma (generator/checkpoint.c) */
  const int process_run = hg_ckpt_find(&c, "generator.progress", 0) != NULL;
  if (status == 0 && process_run) {
    status =
        hg_ckpt_scan(&c, "generator.progress", 0, "uurr", &index, &combined, &sums[2], &sums[3]);
  } else if (status == 0) {
    status = hg_ckpt_scan(&c, "vegas.progress", 0, "uuuuuuu", &index, &combined, &done, &events,
                          &total, &nonzero, &reached);
    if (status == 0) status = hg_ckpt_get_reals(&c, "vegas.sums", 0, sums, 7);
  }
  if (status == 0) {
    info->iterations = (uint32_t)index;
    info->combined_iterations = (unsigned)combined;
    info->sigma_fb = sums[2];
    info->error_fb = sums[3];
  }
  if (status == 0 && process_run && hg_ckpt_find(&c, "generator.events", 0) != NULL) {
    uint64_t written = 0;
    status = hg_ckpt_scan(&c, "generator.events", 0, "u", &written);
    info->events_written = written;
  }
  if (status == 0 && hg_ckpt_find(&c, "unweight.progress", 0) != NULL) {
    hg_unweight_state st;
    status = hg_unweight_load(&st, &c);
    info->events_written = st.written;
  }
  if (status == 0 && hg_ckpt_find(&c, "sink", 0) != NULL)
    status = hg_ckpt_get_text(&c, "sink", &info->events_state);
  if (status == 0 && info->events_state == NULL) info->events_state = empty_text();
  if (status != 0) snprintf(message, message_size, "%s", c.message);
  hg_ckpt_free(&c);
  return (hegetcl_status)status;
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
