/* SPDX-License-Identifier: MIT */
/* Histograms filled on the device under test, against the cross section and independent runs:
 * every single-fill histogram adds up to sigma and the pair histogram to n (n - 1) / 2 sigma; for
 * two photons at LO both have the same pT and their mass is sqrt(shat), so the leading-pT
 * histogram above a bin edge equals sigma with the pT cut at that edge (a separate run) and the
 * mass histogram above M equals sigma with shat > M^2 seen through the pT-ranked histograms;
 * bin sums do not depend on the batch size. */
#include <math.h>
#include <stdio.h>
#include <string.h>

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

static hegetcl_xsec_config small_config(unsigned n) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, n);
  c.orientation = HEGETCL_ORIENTATION_U_FIRST;
  c.vegas.adapt_iterations = 3;
  c.vegas.adapt_events = 50000;
  c.vegas.events_per_iteration = 100000;
  c.vegas.min_iterations = 3;
  c.vegas.max_iterations = 20;
  c.vegas.target_rel_error = 3e-3;
  c.vegas.batch_size = 65536;
  c.vegas.seed = 3;
  c.histograms = 1;
  return c;
}

static hegetcl_xsec_result run(const hegetcl_xsec_config *c, const char *label) {
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, c, NULL, NULL, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s)", label, hegetcl_last_error(ctx), hegetcl_status_name(status));
  print_message("# %s: %.6e +- %.2e fb, %u iterations on %s\n", label, r.vegas.estimate,
                r.vegas.error, r.vegas.iterations, ts_device_name(ctx));
  return r;
}

static const hegetcl_histogram *find(const hegetcl_xsec_result *r, const char *name) {
  for (size_t i = 0; i < r->n_histograms; ++i)
    if (strcmp(r->histograms[i].name, name) == 0) return &r->histograms[i];
  fail_msg("histogram %s missing", name);
  return NULL;
}

/* Sum of sumw (and of sumw2) over bins [from, bins + 1] (1 is the first regular bin). */
static double tail(const hegetcl_histogram *h, unsigned from, double *var) {
  double s = 0.0, v = 0.0;
  for (unsigned i = from; i <= h->bins + 1; ++i) {
    s += h->sumw[i];
    v += h->sumw2[i];
  }
  if (var) *var = v;
  return s;
}

static void histograms_add_up_to_sigma(void **state) {
  (void)state;
  const unsigned n = 3;
  hegetcl_xsec_config c = small_config(n);
  hegetcl_xsec_result r = run(&c, "u ubar -> 3 photons with histograms");
  assert_int_equal(r.n_histograms, 2 * n + 3);
  const double sigma = r.vegas.estimate;
  for (size_t i = 0; i < r.n_histograms; ++i) {
    const hegetcl_histogram *h = &r.histograms[i];
    const double fills = strcmp(h->name, "dr_pairs") == 0 ? n * (n - 1) / 2.0 : 1.0;
    const double total = tail(h, 0, NULL);
    print_message("# %-9s integral / (fills sigma) - 1 = %+.2e\n", h->name,
                  total / (fills * sigma) - 1.0);
    if (fabs(total / (fills * sigma) - 1.0) > 1e-10)
      fail_msg("%s adds up to %.12e fb, not %g x sigma = %.12e fb", h->name, total, fills,
               fills * sigma);
    for (unsigned b = 0; b < h->bins + 2; ++b)
      if (h->sumw[b] < 0.0 || h->sumw2[b] < 0.0 || (h->sumw[b] > 0.0) != (h->entries[b] > 0.0))
        fail_msg("%s bin %u: sumw %g, sumw2 %g, entries %g", h->name, b, h->sumw[b],
                 h->sumw2[b], h->entries[b]);
  }
  /* the cuts: nothing below pT 20 GeV or Delta R 0.4, nothing outside |eta| < 2.5 */
  const hegetcl_histogram *pt3 = find(&r, "pt_3"), *dr = find(&r, "dr_min"),
                          *eta = find(&r, "eta_1");
  assert_true(pt3->sumw[0] == 0.0 && pt3->sumw[1] == 0.0 && pt3->sumw[2] == 0.0); /* 0-20 GeV */
  assert_true(dr->sumw[0] == 0.0 && dr->sumw[1] == 0.0 && dr->sumw[2] == 0.0);
  assert_true(dr->sumw[3] == 0.0); /* [0.36, 0.48) holds Delta R > 0.4 */
  assert_true(eta->sumw[0] == 0.0 && eta->sumw[eta->bins + 1] == 0.0);
  /* the leading photon's mean pT lies above the third's */
  assert_true(find(&r, "pt_1")->sumwx[0] == 0.0);
  const hegetcl_histogram *pt1 = find(&r, "pt_1");
  double mean1 = 0, mean3 = 0;
  for (unsigned b = 0; b < pt1->bins + 2; ++b) {
    mean1 += pt1->sumwx[b];
    mean3 += pt3->sumwx[b];
  }
  assert_true(mean1 / sigma > mean3 / sigma);
  hegetcl_xsec_result_free(&r);
}

