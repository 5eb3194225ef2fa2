/* SPDX-License-Identifier: MIT */
/* Running alpha_s on the host: CTEQ6L1's own alpha_s grid at its knots and between them against
 * the one-loop Lambda formula the set was made with, MadGraph's one-loop running against the
 * values in MadEvent's event files, the analytic mode against closed forms, and bad input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hegetcl/pdf.h"
#include "pdf/alpha_s.h"
#include "pdf_test_support.h"

#define PI 3.14159265358979323846

typedef struct {
  char info_path[2048];
  char temp[1024];
  double q[128], a[128]; /* the .info's AlphaS_Qs and AlphaS_Vals, read by the test itself */
  size_t n;
} fixture;

/* The numbers of "Key: [v1, v2, ...]" in text, by strtod. */
static size_t read_list(const char *text, const char *key, double *out, size_t max) {
  const char *p = strstr(text, key);
  if (p == NULL || (p = strchr(p, '[')) == NULL) return 0;
  size_t n = 0;
  ++p;
  while (n < max) {
    char *end;
    const double v = strtod(p, &end);
    if (end == p) break;
    out[n++] = v;
    p = end;
    while (*p == ',' || *p == ' ') ++p;
  }
  return n;
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  *state = f;
  char sets[1024];
  if (f == NULL || !pt_pdfsets_dir(sets, sizeof sets) || !pt_make_temp_dir(f->temp, sizeof f->temp))
    return -1;
  snprintf(f->info_path, sizeof f->info_path, "%s/cteq6l1/cteq6l1.info", sets);
  char *text = pt_read_text(f->info_path);
  if (text == NULL) return -1;
  f->n = read_list(text, "AlphaS_Qs:", f->q, 128);
  const size_t n_vals = read_list(text, "AlphaS_Vals:", f->a, 128);
  free(text);
  return f->n > 10 && n_vals == f->n ? 0 : -1;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f != NULL && f->temp[0] != '\0') pt_remove_tree(f->temp);
  free(f);
  return 0;
}

static double *table_or_fail(int mode, const char *path, double alpha_s_mz, double mz, int nloop) {
  double *table = NULL;
  size_t size = 0;
  char error[1024];
  if (hg_alpha_s_table(mode, path, alpha_s_mz, mz, nloop, &table, &size, error, sizeof error) != 0)
    fail_msg("hg_alpha_s_table: %s", error);
  assert_true(size > 0);
  return table;
}

/* The one-loop formula the set's README gives: 12 pi / ((33 - 2 nf) ln(Q^2 / Lambda_nf^2)),
 * Lambda_4 = 0.215 GeV below m_b = 4.5 GeV, Lambda_5 = 0.165 GeV from m_b on. */
static double cteq6l1_formula(double q) {
  const int nf = q >= 4.5 ? 5 : 4;
  const double lambda = nf == 5 ? 0.165 : 0.215;
  return 12 * PI / ((33 - 2 * nf) * log(q * q / (lambda * lambda)));
}

/* At every knot the interpolation gives the tabulated value exactly (t = 0: the cubic's other
 * terms vanish), and the table agrees with the formula to the 7 digits it is printed with. */
static void grid_gives_the_sets_values_at_its_knots(void **state) {
  fixture *f = *state;
  double *table = table_or_fail(HG_ALPHA_S_INTERPOLATED, f->info_path, 0, 0, 0);
  assert_int_equal((int)table[0], HG_ALPHA_S_INTERPOLATED);
  for (size_t i = 0; i < f->n; ++i) {
    const double q2 = f->q[i] * f->q[i], value = hg_alpha_s(table, q2);
    if (value != f->a[i])
      fail_msg("knot %zu, Q = %.7g GeV: %.17g, the set says %.17g", i, f->q[i], value, f->a[i]);
    const double formula = cteq6l1_formula(f->q[i]);
    if (fabs(value / formula - 1) > 5e-7)
      fail_msg("knot Q = %.7g GeV: the set's %.7g vs the formula's %.9g", f->q[i], value, formula);
  }
  free(table);
}

