/* SPDX-License-Identifier: MIT */
/* p p -> n photons summed over the light quarks (CONVENTIONS.md, "Flavour channels") on the device
 * under test: u alone through the channels is the one-flavour run, a d channel at u's luminosity
 * is (1/2)^(2n) of u's, the channels add up to sigma and agree with one-flavour runs of each quark
 * (charge through the amplitude, not the channel factor), unweighted events take the channels in
 * proportion, and a resumed run over channels is the uninterrupted one. Statistical checks use 5
 * sigma. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hegetcl/xsec.h"
#include "test_support.h"

static hegetcl_context *ctx;
static char folder[] = "/tmp/hegetcl-flavours-XXXXXX";
static char swapped_set[sizeof folder + 32]; /* cteq6l1 with d <-> u and dbar <-> ubar */

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL || mkdtemp(folder) == NULL;
}

static void remove_swapped_set(void) {
  char path[sizeof swapped_set + 64];
  const char *files[] = {"cteq6l1_ud.info", "cteq6l1_ud_0000.dat"};
  for (int i = 0; swapped_set[0] != '\0' && i < 2; ++i) {
    snprintf(path, sizeof path, "%s/%s", swapped_set, files[i]);
    remove(path);
  }
  if (swapped_set[0] != '\0') rmdir(swapped_set);
}

static const char *checkpoint_path(void) {
  static char path[sizeof folder + 32];
  snprintf(path, sizeof path, "%s/channels.ckpt", folder);
  return path;
}

static int teardown(void **state) {
  (void)state;
  remove_swapped_set();
  remove(checkpoint_path());
  rmdir(folder);
  hegetcl_context_destroy(ctx);
  return 0;
}

/* The paper's set-up, both orientations, with budgets small enough for 2 CPU cores. */
static hegetcl_xsec_config small_config(unsigned n, unsigned flavours) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, n);
  c.flavours = flavours;
  c.vegas.adapt_iterations = 3;
  c.vegas.adapt_events = 30000;
  c.vegas.events_per_iteration = 60000;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 3;
  c.vegas.target_rel_error = 0.0;
  c.vegas.batch_size = 32768;
  c.vegas.seed = 17;
  return c;
}

static hegetcl_xsec_result run_hooks(const hegetcl_xsec_config *c, const hegetcl_xsec_hooks *hooks,
                                     const char *label) {
  hegetcl_xsec_result r;
  if (c->process.precision == HEGETCL_PRECISION_DOUBLE)
    ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const hegetcl_status status = hegetcl_xsec_generate(ctx, c, hooks, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s) on %s", label, hegetcl_last_error(ctx), hegetcl_status_name(status),
             ts_device_name(ctx));
  print_message("# %s: %.10e +- %.3e fb, chi2/dof %.2f, %.1f s\n", label, r.vegas.estimate,
                r.vegas.error, r.vegas.chi2_per_dof, r.vegas.wall_seconds);
  for (unsigned k = 0; k < r.n_channels; ++k)
    print_message("#   %-5s %.10e +- %.3e fb\n", r.channels[k].name, r.channels[k].sigma_fb,
                  r.channels[k].error_fb);
  return r;
}

static hegetcl_xsec_result run(const hegetcl_xsec_config *c, const char *label) {
  const hegetcl_xsec_hooks hooks = {0};
  return run_hooks(c, &hooks, label);
}

static void check_pull(const char *what, double a, double da, double b, double db) {
  const double pull = (a - b) / sqrt(da * da + db * db);
  print_message("#   %s: %.6e +- %.2e vs %.6e +- %.2e (%+.2f sigma)\n", what, a, da, b, db, pull);
  if (!(fabs(pull) <= 5.0))
    fail_msg("%s: %.6e +- %.2e vs %.6e +- %.2e, %.1f sigma apart on %s", what, a, da, b, db, pull,
             ts_device_name(ctx));
}

static const hegetcl_xsec_channel *channel(const hegetcl_xsec_result *r, const char *name) {
  for (unsigned k = 0; k < r->n_channels; ++k)
    if (strcmp(r->channels[k].name, name) == 0) return &r->channels[k];
  fail_msg("no channel \"%s\" among the run's %u", name, r->n_channels);
  return NULL;
}

