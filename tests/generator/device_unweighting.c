/* SPDX-License-Identifier: MIT */
/* The hit-or-miss of a process run on the device (generator_mark, generator_compact) against a
 * second method: the batches sampled again and decided on the host, event by event, with the same
 * Philox numbers. For g g > t t~ with the maximum lowered to 1.5 times the mean weight (many events above it):
 * the same events kept, in the same order; the same tried, overweight and negative counts and the
 * same sum of weights; the same events for another batch size (not a multiple of the work-group);
 * the kept events' distribution in log(x1 x2) (8 bins) against the expectation sum_e min(1, w_e / w_max) of
 * the tried events (a z-score per bin); sigma from the pass against the integration's. And
 * p p > t t~'s groups of 1 and 4 members share one sampler program and keep their channels'
 * sums. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "generator/run_internal.h"
#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "shared/layout.h"
#include "shared/philox.h"
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

typedef struct {
  size_t n, capacity;
  hegetcl_event *events;
} collected;

static hegetcl_status collect(const hegetcl_event *e, void *user) {
  collected *c = user;
  if (c->n == c->capacity) {
    c->capacity = c->capacity ? 2 * c->capacity : 1024;
    c->events = realloc(c->events, c->capacity * sizeof *c->events);
    if (c->events == NULL) return HEGETCL_ERR_NO_MEMORY;
  }
  c->events[c->n] = *e;
  c->events[c->n].variations = NULL;
  ++c->n;
  return HEGETCL_OK;
}

#define N_EVENTS 2000
#define N_BINS 8
#define BATCH 16384

/* log(x1 x2) in N_BINS bins over [log(4 m_t^2 / s), that + 3), the last open above. */
static int bin_of(double tau, double sqrt_s) {
  const double low = log(4.0 * 173.0 * 173.0 / (sqrt_s * sqrt_s));
  const int b = (int)floor(N_BINS * (log(tau) - low) / 3.0);
  return b < 0 ? 0 : b >= N_BINS ? N_BINS - 1 : b;
}

static void device_against_host(void **state) {
  (void)state;
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "g g > t t~");
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.vegas.adapt_iterations = 3;
  c.vegas.adapt_events = 20000;
  c.vegas.events_per_iteration = 40000;
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 2;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = BATCH;
  c.vegas.seed = 17;
  hg_gen_run *run = NULL;
  hegetcl_xsec_result result;
  memset(&result, 0, sizeof result);
  hegetcl_status status = hg_gen_run_create(ctx, &c, &run);
  if (status == HEGETCL_OK) status = hg_gen_run_pilot(run);
  if (status == HEGETCL_OK) status = hg_gen_run_integrate(run, NULL, NULL, &result);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  assert_int_equal(run->n_groups, 1);
  gen_group *g = &run->groups[0];
  /* 1.5 times the mean weight: a good share of the events lies above it */
  g->result.max_weight = 1.5 * g->result.estimate;
  const double w_max = g->result.max_weight;

  /* the device's hit-or-miss at two batch sizes */
  collected a = {0}, b = {0};
  hegetcl_unweighting_result ua, ub;
  hegetcl_xsec_result times;
  memset(&times, 0, sizeof times);
  status = hg_gen_run_unweight(run, N_EVENTS, collect, &a, NULL, NULL, &ua, &times);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  run->config.vegas.batch_size = 5000; /* the buffers hold BATCH */
  status = hg_gen_run_unweight(run, N_EVENTS, collect, &b, NULL, NULL, &ub, &times);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  run->config.vegas.batch_size = BATCH;
  assert_int_equal(a.n, N_EVENTS);
  assert_int_equal(b.n, N_EVENTS);
  for (size_t i = 0; i < a.n; ++i) {
    if (a.events[i].number != b.events[i].number ||
        memcmp(a.events[i].p, b.events[i].p, sizeof a.events[i].p) != 0 ||
        memcmp(a.events[i].colour, b.events[i].colour, sizeof a.events[i].colour) != 0)
      fail_msg("event %zu: number %llu with batch %d, %llu with batch 5000", i,
               (unsigned long long)a.events[i].number, BATCH,
               (unsigned long long)b.events[i].number);
  }
  assert_int_equal(ua.tried, ub.tried);
  assert_int_equal(ua.overweight, ub.overweight);
  assert_true(fabs(ua.sigma_check_fb / ub.sigma_check_fb - 1.0) < 1e-12);

  /* the host's hit-or-miss over the same batches */
  const size_t np = (size_t)g->spec.n;
  double *factor = malloc(BATCH * sizeof *factor), *me = malloc(BATCH * sizeof *me);
  double *momenta = malloc(4 * np * BATCH * sizeof *momenta);
  assert_non_null(factor);
  assert_non_null(me);
  assert_non_null(momenta);
  g->key_high = hg_gen_stage_key(run, 0, 2);
  uint64_t kept = 0, tried = 0, overweight = 0, negative = 0;
  double sum = 0.0, sum2 = 0.0, expected[N_BINS] = {0}, variance[N_BINS] = {0};
  for (uint64_t first = 0; kept < N_EVENTS; first += BATCH) {
    status = hg_gen_group_sample(g, GEN_UNWEIGHT_ITERATION, first, BATCH, NULL);
    cl_int err = clEnqueueReadBuffer(ctx->queue, g->factor, CL_FALSE, 0, BATCH * sizeof(double),
                                     factor, 0, NULL, NULL);
    err |= clEnqueueReadBuffer(ctx->queue, g->amp->momenta, CL_FALSE, 0,
                               4 * np * BATCH * sizeof(double), momenta, 0, NULL, NULL);
    err |= clEnqueueReadBuffer(ctx->queue, g->amp->me, CL_TRUE, 0, BATCH * sizeof(double), me, 0,
                               NULL, NULL);
    assert_int_equal(status, HEGETCL_OK);
    assert_int_equal(err, CL_SUCCESS);
    for (size_t e = 0; e < BATCH && kept < N_EVENTS; ++e) {
      const double w = factor[e] != 0.0 ? factor[e] * me[e] : 0.0;
      ++tried;
      sum += w;
      sum2 += w * w;
      overweight += w > w_max;
      negative += w < 0.0;
      const double e1 = momenta[HG_SOA_INDEX(0, 0, np, BATCH, e)];
      const double e2 = momenta[HG_SOA_INDEX(0, 1, np, BATCH, e)];
      const double x = 4.0 * e1 * e2 / (c.sqrt_s_gev * c.sqrt_s_gev);
      const double p = w > 0.0 ? fmin(1.0, w / w_max) : 0.0;
      if (w > 0.0) {
        expected[bin_of(x, c.sqrt_s_gev)] += p;
        variance[bin_of(x, c.sqrt_s_gev)] += p * (1.0 - p);
      }
      const hg_philox_words r = hg_philox4x32_10(
          hg_philox_counter(first + e, GEN_UNWEIGHT_ITERATION, HG_GEN_BLOCK_UNWEIGHT),
          (hg_u32)c.vegas.seed, g->key_high);
      if (!(hg_uniform_double(r.v[0], r.v[1]) * w_max < w)) continue;
      if (a.events[kept].number != first + e)
        fail_msg("kept event %llu: the device's is number %llu, the host's %llu",
                 (unsigned long long)kept, (unsigned long long)a.events[kept].number,
                 (unsigned long long)(first + e));
      ++kept;
    }
  }
  print_message("# %llu tried, %llu above w_max, %llu kept\n", (unsigned long long)tried,
                (unsigned long long)overweight, (unsigned long long)kept);
  assert_int_equal(ua.tried, tried);
  assert_int_equal(ua.overweight, overweight);
  assert_int_equal(ua.negative, negative);
  assert_true(overweight > 50); /* the accounting met many */
  const double mean = sum / (double)tried;
  assert_true(fabs(ua.sigma_check_fb / mean - 1.0) < 1e-12);

  /* the kept events' distribution against the tried events' expectation */
  double observed[N_BINS] = {0};
  for (size_t i = 0; i < a.n; ++i) observed[bin_of(a.events[i].x1 * a.events[i].x2, c.sqrt_s_gev)]++;
  for (int k = 0; k < N_BINS; ++k) {
    if (!(variance[k] > 0.0)) continue;
    const double z = (observed[k] - expected[k]) / sqrt(variance[k]);
    print_message("# bin %d: %g kept, %.1f expected, z %+.2f\n", k, observed[k], expected[k], z);
    assert_true(fabs(z) < 4.0);
  }
  /* sigma from the pass (the tried events' mean weight) against the integration's */
  const double spread = sqrt((sum2 / (double)tried - mean * mean) / (double)tried);
  const double pull = (mean - result.vegas.estimate) /
                      sqrt(spread * spread + result.vegas.error * result.vegas.error);
  print_message("# sigma from the pass %.6e +- %.2e fb, integration %.6e +- %.2e fb, pull %+.2f\n",
                mean, spread, result.vegas.estimate, result.vegas.error, pull);
  assert_true(fabs(pull) < 4.0);
  free(factor);
  free(me);
  free(momenta);
  free(a.events);
  free(b.events);
  hegetcl_xsec_result_free(&result);
  hg_gen_run_destroy(run);
}