static void two_photon_tail_equals_a_harder_cut(void **state) {
  (void)state;
  hegetcl_xsec_config c = small_config(2);
  c.binning.pt_gev = (hegetcl_bins){50, 0.0, 500.0}; /* edge at 60 GeV: bin 7 starts there */
  hegetcl_xsec_result r = run(&c, "u ubar -> 2 photons, pT > 20 GeV, histograms");
  double var = 0.0;
  const double above = tail(find(&r, "pt_1"), 7, &var);
  const double above2 = tail(find(&r, "pt_2"), 7, NULL);
  /* at LO the two photons balance in pT: both rankings give the same tail */
  if (fabs(above / above2 - 1.0) > 1e-9)
    fail_msg("pT ranked 1 and 2 above 60 GeV: %.10e vs %.10e fb (they balance at LO)", above,
             above2);
  hegetcl_xsec_config hard = small_config(2);
  hard.histograms = 0;
  hard.pt_min_gev = 60.0;
  hegetcl_xsec_result h = run(&hard, "u ubar -> 2 photons, pT > 60 GeV");
  const double pull = (above - h.vegas.estimate) / sqrt(var + h.vegas.error * h.vegas.error);
  print_message("# histogram above 60 GeV %.5e +- %.1e fb, pT > 60 GeV run %.5e +- %.1e fb: "
                "%.2f sigma\n",
                above, sqrt(var), h.vegas.estimate, h.vegas.error, pull);
  if (fabs(pull) > 5.0)
    fail_msg("tail %.5e +- %.1e vs harder cut %.5e +- %.1e fb: %.1f sigma", above, sqrt(var),
             h.vegas.estimate, h.vegas.error, pull);
  hegetcl_xsec_result_free(&r);
  hegetcl_xsec_result_free(&h);
}

/* Forward minus backward eta of the leading photon over its error. */
static double eta_asymmetry_pull(const hegetcl_histogram *eta) {
  double forward = 0, backward = 0, var = 0;
  for (unsigned b = 1; b <= eta->bins; ++b) {
    const double centre = eta->lo + (b - 0.5) * (eta->hi - eta->lo) / eta->bins;
    forward += centre > 0 ? eta->sumw[b] : 0.0;
    backward += centre < 0 ? eta->sumw[b] : 0.0;
    var += eta->sumw2[b];
  }
  return (forward - backward) / sqrt(var);
}

/* With the quark from proton 1 only, the photons follow the u valence quark forward; with the
 * quark from either proton (p p) the eta histograms are symmetric, as the events are. */
static void eta_is_symmetric_for_either_proton(void **state) {
  (void)state;
  hegetcl_xsec_config c = small_config(2);
  hegetcl_xsec_result one = run(&c, "2 photons, u from proton 1");
  c.orientation = HEGETCL_ORIENTATION_BOTH;
  hegetcl_xsec_result both = run(&c, "2 photons, u from either proton");
  const double pull_one = eta_asymmetry_pull(find(&one, "eta_1"));
  const double pull_both = eta_asymmetry_pull(find(&both, "eta_1"));
  print_message("# eta_1 forward - backward: %.1f sigma (u-first), %.1f sigma (both)\n", pull_one,
                pull_both);
  if (!(pull_one > 10.0)) fail_msg("u-first: eta_1 not forward (%.1f sigma)", pull_one);
  if (fabs(pull_both) > 5.0) fail_msg("both: eta_1 asymmetric by %.1f sigma", pull_both);
  hegetcl_xsec_result_free(&one);
  hegetcl_xsec_result_free(&both);
}

static void histograms_do_not_depend_on_the_batch(void **state) {
  (void)state;
  hegetcl_xsec_config a = small_config(3);
  a.vegas.target_rel_error = 0.0;
  a.vegas.max_iterations = 2;
  a.vegas.min_iterations = 2;
  hegetcl_xsec_config b = a;
  b.vegas.batch_size = 24576; /* not a multiple of the reduction's events per group */
  hegetcl_xsec_result ra = run(&a, "batch 65536"), rb = run(&b, "batch 24576");
  for (size_t i = 0; i < ra.n_histograms; ++i)
    for (unsigned k = 0; k < ra.histograms[i].bins + 2; ++k) {
      const double x = ra.histograms[i].sumw[k], y = rb.histograms[i].sumw[k];
      /* the same weights added in another grouping (group sums, then batch sums in order): a
       * bin of some 10^4 events agrees to about 10^4 x 2^-53 */
      if (fabs(x - y) > 1e-11 * fabs(x) || ra.histograms[i].entries[k] != rb.histograms[i].entries[k])
        fail_msg("%s bin %u: %.17g vs %.17g fb (%g vs %g entries)", ra.histograms[i].name, k, x,
                 y, ra.histograms[i].entries[k], rb.histograms[i].entries[k]);
    }
  hegetcl_xsec_result_free(&ra);
  hegetcl_xsec_result_free(&rb);
}

static void bad_binning_is_refused(void **state) {
  (void)state;
  hegetcl_xsec_config c = small_config(2);
  c.binning.delta_r = (hegetcl_bins){300, 0.0, 6.0};
  hegetcl_xsec_result r;
  assert_int_equal(hegetcl_xsec_run(ctx, &c, NULL, NULL, &r), HEGETCL_ERR_INPUT);
  assert_non_null(strstr(hegetcl_last_error(ctx), "Delta R histograms: 300 bins"));
  c = small_config(2);
  c.binning.eta = (hegetcl_bins){10, 2.5, -2.5};
  assert_int_equal(hegetcl_xsec_run(ctx, &c, NULL, NULL, &r), HEGETCL_ERR_INPUT);
  assert_non_null(strstr(hegetcl_last_error(ctx), "eta histograms: range [2.5, -2.5)"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(histograms_add_up_to_sigma),
      cmocka_unit_test(two_photon_tail_equals_a_harder_cut),
      cmocka_unit_test(eta_is_symmetric_for_either_proton),
      cmocka_unit_test(histograms_do_not_depend_on_the_batch),
      cmocka_unit_test(bad_binning_is_refused),
  };
  return cmocka_run_group_tests_name("histograms_of_sigma", tests, setup, teardown);
}
