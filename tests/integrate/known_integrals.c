/* SPDX-License-Identifier: MIT */
/* VEGAS on the device (host/integrate/vegas.c, cl/integrate/) on integrals with known values:
 * estimates within 5 sigma, sane chi^2, adaptation shrinking the error of a peaked integrand,
 * results independent of the batch size, the device's points equal to the host's Philox and
 * grid map, and weights with |M|^2 (events the cuts removed count 0 whatever their |M|^2; a
 * non-finite weight inside the cuts stops the run with its count). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/program.h"
#include "integrate/vegas.h"
#include "shared/kernel_names.h"
#include "test_support.h"

#define REAL double
#define REAL_IS_DOUBLE 1
#include "integrate/vegas_map.h"
#include "shared/philox.h"

#define PEAK_CENTRE 0.35
#define PEAK_WIDTH 0.03

/* which = 0: prod_j (pi/2) sin(pi x_j), integral 1; which = 1: prod_j of a normal density
 * (centre PEAK_CENTRE, width PEAK_WIDTH), integral prod_j of the mass inside [0, 1]. With an me
 * buffer (which 2, 3) the factor is the sine product on x_0 < 1/2 and 0 beyond (a cut, integral
 * 1/2), me = 1 inside and, beyond the cut, +inf or NaN as at a singularity the cuts remove;
 * which = 3 also puts NaN inside the cut, on 0.1 <= x_0 < 0.101. */
static const char integrand_kernel[] =
    "#line 1 \"tests/integrate/known_integrals.c: integrand_kernel\"\n"
    "__kernel void test_integrand(__global const double *x, const uint n_events, const int which,\n"
    "                             __global double *factor, __global double *me) {\n"
    "  const size_t e = get_global_id(0);\n"
    "  if (e >= n_events) return;\n"
    "  const double pi = 3.14159265358979323846;\n"
    "  double f = 1.0;\n"
    "  for (int j = 0; j < VEGAS_DIMS; ++j) {\n"
    "    const double v = x[(size_t)j * n_events + e];\n"
    "    const double d = (v - PEAK_CENTRE) / PEAK_WIDTH;\n"
    "    f *= which != 1 ? 0.5 * pi * sin(pi * v)\n"
    "                    : exp(-0.5 * d * d) / (PEAK_WIDTH * sqrt(2.0 * pi));\n"
    "  }\n"
    "  if (which >= 2) {\n"
    "    const double x0 = x[e];\n"
    "    const int inside = x0 < 0.5;\n"
    "    f = inside ? f : 0.0;\n"
    "    me[e] = inside ? 1.0 : ((e & 1) ? INFINITY : NAN);\n"
    "    if (which == 3 && x0 >= 0.1 && x0 < 0.101) me[e] = NAN;\n"
    "  }\n"
    "  if (which >= 4) f *= 1.0 + 0.02 * (which - 4); /* a drift from iteration to iteration */\n"
    "  factor[e] *= f;\n"
    "}\n";

typedef struct {
  hegetcl_context *ctx;
  cl_program program;
  cl_kernel sample, integrand;
  cl_mem x, factor, bins, me;
  unsigned dims;
  size_t capacity;
  uint64_t seed;
  int which;
} fixture;

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

static void check_cl(cl_int err, const char *what) {
  if (err != CL_SUCCESS) fail_msg("%s: OpenCL error %d on %s", what, err, ts_device_name(ctx));
}

