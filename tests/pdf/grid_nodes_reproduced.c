/* SPDX-License-Identifier: MIT */
/* The LHAPDF 6 reader and LHAPDF's log-bicubic interpolation on the host: CTEQ6L1's knots, the
 * numbers in shared/pdfsets, continuity, subgrids, extrapolators and the messages for bad sets. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "hegetcl/pdf.h"
#include "pdf/lhapdf6_grid.h"
#include "pdf/lhapdf6_interp.h"
#include "pdf_test_support.h"

/* What the whole group reads once. */
typedef struct {
  hegetcl_pdf *pdf; /* cteq6l1 member 0 through LHAPDF_DATA_PATH */
  pt_grid grid;     /* its .dat as the test's own reader sees it */
  char sets[1024];  /* LHAPDF_DATA_PATH's folder */
  char temp[1024];  /* a temporary folder for modified copies */
  char *info_text;  /* cteq6l1.info */
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  *state = f;
  if (f == NULL || !pt_pdfsets_dir(f->sets, sizeof f->sets)) return -1;
  char message[4096], path[2048];
  if (hegetcl_pdf_open("cteq6l1", 0, &f->pdf, message, sizeof message) != HEGETCL_OK) {
    fprintf(stderr, "cannot open cteq6l1: %s\n", message);
    return -1;
  }
  snprintf(path, sizeof path, "%s/cteq6l1/cteq6l1_0000.dat", f->sets);
  if (!pt_grid_read(path, &f->grid)) return -1;
  snprintf(path, sizeof path, "%s/cteq6l1/cteq6l1.info", f->sets);
  f->info_text = pt_read_text(path);
  return f->info_text != NULL && pt_make_temp_dir(f->temp, sizeof f->temp) ? 0 : -1;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f == NULL) return 0;
  hegetcl_pdf_close(f->pdf);
  pt_grid_free(&f->grid);
  free(f->info_text);
  if (f->temp[0] != '\0') pt_remove_tree(f->temp);
  free(f);
  return 0;
}

/* The file's value of flavour column c at knot (ix, iq). */
static double knot_value(const pt_grid *g, size_t ix, size_t iq, size_t c) {
  return g->values[(ix * g->nq + iq) * g->n_flavours + c];
}

static void assert_message_has(const char *message, const char *part) {
  if (strstr(message, part) == NULL) fail_msg("message lacks '%s': %s", part, message);
}

/* At a knot t = 0 (or t = 1 in the last interval) and the Hermite forms return the knot's value:
 * x f must be the file's number, up to the rounding of a + b + c + d at the last x knot, which is
 * relative to the values it combines (LHAPDF gives 1.8e-40 for a 0 there too). */
static void every_knot_returns_the_file_value(void **state) {
  const fixture *f = *state;
  const pt_grid *g = &f->grid;
  size_t checked = 0;
  double worst = 0;
  for (size_t c = 0; c < g->n_flavours; ++c)
    for (size_t ix = 0; ix < g->nx; ++ix)
      for (size_t iq = 0; iq < g->nq; ++iq) {
        const double want = knot_value(g, ix, iq, c);
        const double got = hegetcl_pdf_xfxq(f->pdf, g->pids[c], g->x[ix], g->q[iq]);
        const double diff = fabs(got - want);
        const double scale = ix + 1 == g->nx ? fabs(want) + fabs(knot_value(g, ix - 1, iq, c)) +
                                                   fabs(knot_value(g, ix - 2, iq, c))
                                             : fabs(want);
        if (diff > 4e-16 * scale)
          fail_msg("flavour %d at knot x = %.17g, Q = %.17g GeV: %.17g, the file has %.17g "
                   "(%.17g, %.17g at the two x knots below)",
                   g->pids[c], g->x[ix], g->q[iq], got, want,
                   ix > 0 ? knot_value(g, ix - 1, iq, c) : 0,
                   ix > 1 ? knot_value(g, ix - 2, iq, c) : 0);
        if (want != 0 && diff / fabs(want) > worst) worst = diff / fabs(want);
        ++checked;
      }
  assert_int_equal(checked, 753 * 96 * 11);
  print_message("# %zu knots (753 x, 96 Q, 11 flavours): largest relative difference %.2g\n",
                checked, worst);
}

/* shared/pdfsets/README.md quotes x u(0.1, 20 GeV) = 0.57694 and x ubar(0.01, 20 GeV) = 0.42484
 * (5 decimals); the set's metadata as in its .info. */
