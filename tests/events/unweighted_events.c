/* SPDX-License-Identifier: MIT */
/* Unweighted events on the device under test: the number asked for, each one physical (momentum
 * conservation, massless photons, the cuts, beams along z, helicities allowed by chirality), the
 * quark from either proton half of the time, the same events for any batch size (to rounding in
 * the grid), and their mean leading-photon pT and photon-system mass equal to the weighted
 * histograms' means. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

#define HG_PI 3.14159265358979323846

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

static hegetcl_xsec_config small_config(unsigned n, uint64_t events) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, n);
  c.vegas.adapt_iterations = 4;
  c.vegas.adapt_events = 50000;
  c.vegas.events_per_iteration = 100000;
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 2;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 65536;
  c.vegas.seed = 5;
  c.histograms = 1;
  c.unweighted_events = events;
  return c;
}

typedef struct {
  hegetcl_event *events;
  size_t count, cap;
} collected;

static hegetcl_status collect(const hegetcl_event *e, void *user) {
  collected *c = user;
  if (c->count == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 1024;
    c->events = realloc(c->events, c->cap * sizeof *c->events);
    if (c->events == NULL) return HEGETCL_ERR_NO_MEMORY;
  }
  c->events[c->count++] = *e;
  return HEGETCL_OK;
}

static hegetcl_xsec_result generate(const hegetcl_xsec_config *c, collected *events,
                                    const char *label) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  memset(events, 0, sizeof *events);
  const hegetcl_xsec_hooks hooks = {.sink = collect, .sink_user = events};
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_generate(ctx, c, &hooks, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s)", label, hegetcl_last_error(ctx), hegetcl_status_name(status));
  const hegetcl_unweighting_result *u = &r.unweighting;
  print_message("# %s: sigma %.5e +- %.1e fb; %llu events of %llu tried (efficiency %.3e), %llu "
                "overweight (%.2e of sigma), sigma from the pass %.5e fb, on %s\n",
                label, r.vegas.estimate, r.vegas.error, (unsigned long long)u->written,
                (unsigned long long)u->tried, u->efficiency, (unsigned long long)u->overweight,
                u->overweight_sigma_fraction, u->sigma_check_fb, ts_device_name(ctx));
  return r;
}

static double pt(const double *p) { return sqrt(p[1] * p[1] + p[2] * p[2]); }

static void check_event(const hegetcl_event *e, unsigned n, const hegetcl_xsec_config *c) {
  assert_int_equal(e->n_particles, n + 2);
  double sum[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < n + 2; ++i)
    for (int k = 0; k < 4; ++k) sum[k] += (i < 2 ? 1.0 : -1.0) * e->p[i][k];
  const double scale = e->p[0][0] + e->p[1][0];
  for (int k = 0; k < 4; ++k)
    if (fabs(sum[k]) > 1e-10 * scale)
      fail_msg("event %llu: momentum not conserved, component %d off by %g GeV",
               (unsigned long long)e->number, k, sum[k]);
  /* beams: particle 0 along +z with x1, particle 1 along -z with x2 */
  const double e_beam = 0.5 * c->sqrt_s_gev;
  assert_true(fabs(e->p[0][3] - e->x1 * e_beam) < 1e-9 * e_beam && e->p[0][1] == 0.0);
  assert_true(fabs(e->p[1][3] + e->x2 * e_beam) < 1e-9 * e_beam && e->p[1][2] == 0.0);
  assert_true(e->pid[0] == -e->pid[1] && abs(e->pid[0]) == 2);
  double eta[12], phi[12];
  for (unsigned k = 0; k < n; ++k) {
    const double *p = e->p[2 + k];
    assert_int_equal(e->pid[2 + k], 22);
    const double m2 = p[0] * p[0] - p[1] * p[1] - p[2] * p[2] - p[3] * p[3];
    if (fabs(m2) > 1e-9 * p[0] * p[0]) fail_msg("photon mass^2 %g GeV^2", m2);
    eta[k] = asinh(p[3] / pt(p));
    phi[k] = atan2(p[2], p[1]);
    if (!(pt(p) > c->pt_min_gev && fabs(eta[k]) < c->eta_max))
      fail_msg("event %llu: photon %u has pT %g, eta %g: outside the cuts",
               (unsigned long long)e->number, k, pt(p), eta[k]);
  }
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j) {
      double dphi = fabs(phi[i] - phi[j]);
      dphi = dphi > HG_PI ? 2 * HG_PI - dphi : dphi;
      if (!(hypot(eta[i] - eta[j], dphi) > c->delta_r_min)) fail_msg("Delta R below the cut");
    }
  if (c->helicity == HEGETCL_HELICITY_SAMPLED) {
    assert_true(e->helicity[0] == -e->helicity[1]); /* chirality along the quark line */
    int plus = 0;
    for (unsigned k = 0; k < n; ++k) plus += e->helicity[2 + k] > 0;
    assert_true(plus > 0 && plus < (int)n); /* all alike vanishes */
  } else {
    for (unsigned i = 0; i < n + 2; ++i) assert_int_equal(e->helicity[i], 0);
  }
}

