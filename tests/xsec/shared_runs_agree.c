/* SPDX-License-Identifier: MIT */
/* A run shared over several devices of one process (docs/user-guide.md, "Several GPUs and
 * machines") gives the one-device run's numbers bit for bit: sigma, error, chi2, every iteration,
 * every histogram bin and every flavour channel, with a batch that does not divide the iterations.
 * HEGETCL_TEST_DEVICES (e.g. 0:0,0:1) names the devices; without it the device under test
 * serves as each of them (one context per "device", as two GPUs would be). Also: a team that is
 * no team, and checkpoints of a run shared by processes, are refused with their fix. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

#define MAX_DEVICES 3

static hegetcl_context *devices[MAX_DEVICES];
static unsigned n_devices;

static int setup(void **state) {
  (void)state;
  const char *list = getenv("HEGETCL_TEST_DEVICES");
  if (list == NULL || list[0] == '\0') {
    for (n_devices = 0; n_devices < MAX_DEVICES; ++n_devices)
      if ((devices[n_devices] = ts_context_create()) == NULL) return 1;
    return 0;
  }
  char spec[256];
  for (const char *p = list; n_devices < MAX_DEVICES;) {
    const size_t length = strcspn(p, ",");
    snprintf(spec, sizeof spec, "%.*s", (int)length, p);
    if (hegetcl_context_create(spec, &devices[n_devices]) != HEGETCL_OK) {
      print_error("HEGETCL_TEST_DEVICES: %s\n", hegetcl_last_error(devices[n_devices]));
      return 1;
    }
    ++n_devices;
    if (p[length] == '\0') break;
    p += length + 1;
  }
  return n_devices < 2;
}

static int teardown(void **state) {
  (void)state;
  for (unsigned k = 0; k < n_devices; ++k) hegetcl_context_destroy(devices[k]);
  return 0;
}

/* Three photons over every flavour with histograms: 5 adapting and 3 combined iterations of
 * 5 batches each, the last batch 1/3 full. */
static hegetcl_xsec_config shared_config(void) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 3);
  c.flavours = HEGETCL_ALL_FLAVOURS;
  c.histograms = 1;
  c.vegas.adapt_iterations = 3;
  c.vegas.adapt_events = 40000;
  c.vegas.events_per_iteration = 110000;
  c.vegas.batch_size = 24576;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 3;
  c.vegas.target_rel_error = 0.0;
  c.vegas.seed = 7;
  return c;
}

static hegetcl_vegas_iteration iterations[16];
static size_t n_iterations;

static void keep(const hegetcl_vegas_iteration *it, void *user) {
  (void)user;
  if (n_iterations < 16) iterations[n_iterations++] = *it;
}

/* The run on the first `count` devices; its iterations into its[]. */
static hegetcl_xsec_result run_on(unsigned count, hegetcl_vegas_iteration its[16],
                                  size_t *n_its) {
  const hegetcl_xsec_config c = shared_config();
  ts_skip_without_fp64(devices[0], HEGETCL_PRECISION_DOUBLE);
  const hegetcl_xsec_sharing sharing = {.devices = devices + 1, .n_devices = count - 1};
  const hegetcl_xsec_hooks hooks = {.progress = keep, .sharing = &sharing};
  n_iterations = 0;
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_generate(devices[0], &c, &hooks, &r);
  if (status != HEGETCL_OK)
    fail_msg("%u devices: %s (%s)", count, hegetcl_last_error(devices[0]),
             hegetcl_status_name(status));
  print_message("# %u device%s: %.17g +- %.17g fb, chi2/dof %.6f, %.2f s\n", count,
                count > 1 ? "s" : "", r.vegas.estimate, r.vegas.error, r.vegas.chi2_per_dof,
                r.vegas.wall_seconds);
  memcpy(its, iterations, sizeof iterations);
  *n_its = n_iterations;
  return r;
}

static void same(double a, double b, const char *what, unsigned count) {
  if (memcmp(&a, &b, sizeof a) != 0)
    fail_msg("%s on %u devices: %.17g, on one: %.17g (must be equal bit for bit)", what, count, b,
             a);
}

