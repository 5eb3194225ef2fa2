/* SPDX-License-Identifier: MIT */
/* The recursive colour engine's work-group kernels (cl/amplitudes/colour_group.cl: each distinct
 * word of gluons made once per helicity configuration in local memory, the colour sum a
 * work-group product) equal its one-event-per-work-item kernels (colour_ordered.cl), which make
 * every ordering's currents again, for every helicity configuration and summed, at random points
 * of g g > t t~ g g, g g > g g g, g g > g g g g and g g > t t~ g g g, in batches that leave the
 * last work-group partly filled; per configuration and summed also with the tables in global
 * memory (where t t~ + 4 g keeps them), whose groups each go over several events, the summed
 * kernel with two or more events a group (a configuration loop of several steps: PoCL's
 * optimised build of it once gave 0 for gluons only); and (exhaustive suite) g g > t t~ g g g g
 * summed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "amplitude/amplitude_internal.h"
#include "qcd_points.h"
#include "test_support.h"

#define N_POINTS 3

static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

/* |M|^2 of the n events by the variant (HG_SUMMED_PRIVATE: one event per work-item), per helicity
 * configuration (helicity) or summed (NULL); checks which kernels the variant built; the events a
 * work-group of the work-group kernels takes into events_per_group (may be NULL). */
static double *evaluate(const hegetcl_process *process, int variant, size_t n,
                        const double *momenta, const uint32_t *helicity, size_t *events_per_group) {
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hg_amplitude_create_variant(ctx, process, variant, &amp));
  if (variant == HG_SUMMED_PRIVATE)
    assert_true(amp->summed_group == 0 && amp->words == NULL);
  else if (amp->summed_group == 0 || amp->words == NULL)
    fail_msg("%s: the work-group kernels were not built", process->text);
  if (variant == HG_SUMMED_SHARED_GLOBAL && amp->summed_tables == NULL)
    fail_msg("%s: the work-group kernels' tables are not in global memory", process->text);
  if (events_per_group != NULL) *events_per_group = amp->summed_group_events;
  double *me = malloc(n * sizeof *me);
  for (size_t e = 0; e < n; ++e) me[e] = -1; /* poison */
  if (helicity == NULL)
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n, momenta, me));
  else
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n, momenta, helicity, me));
  hegetcl_amplitude_destroy(amp);
  return me;
}

/* Every helicity configuration (configuration h of point e at h * N_POINTS + e) and the sum: the
 * two kernels to 1e-13, or 1e-15 of the point's sum for configurations that vanish; with_global:
 * summed and per configuration also the work-group kernels with their tables in global memory
 * (2: and asserting that their summed kernel takes two or more events a group, the case PoCL's
 * optimiser once broke; 1: as many as the kernel takes, one for t t~ g g g). */
