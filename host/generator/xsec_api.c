/* SPDX-License-Identifier: MIT */
/* The cross-section API (hegetcl/xsec.h): the configuration's defaults, the names of its options'
 * values, the result's release, and the entry to the run object (generator/run.h), which runs a
 * process or the photon family. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/histograms.h"
#include "generator/run.h"
#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"

static const char *const phase_space_names[] = {"collider", "rambo", "multichannel", "auto"};
static const char *const orientation_names[] = {"both", "u-first"};
static const char *const helicity_names[] = {"summed", "sampled", "adaptive"};
/* how many values each enum has: its names, so that a new value is one entry above */
#define N_NAMES(names) ((int)(sizeof names / sizeof names[0]))

static hegetcl_status parse_name(const char *name, const char *const *names, int count, int *out) {
  for (int i = 0; i < count; ++i)
    if (name != NULL && strcmp(name, names[i]) == 0) {
      *out = i;
      return HEGETCL_OK;
    }
  return HEGETCL_ERR_INPUT;
}

const char *hegetcl_phase_space_name(hegetcl_phase_space p) {
  return (unsigned)p < (unsigned)N_NAMES(phase_space_names) ? phase_space_names[p] : "unknown";
}
hegetcl_status hegetcl_phase_space_parse(const char *name, hegetcl_phase_space *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, phase_space_names, N_NAMES(phase_space_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_phase_space)v;
  return s;
}
hegetcl_phase_space hegetcl_phase_space_for(hegetcl_phase_space p, unsigned n_photons) {
  if (p != HEGETCL_PHASE_SPACE_AUTO) return p;
  return n_photons >= HEGETCL_MULTICHANNEL_FROM ? HEGETCL_PHASE_SPACE_MULTICHANNEL
                                                : HEGETCL_PHASE_SPACE_COLLIDER;
}
const char *hegetcl_orientation_name(hegetcl_orientation o) {
  return (unsigned)o < (unsigned)N_NAMES(orientation_names) ? orientation_names[o] : "unknown";
}
hegetcl_status hegetcl_orientation_parse(const char *name, hegetcl_orientation *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, orientation_names, N_NAMES(orientation_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_orientation)v;
  return s;
}
const char *hegetcl_helicity_mode_name(hegetcl_helicity_mode h) {
  return (unsigned)h < (unsigned)N_NAMES(helicity_names) ? helicity_names[h] : "unknown";
}
hegetcl_status hegetcl_helicity_mode_parse(const char *name, hegetcl_helicity_mode *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, helicity_names, N_NAMES(helicity_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_helicity_mode)v;
  return s;
}

static const char *const flavour_names[5] = {"d", "u", "s", "c", "b"};

hegetcl_status hegetcl_flavours_parse(const char *list, unsigned *out) {
  if (list == NULL || list[0] == '\0') return HEGETCL_ERR_INPUT;
  if (strcmp(list, "all") == 0) {
    *out = HEGETCL_ALL_FLAVOURS;
    return HEGETCL_OK;
  }
  unsigned set = 0;
  for (const char *p = list;;) {
    const size_t length = strcspn(p, ",");
    int pid = 0;
    for (int q = 1; q <= 5; ++q)
      if (length == 1 && p[0] == flavour_names[q - 1][0]) pid = q;
    if (pid == 0 || (set & HEGETCL_FLAVOUR_BIT(pid))) return HEGETCL_ERR_INPUT;
    set |= HEGETCL_FLAVOUR_BIT(pid);
    if (p[length] == '\0') break;
    p += length + 1;
  }
  *out = set;
  return HEGETCL_OK;
}

void hegetcl_flavours_name(unsigned flavours, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int q = 1; q <= 5; ++q)
    if (flavours & HEGETCL_FLAVOUR_BIT(q))
      used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%s",
                               used > 0 ? "," : "", flavour_names[q - 1]);
  if (flavours == 0) snprintf(out, size, "%s", "none");
}

void hegetcl_xsec_defaults(hegetcl_xsec_config *c, unsigned n_photons) {
  memset(c, 0, sizeof *c);
  hegetcl_process_defaults(&c->process, n_photons);
  c->quark_pid = 2;
  c->sqrt_s_gev = 14000.0;
  c->mu_f_gev = 20.0;
  c->pt_min_gev = 20.0;
  c->eta_max = 2.5;
  c->delta_r_min = 0.4;
  snprintf(c->pdf_set, sizeof c->pdf_set, "%s", "cteq6l1");
  c->pdf_member = 0;
  c->phase_space = HEGETCL_PHASE_SPACE_AUTO;
  c->orientation = HEGETCL_ORIENTATION_BOTH;
  c->helicity = HEGETCL_HELICITY_SUMMED;
  hegetcl_vegas_settings_defaults(&c->vegas);
  hegetcl_histogram_binning_defaults(&c->binning);
  c->max_unweighting_tries = 1000000000000ull;
  c->mu_r_gev = c->mu_f_gev;
  c->dynamical_scale_choice = 3;
  c->group_engine = -1;
  hg_mg_cuts_off(c->cuts);
  c->mu_r_factor = 1.0;
  c->mu_f_factor = 1.0;
}

void hegetcl_xsec_result_free(hegetcl_xsec_result *result) {
  if (result->variation_histograms != NULL && result->variations != NULL)
    hegetcl_histograms_free(result->variation_histograms,
                            result->variations->list.n * result->n_histograms);
  result->variation_histograms = NULL;
  hegetcl_histograms_free(result->histograms, result->n_histograms);
  result->histograms = NULL;
  result->n_histograms = 0;
  free(result->helicity_probabilities);
  result->helicity_probabilities = NULL;
  result->n_helicity_probabilities = 0;
  free(result->groups);
  result->groups = NULL;
  result->n_groups = 0;
  free(result->process_channels);
  result->process_channels = NULL;
  result->n_process_channels = 0;
  free(result->variations);
  result->variations = NULL;
}

hegetcl_status hegetcl_xsec_run(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                hegetcl_vegas_progress progress, void *progress_user,
                                hegetcl_xsec_result *result) {
  const hegetcl_xsec_hooks hooks = {.progress = progress, .progress_user = progress_user};
  return hegetcl_xsec_generate(ctx, config, &hooks, result);
}

hegetcl_status hegetcl_xsec_generate(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                     const hegetcl_xsec_hooks *hooks, hegetcl_xsec_result *result) {
  memset(result, 0, sizeof *result);
  return hg_gen_generate(ctx, config, hooks, result);
}