static void readme_values_and_metadata(void **state) {
  const fixture *f = *state;
  const double u = hegetcl_pdf_xfxq(f->pdf, 2, 0.1, 20),
               ubar = hegetcl_pdf_xfxq(f->pdf, -2, 0.01, 20);
  if (fabs(u - 0.57694) > 0.5e-5) fail_msg("x u(0.1, 20 GeV) = %.8f, README says 0.57694", u);
  if (fabs(ubar - 0.42484) > 0.5e-5)
    fail_msg("x ubar(0.01, 20 GeV) = %.8f, README says 0.42484", ubar);
  assert_int_equal(hegetcl_pdf_set_index(f->pdf), 10042);
  assert_int_equal(hegetcl_pdf_lhapdf_id(f->pdf), 10042);
  assert_int_equal(hegetcl_pdf_member(f->pdf), 0);
  assert_string_equal(hegetcl_pdf_set_name(f->pdf), "cteq6l1");
  assert_string_equal(hegetcl_pdf_extrapolator(f->pdf), "continuation");
  char dir[2048];
  snprintf(dir, sizeof dir, "%s/cteq6l1", f->sets);
  assert_string_equal(hegetcl_pdf_directory(f->pdf), dir);
  assert_non_null(strstr(hegetcl_pdf_description(f->pdf), "CTEQ6L1"));
  double lo, hi;
  hegetcl_pdf_x_range(f->pdf, &lo, &hi);
  assert_true(lo == 1e-6 && hi == 1);
  hegetcl_pdf_q_range(f->pdf, &lo, &hi);
  assert_true(lo == 1.3 && hi == 10000);
  size_t n = 0;
  const int *flavours = hegetcl_pdf_flavours(f->pdf, &n);
  static const int want[] = {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 21};
  assert_int_equal(n, 11);
  assert_memory_equal(flavours, want, sizeof want);
  assert_true(hegetcl_pdf_xfxq(f->pdf, 0, 0.1, 20) == hegetcl_pdf_xfxq(f->pdf, 21, 0.1, 20));
  assert_true(hegetcl_pdf_xfxq(f->pdf, 6, 0.1, 20) == 0); /* no top quark: 0, as in LHAPDF */
}

/* Every "(b)" row of shared/pdfsets/cteq6l1/VALIDATION.txt, an independent LHAPDF-style
 * log-bicubic reader printed to 6 significant digits: within half a unit of the last digit. */
static void validation_rows_reproduced(void **state) {
  const fixture *f = *state;
  char path[2048];
  snprintf(path, sizeof path, "%s/cteq6l1/VALIDATION.txt", f->sets);
  FILE *file = fopen(path, "r");
  if (file == NULL) fail_msg("cannot open %s", path);
  static const int pids[8] = {2, -2, 1, -1, 3, 4, 5, 21}; /* u ubar d dbar s c b g */
  char line[512];
  double q = 0, x = 0;
  int rows = 0;
  while (fgets(line, sizeof line, file) != NULL) {
    double v[8];
    if (sscanf(line, "Q = %lf GeV", &q) == 1) continue;
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' ')) line[--n] = '\0';
    if (n < 3) continue;
    if (strcmp(line + n - 3, "(a)") == 0) { /* a row of (a) values starts with its x */
      if (sscanf(line, "%lf", &x) != 1) fail_msg("%s: unreadable row: %s", path, line);
      continue;
    }
    if (strcmp(line + n - 3, "(b)") != 0) continue;
    if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &v[6], &v[7]) != 8)
      fail_msg("%s: unreadable row: %s", path, line);
    for (int k = 0; k < 8; ++k) {
      const double got = hegetcl_pdf_xfxq(f->pdf, pids[k], x, q);
      const double half_unit = 0.5e-5 * pow(10, floor(log10(fabs(v[k]))));
      if (fabs(got - v[k]) > half_unit * (1 + 1e-9))
        fail_msg("flavour %d at x = %g, Q = %g GeV: %.8e, VALIDATION.txt (b) has %.5e", pids[k], x,
                 q, got, v[k]);
    }
    ++rows;
  }
  fclose(file);
  assert_true(rows >= 20);
  print_message("# %d rows of 8 flavours agree to the 6 digits printed\n", rows);
}

/* The largest |x f| of flavour column c on the knots within two of (ix, iq): every knot that
 * enters the interpolation on either side of that knot. */
