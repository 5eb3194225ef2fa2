/* SPDX-License-Identifier: MIT */
/* jioxx0's off-shell current contracted with a vector gives iovxxx's vertex, on the device.
 *
 * iovxxx(fi, fo, V) = q^2 (J . V), J = jioxx0(fi, fo), q = p_fi - p_fo its momentum,
 * J . V = J0 V0 - J.V (Minkowski, no conjugation), for random spinors, vectors and chiral
 * couplings.
 *
 * Both functions contract the same fermion bilinear fo-bar gamma^mu (gal[0] P_L + gal[1] P_R) fi,
 * jioxx0 with its index up and divided by the propagator denominator q^2, iovxxx with V_mu: the
 * identity ties jioxx0's components, signs, chiral projections and momentum slots to iovxxx's. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"
#include "test_support.h"

#define N_CASES 2000
#define IN_REALS 40  /* fi, fo, V: 6 complex slots each; gal[0], gal[1] */
#define OUT_REALS 14 /* iovxxx; jioxx0's six slots */

static const char current_kernel[] =
    "#line 1 \"tests/amplitudes/vector_current_contracts_to_vertex.c: current_kernel\"\n"
    "HG_INLINE hg_wave load_wave(__global const REAL *in, size_t at) {\n"
    "  hg_wave w;\n"
    "  for (int s = 0; s < 6; ++s) w.w[s] = hg_cmplx(in[at + 2 * s], in[at + 2 * s + 1]);\n"
    "  return w;\n"
    "}\n"
    "__kernel void probe_current(__global const REAL *restrict in, __global REAL *restrict out) {\n"
    "  const size_t item = get_global_id(0), at = item * 40;\n"
    "  const hg_wave fi = load_wave(in, at), fo = load_wave(in, at + 12);\n"
    "  const hg_wave vc = load_wave(in, at + 24);\n"
    "  hg_coupling gc;\n"
    "  gc.gal[0] = hg_cmplx(in[at + 36], in[at + 37]);\n"
    "  gc.gal[1] = hg_cmplx(in[at + 38], in[at + 39]);\n"
    "  const hg_complex vertex = iovxxx(fi, fo, vc, gc);\n"
    "  const hg_wave current = jioxx0(fi, fo, gc);\n"
    "  out[item * 14] = vertex.re;\n"
    "  out[item * 14 + 1] = vertex.im;\n"
    "  for (int s = 0; s < 6; ++s) {\n"
    "    out[item * 14 + 2 + 2 * s] = current.w[s].re;\n"
    "    out[item * 14 + 3 + 2 * s] = current.w[s].im;\n"
    "  }\n"
    "}\n";

/* double: sums of 16 products of O(1) numbers, rounded in J and again in J . V, 1.4e-15 seen;
 * float: the same at 24 bits, 1.1e-6 seen. Relative to |q^2| sum_mu |J_mu| |V_mu|. */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-13 : 1e-5;
}

static hegetcl_context *ctx;
static ts_probe probes[2];
static hegetcl_status build_status[2];
static char build_message[2][1024];

static int uses_precision(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_FLOAT || ts_has_fp64(ctx);
}

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  if (ctx == NULL) return -1;
  for (int p = 0; p < 2; ++p) {
    if (!uses_precision((hegetcl_precision)p)) continue;
    build_status[p] = ts_probe_build(ctx, TS_PROBE_HELAS_ONLY, (hegetcl_precision)p, 1,
                                     current_kernel, &probes[p]);
    if (build_status[p] != HEGETCL_OK)
      snprintf(build_message[p], sizeof build_message[p], "%s", hegetcl_last_error(ctx));
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx); /* the probes' programs belong to its cache */
  return 0;
}

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in (-1, 1). */
static double symmetric(uint64_t *state) {
  return 2 * (((double)(next_random(state) >> 11) + 0.5) * 0x1p-53) - 1;
}

/* The four-momentum in a wave's slots 5 and 6: (Re w5, Re w6, Im w6, Im w5). */
static void slot_momentum(const double *wave, double p[4]) {
  p[0] = wave[8];
  p[1] = wave[10];
  p[2] = wave[11];
  p[3] = wave[9];
}

/* One case: spinor and vector components with random phases and sizes up to 10 and 1, momenta
 * with components up to 100 GeV (the slots are not tied to the spinors: the identity holds for
 * any), q kept away from the light cone, gal[0] and gal[1] different. Rounded to float for a float
 * program, so host and device read the same numbers. */
