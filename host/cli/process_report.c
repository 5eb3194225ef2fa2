/* SPDX-License-Identifier: MIT */
/* The terminal and JSON report of a run over a process. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/process_report.h"
#include "phasespace/mg_cuts.h"
#include "phasespace/scales.h"

const char *hg_cli_cuts_text(const hegetcl_xsec_config *c) {
  static _Thread_local char text[1024];
  hg_mg_cuts_print(c->cuts, text, sizeof text);
  return text;
}

const char *hg_cli_scales_text(const hegetcl_xsec_config *c) {
  static _Thread_local char text[256];
  if (c->dynamical_scale_choice == 0) {
    snprintf(text, sizeof text, "mu_R = %g GeV, mu_F = %g GeV", c->mu_r_gev * c->mu_r_factor,
             c->mu_f_gev * c->mu_f_factor);
  } else {
    const hg_scale_choice_info *info = hg_scale_choice_find(c->dynamical_scale_choice);
    snprintf(text, sizeof text, "mu = %s (dynamical_scale_choice %d), mu_R x %g, mu_F x %g",
             info ? info->description : "?", c->dynamical_scale_choice, c->mu_r_factor,
             c->mu_f_factor);
  }
  return text;
}

void hg_cli_print_variations(const hegetcl_xsec_result *r) {
  const hegetcl_variation_result *u = r->variations;
  if (u == NULL) return;
  const double sigma = r->vegas.estimate;
  if (u->n_scales > 0)
    printf("  scale uncertainty (%u-point envelope of mu_R, mu_F x {1/2, 1, 2}): %+.6e %+.6e fb "
           "(%+.1f%% %+.1f%%)\n",
           u->n_scales, u->scale_max_fb - sigma, u->scale_min_fb - sigma,
           100.0 * (u->scale_max_fb - sigma) / sigma, 100.0 * (u->scale_min_fb - sigma) / sigma);
  if (u->n_pdf > 1)
    printf("  PDF uncertainty (%s, %u members, %s): +- %.6e fb (%.1f%%)\n",
           u->list.v[u->first_pdf].group, u->n_pdf, u->pdf_error_type, u->pdf_error_fb,
           100.0 * u->pdf_error_fb / sigma);
  else if (strcmp(u->pdf_error_type, "none") == 0)
    printf("  PDF uncertainty: none (the set has no error members: NumMembers 1)\n");
  for (unsigned k = u->first_alt; k < u->first_alt + u->n_alt; ++k)
    printf("  alternative PDF set %s (member 0): %.6e +- %.2e fb (%+.1f%%)\n", u->list.v[k].group,
           u->sigma_fb[k], u->error_fb[k], 100.0 * (u->sigma_fb[k] - sigma) / sigma);
}

void hg_cli_variations_json(hg_json *j, const hegetcl_xsec_result *r) {
  const hegetcl_variation_result *u = r->variations;
  if (u == NULL) return;
  if (u->n_scales > 0) {
    hg_json_number(j, "scale_min_fb", u->scale_min_fb);
    hg_json_number(j, "scale_max_fb", u->scale_max_fb);
  }
  if (u->n_pdf > 1) {
    hg_json_string(j, "pdf_error_type", u->pdf_error_type);
    hg_json_number(j, "pdf_error_fb", u->pdf_error_fb);
  }
  hg_json_array(j, "variations");
  for (unsigned k = 0; k < u->list.n; ++k) {
    const hegetcl_variation *x = &u->list.v[k];
    hg_json_object(j, NULL);
    hg_json_string(j, "id", x->id);
    hg_json_string(j, "group", x->group);
    hg_json_number(j, "mu_r_factor", x->mu_r_factor);
    hg_json_number(j, "mu_f_factor", x->mu_f_factor);
    hg_json_int(j, "pdf_lhapdf_id", x->pdf_lhapdf_id);
    hg_json_int(j, "pdf_member", x->pdf_member);
    hg_json_bool(j, "alternative_set", k >= u->first_alt && k < u->first_alt + u->n_alt);
    hg_json_number(j, "sigma_fb", u->sigma_fb[k]);
    hg_json_number(j, "error_fb", u->error_fb[k]);
    hg_json_end_object(j);
  }
  hg_json_end_array(j);
}

void hg_cli_print_process_result(const hegetcl_xsec_config *c, const hegetcl_xsec_result *r,
                                 const char *device, int quiet) {
  const hegetcl_vegas_result *v = &r->vegas;
  printf("sigma(%s) = %.6e +- %.2e fb  (%.3f%%, chi2/dof %.2f, %llu events + %llu adapting, "
         "%.2f s integrating, %.2f s building, %s)%s\n",
         c->process_text, v->estimate, v->error, 100.0 * v->error / fabs(v->estimate),
         v->chi2_per_dof, (unsigned long long)v->events,
         (unsigned long long)(v->events_total - v->events), v->wall_seconds, r->build_seconds,
         device,
         v->reached_target || !(c->vegas.target_rel_error > 0)
             ? ""
             : "  [target error NOT reached: raise --max-events]");
  if (quiet) return; /* --quiet: the result line alone (the rest is in the JSON) */
  hg_cli_print_variations(r);
  if (r->alpha_s_mu_r > 0.0)
    printf("  alpha_s(mu_R) = %.7f, |M|^2 ~ alpha_s^%u\n", r->alpha_s_mu_r, r->alpha_s_power);
  for (unsigned g = 0; g < r->n_groups; ++g) {
    const hegetcl_xsec_group *gr = &r->groups[g];
    printf("  group %-24s %.6e +- %.2e fb  (%6.3f%% of sigma, %u channels, chi2/dof %.2f, "
           "unweighting efficiency %.3g, %u phase-space channels)\n",
           gr->text, gr->sigma_fb, gr->error_fb, 100.0 * gr->sigma_fb / v->estimate, gr->n_channels,
           gr->chi2_per_dof, gr->unweighting_efficiency, gr->phase_space_channels);
  }
  if (c->unweighted_events > 0) {
    const hegetcl_unweighting_result *u = &r->unweighting;
    printf("  %llu unweighted events from %llu tried (efficiency %.3g; %llu sampled in %llu "
           "batches), %.2f s; %llu above their group's maximum (%.2g of sigma); sigma from the "
           "pass %.6e fb\n",
           (unsigned long long)u->written, (unsigned long long)u->tried, u->efficiency,
           (unsigned long long)u->sampled, (unsigned long long)u->batches, u->seconds,
           (unsigned long long)u->overweight, u->overweight_sigma_fraction, u->sigma_check_fb);
  }
  if (r->n_process_channels > 40) {
    printf("  (%u channels: sigma per channel in the JSON, --json FILE)\n", r->n_process_channels);
    return;
  }
  for (unsigned k = 0; k < r->n_process_channels; ++k) {
    const hegetcl_xsec_process_channel *ch = &r->process_channels[k];
    printf("    channel %-22s %.6e +- %.2e fb\n", ch->text, ch->sigma_fb, ch->error_fb);
  }
}