static void every_number_agrees(void **state) {
  (void)state;
  static hegetcl_vegas_iteration one_its[16], its[16];
  size_t n_one = 0, n = 0;
  hegetcl_xsec_result one = run_on(1, one_its, &n_one);
  for (unsigned count = 2; count <= n_devices; ++count) {
    hegetcl_xsec_result r = run_on(count, its, &n);
    same(one.vegas.estimate, r.vegas.estimate, "sigma", count);
    same(one.vegas.error, r.vegas.error, "its error", count);
    same(one.vegas.chi2_per_dof, r.vegas.chi2_per_dof, "chi2/dof", count);
    same(one.vegas.max_weight, r.vegas.max_weight, "the largest weight", count);
    if (n != n_one || n != 6) fail_msg("%zu and %zu iterations, 6 expected", n_one, n);
    for (size_t i = 0; i < n; ++i) {
      same(one_its[i].estimate, its[i].estimate, "an iteration's estimate", count);
      same(one_its[i].variance, its[i].variance, "an iteration's variance", count);
      if (one_its[i].events_nonzero != its[i].events_nonzero)
        fail_msg("iteration %zu: %llu vs %llu events in the cuts", i,
                 (unsigned long long)its[i].events_nonzero,
                 (unsigned long long)one_its[i].events_nonzero);
    }
    if (r.n_channels != 10 || r.n_channels != one.n_channels)
      fail_msg("%u and %u channels, 10 expected", one.n_channels, r.n_channels);
    for (unsigned k = 0; k < r.n_channels; ++k) {
      same(one.channels[k].sigma_fb, r.channels[k].sigma_fb, one.channels[k].name, count);
      same(one.channels[k].error_fb, r.channels[k].error_fb, one.channels[k].name, count);
    }
    if (r.n_histograms != one.n_histograms || r.n_histograms == 0)
      fail_msg("%zu and %zu histograms", one.n_histograms, r.n_histograms);
    size_t filled = 0;
    for (size_t h = 0; h < r.n_histograms; ++h)
      for (unsigned b = 0; b < r.histograms[h].bins + 2; ++b) {
        same(one.histograms[h].sumw[b], r.histograms[h].sumw[b], r.histograms[h].name, count);
        same(one.histograms[h].sumw2[b], r.histograms[h].sumw2[b], r.histograms[h].name, count);
        same(one.histograms[h].entries[b], r.histograms[h].entries[b], r.histograms[h].name,
             count);
        filled += r.histograms[h].entries[b] > 0;
      }
    if (filled < 100) fail_msg("only %zu histogram bins filled: the comparison proves little", filled);
    hegetcl_xsec_result_free(&r);
  }
  hegetcl_xsec_result_free(&one);
}

static int never_called(void *user, double *values, size_t count, char *message, size_t size) {
  (void)user;
  (void)values;
  (void)count;
  snprintf(message, size, "called");
  return 1;
}

static void bad_teams_are_refused(void **state) {
  (void)state;
  hegetcl_xsec_config c = shared_config();
  hegetcl_team team = {.rank = 2, .size = 2, .local_rank = 0, .local_size = 1,
                       .allreduce_sum = never_called};
  hegetcl_xsec_sharing sharing = {.team = &team};
  hegetcl_xsec_hooks hooks = {.sharing = &sharing};
  hegetcl_xsec_result r;
  hegetcl_status status = hegetcl_xsec_generate(devices[0], &c, &hooks, &r);
  const char *message = hegetcl_last_error(devices[0]);
  if (status != HEGETCL_ERR_INPUT || strstr(message, "rank 2") == NULL)
    fail_msg("rank 2 of 2: %s (%s)", message, hegetcl_status_name(status));
  team.rank = 1;
  const hegetcl_xsec_checkpointing cp = {.path = "/tmp/hegetcl-shared-runs.ckpt"};
  hooks.checkpointing = &cp;
  status = hegetcl_xsec_generate(devices[0], &c, &hooks, &r);
  message = hegetcl_last_error(devices[0]);
  print_message("# %s\n", message);
  if (status != HEGETCL_ERR_UNSUPPORTED || strstr(message, "checkpoints") == NULL ||
      strstr(message, "--checkpoint") == NULL)
    fail_msg("checkpoints of 2 processes: %s (%s)", message, hegetcl_status_name(status));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_number_agrees),
      cmocka_unit_test(bad_teams_are_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
