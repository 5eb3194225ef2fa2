/* SPDX-License-Identifier: MIT */
/* Long runs through the library (docs/user-guide.md, "Long runs"): a run told to stop between
 * batches, during the integration or the unweighting, and resumed from its checkpoint gives the
 * uninterrupted run's sigma, error, chi^2 and unweighted events exactly, bit for bit; resuming
 * with another setting, resuming a finished run and starting afresh over an unfinished run's
 * checkpoint are refused with messages that name the setting and its values, or the state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

static hegetcl_context *ctx;
static char folder[] = "/tmp/hegetcl-resume-XXXXXX";

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL || mkdtemp(folder) == NULL;
}

static const char *const checkpoints[] = {"reference.ckpt", "combined.ckpt", "unweighting.ckpt",
                                          "refused.ckpt"};

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  char path[256];
  for (size_t i = 0; i < sizeof checkpoints / sizeof *checkpoints; ++i) {
    snprintf(path, sizeof path, "%s/%s", folder, checkpoints[i]);
    unlink(path);
  }
  rmdir(folder);
  return 0;
}

static hegetcl_xsec_config small_config(void) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  c.vegas.adapt_iterations = 2;
  c.vegas.adapt_events = 20000;
  c.vegas.events_per_iteration = 40000;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 3;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 4096;
  c.vegas.seed = 5;
  c.unweighted_events = 2000;
  return c;
}

/* The events a run gives, and where it is told to stop. */
typedef struct {
  hegetcl_event *events;
  size_t count, cap;
  volatile sig_atomic_t stop;
  unsigned stop_after_iterations; /* 0: never */
  uint64_t stop_after_events;     /* 0: never */
} collector;

static hegetcl_status collect(const hegetcl_event *e, void *user) {
  collector *c = user;
  if (c->count == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 1024;
    c->events = realloc(c->events, c->cap * sizeof *c->events);
    if (c->events == NULL) return HEGETCL_ERR_NO_MEMORY;
  }
  c->events[c->count++] = *e;
  return HEGETCL_OK;
}

/* The sink's state is the number of events it holds; resuming drops any beyond it. */
static hegetcl_status collector_checkpoint(void *user, int stopping, char **state) {
  (void)stopping;
  collector *c = user;
  *state = malloc(32);
  if (*state == NULL) return HEGETCL_ERR_NO_MEMORY;
  snprintf(*state, 32, "%zu", c->count);
  return HEGETCL_OK;
}

static hegetcl_status collector_resume(const hegetcl_xsec_result *r, const char *state,
                                       void *user) {
  (void)r;
  collector *c = user;
  const size_t count = (size_t)strtoull(state, NULL, 10);
  if (count > c->count) return HEGETCL_ERR_INPUT;
  c->count = count;
  return HEGETCL_OK;
}

static void on_iteration(const hegetcl_vegas_iteration *it, void *user) {
  collector *c = user;
  if (!it->restored && c->stop_after_iterations > 0 && it->index + 1 == c->stop_after_iterations)
    c->stop = 1;
}

static void on_events(uint64_t written, uint64_t requested, uint64_t tried, void *user) {
  (void)requested;
  (void)tried;
  collector *c = user;
  if (c->stop_after_events > 0 && written >= c->stop_after_events) c->stop = 1;
}

static hegetcl_status generate(const hegetcl_xsec_config *config, const char *checkpoint,
                               int resume, collector *c, hegetcl_xsec_result *r) {
  c->stop = 0;
  const hegetcl_xsec_checkpointing cp = {.path = checkpoint,
                                         .resume = resume,
                                         .every_events = 500,
                                         .stop = &c->stop,
                                         .run_card = "n: 2\n",
                                         .writer = "resumed_run_equals_uninterrupted"};
  const hegetcl_xsec_hooks hooks = {.progress = on_iteration,
                                    .progress_user = c,
                                    .sink = collect,
                                    .sink_user = c,
                                    .events_progress = on_events,
                                    .events_progress_user = c,
                                    .checkpointing = &cp,
                                    .events_checkpoint = collector_checkpoint,
                                    .events_resume = collector_resume};
  return hegetcl_xsec_generate(ctx, config, &hooks, r);
}

static void must(hegetcl_status status, const char *what) {
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s) on %s", what, hegetcl_last_error(ctx), hegetcl_status_name(status),
             ts_device_name(ctx));
}

static void path_of(char *out, size_t size, const char *name) {
  snprintf(out, size, "%s/%s", folder, name);
  unlink(out);
}

/* The uninterrupted run, made once. */
static collector reference;
static hegetcl_xsec_result reference_result;

static void make_reference(void) {
  if (reference.events != NULL) return;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_xsec_config config = small_config();
  char path[256];
  path_of(path, sizeof path, "reference.ckpt");
  must(generate(&config, path, 0, &reference, &reference_result), "the uninterrupted run");
  print_message("# uninterrupted: sigma %.17g +- %.17g fb, %zu events, on %s\n",
                reference_result.vegas.estimate, reference_result.vegas.error, reference.count,
                ts_device_name(ctx));
}

