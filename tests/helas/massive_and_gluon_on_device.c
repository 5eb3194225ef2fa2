/* SPDX-License-Identifier: MIT */
/* The massive and gluon HELAS functions (helas/qcd.cl) built as OpenCL C in float and double and
 * run on the device agree with the same source compiled as host C in double.
 *
 * Each work-item evaluates ixxxxx, oxxxxx, vxxxxx, fvixxx, fvoxxx, jioxxx, vvvxxx, jvvxxx,
 * ggggxx and jgggxx on one random case (masses 4.7, 173 and 0; widths; every helicity), inputs
 * rounded to float for the float program so host and device read the same numbers. */
#include "helas_test_support.h"

#include <stdio.h>
#include <stdlib.h>

#include "probe.h"
#include "test_support.h"

#define N_CASES 600
#define IN_REALS 64
#define OUT_REALS 110 /* 8 waves of 12 reals, 2 amplitudes of 2 ... in the kernel's order */

static const char qcd_kernel[] =
    "#line 1 \"tests/helas/massive_and_gluon_on_device.c: qcd_kernel\"\n"
    "HG_INLINE hg_wave load_wave(__global const REAL *in, size_t at) {\n"
    "  hg_wave w;\n"
    "  for (int s = 0; s < 6; ++s) w.w[s] = hg_cmplx(in[at + 2 * s], in[at + 2 * s + 1]);\n"
    "  return w;\n"
    "}\n"
    "HG_INLINE void store_wave(__global REAL *out, size_t at, hg_wave w) {\n"
    "  for (int s = 0; s < 6; ++s) {\n"
    "    out[at + 2 * s] = w.w[s].re;\n"
    "    out[at + 2 * s + 1] = w.w[s].im;\n"
    "  }\n"
    "}\n"
    "__kernel void probe_qcd(__global const REAL *restrict in, __global REAL *restrict out) {\n"
    "  const size_t item = get_global_id(0), at = item * 64, o = item * 110;\n"
    "  const hg_fourvec p = hg_fourvec_make(in[at], in[at + 1], in[at + 2], in[at + 3]);\n"
    "  const REAL mass = in[at + 4], width = in[at + 5], vmass = in[at + 9];\n"
    "  const int nhel = (int)in[at + 6], nsf = (int)in[at + 7], nhv = (int)in[at + 8];\n"
    "  const hg_wave w0 = load_wave(in, at + 12), w1 = load_wave(in, at + 24);\n"
    "  const hg_wave w2 = load_wave(in, at + 36), w3 = load_wave(in, at + 48);\n"
    "  hg_coupling gc;\n"
    "  gc.gal[0] = hg_cmplx(in[at + 60], in[at + 61]);\n"
    "  gc.gal[1] = hg_cmplx(in[at + 62], in[at + 63]);\n"
    "  const REAL g = (REAL)1.2;\n"
    "  store_wave(out, o, ixxxxx(p, mass, nhel, nsf));\n"
    "  store_wave(out, o + 12, oxxxxx(p, mass, nhel, nsf));\n"
    "  store_wave(out, o + 24, vxxxxx(p, vmass, nhv, nsf));\n"
    "  store_wave(out, o + 36, fvixxx(w0, w2, gc, mass, width));\n"
    "  store_wave(out, o + 48, fvoxxx(w1, w2, gc, mass, width));\n"
    "  store_wave(out, o + 60, jioxxx(w0, w1, gc, vmass, width));\n"
    "  store_wave(out, o + 72, jvvxxx(w2, w3, g, vmass, width));\n"
    "  store_wave(out, o + 84, jgggxx(w0, w2, w3, g));\n"
    "  const hg_complex v3 = vvvxxx(w1, w2, w3, g), v4 = ggggxx(w0, w1, w2, w3, g);\n"
    "  out[o + 96] = v3.re;\n"
    "  out[o + 97] = v3.im;\n"
    "  out[o + 98] = v4.re;\n"
    "  out[o + 99] = v4.im;\n"
    "  for (int r = 100; r < 110; ++r) out[o + r] = (REAL)0;\n"
    "}\n";