/* The same number, bit for bit. */
static void check_identical(const char *what, double a, double b) {
  if (a != b) fail_msg("%s: %.17g against %.17g on %s", what, a, b, ts_device_name(ctx));
}

static void u_alone_through_the_channels_is_the_one_flavour_run(void **state) {
  (void)state;
  for (unsigned n = 2; n <= 3; ++n) {
    char label[96];
    /* the quark from proton 1 only: the same events, weights formed the same way */
    hegetcl_xsec_config one = small_config(n, 0);
    one.orientation = HEGETCL_ORIENTATION_U_FIRST;
    snprintf(label, sizeof label, "n = %u, u-first, one flavour", n);
    const hegetcl_xsec_result a = run(&one, label);
    hegetcl_xsec_config channels = one;
    channels.flavours = HEGETCL_FLAVOUR_BIT(2);
    snprintf(label, sizeof label, "n = %u, u-first, channels of u", n);
    const hegetcl_xsec_result b = run(&channels, label);
    assert_int_equal(a.n_channels, 0);
    assert_int_equal(b.n_channels, 1);
    assert_string_equal(b.channels[0].name, "u u~");
    check_identical("sigma", a.vegas.estimate, b.vegas.estimate);
    check_identical("error", a.vegas.error, b.vegas.error);
    check_identical("chi2/dof", a.vegas.chi2_per_dof, b.vegas.chi2_per_dof);
    check_identical("largest weight", a.vegas.max_weight, b.vegas.max_weight);
    if (ts_rel_diff(b.channels[0].sigma_fb, b.vegas.estimate) > 1e-13 ||
        ts_rel_diff(b.channels[0].error_fb, b.vegas.error) > 1e-6)
      fail_msg("the one channel %.17g +- %.17g fb against sigma %.17g +- %.17g fb",
               b.channels[0].sigma_fb, b.channels[0].error_fb, b.vegas.estimate, b.vegas.error);
    if (n > 2) continue;
    /* both orientations: the one-flavour run doubles the u-first weight, the channels weigh the
     * ubar from proton 1 by its own luminosity; the cuts' symmetry makes them equal */
    hegetcl_xsec_config both = one;
    both.orientation = HEGETCL_ORIENTATION_BOTH;
    snprintf(label, sizeof label, "n = %u, both, one flavour", n);
    const hegetcl_xsec_result c = run(&both, label);
    both.flavours = HEGETCL_FLAVOUR_BIT(2);
    snprintf(label, sizeof label, "n = %u, both, channels of u", n);
    const hegetcl_xsec_result d = run(&both, label);
    assert_int_equal(d.n_channels, 2);
    check_pull("sigma, channels against one flavour", d.vegas.estimate, d.vegas.error,
               c.vegas.estimate, c.vegas.error);
    const hegetcl_xsec_channel *uu = channel(&d, "u u~"), *mirrored = channel(&d, "u~ u");
    check_pull("u u~ against u-first", uu->sigma_fb, uu->error_fb, a.vegas.estimate, a.vegas.error);
    check_pull("u~ u against u-first", mirrored->sigma_fb, mirrored->error_fb, a.vegas.estimate,
               a.vegas.error);
  }
}

/* cteq6l1 with the columns of d and u (and of their antiquarks) exchanged: f_d of this set is
 * f_u of cteq6l1, number for number. */
