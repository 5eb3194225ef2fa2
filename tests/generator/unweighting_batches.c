/* SPDX-License-Identifier: MIT */
/* The unweighting's batch per group, sized from the events the group still needs
 * (hg_gen_unweight_batch_size): a batch of that size misses the events it is sized for with a
 * binomial probability (summed here term by term) below 0.3 %, and tries at most about four of
 * their Poisson deviations more than needed; it is rounded to the granule, kept within its floor
 * and the configured batch, and follows the group's own acceptance once its batches have
 * measured one. For p p > t t~ (3 groups, 3000 events, batch 65 536): each group gets its
 * largest-remainder share of sigma (computed here from the groups' sigma) and writes that many
 * events; no group samples a full batch any more (each sampled one before), the smallest group
 * one batch no larger than the floor (at most 4096 of 65 536), every group at least what it tried;
 * and the events, their order and the tried count are those of a run with batches of 8192 (other
 * sizes, the same Philox counters). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator/run_internal.h"
#include "hegetcl/xsec.h"
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

/* P(X < k) for X binomial(n, p), summed over its terms. */
static double binomial_below(uint64_t k, double n, double p) {
  double sum = 0.0;
  for (uint64_t j = 0; j < k; ++j)
    sum += exp(lgamma(n + 1.0) - lgamma((double)j + 1.0) - lgamma(n - (double)j + 1.0) +
               (double)j * log(p) + (n - (double)j) * log1p(-p));
  return sum;
}

static void batch_sizes(void **state) {
  (void)state;
  const size_t huge = (size_t)1 << 40;
  const uint64_t needs[] = {1, 3, 10, 100, 1000, 10000};
  const double accept[] = {0.5, 0.05, 0.002};
  for (size_t i = 0; i < sizeof needs / sizeof *needs; ++i)
    for (size_t j = 0; j < sizeof accept / sizeof *accept; ++j) {
      const uint64_t need = needs[i];
      const double p = accept[j];
      const size_t n = hg_gen_unweight_batch_size(need, 0, 0, p, 1, huge, 1);
      const double miss = binomial_below(need, (double)n, p);
      const double excess = ((double)n * p - (double)need) / sqrt((double)need);
      print_message("# %6llu events at acceptance %.3f: %9zu trials, P(short) %.2e, expected "
                    "excess %.2f sqrt(needed)\n",
                    (unsigned long long)need, p, n, miss, excess);
      if (!(miss < 3e-3))
        fail_msg("%llu events at %.3f: %zu trials miss them with probability %.3g",
                 (unsigned long long)need, p, n, miss);
      if (!((double)n * p < (double)need + 4.0 * sqrt((double)need) + 8.0))
        fail_msg("%llu events at %.3f: %zu trials expect %.1f kept (wasteful)",
                 (unsigned long long)need, p, n, (double)n * p);
    }
  /* the granule, the floor, the configured batch */
  const size_t one = hg_gen_unweight_batch_size(100, 0, 0, 0.05, 1, huge, 1);
  const size_t g128 = hg_gen_unweight_batch_size(100, 0, 0, 0.05, 1, huge, 128);
  assert_int_equal(g128 % 128, 0);
  assert_true(g128 >= one && g128 < one + 128);
  assert_int_equal(hg_gen_unweight_batch_size(1, 0, 0, 0.5, 4096, 65536, 128), 4096);
  assert_int_equal(hg_gen_unweight_batch_size(1, 0, 0, 0.5, 4000, 65536, 128), 4096);
  assert_int_equal(hg_gen_unweight_batch_size(100000, 0, 0, 0.01, 4096, 65536, 128), 65536);
  /* a floor above the batch, a batch below the granule: the batch */
  assert_int_equal(hg_gen_unweight_batch_size(1, 0, 0, 0.5, 9000, 5000, 128), 5000);
  assert_int_equal(hg_gen_unweight_batch_size(1, 0, 0, 0.5, 1, 100, 128), 100);
  /* no efficiency known: the batch */
  assert_int_equal(hg_gen_unweight_batch_size(1, 0, 0, 0.0, 1, 65536, 128), 65536);
  assert_int_equal(hg_gen_unweight_batch_size(1, 0, 0, NAN, 1, 65536, 128), 65536);
  /* the group's own batches: 100 kept of 10 000 tried say 1 %, whatever the 50 % it began with */
  const size_t measured = hg_gen_unweight_batch_size(50, 100, 10000, 0.5, 1, huge, 1);
  const size_t at_one_percent = hg_gen_unweight_batch_size(50, 0, 0, 0.0101, 1, huge, 1);
  assert_true(fabs((double)measured / (double)at_one_percent - 1.0) < 0.01);
  /* none kept yet: the acceptance it assumes falls as the tries grow */
  assert_true(hg_gen_unweight_batch_size(50, 0, 100000, 0.5, 1, huge, 1) >
              hg_gen_unweight_batch_size(50, 0, 0, 0.5, 1, huge, 1));
}