/* Between knots (every 1/50 of each interval) the cubic follows the formula to its own
 * truncation error: the slopes are secant means, off by O(h^2) with h = 0.2-0.35 in ln Q^2,
 * which leaves a few 1e-5 where both neighbours' secants are there (5.3 to 6000 GeV, bound
 * 5e-5), and up to 3.2e-4 in the end intervals with one-sided slopes and next to the nf = 4 -> 5
 * kink at 4.5 GeV (bound 6e-4). The cubic is also continuous at each knot. */
static void grid_between_knots_follows_the_one_loop_formula(void **state) {
  fixture *f = *state;
  double *table = table_or_fail(HG_ALPHA_S_INTERPOLATED, f->info_path, 0, 0, 0);
  double worst_inside = 0, worst_edge = 0;
  for (size_t i = 0; i + 1 < f->n; ++i)
    for (int k = 1; k < 50; ++k) {
      const double q = exp(log(f->q[i]) + (log(f->q[i + 1]) - log(f->q[i])) * k / 50.0);
      const double r = fabs(hg_alpha_s(table, q * q) / cteq6l1_formula(q) - 1);
      const int inside = f->q[i] >= 5.3 && f->q[i + 1] <= 6000;
      if (r > (inside ? 5e-5 : 6e-4))
        fail_msg("Q = %.6g GeV: %.9g vs the formula's %.9g", q, hg_alpha_s(table, q * q),
                 cteq6l1_formula(q));
      double *worst = inside ? &worst_inside : &worst_edge;
      if (r > *worst) *worst = r;
    }
  for (size_t i = 1; i + 1 < f->n; ++i) {
    const double q2 = f->q[i] * f->q[i];
    assert_true(fabs(hg_alpha_s(table, nextafter(q2, 0)) / f->a[i] - 1) < 1e-12);
  }
  print_message("# largest |grid / formula - 1|: %.2e inside, %.2e in the edge intervals\n",
                worst_inside, worst_edge);
  /* the numbers a user compares: M_Z (MadGraph's 91.188 and the set's 91.1876) and 173 GeV */
  const double mz = hg_alpha_s(table, 91.188 * 91.188), top = hg_alpha_s(table, 173.0 * 173.0);
  print_message("# the set's alpha_s: %.7f at 91.188 GeV, %.7f at 173 GeV\n", mz, top);
  assert_true(fabs(mz - 0.12978) < 1e-5);
  assert_true(fabs(top - 0.11783) < 1e-5);
  free(table);
}

