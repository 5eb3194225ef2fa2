/* SPDX-License-Identifier: MIT */
/* A process run shared over several devices of one process, and over processes (a team: here two
 * threads with contexts of their own whose allreduce is a sum under a barrier, as MPI ranks
 * would be), gives the one-device run's numbers bit for bit: sigma, its error, chi2/dof, every
 * group's and partonic channel's sigma, every scale variation's, every iteration of every group
 * (with a batch that does not divide the iterations). The devices are contexts of the device
 * under test (one per "device", as two GPUs would be). The unweighting of a device-shared run is
 * the one-device run's, event for event; a team's ranks each make their share of the events from
 * streams of their own: their events add up to the number asked for and no event of one rank is
 * another's. A team that is no team, and a checkpoint of a run shared by processes, are refused. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

#define MAX_DEVICES 3
#define MAX_ITERATIONS 64
#define EVENTS 400

static hegetcl_context *devices[MAX_DEVICES];

static int setup(void **state) {
  (void)state;
  for (unsigned k = 0; k < MAX_DEVICES; ++k)
    if ((devices[k] = ts_context_create()) == NULL) return 1;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (unsigned k = 0; k < MAX_DEVICES; ++k) hegetcl_context_destroy(devices[k]);
  return 0;
}

/* p p > t t~ (three groups, nine channels) with the 7-point scale variations: 2 adapting and 2
 * combined iterations per group, batches of 3000 events. */
static hegetcl_xsec_config shared_config(void) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", "p p > t t~");
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.scale_variations = 7;
  c.vegas.adapt_iterations = 2;
  c.vegas.adapt_events = 12000;
  c.vegas.events_per_iteration = 30000;
  c.vegas.batch_size = 3000;
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 2;
  c.vegas.target_rel_error = 0.0;
  c.vegas.seed = 5;
  c.unweighted_events = EVENTS;
  return c;
}

/* A run's iterations and events (an event: its number, first particle's momentum). */
typedef struct {
  hegetcl_vegas_iteration its[MAX_ITERATIONS];
  size_t n_its;
  uint64_t event_number[EVENTS];
  double p[EVENTS][4];
  size_t n_events;
} record;

static void keep(const hegetcl_vegas_iteration *it, void *user) {
  record *r = user;
  if (r->n_its < MAX_ITERATIONS) r->its[r->n_its++] = *it;
}

static hegetcl_status sink(const hegetcl_event *e, void *user) {
  record *r = user;
  if (r->n_events == EVENTS) return HEGETCL_ERR_INPUT;
  r->event_number[r->n_events] = e->number;
  memcpy(r->p[r->n_events], e->p[2], sizeof r->p[0]);
  ++r->n_events;
  return HEGETCL_OK;
}

static hegetcl_status run_shared(hegetcl_context *ctx, const hegetcl_xsec_sharing *sharing,
                                 record *rec, hegetcl_xsec_result *r) {
  const hegetcl_xsec_config c = shared_config();
  const hegetcl_xsec_hooks hooks = {
      .progress = keep, .progress_user = rec, .sink = sink, .sink_user = rec, .sharing = sharing};
  return hegetcl_xsec_generate(ctx, &c, &hooks, r);
}

static void same(double a, double b, const char *what, const char *how) {
  if (memcmp(&a, &b, sizeof a) != 0)
    fail_msg("%s %s: %.17g, on one device: %.17g (must be equal bit for bit)", what, how, b, a);
}

/* Every number of r equals one's, bit for bit. */
static void same_numbers(const hegetcl_xsec_result *one, const record *one_rec,
                         const hegetcl_xsec_result *r, const record *rec, const char *how) {
  same(one->vegas.estimate, r->vegas.estimate, "sigma", how);
  same(one->vegas.error, r->vegas.error, "its error", how);
  same(one->vegas.chi2_per_dof, r->vegas.chi2_per_dof, "chi2/dof", how);
  if (r->n_groups != 3 || r->n_process_channels != 9 || r->variations == NULL)
    fail_msg("%s: %u groups, %u channels, variations %p", how, r->n_groups, r->n_process_channels,
             (void *)r->variations);
  for (unsigned g = 0; g < r->n_groups; ++g) {
    same(one->groups[g].sigma_fb, r->groups[g].sigma_fb, r->groups[g].text, how);
    same(one->groups[g].error_fb, r->groups[g].error_fb, r->groups[g].text, how);
  }
  for (unsigned k = 0; k < r->n_process_channels; ++k)
    same(one->process_channels[k].sigma_fb, r->process_channels[k].sigma_fb,
         r->process_channels[k].text, how);
  for (unsigned k = 0; k < r->variations->list.n; ++k) {
    same(one->variations->sigma_fb[k], r->variations->sigma_fb[k], "a variation's sigma", how);
    same(one->variations->error_fb[k], r->variations->error_fb[k], "a variation's error", how);
  }
  /* 3 groups x (1 pilot, unheard) 4 iterations */
  if (rec->n_its != one_rec->n_its || rec->n_its != 12)
    fail_msg("%s: %zu iterations heard, one device %zu, 12 expected", how, rec->n_its,
             one_rec->n_its);
  for (size_t i = 0; i < rec->n_its; ++i) {
    same(one_rec->its[i].estimate, rec->its[i].estimate, "an iteration's estimate", how);
    same(one_rec->its[i].variance, rec->its[i].variance, "an iteration's variance", how);
  }
}

