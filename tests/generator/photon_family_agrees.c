/* SPDX-License-Identifier: MIT */
/* The photon family through the process sampler and through its own (the run object's photon
 * group, host/xsec/photon_family.c): p p > a a (--process, the partonic channels u u~, c c~,
 * d d~, s s~ and their mirrors in two groups, the photon cuts pta, etaa, draa) against --n 2 with
 * the flavours d, u, s, c in both orientations (pt-min, eta-max, dr-min; |M|^2 once per event
 * scaled by (Q_q / Q_u)^4), the same cuts, scale and PDF set: two independent samplers, phase-space
 * maps and amplitude paths. sigma and the up-type and down-type sums agree within 3 combined
 * standard deviations (docs/generator.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "test_support.h"

static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

static void settings(hegetcl_xsec_config *c) {
  c->mu_f_gev = c->mu_r_gev = 20.0;
  c->vegas.adapt_iterations = 4;
  c->vegas.adapt_events = 200000;
  c->vegas.events_per_iteration = 300000;
  c->vegas.min_iterations = c->vegas.max_iterations = 4;
  c->vegas.target_rel_error = 0.0;
  c->vegas.batch_size = 65536;
  c->vegas.seed = 3;
}

static void pull(const char *what, double a, double da, double b, double db) {
  const double z = (a - b) / sqrt(da * da + db * db);
  print_message("# %s: process run %.6e +- %.2e fb, photon run %.6e +- %.2e fb, pull %+.2f\n", what,
                a, da, b, db, z);
  if (!(fabs(z) < 3.0))
    fail_msg("%s: %.6e +- %.2e fb against the photon run's %.6e +- %.2e fb (%.2f standard "
             "deviations)",
             what, a, da, b, db, z);
}

static void p_p_to_two_photons_agrees_with_the_photon_pipeline(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config photons, process;
  hegetcl_xsec_defaults(&photons, 2);
  settings(&photons);
  photons.flavours = HEGETCL_FLAVOUR_BIT(1) | HEGETCL_FLAVOUR_BIT(2) | HEGETCL_FLAVOUR_BIT(3) |
                     HEGETCL_FLAVOUR_BIT(4);
  photons.orientation = HEGETCL_ORIENTATION_BOTH;
  photons.pt_min_gev = 20.0;
  photons.eta_max = 2.5;
  photons.delta_r_min = 0.4;
  hegetcl_xsec_defaults(&process, 2);
  settings(&process);
  snprintf(process.process_text, sizeof process.process_text, "%s", "p p > a a");
  process.dynamical_scale_choice = 0;
  hg_mg_cuts_off(process.cuts);
  process.cuts[HG_CUT_PTA] = 20.0;
  process.cuts[HG_CUT_ETAA] = 2.5;
  process.cuts[HG_CUT_DRAA] = 0.4;
  hegetcl_xsec_result a, b;
  if (hegetcl_xsec_run(ctx, &process, NULL, NULL, &a) != HEGETCL_OK)
    fail_msg("p p > a a: %s", hegetcl_last_error(ctx));
  if (hegetcl_xsec_run(ctx, &photons, NULL, NULL, &b) != HEGETCL_OK)
    fail_msg("--n 2: %s", hegetcl_last_error(ctx));
  pull("sigma", a.vegas.estimate, a.vegas.error, b.vegas.estimate, b.vegas.error);
  /* up type (u, c) and down type (d, s): the groups against the flavour channels' sums */
  double up[2] = {0, 0}, down[2] = {0, 0}, up_p[2] = {0, 0}, down_p[2] = {0, 0};
  for (unsigned g = 0; g < a.n_groups; ++g) {
    double *x = strncmp(a.groups[g].text, "u u~", 4) == 0 ? up : down;
    x[0] += a.groups[g].sigma_fb;
    x[1] += a.groups[g].error_fb * a.groups[g].error_fb;
  }
  for (unsigned k = 0; k < b.n_channels; ++k) {
    const int pid = b.channels[k].pid[0] > 0 ? b.channels[k].pid[0] : -b.channels[k].pid[0];
    double *x = pid % 2 == 0 ? up_p : down_p;
    x[0] += b.channels[k].sigma_fb;
    /* the channels of one event are correlated: their errors add linearly at most */
    x[1] += b.channels[k].error_fb;
  }
  if (a.n_groups != 2) fail_msg("p p > a a: %u groups, 2 expected", a.n_groups);
  pull("u u~, c c~ (both orientations)", up[0], sqrt(up[1]), up_p[0], up_p[1]);
  pull("d d~, s s~ (both orientations)", down[0], sqrt(down[1]), down_p[0], down_p[1]);
  hegetcl_xsec_result_free(&a);
  hegetcl_xsec_result_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(p_p_to_two_photons_agrees_with_the_photon_pipeline),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