static void write_swapped_set(void) {
  if (swapped_set[0] != '\0') return;
  snprintf(swapped_set, sizeof swapped_set, "%s/cteq6l1_ud", folder);
  if (mkdir(swapped_set, 0700) != 0) fail_msg("mkdir %s: %s", swapped_set, strerror(errno));
  const char *data = getenv("LHAPDF_DATA_PATH");
  if (data == NULL) fail_msg("LHAPDF_DATA_PATH is not set (the test's environment sets it)");
  char from[4096], to[sizeof swapped_set + 64], line[65536];
  for (int file = 0; file < 2; ++file) {
    snprintf(from, sizeof from, "%s/cteq6l1/cteq6l1%s", data, file == 0 ? ".info" : "_0000.dat");
    snprintf(to, sizeof to, "%s/cteq6l1_ud%s", swapped_set, file == 0 ? ".info" : "_0000.dat");
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    if (in == NULL || out == NULL) fail_msg("copying %s to %s: %s", from, to, strerror(errno));
    int swapped = 0;
    while (fgets(line, sizeof line, in) != NULL) {
      if (strcmp(line, "-5 -4 -3 -2 -1 1 2 3 4 5 21\n") == 0) {
        fputs("-5 -4 -3 -1 -2 2 1 3 4 5 21\n", out);
        ++swapped;
      } else {
        fputs(line, out);
      }
    }
    fclose(in);
    if (fclose(out) != 0) fail_msg("writing %s: %s", to, strerror(errno));
    if (file == 1 && swapped == 0) fail_msg("%s has no flavour line to exchange d and u in", from);
  }
}

static void a_d_channel_at_the_u_luminosity_is_a_half_to_the_2n_of_u(void **state) {
  (void)state;
  write_swapped_set();
  for (unsigned n = 2; n <= 3; ++n) {
    char label[96];
    hegetcl_xsec_config u = small_config(n, HEGETCL_FLAVOUR_BIT(2));
    snprintf(label, sizeof label, "n = %u, u u~ with cteq6l1", n);
    const hegetcl_xsec_result ru = run(&u, label);
    hegetcl_xsec_config d = small_config(n, HEGETCL_FLAVOUR_BIT(1));
    snprintf(d.pdf_set, sizeof d.pdf_set, "%s", swapped_set);
    snprintf(label, sizeof label, "n = %u, d d~ with f_d = cteq6l1's f_u", n);
    const hegetcl_xsec_result rd = run(&d, label);
    /* every weight is u's times the power of two (Q_d/Q_u)^(2n): the whole run scales exactly */
    const double scale = ldexp(1.0, -2 * (int)n);
    print_message("# n = %u: sigma_d / sigma_u = %.17g, (1/2)^(2n) = %.17g\n", n,
                  rd.vegas.estimate / ru.vegas.estimate, scale);
    check_identical("sigma_d against (1/2)^(2n) sigma_u", rd.vegas.estimate,
                    scale * ru.vegas.estimate);
    check_identical("its error", rd.vegas.error, scale * ru.vegas.error);
    const char *pairs[2][2] = {{"d d~", "u u~"}, {"d~ d", "u~ u"}};
    for (int p = 0; p < 2; ++p) {
      const hegetcl_xsec_channel *cd = channel(&rd, pairs[p][0]), *cu = channel(&ru, pairs[p][1]);
      check_identical(pairs[p][0], cd->sigma_fb, scale * cu->sigma_fb);
      if (cd->charge != -1.0 / 3.0 || cu->charge != 2.0 / 3.0)
        fail_msg("charges %g (d) and %g (u)", cd->charge, cu->charge);
    }
  }
}

