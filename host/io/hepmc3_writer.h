/* SPDX-License-Identifier: MIT */
/* HepMC3's ASCII format, version 3 ("Asciiv3"), as HepMC3's ReaderAscii and pyhepmc read it:
 *   HepMC::Version 3.02.06
 *   HepMC::Asciiv3-START_EVENT_LISTING
 *   W Default\|MUR2.0_MUF1.0_PDF10042\|...     the run's weight names ("\|" is an escaped newline)
 *   T hegetcl\|0.1.0\|description               the tool
 *   A hegetcl_run_card text                      run attributes (text escaped: \ -> \\, LF -> \|)
 *   E number vertices particles                  one block per event
 *   U GEV MM
 *   W w_nominal w_1 ...                          (pb, as the Les Houches XWGTUP)
 *   A 0 GenCrossSection sigma error accepted attempted      (pb)
 *   A 0 GenPdfInfo id1 id2 x1 x2 mu_F xf1 xf2 set1 set2
 *   A 0 alphaQCD / alphaQED / event_scale / signal_process_id
 *   P id vertex pdg px py pz E m status                     (GeV)
 *   V id status [in1,in2,...]
 *   HepMC::Asciiv3-END_EVENT_LISTING
 * A parton-level event is three vertices: each beam proton (status 4) -> its parton (status 21,
 * the incoming parton of the hard process), both partons -> the outgoing particles (status 1; an
 * intermediate Les Houches status 2 is written 22). */
#ifndef HG_HEPMC3_WRITER_H
#define HG_HEPMC3_WRITER_H

#include "hegetcl/events.h"
#include "io/format_real.h"
#include "io/output_file.h"

typedef struct {
  const char *tool_name, *tool_version, *tool_description;
  const char *run_card; /* the run attribute hegetcl_run_card; may be NULL */
  unsigned n_weights;   /* weight names: the nominal's, then each variation's */
  const char *const *weight_names;
} hg_hepmc3_run;

typedef struct {
  int beam_pid[2];
  double beam_energy_gev[2];
  int pdf_lhapdf_id;
  double sigma_pb, sigma_error_pb;
  long long accepted, attempted; /* GenCrossSection's event counts */
} hg_hepmc3_beams;

int hg_hepmc3_write_header(hg_output *o, const hg_hepmc3_run *run);

/* One event: weights[0] the nominal weight, then n_weights - 1 variation weights (pb). */
int hg_hepmc3_write_event(hg_output *o, const hegetcl_event *e, const hg_hepmc3_beams *beams,
                          unsigned n_weights, const double *weights);

/* The two halves of hg_hepmc3_write_event: the checks (recorded on o), and the text of an event
 * that passed them, into t (any thread). */
int hg_hepmc3_check_event(hg_output *o, const hegetcl_event *e, unsigned n_weights,
                          const double *weights);
void hg_hepmc3_format_event(hg_text *t, const hegetcl_event *e, const hg_hepmc3_beams *beams,
                            unsigned n_weights, const double *weights);

int hg_hepmc3_write_end(hg_output *o);

#endif
