/* SPDX-License-Identifier: MIT */
/* A Les Houches Event File writer, version 3.0 (hep-ph/0609017; arXiv:1405.1067, LHEF 3.0). */
#ifndef HG_LHEF_WRITER_H
#define HG_LHEF_WRITER_H

#include "hegetcl/variations.h"
#include "io/format_real.h"
#include "io/output_file.h"

/* The run: HEPRUP's first line and one process line, the LHEF 3.0 tags, the header and comment.
 * Layout written by hg_lhef_write_init:
 *   <LesHouchesEvents version="3.0">
 *   <!--
 *   comment, each "--" written "- -" (XML forbids "--" inside a comment); a comment holding
 *   a tag name such as "<init" or "</event" is refused, as line-based readers would see a tag
 *   -->
 *   <header>
 *   <header_name>
 *   header_text, &, <, >, CR written &amp; &lt; &gt; &#13; (a newline added when it lacks one)
 *   </header_name>
 *   <initrwgt>            (only with variations: MadGraph's layout, one <weightgroup> per group)
 *   <weightgroup name="Central scale variation" combine="envelope">
 *   <weight id="1" MUR="1.0" MUF="1.0" PDF="10042" > description </weight>
 *   </weightgroup>
 *   </initrwgt>
 *   </header>
 *   <init>
 *   IDBMUP(1) IDBMUP(2) EBMUP(1) EBMUP(2) PDFGUP(1) PDFGUP(2) PDFSUP(1) PDFSUP(2) IDWTUP NPRUP=1
 *   XSECUP XERRUP XMAXUP LPRUP
 *   <generator name="..." version="..."></generator>
 *   <xsecinfo neve="..." totxsec="..."/>
 *   </init>
 * No XML declaration precedes the root element, as in MadGraph's files (UTF-8 is XML's default). */
typedef struct {
  int beam_pid[2];                                /* IDBMUP: 2212 2212 */
  double beam_energy_gev[2];                      /* EBMUP */
  int pdf_group[2];                               /* PDFGUP: 0 (LHAPDF numbering in PDFSUP) */
  int pdf_set[2];                                 /* PDFSUP: LHAPDF ID, e.g. 10042 */
  int weight_strategy;                            /* IDWTUP: +-1 .. +-4, 3 for unweighted events */
  double xsec_pb, xsec_error_pb, max_weight_pb;   /* XSECUP XERRUP XMAXUP (one process) */
  int process_id;                                 /* LPRUP */
  const char *generator_name, *generator_version; /* LHEF 3.0 <generator> in <init> */
  long long n_events;                             /* <xsecinfo neve=...>, >= 0 */
  double total_xsec_pb;                           /* <xsecinfo totxsec=...> */
  const char *header_name; /* element inside <header> (ASCII XML name, not "xml..."); NULL:
                              none, and header_text must be NULL too */
  const char *header_text; /* its text, XML-escaped; may be NULL */
  const char *comment;     /* an XML comment before <header>; may be NULL */
  const hegetcl_variation_list *variations; /* <initrwgt>; NULL or empty: none */
  /* n_processes > 0: NPRUP process lines instead of the one above, process k with LPRUP k + 1
   * and XSECUP XERRUP XMAXUP from these arrays (a run over a process: one per channel group) */
  unsigned n_processes;
  const double *process_xsec_pb, *process_error_pb, *process_max_weight_pb;
} hg_lhef_init;

/* One event: HEPEUP. lifetime and spin may be NULL: VTIMUP 0 and SPINUP 9 (not known), LHEF's
 * own values for "not given"; the other arrays must hold n_particles entries. */
typedef struct {
  int n_particles;                        /* NUP >= 1 */
  int process_id;                         /* IDPRUP */
  double weight;                          /* XWGTUP (pb) */
  double scale_gev, alpha_qed, alpha_qcd; /* SCALUP AQEDUP AQCDUP */
  const int *pid, *status;                /* IDUP ISTUP (-1, 1, -2, 2, 3 or -9) */
  const int (*mothers)[2], (*colours)[2]; /* MOTHUP (0 .. NUP) ICOLUP */
  const double (*momentum)[5];            /* PUP: px py pz E m (GeV) */
  const double *lifetime, *spin;          /* VTIMUP (mm) SPINUP */
  /* n_weights > 0: <rwgt> with <wgt id='ids->v[k].id'> weights[k] </wgt> (pb) after the
   * particles; ids must hold at least n_weights variations */
  unsigned n_weights;
  const double *weights;
  const hegetcl_variation_list *ids;
} hg_lhef_event;

/* Numbers: integers in fixed-width %d columns; every real as %+.16e (17 significant digits,
 * which read back as the same double, C's DBL_DECIMAL_DIG), in columns 23 wide while exponents
 * have two digits. Each function checks its whole input before writing any of it: a NaN or
 * infinity is refused with HEGETCL_ERR_NONFINITE, another bad value with HEGETCL_ERR_INPUT, the
 * message (hg_output_message) naming the field, and the failure is sticky on o (output_file.h). */

/* Writes <LesHouchesEvents version="3.0">, the comment, <header> and <init> (layout above). */
int hg_lhef_write_init(hg_output *o, const hg_lhef_init *init);

/* Writes one <event> block: the HEPEUP line, then one line per particle. */
int hg_lhef_write_event(hg_output *o, const hg_lhef_event *event);
/* The two halves of hg_lhef_write_event: the checks (recorded on o), and the text of an event
 * that passed them, into t (any thread). */
int hg_lhef_check_event(hg_output *o, const hg_lhef_event *event);
void hg_lhef_format_event(hg_text *t, const hg_lhef_event *event);

/* Writes </LesHouchesEvents>. */
int hg_lhef_write_end(hg_output *o);

#endif