static void channels_add_up_to_sigma_and_match_one_flavour_runs(void **state) {
  (void)state;
  hegetcl_xsec_config all = small_config(2, HEGETCL_ALL_FLAVOURS);
  all.histograms = 1;
  hegetcl_xsec_result r = run(&all, "n = 2, d u s c b");
  assert_int_equal(r.n_channels, 10);
  const char *names[10] = {"d d~", "d~ d", "u u~", "u~ u", "s s~",
                           "s~ s", "c c~", "c~ c", "b b~", "b~ b"};
  double sum = 0.0;
  for (unsigned k = 0; k < 10; ++k) {
    assert_string_equal(r.channels[k].name, names[k]);
    const int q = (int)k / 2 + 1;
    if (r.channels[k].pid[0] != (k % 2 ? -q : q) || r.channels[k].pid[1] != -r.channels[k].pid[0])
      fail_msg("channel %s has PDG ids %d %d", names[k], r.channels[k].pid[0],
               r.channels[k].pid[1]);
    sum += r.channels[k].sigma_fb;
  }
  if (ts_rel_diff(sum, r.vegas.estimate) > 1e-12)
    fail_msg("the channels add up to %.17g fb, sigma is %.17g fb", sum, r.vegas.estimate);
  /* the histograms (the same events, the same iteration weights) add up to sigma as well; no
   * event is mirrored, so eta's distribution is symmetric by the weights alone */
  const hegetcl_histogram *pt = NULL, *eta = NULL;
  for (size_t h = 0; h < r.n_histograms; ++h) {
    if (strcmp(r.histograms[h].name, "pt_1") == 0) pt = &r.histograms[h];
    if (strcmp(r.histograms[h].name, "eta_1") == 0) eta = &r.histograms[h];
  }
  assert_non_null(pt);
  assert_non_null(eta);
  double pt_sum = 0.0, forward = 0.0, backward = 0.0, forward2 = 0.0, backward2 = 0.0;
  for (unsigned i = 0; i < pt->bins + 2; ++i) pt_sum += pt->sumw[i];
  for (unsigned i = 1; i <= eta->bins; ++i) {
    const double centre = eta->lo + (i - 0.5) * (eta->hi - eta->lo) / eta->bins;
    if (centre > 0) {
      forward += eta->sumw[i];
      forward2 += eta->sumw2[i];
    } else {
      backward += eta->sumw[i];
      backward2 += eta->sumw2[i];
    }
  }
  if (ts_rel_diff(pt_sum, r.vegas.estimate) > 1e-12)
    fail_msg("the pT histogram adds up to %.17g fb, sigma is %.17g fb", pt_sum, r.vegas.estimate);
  check_pull("leading photon eta > 0 against eta < 0", forward, sqrt(forward2), backward,
             sqrt(backward2));
  /* each flavour alone, the one-flavour way: its charge in the amplitude, both orientations
   * as twice the quark from proton 1 */
  double sum_one = 0.0, sum_one_error2 = 0.0;
  const double charges[5] = {-1.0 / 3.0, 2.0 / 3.0, -1.0 / 3.0, 2.0 / 3.0, -1.0 / 3.0};
  for (int q = 1; q <= 5; ++q) {
    hegetcl_xsec_config one = small_config(2, 0);
    one.quark_pid = q;
    one.process.quark_charge = charges[q - 1];
    one.vegas.seed = 100 + (uint64_t)q;
    char label[64];
    snprintf(label, sizeof label, "n = 2, one flavour, PDG %d", q);
    const hegetcl_xsec_result o = run(&one, label);
    sum_one += o.vegas.estimate;
    sum_one_error2 += o.vegas.error * o.vegas.error;
    const hegetcl_xsec_channel *a = &r.channels[2 * (q - 1)], *b = &r.channels[2 * (q - 1) + 1];
    /* the two channels of one flavour come from the same events: their errors add at most
     * linearly */
    check_pull(a->name, a->sigma_fb + b->sigma_fb, a->error_fb + b->error_fb, o.vegas.estimate,
               o.vegas.error);
    check_pull("q q~ against q~ q", a->sigma_fb, a->error_fb, b->sigma_fb, b->error_fb);
  }
  check_pull("all flavours against the sum of one-flavour runs", r.vegas.estimate, r.vegas.error,
             sum_one, sqrt(sum_one_error2));
  const double ratio = r.vegas.estimate / (r.channels[2].sigma_fb + r.channels[3].sigma_fb);
  print_message("# sigma(d u s c b) / sigma(u) = %.4f\n", ratio);
  if (!(ratio > 1.1 && ratio < 2.0))
    fail_msg("all flavours give %.4f times u alone: outside (1.1, 2)", ratio);
  /* float amplitudes: the same events, the channel reduction reading float |M|^2 */
  all.process.precision = HEGETCL_PRECISION_FLOAT;
  all.histograms = 0;
  const hegetcl_xsec_result f = run(&all, "n = 2, d u s c b, float amplitudes");
  double float_sum = 0.0;
  for (unsigned k = 0; k < 10; ++k) {
    float_sum += f.channels[k].sigma_fb;
    if (ts_rel_diff(f.channels[k].sigma_fb, r.channels[k].sigma_fb) > 1e-4)
      fail_msg("channel %s: float %.8e fb, double %.8e fb: more apart than float rounding",
               names[k], f.channels[k].sigma_fb, r.channels[k].sigma_fb);
  }
  if (ts_rel_diff(float_sum, f.vegas.estimate) > 1e-12)
    fail_msg("float: the channels add up to %.17g fb, sigma is %.17g fb", float_sum,
             f.vegas.estimate);
  hegetcl_xsec_result_free(&r);
}