/* The same evaluation on the host, in double. */
static void host_case(const double *in, double *out) {
  const hg_fourvec p = hg_fourvec_make(in[0], in[1], in[2], in[3]);
  hg_wave w[4];
  for (int k = 0; k < 4; ++k)
    for (int s = 0; s < 6; ++s)
      w[k].w[s] = hg_cmplx(in[12 + 12 * k + 2 * s], in[13 + 12 * k + 2 * s]);
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(in[60], in[61]);
  gc.gal[1] = hg_cmplx(in[62], in[63]);
  const double mass = in[4], width = in[5], vmass = in[9], g = 1.2;
  const int nhel = (int)in[6], nsf = (int)in[7], nhv = (int)in[8];
  const hg_wave waves[8] = {
      ixxxxx(p, mass, nhel, nsf),          oxxxxx(p, mass, nhel, nsf),
      vxxxxx(p, vmass, nhv, nsf),          fvixxx(w[0], w[2], gc, mass, width),
      fvoxxx(w[1], w[2], gc, mass, width), jioxxx(w[0], w[1], gc, vmass, width),
      jvvxxx(w[2], w[3], g, vmass, width), jgggxx(w[0], w[2], w[3], g)};
  for (int k = 0; k < 8; ++k)
    for (int s = 0; s < 6; ++s) {
      out[12 * k + 2 * s] = waves[k].w[s].re;
      out[12 * k + 2 * s + 1] = waves[k].w[s].im;
    }
  const hg_complex v3 = vvvxxx(w[1], w[2], w[3], g), v4 = ggggxx(w[0], w[1], w[2], w[3], g);
  out[96] = v3.re;
  out[97] = v3.im;
  out[98] = v4.re;
  out[99] = v4.im;
  for (int r = 100; r < 110; ++r) out[r] = 0;
}

static hegetcl_context *ctx;
static ts_probe probes[2];
static hegetcl_status build_status[2];
static char build_message[2][4096];

static int uses_precision(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_FLOAT || ts_has_fp64(ctx);
}

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  if (ctx == NULL) return -1;
  for (int p = 0; p < 2; ++p) {
    if (!uses_precision((hegetcl_precision)p)) continue;
    build_status[p] =
        ts_probe_build(ctx, TS_PROBE_HELAS_QCD, (hegetcl_precision)p, 1, qcd_kernel, &probes[p]);
    if (build_status[p] != HEGETCL_OK)
      snprintf(build_message[p], sizeof build_message[p], "%s", hegetcl_last_error(ctx));
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

/* One case: an on-shell momentum (|p| up to 300 GeV, every 7th along -z, every 11th at rest),
 * fermion mass 4.7, 173 or 0, vector mass 80.4 or 0, width 1.5 or 0, random helicities (vector
 * helicity 0 only with mass), waves with components up to 10 (spinors) and 1 (vectors) and slots
 * up to 100, every propagator denominator kept at least 5% of its momentum's size squared. */
static void random_case(uint64_t *random, int n, hegetcl_precision precision, double *in) {
  static const double fmasses[3] = {4.7, 173.0, 0.0};
  for (;;) {
    const double m = fmasses[n % 3], vm = n % 4 == 3 ? 0.0 : 80.4;
    const double size = n % 11 == 0 && m > 0 ? 0 : 300 * ht_uniform(random) + 1;
    const double ct = n % 7 == 0 ? -1 : 2 * ht_uniform(random) - 1;
    const double phi = 6.283185307179586 * ht_uniform(random), st = sqrt(fmax(0, 1 - ct * ct));
    in[1] = size * st * cos(phi);
    in[2] = size * st * sin(phi);
    in[3] = size * ct;
    in[4] = m;
    in[5] = n % 2 ? 1.5 : 0.0;
    in[6] = ht_uniform(random) < 0.5 ? 1 : -1;
    in[7] = ht_uniform(random) < 0.5 ? 1 : -1;
    in[8] = vm > 0 ? (double)(int)(3 * ht_uniform(random)) - 1 : in[6];
    in[9] = vm;
    in[10] = in[11] = 0;
    for (int k = 0; k < 4; ++k)
      for (int r = 0; r < 12; ++r)
        in[12 + 12 * k + r] = (r < 8 ? (k < 2 ? 10 : 1) : 100) * (2 * ht_uniform(random) - 1);
    for (int r = 60; r < 64; ++r) in[r] = 0.5 * (2 * ht_uniform(random) - 1);
    if (precision == HEGETCL_PRECISION_FLOAT)
      for (int r = 0; r < IN_REALS; ++r) in[r] = (float)in[r];
    /* the energy from the (rounded) three-momentum and mass, in double, then rounded again */
    in[0] = sqrt(in[1] * in[1] + in[2] * in[2] + in[3] * in[3] + in[4] * in[4]);
    if (precision == HEGETCL_PRECISION_FLOAT) in[0] = (float)in[0];
    /* the propagators: fvi (w0 - w2), fvo (w1 + w2), jio (w1 - w0), jvv (w2 + w3), jggg */
    const double *a = in + 12, *b = in + 24, *c = in + 36, *d = in + 48;
    double q[5][4];
    const int comp[4] = {8, 10, 11, 9};
    for (int mu = 0; mu < 4; ++mu) {
      q[0][mu] = a[comp[mu]] - c[comp[mu]];
      q[1][mu] = b[comp[mu]] + c[comp[mu]];
      q[2][mu] = b[comp[mu]] - a[comp[mu]];
      q[3][mu] = c[comp[mu]] + d[comp[mu]];
      q[4][mu] = a[comp[mu]] + c[comp[mu]] + d[comp[mu]];
    }
    const double m2[5] = {m * m, m * m, vm * vm, vm * vm, 0};
    int ok = 1;
    for (int k = 0; k < 5; ++k) {
      const double s2 =
          q[k][0] * q[k][0] - q[k][1] * q[k][1] - q[k][2] * q[k][2] - q[k][3] * q[k][3];
      const double size2 =
          q[k][0] * q[k][0] + q[k][1] * q[k][1] + q[k][2] * q[k][2] + q[k][3] * q[k][3];
      if (fabs(s2 - m2[k]) < 0.05 * (size2 + m2[k])) ok = 0;
    }
    if (ok) return;
  }
}

/* double: the device's own rounding (FMA contraction, its sqrt) against the host's, through at
 * most a propagator kept 5% off its pole: 1e-12 of each output's largest component, 1e-15 seen.
 * float: the same at 24 bits, 1e-4 (4.5e-6 seen, in ixxxxx). */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
}

