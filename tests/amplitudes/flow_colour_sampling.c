/* SPDX-License-Identifier: MIT */
/* Sampled colours of the quark-line recursion (CONVENTIONS.md, "Colour sampling"): |M|^2 summed
 * over every colour assignment equals the colour-summed |M|^2 (two quark lines, a lepton pair,
 * tops, gluons alone whose flows are traces); an assignment that breaks colour conservation
 * gives 0; u u~ > d d~, whose two flows are written out by hand below, gives the hand-made value
 * for every assignment; uniformly drawn assignments average to the colour sum within their
 * standard error; a colourless particle takes index 0 only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "process/model.h"
#include "process/process_spec.h"
#include "qcd_points.h"
#include "test_support.h"

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

/* The process of text, which the quark-line recursion takes by default. */
static hegetcl_process process_of(const char *text) {
  const hegetcl_process process = qcd_process_of(text);
  assert_int_equal(process.engine, HEGETCL_ENGINE_RECURSIVE);
  hg_process_spec spec;
  char error[512];
  if (hg_process_parse(text, &spec, error, sizeof error) != 0) fail_msg("%s", error);
  assert_true(hg_recursive_uses_flows(&spec));
  return process;
}

/* Point `point` of a batch of n_points repeated copies times. */
static double *repeat_point(const double *momenta, unsigned n, size_t n_points, size_t point,
                            size_t copies) {
  double *out = malloc(4 * n * copies * sizeof *out);
  for (size_t k = 0; k < copies; ++k)
    for (unsigned c = 0; c < 4 * n; ++c) out[c * copies + k] = momenta[c * n_points + point];
  return out;
}

/* The k-th colour assignment (3 bits per particle) and their number. */
static uint32_t assignment(const unsigned char *dims, unsigned n, uint64_t k) {
  uint32_t colours = 0;
  for (unsigned i = 0; i < n; ++i) {
    colours |= (uint32_t)(k % dims[i]) << (3 * i);
    k /= dims[i];
  }
  return colours;
}

static uint64_t assignments(const unsigned char *dims, unsigned n) {
  uint64_t count = 1;
  for (unsigned i = 0; i < n; ++i) count *= dims[i];
  return count;
}

/* Whether assignment colours visibly breaks colour conservation, judged from the particles alone
 * (not from the engine's tables): every gluon in the Cartan subalgebra (t^3 or t^8, indices 2
 * and 7, which keep a fundamental index) and the fundamental indices of the ends where colour
 * flows out (outgoing quarks, incoming antiquarks) not those of the ends where it flows in, as
 * multisets. *cartan says whether the criterion applies. */
static int breaks_colour(const hg_process_spec *spec, uint32_t colours, int *cartan) {
  int balance[3] = {0, 0, 0};
  *cartan = 1;
  for (int i = 0; i < spec->n; ++i) {
    const hg_particle *p = hg_model_particle(hg_species_particle(spec->species[i]));
    const unsigned index = colours >> (3 * i) & 7u;
    if (p->colour == 8) {
      *cartan &= index == 2u || index == 7u;
    } else if (p->colour == 3) {
      const int anti = hg_species_is_anti(spec->species[i]), incoming = i < spec->n_in;
      balance[index] += anti == incoming ? 1 : -1; /* flowing out: +1 */
    }
  }
  return *cartan && (balance[0] != 0 || balance[1] != 0 || balance[2] != 0);
}

/* Every assignment at two points: the sum equals the colour-summed |M|^2 (double, 1e-12), for the
 * helicity configuration config or (config < 0) summed over them; the assignments that break
 * colour conservation give exactly 0. */
