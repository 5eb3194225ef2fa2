/* SPDX-License-Identifier: MIT */
/* The event file's format from its name, and the one sink that hands the event record to the
 * Les Houches, LHEH5 or HepMC3 writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/version.h"
#include "io/event_sink.h"
#include "io/hepmc3_writer.h"
#include "io/lhef_writer.h"
#include "io/output_file.h"

/* fb -> pb */
#define HG_PB_PER_FB 1e-3

static int ends_with(const char *text, const char *end) {
  const size_t n = strlen(text), m = strlen(end);
  return n > m && strcmp(text + n - m, end) == 0;
}

int hg_event_format_of(const char *what, const char *path, hg_event_format *format, char *message,
                       size_t message_size) {
  static const struct {
    const char *ending;
    hg_event_format format;
  } endings[] = {{".lhe", HG_EVENTS_LHE},      {".lhe.gz", HG_EVENTS_LHE},
                 {".hdf5", HG_EVENTS_LHEH5},   {".h5", HG_EVENTS_LHEH5},
                 {".hepmc", HG_EVENTS_HEPMC3}, {".hepmc.gz", HG_EVENTS_HEPMC3}};
  for (size_t i = 0; i < sizeof endings / sizeof *endings; ++i)
    if (ends_with(path, endings[i].ending)) {
      *format = endings[i].format;
      if (*format == HG_EVENTS_LHEH5 && !hg_lheh5_available()) {
        snprintf(message, message_size,
                 "%s %s: this hegetcl was built without libhdf5, so it cannot write LHEH5: "
                 "install Debian's libhdf5-dev (setup.sh does) and build again, or name a .lhe, "
                 ".lhe.gz, .hepmc or .hepmc.gz file",
                 what, path);
        return HEGETCL_ERR_UNSUPPORTED;
      }
      return 0;
    }
  snprintf(message, message_size,
           "%s %s: the file's ending names no event format: use " HG_EVENT_FORMAT_ENDINGS, what,
           path);
  return HEGETCL_ERR_INPUT;
}

const char *hg_event_format_name(hg_event_format format) {
  switch (format) {
  case HG_EVENTS_LHEH5:
    return "LHEH5";
  case HG_EVENTS_HEPMC3:
    return "HepMC3";
  default:
    return "Les Houches";
  }
}

int hg_event_format_resumable(hg_event_format format) { return format != HG_EVENTS_LHEH5; }

int hg_event_sink_open(hg_event_sink *s, const char *path, char *message, size_t message_size) {
  s->path = path;
  s->h5 = NULL;
  s->pool = NULL;
  s->lhe.out = NULL;
  if (s->format == HG_EVENTS_LHEH5) {
    if (!hg_lheh5_available())
      return hg_event_format_of("the event file", path, &s->format, message, message_size);
    return 0;
  }
  return hg_output_open(path, hg_output_path_is_gzip(path), &s->lhe.out, message, message_size);
}

/* The weights written with every event: the nominal, then each variation unless left out. */
static void name_weights(hg_event_sink *s) {
  const hegetcl_variation_list *list = s->lhe.skip_variations ? NULL : s->lhe.variations;
  s->n_weights = 1 + (list != NULL ? list->n : 0);
  snprintf(s->weight_names[0], sizeof s->weight_names[0], "Default");
  for (unsigned k = 1; k < s->n_weights; ++k)
    hegetcl_variation_weight_name(list, k - 1, s->weight_names[k], sizeof s->weight_names[k]);
  for (unsigned k = 0; k < s->n_weights; ++k) s->weight_name[k] = s->weight_names[k];
}

static hegetcl_status io_error(hg_event_sink *s, const char *text) {
  snprintf(s->lhe.message, sizeof s->lhe.message, "%s", text);
  return HEGETCL_ERR_IO;
}

/* The HepMC3 description of the run's beams and cross section. */
static hg_hepmc3_beams hepmc_beams(const hg_event_sink *s) {
  const hegetcl_xsec_config *c = s->lhe.config;
  const long long n = (long long)c->unweighted_events;
  const hg_hepmc3_beams beams = {.beam_pid = {2212, 2212},
                                 .beam_energy_gev = {0.5 * c->sqrt_s_gev, 0.5 * c->sqrt_s_gev},
                                 .pdf_lhapdf_id = s->pdf_id,
                                 .sigma_pb = s->sigma_pb,
                                 .sigma_error_pb = s->error_pb,
                                 .accepted = n,
                                 .attempted = n};
  return beams;
}

/* A pooled event: the record, then its variation ratios. */
static const hegetcl_event *pooled(const unsigned char *item, hegetcl_event *copy) {
  memcpy(copy, item, sizeof *copy);
  copy->variations = copy->n_variations > 0 ? (const double *)(item + sizeof *copy) : NULL;
  return copy;
}