/* Unweighted events, counted by their partons. */
typedef struct {
  size_t count, by_channel[HEGETCL_XSEC_MAX_CHANNELS];
  int bad; /* events whose partons or directions contradict their channel */
  const hegetcl_xsec_result *sigma;
} channel_counts;

static hegetcl_status count_event(const hegetcl_event *e, void *user) {
  channel_counts *c = user;
  ++c->count;
  const int q = abs(e->pid[0]);
  const unsigned k = 2u * (unsigned)(q - 1) + (e->pid[0] < 0 ? 1u : 0u);
  /* parton 0 from proton 1 along +z, parton 1 its antiparticle along -z */
  if (q < 1 || q > 5 || e->pid[1] != -e->pid[0] || !(e->p[0][3] > 0) || !(e->p[1][3] < 0))
    ++c->bad;
  else
    ++c->by_channel[k];
  return HEGETCL_OK;
}

static void unweighted_events_take_each_channel_by_its_share(void **state) {
  (void)state;
  hegetcl_xsec_config c = small_config(2, HEGETCL_ALL_FLAVOURS);
  c.unweighted_events = 20000;
  channel_counts counts = {0};
  const hegetcl_xsec_hooks hooks = {.sink = count_event, .sink_user = &counts};
  const hegetcl_xsec_result r = run_hooks(&c, &hooks, "n = 2, d u s c b, 20000 events");
  assert_int_equal(counts.count, 20000);
  if (counts.bad > 0) fail_msg("%d events have partons that fit no channel", counts.bad);
  const double n = (double)counts.count;
  for (unsigned k = 0; k < r.n_channels; ++k) {
    const double p = r.channels[k].sigma_fb / r.vegas.estimate;
    const double expected = n * p, spread = sqrt(n * p * (1.0 - p));
    print_message("#   %-5s %5zu events, %8.1f expected\n", r.channels[k].name,
                  counts.by_channel[k], expected);
    if (fabs((double)counts.by_channel[k] - expected) > 5.0 * spread + 1.0)
      fail_msg("channel %s: %zu of %zu events, %.1f +- %.1f expected from its share of sigma",
               r.channels[k].name, counts.by_channel[k], counts.count, expected, spread);
  }
}

/* Stops the run after a given VEGAS iteration. */
typedef struct {
  volatile sig_atomic_t stop;
  unsigned after;
} stopper;

static void stop_after(const hegetcl_vegas_iteration *it, void *user) {
  stopper *s = user;
  if (!it->restored && it->index + 1 == s->after) s->stop = 1;
}

static hegetcl_status resume_run(const hegetcl_xsec_config *c, int resume, stopper *s,
                                 hegetcl_xsec_result *r) {
  const hegetcl_xsec_checkpointing cp = {.path = checkpoint_path(),
                                         .resume = resume,
                                         .stop = &s->stop,
                                         .run_card = "n: 2\n",
                                         .writer = "flavour_channels"};
  const hegetcl_xsec_hooks hooks = {
      .progress = stop_after, .progress_user = s, .checkpointing = &cp};
  return hegetcl_xsec_generate(ctx, c, &hooks, r);
}