static void fixture_make(fixture *f, unsigned dims, unsigned bins, size_t batch, int which) {
  memset(f, 0, sizeof *f);
  f->ctx = ctx;
  f->dims = dims;
  f->capacity = batch;
  f->which = which;
  char options[512];
  if (hg_build_options(ctx, HEGETCL_PRECISION_DOUBLE, 2, options, sizeof options) != HEGETCL_OK)
    skip(); /* no fp64: VEGAS needs double */
  const size_t used = strlen(options);
  snprintf(options + used, sizeof options - used,
           " -D VEGAS_DIMS=%u -D VEGAS_BINS=%u -D AMP_REAL=double -D PEAK_CENTRE=%.17g "
           "-D PEAK_WIDTH=%.17g",
           dims, bins, PEAK_CENTRE, PEAK_WIDTH);
  const hg_source_part parts[2] = {{"integrate/kernels.cl", NULL}, {NULL, integrand_kernel}};
  if (hg_program_get(ctx, parts, 2, options, &f->program, NULL) != HEGETCL_OK)
    fail_msg("building the VEGAS test program: %s", hegetcl_last_error(ctx));
  cl_int err;
  f->sample = clCreateKernel(f->program, HG_KERNEL_VEGAS_SAMPLE_POINTS, &err);
  check_cl(err, "clCreateKernel vegas_sample_points");
  f->integrand = clCreateKernel(f->program, "test_integrand", &err);
  check_cl(err, "clCreateKernel test_integrand");
  f->x = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, dims * batch * sizeof(double), NULL, &err);
  check_cl(err, "clCreateBuffer x");
  f->factor = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, batch * sizeof(double), NULL, &err);
  check_cl(err, "clCreateBuffer factor");
  f->bins = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, dims * batch, NULL, &err);
  check_cl(err, "clCreateBuffer bins");
  f->me = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, batch * sizeof(double), NULL, &err);
  check_cl(err, "clCreateBuffer me");
}

static void fixture_free(fixture *f) {
  clReleaseMemObject(f->x);
  clReleaseMemObject(f->factor);
  clReleaseMemObject(f->bins);
  clReleaseMemObject(f->me);
  clReleaseKernel(f->sample);
  clReleaseKernel(f->integrand);
}

static hegetcl_status enqueue_points(fixture *f, uint32_t iteration, uint64_t first, size_t n,
                                     cl_mem grid) {
  const cl_uint lo = (cl_uint)f->seed, hi = (cl_uint)(f->seed >> 32), it = iteration;
  const cl_uint first_lo = (cl_uint)first, first_hi = (cl_uint)(first >> 32), count = (cl_uint)n;
  cl_int err = clSetKernelArg(f->sample, 0, sizeof(cl_mem), &grid);
  err |= clSetKernelArg(f->sample, 1, sizeof(cl_uint), &lo);
  err |= clSetKernelArg(f->sample, 2, sizeof(cl_uint), &hi);
  err |= clSetKernelArg(f->sample, 3, sizeof(cl_uint), &it);
  err |= clSetKernelArg(f->sample, 4, sizeof(cl_uint), &first_lo);
  err |= clSetKernelArg(f->sample, 5, sizeof(cl_uint), &first_hi);
  err |= clSetKernelArg(f->sample, 6, sizeof(cl_uint), &count);
  err |= clSetKernelArg(f->sample, 7, sizeof(cl_mem), &f->x);
  err |= clSetKernelArg(f->sample, 8, sizeof(cl_mem), &f->factor);
  err |= clSetKernelArg(f->sample, 9, sizeof(cl_mem), &f->bins);
  const size_t local = 64, global = (n + local - 1) / local * local;
  err |= clEnqueueNDRangeKernel(ctx->queue, f->sample, 1, NULL, &global, &local, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "vegas_sample_points", "test launch");
}

static hegetcl_status sampler(void *user, uint32_t iteration, uint64_t first, size_t n,
                              cl_mem grid) {
  fixture *f = user;
  hegetcl_status status = enqueue_points(f, iteration, first, n, grid);
  if (status != HEGETCL_OK) return status;
  const cl_uint count = (cl_uint)n;
  /* which = 4: the sine product times 1 + 0.02 k in iteration k, so iterations disagree */
  const cl_int which = f->which == 4 ? 4 + (cl_int)(iteration & 0xff) : f->which;
  cl_int err = clSetKernelArg(f->integrand, 0, sizeof(cl_mem), &f->x);
  err |= clSetKernelArg(f->integrand, 1, sizeof(cl_uint), &count);
  err |= clSetKernelArg(f->integrand, 2, sizeof(cl_int), &which);
  err |= clSetKernelArg(f->integrand, 3, sizeof(cl_mem), &f->factor);
  err |= clSetKernelArg(f->integrand, 4, sizeof(cl_mem), &f->me);
  const size_t local = 64, global = (n + local - 1) / local * local;
  err |= clEnqueueNDRangeKernel(ctx->queue, f->integrand, 1, NULL, &global, &local, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "test_integrand", "test launch");
}

/* VEGAS over integrand `which` (with the me buffer from which = 2 on); its status in *status
 * when status is not NULL, else a failure fails the test. */