/* The workers' half: events that passed their checks, as text. */
static void format_events(void *user, const unsigned char *items, size_t count, size_t item_size,
                          hg_text *t) {
  hg_event_sink *s = user;
  const hg_hepmc3_beams beams = hepmc_beams(s);
  for (size_t k = 0; k < count; ++k) {
    hegetcl_event copy;
    const hegetcl_event *e = pooled(items + k * item_size, &copy);
    if (s->format == HG_EVENTS_LHE) {
      hg_lhe_record r;
      if (hg_lhe_events_record(&s->lhe, e, &r) == HEGETCL_OK) hg_lhef_format_event(t, &r.event);
    } else {
      double weights[HEGETCL_MAX_VARIATIONS + 1];
      weights[0] = s->lhe.event_weight_pb;
      for (unsigned v = 1; v < s->n_weights; ++v)
        weights[v] = s->lhe.event_weight_pb * e->variations[v - 1];
      hg_hepmc3_format_event(t, e, &beams, s->n_weights, weights);
    }
  }
}

/* The text formats format in worker threads once the header is written. */
static void start_pool(hg_event_sink *s) {
  if (s->pool != NULL || s->lhe.out == NULL) return;
  const hegetcl_variation_list *list = s->lhe.skip_variations ? NULL : s->lhe.variations;
  s->n_ratios = list != NULL ? list->n : 0;
  s->pool = hg_text_pool_create(0, sizeof(hegetcl_event) + s->n_ratios * sizeof(double), 1024,
                                format_events, s, s->lhe.out);
}

/* Hands a checked event to the pool (its record and ratios copied). */
static hegetcl_status pool_event(hg_event_sink *s, const hegetcl_event *e) {
  unsigned char *item = hg_text_pool_item(s->pool);
  if (item == NULL) {
    const int status = hg_text_pool_drain(s->pool);
    return io_error(s, status == HEGETCL_ERR_NO_MEMORY ? "no memory to format events"
                                                       : hg_output_message(s->lhe.out));
  }
  memcpy(item, e, sizeof *e);
  hegetcl_event *copy = (hegetcl_event *)(void *)item;
  const size_t n = e->n_variations > 0 ? s->n_ratios : 0;
  copy->n_variations = (unsigned)n;
  if (n > 0) memcpy(item + sizeof *e, e->variations, n * sizeof(double));
  return HEGETCL_OK;
}

/* Everything pooled written to the output. */
static hegetcl_status drain(hg_event_sink *s) {
  if (s->pool == NULL) return HEGETCL_OK;
  const int status = hg_text_pool_drain(s->pool);
  if (status == 0) return HEGETCL_OK;
  return io_error(s, status == HEGETCL_ERR_NO_MEMORY ? "no memory to format events"
                                                     : hg_output_message(s->lhe.out));
}

hegetcl_status hg_event_sink_begin(const hegetcl_xsec_result *result, void *user) {
  hg_event_sink *s = user;
  const hegetcl_xsec_config *c = s->lhe.config;
  s->sigma_pb = result->vegas.estimate * HG_PB_PER_FB;
  s->error_pb = result->vegas.error * HG_PB_PER_FB;
  s->pdf_id = result->pdf_lhapdf_id;
  /* a run that computed variation weights names them (the caller may have set a list) */
  if (s->lhe.variations == NULL && result->variations != NULL)
    s->lhe.variations = &result->variations->list;
  name_weights(s);
  if (s->format == HG_EVENTS_LHE) {
    const hegetcl_status status = hg_lhe_events_begin(result, &s->lhe);
    if (status == HEGETCL_OK) start_pool(s);
    return status;
  }
  s->lhe.event_weight_pb = s->sigma_pb / (double)c->unweighted_events;
  if (s->format == HG_EVENTS_HEPMC3) {
    const hg_hepmc3_run run = {.tool_name = "hegetcl",
                               .tool_version = HEGETCL_VERSION,
                               .tool_description = s->lhe.comment,
                               .run_card = s->lhe.run_card,
                               .n_weights = s->n_weights,
                               .weight_names = s->weight_name};
    if (hg_hepmc3_write_header(s->lhe.out, &run) != 0)
      return io_error(s, hg_output_message(s->lhe.out));
    start_pool(s);
    return HEGETCL_OK;
  }
  const hg_lheh5_init init = {.beam_pid = {2212, 2212},
                              .beam_energy_gev = {0.5 * c->sqrt_s_gev, 0.5 * c->sqrt_s_gev},
                              .pdf_set = {s->pdf_id, s->pdf_id},
                              .weight_strategy = 3,
                              .xsec_pb = s->sigma_pb,
                              .xsec_error_pb = s->error_pb,
                              .unit_weight_pb = s->lhe.event_weight_pb,
                              .n_particles_lo = (int)c->process.n_photons + 2,
                              .n_weights = s->n_weights,
                              .weight_names = s->weight_name,
                              .run_card = s->lhe.run_card,
                              .expected_events =
                                  s->lhe.share ? s->lhe.file_events : c->unweighted_events};
  char message[1024];
  if (hg_lheh5_open(s->path, &init, &s->h5, message, sizeof message) != 0)
    return io_error(s, message);
  return HEGETCL_OK;
}