static double neighbourhood_scale(const pt_grid *g, size_t ix, size_t iq, size_t c) {
  double scale = 0;
  for (size_t i = ix < 2 ? 0 : ix - 2; i <= ix + 2 && i < g->nx; ++i)
    for (size_t k = iq < 2 ? 0 : iq - 2; k <= iq + 2 && k < g->nq; ++k)
      scale = fmax(scale, fabs(knot_value(g, i, k, c)));
  return scale;
}

/* The interpolant is continuous with a continuous slope (LHAPDF's pieces share each knot's value
 * and finite-difference slope): with f at a relative 1e-10 below, on and above a knot in x or Q,
 * the second difference f+ - 2 f0 + f- is rounding plus curvature, (1e-10 / knot spacing)^2 times
 * the knot values, below 1e-12 of the largest nearby knot value S; a jump J adds J and a change r
 * S / spacing of the slope adds r S 1e-10 / spacing. */
static void continuity_across_knots(void **state) {
  const fixture *f = *state;
  const pt_grid *g = &f->grid;
  static const size_t columns[] = {6, 3, 5, 10, 9}; /* u, ubar, d, g, b */
  const double step = 1e-10;
  for (size_t p = 0; p < sizeof columns / sizeof columns[0]; ++p)
    for (size_t ix = 1; ix + 1 < g->nx; ix += 5)
      for (size_t iq = 1; iq + 1 < g->nq; iq += 3) {
        const size_t c = columns[p];
        const int pid = g->pids[c];
        const double x = g->x[ix], q = g->q[iq];
        const double mid = hegetcl_pdf_xfxq(f->pdf, pid, x, q);
        const double sides[2][2] = {{hegetcl_pdf_xfxq(f->pdf, pid, x * (1 - step), q),
                                     hegetcl_pdf_xfxq(f->pdf, pid, x * (1 + step), q)},
                                    {hegetcl_pdf_xfxq(f->pdf, pid, x, q * (1 - step)),
                                     hegetcl_pdf_xfxq(f->pdf, pid, x, q * (1 + step))}};
        const double scale = neighbourhood_scale(g, ix, iq, c);
        for (int d = 0; d < 2; ++d)
          if (fabs(sides[d][1] - 2 * mid + sides[d][0]) > 1e-12 * scale)
            fail_msg("flavour %d breaks at the %s knot x = %.17g, Q = %.17g GeV: %.17g below, "
                     "%.17g on, %.17g above (nearby knots up to %.3g)",
                     pid, d ? "Q" : "x", x, q, sides[d][0], mid, sides[d][1], scale);
      }
}

/* Splits cteq6l1 at Q knots 30, 31, 40, 42 and 60 into six subgrids (one of 2 Q knots, one of 3),
 * each block's first row doubled; returns the copy, opened. */
static hegetcl_pdf *open_split_copy(const fixture *f, const char *name) {
  static const size_t cuts[] = {30, 31, 40, 42, 60};
  if (!pt_write_split_set(f->temp, name, f->info_text, &f->grid, cuts, 5, 2.0))
    fail_msg("cannot write the subgrid copy into %s", f->temp);
  char path[2048], message[4096];
  snprintf(path, sizeof path, "%s/%s", f->temp, name);
  hegetcl_pdf *pdf = NULL;
  if (hegetcl_pdf_open(path, 0, &pdf, message, sizeof message) != HEGETCL_OK)
    fail_msg("opening the subgrid copy: %s", message);
  return pdf;
}

/* LHAPDF's subgrid rules: a Q on a boundary belongs to the upper subgrid (here its doubled first
 * row); inside a subgrid, away from its first and last interval, the result equals the single
 * grid's bit for bit, since the same knots and central differences enter. */