/* The mean of an observable over the events against sumwx / sumw of its histogram. */
static void means_agree(const char *name, const hegetcl_xsec_result *r, const double *values,
                        size_t count) {
  const hegetcl_histogram *h = NULL;
  for (size_t i = 0; i < r->n_histograms; ++i)
    if (strcmp(r->histograms[i].name, name) == 0) h = &r->histograms[i];
  assert_non_null(h);
  double w = 0, wx = 0;
  for (unsigned b = 0; b < h->bins + 2; ++b) {
    w += h->sumw[b];
    wx += h->sumwx[b];
  }
  double mean = 0, sq = 0;
  for (size_t i = 0; i < count; ++i) mean += values[i];
  mean /= (double)count;
  for (size_t i = 0; i < count; ++i) sq += (values[i] - mean) * (values[i] - mean);
  const double error = sqrt(sq / (double)(count - 1) / (double)count);
  const double pull = (mean - wx / w) / error;
  print_message("# mean %s: events %.4f +- %.4f, weighted histogram %.4f: %.2f sigma\n", name,
                mean, error, wx / w, pull);
  /* the histogram's own error (1e6 weighted events) is far below the events' */
  if (fabs(pull) > 5.0) fail_msg("%s: the unweighted events disagree by %.1f sigma", name, pull);
}

static void events_are_physical_and_follow_the_histograms(void **state) {
  (void)state;
  const unsigned n = 3;
  hegetcl_xsec_config c = small_config(n, 4000);
  c.helicity = HEGETCL_HELICITY_SAMPLED;
  collected ev;
  hegetcl_xsec_result r = generate(&c, &ev, "u ubar -> 3 photons, 4000 events");
  assert_int_equal(ev.count, 4000);
  assert_int_equal(r.unweighting.written, 4000);
  size_t mirrored = 0;
  double *lead = malloc(ev.count * sizeof *lead), *mass = malloc(ev.count * sizeof *mass);
  for (size_t i = 0; i < ev.count; ++i) {
    const hegetcl_event *e = &ev.events[i];
    check_event(e, n, &c);
    mirrored += e->pid[0] < 0;
    double best = 0, sum[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < n; ++k) {
      best = fmax(best, pt(e->p[2 + k]));
      for (int m = 0; m < 4; ++m) sum[m] += e->p[2 + k][m];
    }
    lead[i] = best;
    mass[i] = sqrt(sum[0] * sum[0] - sum[1] * sum[1] - sum[2] * sum[2] - sum[3] * sum[3]);
    if (i > 0) assert_true(e->number > ev.events[i - 1].number); /* event order */
  }
  /* orientation both: the quark comes from proton 2 in half of the events (binomial, 5 sigma) */
  const double half = 0.5 * (double)ev.count, spread = sqrt(0.25 * (double)ev.count);
  print_message("# quark from proton 2 in %zu of %zu events\n", mirrored, ev.count);
  if (fabs((double)mirrored - half) > 5 * spread) fail_msg("%zu mirrored events", mirrored);
  means_agree("pt_1", &r, lead, ev.count);
  means_agree("m_photons", &r, mass, ev.count);
  /* the pass re-estimates sigma from its own weighted events */
  const double eff = (double)ev.count / (double)r.unweighting.tried;
  assert_true(r.unweighting.efficiency >= eff && r.unweighting.efficiency < 1.0);
  assert_true(fabs(r.unweighting.sigma_check_fb / r.vegas.estimate - 1.0) < 0.05);
  free(lead);
  free(mass);
  free(ev.events);
  hegetcl_xsec_result_free(&r);
}