static void check_same(const hegetcl_xsec_result *r, const collector *c, const char *what) {
  const hegetcl_vegas_result *a = &reference_result.vegas, *b = &r->vegas;
  if (a->estimate != b->estimate || a->error != b->error || a->chi2_per_dof != b->chi2_per_dof ||
      a->events != b->events || a->events_total != b->events_total ||
      a->max_weight != b->max_weight)
    fail_msg("%s: sigma %.17g +- %.17g (chi2 %.17g, max weight %.17g) against the uninterrupted "
             "%.17g +- %.17g (chi2 %.17g, max weight %.17g), on %s",
             what, b->estimate, b->error, b->chi2_per_dof, b->max_weight, a->estimate, a->error,
             a->chi2_per_dof, a->max_weight, ts_device_name(ctx));
  if (c->count != reference.count)
    fail_msg("%s: %zu events against %zu", what, c->count, reference.count);
  for (size_t i = 0; i < c->count; ++i)
    if (memcmp(&c->events[i], &reference.events[i], sizeof c->events[i]) != 0)
      fail_msg("%s: event %zu (number %llu) differs from the uninterrupted run's (number %llu)",
               what, i, (unsigned long long)c->events[i].number,
               (unsigned long long)reference.events[i].number);
  const hegetcl_unweighting_result *u = &r->unweighting, *v = &reference_result.unweighting;
  if (u->tried != v->tried || u->written != v->written || u->efficiency != v->efficiency ||
      u->sigma_check_fb != v->sigma_check_fb)
    fail_msg("%s: unweighting %llu of %llu tried (sigma check %.17g) against %llu of %llu "
             "(%.17g)",
             what, (unsigned long long)u->written, (unsigned long long)u->tried, u->sigma_check_fb,
             (unsigned long long)v->written, (unsigned long long)v->tried, v->sigma_check_fb);
}

static void stopped_and_resumed(unsigned after_iterations, uint64_t after_events,
                                hegetcl_xsec_phase phase, const char *name) {
  make_reference();
  const hegetcl_xsec_config config = small_config();
  char path[256];
  path_of(path, sizeof path, name);
  collector c = {.stop_after_iterations = after_iterations, .stop_after_events = after_events};
  hegetcl_xsec_result r;
  must(generate(&config, path, 0, &c, &r), "the run told to stop");
  if (r.stopped != (int)phase)
    fail_msg("%s: the run stopped in phase %d, not %d", name, r.stopped, (int)phase);
  print_message("# %s: stopped %s after %u iterations and %zu events\n", name,
                hegetcl_xsec_phase_name(phase), (unsigned)r.saved_iterations, c.count);
  hegetcl_xsec_result_free(&r);
  c.stop_after_iterations = 0;
  c.stop_after_events = 0;
  must(generate(&config, path, 1, &c, &r), "the resumed run");
  if (r.resumed != (int)phase || r.stopped != 0)
    fail_msg("%s: resumed in phase %d (want %d), stopped %d", name, r.resumed, (int)phase,
             r.stopped);
  check_same(&r, &c, name);
  hegetcl_xsec_result_free(&r);
  free(c.events);
}

static void a_run_stopped_in_the_combined_iterations_resumes_exactly(void **state) {
  (void)state;
  stopped_and_resumed(4, 0, HEGETCL_XSEC_INTEGRATING, "combined.ckpt");
}

static void a_run_stopped_in_the_unweighting_resumes_exactly(void **state) {
  (void)state;
  stopped_and_resumed(0, 600, HEGETCL_XSEC_UNWEIGHTING, "unweighting.ckpt");
}

static void expect_refusal(hegetcl_status status, const char *want) {
  if (status != HEGETCL_ERR_INPUT || strstr(hegetcl_last_error(ctx), want) == NULL)
    fail_msg("status %s, message \"%s\"; want HEGETCL_ERR_INPUT and \"%s\"",
             hegetcl_status_name(status), hegetcl_last_error(ctx), want);
}

static void a_resume_that_cannot_be_is_refused_with_its_reason(void **state) {
  (void)state;
  make_reference();
  hegetcl_xsec_config config = small_config();
  char path[256], want[512];
  path_of(path, sizeof path, "refused.ckpt");
  collector c = {.stop_after_iterations = 3};
  hegetcl_xsec_result r;
  must(generate(&config, path, 0, &c, &r), "the run told to stop");
  hegetcl_xsec_result_free(&r);
  c.stop_after_iterations = 0;
  /* another setting */
  config.vegas.seed = 6;
  snprintf(want, sizeof want,
           "%s was written by a run with seed = 5; this run has seed = 6: a run is resumed with "
           "the settings it started with",
           path);
  expect_refusal(generate(&config, path, 1, &c, &r), want);
  config = small_config();
  config.pt_min_gev = 25.0;
  expect_refusal(generate(&config, path, 1, &c, &r), "with pt-min = 20; this run has pt-min = 25");
  /* a fresh run over it */
  config = small_config();
  snprintf(want, sizeof want,
           "checkpoint %s holds an unfinished run (integrating, 3 VEGAS iterations done): resume "
           "it, or remove the file to start afresh",
           path);
  expect_refusal(generate(&config, path, 0, &c, &r), want);
  /* finished */
  must(generate(&config, path, 1, &c, &r), "the resumed run");
  hegetcl_xsec_result_free(&r);
  snprintf(want, sizeof want,
           "checkpoint %s: the run finished (sigma = %.6e +- %.2e fb, 2000 "
           "unweighted events): there is nothing to resume",
           path, reference_result.vegas.estimate, reference_result.vegas.error);
  expect_refusal(generate(&config, path, 1, &c, &r), want);
  free(c.events);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_run_stopped_in_the_combined_iterations_resumes_exactly),
      cmocka_unit_test(a_run_stopped_in_the_unweighting_resumes_exactly),
      cmocka_unit_test(a_resume_that_cannot_be_is_refused_with_its_reason),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
