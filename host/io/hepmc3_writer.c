/* SPDX-License-Identifier: MIT */
/* HepMC3 ASCII (version 3) records of events (layout in hepmc3_writer.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/status.h"
#include "io/hepmc3_writer.h"

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
  hg_output_printf(o, "E %llu 3 %u\nU GEV MM\nW", (unsigned long long)e->number, np + 2);
  for (unsigned k = 0; k < n_weights; ++k) hg_output_printf(o, REAL, weights[k]);
  hg_output_printf(o, "\nA 0 GenCrossSection" REAL REAL " %lld %lld\n", beams->sigma_pb,
                   beams->sigma_error_pb, beams->accepted, beams->attempted);
  hg_output_printf(o, "A 0 GenPdfInfo %d %d" REAL REAL REAL " 0 0 %d %d\n", e->pid[0], e->pid[1],
                   e->x1, e->x2, e->mu_f_gev, beams->pdf_lhapdf_id, beams->pdf_lhapdf_id);
  hg_output_printf(o,
                   "A 0 alphaQCD" REAL "\nA 0 alphaQED" REAL "\nA 0 event_scale" REAL
                   "\nA 0 signal_process_id %d\n",
                   e->alpha_s, e->alpha_qed, e->mu_f_gev, e->process_id);
  for (int b = 0; b < 2; ++b) {
    const double pz = b == 0 ? beams->beam_energy_gev[0] : -beams->beam_energy_gev[1];
    hg_output_printf(o, "P %d 0 %d" REAL REAL REAL REAL REAL " 4\n", b + 1, beams->beam_pid[b], 0.0,
                     0.0, pz, beams->beam_energy_gev[b], 0.0);
  }
  for (unsigned i = 0; i < np; ++i) {
    if (i < 2) hg_output_printf(o, "V %d 0 [%u]\n", -(int)i - 1, i + 1);
    if (i == 2) hg_output_printf(o, "V -3 0 [3,4]\n");
    const double *p = e->p[i];
    hg_output_printf(o, "P %u %d %d" REAL REAL REAL REAL REAL " %d\n", i + 3,
                     i < 2 ? -(int)i - 1 : -3, e->pid[i], p[1], p[2], p[3], p[0], e->mass[i],
                     hepmc_status(e->status[i]));
  }
  return hg_output_status(o);
}

int hg_hepmc3_write_end(hg_output *o) {
  return hg_output_printf(o, "HepMC::Asciiv3-END_EVENT_LISTING\n\n");
}
