/* SPDX-License-Identifier: MIT */
/* hg_pdf_xfxq2 (cl/pdf/lhapdf6_interp.h) on the OpenCL device against the same code compiled as
 * host C, for CTEQ6L1 and a copy split into Q subgrids, inside and outside the grid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "hegetcl/pdf.h"
#include "pdf/lhapdf6_grid.h"
#include "pdf/lhapdf6_interp.h"
#include "pdf_test_support.h"
#include "probe.h"

/* Double on both sides, the same operations in the same order; only the device's log, exp and pow
 * may differ from glibc's by an ulp or two (OpenCL allows 3 ulp for log and exp, 16 for pow).
 * Inside the grid an ulp of log x moves the cubic's t by 2^-52 |log x| / Δlog x < 1e-13, and x f
 * by that times d log f / d t, well below 1e-13 (measured 3.5e-15). */
#define TOLERANCE 1e-13
/* Outside the grid the continuation draws a line in log f through the first two x knots (or last
 * two Q knots) out to x = 1e-9: (log x - log x_min) / Δlog x is up to 330 knot spacings, which
 * multiplies the device's ulp differences in log f by as much (measured 1.6e-13 at x = 3e-9 on
 * PoCL); below both x_min and Q_min the two extrapolations compound, and NVIDIA's log and exp
 * differ from glibc's by an ulp more often (measured 1.6e-12 on an H200). */
#define TOLERANCE_OUTSIDE 1e-11
/* x f below this is rounding noise around the grid's zeros (x = 1): 12 orders below any x f that
 * feeds a cross section here. */
#define ABSOLUTE_FLOOR 1e-15

static const char kernel_text[] =
    "#line 1 \"tests/pdf/device_equals_host.c: kernel_text\"\n"
    "__kernel void probe_pdf_xfxq2(__global const double *grid, __global const int *slots,\n"
    "                              __global const double *x, __global const double *q2,\n"
    "                              __global double *value, __global double *outside) {\n"
    "  const size_t i = get_global_id(0);\n"
    "  int out = 0;\n"
    "  value[i] = hg_pdf_xfxq2(grid, slots[i], x[i], q2[i], &out);\n"
    "  outside[i] = out;\n"
    "}\n";

typedef struct {
  hegetcl_context *ctx;
  ts_probe probe;       /* built for REAL = double */
  ts_probe float_probe; /* built for REAL = float: PDFs stay double in float programs */
  hegetcl_pdf *pdf, *split;
  pt_grid grid;
  char temp[1024];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (f == NULL) return -1;
  *state = f;
  f->ctx = ts_context_create();
  if (f->ctx == NULL) return -1;
  char sets[1024], path[2048], message[4096];
  if (!pt_pdfsets_dir(sets, sizeof sets)) return -1;
  if (hegetcl_pdf_open("cteq6l1", 0, &f->pdf, message, sizeof message) != HEGETCL_OK) {
    fprintf(stderr, "cannot open cteq6l1: %s\n", message);
    return -1;
  }
  /* The same grid in six Q subgrids (boundaries at Q knots 30, 31, 40, 42, 60; one subgrid of two
   * knots, one of three), each subgrid's first row doubled so that subgrids differ. */
  static const size_t cuts[] = {30, 31, 40, 42, 60};
  snprintf(path, sizeof path, "%s/cteq6l1/cteq6l1_0000.dat", sets);
  if (!pt_grid_read(path, &f->grid) || !pt_make_temp_dir(f->temp, sizeof f->temp)) return -1;
  snprintf(path, sizeof path, "%s/cteq6l1/cteq6l1.info", sets);
  char *info = pt_read_text(path);
  const int written =
      info != NULL && pt_write_split_set(f->temp, "split", info, &f->grid, cuts, 5, 2.0);
  free(info);
  if (!written) return -1;
  snprintf(path, sizeof path, "%s/split", f->temp);
  if (hegetcl_pdf_open(path, 0, &f->split, message, sizeof message) != HEGETCL_OK) {
    fprintf(stderr, "cannot open the subgrid copy: %s\n", message);
    return -1;
  }
  if (!ts_has_fp64(f->ctx)) return 0; /* the tests skip, saying why */
  const hg_source_part parts[] = {{"pdf/lhapdf6_interp.h", NULL}, {NULL, kernel_text}};
  for (int p = 0; p < 2; ++p) {
    const hegetcl_precision precision = p ? HEGETCL_PRECISION_FLOAT : HEGETCL_PRECISION_DOUBLE;
    char options[512];
    cl_program program = NULL;
    hegetcl_status status = hg_build_options(f->ctx, precision, 2, options, sizeof options);
    if (status == HEGETCL_OK) status = hg_program_get(f->ctx, parts, 2, options, &program, NULL);
    if (status != HEGETCL_OK) {
      fprintf(stderr, "building the probe for REAL = %s: %s\n", hegetcl_precision_name(precision),
              hegetcl_last_error(f->ctx));
      return -1;
    }
    /* The kernel's buffers are double whatever REAL is, so both upload doubles. */
    ts_probe *probe = p ? &f->float_probe : &f->probe;
    probe->ctx = f->ctx;
    probe->precision = HEGETCL_PRECISION_DOUBLE;
    probe->program = program;
  }
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f == NULL) return 0;
  hegetcl_pdf_close(f->pdf);
  hegetcl_pdf_close(f->split);
  pt_grid_free(&f->grid);
  if (f->temp[0] != '\0') pt_remove_tree(f->temp);
  hegetcl_context_destroy(f->ctx);
  free(f);
  return 0;
}

