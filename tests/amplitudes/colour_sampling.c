/* SPDX-License-Identifier: MIT */
/* The recursive colour engine's sampled colours: the colour factors of every
 * assignment reproduce the exact colour matrix; |M|^2 summed over every assignment equals the
 * colour-summed |M|^2; uniformly drawn assignments average to it within their standard error;
 * g g > 7 g and g g > 8 g, which only sampled colours take, are gauge, Bose and Lorentz
 * invariant per assignment and equal Parke-Taylor in the trace basis for MHV configurations;
 * bad colours and the exact sum beyond 720 orderings are refused. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "process/colour_ordered.h"
#include "process/model.h"
#include "process/process_spec.h"
#include "qcd_closed_forms.h"
#include "qcd_points.h"
#include "test_support.h"

#define REAL double
#define REAL_IS_DOUBLE 1
#include "amplitudes/colour_factors.h"
#include "amplitudes/next_permutation.h"

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

/* The process of text, which the recursive colour engine takes by default. */
static hegetcl_process process_of(const char *text) {
  const hegetcl_process process = qcd_process_of(text);
  assert_int_equal(process.engine, HEGETCL_ENGINE_RECURSIVE);
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

/* The number of colour assignments and the k-th one (3 bits per particle, gluons 8, quarks 3). */
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

static void colour_dims(const hg_process_spec *spec, unsigned char *dims) {
  for (int i = 0; i < spec->n; ++i)
    dims[i] =
        hg_species_particle(spec->species[i]) == hg_species_particle(hg_species_from_name("g")) ? 8
                                                                                                : 3;
}

/* The colour factor of ordering o of co (its particles in co->orderings) in assignment colours,
 * as the kernel forms it. */
static hg_complex factor_of(const hg_colour_ordered *co, size_t o, uint32_t colours) {
  const unsigned char *order = co->orderings + o * (size_t)co->n_letters;
  hg_u32 x[HG_PROCESS_MAX_EXTERNAL];
  for (int j = 0; j < co->n_letters; ++j) x[j] = colours >> (3 * order[j]) & 7u;
  if (co->quark_line)
    return hg_cf_quark_line(x, co->n_letters, colours >> (3 * co->o_particle) & 7u,
                            colours >> (3 * co->i_particle) & 7u);
  const int k = co->n_letters - 1; /* the last letter is particle 0 */
  return hg_cmplx(hg_cf_ddm(x, k, x[k], colours >> (3 * co->closing) & 7u), 0);
}

/* sum over every assignment of conj(c_a) c_b equals the colour matrix from index loops. */
static void check_factors(const char *text) {
  hg_process_spec spec;
  char error[512];
  if (hg_process_parse(text, &spec, error, sizeof error) != 0) fail_msg("%s", error);
  hg_colour_ordered co;
  if (hg_colour_ordered_build(&spec, &co, error, sizeof error) != 0) fail_msg("%s", error);
  unsigned char dims[HG_PROCESS_MAX_EXTERNAL];
  colour_dims(&spec, dims);
  const size_t m = co.n_orderings;
  double *re = calloc(m * m, sizeof *re), *im = calloc(m * m, sizeof *im);
  hg_complex *c = malloc(m * sizeof *c);
  const uint64_t total = assignments(dims, (unsigned)spec.n);
  for (uint64_t k = 0; k < total; ++k) {
    const uint32_t colours = assignment(dims, (unsigned)spec.n, k);
    for (size_t o = 0; o < m; ++o) c[o] = factor_of(&co, o, colours);
    for (size_t a = 0; a < m; ++a)
      for (size_t b = 0; b < m; ++b) {
        const hg_complex z = hg_cmul(hg_cconj(c[a]), c[b]);
        re[a * m + b] += z.re;
        im[a * m + b] += z.im;
      }
  }
  double largest = 0;
  for (size_t k = 0; k < m * m; ++k) largest = fmax(largest, fabs(co.colour[k]));
  for (size_t a = 0; a < m; ++a)
    for (size_t b = 0; b < m; ++b)
      if (!(fabs(re[a * m + b] - co.colour[a * m + b]) <= 1e-12 * largest &&
            fabs(im[a * m + b]) <= 1e-12 * largest))
        fail_msg("%s: orderings %zu, %zu: sum over %llu assignments %.15g%+.3gi, colour matrix "
                 "%.15g",
                 text, a, b, (unsigned long long)total, re[a * m + b], im[a * m + b],
                 co.colour[a * m + b]);
  printf("# %s: %zu x %zu colour matrix from %llu assignments\n", text, m, m,
         (unsigned long long)total);
  free(c);
  free(re);
  free(im);
  hg_colour_ordered_free(&co);
}

static void colour_factors_reproduce_the_colour_matrix(void **state) {
  (void)state;
  static const char *const texts[] = {"g g > g g",      "g g > g g g",  "u u~ > g g",
                                      "u u~ > g g g",   "g g > t t~",   "g g > t t~ g",
                                      "g g > t t~ g g", "g g > g g g g"};
  for (size_t t = 0; t < sizeof texts / sizeof *texts; ++t) check_factors(texts[t]);
}

/* Every assignment at one point: the sum equals the colour-summed |M|^2 (double, 1e-12). */
static void check_complete_sum(const char *text) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of(text);
  const unsigned n = hegetcl_process_particles(&process);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *momenta = qcd_points_of(&process, 2, 17);
  double full[2];
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 2, momenta, full));
  const uint64_t total = assignments(amp->colour_dims, n);
  uint32_t *colour = malloc(total * sizeof *colour);
  for (uint64_t k = 0; k < total; ++k) colour[k] = assignment(amp->colour_dims, n, k);
  double *me = malloc(total * sizeof *me);
  for (size_t point = 0; point < 2; ++point) {
    double *many = repeat_point(momenta, n, 2, point, total);
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, total, many, NULL, colour, me));
    double sum = 0;
    size_t zero = 0;
    for (uint64_t k = 0; k < total; ++k) {
      sum += me[k];
      zero += me[k] == 0;
    }
    if (!(ts_rel_diff(sum, full[point]) <= 1e-12))
      fail_msg("%s, point %zu on %s: sum over %llu colour assignments %.17g, colour sum %.17g",
               text, point, ts_device_name(ctx), (unsigned long long)total, sum, full[point]);
    printf("# %s point %zu: %llu assignments (%zu give 0) sum to the colour sum, rel. diff %.1e\n",
           text, point, (unsigned long long)total, zero, ts_rel_diff(sum, full[point]));
    free(many);
  }
  free(me);
  free(colour);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