static void check(hegetcl_precision precision) {
  if (!uses_precision(precision)) {
    print_message("# SKIP: %s has no cl_khr_fp64, so double precision cannot run\n",
                  ts_device_name(ctx));
    skip();
  }
  if (build_status[precision] != HEGETCL_OK) fail_msg("%s", build_message[precision]);
  static double in[N_CASES * IN_REALS], out[N_CASES * OUT_REALS], expected[OUT_REALS];
  uint64_t random = 0x16100u + (uint64_t)precision;
  for (int i = 0; i < N_CASES; ++i) random_case(&random, i, precision, in + i * IN_REALS);
  const ts_arg args[] = {ts_reals_in(N_CASES * IN_REALS, in),
                         ts_reals_out(N_CASES * OUT_REALS, out)};
  TS_ASSERT_OK(ctx, ts_probe_run(&probes[precision], "probe_qcd", N_CASES, args, 2));
  static const char *const names[10] = {"ixxxxx", "oxxxxx", "vxxxxx", "fvixxx", "fvoxxx",
                                        "jioxxx", "jvvxxx", "jgggxx", "vvvxxx", "ggggxx"};
  double worst[10] = {0};
  for (int i = 0; i < N_CASES; ++i) {
    host_case(in + i * IN_REALS, expected);
    const double *got = out + i * OUT_REALS;
    for (int f = 0; f < 10; ++f) {
      const int from = f < 8 ? 12 * f : 96 + 2 * (f - 8), count = f < 8 ? 8 : 2;
      double size = 0, deviation = 0;
      for (int r = from; r < from + count; ++r) size = fmax(size, fabs(expected[r]));
      for (int r = from; r < from + count; ++r)
        deviation = fmax(deviation, fabs(got[r] - expected[r]));
      /* slots (the last 4 reals of a wave) relative to their own size */
      double slot_size = 0, slot_deviation = 0;
      if (f < 8)
        for (int r = from + 8; r < from + 12; ++r) {
          slot_size = fmax(slot_size, fabs(expected[r]));
          slot_deviation = fmax(slot_deviation, fabs(got[r] - expected[r]));
        }
      const double rel = size > 0 ? deviation / size : deviation;
      const double rel_slots = slot_size > 0 ? slot_deviation / slot_size : slot_deviation;
      if (!(rel <= tolerance(precision)) || !(rel_slots <= tolerance(precision)))
        fail_msg("case %d on %s (%s): %s deviates from the host by %.3g (slots %.3g), tolerance %g",
                 i, ts_device_name(ctx), hegetcl_precision_name(precision), names[f], rel,
                 rel_slots, tolerance(precision));
      worst[f] = fmax(worst[f], fmax(rel, rel_slots));
    }
  }
  print_message("# %s: worst deviation from host double: ixxxxx %.1e oxxxxx %.1e vxxxxx %.1e "
                "fvixxx %.1e fvoxxx %.1e jioxxx %.1e jvvxxx %.1e jgggxx %.1e vvvxxx %.1e ggggxx "
                "%.1e\n",
                hegetcl_precision_name(precision), worst[0], worst[1], worst[2], worst[3], worst[4],
                worst[5], worst[6], worst[7], worst[8], worst[9]);
}

static void device_double_agrees_with_the_host_functions(void **state) {
  (void)state;
  check(HEGETCL_PRECISION_DOUBLE);
}

static void device_float_agrees_with_the_host_functions(void **state) {
  (void)state;
  check(HEGETCL_PRECISION_FLOAT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_double_agrees_with_the_host_functions),
      cmocka_unit_test(device_float_agrees_with_the_host_functions),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