/* The same table through the open set (the path the runs take). */
static void open_set_gives_the_same_table(void **state) {
  fixture *f = *state;
  hegetcl_pdf *pdf = NULL;
  char message[1024];
  if (hegetcl_pdf_open("cteq6l1", 0, &pdf, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  double *a = table_or_fail(HG_ALPHA_S_INTERPOLATED, f->info_path, 0, 0, 0), *b = NULL;
  size_t size = 0;
  if (hg_alpha_s_table_for_pdf(HG_ALPHA_S_INTERPOLATED, pdf, 0, 0, 0, &b, &size, message,
                               sizeof message) != 0)
    fail_msg("%s", message);
  assert_memory_equal(a, b, size * sizeof *b);
  free(a);
  free(b);
  hegetcl_pdf_close(pdf);
}

/* LHAPDF's ipol outside the grid: above the last knot the last value, below the first a power
 * of Q^2 through the first two knots. */
static void grid_outside_its_knots_as_lhapdf(void **state) {
  fixture *f = *state;
  double *table = table_or_fail(HG_ALPHA_S_INTERPOLATED, f->info_path, 0, 0, 0);
  assert_true(hg_alpha_s(table, 1e10) == f->a[f->n - 1]);
  const double q = 1.0;
  const double power = log(f->a[1] / f->a[0]) / log(f->q[1] * f->q[1] / (f->q[0] * f->q[0]));
  const double expected = f->a[0] * pow(q * q / (f->q[0] * f->q[0]), power);
  assert_true(fabs(hg_alpha_s(table, q * q) / expected - 1) < 1e-13);
  free(table);
}

/* MadGraph's one-loop running for CTEQ6L1 (alpha_s(M_Z) = 0.130, M_Z = 91.188 GeV): the values
 * in MadEvent's LHE files (AQCDUP) and the formula in shared/refs/mg5-next/xsec.txt. Below m_b =
 * 4.7 GeV four flavours from alpha_s(m_b), below m_c = 1.42 GeV three from alpha_s(m_c): the
 * values at the thresholds are the closed form with b0 = (33 - 2 nf) / (12 pi). */
static void one_loop_gives_madgraphs_values(void **state) {
  (void)state;
  double *table = table_or_fail(HG_ALPHA_S_ONE_LOOP, NULL, 0.130, 91.188, 1);
  const double q[] = {173.0, 100.0, 91.188};
  const double madgraph[] = {0.11801251827772, 0.12812519427092, 0.13};
  for (int i = 0; i < 3; ++i) {
    const double value = hg_alpha_s(table, q[i] * q[i]);
    print_message("# alpha_s(%g GeV) = %.14f (MadGraph %.14f)\n", q[i], value, madgraph[i]);
    if (fabs(value - madgraph[i]) > 1e-12)
      fail_msg("alpha_s(%g) = %.17g, MadGraph %.17g", q[i], value, madgraph[i]);
  }
  const double b5 = 23 / (12 * PI), b4 = 25 / (12 * PI), b3 = 27 / (12 * PI);
  const double amb = 0.130 / (1 + 0.130 * b5 * log(4.7 * 4.7 / (91.188 * 91.188)));
  const double amc = amb / (1 + amb * b4 * log(1.42 * 1.42 / (4.7 * 4.7)));
  assert_true(fabs(hg_alpha_s(table, 4.7 * 4.7) / amb - 1) < 1e-14);
  assert_true(fabs(hg_alpha_s(table, 3.0 * 3.0) / (amb / (1 + amb * b4 * log(9 / (4.7 * 4.7)))) -
                   1) < 1e-14);
  assert_true(fabs(hg_alpha_s(table, 1.0) / (amc / (1 + amc * b3 * log(1 / (1.42 * 1.42)))) - 1) <
              1e-14);
  free(table);
}

/* A set that gives only Lambda values: LHAPDF's analytic formula at AlphaS_OrderQCD + 1 loops,
 * against the textbook forms (beta0 = 11 - 2 nf / 3, beta1 = 102 - 38 nf / 3). */
static void analytic_lambda_formula(void **state) {
  fixture *f = *state;
  char path[2048];
  for (int order = 0; order <= 1; ++order) {
    snprintf(path, sizeof path, "%s/analytic%d.info", f->temp, order);
    char text[512];
    snprintf(text, sizeof text,
             "SetDesc: \"test\"\nAlphaS_Type: analytic\nAlphaS_OrderQCD: %d\nAlphaS_MZ: 0.130\n"
             "AlphaS_Lambda4: 0.215\nAlphaS_Lambda5: 0.165\nMCharm: 1.3\nMBottom: 4.5\n"
             "MTop: 180\n",
             order);
    assert_true(pt_write_text(path, text));
    double *table = table_or_fail(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0);
    assert_int_equal((int)table[0], HG_ALPHA_S_ANALYTIC);
    const double qs[] = {2.0, 4.4, 4.6, 91.188, 173.0, 1000.0};
    for (int i = 0; i < 6; ++i) {
      const double q = qs[i];
      const int nf = q > 4.5 ? 5 : 4;
      const double lambda = nf == 5 ? 0.165 : 0.215, L = log(q * q / (lambda * lambda));
      const double beta0 = 11 - 2.0 * nf / 3, beta1 = 102 - 38.0 * nf / 3;
      double expected = 4 * PI / (beta0 * L);
      if (order == 1) expected *= 1 - beta1 * log(L) / (beta0 * beta0 * L);
      const double value = hg_alpha_s(table, q * q);
      if (fabs(value / expected - 1) > 1e-12)
        fail_msg("order %d, Q = %g: %.17g, closed form %.17g", order, q, value, expected);
      if (order == 0) assert_true(fabs(value / cteq6l1_formula(q) - 1) < 1e-12 || q <= 4.5);
    }
    free(table);
  }
}

static void expect_error(int mode, const char *path, double alpha_s_mz, double mz, int nloop,
                         const char *words) {
  double *table = NULL;
  size_t size = 0;
  char error[1024] = "";
  if (hg_alpha_s_table(mode, path, alpha_s_mz, mz, nloop, &table, &size, error, sizeof error) == 0)
    fail_msg("accepted: mode %d, %s", mode, path ? path : "(no file)");
  if (strstr(error, words) == NULL) fail_msg("message \"%s\" lacks \"%s\"", error, words);
  assert_null(table);
}

static void bad_input_is_refused_with_the_reason(void **state) {
  fixture *f = *state;
  expect_error(HG_ALPHA_S_ONE_LOOP, NULL, 0.130, 91.188, 2, "nloop = 2");
  expect_error(HG_ALPHA_S_ONE_LOOP, NULL, 0.0, 91.188, 1, "0 < alpha_s(M_Z) < 1");
  expect_error(HG_ALPHA_S_ONE_LOOP, NULL, 0.130, -1, 1, "M_Z > 0");
  expect_error(7, NULL, 0.130, 91.188, 1, "alpha_s mode 7");
  char path[2048];
  snprintf(path, sizeof path, "%s/missing.info", f->temp);
  expect_error(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0, "missing.info");
  snprintf(path, sizeof path, "%s/none.info", f->temp);
  assert_true(pt_write_text(path, "SetDesc: \"no alpha_s\"\nAlphaS_MZ: 0.118\n"));
  expect_error(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0, "gives no alpha_s");
  snprintf(path, sizeof path, "%s/short.info", f->temp);
  assert_true(pt_write_text(path, "AlphaS_Qs: [1, 2, 3]\nAlphaS_Vals: [0.3, 0.2]\n"));
  expect_error(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0, "must pair up");
  snprintf(path, sizeof path, "%s/down.info", f->temp);
  assert_true(pt_write_text(path, "AlphaS_Qs: [1, 3, 2]\nAlphaS_Vals: [0.3, 0.2, 0.25]\n"));
  expect_error(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0, "decreases at knot 3");
  snprintf(path, sizeof path, "%s/text.info", f->temp);
  assert_true(pt_write_text(path, "AlphaS_Qs: [1, two, 3]\nAlphaS_Vals: [0.3, 0.2, 0.1]\n"));
  expect_error(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0, "not a finite number");
}

/* A repeated knot starts a subgrid (a flavour threshold): below it the lower subgrid with its
 * one-sided slope, at and above it the upper one, as LHAPDF. */
static void repeated_knot_splits_the_grid(void **state) {
  fixture *f = *state;
  char path[2048];
  snprintf(path, sizeof path, "%s/split.info", f->temp);
  assert_true(pt_write_text(path, "AlphaS_Qs: [1, 2, 4, 4, 8, 16]\n"
                                  "AlphaS_Vals: [0.4, 0.3, 0.2, 0.21, 0.15, 0.12]\n"));
  double *table = table_or_fail(HG_ALPHA_S_INTERPOLATED, path, 0, 0, 0);
  assert_true(hg_alpha_s(table, 16.0) == 0.21);
  assert_true(fabs(hg_alpha_s(table, nextafter(16.0, 0)) - 0.2) < 1e-12);
  /* in [2, 4] of the lower subgrid: slopes (central at 2, backward at 4) in log Q^2 */
  const double l2 = log(4.0), l4 = log(16.0), h = l4 - l2;
  const double s_lo = 0.5 * ((0.3 - 0.4) / (l2 - 0) + (0.2 - 0.3) / h), s_hi = (0.2 - 0.3) / h;
  const double q2 = 9.0, t = (log(q2) - l2) / h;
  const double expected = (2 * t * t * t - 3 * t * t + 1) * 0.3 +
                          (t * t * t - 2 * t * t + t) * s_lo * h +
                          (-2 * t * t * t + 3 * t * t) * 0.2 + (t * t * t - t * t) * s_hi * h;
  assert_true(fabs(hg_alpha_s(table, q2) - expected) < 1e-15);
  free(table);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid_gives_the_sets_values_at_its_knots),
      cmocka_unit_test(grid_between_knots_follows_the_one_loop_formula),
      cmocka_unit_test(grid_outside_its_knots_as_lhapdf),
      cmocka_unit_test(open_set_gives_the_same_table),
      cmocka_unit_test(one_loop_gives_madgraphs_values),
      cmocka_unit_test(analytic_lambda_formula),
      cmocka_unit_test(repeated_knot_splits_the_grid),
      cmocka_unit_test(bad_input_is_refused_with_the_reason),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