void hg_cli_process_json(hg_json *j, const hegetcl_xsec_config *c, const hegetcl_xsec_result *r,
                         const hegetcl_device_info *info) {
  hg_json_object(j, "process");
  hg_json_string(j, "name", c->process_text);
  hg_json_string(j, "beams", c->beams == HEGETCL_BEAMS_PP ? "p p" : "p p~");
  hg_json_bool(j, "five_flavour", c->five_flavour);
  hg_json_uint(j, "alpha_s_power", r->alpha_s_power);
  hg_json_end_object(j);
  hg_json_object(j, "setup");
  hg_json_number(j, "sqrt_s_gev", c->sqrt_s_gev);
  hg_json_number(j, "mu_r_gev", c->mu_r_gev * c->mu_r_factor);
  hg_json_number(j, "mu_f_gev", c->mu_f_gev * c->mu_f_factor);
  hg_json_int(j, "dynamical_scale_choice", c->dynamical_scale_choice);
  hg_json_string(j, "alpha_s_running",
                 c->alpha_s_running == HEGETCL_ALPHA_S_PDF ? "pdf" : "madgraph");
  hg_json_number(j, "alpha_s_mu_r", r->alpha_s_mu_r);
  hg_json_string(j, "pdf_set", c->pdf_set);
  hg_json_int(j, "pdf_member", c->pdf_member);
  hg_json_int(j, "pdf_lhapdf_id", r->pdf_lhapdf_id);
  hg_json_string(j, "pdf_path", r->pdf_path);
  hg_json_uint(j, "seed", c->vegas.seed);
  hg_json_end_object(j);
  hg_json_object(j, "cuts");
  for (int k = 0; k < HG_CUT_COUNT; ++k)
    if (hg_mg_cut_is_on(k, c->cuts[k])) hg_json_number(j, hg_mg_cut_info_at(k)->name, c->cuts[k]);
  hg_json_end_object(j);
  hg_json_object(j, "device");
  hg_json_string(j, "name", info->name);
  hg_json_string(j, "platform", info->platform);
  hg_json_string(j, "driver", info->driver_version);
  hg_json_end_object(j);
  const hegetcl_vegas_result *v = &r->vegas;
  hg_json_object(j, "result");
  hg_json_number(j, "sigma_fb", v->estimate);
  hg_json_number(j, "error_fb", v->error);
  hg_json_number(j, "chi2_per_dof", v->chi2_per_dof);
  hg_json_uint(j, "events", v->events);
  hg_json_uint(j, "events_total", v->events_total);
  hg_json_uint(j, "events_nonzero", v->events_nonzero);
  hg_cli_variations_json(j, r);
  hg_json_number(j, "integration_seconds", v->wall_seconds);
  hg_json_number(j, "build_seconds", r->build_seconds);
  hg_json_end_object(j);
  hg_json_object(j, "stage_seconds");
  hg_json_number(j, "build", r->build_seconds);
  hg_json_number(j, "pilot", r->pilot_seconds);
  hg_json_number(j, "integration", r->integrate_seconds);
  hg_json_number(j, "unweighting_device", r->unweight_device_seconds);
  hg_json_number(j, "hit_or_miss", r->unweight_mark_seconds);
  hg_json_number(j, "kept_transfer", r->unweight_transfer_seconds);
  hg_json_number(j, "colour_flows", r->flows_seconds);
  hg_json_number(j, "variation_weights", r->variation_seconds);
  hg_json_number(j, "records", r->record_seconds);
  hg_json_number(j, "writing", r->write_seconds);
  hg_json_number(j, "unweighting_host", r->unweight_host_seconds);
  hg_json_end_object(j);
  if (c->unweighted_events > 0) {
    const hegetcl_unweighting_result *u = &r->unweighting;
    hg_json_object(j, "unweighting");
    hg_json_uint(j, "requested", u->requested);
    hg_json_uint(j, "written", u->written);
    hg_json_uint(j, "tried", u->tried);
    hg_json_uint(j, "sampled", u->sampled);
    hg_json_uint(j, "batches", u->batches);
    hg_json_number(j, "efficiency", u->efficiency);
    hg_json_uint(j, "overweight_events", u->overweight);
    hg_json_number(j, "overweight_sigma_fraction", u->overweight_sigma_fraction);
    hg_json_number(j, "sigma_from_the_pass_fb", u->sigma_check_fb);
    hg_json_number(j, "seconds", u->seconds);
    hg_json_string(j, "colour_flows", "leading colour, drawn by |J_k|^2 of the flows");
    hg_json_string(j, "helicities", "drawn per event by |M_h|^2 of the configurations (SPINUP)");
    hg_json_end_object(j);
  }
  hg_json_array(j, "groups");
  for (unsigned g = 0; g < r->n_groups; ++g) {
    hg_json_object(j, NULL);
    hg_json_string(j, "process", r->groups[g].text);
    hg_json_uint(j, "channels", r->groups[g].n_channels);
    hg_json_number(j, "sigma_fb", r->groups[g].sigma_fb);
    hg_json_number(j, "error_fb", r->groups[g].error_fb);
    hg_json_number(j, "chi2_per_dof", r->groups[g].chi2_per_dof);
    hg_json_uint(j, "events", r->groups[g].events);
    hg_json_number(j, "unweighting_efficiency", r->groups[g].unweighting_efficiency);
    hg_json_number(j, "colour_flows_seconds", r->groups[g].flows_seconds);
    if (c->unweighted_events > 0) {
      hg_json_object(j, "unweighting");
      hg_json_uint(j, "events", r->groups[g].unweighted_events);
      hg_json_uint(j, "tried", r->groups[g].unweighting_tried);
      hg_json_uint(j, "sampled", r->groups[g].unweighting_sampled);
      hg_json_uint(j, "batches", r->groups[g].unweighting_batches);
      hg_json_end_object(j);
    }
    hg_json_array(j, "phase_space_channel_weights");
    for (unsigned c = 0; c < r->groups[g].phase_space_channels; ++c)
      hg_json_number(j, NULL, r->groups[g].channel_weights[c]);
    hg_json_end_array(j);
    hg_json_end_object(j);
  }
  hg_json_end_array(j);
  hg_json_array(j, "channels");
  for (unsigned k = 0; k < r->n_process_channels; ++k) {
    hg_json_object(j, NULL);
    hg_json_string(j, "process", r->process_channels[k].text);
    hg_json_uint(j, "group", r->process_channels[k].group);
    hg_json_number(j, "sigma_fb", r->process_channels[k].sigma_fb);
    hg_json_number(j, "error_fb", r->process_channels[k].error_fb);
    hg_json_end_object(j);
  }
  hg_json_end_array(j);
}

