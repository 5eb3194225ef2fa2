/* SPDX-License-Identifier: MIT */
/* hg_dynamical_scale (cl/phasespace/scales.h) and hg_passes_mg_cuts (cl/phasespace/mg_cuts.h) on
 * the OpenCL device against the same code compiled as host C, on random t t~ j j-like events. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "phasespace/mg_cuts.h"
#include "phasespace/scales.h"
#include "probe.h"

/* The same double operations; the device's sqrt is correctly rounded (OpenCL requires it for
 * double), only log, atan2 and cosh may differ by a few ulp, and the scales use sqrt alone:
 * 1e-14 covers the sums. A cut decision could flip only for a value within a few ulp of its
 * bound, which random events do not hit. */
#define TOLERANCE 1e-14
#define N_PARTICLES 6
#define N_CHOICES 6

static const char kernel_text[] =
    "#line 1 \"tests/phasespace/scales_and_cuts_device.c: kernel_text\"\n"
    "__kernel void probe_scales_cuts(__global const double *momenta, __global const int *codes,\n"
    "                                __global const double *cuts, __global double *out) {\n"
    "  const size_t e = get_global_id(0);\n"
    "  double p[6][4], mass[6] = {0, 0, 173, 173, 0, 0};\n"
    "  int code[6];\n"
    "  for (int i = 0; i < 6; ++i) {\n"
    "    for (int c = 0; c < 4; ++c) p[i][c] = momenta[(e * 6 + i) * 4 + c];\n"
    "    code[i] = codes[i];\n"
    "  }\n"
    "  const int choices[6] = {0, 1, 2, 3, 4, 10};\n"
    "  for (int k = 0; k < 6; ++k)\n"
    "    out[e * 7 + k] = hg_dynamical_scale(choices[k], HG_MOMENTA(p), mass, 2, 6, 91.188);\n"
    "  out[e * 7 + 6] = hg_passes_mg_cuts(HG_MOMENTA(p), code, 2, 6, cuts);\n"
    "}\n";

typedef struct {
  hegetcl_context *ctx;
  ts_probe probe;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (f == NULL) return -1;
  *state = f;
  f->ctx = ts_context_create();
  if (f->ctx == NULL) return -1;
  if (!ts_has_fp64(f->ctx)) return 0; /* the test skips, saying why */
  const hg_source_part parts[] = {
      {"phasespace/scales.h", NULL}, {"phasespace/mg_cuts.h", NULL}, {NULL, kernel_text}};
  char options[512];
  cl_program program = NULL;
  hegetcl_status status =
      hg_build_options(f->ctx, HEGETCL_PRECISION_DOUBLE, 2, options, sizeof options);
  if (status == HEGETCL_OK) status = hg_program_get(f->ctx, parts, 3, options, &program, NULL);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "building the probe: %s\n", hegetcl_last_error(f->ctx));
    return -1;
  }
  f->probe.ctx = f->ctx;
  f->probe.precision = HEGETCL_PRECISION_DOUBLE;
  f->probe.program = program;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f == NULL) return 0;
  hegetcl_context_destroy(f->ctx);
  free(f);
  return 0;
}

static void device_equals_host(void **state) {
  fixture *f = *state;
  ts_skip_without_fp64(f->ctx, HEGETCL_PRECISION_DOUBLE);
  enum { N = 3000 };
  static double momenta[N * N_PARTICLES * 4], out[N * 7];
  const double mass[N_PARTICLES] = {0, 0, 173, 173, 0, 0};
  uint64_t rng = 29;
  for (int e = 0; e < N; ++e)
    for (int i = 0; i < N_PARTICLES; ++i) {
      double *p = momenta + (e * N_PARTICLES + i) * 4;
      const double pt = i < 2 ? 0 : 200 * ts_uniform(&rng), y = 6 * ts_uniform(&rng) - 3;
      const double phi = 2 * 3.14159265358979 * ts_uniform(&rng),
                   mt = sqrt(pt * pt + mass[i] * mass[i]);
      p[0] = i < 2 ? 500 + 500 * ts_uniform(&rng) : mt * cosh(y);
      p[1] = pt * cos(phi);
      p[2] = pt * sin(phi);
      p[3] = i < 2 ? (i == 0 ? p[0] : -p[0]) : mt * sinh(y);
    }
  const int codes[N_PARTICLES] = {0,
                                  0,
                                  hg_mg_cut_class(6, 173, 4),
                                  hg_mg_cut_class(-6, 173, 4),
                                  hg_mg_cut_class(21, 0, 4),
                                  hg_mg_cut_class(2, 0, 4)};
  double cuts[HG_CUT_COUNT];
  hg_mg_cuts_off(cuts);
  cuts[HG_CUT_PTJ] = 30;
  cuts[HG_CUT_ETAJ] = 2.5;
  cuts[HG_CUT_DRJJ] = 0.4;
  cuts[HG_CUT_IHTMIN] = 120;
  const ts_arg args[] = {ts_reals_in(N * N_PARTICLES * 4, momenta), ts_ints_in(N_PARTICLES, codes),
                         ts_reals_in(HG_CUT_COUNT, cuts), ts_reals_out(N * 7, out)};
  TS_ASSERT_OK(f->ctx, ts_probe_run(&f->probe, "probe_scales_cuts", N, args, 4));
  const int choices[N_CHOICES] = {0, 1, 2, 3, 4, 10};
  int n_pass = 0;
  double worst = 0;
  for (int e = 0; e < N; ++e) {
    const double(*p)[4] = HG_MOMENTA(momenta + e * N_PARTICLES * 4);
    for (int k = 0; k < N_CHOICES; ++k) {
      const double host = hg_dynamical_scale(choices[k], p, mass, 2, N_PARTICLES, 91.188);
      const double r = fabs(out[e * 7 + k] / host - 1);
      if (!(r <= TOLERANCE))
        fail_msg("event %d, choice %d on %s: device %.17g, host %.17g", e, choices[k],
                 ts_device_name(f->ctx), out[e * 7 + k], host);
      if (r > worst) worst = r;
    }
    const int host_pass = hg_passes_mg_cuts(p, codes, 2, N_PARTICLES, cuts);
    if ((int)out[e * 7 + 6] != host_pass)
      fail_msg("event %d: the cuts say %d on %s, %d on the host", e, (int)out[e * 7 + 6],
               ts_device_name(f->ctx), host_pass);
    n_pass += host_pass;
  }
  print_message("# %s: scales within %.2g of the host; %d of %d events pass the cuts on both\n",
                ts_device_name(f->ctx), worst, n_pass, N);
  assert_true(n_pass > N / 20 && n_pass < N - N / 20); /* the cuts decide, both ways */
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(device_equals_host)};
  return cmocka_run_group_tests(tests, setup, teardown);
}