hegetcl_status hg_event_sink_write(const hegetcl_event *e, void *user) {
  hg_event_sink *s = user;
  if (s->format == HG_EVENTS_LHE) {
    if (s->pool == NULL) return hg_lhe_events_write(e, &s->lhe);
    hg_lhe_record r; /* checked here, formatted by a worker */
    hegetcl_status status = hg_lhe_events_record(&s->lhe, e, &r);
    if (status != HEGETCL_OK) return status;
    if (hg_lhef_check_event(s->lhe.out, &r.event) != 0)
      return io_error(s, hg_output_message(s->lhe.out));
    return pool_event(s, e);
  }
  double weights[HEGETCL_MAX_VARIATIONS + 1];
  const double w = s->lhe.event_weight_pb;
  weights[0] = w;
  if (s->n_weights > 1) {
    if (e->n_variations != s->n_weights - 1 || e->variations == NULL) {
      snprintf(s->lhe.message, sizeof s->lhe.message,
               "event %llu carries %u variation weights but the run names %u variations",
               (unsigned long long)e->number, e->n_variations, s->n_weights - 1);
      return HEGETCL_ERR_INPUT;
    }
    for (unsigned k = 1; k < s->n_weights; ++k) weights[k] = w * e->variations[k - 1];
  }
  if (s->format == HG_EVENTS_HEPMC3) {
    if (s->pool != NULL) {
      if (hg_hepmc3_check_event(s->lhe.out, e, s->n_weights, weights) != 0)
        return io_error(s, hg_output_message(s->lhe.out));
      return pool_event(s, e);
    }
    const hg_hepmc3_beams beams = hepmc_beams(s);
    if (hg_hepmc3_write_event(s->lhe.out, e, &beams, s->n_weights, weights) != 0)
      return io_error(s, hg_output_message(s->lhe.out));
    return HEGETCL_OK;
  }
  if (hg_lheh5_write(s->h5, e, weights) != 0) return io_error(s, hg_lheh5_message(s->h5));
  return HEGETCL_OK;
}

hegetcl_status hg_event_sink_checkpoint(void *user, int stopping, char **state) {
  hg_event_sink *s = user;
  *state = NULL;
  if (s->format == HG_EVENTS_LHEH5) {
    snprintf(s->lhe.message, sizeof s->lhe.message,
             "%s: an LHEH5 file cannot be continued after a stop, so its run takes no "
             "checkpoints in the unweighting",
             s->path);
    return HEGETCL_ERR_UNSUPPORTED;
  }
  hegetcl_status status = drain(s);
  if (status != HEGETCL_OK) return status;
  /* a stop's sync is not recorded: the resumed file is flushed where the uninterrupted one is */
  if (hg_output_sync(s->lhe.out, !stopping) != 0) return io_error(s, hg_output_message(s->lhe.out));
  *state = hg_output_state(s->lhe.out);
  return *state != NULL ? HEGETCL_OK : HEGETCL_ERR_NO_MEMORY;
}

hegetcl_status hg_event_sink_resume(const hegetcl_xsec_result *result, const char *state,
                                    void *user) {
  hg_event_sink *s = user;
  if (s->format == HG_EVENTS_LHEH5) {
    char *none = NULL;
    return hg_event_sink_checkpoint(user, 1, &none);
  }
  hegetcl_status status = hg_event_sink_begin(result, s);
  if (status != HEGETCL_OK) return status;
  if (s->lhe.resume_from == NULL) {
    snprintf(s->lhe.message, sizeof s->lhe.message, "%s: no event stream to continue", s->path);
    return HEGETCL_ERR_IO;
  }
  if (hg_output_resume(s->lhe.out, s->lhe.resume_from, state) != 0)
    return io_error(s, hg_output_message(s->lhe.out));
  return HEGETCL_OK;
}

int hg_event_sink_close(hg_event_sink *s, int commit, char *message, size_t message_size) {
  int rc = 0;
  if (s->format == HG_EVENTS_LHEH5) {
    rc = hg_lheh5_close(s->h5, commit, message, message_size);
    s->h5 = NULL;
    return rc;
  }
  if (s->lhe.out == NULL) return 0;
  int failed = 0;
  if (commit && drain(s) != HEGETCL_OK) {
    failed = HEGETCL_ERR_IO;
    commit = 0;
  }
  hg_text_pool_destroy(s->pool);
  s->pool = NULL;
  if (commit) {
    if (s->format == HG_EVENTS_LHE)
      hg_lhef_write_end(s->lhe.out);
    else
      hg_hepmc3_write_end(s->lhe.out);
  }
  rc = hg_output_close(s->lhe.out, commit, message, message_size);
  s->lhe.out = NULL;
  if (failed) {
    snprintf(message, message_size, "%s", s->lhe.message);
    rc = failed;
  }
  return rc;
}

hg_output *hg_event_sink_take_output(hg_event_sink *s) {
  drain(s); /* a failure stays on the output */
  hg_text_pool_destroy(s->pool);
  s->pool = NULL;
  hg_output *out = s->lhe.out;
  s->lhe.out = NULL;
  return out;
}