static void check_complete_sum(const char *text, long config) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of(text);
  hg_process_spec spec;
  char error[512];
  assert_int_equal(hg_process_parse(text, &spec, error, sizeof error), 0);
  const unsigned n = hegetcl_process_particles(&process);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *momenta = qcd_points_of(&process, 2, 17);
  double full[2];
  uint32_t helicity2[2] = {(uint32_t)config, (uint32_t)config};
  if (config < 0)
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 2, momenta, full));
  else
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, 2, momenta, helicity2, full));
  const uint64_t total = assignments(amp->colour_dims, n);
  uint32_t *colour = malloc(total * sizeof *colour), *helicity = malloc(total * sizeof *helicity);
  for (uint64_t k = 0; k < total; ++k) {
    colour[k] = assignment(amp->colour_dims, n, k);
    helicity[k] = (uint32_t)config;
  }
  double *me = malloc(total * sizeof *me);
  for (size_t point = 0; point < 2; ++point) {
    assert_true(full[point] > 0);
    double *many = repeat_point(momenta, n, 2, point, total);
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, total, many,
                                                        config < 0 ? NULL : helicity, colour, me));
    double sum = 0;
    size_t zero = 0, broken = 0, cartan_total = 0;
    for (uint64_t k = 0; k < total; ++k) {
      sum += me[k];
      zero += me[k] == 0;
      int cartan = 0;
      if (breaks_colour(&spec, colour[k], &cartan)) {
        ++broken;
        if (me[k] != 0)
          fail_msg("%s, point %zu: colours 0x%x break colour conservation but |M|^2 = %.3e", text,
                   point, colour[k], me[k]);
      }
      cartan_total += cartan;
    }
    if (!(ts_rel_diff(sum, full[point]) <= 1e-12))
      fail_msg("%s, point %zu on %s: sum over %llu colour assignments %.17g, colour sum %.17g",
               text, point, ts_device_name(ctx), (unsigned long long)total, sum, full[point]);
    if (amp->colour_dims[0] != 8) assert_true(broken > 0); /* quarks: some break colour */
    printf("# %s%s point %zu: %llu assignments (%zu give 0; %zu of the %zu with Cartan gluons "
           "break colour and give 0) sum to the colour sum, rel. diff %.1e\n",
           text, config < 0 ? "" : " (one helicity configuration)", point,
           (unsigned long long)total, zero, broken, cartan_total, ts_rel_diff(sum, full[point]));
    free(many);
  }
  free(me);
  free(helicity);
  free(colour);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

/* The first helicity configuration of text (its bits as hegetcl_amplitude_evaluate_helicity
 * takes them) with a non-zero |M|^2 at a point. */
static long nonzero_configuration(const char *text) {
  const hegetcl_process process = process_of(text);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *momenta = qcd_points_of(&process, 1, 17);
  long found = -1;
  for (uint32_t config = 0; found < 0 && config < (1u << amp->helicity_bits); ++config) {
    double me = 0;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_helicity(amp, 1, momenta, &config, &me));
    if (me > 0) found = (long)config;
  }
  assert_true(found >= 0);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
  return found;
}

static void every_assignment_sums_to_the_colour_sum(void **state) {
  (void)state;
  check_complete_sum("u u~ > d d~ g", -1);
  check_complete_sum("u u > u u g", -1);
  check_complete_sum("u d~ > e+ ve g", -1);
  check_complete_sum("u u~ > t t~ g g", nonzero_configuration("u u~ > t t~ g g"));
  /* coupling orders take gluons alone to the quark-line recursion: its flows are traces */
  check_complete_sum("g g > g g QCD==2", -1);
}

/* u u~ > d d~ by hand: its one diagram (an s-channel gluon) has the colour
 * (t^a)_{c1 c0} (t^a)_{c2 c3} = (1/2) (d(c1, c3) d(c2, c0) - (1/3) d(c1, c0) d(c2, c3)) (the
 * Fierz identity; d the Kronecker delta, c0..c3 the indices of u, u~, d, d~), whose square summed
 * over every index is Tr(t^a t^b) Tr(t^a t^b) = 2. So |M(c)|^2 = |M|^2 x |colour(c)|^2 / 2 for
 * every one of the 81 assignments: 1/18 with all four equal, 1/8 with c1 = c3 != c2 = c0, 1/72
 * with c1 = c0 != c2 = c3, 0 otherwise. */
static void two_flows_by_hand(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of("u u~ > d d~");
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  assert_int_equal(amp->n_orderings, 2); /* its two colour flows */
  double *momenta = qcd_points_of(&process, 3, 23);
  double full[3];
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 3, momenta, full));
  uint32_t colour[81];
  double expected[81];
  size_t values[4] = {0, 0, 0, 0};
  for (uint32_t k = 0; k < 81; ++k) {
    const uint32_t c0 = k % 3, c1 = k / 3 % 3, c2 = k / 9 % 3, c3 = k / 27;
    colour[k] = c0 | c1 << 3 | c2 << 6 | c3 << 9;
    const double value = 0.5 * ((c1 == c3 && c2 == c0) - (c1 == c0 && c2 == c3) / 3.0);
    expected[k] = value * value / 2;
    const int first = c1 == c3 && c2 == c0, second = c1 == c0 && c2 == c3;
    values[first && second ? 0 : first ? 1 : second ? 2 : 3]++;
  }
  assert_int_equal(values[0], 3);  /* all four equal */
  assert_int_equal(values[1], 6);  /* c1 = c3 != c2 = c0 */
  assert_int_equal(values[2], 6);  /* c1 = c0 != c2 = c3 */
  assert_int_equal(values[3], 66); /* the others */
  double me[81];
  for (size_t point = 0; point < 3; ++point) {
    double *many = repeat_point(momenta, 4, 3, point, 81);
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, 81, many, NULL, colour, me));
    double worst = 0;
    for (size_t k = 0; k < 81; ++k) {
      const double diff = fabs(me[k] - full[point] * expected[k]);
      if (!(diff <= 1e-12 * full[point]))
        fail_msg("u u~ > d d~, point %zu, colours 0x%x on %s: %.17g, by hand %.17g x %.17g", point,
                 colour[k], ts_device_name(ctx), me[k], expected[k], full[point]);
      worst = fmax(worst, diff / full[point]);
    }
    printf("# u u~ > d d~ point %zu: 81 assignments equal the hand-made colour factors x |M|^2, "
           "largest difference %.1e of |M|^2\n",
           point, worst);
    free(many);
  }
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