static void subgrids_own_their_lower_boundary_and_match_inside(void **state) {
  const fixture *f = *state;
  const pt_grid *g = &f->grid;
  hegetcl_pdf *split = open_split_copy(f, "split_a");
  static const size_t boundaries[] = {30, 31, 40, 42, 60};
  for (size_t b = 0; b < 5; ++b)
    for (size_t ix = 0; ix < g->nx; ix += 50)
      for (size_t c = 0; c < g->n_flavours; ++c) {
        const double want = 2 * knot_value(g, ix, boundaries[b], c);
        const double got = hegetcl_pdf_xfxq(split, g->pids[c], g->x[ix], g->q[boundaries[b]]);
        if (fabs(got - want) > 4e-16 * fabs(want))
          fail_msg("flavour %d, x = %g on the boundary Q = %.17g GeV: %.17g, the upper subgrid "
                   "has %.17g",
                   g->pids[c], g->x[ix], g->q[boundaries[b]], got, want);
      }
  /* Intervals whose four Q knots lie inside one subgrid, none of them a doubled row. */
  static const size_t inner[][2] = {{1, 28}, {44, 58}, {62, 93}};
  for (size_t r = 0; r < 3; ++r)
    for (size_t iq = inner[r][0]; iq <= inner[r][1]; ++iq)
      for (size_t ix = 3; ix + 1 < g->nx; ix += 37) {
        const double x = sqrt(g->x[ix] * g->x[ix + 1]), q = sqrt(g->q[iq] * g->q[iq + 1]);
        for (size_t c = 0; c < g->n_flavours; ++c) {
          const double one = hegetcl_pdf_xfxq(f->pdf, g->pids[c], x, q);
          const double many = hegetcl_pdf_xfxq(split, g->pids[c], x, q);
          if (one != many)
            fail_msg("flavour %d at x = %.17g, Q = %.17g GeV: one grid %.17g, subgrids %.17g",
                     g->pids[c], x, q, one, many);
        }
      }
  hegetcl_pdf_close(split);
}

/* A subgrid of two Q knots falls back to bilinear interpolation in (log x, log Q^2), as LHAPDF:
 * halfway in log x and log Q^2 the value is the mean of the four corners. */
static void two_knot_subgrids_are_bilinear(void **state) {
  const fixture *f = *state;
  const pt_grid *g = &f->grid;
  hegetcl_pdf *split = open_split_copy(f, "split_b");
  const size_t iq = 30; /* the subgrid [Q_30, Q_31], its first row doubled */
  const double q = sqrt(g->q[iq] * g->q[iq + 1]);
  for (size_t ix = 0; ix + 1 < g->nx; ix += 11)
    for (size_t c = 0; c < g->n_flavours; ++c) {
      const double x = sqrt(g->x[ix] * g->x[ix + 1]);
      const double want = (2 * knot_value(g, ix, iq, c) + 2 * knot_value(g, ix + 1, iq, c) +
                           knot_value(g, ix, iq + 1, c) + knot_value(g, ix + 1, iq + 1, c)) /
                          4;
      const double got = hegetcl_pdf_xfxq(split, g->pids[c], x, q);
      if (fabs(got - want) > 1e-12 * fabs(want) + 1e-300)
        fail_msg("flavour %d at x = %.17g, Q = %.17g GeV: %.17g, bilinear gives %.17g", g->pids[c],
                 x, q, got, want);
    }
  hegetcl_pdf_close(split);
}

/* ContinuationExtrapolator's formulas, written out here from the values on the grid's edge. */
static double continue_line(double v, double vl, double vh, double yl, double yh) {
  if (yl > 1e-3 && yh > 1e-3)
    return exp(log(yl) + (log(v) - log(vl)) / (log(vh) - log(vl)) * (log(yh) - log(yl)));
  return yl + (log(v) - log(vl)) / (log(vh) - log(vl)) * (yh - yl);
}

/* A set copy with an Extrapolator line added, its .dat a link to the original. */
static hegetcl_pdf *open_with_extrapolator(const fixture *f, const char *name, const char *xpol) {
  char path[2048], target[2048], message[4096];
  snprintf(path, sizeof path, "%s/%s", f->temp, name);
  if (mkdir(path, 0700) != 0) fail_msg("cannot make %s", path);
  const size_t n = strlen(f->info_text) + strlen(xpol) + 32;
  char *info = malloc(n);
  assert_non_null(info);
  snprintf(info, n, "%sExtrapolator: %s\n", f->info_text, xpol);
  snprintf(path, sizeof path, "%s/%s/%s.info", f->temp, name, name);
  const int written = pt_write_text(path, info);
  free(info);
  assert_true(written);
  snprintf(path, sizeof path, "%s/%s/%s_0000.dat", f->temp, name, name);
  snprintf(target, sizeof target, "%s/cteq6l1/cteq6l1_0000.dat", f->sets);
  if (symlink(target, path) != 0) fail_msg("cannot link %s to %s", path, target);
  snprintf(path, sizeof path, "%s/%s", f->temp, name);
  hegetcl_pdf *pdf = NULL;
  if (hegetcl_pdf_open(path, 0, &pdf, message, sizeof message) != HEGETCL_OK)
    fail_msg("opening %s: %s", path, message);
  return pdf;
}