static void every_assignment_sums_to_the_colour_sum(void **state) {
  (void)state;
  static const char *const texts[] = {"g g > g g", "g g > g g g", "u u~ > g g", "g g > t t~ g"};
  for (size_t t = 0; t < sizeof texts / sizeof *texts; ++t) check_complete_sum(texts[t]);
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
  if (!(fabs(pull) <= 4))
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
  check_average("g g > g g g g", 1u << 16, 0);
  check_average("g g > t t~ g g", 1u << 16, 0);
  check_average("u u~ > g g g", 1u << 16, 1);
}

/* g g > n g beyond the exact sum: the build works, the exact sum is refused with a message naming
 * sampled colours, and per assignment and configuration gauge, Bose and Lorentz invariance hold. */
static void check_beyond_exact(const char *text, size_t n_points) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of(text);
  const unsigned n = hegetcl_process_particles(&process);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  printf("# %s: %zu orderings, program built in %.1f s on %s\n", text, amp->n_orderings,
         amp->build_seconds, ts_device_name(ctx));
  double *momenta = qcd_points_of(&process, n_points, 61);
  double *me = calloc(n_points, sizeof *me);
  assert_int_equal(hegetcl_amplitude_evaluate(amp, n_points, momenta, me), HEGETCL_ERR_UNSUPPORTED);
  assert_non_null(strstr(hegetcl_last_error(ctx), "hegetcl_amplitude_evaluate_colour"));
  /* one configuration with both helicities at least twice (+-+-...); colour assignments with
   * every gluon in a = 1..3 (the SU(2) subalgebra, non-zero often): of 32 draws per point the
   * first with a non-zero |M|^2 */
  enum { CANDIDATES = 32 };
  uint32_t *helicity = malloc(CANDIDATES * n_points * sizeof *helicity);
  uint32_t *colour = malloc(CANDIDATES * n_points * sizeof *colour);
  uint64_t rng = 99;
  for (size_t e = 0; e < CANDIDATES * n_points; ++e) {
    helicity[e] = 0x155u & ((1u << n) - 1);
    colour[e] = 0;
    for (unsigned i = 0; i < n; ++i) colour[e] |= (uint32_t)(ts_uniform(&rng) * 3) << (3 * i);
  }
  double *candidates = malloc(CANDIDATES * n_points * 4 * n * sizeof *candidates);
  for (size_t e = 0; e < n_points; ++e) {
    double *copy = repeat_point(momenta, n, n_points, e, CANDIDATES);
    for (unsigned c = 0; c < 4 * n; ++c)
      for (size_t k = 0; k < CANDIDATES; ++k)
        candidates[c * CANDIDATES * n_points + e * CANDIDATES + k] = copy[c * CANDIDATES + k];
    free(copy);
  }
  double *tried = calloc(CANDIDATES * n_points, sizeof *tried);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, CANDIDATES * n_points, candidates,
                                                      helicity, colour, tried));
  for (size_t e = 0; e < n_points; ++e) {
    size_t k = 0;
    while (k < CANDIDATES && !(tried[e * CANDIDATES + k] > 0)) ++k;
    if (k == CANDIDATES)
      fail_msg("%s point %zu: |M|^2 = 0 for %d colour draws", text, e, CANDIDATES);
    colour[e] = colour[e * CANDIDATES + k];
    me[e] = tried[e * CANDIDATES + k];
    if (!isfinite(me[e])) fail_msg("%s point %zu: |M|^2 %.3e", text, e, me[e]);
  }
  free(tried);
  free(candidates);
  /* gauge: gluon 0's polarisation -> p / E */
  hegetcl_amplitude *gauge = NULL;
  TS_ASSERT_OK(ctx, hg_amplitude_create_gauge_check(ctx, &process, 0, &gauge));
  double *zero = calloc(n_points, sizeof *zero);
  TS_ASSERT_OK(ctx,
               hegetcl_amplitude_evaluate_colour(gauge, n_points, momenta, helicity, colour, zero));
  for (size_t e = 0; e < n_points; ++e)
    if (!(fabs(zero[e]) <= 1e-20 * me[e]))
      fail_msg("%s, gluon 0's polarisation -> p/E, point %zu: %.3e against %.3e", text, e, zero[e],
               me[e]);
  hegetcl_amplitude_destroy(gauge);
  /* Bose: the last two gluons exchanged with their helicities and colours */
  double *swapped = malloc(4 * n * n_points * sizeof *swapped);
  memcpy(swapped, momenta, 4 * n * n_points * sizeof *swapped);
  uint32_t *h2 = malloc(n_points * sizeof *h2), *c2 = malloc(n_points * sizeof *c2);
  const unsigned a = n - 2, b = n - 1;
  for (size_t e = 0; e < n_points; ++e) {
    for (unsigned mu = 0; mu < 4; ++mu) {
      double *x = &swapped[(mu * n + a) * n_points + e], *y = &swapped[(mu * n + b) * n_points + e];
      const double t = *x;
      *x = *y;
      *y = t;
    }
    const uint32_t ha = helicity[e] >> a & 1u, hb = helicity[e] >> b & 1u;
    h2[e] = (helicity[e] & ~(1u << a | 1u << b)) | ha << b | hb << a;
    const uint32_t ca = colour[e] >> (3 * a) & 7u, cb = colour[e] >> (3 * b) & 7u;
    c2[e] = (colour[e] & ~(7u << (3 * a) | 7u << (3 * b))) | ca << (3 * b) | cb << (3 * a);
  }
  double *bose = calloc(n_points, sizeof *bose);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, n_points, swapped, h2, c2, bose));
  for (size_t e = 0; e < n_points; ++e)
    if (!(ts_rel_diff(bose[e], me[e]) <= 1e-11))
      fail_msg("%s, gluons %u and %u exchanged, point %zu: %.17g against %.17g", text, a, b, e,
               bose[e], me[e]);
  /* Lorentz: a boost of speed 0.6 along z then x (helicities of massless gluons keep) */
  double *moved = malloc(4 * n * n_points * sizeof *moved);
  const double gamma = 1 / sqrt(1 - 0.36);
  for (size_t e = 0; e < n_points; ++e)
    for (unsigned i = 0; i < n; ++i) {
      double v[4];
      for (unsigned mu = 0; mu < 4; ++mu) v[mu] = momenta[(mu * n + i) * n_points + e];
      const double t = gamma * (v[0] + 0.6 * v[1]), x = gamma * (v[1] + 0.6 * v[0]);
      moved[(0 * n + i) * n_points + e] = t;
      moved[(1 * n + i) * n_points + e] = x;
      moved[(2 * n + i) * n_points + e] = v[2];
      moved[(3 * n + i) * n_points + e] = v[3];
    }
  double *boosted = calloc(n_points, sizeof *boosted);
  TS_ASSERT_OK(ctx,
               hegetcl_amplitude_evaluate_colour(amp, n_points, moved, helicity, colour, boosted));
  for (size_t e = 0; e < n_points; ++e)
    if (!(ts_rel_diff(boosted[e], me[e]) <= 1e-10))
      fail_msg("%s, boosted point %zu: %.17g against %.17g", text, e, boosted[e], me[e]);
  printf("# %s: gauge, Bose and Lorentz invariance at %zu points with sampled colours\n", text,
         n_points);
  free(boosted);
  free(moved);
  free(bose);
  free(h2);
  free(c2);
  free(swapped);
  free(zero);
  free(colour);
  free(helicity);
  free(me);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