/* A log-uniform draw in [lo, hi]. */
static double log_uniform(uint64_t *rng, double lo, double hi) {
  return exp(log(lo) + (log(hi) - log(lo)) * ts_uniform(rng));
}

/* n points (slot, x, Q^2): mostly inside the grid, some on its knots (subgrid boundaries
 * included), some below x_min, below Q_min and above Q_max for the extrapolator, a few at x = 0,
 * x = 1 and x > 1. */
static void random_points(const pt_grid *g, size_t n_slots, uint64_t seed, size_t n, int *slots,
                          double *x, double *q2) {
  uint64_t rng = seed;
  for (size_t i = 0; i < n; ++i) {
    slots[i] = (int)(ts_uniform(&rng) * (double)n_slots);
    const double kind = ts_uniform(&rng);
    double xi = log_uniform(&rng, 1e-6, 1), q = log_uniform(&rng, 1.3, 1e4);
    if (kind < 0.10) {
      xi = g->x[(size_t)(ts_uniform(&rng) * (double)g->nx)];
      q = g->q[(size_t)(ts_uniform(&rng) * (double)g->nq)];
    } else if (kind < 0.15) {
      q = g->q[(size_t)(ts_uniform(&rng) * (double)g->nq)];
    } else if (kind < 0.20) {
      xi = log_uniform(&rng, 1e-9, 1e-6);
    } else if (kind < 0.25) {
      q = log_uniform(&rng, 0.3, 1.3);
    } else if (kind < 0.30) {
      q = log_uniform(&rng, 1e4, 1e5);
    } else if (kind < 0.32) {
      xi = log_uniform(&rng, 1e-9, 1e-6);
      q = ts_uniform(&rng) < 0.5 ? log_uniform(&rng, 0.3, 1.3) : log_uniform(&rng, 1e4, 1e5);
    } else if (kind < 0.33) {
      const double special[] = {0, 1, 1.5, 1e-6};
      xi = special[(size_t)(ts_uniform(&rng) * 4)];
    }
    x[i] = xi;
    q2[i] = q * q;
  }
}

/* Runs n points of a packed grid on the device and on the host; every value within TOLERANCE,
 * every outside flag equal, and the packed grid's host values equal hegetcl_pdf_xfxq's. */