static hegetcl_vegas_result integrate_status(unsigned dims, int which, hegetcl_vegas_settings s,
                                             hegetcl_status *status) {
  fixture f;
  fixture_make(&f, dims, s.bins, s.batch_size, which);
  f.seed = s.seed;
  hg_vegas *v = NULL;
  if (hg_vegas_create(ctx, f.program, dims, &s, &v) != HEGETCL_OK)
    fail_msg("hg_vegas_create: %s", hegetcl_last_error(ctx));
  const hg_vegas_buffers buffers = {f.factor, which >= 2 ? f.me : NULL, f.bins};
  hegetcl_vegas_result r;
  memset(&r, 0, sizeof r);
  const hegetcl_status got = hg_vegas_integrate(v, sampler, &f, &buffers, NULL, NULL, &r);
  if (status != NULL)
    *status = got;
  else if (got != HEGETCL_OK)
    fail_msg("hg_vegas_integrate: %s", hegetcl_last_error(ctx));
  hg_vegas_destroy(v);
  fixture_free(&f);
  return r;
}

static hegetcl_vegas_result integrate(unsigned dims, int which, hegetcl_vegas_settings s) {
  return integrate_status(dims, which, s, NULL);
}

static hegetcl_vegas_settings small_settings(void) {
  hegetcl_vegas_settings s;
  hegetcl_vegas_settings_defaults(&s);
  s.adapt_iterations = 3;
  s.adapt_events = 50000;
  s.events_per_iteration = 100000;
  s.min_iterations = 1;
  s.max_iterations = 5;
  s.target_rel_error = 0.0;
  s.batch_size = 65536;
  s.seed = 2024;
  return s;
}

static double peak_exact(unsigned dims) {
  const double a = PEAK_CENTRE / (PEAK_WIDTH * sqrt(2.0));
  const double b = (1.0 - PEAK_CENTRE) / (PEAK_WIDTH * sqrt(2.0));
  return pow(0.5 * (erf(a) + erf(b)), dims);
}

static void check_estimate(const char *name, hegetcl_vegas_result r, double exact) {
  const double pull = (r.estimate - exact) / r.error;
  print_message("# %s: %.8f +- %.1e (exact %.8f, pull %.2f, chi2/dof %.2f) on %s\n", name,
                r.estimate, r.error, exact, pull, r.chi2_per_dof, ts_device_name(ctx));
  if (fabs(pull) > 5.0)
    fail_msg("%s: %.8f +- %.1e is %.1f sigma from the exact %.8f", name, r.estimate, r.error, pull,
             exact);
  if (r.chi2_per_dof > 5.0)
    fail_msg("%s: chi2/dof = %.2f: the iterations disagree", name, r.chi2_per_dof);
}

static void sine_product_in_six_dimensions_integrates_to_one(void **state) {
  (void)state;
  const hegetcl_vegas_result r = integrate(6, 0, small_settings());
  check_estimate("sine product, 6 dimensions", r, 1.0);
  if (r.error > 2e-3) fail_msg("sine product: error %.2e larger than expected", r.error);
}

static void narrow_peak_is_found_and_adaptation_shrinks_the_error(void **state) {
  (void)state;
  hegetcl_vegas_settings adapted = small_settings();
  const hegetcl_vegas_result a = integrate(4, 1, adapted);
  check_estimate("narrow peak, 4 dimensions, adapted", a, peak_exact(4));
  hegetcl_vegas_settings plain = small_settings();
  plain.alpha = 0.0; /* ((r - 1) / ln r)^0 = 1: the grid stays uniform, plain Monte Carlo */
  const hegetcl_vegas_result p = integrate(4, 1, plain);
  print_message("# narrow peak: plain Monte Carlo error %.2e, VEGAS %.2e\n", p.error, a.error);
  if (!(a.error * 20.0 < p.error))
    fail_msg("adaptation did not help: VEGAS error %.2e vs plain %.2e", a.error, p.error);
}