static void seven_and_eight_gluons_with_sampled_colours(void **state) {
  (void)state;
  check_beyond_exact("g g > g g g g g g g", 2);
  if (ts_exhaustive()) check_beyond_exact("g g > g g g g g g g g", 1);
}

/* Parke-Taylor in the trace basis, an independent colour decomposition: for one colour
 * assignment a, M = g^(n-2) 2^(n/2) sum over the (n-1)! orderings sigma (particle 0 first) of
 * Tr(t^a0 t^a_sigma1 ...) A_PT(0, sigma), against the engine's DDM sum for the MHV configuration
 * with gluons 0 and 5 negative after crossing (1e-10). */
static void check_parke_taylor_sampled(const char *text, unsigned n) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of(text);
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *momenta = qcd_points_of(&process, 1, 71);
  double q[HG_PROCESS_MAX_EXTERNAL][4];
  for (unsigned i = 0; i < n; ++i)
    for (unsigned mu = 0; mu < 4; ++mu) q[i][mu] = momenta[mu * n + i];
  /* physical helicities: particle 0 +1 (crossed -1), 1 -1 (crossed +1), outgoing 5 -1 */
  const uint32_t helicity = ((1u << n) - 1) & ~(1u << 1 | 1u << 5);
  const double g_s = 2 * sqrt(3.14159265358979323846 * 0.118);
  double iden = 4 * 64;
  for (unsigned k = 2; k <= n - 2; ++k) iden *= k;
  uint64_t rng = 5;
  int checked = 0;
  for (int attempt = 0; attempt < 8 && checked < 2; ++attempt) {
    /* gluons in the SU(2) subalgebra a = 1..3 but one, so that colour is often conserved */
    hg_u32 a[HG_PROCESS_MAX_EXTERNAL];
    uint32_t colours = 0;
    for (unsigned i = 0; i < n; ++i) {
      a[i] = (hg_u32)(ts_uniform(&rng) * 3);
      colours |= a[i] << (3 * i);
    }
    int sigma[HG_PROCESS_MAX_EXTERNAL];
    for (unsigned i = 0; i + 1 < n; ++i) sigma[i] = (int)i;
    double complex sum = 0;
    do {
      unsigned char order[HG_PROCESS_MAX_EXTERNAL];
      hg_u32 x[HG_PROCESS_MAX_EXTERNAL];
      order[0] = 0;
      for (unsigned i = 1; i < n; ++i) order[i] = (unsigned char)(1 + sigma[i - 1]);
      for (unsigned i = 0; i < n; ++i) x[i] = a[order[i]];
      double complex trace = 0;
      for (hg_u32 i = 0; i < 3; ++i) {
        const hg_complex z = hg_cf_quark_line(x, (int)n, i, i);
        trace += z.re + I * z.im;
      }
      if (trace != 0) sum += trace * hg_closed_parke_taylor(n, q, helicity, order);
    } while (hg_next_permutation(sigma, (int)n - 1) >= 0);
    const double expected =
        pow(g_s, 2.0 * n - 4) * ldexp(1.0, (int)n) * creal(sum * conj(sum)) / iden;
    if (!(expected > 0)) continue;
    double me = 0;
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate_colour(amp, 1, momenta, &helicity, &colours, &me));
    if (!(ts_rel_diff(me, expected) <= 1e-10))
      fail_msg("%s, colours 0x%x on %s: recursive %.17g, Parke-Taylor (trace basis) %.17g", text,
               colours, ts_device_name(ctx), me, expected);
    printf("# %s, colours 0x%x: recursive %.12e, Parke-Taylor %.12e, rel. diff %.1e\n", text,
           colours, me, expected, ts_rel_diff(me, expected));
    ++checked;
  }
  assert_true(checked > 0);
  free(momenta);
  hegetcl_amplitude_destroy(amp);
}