/* p p > t t~: groups of 1 (g g) and 4 members (u u~, d d~) share one sampler program, built for
 * 4 members, and each group's channel sums still read its own members (the padded ones are 0):
 * its channels add up to the group (the same weights summed per member). */
static void groups_share_one_sampler(void **state) {
  (void)state;
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "p p > t t~");
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.vegas.adapt_iterations = 2;
  c.vegas.adapt_events = 10000;
  c.vegas.events_per_iteration = 20000;
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 2;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 8192;
  c.vegas.seed = 3;
  hegetcl_xsec_result r;
  memset(&r, 0, sizeof r);
  hg_gen_run *run = NULL;
  hegetcl_status status = hg_gen_run_create(ctx, &c, &run);
  if (status == HEGETCL_OK) status = hg_gen_run_pilot(run);
  if (status == HEGETCL_OK) status = hg_gen_run_integrate(run, NULL, NULL, &r);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  assert_int_equal(run->n_groups, 3);
  unsigned most = 0, fewest = 64;
  for (unsigned g = 0; g < run->n_groups; ++g) {
    most = run->groups[g].n_channels > most ? run->groups[g].n_channels : most;
    fewest = run->groups[g].n_channels < fewest ? run->groups[g].n_channels : fewest;
    assert_ptr_equal(run->groups[g].program, run->groups[0].program);
  }
  assert_true(fewest < most);
  assert_int_equal(run->members_max, most);
  for (unsigned g = 0; g < r.n_groups; ++g) {
    double sum = 0.0;
    for (unsigned k = 0; k < r.n_process_channels; ++k)
      if (r.process_channels[k].group == g) sum += r.process_channels[k].sigma_fb;
    print_message("# %s: %.5e fb, its channels %.5e fb\n", r.groups[g].text, r.groups[g].sigma_fb,
                  sum);
    assert_true(fabs(sum / r.groups[g].sigma_fb - 1.0) < 1e-9);
  }
  hegetcl_xsec_result_free(&r);
  hg_gen_run_destroy(run);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(device_against_host),
                                     cmocka_unit_test(groups_share_one_sampler)};
  return cmocka_run_group_tests_name("device_unweighting", tests, setup, teardown);
}