/* Outside the grid: continuation (the default) as LHAPDF's ContinuationExtrapolator, nearest as
 * the closest grid point, error as 0; *outside set outside the grid and untouched inside. */
static void extrapolators_follow_lhapdf(void **state) {
  const fixture *f = *state;
  const pt_grid *g = &f->grid;
  const hegetcl_pdf *pdf = f->pdf;
  const double x_min = g->x[0], x_min1 = g->x[1], q_min = g->q[0], q_max = g->q[g->nq - 1];
  const double q_max1 = g->q[g->nq - 2];
  static const int pids[] = {21, 2, -1, 5};
  for (size_t p = 0; p < 4; ++p) {
    const int pid = pids[p];
    /* small x: a line in log x (in log x f where both values exceed 1e-3) */
    double want = continue_line(1e-8, x_min, x_min1, hegetcl_pdf_xfxq(pdf, pid, x_min, 20),
                                hegetcl_pdf_xfxq(pdf, pid, x_min1, 20));
    double got = hegetcl_pdf_xfxq(pdf, pid, 1e-8, 20);
    if (fabs(got - want) > 1e-12 * fabs(want))
      fail_msg("pid %d x = 1e-8: %.17g, not %.17g", pid, got, want);
    /* large Q: a line in log Q^2 through the last two Q knots */
    want = continue_line(3e4 * 3e4, q_max * q_max, q_max1 * q_max1,
                         hegetcl_pdf_xfxq(pdf, pid, 0.05, q_max),
                         hegetcl_pdf_xfxq(pdf, pid, 0.05, q_max1));
    got = hegetcl_pdf_xfxq(pdf, pid, 0.05, 3e4);
    if (fabs(got - want) > 1e-12 * fabs(want))
      fail_msg("pid %d Q = 3e4: %.17g, not %.17g", pid, got, want);
    /* small Q: f(Q^2_min) (Q^2/Q^2_min)^(a Q^2/Q^2_min + 1 - Q^2/Q^2_min) */
    const double f_min = hegetcl_pdf_xfxq(pdf, pid, 0.05, q_min);
    const double f_up = hegetcl_pdf_xfxq(pdf, pid, 0.05, q_min * sqrt(1.01));
    const double anom = fabs(f_min) >= 1e-5 ? fmax(-2.5, (f_up - f_min) / f_min / 0.01) : 1.0;
    const double r = 0.8 * 0.8 / (q_min * q_min);
    want = f_min * pow(r, anom * r + 1 - r);
    got = hegetcl_pdf_xfxq(pdf, pid, 0.05, 0.8);
    if (fabs(got - want) > 1e-9 * fabs(want) + 1e-300)
      fail_msg("pid %d Q = 0.8 GeV: %.17g, not %.17g", pid, got, want);
  }
  assert_true(hegetcl_pdf_xfxq(pdf, 21, 1.5, 20) == 0); /* x > 1: LHAPDF's RangeError */
  assert_true(hegetcl_pdf_xfxq(pdf, 21, NAN, 20) == 0);

  size_t n_doubles = 0;
  const double *grid = hg_pdf_grid(pdf, &n_doubles);
  const int slot = hg_pdf_slot(pdf, 21);
  int outside = 7;
  hg_pdf_xfxq2(grid, slot, 0.1, 400, &outside);
  assert_int_equal(outside, 7);
  hg_pdf_xfxq2(grid, slot, 1e-8, 400, &outside);
  assert_int_equal(outside, 1);

  hegetcl_pdf *nearest = open_with_extrapolator(f, "xpol_nearest", "nearest");
  assert_string_equal(hegetcl_pdf_extrapolator(nearest), "nearest");
  assert_true(hegetcl_pdf_xfxq(nearest, 2, 1e-8, 20) == hegetcl_pdf_xfxq(pdf, 2, x_min, 20));
  assert_true(hegetcl_pdf_xfxq(nearest, 2, 0.1, 0.5) == hegetcl_pdf_xfxq(pdf, 2, 0.1, q_min));
  assert_true(hegetcl_pdf_xfxq(nearest, 2, 0.1, 5e4) == hegetcl_pdf_xfxq(pdf, 2, 0.1, q_max));
  assert_true(hegetcl_pdf_xfxq(nearest, 2, 1e-9, 5e4) == hegetcl_pdf_xfxq(pdf, 2, x_min, q_max));
  assert_true(hegetcl_pdf_xfxq(nearest, 2, 0.1, 20) == hegetcl_pdf_xfxq(pdf, 2, 0.1, 20));
  hegetcl_pdf_close(nearest);
  hegetcl_pdf *error = open_with_extrapolator(f, "xpol_error", "error");
  assert_true(hegetcl_pdf_xfxq(error, 2, 1e-8, 20) == 0);
  assert_true(hegetcl_pdf_xfxq(error, 2, 0.1, 5e4) == 0);
  assert_true(hegetcl_pdf_xfxq(error, 2, 0.1, 20) == hegetcl_pdf_xfxq(pdf, 2, 0.1, 20));
  hegetcl_pdf_close(error);
}

