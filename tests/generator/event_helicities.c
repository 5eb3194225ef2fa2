/* SPDX-License-Identifier: MIT */
/* Helicities of a process run's unweighted events (SPINUP):
 *  1  the per-configuration |M_h|^2 the unweighting draws from add up, over the configurations,
 *     to MadGraph's helicity-summed |M|^2 (../shared/refs/mg5-qcd: g g > t t~ g, u u~ > d d~ g;
 *     mg5-next: g g > t t~ h, whose Higgs has no helicity bit) to 1e-10
 *  2  the events of p p > t t~ (three groups; mirrored and reordered members such as u~ u and
 *     c c~ > t t~) carry +1 or -1 for every particle, and the configurations drawn follow the
 *     weights: for each member's own process (its particles in the record's order, evaluated with
 *     the public API at the record's momenta, so the mapping from the group's particles is tested
 *     too), each configuration and each half of the events (the top forward or backward in the
 *     lab: the configurations' weights depend on the angle, so a configuration drawn for another
 *     particle order shows), the count drawn against the sum over the events of
 *     p_h = |M_h|^2 / sum |M|^2 (variance sum p_h (1 - p_h)): |z| < 4 for every one with at least
 *     5 expected; no event carries a configuration of zero weight. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator/helicities.h"
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

#define MAX_POINTS 64
#define MAX_N 8

/* A MadGraph reference file's points (POINT, n momentum lines, ME x): momenta[p][i][k], me[p];
 * name in ../shared/refs/mg5-qcd, or in mg5-next when it starts with "next/". */
static size_t read_points(const char *name, unsigned n, double momenta[][MAX_N][4], double *me) {
  const char *refs = getenv("HEGETCL_REFS_DIR"), *next = getenv("HEGETCL_REFS_NEXT_DIR");
  char path[4096];
  if (strncmp(name, "next/", 5) == 0)
    snprintf(path, sizeof path, "%s/%s", next ? next : "../shared/refs/mg5-next", name + 5);
  else
    snprintf(path, sizeof path, "%s/../mg5-qcd/%s", refs ? refs : "../shared/refs/mg5", name);
  FILE *f = fopen(path, "r");
  if (f == NULL) fail_msg("cannot read %s (HEGETCL_REFS_DIR)", path);
  char line[1024];
  size_t points = 0;
  unsigned particle = 0;
  while (fgets(line, sizeof line, f) != NULL && points < MAX_POINTS) {
    double x[4];
    if (line[0] == '#') continue;
    if (strncmp(line, "POINT", 5) == 0) {
      particle = 0;
    } else if (strncmp(line, "ME", 2) == 0) {
      if (particle != n) fail_msg("%s: a point of %u particles, %u expected", path, particle, n);
      me[points++] = strtod(line + 2, NULL);
    } else if (sscanf(line, "%lf %lf %lf %lf", &x[0], &x[1], &x[2], &x[3]) == 4 && particle < n) {
      memcpy(momenta[points][particle++], x, sizeof x);
    }
  }
  fclose(f);
  if (points == 0) fail_msg("%s: no points", path);
  return points;
}

