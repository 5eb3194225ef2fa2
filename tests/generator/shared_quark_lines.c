/* SPDX-License-Identifier: MIT */
/* A process run's channel groups that the quark-line recursion computes share one program: the
 * run of p p > t t~ j (its groups q q~ > t t~ g and q g > t t~ q, with their mirrors, are
 * quark-line groups; g g > t t~ g is the colour-ordered kernels') builds exactly one program of
 * amplitudes/flow_recursion.cl, though every group's tape differs; and the |M|^2 of two of the
 * groups through that shared program equals their own amplitudes built alone (programs of their
 * own capacities and vertex kinds) to 1e-15 at seeded RAMBO points, and so do those programs with
 * the tape in global rather than constant memory (HEGETCL_FR_TAPE=global; large tapes take it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../amplitudes/qcd_points.h"
#include "amplitude/amplitude_internal.h"
#include "core/context.h"
#include "generator/helicities.h"
#include "generator/run_internal.h"
#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "process/process_spec.h"
#include "test_support.h"

#define POINTS 16
#define CHECKED 2 /* groups compared with their own programs */

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

/* The context's programs whose sources end in file. */
static unsigned programs_of(const char *file) {
  char tail[256];
  snprintf(tail, sizeof tail, "|%s", file);
  unsigned n = 0;
  for (size_t i = 0; i < ctx->n_programs; ++i) {
    const char *key = ctx->programs[i].key;
    const size_t length = strlen(key), t = strlen(tail);
    n += length >= t && strcmp(key + length - t, tail) == 0;
  }
  return n;
}

static void test_one_program_for_the_quark_line_groups(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const unsigned before = programs_of("amplitudes/flow_recursion.cl");
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", "p p > t t~ j");
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.cuts[HG_CUT_PTJ] = 50.0;
  c.cuts[HG_CUT_ETAJ] = 5.0;
  c.vegas.batch_size = 1024;
  hg_gen_run *run = NULL;
  TS_ASSERT_OK(ctx, hg_gen_run_create(ctx, &c, &run));
  unsigned quark_line_groups = 0, checked = 0;
  for (unsigned g = 0; g < run->n_groups; ++g)
    quark_line_groups += hg_recursive_uses_flows(&run->groups[g].spec);
  const unsigned programs = programs_of("amplitudes/flow_recursion.cl") - before;
  printf("# p p > t t~ j: %u groups, %u of the quark-line recursion, %u program(s) of it\n",
         run->n_groups, quark_line_groups, programs);
  if (programs != 1)
    fail_msg("p p > t t~ j: its %u quark-line groups built %u programs of the recursion, not one",
             quark_line_groups, programs);
  /* the helicity draw of kept events takes its group's program too: no build in the unweighting */
  for (unsigned g = 0; g < run->n_groups; ++g) {
    if (!hg_recursive_uses_flows(&run->groups[g].spec)) continue;
    hg_gen_helicities h;
    TS_ASSERT_OK(ctx, hg_gen_helicities_open(ctx, &run->groups[g].amp->process, &run->fr_shape, &h));
    assert_true(h.amp->program == run->groups[g].amp->program);
    hg_gen_helicities_close(&h);
  }
  if (programs_of("amplitudes/flow_recursion.cl") - before != 1)
    fail_msg("p p > t t~ j: the helicity draws built programs of the recursion of their own");
  for (unsigned g = 0; g < run->n_groups; ++g) {
    const gen_group *group = &run->groups[g];
    /* the first two keep the test to a few seconds of builds */
    if (!hg_recursive_uses_flows(&group->spec) || checked == CHECKED) continue;
    /* the same process built alone: its own program */
    hegetcl_process alone = qcd_process_of(group->spec.text);
    alone.precision = HEGETCL_PRECISION_DOUBLE;
    alone.alpha_s = run->alpha_s_mu_r;
    hegetcl_amplitude *own = NULL;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &alone, &own));
    /* a program of its own (smaller capacities, fewer vertex kinds than the run's) */
    assert_true(own->program != group->amp->program);
    double *momenta = qcd_points_of(&alone, POINTS, 41 + g);
    double shared[POINTS], single[POINTS];
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(group->amp, POINTS, momenta, shared));
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(own, POINTS, momenta, single));
    for (size_t e = 0; e < POINTS; ++e)
      if (!(shared[e] > 0 && ts_rel_diff(shared[e], single[e]) <= 1e-15))
        fail_msg("%s, point %zu on %s: shared program %.17g, its own %.17g", group->spec.text, e,
                 ts_device_name(ctx), shared[e], single[e]);
    /* the tape in global memory (where it outgrows the constant buffer): the same numbers */
    hegetcl_amplitude *global = NULL;
    setenv("HEGETCL_FR_TAPE", "global", 1);
    const hegetcl_status made = hegetcl_amplitude_create(ctx, &alone, &global);
    unsetenv("HEGETCL_FR_TAPE");
    TS_ASSERT_OK(ctx, made);
    assert_true(global->program != own->program);
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(global, POINTS, momenta, single));
    for (size_t e = 0; e < POINTS; ++e)
      if (!(ts_rel_diff(shared[e], single[e]) <= 1e-15))
        fail_msg("%s, point %zu on %s: tape in constant memory %.17g, in global %.17g",
                 group->spec.text, e, ts_device_name(ctx), shared[e], single[e]);
    printf("# %s: the shared program's |M|^2 is its own's\n", group->spec.text);
    ++checked;
    free(momenta);
    hegetcl_amplitude_destroy(global);
    hegetcl_amplitude_destroy(own);
  }
  hg_gen_run_destroy(run);
  assert_true(quark_line_groups >= CHECKED);
  assert_int_equal(checked, CHECKED);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_program_for_the_quark_line_groups),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