static void parke_taylor_with_sampled_colours(void **state) {
  (void)state;
  check_parke_taylor_sampled("g g > g g g g g g g", 9);
  if (ts_exhaustive()) check_parke_taylor_sampled("g g > g g g g g g g g", 10);
}

static void bad_colours_are_refused(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_process process = process_of("u u~ > g g");
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  double *momenta = qcd_points_of(&process, 1, 3);
  double me = 0;
  /* the u quark (particle 0) with fundamental index 3 */
  const uint32_t quark_out_of_range = 3u;
  assert_int_equal(
      hegetcl_amplitude_evaluate_colour(amp, 1, momenta, NULL, &quark_out_of_range, &me),
      HEGETCL_ERR_INPUT);
  assert_non_null(strstr(hegetcl_last_error(ctx), "particle 0"));
  const uint32_t extra_bits = 1u << 12; /* a fifth particle */
  assert_int_equal(hegetcl_amplitude_evaluate_colour(amp, 1, momenta, NULL, &extra_bits, &me),
                   HEGETCL_ERR_INPUT);
  hegetcl_amplitude_destroy(amp);
  /* the photon family has no sampled colours */
  hegetcl_process photons;
  hegetcl_process_defaults(&photons, 3);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &photons, &amp));
  const uint32_t none = 0;
  double p[4 * 5] = {0};
  assert_int_equal(hegetcl_amplitude_evaluate_colour(amp, 1, p, NULL, &none, &me),
                   HEGETCL_ERR_UNSUPPORTED);
  assert_non_null(strstr(hegetcl_last_error(ctx), "recursive colour engine"));
  hegetcl_amplitude_destroy(amp);
  free(momenta);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(colour_factors_reproduce_the_colour_matrix),
      cmocka_unit_test(every_assignment_sums_to_the_colour_sum),
      cmocka_unit_test(sampled_colours_average_to_the_colour_sum),
      cmocka_unit_test(seven_and_eight_gluons_with_sampled_colours),
      cmocka_unit_test(parke_taylor_with_sampled_colours),
      cmocka_unit_test(bad_colours_are_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