static void a_resumed_run_over_channels_is_the_uninterrupted_one(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c = small_config(2, HEGETCL_FLAVOUR_BIT(1) | HEGETCL_FLAVOUR_BIT(4));
  const hegetcl_xsec_result whole = run(&c, "n = 2, d c, uninterrupted");
  remove(checkpoint_path());
  stopper s = {.after = 5}; /* 3 adapting, 2 combined */
  hegetcl_xsec_result r;
  hegetcl_status status = resume_run(&c, 0, &s, &r);
  if (status != HEGETCL_OK || r.stopped != HEGETCL_XSEC_INTEGRATING)
    fail_msg("the run to stop: %s (%s), stopped %d", hegetcl_last_error(ctx),
             hegetcl_status_name(status), r.stopped);
  /* another set of flavours is refused, naming the setting */
  hegetcl_xsec_config other = c;
  other.flavours = HEGETCL_ALL_FLAVOURS;
  s.after = 0;
  s.stop = 0;
  status = resume_run(&other, 1, &s, &r);
  if (status != HEGETCL_ERR_INPUT || strstr(hegetcl_last_error(ctx), "flavours = d,c") == NULL ||
      strstr(hegetcl_last_error(ctx), "flavours = d,u,s,c,b") == NULL)
    fail_msg("resuming with other flavours: %s, \"%s\"", hegetcl_status_name(status),
             hegetcl_last_error(ctx));
  status = resume_run(&c, 1, &s, &r);
  if (status != HEGETCL_OK || r.stopped != 0)
    fail_msg("resuming: %s (%s)", hegetcl_last_error(ctx), hegetcl_status_name(status));
  check_identical("sigma", r.vegas.estimate, whole.vegas.estimate);
  assert_int_equal(r.n_channels, whole.n_channels);
  for (unsigned k = 0; k < r.n_channels; ++k) {
    check_identical(r.channels[k].name, r.channels[k].sigma_fb, whole.channels[k].sigma_fb);
    check_identical(r.channels[k].name, r.channels[k].error_fb, whole.channels[k].error_fb);
  }
}

static void bad_flavour_sets_are_refused_with_the_reason(void **state) {
  (void)state;
  const char *bad[] = {"", "x", "u,x", "u,u", "u,", ",u", "U", "u d", "all,u", "t"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    unsigned set = 77;
    if (hegetcl_flavours_parse(bad[i], &set) != HEGETCL_ERR_INPUT || set != 77)
      fail_msg("\"%s\" was taken as a set of flavours (0x%x)", bad[i], set);
  }
  unsigned set = 0;
  assert_int_equal(hegetcl_flavours_parse("b,d", &set), HEGETCL_OK);
  assert_int_equal(set, HEGETCL_FLAVOUR_BIT(5) | HEGETCL_FLAVOUR_BIT(1));
  char name[32];
  hegetcl_flavours_name(set, name, sizeof name);
  assert_string_equal(name, "d,b");
  assert_int_equal(hegetcl_flavours_parse("all", &set), HEGETCL_OK);
  hegetcl_flavours_name(set, name, sizeof name);
  assert_string_equal(name, "d,u,s,c,b");
  /* a charge of one's own makes no sense for a sum of flavours with theirs */
  hegetcl_xsec_config c = small_config(2, HEGETCL_ALL_FLAVOURS);
  c.process.quark_charge = -1.0 / 3.0;
  hegetcl_xsec_result r;
  hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status != HEGETCL_ERR_INPUT || strstr(hegetcl_last_error(ctx), "leave the charge") == NULL)
    fail_msg("flavours with charge -1/3: %s, \"%s\"", hegetcl_status_name(status),
             hegetcl_last_error(ctx));
  c = small_config(2, 0x20);
  status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status != HEGETCL_ERR_INPUT || strstr(hegetcl_last_error(ctx), "d u s c b") == NULL)
    fail_msg("flavour bit 5: %s, \"%s\"", hegetcl_status_name(status), hegetcl_last_error(ctx));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(u_alone_through_the_channels_is_the_one_flavour_run),
      cmocka_unit_test(a_d_channel_at_the_u_luminosity_is_a_half_to_the_2n_of_u),
      cmocka_unit_test(channels_add_up_to_sigma_and_match_one_flavour_runs),
      cmocka_unit_test(unweighted_events_take_each_channel_by_its_share),
      cmocka_unit_test(a_resumed_run_over_channels_is_the_uninterrupted_one),
      cmocka_unit_test(bad_flavour_sets_are_refused_with_the_reason),
  };
  return cmocka_run_group_tests_name("flavour_channels", tests, setup, teardown);
}
