/* SPDX-License-Identifier: MIT */
/* Les Houches records of p p -> n photon events. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/hegetcl.h"
#include "io/lhe_events.h"
#include "io/lhef_writer.h"

/* fb -> pb */
#define HG_PB_PER_FB 1e-3

hegetcl_status hg_lhe_events_begin(const hegetcl_xsec_result *result, void *user) {
  hg_lhe_events *w = user;
  const hegetcl_xsec_config *c = w->config;
  const double sigma_pb = result->vegas.estimate * HG_PB_PER_FB;
  w->event_weight_pb = sigma_pb / (double)c->unweighted_events;
  w->alpha_s = result->alpha_s;
  const hg_lhef_init init = {
      .beam_pid = {2212, 2212},
      .beam_energy_gev = {0.5 * c->sqrt_s_gev, 0.5 * c->sqrt_s_gev},
      .pdf_group = {0, 0},
      .pdf_set = {result->pdf_lhapdf_id, result->pdf_lhapdf_id},
      .weight_strategy = 3,
      .xsec_pb = sigma_pb,
      .xsec_error_pb = result->vegas.error * HG_PB_PER_FB,
      .max_weight_pb = w->event_weight_pb,
      .process_id = 1,
      .generator_name = "hegetcl",
      .generator_version = HEGETCL_VERSION,
      .n_events = (long long)(w->share ? w->file_events : c->unweighted_events),
      .total_xsec_pb = sigma_pb,
      .header_name = "hegetcl_run_card",
      .header_text = w->run_card,
      .comment = w->comment,
  };
  if (hg_lhef_write_init(w->out, &init) != 0) {
    snprintf(w->message, sizeof w->message, "%s", hg_output_message(w->out));
    return HEGETCL_ERR_IO;
  }
  return HEGETCL_OK;
}

hegetcl_status hg_lhe_events_write(const hegetcl_event *e, void *user) {
  hg_lhe_events *w = user;
  const int np = (int)e->n_particles;
  int status[HEGETCL_EVENT_MAX_PARTICLES], mothers[HEGETCL_EVENT_MAX_PARTICLES][2];
  int colours[HEGETCL_EVENT_MAX_PARTICLES][2];
  double momentum[HEGETCL_EVENT_MAX_PARTICLES][5], lifetime[HEGETCL_EVENT_MAX_PARTICLES];
  double spin[HEGETCL_EVENT_MAX_PARTICLES];
  for (int i = 0; i < np; ++i) {
    const int incoming = i < 2;
    status[i] = incoming ? -1 : 1;
    mothers[i][0] = incoming ? 0 : 1;
    mothers[i][1] = incoming ? 0 : 2;
    /* colour flows along the quark line: the quark carries colour 501, the antiquark anticolour */
    colours[i][0] = e->pid[i] > 0 && e->pid[i] < 7 ? 501 : 0;
    colours[i][1] = e->pid[i] < 0 ? 501 : 0;
    momentum[i][0] = e->p[i][1];
    momentum[i][1] = e->p[i][2];
    momentum[i][2] = e->p[i][3];
    momentum[i][3] = e->p[i][0];
    momentum[i][4] = 0.0;
    lifetime[i] = 0.0;
    spin[i] = e->helicity[i] != 0 ? (double)e->helicity[i] : 9.0;
  }
  const hg_lhef_event ev = {.n_particles = np,
                            .process_id = 1,
                            .weight = w->event_weight_pb,
                            .scale_gev = w->config->mu_f_gev,
                            .alpha_qed = w->config->process.alpha,
                            .alpha_qcd = w->alpha_s,
                            .pid = e->pid,
                            .status = status,
                            .mothers = (const int(*)[2])mothers,
                            .colours = (const int(*)[2])colours,
                            .momentum = (const double(*)[5])momentum,
                            .lifetime = lifetime,
                            .spin = spin};
  if (hg_lhef_write_event(w->out, &ev) != 0) {
    snprintf(w->message, sizeof w->message, "%s", hg_output_message(w->out));
    return HEGETCL_ERR_IO;
  }
  return HEGETCL_OK;
}