static void check(const char *text, int with_global, int per_configuration) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = qcd_process_of(text);
  const unsigned n = hegetcl_process_particles(&process);
  double *momenta = qcd_points_of(&process, N_POINTS, 29);
  double *item = evaluate(&process, HG_SUMMED_PRIVATE, N_POINTS, momenta, NULL, NULL);
  double *group = evaluate(&process, HG_SUMMED_SHARED, N_POINTS, momenta, NULL, NULL);
  for (size_t e = 0; e < N_POINTS; ++e)
    if (!(item[e] > 0 && ts_rel_diff(group[e], item[e]) <= 1e-13))
      fail_msg("%s, point %zu on %s, summed: work-group %.17g, per work-item %.17g", text, e,
               ts_device_name(ctx), group[e], item[e]);
  if (with_global) {
    /* the summed kernel with its tables in global memory */
    size_t events = 0;
    double *global = evaluate(&process, HG_SUMMED_SHARED_GLOBAL, N_POINTS, momenta, NULL, &events);
    if (with_global == 2 && events < 2)
      fail_msg("%s on %s: the global-table kernels take %zu event a work-group, this check wants "
               "two or more",
               text, ts_device_name(ctx), events);
    double worst = 0;
    for (size_t e = 0; e < N_POINTS; ++e) {
      if (!(ts_rel_diff(global[e], item[e]) <= 1e-13))
        fail_msg("%s, point %zu on %s, summed: work-group (global tables, %zu events a group) "
                 "%.17g, per work-item %.17g",
                 text, e, ts_device_name(ctx), events, global[e], item[e]);
      worst = fmax(worst, ts_rel_diff(global[e], item[e]));
    }
    printf("# %s: summed, tables in global memory, %zu events a group, largest difference %.2g\n",
           text, events, worst);
    free(global);
  }
  if (!per_configuration) {
    printf("# %s: summed, largest difference %.2g\n", text,
           fmax(fmax(ts_rel_diff(group[0], item[0]), ts_rel_diff(group[1], item[1])),
                ts_rel_diff(group[2], item[2])));
    free(momenta);
    free(item);
    free(group);
    return;
  }
  const size_t configs = (size_t)1 << n, total = configs * N_POINTS;
  double *repeated = malloc(4 * n * total * sizeof *repeated);
  uint32_t *helicity = malloc(total * sizeof *helicity);
  for (size_t h = 0; h < configs; ++h)
    for (size_t e = 0; e < N_POINTS; ++e) {
      helicity[h * N_POINTS + e] = (uint32_t)h;
      for (unsigned c = 0; c < 4 * n; ++c)
        repeated[c * total + h * N_POINTS + e] = momenta[c * N_POINTS + e];
    }
  double *item_h = evaluate(&process, HG_SUMMED_PRIVATE, total, repeated, helicity, NULL);
  /* the tables where they fit, and in global memory (t t~ + 4 g's place) */
  double *group_h[2] = {
      evaluate(&process, HG_SUMMED_SHARED, total, repeated, helicity, NULL),
      with_global ? evaluate(&process, HG_SUMMED_SHARED_GLOBAL, total, repeated, helicity, NULL)
                  : NULL};
  double worst = 0;
  for (size_t k = 0; k < (with_global ? 2 : 1) * total; ++k) {
    const double a = group_h[k / total][k % total], b = item_h[k % total];
    const double sum = item[k % N_POINTS];
    const double scale = fmax(fmax(fabs(a), fabs(b)), 1e-2 * sum);
    const double diff = fabs(a - b) / scale;
    if (!(diff <= 1e-13))
      fail_msg("%s, point %zu, configuration %zu on %s: work-group (%s) %.17g, per work-item "
               "%.17g",
               text, k % N_POINTS, (k % total) / N_POINTS, ts_device_name(ctx),
               k < total ? "local tables" : "global tables", a, b);
    if (diff > worst) worst = diff;
  }
  printf("# %s: %zu configurations x %d points, largest difference %.2g\n", text, configs,
         N_POINTS, worst);
  free(momenta);
  free(item);
  free(group);
  free(repeated);
  free(helicity);
  free(item_h);
  free(group_h[0]);
  free(group_h[1]);
}

static void ttgg(void **state) {
  (void)state;
  check("g g > t t~ g g", 2, 1);
}

static void ggg(void **state) {
  (void)state;
  check("g g > g g g", 2, 1);
}

static void gggg(void **state) {
  (void)state;
  check("g g > g g g g", 2, 1);
}

static void ttggg(void **state) {
  (void)state;
  /* its global-table program takes PoCL a further 10 s to build: exhaustive suite */
  check("g g > t t~ g g g", ts_exhaustive(), 1);
  /* t t~ + 4 g keeps its tables in global memory (119 KB an event in double); summed only, the
   * work-item kernel taking PoCL seconds a point: exhaustive suite */
  if (ts_exhaustive()) check("g g > t t~ g g g g", 0, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ttgg),
      cmocka_unit_test(ggg),
      cmocka_unit_test(gggg),
      cmocka_unit_test(ttggg),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