void hg_cli_print_reference(const hg_xsec_reference *ref, double sigma_fb, double error_fb) {
  const double sigma = 1e-3 * sigma_fb, error = 1e-3 * error_fb;
  char from[700];
  if (ref->generator[0] != '\0')
    snprintf(from, sizeof from, "%s, %s", ref->generator, ref->source);
  else
    snprintf(from, sizeof from, "%s", ref->source);
  printf("  compared with %.6g +- %.2g pb (%s): this run %.6g +- %.2g pb, difference %+.3g pb "
         "(%+.3f%%), pull %+.2f%s\n",
         ref->sigma_pb, ref->error_pb, from, sigma, error, sigma - ref->sigma_pb,
         100.0 * (sigma - ref->sigma_pb) / ref->sigma_pb,
         hg_xsec_reference_pull(ref, sigma, error),
         ref->error_pb > 0.0 ? "" : " (against this run's error alone)");
}

void hg_cli_reference_json(hg_json *j, const hg_xsec_reference *ref, double sigma_fb,
                           double error_fb) {
  hg_json_object(j, "compared_with");
  hg_json_string(j, "source", ref->source);
  hg_json_string(j, "generator", ref->generator);
  hg_json_number(j, "sigma_pb", ref->sigma_pb);
  hg_json_number(j, "error_pb", ref->error_pb);
  hg_json_number(j, "pull", hg_xsec_reference_pull(ref, 1e-3 * sigma_fb, 1e-3 * error_fb));
  hg_json_end_object(j);
}
