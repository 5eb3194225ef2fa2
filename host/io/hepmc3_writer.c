/* SPDX-License-Identifier: MIT */
/* HepMC3 ASCII (version 3) records of events (layout in hepmc3_writer.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/status.h"
#include "io/format_real.h"
#include "io/hepmc3_writer.h"

/* every real as " %.16e" (17 significant digits) */
#define REAL " %.16e"

/* text with HepMC3's ASCII escapes: a backslash doubled, a line feed written "\|". */
static int write_escaped(hg_output *o, const char *text) {
  const char *run = text;
  for (const char *p = text;; ++p) {
    const char *escape = *p == '\\' ? "\\\\" : *p == '\n' ? "\\|" : NULL;
    if (escape == NULL && *p != '\0') continue;
    hg_output_write(o, run, (size_t)(p - run));
    if (*p == '\0') break;
    hg_output_write(o, escape, 2);
    run = p + 1;
  }
  return hg_output_status(o);
}

int hg_hepmc3_write_header(hg_output *o, const hg_hepmc3_run *run) {
  if (hg_output_status(o) != 0) return hg_output_status(o);
  hg_output_check_text(o, "HepMC3 tool description", run->tool_description, 0);
  hg_output_check_text(o, "HepMC3 run card", run->run_card, 1);
  for (unsigned k = 0; k < run->n_weights; ++k) {
    const char *name = run->weight_names[k];
    if (name == NULL || name[0] == '\0' || strpbrk(name, " \t\r\n\\") != NULL)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "HepMC3 weight name %u is empty or holds white space or a backslash",
                            k + 1);
  }
  if (hg_output_status(o) != 0) return hg_output_status(o);
  hg_output_printf(o, "HepMC::Version 3.02.06\nHepMC::Asciiv3-START_EVENT_LISTING\n");
  if (run->n_weights > 0) {
    hg_output_printf(o, "W %s", run->weight_names[0]);
    for (unsigned k = 1; k < run->n_weights; ++k)
      hg_output_printf(o, "\\|%s", run->weight_names[k]);
    hg_output_printf(o, "\n");
  }
  hg_output_printf(o, "T ");
  write_escaped(o, run->tool_name);
  hg_output_printf(o, "\\|");
  write_escaped(o, run->tool_version);
  hg_output_printf(o, "\\|");
  write_escaped(o, run->tool_description != NULL ? run->tool_description : "");
  hg_output_printf(o, "\n");
  if (run->run_card != NULL) {
    hg_output_printf(o, "A hegetcl_run_card ");
    write_escaped(o, run->run_card);
    hg_output_printf(o, "\n");
  }
  return hg_output_status(o);
}

/* HepMC3 status of a Les Houches one. */
static int hepmc_status(int lhe_status) {
  switch (lhe_status) {
  case -1:
    return 21;
  case 2:
    return 22;
  default:
    return lhe_status;
  }
}

int hg_hepmc3_write_event(hg_output *o, const hegetcl_event *e, const hg_hepmc3_beams *beams,
                          unsigned n_weights, const double *weights) {
  if (hg_hepmc3_check_event(o, e, n_weights, weights) != 0) return hg_output_status(o);
  hg_text t = {.out = o};
  hg_hepmc3_format_event(&t, e, beams, n_weights, weights);
  return hg_text_flush(&t);
}

int hg_hepmc3_check_event(hg_output *o, const hegetcl_event *e, unsigned n_weights,
                          const double *weights) {
  if (hg_output_status(o) != 0) return hg_output_status(o);
  const unsigned np = e->n_particles;
  unsigned incoming = 0;
  for (unsigned i = 0; i < np; ++i) incoming += e->status[i] == -1;
  if (np > HEGETCL_EVENT_MAX_PARTICLES || np < 3 || incoming != 2 || e->status[0] != -1 ||
      e->status[1] != -1)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "HepMC3 event %llu: %u particles with %u incoming: the writer takes two "
                          "incoming partons first, then at least one outgoing particle",
                          (unsigned long long)e->number, np, incoming);
  for (unsigned k = 0; k < n_weights; ++k)
    if (!isfinite(weights[k]))
      return hg_output_fail(o, HEGETCL_ERR_NONFINITE, "HepMC3 event %llu: weight %u is %g",
                            (unsigned long long)e->number, k, weights[k]);
  const double reals[5] = {e->x1, e->x2, e->mu_f_gev, e->alpha_s, e->alpha_qed};
  int finite = 1;
  for (int k = 0; k < 5; ++k) finite &= isfinite(reals[k]) != 0;
  for (unsigned i = 0; i < np; ++i)
    for (int c = 0; c < 4; ++c) finite &= isfinite(e->p[i][c]) != 0;
  for (unsigned i = 0; i < np; ++i) finite &= isfinite(e->mass[i]) != 0;
  if (!finite)
    return hg_output_fail(o, HEGETCL_ERR_NONFINITE,
                          "HepMC3 event %llu: a momentum, mass, x, scale or coupling is not "
                          "finite: a non-finite number cannot be written",
                          (unsigned long long)e->number);
  return 0;
}