static void compare(fixture *f, const ts_probe *probe, const hegetcl_pdf *pdf, const char *label,
                    const int *pids, size_t n_pids, uint64_t seed) {
  ts_skip_without_fp64(f->ctx, HEGETCL_PRECISION_DOUBLE);
  enum { N = 4000 };
  double *grid = NULL;
  size_t n_doubles = 0;
  char message[1024];
  if (hg_pdf_pack(pdf, pids, n_pids, &grid, &n_doubles, message, sizeof message) != HEGETCL_OK)
    fail_msg("hg_pdf_pack: %s", message);
  int *slots = malloc(N * sizeof *slots);
  double *x = malloc(N * sizeof *x), *q2 = malloc(N * sizeof *q2);
  double *device = malloc(N * sizeof *device), *device_outside = malloc(N * sizeof *device);
  assert_true(slots && x && q2 && device && device_outside);
  random_points(&f->grid, n_pids, seed, N, slots, x, q2);
  const ts_arg args[] = {
      ts_reals_in(n_doubles, grid), ts_ints_in(N, slots),    ts_reals_in(N, x),
      ts_reals_in(N, q2),           ts_reals_out(N, device), ts_reals_out(N, device_outside)};
  TS_ASSERT_OK(f->ctx, ts_probe_run(probe, "probe_pdf_xfxq2", N, args, 6));
  double worst = 0, worst_outside = 0;
  size_t n_outside = 0;
  for (size_t i = 0; i < N; ++i) {
    int outside = 0;
    const double host = hg_pdf_xfxq2(grid, slots[i], x[i], q2[i], &outside);
    const double diff = fabs(device[i] - host);
    const int same = device[i] == host || (isnan(device[i]) && isnan(host));
    const double tolerance = outside ? TOLERANCE_OUTSIDE : TOLERANCE;
    /* The grid's values at x = 1 are 0: there the interpolation returns rounding noise (1e-25 and
     * below), whose sign depends on whether the compiler contracts a * b + c into an fma (NVIDIA
     * does), so differences below ABSOLUTE_FLOOR count as equal. */
    if (!(same || diff <= tolerance * fabs(host) || diff <= ABSOLUTE_FLOOR) ||
        outside != (int)device_outside[i])
      fail_msg("%s on %s: pid %d, x = %.17g, Q = %.17g GeV: device %.17g (outside %g), host "
               "%.17g (outside %d), ratio - 1 = %.3g",
               label, ts_device_name(f->ctx), pids[slots[i]], x[i], sqrt(q2[i]), device[i],
               device_outside[i], host, outside, device[i] / host - 1);
    double *largest = outside ? &worst_outside : &worst;
    if (isfinite(host) && diff > ABSOLUTE_FLOOR && diff / fabs(host) > *largest)
      *largest = diff / fabs(host);
    n_outside += (size_t)outside;
    const double whole = hegetcl_pdf_xfxq(pdf, pids[slots[i]], x[i], sqrt(q2[i]));
    if (sqrt(q2[i]) * sqrt(q2[i]) == q2[i] && !(whole == host || (isnan(whole) && isnan(host))))
      fail_msg("%s: the packed grid gives %.17g, the member's own %.17g (pid %d, x = %.17g)", label,
               host, whole, pids[slots[i]], x[i]);
  }
  print_message("# %s on %s: largest relative difference %.2g at %zu points inside the grid, "
                "%.2g at %zu outside\n",
                label, ts_device_name(f->ctx), worst, N - n_outside, worst_outside, n_outside);
  free(grid);
  free(slots);
  free(x);
  free(q2);
  free(device);
  free(device_outside);
}

static void cteq6l1_on_the_device_equals_host(void **state) {
  static const int pids[] = {21, 2, -2, 1, -1, 3, -3, 4, -4, 5, -5};
  fixture *f = *state;
  compare(f, &f->probe, f->pdf, "cteq6l1", pids, 11, 101);
}

/* Built with REAL = float and -cl-single-precision-constant, the PDF code still computes in
 * double: the same points give the same values. */
static void cteq6l1_in_a_float_program_equals_host(void **state) {
  static const int pids[] = {21, 2, -2, 1, -1, 3, -3, 4, -4, 5, -5};
  fixture *f = *state;
  compare(f, &f->float_probe, f->pdf, "cteq6l1 in a REAL = float program", pids, 11, 303);
}

static void subgrid_copy_on_the_device_equals_host(void **state) {
  static const int pids[] = {0, 2, -1, 5};
  fixture *f = *state;
  compare(f, &f->probe, f->split, "cteq6l1 in six Q subgrids", pids, 4, 202);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cteq6l1_on_the_device_equals_host),
      cmocka_unit_test(subgrid_copy_on_the_device_equals_host),
      cmocka_unit_test(cteq6l1_in_a_float_program_equals_host),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