#define N_EVENTS 3000
#define BATCH 65536

typedef struct {
  size_t n;
  hegetcl_event events[N_EVENTS];
} collected;

static hegetcl_status collect(const hegetcl_event *e, void *user) {
  collected *c = user;
  if (c->n == N_EVENTS) return HEGETCL_ERR_INPUT;
  c->events[c->n] = *e;
  c->events[c->n].variations = NULL;
  ++c->n;
  return HEGETCL_OK;
}

static collected first_run, second_run;

static void groups_sized_by_their_needs(void **state) {
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
  c.vegas.batch_size = BATCH;
  c.vegas.seed = 5;
  hegetcl_xsec_result r;
  memset(&r, 0, sizeof r);
  hg_gen_run *run = NULL;
  hegetcl_status status = hg_gen_run_create(ctx, &c, &run);
  if (status == HEGETCL_OK) status = hg_gen_run_pilot(run);
  if (status == HEGETCL_OK) status = hg_gen_run_integrate(run, NULL, NULL, &r);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  assert_int_equal(r.n_groups, 3);

  /* each group's share: floor(N sigma_g / sigma), the rest to the largest remainders */
  uint64_t share[3] = {0}, given = 0;
  double total = 0.0, rest[3];
  for (unsigned g = 0; g < 3; ++g) total += r.groups[g].sigma_fb;
  for (unsigned g = 0; g < 3; ++g) {
    const double exact = N_EVENTS * r.groups[g].sigma_fb / total;
    share[g] = (uint64_t)floor(exact);
    rest[g] = exact - floor(exact);
    given += share[g];
  }
  for (; given < N_EVENTS; ++given) {
    unsigned best = 0;
    for (unsigned g = 1; g < 3; ++g) best = rest[g] > rest[best] ? g : best;
    ++share[best];
    rest[best] = -1.0;
  }

  hegetcl_unweighting_result u;
  status = hg_gen_run_unweight(run, N_EVENTS, collect, &first_run, NULL, NULL, &u, &r);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  assert_int_equal(first_run.n, N_EVENTS);
  uint64_t seen[3] = {0}, sampled = 0, batches = 0, tried = 0;
  for (size_t i = 0; i < first_run.n; ++i) {
    const int id = first_run.events[i].process_id;
    assert_true(id >= 1 && id <= 3);
    ++seen[id - 1];
  }
  const size_t least = BATCH / 16;
  unsigned smallest = 0;
  for (unsigned g = 0; g < 3; ++g) {
    const hegetcl_xsec_group *x = &r.groups[g];
    print_message("# %-14s sigma %.5e fb, %4llu events (share %4llu), tried %6llu, sampled %6llu "
                  "in %u batches (efficiency %.3f)\n",
                  x->text, x->sigma_fb, (unsigned long long)x->unweighted_events,
                  (unsigned long long)share[g], (unsigned long long)x->unweighting_tried,
                  (unsigned long long)x->unweighting_sampled, x->unweighting_batches,
                  x->unweighting_efficiency);
    if (x->unweighted_events != share[g] || seen[g] != share[g])
      fail_msg("%s: %llu events counted, %llu written, %llu its share of sigma", x->text,
               (unsigned long long)x->unweighted_events, (unsigned long long)seen[g],
               (unsigned long long)share[g]);
    assert_true(x->unweighting_batches >= 1);
    assert_true(x->unweighting_tried <= x->unweighting_sampled);
    assert_true(x->unweighting_tried >= x->unweighted_events);
    assert_int_equal(x->unweighting_sampled % 128, 0);
    /* before, every group sampled a full batch at least */
    if (x->unweighting_sampled >= BATCH)
      fail_msg("%s: %llu events sampled for %llu events: a full batch", x->text,
               (unsigned long long)x->unweighting_sampled,
               (unsigned long long)x->unweighted_events);
    sampled += x->unweighting_sampled;
    batches += x->unweighting_batches;
    tried += x->unweighting_tried;
    smallest = share[g] < share[smallest] ? g : smallest;
  }
  /* the smallest group needs a few hundred trials: one batch of the floor, at most BATCH / 16
   * (and a work-group's more) */
  assert_true(share[smallest] > 0);
  assert_int_equal(r.groups[smallest].unweighting_batches, 1);
  if (r.groups[smallest].unweighting_sampled > least + 128)
    fail_msg("%s: %llu sampled for %llu events at efficiency %.3f (%llu tried): above the floor "
             "%zu",
             r.groups[smallest].text, (unsigned long long)r.groups[smallest].unweighting_sampled,
             (unsigned long long)share[smallest], r.groups[smallest].unweighting_efficiency,
             (unsigned long long)r.groups[smallest].unweighting_tried, least);
  assert_int_equal(u.sampled, sampled);
  assert_int_equal(u.batches, batches);
  assert_int_equal(u.tried, tried);

  /* other batch sizes, the same events */
  run->config.vegas.batch_size = 8192; /* the buffers hold BATCH */
  hegetcl_unweighting_result v;
  status = hg_gen_run_unweight(run, N_EVENTS, collect, &second_run, NULL, NULL, &v, &r);
  if (status != HEGETCL_OK) fail_msg("%s", hegetcl_last_error(ctx));
  assert_int_equal(second_run.n, N_EVENTS);
  print_message("# batch %d: %llu sampled in %llu batches; batch 8192: %llu in %llu; %llu tried\n",
                BATCH, (unsigned long long)u.sampled, (unsigned long long)u.batches,
                (unsigned long long)v.sampled, (unsigned long long)v.batches,
                (unsigned long long)u.tried);
  assert_int_equal(u.tried, v.tried);
  assert_true(u.batches != v.batches || u.sampled != v.sampled); /* the sizes did differ */
  for (size_t i = 0; i < N_EVENTS; ++i) {
    const hegetcl_event *a = &first_run.events[i], *b = &second_run.events[i];
    if (a->number != b->number || a->process_id != b->process_id ||
        memcmp(a->p, b->p, sizeof a->p) != 0 || memcmp(a->pid, b->pid, sizeof a->pid) != 0 ||
        memcmp(a->colour, b->colour, sizeof a->colour) != 0)
      fail_msg("event %zu: number %llu of group %d with batch %d, %llu of group %d with 8192", i,
               (unsigned long long)a->number, a->process_id, BATCH, (unsigned long long)b->number,
               b->process_id);
  }
  hegetcl_xsec_result_free(&r);
  hg_gen_run_destroy(run);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(batch_sizes),
                                     cmocka_unit_test(groups_sized_by_their_needs)};
  return cmocka_run_group_tests_name("unweighting_batches", tests, setup, teardown);
}