static record one_rec, rec;

static void devices_share_a_run_bit_for_bit(void **state) {
  (void)state;
  ts_skip_without_fp64(devices[0], HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_result one, r;
  memset(&one_rec, 0, sizeof one_rec);
  if (run_shared(devices[0], NULL, &one_rec, &one) != HEGETCL_OK)
    fail_msg("one device: %s", hegetcl_last_error(devices[0]));
  print_message("# one device: %.17g +- %.17g fb\n", one.vegas.estimate, one.vegas.error);
  for (unsigned count = 2; count <= MAX_DEVICES; ++count) {
    const hegetcl_xsec_sharing sharing = {.devices = devices + 1, .n_devices = count - 1};
    memset(&rec, 0, sizeof rec);
    if (run_shared(devices[0], &sharing, &rec, &r) != HEGETCL_OK)
      fail_msg("%u devices: %s", count, hegetcl_last_error(devices[0]));
    char how[32];
    snprintf(how, sizeof how, "on %u devices", count);
    same_numbers(&one, &one_rec, &r, &rec, how);
    /* the unweighting runs on the run's own device from the same grids: the same events */
    if (rec.n_events != EVENTS || one_rec.n_events != EVENTS ||
        memcmp(rec.p, one_rec.p, sizeof rec.p) != 0 ||
        memcmp(rec.event_number, one_rec.event_number, sizeof rec.event_number) != 0)
      fail_msg("%s: the events differ from one device's (%zu and %zu)", how, rec.n_events,
               one_rec.n_events);
    hegetcl_xsec_result_free(&r);
  }
  hegetcl_xsec_result_free(&one);
}

/* A team of two threads: allreduce adds both ranks' values under a barrier. */
typedef struct {
  pthread_barrier_t barrier;
  pthread_mutex_t lock;
  double sum[4096], first[4096];
  size_t count;
  /* calls; calls where both ranks gave a non-zero value at one place; calls where each rank gave
   * a non-zero value somewhere */
  unsigned calls, overlapping, both_worked;
} meeting;

typedef struct {
  meeting *m;
  hegetcl_team team;
  hegetcl_context *ctx;
  record rec;
  hegetcl_xsec_result result;
  hegetcl_status status;
} rank;

static int allreduce(void *user, double *values, size_t count, char *message, size_t message_size) {
  meeting *m = user;
  if (count > 4096) {
    snprintf(message, message_size, "%zu values: more than the test's meeting holds", count);
    return 1;
  }
  pthread_mutex_lock(&m->lock);
  if (m->count == 0) {
    memset(m->sum, 0, count * sizeof *m->sum);
    memcpy(m->first, values, count * sizeof *values);
  } else {
    int overlap = 0, mine = 0, theirs = 0;
    for (size_t i = 0; i < count; ++i) {
      overlap |= values[i] != 0.0 && m->first[i] != 0.0;
      mine |= values[i] != 0.0;
      theirs |= m->first[i] != 0.0;
    }
    ++m->calls;
    m->overlapping += (unsigned)overlap;
    m->both_worked += (unsigned)(mine && theirs);
  }
  for (size_t i = 0; i < count; ++i) m->sum[i] += values[i];
  m->count = count;
  pthread_mutex_unlock(&m->lock);
  pthread_barrier_wait(&m->barrier);
  memcpy(values, m->sum, count * sizeof *values);
  if (pthread_barrier_wait(&m->barrier) == PTHREAD_BARRIER_SERIAL_THREAD) m->count = 0;
  pthread_barrier_wait(&m->barrier);
  return 0;
}

static void *rank_main(void *arg) {
  rank *r = arg;
  const hegetcl_xsec_sharing sharing = {.team = &r->team};
  r->status = run_shared(r->ctx, &sharing, &r->rec, &r->result);
  return NULL;
}

static void a_team_shares_a_run_bit_for_bit(void **state) {
  (void)state;
  ts_skip_without_fp64(devices[0], HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_result one;
  memset(&one_rec, 0, sizeof one_rec);
  if (run_shared(devices[0], NULL, &one_rec, &one) != HEGETCL_OK)
    fail_msg("one process: %s", hegetcl_last_error(devices[0]));
  static meeting m;
  static rank ranks[2];
  pthread_barrier_init(&m.barrier, NULL, 2);
  pthread_mutex_init(&m.lock, NULL);
  pthread_t threads[2];
  for (int k = 0; k < 2; ++k) {
    memset(&ranks[k], 0, sizeof ranks[k]);
    ranks[k].m = &m;
    ranks[k].ctx = devices[1 + k];
    ranks[k].team = (hegetcl_team){.rank = k,
                                   .size = 2,
                                   .local_rank = k,
                                   .local_size = 2,
                                   .allreduce_sum = allreduce,
                                   .user = &m};
    pthread_create(&threads[k], NULL, rank_main, &ranks[k]);
  }
  for (int k = 0; k < 2; ++k) pthread_join(threads[k], NULL);
  pthread_barrier_destroy(&m.barrier);
  pthread_mutex_destroy(&m.lock);
  for (int k = 0; k < 2; ++k) {
    if (ranks[k].status != HEGETCL_OK) fail_msg("rank %d: %s", k, hegetcl_last_error(ranks[k].ctx));
    char how[32];
    snprintf(how, sizeof how, "on rank %d of 2", k);
    same_numbers(&one, &one_rec, &ranks[k].result, &ranks[k].rec, how);
    /* each rank's share, and the team's count in every rank's result */
    if (ranks[k].rec.n_events != EVENTS / 2 || ranks[k].result.unweighting.written != EVENTS ||
        ranks[k].result.unweighting.requested != EVENTS)
      fail_msg("rank %d wrote %zu events, its result says %llu of %llu; expected %d of %d", k,
               ranks[k].rec.n_events, (unsigned long long)ranks[k].result.unweighting.written,
               (unsigned long long)ranks[k].result.unweighting.requested, EVENTS / 2, EVENTS);
  }
  /* streams of their own: no event number nor momentum of rank 0's is rank 1's */
  for (size_t a = 0; a < EVENTS / 2; ++a)
    for (size_t b = 0; b < EVENTS / 2; ++b)
      if (ranks[0].rec.event_number[a] == ranks[1].rec.event_number[b] ||
          memcmp(ranks[0].rec.p[a], ranks[1].rec.p[b], sizeof ranks[0].rec.p[a]) == 0)
        fail_msg("event %zu of rank 0 and %zu of rank 1 are one event (number %llu)", a, b,
                 (unsigned long long)ranks[0].rec.event_number[a]);
  if (ranks[1].rec.event_number[0] < ((uint64_t)1 << 40))
    fail_msg("rank 1's first event is number %llu: its stream starts at 2^40",
             (unsigned long long)ranks[1].rec.event_number[0]);
  /* the batches were shared: in every round (each group: the pilot and 4 iterations, at least a
   * round each) but the unweighting's counts each batch's sums came from one rank, and both
   * ranks made some in the rounds of more than one batch (the g g group's 5 iterations at least;
   * a small group's iteration may be one batch) */
  print_message("# %u allreduce calls, %u with both ranks' values at one place, %u with work of "
                "both\n",
                m.calls, m.overlapping, m.both_worked);
  if (m.calls < 16 || m.overlapping != 1 || m.both_worked < 5)
    fail_msg("%u allreduce calls, %u with both ranks' values at one place (the unweighting's "
             "counts alone expected), %u with work of both: the batches were not shared",
             m.calls, m.overlapping, m.both_worked);
  for (int k = 0; k < 2; ++k) hegetcl_xsec_result_free(&ranks[k].result);
  hegetcl_xsec_result_free(&one);
}

static int never_called(void *user, double *values, size_t count, char *message,
                        size_t message_size) {
  (void)user;
  (void)values;
  (void)count;
  snprintf(message, message_size, "the refused run called allreduce");
  return 1;
}

/* A team that is no team, and a checkpoint of a run shared by processes, are refused with the
 * fix before any batch. */
static void bad_teams_are_refused(void **state) {
  (void)state;
  ts_skip_without_fp64(devices[0], HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c = shared_config();
  c.unweighted_events = 0;
  hegetcl_team team = {.rank = 2, .size = 2, .local_size = 1, .allreduce_sum = never_called};
  const hegetcl_xsec_sharing sharing = {.team = &team};
  hegetcl_xsec_hooks hooks = {.sharing = &sharing};
  hegetcl_xsec_result r;
  hegetcl_status status = hegetcl_xsec_generate(devices[0], &c, &hooks, &r);
  if (status != HEGETCL_ERR_INPUT || strstr(hegetcl_last_error(devices[0]), "not a team") == NULL)
    fail_msg("rank 2 of 2: %s, \"%s\"", hegetcl_status_name(status),
             hegetcl_last_error(devices[0]));
  hegetcl_xsec_result_free(&r);
  team.rank = 1;
  const hegetcl_xsec_checkpointing cp = {.path = "never-written.ckpt"};
  hooks.checkpointing = &cp;
  status = hegetcl_xsec_generate(devices[0], &c, &hooks, &r);
  if (status != HEGETCL_ERR_UNSUPPORTED ||
      strstr(hegetcl_last_error(devices[0]), "checkpoints of a run shared by 2 processes are "
                                             "not supported") == NULL)
    fail_msg("a checkpoint of a team's run: %s, \"%s\"", hegetcl_status_name(status),
             hegetcl_last_error(devices[0]));
  hegetcl_xsec_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(devices_share_a_run_bit_for_bit),
      cmocka_unit_test(a_team_shares_a_run_bit_for_bit),
      cmocka_unit_test(bad_teams_are_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
