/* SPDX-License-Identifier: MIT */
/* p p -> n photon events as Les Houches records: the <init> block from the run and one <event> per
 * unweighted event (an event sink for hegetcl_xsec_generate). */
#ifndef HG_IO_LHE_EVENTS_H
#define HG_IO_LHE_EVENTS_H

#include <stdint.h>

#include "hegetcl/variations.h"
#include "hegetcl/xsec.h"

#include "io/lhef_writer.h"
#include "io/output_file.h"

typedef struct {
  hg_output *out;
  const hegetcl_xsec_config *config;
  const char *run_card; /* the header's <hegetcl_run_card> text */
  const char *comment;  /* the file's leading XML comment (program, device) */
  int share;            /* 1: this file holds file_events of the run's N (a rank's share, when
                            each rank writes its own file: hegetcl-mpi); 0: all N */
  uint64_t file_events;
  const char *resume_from; /* --resume: the stopped run's event stream (hg_output_find_stream) */
  double event_weight_pb;  /* sigma / N */
  /* the run's variations: each event's n_variations weights are written as <rwgt> and named in
   * <initrwgt> (NULL or empty: none); skip_variations leaves them out (the option to turn them
   * off, as MadGraph's use_syst = False) */
  const hegetcl_variation_list *variations;
  int skip_variations;
  char message[1024]; /* why the last write failed */
} hg_lhe_events;

/* One event as its Les Houches record (the arrays event points into). */
typedef struct {
  int mothers[HEGETCL_EVENT_MAX_PARTICLES][2];
  double momentum[HEGETCL_EVENT_MAX_PARTICLES][5], lifetime[HEGETCL_EVENT_MAX_PARTICLES];
  double spin[HEGETCL_EVENT_MAX_PARTICLES], weights[HEGETCL_MAX_VARIATIONS];
  hg_lhef_event event;
} hg_lhe_record;

/* The record of e (r->event points into r and into e, which must outlive it); HEGETCL_ERR_INPUT
 * with w->message for too many particles or variation weights the run does not name. */
hegetcl_status hg_lhe_events_record(hg_lhe_events *w, const hegetcl_event *e, hg_lhe_record *r);

/* events_begin of the hooks: writes <init> with sigma and its error (pb), the beams, the PDF
 * set's LHAPDF ID and the largest weight; user is an hg_lhe_events. */
hegetcl_status hg_lhe_events_begin(const hegetcl_xsec_result *result, void *user);
/* The sink: one <event> from the event record (XWGTUP = sigma / N; IDPRUP, ISTUP, ICOLUP, the
 * masses, SCALUP = mu_F, AQEDUP and AQCDUP from the record; mothers 0 0 for incoming particles,
 * 1 2 for the others; SPINUP the helicities or 9 when summed; <rwgt> with sigma / N times each
 * variation's ratio). */
hegetcl_status hg_lhe_events_write(const hegetcl_event *event, void *user);

#endif
