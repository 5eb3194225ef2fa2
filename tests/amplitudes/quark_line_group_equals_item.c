/* SPDX-License-Identifier: MIT */
/* The quark-line recursion's work-group kernels (cl/amplitudes/flow_recursion_group.cl: one
 * event a work-group, its currents in local memory, the tape's operations in steps spread over
 * the work-items, each step's results gathered into their targets, the colour sum a work-group
 * reduction) equal its one-event-per-work-item kernels (flow_recursion.cl, which interpret the
 * tape in order), HEGETCL_FR_KERNEL choosing each, summed over helicities and per helicity
 * configuration, at random points, in double, to 1e-13 (a configuration that vanishes: 1e-15
 * of the point's sum): u u > u u g g (every configuration), u u~ > t t~ g g, u d~ > e+ ve g g;
 * with HEGETCL_FR_GROUP=32 (more steps than operations a step at 64) u u > u u g g again; and
 * (exhaustive suite) u u~ > d d~ g g g (every configuration) and g u > t t~ u g g. */
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

/* |M|^2 of the n events by kernel ("item" or "group", HEGETCL_FR_KERNEL), per helicity
 * configuration (helicity) or summed (NULL); checks which kernels were built. */
static double *evaluate(const hegetcl_process *process, const char *kernel, size_t n,
                        const double *momenta, const uint32_t *helicity) {
  setenv("HEGETCL_FR_KERNEL", kernel, 1);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, process, &amp));
  unsetenv("HEGETCL_FR_KERNEL");
  const int group = kernel[0] == 'g';
  if (group != (amp->summed_group != 0))
    fail_msg("%s: HEGETCL_FR_KERNEL=%s built the %s kernels", process->text, kernel,
             amp->summed_group != 0 ? "work-group" : "one-event-per-work-item");
  double *me = malloc(n * sizeof *me);
  for (size_t e = 0; e < n; ++e) me[e] = -1; /* poison */
  if (helicity == NULL)
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, n, momenta, me));
  else
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, n, momenta, helicity, me));
  hegetcl_amplitude_destroy(amp);
  return me;
}

/* The two kernels summed, and per configuration when per_configuration (configuration h of
 * point e at h * N_POINTS + e, every h < 2^n, those no configuration included). */
static void check(const char *text, int per_configuration) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = qcd_process_of(text);
  const unsigned n = hegetcl_process_particles(&process);
  double *momenta = qcd_points_of(&process, N_POINTS, 31);
  double *item = evaluate(&process, "item", N_POINTS, momenta, NULL);
  double *group = evaluate(&process, "group", N_POINTS, momenta, NULL);
  double worst = 0;
  for (size_t e = 0; e < N_POINTS; ++e) {
    if (!(item[e] > 0 && ts_rel_diff(group[e], item[e]) <= 1e-13))
      fail_msg("%s, point %zu on %s, summed: work-group %.17g, per work-item %.17g", text, e,
               ts_device_name(ctx), group[e], item[e]);
    worst = fmax(worst, ts_rel_diff(group[e], item[e]));
  }
  printf("# %s: summed, %d points, largest difference %.2g\n", text, N_POINTS, worst);
  if (per_configuration) {
    const size_t configs = (size_t)1 << n, total = configs * N_POINTS;
    double *repeated = malloc(4 * n * total * sizeof *repeated);
    uint32_t *helicity = malloc(total * sizeof *helicity);
    for (size_t h = 0; h < configs; ++h)
      for (size_t e = 0; e < N_POINTS; ++e) {
        helicity[h * N_POINTS + e] = (uint32_t)h;
        for (unsigned c = 0; c < 4 * n; ++c)
          repeated[c * total + h * N_POINTS + e] = momenta[c * N_POINTS + e];
      }
    double *item_h = evaluate(&process, "item", total, repeated, helicity);
    double *group_h = evaluate(&process, "group", total, repeated, helicity);
    worst = 0;
    size_t nonzero = 0;
    for (size_t k = 0; k < total; ++k) {
      const double a = group_h[k], b = item_h[k], sum = item[k % N_POINTS];
      const double diff = fabs(a - b) / fmax(fmax(fabs(a), fabs(b)), 1e-2 * sum);
      if (!(diff <= 1e-13))
        fail_msg("%s, point %zu, configuration %zu on %s: work-group %.17g, per work-item %.17g",
                 text, k % N_POINTS, k / N_POINTS, ts_device_name(ctx), a, b);
      worst = fmax(worst, diff);
      nonzero += b > 1e-15 * sum;
    }
    if (nonzero == 0) fail_msg("%s: every configuration vanished", text);
    printf("# %s: %zu configurations x %d points (%zu non-zero), largest difference %.2g\n", text,
           configs, N_POINTS, nonzero, worst);
    free(repeated);
    free(helicity);
    free(item_h);
    free(group_h);
  }
  free(momenta);
  free(item);
  free(group);
}

static void two_lines(void **state) {
  (void)state;
  check("u u > u u g g", 1);
  check("u u~ > t t~ g g", 0);
}

static void electroweak(void **state) {
  (void)state;
  check("u d~ > e+ ve g g", 0);
}

static void narrow_group(void **state) {
  (void)state;
  setenv("HEGETCL_FR_GROUP", "32", 1);
  check("u u > u u g g", 0);
  unsetenv("HEGETCL_FR_GROUP");
}

static void seven_particles(void **state) {
  (void)state;
  if (!ts_exhaustive()) {
    printf("# seven particles: exhaustive suite\n");
    return;
  }
  check("u u~ > d d~ g g g", 1);
  check("g u > t t~ u g g", 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_lines),
      cmocka_unit_test(electroweak),
      cmocka_unit_test(narrow_group),
      cmocka_unit_test(seven_particles),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
