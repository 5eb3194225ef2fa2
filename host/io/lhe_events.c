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
/* process lines <init> holds at most (a run's channel groups) */
#define HG_LHE_MAX_PROCESSES 256

hegetcl_status hg_lhe_events_begin(const hegetcl_xsec_result *result, void *user) {
  hg_lhe_events *w = user;
  const hegetcl_xsec_config *c = w->config;
  const double sigma_pb = result->vegas.estimate * HG_PB_PER_FB;
  w->event_weight_pb = sigma_pb / (double)c->unweighted_events;
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
      .variations = w->skip_variations ? NULL : w->variations,
  };
  /* a run over a process: one process line per channel group (IDPRUP = group + 1) */
  double xsec[HG_LHE_MAX_PROCESSES], error[HG_LHE_MAX_PROCESSES], max[HG_LHE_MAX_PROCESSES];
  hg_lhef_init with_groups = init;
  if (result->n_groups > 0 && result->n_groups <= HG_LHE_MAX_PROCESSES) {
    for (unsigned g = 0; g < result->n_groups; ++g) {
      xsec[g] = result->groups[g].sigma_fb * HG_PB_PER_FB;
      error[g] = result->groups[g].error_fb * HG_PB_PER_FB;
      max[g] = w->event_weight_pb;
    }
    with_groups.n_processes = result->n_groups;
    with_groups.process_xsec_pb = xsec;
    with_groups.process_error_pb = error;
    with_groups.process_max_weight_pb = max;
  }
  if (hg_lhef_write_init(w->out, &with_groups) != 0) {
    snprintf(w->message, sizeof w->message, "%s", hg_output_message(w->out));
    return HEGETCL_ERR_IO;
  }
  return HEGETCL_OK;
}

hegetcl_status hg_lhe_events_record(hg_lhe_events *w, const hegetcl_event *e, hg_lhe_record *r) {
  const int np = (int)e->n_particles;
  if (np > HEGETCL_EVENT_MAX_PARTICLES) {
    snprintf(w->message, sizeof w->message, "event %llu has %d particles, at most %d",
             (unsigned long long)e->number, np, HEGETCL_EVENT_MAX_PARTICLES);
    return HEGETCL_ERR_INPUT;
  }
  for (int i = 0; i < np; ++i) {
    const int incoming = e->status[i] == -1;
    r->mothers[i][0] = incoming ? 0 : 1;
    r->mothers[i][1] = incoming ? 0 : 2;
    r->momentum[i][0] = e->p[i][1];
    r->momentum[i][1] = e->p[i][2];
    r->momentum[i][2] = e->p[i][3];
    r->momentum[i][3] = e->p[i][0];
    r->momentum[i][4] = e->mass[i];
    r->lifetime[i] = 0.0;
    r->spin[i] = e->helicity[i] != 0 ? (double)e->helicity[i] : 9.0;
  }
  const hegetcl_variation_list *ids = w->variations;
  unsigned n_weights = 0;
  if (!w->skip_variations && e->n_variations > 0) {
    if (ids == NULL || e->n_variations != ids->n || e->variations == NULL) {
      snprintf(w->message, sizeof w->message,
               "event %llu carries %u variation weights but the run names %u variations",
               (unsigned long long)e->number, e->n_variations, ids != NULL ? ids->n : 0u);
      return HEGETCL_ERR_INPUT;
    }
    n_weights = e->n_variations;
    for (unsigned k = 0; k < n_weights; ++k) r->weights[k] = w->event_weight_pb * e->variations[k];
  }
  const hg_lhef_event ev = {.n_particles = np,
                            .process_id = e->process_id,
                            .weight = w->event_weight_pb,
                            .scale_gev = e->mu_f_gev,
                            .alpha_qed = e->alpha_qed,
                            .alpha_qcd = e->alpha_s,
                            .pid = e->pid,
                            .status = e->status,
                            .mothers = (const int(*)[2])r->mothers,
                            .colours = e->colour,
                            .momentum = (const double(*)[5])r->momentum,
                            .lifetime = r->lifetime,
                            .spin = r->spin,
                            .n_weights = n_weights,
                            .weights = r->weights,
                            .ids = ids};
  r->event = ev;
  return HEGETCL_OK;
}

hegetcl_status hg_lhe_events_write(const hegetcl_event *e, void *user) {
  hg_lhe_events *w = user;
  hg_lhe_record r;
  const hegetcl_status status = hg_lhe_events_record(w, e, &r);
  if (status != HEGETCL_OK) return status;
  if (hg_lhef_write_event(w->out, &r.event) != 0) {
    snprintf(w->message, sizeof w->message, "%s", hg_output_message(w->out));
    return HEGETCL_ERR_IO;
  }
  return HEGETCL_OK;
}