static void result_does_not_depend_on_the_batch_size(void **state) {
  (void)state;
  hegetcl_vegas_settings s = small_settings();
  s.batch_size = 65536;
  const hegetcl_vegas_result big = integrate(4, 1, s);
  s.batch_size = 3000;
  const hegetcl_vegas_result small = integrate(4, 1, s);
  if (ts_rel_diff(big.estimate, small.estimate) > 1e-12 ||
      ts_rel_diff(big.error, small.error) > 1e-9)
    fail_msg("batch 65536: %.17g +- %.6g, batch 3000: %.17g +- %.6g", big.estimate, big.error,
             small.estimate, small.error);
  s.seed = 2025;
  const hegetcl_vegas_result other = integrate(4, 1, s);
  if (other.estimate == small.estimate)
    fail_msg("another seed gave the identical estimate %.17g", other.estimate);
}

/* A loose target sizes the combined iterations from the last adapting one's error: the run
 * reaches the target in about min_iterations iterations of adapt_events times a power of 2, and
 * stops there, instead of running min_iterations of events_per_iteration; a target that the
 * default iterations need, or none, leaves them as they were, bit for bit. */
static void a_loose_target_stops_soon_after_it(void **state) {
  (void)state;
  hegetcl_vegas_settings s = small_settings();
  s.min_iterations = 3;
  s.max_iterations = 20;
  s.events_per_iteration = 1600000;
  s.target_rel_error = 1e-3;
  const hegetcl_vegas_result loose = integrate(6, 0, s);
  check_estimate("sine product to 0.1 %", loose, 1.0);
  const double per_iteration = (double)loose.events / loose.iterations;
  const double doublings = log2(per_iteration / (double)s.adapt_events);
  print_message("# to 0.1 %%: %u iterations of %.0f events, error %.2e\n", loose.iterations,
                per_iteration, loose.error);
  if (!loose.reached_target || loose.error > 1e-3 * loose.estimate)
    fail_msg("target 0.1 %% not reached: error %.2e", loose.error / loose.estimate);
  if (!(per_iteration < 1600000) || fabs(doublings - round(doublings)) > 1e-12)
    fail_msg("iterations of %.0f events: expected adapt_events 50000 times a power of 2 below "
             "1600000",
             per_iteration);
  if (loose.iterations > 4)
    fail_msg("%u iterations to reach 0.1 %%: sized from the adapting error, about 3 expected",
             loose.iterations);
  /* target 0: never reached, events_per_iteration as given */
  s.target_rel_error = 0.0;
  s.max_iterations = 3;
  s.events_per_iteration = 100000;
  const hegetcl_vegas_result fixed = integrate(6, 0, s);
  if (fixed.events != 300000 || fixed.iterations != 3)
    fail_msg("target 0: %llu events in %u iterations, expected 3 of 100000",
             (unsigned long long)fixed.events, fixed.iterations);
  /* a target the default iterations need: the same run, bit for bit, as with target 0 */
  s.target_rel_error = 1e-9;
  const hegetcl_vegas_result tight = integrate(6, 0, s);
  if (tight.estimate != fixed.estimate || tight.error != fixed.error)
    fail_msg("a target that decides nothing changed the run: %.17g +- %.6g against %.17g +- %.6g",
             tight.estimate, tight.error, fixed.estimate, fixed.error);
  /* fixed_iteration_events: the loose target's run as before the sizing, min_iterations of
   * events_per_iteration, bit for bit the run with target 0 and as many iterations */
  s = small_settings();
  s.min_iterations = 3;
  s.max_iterations = 20;
  s.events_per_iteration = 400000;
  s.target_rel_error = 1e-3;
  s.fixed_iteration_events = 1;
  const hegetcl_vegas_result old_rule = integrate(6, 0, s);
  s.target_rel_error = 0.0;
  s.max_iterations = old_rule.iterations;
  const hegetcl_vegas_result replay = integrate(6, 0, s);
  if (old_rule.events != (uint64_t)old_rule.iterations * 400000 || old_rule.iterations < 3)
    fail_msg("fixed iteration events: %llu events in %u iterations, expected iterations of 400000",
             (unsigned long long)old_rule.events, old_rule.iterations);
  if (replay.estimate != old_rule.estimate || replay.error != old_rule.error)
    fail_msg("fixed iteration events with a loose target: %.17g +- %.6g, the same iterations with "
             "target 0: %.17g +- %.6g",
             old_rule.estimate, old_rule.error, replay.estimate, replay.error);
}

