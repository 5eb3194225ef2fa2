/* SPDX-License-Identifier: MIT */
/* The photon family as one group of the run object: its sampler is the photon family's programs
 * on every device (host/xsec/photon_family.h, cl/xsec/), with the same Philox keys and counters,
 * VEGAS dimensions, channel weights, helicity modes and flavour channels as a photon run of
 * host/xsec/xsec.c, so that the run object's stages give that run's numbers bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "generator/run_internal.h"
#include "xsec/photon_family.h"

static hg_photon_family *family_of(gen_group *g) { return g->family_state; }

static void photon_prepare(gen_group *g, hg_vegas *v, hg_vegas_work *work) {
  hg_photon_family_prepare(family_of(g), v, work);
}

static hegetcl_status photon_integrated(gen_group *g, hegetcl_status status,
                                        hegetcl_xsec_result *result) {
  hg_photon_family *f = family_of(g);
  if (status != HEGETCL_OK) {
    if (f->channels != NULL) hg_channels_result(f->channels, result->channels);
    return status;
  }
  status = hg_photon_family_integrated(f, result);
  if (status != HEGETCL_OK || hg_vegas_stopped(g->vegas)) return status;
  status = hg_photon_family_float_check(f, g->vegas, result);
  if (status == HEGETCL_OK) status = hg_photon_family_take_histograms(f, result);
  return status;
}

static hegetcl_status photon_unweight(gen_group *g, const hegetcl_xsec_hooks *hooks,
                                      hegetcl_xsec_result *result) {
  hegetcl_status status = HEGETCL_OK;
  if (hooks->events_begin != NULL) status = hooks->events_begin(result, hooks->sink_user);
  hg_unweight_state state;
  memset(&state, 0, sizeof state);
  int stopped = 0;
  const hg_photon_unweighting u = {.vegas = g->vegas, .hooks = hooks};
  return hg_photon_family_unweight(family_of(g), &u, status, result, &stopped, &state);
}

static void photon_close(gen_group *g) {
  hg_photon_family *f = family_of(g);
  if (f == NULL) return;
  hg_photon_family_close(f);
  free(f);
  g->family_state = NULL;
}

static const hg_gen_family_sampler photon_sampler = {.prepare = photon_prepare,
                                                     .integrated = photon_integrated,
                                                     .unweight = photon_unweight,
                                                     .close = photon_close};

hegetcl_status hg_gen_photon_run_create(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                        const hegetcl_xsec_sharing *sharing,
                                        hegetcl_xsec_result *result, hg_gen_run **out) {
  *out = NULL;
  hegetcl_xsec_config resolved;
  hg_photon_family_resolve(config, &resolved);
  hegetcl_status status = hg_photon_family_check(ctx, &resolved, sharing);
  if (status != HEGETCL_OK) return status;
  hg_gen_run *run = calloc(1, sizeof *run);
  gen_group *g = run != NULL ? calloc(1, sizeof *g) : NULL;
  hg_photon_family *f = g != NULL ? malloc(sizeof *f) : NULL;
  if (f == NULL) {
    if (g != NULL) free(g);
    free(run);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the run");
  }
  run->ctx = ctx;
  run->config = resolved;
  run->family_plan = 1;
  run->team = sharing != NULL ? sharing->team : NULL;
  run->groups = g;
  run->n_groups = 1;
  g->run = run;
  g->family = &photon_sampler;
  g->family_state = f;
  *out = run;
  status = hg_photon_family_open(ctx, &run->config, sharing, result, f);
  if (status != HEGETCL_OK) return status;
  g->program = f->devices[0].program;
  g->dims = f->setup.dims;
  run->build_seconds = result->build_seconds;
  return HEGETCL_OK;
}
