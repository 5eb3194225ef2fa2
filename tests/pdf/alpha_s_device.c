/* SPDX-License-Identifier: MIT */
/* hg_alpha_s (cl/pdf/alpha_s.h) on the OpenCL device against the same code compiled as host C:
 * CTEQ6L1's grid, MadGraph's one-loop running and the analytic formula, in double and float
 * programs (alpha_s is computed in double in both, as the PDFs are). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "pdf/alpha_s.h"
#include "pdf_test_support.h"
#include "probe.h"

/* The same double operations in the same order; the device's log and pow may differ from glibc's
 * by a few ulp (OpenCL allows 3 for log, 16 for pow). An ulp of log Q^2 (~ 2e-16 x 18) moves the
 * cubic's t by 4e-15 / 0.3 and alpha_s by that times its relative slope (< 0.1): 1e-14; the power
 * below the grid and the one-loop denominators likewise. */
#define TOLERANCE 1e-13

static const char kernel_text[] =
    "#line 1 \"tests/pdf/alpha_s_device.c: kernel_text\"\n"
    "__kernel void probe_alpha_s(__global const double *table, __global const double *q2,\n"
    "                            __global double *value) {\n"
    "  const size_t i = get_global_id(0);\n"
    "  value[i] = hg_alpha_s(table, q2[i]);\n"
    "}\n";

typedef struct {
  hegetcl_context *ctx;
  ts_probe probe[2]; /* REAL = double, REAL = float */
  char info_path[2048], temp[1024];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (f == NULL) return -1;
  *state = f;
  f->ctx = ts_context_create();
  char sets[1024];
  if (f->ctx == NULL || !pt_pdfsets_dir(sets, sizeof sets) ||
      !pt_make_temp_dir(f->temp, sizeof f->temp))
    return -1;
  snprintf(f->info_path, sizeof f->info_path, "%s/cteq6l1/cteq6l1.info", sets);
  if (!ts_has_fp64(f->ctx)) return 0; /* the tests skip, saying why */
  const hg_source_part parts[] = {{"pdf/alpha_s.h", NULL}, {NULL, kernel_text}};
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
    f->probe[p].ctx = f->ctx;
    f->probe[p].precision = HEGETCL_PRECISION_DOUBLE; /* the buffers are double either way */
    f->probe[p].program = program;
  }
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f == NULL) return 0;
  if (f->temp[0] != '\0') pt_remove_tree(f->temp);
  hegetcl_context_destroy(f->ctx);
  free(f);
  return 0;
}

/* Q from 0.5 GeV (below every grid) to 3e4 GeV (above), log-uniform, plus each mode's edges. */
static void compare(fixture *f, int mode, const char *path, const char *label) {
  ts_skip_without_fp64(f->ctx, HEGETCL_PRECISION_DOUBLE);
  double *table = NULL;
  size_t size = 0;
  char error[1024];
  if (hg_alpha_s_table(mode, path, 0.130, 91.188, 1, &table, &size, error, sizeof error) != 0)
    fail_msg("%s", error);
  enum { N = 2000 };
  double q2[N], device[N];
  uint64_t rng = 17;
  for (int i = 0; i < N; ++i) {
    const double q = exp(log(0.5) + (log(3e4) - log(0.5)) * ts_uniform(&rng));
    q2[i] = q * q;
  }
  const double edges[] = {1.3, 1.42, 4.5, 4.7, 91.188, 1e4};
  for (int k = 0; k < 6; ++k) q2[k] = edges[k] * edges[k];
  for (int p = 0; p < 2; ++p) {
    const ts_arg args[] = {ts_reals_in(size, table), ts_reals_in(N, q2), ts_reals_out(N, device)};
    TS_ASSERT_OK(f->ctx, ts_probe_run(&f->probe[p], "probe_alpha_s", N, args, 3));
    double worst = 0;
    for (int i = 0; i < N; ++i) {
      const double host = hg_alpha_s(table, q2[i]);
      const double r = fabs(device[i] / host - 1);
      if (!(r <= TOLERANCE))
        fail_msg("%s on %s (REAL = %s): Q = %.17g GeV: device %.17g, host %.17g", label,
                 ts_device_name(f->ctx), p ? "float" : "double", sqrt(q2[i]), device[i], host);
      if (r > worst) worst = r;
    }
    print_message("# %s on %s, REAL = %s: largest relative difference %.2g\n", label,
                  ts_device_name(f->ctx), p ? "float" : "double", worst);
  }
  free(table);
}

static void set_grid_on_the_device_equals_host(void **state) {
  fixture *f = *state;
  compare(f, HG_ALPHA_S_INTERPOLATED, f->info_path, "cteq6l1's alpha_s grid");
}

static void madgraph_one_loop_on_the_device_equals_host(void **state) {
  fixture *f = *state;
  compare(f, HG_ALPHA_S_ONE_LOOP, NULL, "MadGraph's one-loop running");
}

static void analytic_on_the_device_equals_host(void **state) {
  fixture *f = *state;
  char path[2048];
  snprintf(path, sizeof path, "%s/analytic.info", f->temp);
  assert_true(pt_write_text(path, "AlphaS_OrderQCD: 2\nAlphaS_MZ: 0.118\nAlphaS_Lambda3: 0.3\n"
                                  "AlphaS_Lambda4: 0.25\nAlphaS_Lambda5: 0.18\nMCharm: 1.4\n"
                                  "MBottom: 4.75\nMTop: 172.5\n"));
  compare(f, HG_ALPHA_S_INTERPOLATED, path, "the three-loop analytic formula");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(set_grid_on_the_device_equals_host),
      cmocka_unit_test(madgraph_one_loop_on_the_device_equals_host),
      cmocka_unit_test(analytic_on_the_device_equals_host),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