static void events_do_not_depend_on_the_batch(void **state) {
  (void)state;
  hegetcl_xsec_config a = small_config(2, 1500);
  hegetcl_xsec_config b = a;
  b.vegas.batch_size = 20000;
  collected ea, eb;
  hegetcl_xsec_result ra = generate(&a, &ea, "2 photons, batch 65536");
  hegetcl_xsec_result rb = generate(&b, &eb, "2 photons, batch 20000");
  assert_int_equal(ea.count, eb.count);
  for (size_t i = 0; i < ea.count; ++i) {
    check_event(&ea.events[i], 2, &a);
    /* the grids differ in the last bits (their bin sums are added in other groups) */
    double worst = 0.0;
    for (unsigned k = 0; k < ea.events[i].n_particles; ++k)
      for (int m = 0; m < 4; ++m)
        worst = fmax(worst, fabs(ea.events[i].p[k][m] - eb.events[i].p[k][m]) /
                                ea.events[i].p[0][0]);
    if (ea.events[i].number != eb.events[i].number || worst > 1e-12)
      fail_msg("event %zu differs: number %llu vs %llu, E0 %.17g vs %.17g, pz2 %.17g vs %.17g", i,
               (unsigned long long)ea.events[i].number, (unsigned long long)eb.events[i].number,
               ea.events[i].p[0][0], eb.events[i].p[0][0], ea.events[i].p[2][3],
               eb.events[i].p[2][3]);
  }
  free(ea.events);
  free(eb.events);
  hegetcl_xsec_result_free(&ra);
  hegetcl_xsec_result_free(&rb);
}

static void too_few_tries_is_an_error(void **state) {
  (void)state;
  hegetcl_xsec_config c = small_config(2, 1000000);
  c.max_unweighting_tries = 65536;
  collected ev;
  memset(&ev, 0, sizeof ev);
  const hegetcl_xsec_hooks hooks = {.sink = collect, .sink_user = &ev};
  hegetcl_xsec_result r;
  assert_int_equal(hegetcl_xsec_generate(ctx, &c, &hooks, &r), HEGETCL_ERR_INPUT);
  print_message("# %s\n", hegetcl_last_error(ctx));
  assert_non_null(strstr(hegetcl_last_error(ctx), "of 1000000 events after 65536 tries"));
  free(ev.events);
  hegetcl_xsec_result_free(&r);
  c.max_unweighting_tries = 1000;
  assert_int_equal(hegetcl_xsec_generate(ctx, &c, NULL, &r), HEGETCL_ERR_INPUT);
  assert_non_null(strstr(hegetcl_last_error(ctx), "no event sink"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(events_are_physical_and_follow_the_histograms),
      cmocka_unit_test(events_do_not_depend_on_the_batch),
      cmocka_unit_test(too_few_tries_is_an_error),
  };
  return cmocka_run_group_tests_name("unweighted_events", tests, setup, teardown);
}