/* Uniformly drawn assignments (fixed seed): their mean times the number of assignments equals the
 * colour sum within 4 standard errors of the mean, the error estimated from the same draws. */
static void check_average(const char *text, size_t draws, int precision_float) {
  hegetcl_process process = process_of(text);
  process.precision = precision_float ? HEGETCL_PRECISION_FLOAT : HEGETCL_PRECISION_DOUBLE;
  ts_skip_without_fp64(ctx, process.precision);
  const unsigned n = hegetcl_process_particles(&process);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *momenta = qcd_points_of(&process, 1, 29);
  double full = 0;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 1, momenta, &full));
  const double total = (double)assignments(amp->colour_dims, n);
  uint32_t *colour = malloc(draws * sizeof *colour);
  uint64_t rng = 12345;
  for (size_t k = 0; k < draws; ++k)
    colour[k] = assignment(amp->colour_dims, n, (uint64_t)(ts_uniform(&rng) * total));
  double *many = repeat_point(momenta, n, 1, 0, draws);
  double *me = malloc(draws * sizeof *me);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, draws, many, NULL, colour, me));
  double sum = 0, sum2 = 0;
  for (size_t k = 0; k < draws; ++k) {
    sum += me[k] * total;
    sum2 += me[k] * total * me[k] * total;
  }
  const double mean = sum / (double)draws;
  const double error = sqrt((sum2 / (double)draws - mean * mean) / (double)(draws - 1));
  const double pull = (mean - full) / error;
  printf("# %s (%s): %zu sampled assignments average %.6e +- %.2e, colour sum %.6e, pull %+.2f, "
         "error per draw %.2f x the value\n",
         text, precision_float ? "float" : "double", draws, mean, error, full, pull,
         error * sqrt((double)draws) / full);
  if (!(fabs(pull) <= 4 && error < 0.1 * full))
    fail_msg("%s on %s: sampled colours average %.6e +- %.2e, colour sum %.6e (pull %.2f)", text,
             ts_device_name(ctx), mean, error, full, pull);
  free(me);
  free(many);
  free(colour);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

static void sampled_colours_average_to_the_colour_sum(void **state) {
  (void)state;
  check_average("u u > u u g", 1u << 13, 0);
  check_average("u d~ > e+ ve g g", 1u << 13, 1);
}

/* A colourless particle takes index 0 only; bits beyond the particles are refused. */
static void bad_colours_are_refused(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of("u d~ > e+ ve g");
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  assert_int_equal(amp->colour_dims[2], 1);
  assert_int_equal(amp->colour_dims[4], 8);
  double *momenta = qcd_points_of(&process, 1, 3);
  double me = 0;
  const uint32_t positron_coloured = 1u << 6;
  assert_int_equal(
      hegetcl_amplitude_evaluate_colour(amp, 1, momenta, NULL, &positron_coloured, &me),
      HEGETCL_ERR_INPUT);
  assert_non_null(strstr(hegetcl_last_error(ctx), "particle 2"));
  assert_non_null(strstr(hegetcl_last_error(ctx), "colourless"));
  const uint32_t extra_bits = 1u << 15; /* a sixth particle */
  assert_int_equal(hegetcl_amplitude_evaluate_colour(amp, 1, momenta, NULL, &extra_bits, &me),
                   HEGETCL_ERR_INPUT);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_flows_by_hand),
      cmocka_unit_test(every_assignment_sums_to_the_colour_sum),
      cmocka_unit_test(sampled_colours_average_to_the_colour_sum),
      cmocka_unit_test(bad_colours_are_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