static void random_case(uint64_t *random, hegetcl_precision precision, double *in) {
  for (;;) {
    for (int w = 0; w < 3; ++w)
      for (int r = 0; r < 12; ++r)
        in[12 * w + r] = (r < 8 ? (w < 2 ? 10 : 1) : 100) * symmetric(random);
    for (int r = 36; r < 40; ++r) in[r] = 0.3 * symmetric(random);
    double p_in[4], p_out[4], q2 = 0, size = 0;
    slot_momentum(in, p_in);
    slot_momentum(in + 12, p_out);
    for (int c = 0; c < 4; ++c) {
      const double q = p_in[c] - p_out[c];
      q2 += c == 0 ? q * q : -q * q;
      size += q * q;
    }
    if (fabs(q2) > 0.05 * size) break;
  }
  if (precision == HEGETCL_PRECISION_FLOAT)
    for (int r = 0; r < IN_REALS; ++r) in[r] = (float)in[r];
}

static void check(hegetcl_precision precision) {
  if (!uses_precision(precision)) {
    print_message("# SKIP: %s has no cl_khr_fp64, so double precision cannot run\n",
                  ts_device_name(ctx));
    skip();
  }
  if (build_status[precision] != HEGETCL_OK) fail_msg("%s", build_message[precision]);
  static double in[N_CASES * IN_REALS], out[N_CASES * OUT_REALS];
  uint64_t random = 0x10a0000u + (uint64_t)precision;
  for (size_t i = 0; i < N_CASES; ++i) random_case(&random, precision, in + i * IN_REALS);
  const ts_arg args[] = {ts_reals_in(N_CASES * IN_REALS, in),
                         ts_reals_out(N_CASES * OUT_REALS, out)};
  TS_ASSERT_OK(ctx, ts_probe_run(&probes[precision], "probe_current", N_CASES, args, 2));
  const double eps = precision == HEGETCL_PRECISION_DOUBLE ? 0x1p-52 : 0x1p-23;
  double worst = 0, worst_slots = 0;
  for (size_t i = 0; i < N_CASES; ++i) {
    const double *fi = in + i * IN_REALS, *fo = fi + 12, *v = fi + 24, *o = out + i * OUT_REALS;
    /* slots 5 and 6 of the current: those of fi minus those of fo, exactly as HELAS has them */
    for (int r = 8; r < 12; ++r) {
      const double expected = fi[r] - fo[r], got = o[2 + r];
      const double deviation = fabs(got - expected) / (fabs(fi[r]) + fabs(fo[r]));
      if (!(deviation <= 2 * eps))
        fail_msg("case %zu on %s (%s): jioxx0 slot %d %s is %.17g, fi's minus fo's %.17g", i,
                 ts_device_name(ctx), hegetcl_precision_name(precision), r / 2 + 1,
                 r % 2 ? "imaginary" : "real", got, expected);
      worst_slots = fmax(worst_slots, deviation);
    }
    double p_in[4], p_out[4], q2 = 0;
    slot_momentum(fi, p_in);
    slot_momentum(fo, p_out);
    for (int c = 0; c < 4; ++c) {
      const double q = p_in[c] - p_out[c];
      q2 += c == 0 ? q * q : -q * q;
    }
    double complex contraction = 0;
    double size = 0;
    for (int c = 0; c < 4; ++c) {
      const double complex j = o[2 + 2 * c] + I * o[3 + 2 * c];
      const double complex vc = v[2 * c] + I * v[2 * c + 1];
      contraction += (c == 0 ? 1 : -1) * j * vc;
      size += cabs(j) * cabs(vc);
    }
    const double complex closed = q2 * contraction, vertex = o[0] + I * o[1];
    const double deviation = cabs(vertex - closed) / (fabs(q2) * size);
    if (!(deviation <= tolerance(precision)))
      fail_msg("case %zu on %s (%s): iovxxx %.17g%+.17gi, q^2 (jioxx0 . V) %.17g%+.17gi, ratio "
               "%.17g, |difference| / (|q^2| sum |J||V|) %.3g (tolerance %g)",
               i, ts_device_name(ctx), hegetcl_precision_name(precision), creal(vertex),
               cimag(vertex), creal(closed), cimag(closed), cabs(vertex) / cabs(closed), deviation,
               tolerance(precision));
    worst = fmax(worst, deviation);
  }
  print_message("# %s: %d cases, worst |iovxxx - q^2 (J . V)| / (|q^2| sum |J||V|) %.2e, worst "
                "slot deviation %.2e\n",
                hegetcl_precision_name(precision), N_CASES, worst, worst_slots);
}

static void the_current_contracted_with_a_vector_gives_the_vertex_double(void **state) {
  (void)state;
  check(HEGETCL_PRECISION_DOUBLE);
}

static void the_current_contracted_with_a_vector_gives_the_vertex_float(void **state) {
  (void)state;
  check(HEGETCL_PRECISION_FLOAT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_current_contracted_with_a_vector_gives_the_vertex_double),
      cmocka_unit_test(the_current_contracted_with_a_vector_gives_the_vertex_float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