void hg_hepmc3_format_event(hg_text *t, const hegetcl_event *e, const hg_hepmc3_beams *beams,
                            unsigned n_weights, const double *weights) {
  const unsigned np = e->n_particles;
  /* the lines below are built without printf (io/format_real.h), REAL's text exactly */
  HG_TEXT_LITERAL(t, "E ");
  hg_text_int(t, (long long)e->number, 0);
  HG_TEXT_LITERAL(t, " 3 ");
  hg_text_int(t, np + 2, 0);
  HG_TEXT_LITERAL(t, "\nU GEV MM\nW");
  for (unsigned k = 0; k < n_weights; ++k) hg_text_real(t, weights[k], 0);
  HG_TEXT_LITERAL(t, "\nA 0 GenCrossSection");
  hg_text_real(t, beams->sigma_pb, 0);
  hg_text_real(t, beams->sigma_error_pb, 0);
  HG_TEXT_LITERAL(t, " ");
  hg_text_int(t, beams->accepted, 0);
  HG_TEXT_LITERAL(t, " ");
  hg_text_int(t, beams->attempted, 0);
  HG_TEXT_LITERAL(t, "\nA 0 GenPdfInfo ");
  hg_text_int(t, e->pid[0], 0);
  HG_TEXT_LITERAL(t, " ");
  hg_text_int(t, e->pid[1], 0);
  hg_text_real(t, e->x1, 0);
  hg_text_real(t, e->x2, 0);
  hg_text_real(t, e->mu_f_gev, 0);
  HG_TEXT_LITERAL(t, " 0 0 ");
  hg_text_int(t, beams->pdf_lhapdf_id, 0);
  HG_TEXT_LITERAL(t, " ");
  hg_text_int(t, beams->pdf_lhapdf_id, 0);
  HG_TEXT_LITERAL(t, "\nA 0 alphaQCD");
  hg_text_real(t, e->alpha_s, 0);
  HG_TEXT_LITERAL(t, "\nA 0 alphaQED");
  hg_text_real(t, e->alpha_qed, 0);
  HG_TEXT_LITERAL(t, "\nA 0 event_scale");
  hg_text_real(t, e->mu_f_gev, 0);
  HG_TEXT_LITERAL(t, "\nA 0 signal_process_id ");
  hg_text_int(t, e->process_id, 0);
  HG_TEXT_LITERAL(t, "\n");
  for (int b = 0; b < 2; ++b) {
    const double pz = b == 0 ? beams->beam_energy_gev[0] : -beams->beam_energy_gev[1];
    HG_TEXT_LITERAL(t, "P ");
    hg_text_int(t, b + 1, 0);
    HG_TEXT_LITERAL(t, " 0 ");
    hg_text_int(t, beams->beam_pid[b], 0);
    const double p[5] = {0.0, 0.0, pz, beams->beam_energy_gev[b], 0.0};
    for (int c = 0; c < 5; ++c) hg_text_real(t, p[c], 0);
    HG_TEXT_LITERAL(t, " 4\n");
  }
  for (unsigned i = 0; i < np; ++i) {
    if (i < 2) {
      hg_text_put(t, i == 0 ? "V -1 0 [1]\n" : "V -2 0 [2]\n", 11);
    } else if (i == 2) {
      HG_TEXT_LITERAL(t, "V -3 0 [3,4]\n");
    }
    HG_TEXT_LITERAL(t, "P ");
    hg_text_int(t, i + 3, 0);
    HG_TEXT_LITERAL(t, " ");
    hg_text_int(t, i < 2 ? -(int)i - 1 : -3, 0);
    HG_TEXT_LITERAL(t, " ");
    hg_text_int(t, e->pid[i], 0);
    const double *p = e->p[i];
    const double column[5] = {p[1], p[2], p[3], p[0], e->mass[i]};
    for (int c = 0; c < 5; ++c) hg_text_real(t, column[c], 0);
    HG_TEXT_LITERAL(t, " ");
    hg_text_int(t, hepmc_status(e->status[i]), 0);
    HG_TEXT_LITERAL(t, "\n");
  }
}

int hg_hepmc3_write_end(hg_output *o) {
  return hg_output_printf(o, "HepMC::Asciiv3-END_EVENT_LISTING\n\n");
}
