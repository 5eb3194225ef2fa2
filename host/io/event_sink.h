/* SPDX-License-Identifier: MIT */
/* The event file of a run, in the format its name asks for: one module that chooses the writer
 * and hands it the event record (hegetcl/events.h). Every format claims its file the same way
 * (output_claim.h: temporary name, renamed when complete). The sink functions are the hooks of
 * hegetcl_xsec_generate (events_begin, sink, events_checkpoint, events_resume).
 *   .lhe .lhe.gz       Les Houches Event File 3.0 (lhef_writer.h)
 *   .hdf5 .h5          LHEH5, HDF5 (lheh5_writer.h; needs libhdf5 at build time)
 *   .hepmc .hepmc.gz   HepMC3 ASCII (hepmc3_writer.h) */
#ifndef HG_IO_EVENT_SINK_H
#define HG_IO_EVENT_SINK_H

#include <stddef.h>

#include "hegetcl/events.h"
#include "hegetcl/variations.h"
#include "hegetcl/xsec.h"
#include "io/lhe_events.h"
#include "io/lheh5_writer.h"
#include "io/text_pool.h"

typedef enum { HG_EVENTS_LHE, HG_EVENTS_LHEH5, HG_EVENTS_HEPMC3 } hg_event_format;

/* The endings and their formats, for messages: ".lhe, .lhe.gz (Les Houches), ...". */
#define HG_EVENT_FORMAT_ENDINGS                                                                    \
  ".lhe or .lhe.gz (Les Houches 3.0), .hdf5 or .h5 (LHEH5), .hepmc or .hepmc.gz (HepMC3 ASCII)"

/* The format a file name asks for; HEGETCL_ERR_INPUT naming the endings for any other name,
 * HEGETCL_ERR_UNSUPPORTED for LHEH5 in a build without libhdf5 (naming the package). what names
 * the option ("--lhe"). */
int hg_event_format_of(const char *what, const char *path, hg_event_format *format, char *message,
                       size_t message_size);

/* "Les Houches", "LHEH5", "HepMC3". */
const char *hg_event_format_name(hg_event_format format);

/* Nonzero when a stopped run's events continue with --resume (a text stream, as for LHE). */
int hg_event_format_resumable(hg_event_format format);

typedef struct {
  hg_event_format format;
  /* the run's description (config, run card, comment, shares, variations) and, for the text
   * formats, the open output (lhe.out) */
  hg_lhe_events lhe;
  hg_lheh5 *h5;     /* LHEH5: opened by begin */
  const char *path; /* the file this sink writes */
  double sigma_pb, error_pb;
  int pdf_id;
  unsigned n_weights; /* the nominal and the variations written */
  char weight_names[HEGETCL_MAX_VARIATIONS + 1][48];
  const char *weight_name[HEGETCL_MAX_VARIATIONS + 1];
  /* the text formats' events formatted by worker threads (NULL: in the caller's thread); the
   * file's bytes are the same either way */
  hg_text_pool *pool;
  size_t n_ratios; /* variation ratios stored with each pooled event */
} hg_event_sink;

/* Opens the sink for path (s->format and s->lhe set by the caller, s->lhe.out NULL): the text
 * formats' output at once, LHEH5's file at begin (its header needs sigma). 0 or a negative status
 * with message. */
int hg_event_sink_open(hg_event_sink *s, const char *path, char *message, size_t message_size);

hegetcl_status hg_event_sink_begin(const hegetcl_xsec_result *result, void *user);
hegetcl_status hg_event_sink_write(const hegetcl_event *event, void *user);
/* events_checkpoint and events_resume (text formats; LHEH5 answers HEGETCL_ERR_UNSUPPORTED) */
hegetcl_status hg_event_sink_checkpoint(void *user, int stopping, char **state);
hegetcl_status hg_event_sink_resume(const hegetcl_xsec_result *result, const char *state,
                                    void *user);

/* Writes the end and renames the file to its path (commit != 0), or removes it. 0 or a negative
 * status with message. */
int hg_event_sink_close(hg_event_sink *s, int commit, char *message, size_t message_size);

/* A text format's output with every event handed to the sink written to it, taken from the sink
 * (which then holds none): what a stopped run keeps (hg_output_keep_temp). */
hg_output *hg_event_sink_take_output(hg_event_sink *s);

#endif