/* hg_pdf_pack: slot i holds pids[i] (0 the gluon) with the member's values; an unknown flavour
 * is refused with the set's list. */
static void packed_slots_hold_the_asked_flavours(void **state) {
  const fixture *f = *state;
  static const int pids[] = {0, -5, 2};
  double *grid = NULL;
  size_t n = 0;
  char message[1024];
  assert_int_equal(hg_pdf_pack(f->pdf, pids, 3, &grid, &n, message, sizeof message), HEGETCL_OK);
  assert_true(grid[HG_PDF_H_SIZE] == (double)n);
  for (int s = 0; s < 3; ++s)
    for (double x = 1e-5; x < 1; x *= 3.7) {
      int outside = 0;
      const double got = hg_pdf_xfxq2(grid, s, x, 123.0 * 123.0, &outside);
      assert_true(got == hegetcl_pdf_xfxq(f->pdf, pids[s], x, 123.0));
      assert_int_equal(outside, 0);
    }
  free(grid);
  static const int bad[] = {2, 6};
  assert_int_equal(hg_pdf_pack(f->pdf, bad, 2, &grid, &n, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_null(grid);
  assert_message_has(message, "flavour 6 is not in PDF set cteq6l1");
  assert_message_has(message, "-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 21");
}

/* A missing set names every folder searched, where each came from, and the fix. */
static void a_missing_set_names_every_folder_searched(void **state) {
  const fixture *f = *state;
  char path[2048], message[4096];
  const char *saved = getenv("LHAPDF_DATA_PATH");
  char *saved_copy = saved ? strdup(saved) : NULL;
  snprintf(path, sizeof path, "%s:/nonexistent/lhapdf-a", f->sets);
  setenv("LHAPDF_DATA_PATH", path, 1);
  setenv("LHAPATH", "/nonexistent/lhapath-b", 1);
  hegetcl_pdf *pdf = NULL;
  const hegetcl_status status = hegetcl_pdf_open("no_such_set", 0, &pdf, message, sizeof message);
  unsetenv("LHAPATH");
  if (saved_copy) setenv("LHAPDF_DATA_PATH", saved_copy, 1);
  free(saved_copy);
  assert_int_equal(status, HEGETCL_ERR_IO);
  assert_null(pdf);
  assert_message_has(message, "PDF set 'no_such_set' not found");
  snprintf(path, sizeof path, "%s (LHAPDF_DATA_PATH)", f->sets);
  assert_message_has(message, path);
  assert_message_has(message, "/nonexistent/lhapdf-a (LHAPDF_DATA_PATH)");
  assert_message_has(message, "/nonexistent/lhapath-b (LHAPATH)");
  assert_message_has(message, "/usr/local/share/LHAPDF");
  assert_message_has(message, "/usr/share/LHAPDF");
  assert_message_has(message, "set LHAPDF_DATA_PATH");
  assert_message_has(message, "bash setup.sh");
  assert_int_equal(hegetcl_pdf_open("cteq6l1", 1, &pdf, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_message_has(message, "NumMembers: 1");
  assert_int_equal(hegetcl_pdf_open("cteq6l1", -1, &pdf, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_int_equal(hegetcl_pdf_open("", 0, &pdf, message, sizeof message), HEGETCL_ERR_INPUT);
}

/* The grid's range is its first and last knots as the file has them, and hg_pdf_grid_covers is
 * the devices' inside test: a cross section refuses a scale or an x where it is 0
 * (docs/user-guide.md, "PDFs outside their grid"), since the sampler drops such points rather
 * than extrapolate. */
static void the_grid_range_is_its_knots_and_covers_only_them(void **state) {
  const fixture *f = *state;
  const pt_grid *g = &f->grid;
  double x_min, x_max, q_min, q_max;
  hg_pdf_grid_range(f->pdf, &x_min, &x_max, &q_min, &q_max);
  assert_true(x_min == g->x[0] && x_max == g->x[g->nx - 1]);
  if (fabs(q_min / g->q[0] - 1) > 1e-15 || fabs(q_max / g->q[g->nq - 1] - 1) > 1e-15)
    fail_msg("Q range %.17g .. %.17g, the file's knots %.17g .. %.17g", q_min, q_max, g->q[0],
             g->q[g->nq - 1]);
  const double q = 20.0, x = 0.01;
  assert_true(hg_pdf_grid_covers(f->pdf, x, g->q[0]));
  assert_true(hg_pdf_grid_covers(f->pdf, x, g->q[g->nq - 1]));
  assert_true(hg_pdf_grid_covers(f->pdf, g->x[0], q));
  assert_true(hg_pdf_grid_covers(f->pdf, g->x[g->nx - 1], q));
  assert_false(hg_pdf_grid_covers(f->pdf, x, g->q[0] * (1 - 1e-9)));
  assert_false(hg_pdf_grid_covers(f->pdf, x, g->q[g->nq - 1] * (1 + 1e-9)));
  assert_false(hg_pdf_grid_covers(f->pdf, g->x[0] * (1 - 1e-9), q));
  assert_false(hg_pdf_grid_covers(f->pdf, 0.0, q));
  /* the host API itself extrapolates as the set says (continuation): finite and positive */
  const double below = hegetcl_pdf_xfxq(f->pdf, 2, g->x[0] / 10, q);
  assert_true(isfinite(below) && below > 0);
}

/* A tiny set: 4 x knots, 3 Q knots, flavours 1 2 21; one line can be replaced. */
static void write_tiny_set(const fixture *f, const char *name, const char *format,
                           const char *extra_info, const char *x_line, const char *q_line,
                           const char *flavour_line, size_t n_rows, size_t bad_row,
                           const char *bad_text, int terminated) {
  char path[2048], text[4096];
  snprintf(path, sizeof path, "%s/%s", f->temp, name);
  if (mkdir(path, 0700) != 0) fail_msg("cannot make %s", path);
  snprintf(text, sizeof text,
           "SetDesc: \"tiny test set\"\nSetIndex: 99990\nFormat: %s\nNumMembers: 1\n"
           "Flavors: [1, 2, 21]\n%s",
           format, extra_info);
  snprintf(path, sizeof path, "%s/%s/%s.info", f->temp, name, name);
  assert_true(pt_write_text(path, text));
  size_t used =
      (size_t)snprintf(text, sizeof text, "PdfType: central\nFormat: lhagrid1\n---\n%s\n%s\n%s\n",
                       x_line, q_line, flavour_line);
  for (size_t r = 1; r <= n_rows; ++r)
    used += (size_t)snprintf(text + used, sizeof text - used, "%s\n",
                             r == bad_row ? bad_text : "0.25 0.5 2.5");
  if (terminated) snprintf(text + used, sizeof text - used, "---\n");
  snprintf(path, sizeof path, "%s/%s/%s_0000.dat", f->temp, name, name);
  assert_true(pt_write_text(path, text));
}

/* Opens the temporary set name, which must fail with status and a message naming file:line. */
static void expect_bad_set(const fixture *f, const char *name, const char *file_suffix, int line,
                           const char *part) {
  char path[2048], message[4096], where[2200];
  snprintf(path, sizeof path, "%s/%s", f->temp, name);
  hegetcl_pdf *pdf = NULL;
  const hegetcl_status status = hegetcl_pdf_open(path, 0, &pdf, message, sizeof message);
  if (status != HEGETCL_ERR_INPUT)
    fail_msg("%s: %s, not HEGETCL_ERR_INPUT: %s", name, hegetcl_status_name(status), message);
  assert_null(pdf);
  snprintf(where, sizeof where, "%s/%s/%s%s:%d:", f->temp, name, name, file_suffix, line);
  assert_message_has(message, where);
  assert_message_has(message, part);
}

/* Corrupt sets: the message names the file, the line and what is wrong. */
static void corrupt_files_name_file_and_line(void **state) {
  const fixture *f = *state;
  const char *x = "1e-3 1e-2 1e-1 1", *q = "1 10 100", *fl = "1 2 21";
  write_tiny_set(f, "tiny_ok", "lhagrid1", "", x, q, fl, 12, 0, "", 1);
  char path[2048], message[4096];
  snprintf(path, sizeof path, "%s/tiny_ok", f->temp);
  hegetcl_pdf *pdf = NULL;
  if (hegetcl_pdf_open(path, 0, &pdf, message, sizeof message) != HEGETCL_OK)
    fail_msg("the intact tiny set fails: %s", message);
  assert_true(fabs(hegetcl_pdf_xfxq(pdf, 21, 0.05, 5) - 2.5) < 1e-15);
  hegetcl_pdf_close(pdf);

  write_tiny_set(f, "tiny_format", "lhagrid2", "", x, q, fl, 12, 0, "", 1);
  expect_bad_set(f, "tiny_format", ".info", 3, "Format: lhagrid2");
  write_tiny_set(f, "tiny_xpol", "lhagrid1", "Extrapolator: sideways\n", x, q, fl, 12, 0, "", 1);
  expect_bad_set(f, "tiny_xpol", ".info", 6, "not one of LHAPDF's continuation, nearest, error");
  write_tiny_set(f, "tiny_knots", "lhagrid1", "", "1e-3 1e-2 1e-2 1", q, fl, 12, 0, "", 1);
  expect_bad_set(f, "tiny_knots", "_0000.dat", 4, "knots must increase");
  write_tiny_set(f, "tiny_few_q", "lhagrid1", "", x, "1 10", fl, 12, 0, "", 1);
  expect_bad_set(f, "tiny_few_q", "_0000.dat", 15, "knot counts and values do not match");
  write_tiny_set(f, "tiny_many_q", "lhagrid1", "", x, "1 10 100 1000", fl, 12, 0, "", 1);
  expect_bad_set(f, "tiny_many_q", "_0000.dat", 19, "knot counts and values do not match");
  write_tiny_set(f, "tiny_flavour", "lhagrid1", "", x, q, "1 2 3", 12, 0, "", 1);
  expect_bad_set(f, "tiny_flavour", "_0000.dat", 6, "flavour 21");
  write_tiny_set(f, "tiny_nan", "lhagrid1", "", x, q, fl, 12, 3, "0.25 nan 2.5", 1);
  expect_bad_set(f, "tiny_nan", "_0000.dat", 9, "value 2 is 'nan'");
  write_tiny_set(f, "tiny_short_row", "lhagrid1", "", x, q, fl, 12, 4, "0.25 0.5", 1);
  expect_bad_set(f, "tiny_short_row", "_0000.dat", 10, "fewer values");
  write_tiny_set(f, "tiny_open", "lhagrid1", "", x, q, fl, 12, 0, "", 0);
  expect_bad_set(f, "tiny_open", "_0000.dat", 18, "ends inside block 1");

  /* The real grid with one number replaced by nan on line 5000. */
  snprintf(path, sizeof path, "%s/cteq6l1", f->temp);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/cteq6l1/cteq6l1.info", f->temp);
  assert_true(pt_write_text(path, f->info_text));
  char from_path[2048];
  snprintf(from_path, sizeof from_path, "%s/cteq6l1/cteq6l1_0000.dat", f->sets);
  snprintf(path, sizeof path, "%s/cteq6l1/cteq6l1_0000.dat", f->temp);
  FILE *from = fopen(from_path, "r"), *to = fopen(path, "w");
  assert_true(from != NULL && to != NULL);
  char *line = NULL;
  size_t capacity = 0;
  for (int n = 1; getline(&line, &capacity, from) >= 0; ++n)
    fputs(n == 5000 ? "1 2 3 nan 5 6 7 8 9 10 11\n" : line, to);
  free(line);
  fclose(from);
  assert_int_equal(fclose(to), 0);
  expect_bad_set(f, "cteq6l1", "_0000.dat", 5000, "value 4 is 'nan', not a finite number");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_knot_returns_the_file_value),
      cmocka_unit_test(readme_values_and_metadata),
      cmocka_unit_test(validation_rows_reproduced),
      cmocka_unit_test(continuity_across_knots),
      cmocka_unit_test(subgrids_own_their_lower_boundary_and_match_inside),
      cmocka_unit_test(two_knot_subgrids_are_bilinear),
      cmocka_unit_test(extrapolators_follow_lhapdf),
      cmocka_unit_test(packed_slots_hold_the_asked_flavours),
      cmocka_unit_test(the_grid_range_is_its_knots_and_covers_only_them),
      cmocka_unit_test(a_missing_set_names_every_folder_searched),
      cmocka_unit_test(corrupt_files_name_file_and_line),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