/* The chance of a chi^2 at least as large, against the closed forms for 1, 2 and 4 degrees of
 * freedom: erfc(sqrt(x/2)), e^(-x/2), e^(-x/2) (1 + x/2); 1 for one iteration. */
static void chi2_probability_is_the_closed_forms(void **state) {
  (void)state;
  const struct {
    double chi2_per_dof;
    unsigned iterations;
    double expected;
  } cases[] = {{1.5, 2, erfc(sqrt(0.75))},
               {3.0, 3, exp(-3.0)},
               {2.0, 4, erfc(sqrt(3.0)) + sqrt(12.0 / 3.14159265358979323846) * exp(-3.0)},
               {1.0, 5, exp(-2.0) * 3.0},
               {0.0, 3, 1.0},
               {9.0, 1, 1.0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    const double p = hegetcl_vegas_chi2_probability(cases[i].chi2_per_dof, cases[i].iterations);
    if (ts_rel_diff(p, cases[i].expected) > 1e-12)
      fail_msg("chi2/dof %g over %u iterations: probability %.17g, expected %.17g",
               cases[i].chi2_per_dof, cases[i].iterations, p, cases[i].expected);
  }
  if (!(hegetcl_vegas_chi2_probability(3.0, 3) < HEGETCL_VEGAS_CHI2_SUSPECT))
    fail_msg("chi2/dof 3.00 with 2 degrees of freedom (p = 0.050) is not flagged");
}

/* The cuts' zeros win over an infinite or NaN |M|^2 beyond them (hg_event_weight): the estimate is
 * the integral inside the cut, and nothing is counted as non-finite. */
static void events_outside_the_cuts_weigh_zero_whatever_their_me(void **state) {
  (void)state;
  const hegetcl_vegas_result r = integrate(3, 2, small_settings());
  check_estimate("sine product cut at x_0 < 1/2, me infinite or NaN beyond", r, 0.5);
}

/* A NaN |M|^2 inside the cuts is never added: the iteration stops the run and says how many. */
static void nonfinite_weights_inside_the_cuts_stop_the_run_with_their_count(void **state) {
  (void)state;
  hegetcl_status status = HEGETCL_OK;
  integrate_status(3, 3, small_settings(), &status);
  const char *message = hegetcl_last_error(ctx);
  print_message("# %s\n", message);
  assert_int_equal(status, HEGETCL_ERR_NONFINITE);
  /* about 0.1 % of 50000 events of the first iteration */
  unsigned count = 0, events = 0;
  if (sscanf(strstr(message, ": ") != NULL ? strstr(message, ": ") + 2 : message,
             "%u of %u events have a non-finite weight", &count, &events) != 2)
    fail_msg("the message does not give the count: %s", message);
  if (events != 50000 || count < 10 || count > 200)
    fail_msg("%u of %u events counted non-finite, expected ~50 of 50000: %s", count, events,
             message);
}

/* Iterations that disagree far beyond their errors end the run with an error naming chi2/dof,
 * not a sigma with a confident error. */
static void iterations_that_disagree_end_the_run_with_an_error(void **state) {
  (void)state;
  hegetcl_vegas_settings s = small_settings();
  s.min_iterations = 3;
  s.max_iterations = 4;
  hegetcl_status status = HEGETCL_OK;
  integrate_status(2, 4, s, &status);
  assert_int_equal(status, HEGETCL_ERR_INPUT);
  const char *message = hegetcl_last_error(ctx);
  if (strstr(message, "the integration is unreliable: its 4 combined iterations disagree") ==
          NULL ||
      strstr(message, "lower --vegas-alpha") == NULL)
    fail_msg("message: %s", message);
}

/* The threshold (probability about 1e-6 for consistent iterations) on runs measured on PoCL:
 * grids collapsed by --vegas-alpha 5, 10, 100 (n = 2, 100 iterations) and 3 (n = 3, 27) are
 * flagged; the project's sound runs (n = 2 and 3 at alpha 0.5 to 2, README's n = 10 with
 * 20 iterations at 2.76) and two iterations (too few to tell) are not. */
static void chi2_threshold_flags_collapsed_grids_only(void **state) {
  (void)state;
  const struct {
    double chi2;
    unsigned iterations;
    int unreliable;
  } runs[] = {{6.98, 100, 1}, {4.52, 100, 1}, {3.16, 100, 1}, {11.44, 27, 1}, {16.0, 3, 1},
              {2.14, 3, 0},   {3.08, 8, 0},   {2.56, 7, 0},   {2.76, 20, 0},  {1.34, 13, 0},
              {50.0, 2, 0},   {1.0, 100, 0},  {1.7, 100, 0}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i)
    if (hg_vegas_chi2_unreliable(runs[i].chi2, runs[i].iterations) != runs[i].unreliable)
      fail_msg("chi2/dof %g over %u iterations: %s, expected %s", runs[i].chi2,
               runs[i].iterations, runs[i].unreliable ? "passed" : "flagged",
               runs[i].unreliable ? "flagged" : "passed");
}

static void device_points_equal_host_philox_and_map(void **state) {
  (void)state;
  const unsigned dims = 5, bins = 16;
  const size_t n = 1000;
  fixture f;
  fixture_make(&f, dims, bins, n, 0);
  f.seed = 0x0123456789abcdefull;
  /* a non-uniform grid: edges i^2 / bins^2 */
  double edges[5 * 17];
  for (unsigned j = 0; j < dims; ++j)
    for (unsigned i = 0; i <= bins; ++i)
      edges[j * (bins + 1) + i] = (double)(i * i) / (double)(bins * bins);
  cl_int err;
  cl_mem grid = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof edges,
                               edges, &err);
  check_cl(err, "clCreateBuffer grid");
  const uint64_t first = ((uint64_t)1 << 32) + 7; /* crosses into the counter's high word */
  const uint32_t iteration = 3;
  if (enqueue_points(&f, iteration, first, n, grid) != HEGETCL_OK)
    fail_msg("%s", hegetcl_last_error(ctx));
  double *x = malloc(dims * n * sizeof *x), *jac = malloc(n * sizeof *jac);
  check_cl(clEnqueueReadBuffer(ctx->queue, f.x, CL_TRUE, 0, dims * n * sizeof *x, x, 0, NULL, NULL),
           "read x");
  check_cl(
      clEnqueueReadBuffer(ctx->queue, f.factor, CL_TRUE, 0, n * sizeof *jac, jac, 0, NULL, NULL),
      "read factor");
  double worst = 0.0;
  for (size_t e = 0; e < n; ++e) {
    double host_jac = 1.0;
    for (unsigned j = 0; j < dims; ++j) {
      const hg_philox_words r = hg_philox4x32_10(hg_philox_counter(first + e, iteration, j / 2),
                                                 (hg_u32)f.seed, (hg_u32)(f.seed >> 32));
      const double u = hg_uniform_double(r.v[2 * (j % 2)], r.v[2 * (j % 2) + 1]);
      int bin;
      const double host_x = hg_vegas_map(edges, (int)j, (int)bins, u, &host_jac, &bin);
      const double d = ts_rel_diff(x[j * n + e], host_x);
      worst = d > worst ? d : worst;
    }
    const double d = ts_rel_diff(jac[e], host_jac);
    worst = d > worst ? d : worst;
  }
  print_message("# device vs host points: largest relative difference %.2e on %s\n", worst,
                ts_device_name(ctx));
  /* the same operations in IEEE double; a device may contract a * b + c into one fma */
  if (worst > 1e-14) fail_msg("device and host points differ by %.2e", worst);
  free(x);
  free(jac);
  clReleaseMemObject(grid);
  fixture_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_points_equal_host_philox_and_map),
      cmocka_unit_test(sine_product_in_six_dimensions_integrates_to_one),
      cmocka_unit_test(narrow_peak_is_found_and_adaptation_shrinks_the_error),
      cmocka_unit_test(result_does_not_depend_on_the_batch_size),
      cmocka_unit_test(a_loose_target_stops_soon_after_it),
      cmocka_unit_test(chi2_probability_is_the_closed_forms),
      cmocka_unit_test(events_outside_the_cuts_weigh_zero_whatever_their_me),
      cmocka_unit_test(nonfinite_weights_inside_the_cuts_stop_the_run_with_their_count),
      cmocka_unit_test(iterations_that_disagree_end_the_run_with_an_error),
      cmocka_unit_test(chi2_threshold_flags_collapsed_grids_only),
  };
  return cmocka_run_group_tests_name("known_integrals", tests, setup, teardown);
}