static void weights_add_up_to(const char *text, const char *file, unsigned n, unsigned configs) {
  static double momenta[MAX_POINTS][MAX_N][4], me[MAX_POINTS];
  const size_t points = read_points(file, n, momenta, me);
  hegetcl_process p;
  char message[512];
  if (hegetcl_process_from_text(&p, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s: %s", text, message);
  hg_gen_helicities h;
  if (hg_gen_helicities_open(ctx, &p, NULL, &h) != HEGETCL_OK)
    fail_msg("%s: %s", text, hegetcl_last_error(ctx));
  if (h.n_configs != configs)
    fail_msg("%s: %u configurations, %u expected", text, h.n_configs, configs);
  /* the unweighting's layout: component k of particle i of point a at (k n + i) points + a */
  double *soa = malloc(4 * n * points * sizeof *soa), *w = malloc(points * h.n_configs * sizeof *w);
  for (size_t a = 0; a < points; ++a)
    for (unsigned i = 0; i < n; ++i)
      for (unsigned k = 0; k < 4; ++k) soa[(k * n + i) * points + a] = momenta[a][i][k];
  if (hg_gen_helicities_weights(&h, points, soa, w) != HEGETCL_OK)
    fail_msg("%s: %s", text, hegetcl_last_error(ctx));
  double worst = 0.0;
  unsigned zero = 0;
  for (size_t a = 0; a < points; ++a) {
    double sum = 0.0;
    for (unsigned c = 0; c < h.n_configs; ++c) {
      sum += w[a * h.n_configs + c];
      zero += a == 0 && w[c] == 0.0;
    }
    const double d = ts_rel_diff(sum, me[a]);
    worst = d > worst ? d : worst;
  }
  print_message("# %s: %zu points, sum over %u configurations against MadGraph's |M|^2: largest "
                "relative difference %.2e; %u configurations vanish at the first point\n",
                text, points, h.n_configs, worst, zero);
  if (!(worst < 1e-10))
    fail_msg("%s: the configurations add up to |M|^2 within %.2e only", text, worst);
  free(soa);
  free(w);
  hg_gen_helicities_close(&h);
}

static void helicity_weights_add_up_to_the_summed_me(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  weights_add_up_to("g g > t t~ g", "me_gg_ttxg_WT0.txt", 5, 32);
  weights_add_up_to("u u~ > d d~ g", "me_uux_ddxg.txt", 5, 32);
  /* the Higgs, a scalar, has no helicity bit: 2^4 configurations */
  weights_add_up_to("g g > t t~ h", "next/me_gg_ttxh_WT0.txt", 5, 16);
}

#define EVENTS 8000
#define MAX_MEMBERS 16

typedef struct {
  int pid[4];
  double p[4][4];
  int helicity[4];
} event;

static event events[EVENTS];
static size_t n_events;

static hegetcl_status keep(const hegetcl_event *e, void *user) {
  (void)user;
  if (n_events == EVENTS || e->n_particles != 4) return HEGETCL_ERR_INPUT;
  event *x = &events[n_events++];
  memcpy(x->pid, e->pid, sizeof x->pid);
  memcpy(x->p, e->p, sizeof x->p);
  memcpy(x->helicity, e->helicity, sizeof x->helicity);
  return HEGETCL_OK;
}

static const char *name_of(int pid) {
  switch (pid) {
  case 21:
    return "g";
  case 1:
    return "d";
  case -1:
    return "d~";
  case 2:
    return "u";
  case -2:
    return "u~";
  case 3:
    return "s";
  case -3:
    return "s~";
  case 4:
    return "c";
  case -4:
    return "c~";
  case 6:
    return "t";
  case -6:
    return "t~";
  default:
    return NULL;
  }
}

static void drawn_helicities_follow_the_weights(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", "p p > t t~");
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = 173.0;
  c.vegas.adapt_iterations = 2;
  c.vegas.adapt_events = 20000;
  c.vegas.events_per_iteration = 40000;
  c.vegas.min_iterations = c.vegas.max_iterations = 1;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 16384;
  c.vegas.seed = 21;
  c.unweighted_events = EVENTS;
  const hegetcl_xsec_hooks hooks = {.sink = keep};
  hegetcl_xsec_result r;
  n_events = 0;
  if (hegetcl_xsec_generate(ctx, &c, &hooks, &r) != HEGETCL_OK)
    fail_msg("p p > t t~: %s", hegetcl_last_error(ctx));
  hegetcl_xsec_result_free(&r);
  if (n_events != EVENTS) fail_msg("%zu events, %d asked for", n_events, EVENTS);
  /* the members met, each with its events' expected and drawn counts per configuration */
  static char texts[MAX_MEMBERS][64];
  static double expected[MAX_MEMBERS][2][16], variance[MAX_MEMBERS][2][16],
      drawn[MAX_MEMBERS][2][16];
  unsigned n_members = 0, tests = 0;
  double worst = 0.0;
  for (unsigned m = 0;; ++m) {
    /* the next member not yet done: its events */
    char text[64] = "";
    for (size_t e = 0; e < n_events && text[0] == '\0'; ++e) {
      char t[64];
      snprintf(t, sizeof t, "%s %s > %s %s", name_of(events[e].pid[0]), name_of(events[e].pid[1]),
               name_of(events[e].pid[2]), name_of(events[e].pid[3]));
      int seen = 0;
      for (unsigned k = 0; k < n_members; ++k) seen |= strcmp(texts[k], t) == 0;
      if (!seen) snprintf(text, sizeof text, "%s", t);
    }
    if (text[0] == '\0') break;
    if (n_members == MAX_MEMBERS) fail_msg("more than %d members", MAX_MEMBERS);
    snprintf(texts[n_members++], sizeof texts[0], "%s", text);
    hegetcl_process p;
    char message[512];
    if (hegetcl_process_from_text(&p, text, message, sizeof message) != HEGETCL_OK)
      fail_msg("%s: %s", text, message);
    hegetcl_amplitude *amp = NULL;
    if (hegetcl_amplitude_create(ctx, &p, &amp) != HEGETCL_OK)
      fail_msg("%s: %s", text, hegetcl_last_error(ctx));
    /* the member's events, each once per configuration */
    double *momenta = malloc((size_t)EVENTS * 16 * 16 * sizeof *momenta);
    uint32_t *config = malloc((size_t)EVENTS * 16 * sizeof *config);
    double *me = malloc((size_t)EVENTS * 16 * sizeof *me);
    size_t *which = malloc(EVENTS * sizeof *which), count = 0;
    for (size_t e = 0; e < n_events; ++e) {
      char t[64];
      snprintf(t, sizeof t, "%s %s > %s %s", name_of(events[e].pid[0]), name_of(events[e].pid[1]),
               name_of(events[e].pid[2]), name_of(events[e].pid[3]));
      if (strcmp(t, text) != 0) continue;
      for (uint32_t h = 0; h < 16; ++h) {
        memcpy(&momenta[(count * 16 + h) * 16], events[e].p, sizeof events[e].p);
        config[count * 16 + h] = h;
      }
      which[count++] = e;
    }
    if (hegetcl_amplitude_evaluate_events(amp, count * 16, momenta, config, me) != HEGETCL_OK)
      fail_msg("%s: %s", text, hegetcl_last_error(ctx));
    for (size_t a = 0; a < count; ++a) {
      const event *x = &events[which[a]];
      uint32_t chosen = 0;
      for (int i = 0; i < 4; ++i) {
        if (x->helicity[i] != 1 && x->helicity[i] != -1)
          fail_msg("%s: particle %d has helicity %d", text, i, x->helicity[i]);
        chosen |= (uint32_t)(x->helicity[i] == 1) << i;
      }
      double total = 0.0;
      for (unsigned h = 0; h < 16; ++h) total += me[a * 16 + h];
      if (!(me[a * 16 + chosen] > 0.0))
        fail_msg("%s: an event carries configuration %u, whose |M|^2 is %g", text, chosen,
                 me[a * 16 + chosen]);
      const int half = x->p[2][3] > 0.0; /* the top forward */
      for (unsigned h = 0; h < 16; ++h) {
        const double q = me[a * 16 + h] / total;
        expected[m][half][h] += q;
        variance[m][half][h] += q * (1.0 - q);
      }
      drawn[m][half][chosen] += 1.0;
    }
    for (int half = 0; half < 2; ++half)
      for (unsigned h = 0; h < 16; ++h) {
        const double e = expected[m][half][h], d = drawn[m][half][h];
        if (e < 5.0) continue;
        const double z = (d - e) / sqrt(variance[m][half][h]);
        ++tests;
        worst = fabs(z) > worst ? fabs(z) : worst;
        if (!(fabs(z) < 4.0))
          fail_msg("%s, configuration %u, the top %s: %g drawn, %.2f +- %.2f expected (z = %.2f)",
                   text, h, half ? "forward" : "backward", d, e, sqrt(variance[m][half][h]), z);
      }
    free(momenta);
    free(config);
    free(me);
    free(which);
    hegetcl_amplitude_destroy(amp);
  }
  print_message("# %d events of %u members; %u configurations with >= 5 expected, largest |z| "
                "%.2f\n",
                EVENTS, n_members, tests, worst);
  if (n_members < 4 || tests < 12)
    fail_msg("%u members, %u configurations tested", n_members, tests);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(helicity_weights_add_up_to_the_summed_me),
      cmocka_unit_test(drawn_helicities_follow_the_weights),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
