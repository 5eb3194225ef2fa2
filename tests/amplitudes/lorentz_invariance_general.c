/* SPDX-License-Identifier: MIT */
/* General Lorentz transformations leave every engine's helicity-summed |M|^2 unchanged.
 *
 * Random rotations followed by boosts in random directions move the quarks off the z axis, where
 * the kernels' ixxxx1/oxxxx2 do not apply, so a probe kernel (tests/support/probe.c) builds them
 * with the generic ixxxx0/oxxxx0 and the test sums |A_h|^2 over all 2^(n+2) helicity
 * configurations itself. Each helicity amplitude of massless particles only changes by a phase,
 * so every |A_h|^2 is compared too. The frame the points come from is evaluated with the axis
 * variants, as the kernels do, and for the recursive engine also through
 * hegetcl_amplitude_evaluate. A second probe checks on the device that the generic variants equal
 * the axis ones component by component where both apply. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "probe.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 7
#define N_DIAGRAMS_MAX 6 /* n = 7: 84 kernels, a minute per precision on PoCL; see check_all() */
#define N_POINTS 2
#define N_TRANSFORMS 2 /* per point */
#define N_EVENTS (N_POINTS * (1 + N_TRANSFORMS))
#define PT_MIN_FRAC 0.05
#define PI 3.14159265358979323846

/* double at 500 GeV; float at 10 GeV, where the amplitudes stay far from float's underflow. */
static double sqrt_s_gev(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 500.0 : 10.0;
}

/* The largest boost rapidity. A boost leaves the invariants p_i.p_j as they are but makes the
 * components up to e^rapidity larger, so the invariants the engines form from rounded components
 * lose up to e^(2 rapidity) in relative precision: in float, rotations alone agree to 1e-6,
 * rapidity 1.5 to 5e-5, too close to the tolerance; double has digits to spare. */
static double max_rapidity(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 2.0 : 1.0;
}

/* double: rounding of the boosted components, the generic spinors' square roots and divisions
 * and the n! diagram sums, seen up to 2e-13; float: the same at 24 bits (see max_rapidity).
 * Per configuration relative to the helicity sum, for the sum relative to itself. */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-10 : 1e-4;
}

static hegetcl_context *ctx;
static ts_probe probes[HEGETCL_ENGINE_COUNT][N_MAX + 1][2];
static hegetcl_status build_status[HEGETCL_ENGINE_COUNT][N_MAX + 1][2];
static char build_message[HEGETCL_ENGINE_COUNT][N_MAX + 1][2][1024];
static hegetcl_amplitude *recursive[N_MAX + 1][2];
static hegetcl_status create_status[N_MAX + 1][2];
static char create_message[N_MAX + 1][2][1024];
static ts_probe variants[2];
static hegetcl_status variants_status[2];
static char variants_message[2][1024];

/* The variants probe: for each work-item's energy E, p+ = (E, 0, 0, E), p- = (E, 0, 0, -E), and
 * for nhel, nsf = -1, +1 the pairs (generic, axis) ixxxx0/ixxxx1 at p+, ixxxx0/ixxxx2 at p-,
 * oxxxx0/oxxxx1 at p+, oxxxx0/oxxxx2 at p-, vxxxx0/vxxxx1 at p+, vxxxx0/vxxxx2 at p-, each wave's
 * six complex slots written as 12 reals, generic first. */
#define N_PAIRS 6
#define N_SIGNS 4
#define REALS_PER_ITEM (N_PAIRS * N_SIGNS * 2 * 12)
static const char variants_kernel[] =
    "#line 1 \"tests/amplitudes/lorentz_invariance_general.c: variants_kernel\"\n"
    "HG_INLINE void store_wave(__global REAL *out, size_t at, hg_wave w) {\n"
    "  for (int s = 0; s < 6; ++s) {\n"
    "    out[at + 2 * s] = w.w[s].re;\n"
    "    out[at + 2 * s + 1] = w.w[s].im;\n"
    "  }\n"
    "}\n"
    "__kernel void probe_variants(__global const REAL *restrict energies,\n"
    "                             __global REAL *restrict out) {\n"
    "  const size_t item = get_global_id(0);\n"
    "  const REAL e = energies[item];\n"
    "  const hg_fourvec plus = hg_fourvec_make(e, (REAL)0, (REAL)0, e);\n"
    "  const hg_fourvec minus = hg_fourvec_make(e, (REAL)0, (REAL)0, -e);\n"
    "  size_t at = item * 576;\n"
    "  for (int sign = 0; sign < 4; ++sign) {\n"
    "    const int nhel = (sign & 1) ? 1 : -1, ns = (sign & 2) ? 1 : -1;\n"
    "    store_wave(out, at, ixxxx0(plus, nhel, ns));\n"
    "    store_wave(out, at + 12, ixxxx1(plus, nhel, ns));\n"
    "    store_wave(out, at + 24, ixxxx0(minus, nhel, ns));\n"
    "    store_wave(out, at + 36, ixxxx2(minus, nhel, ns));\n"
    "    store_wave(out, at + 48, oxxxx0(plus, nhel, ns));\n"
    "    store_wave(out, at + 60, oxxxx1(plus, nhel, ns));\n"
    "    store_wave(out, at + 72, oxxxx0(minus, nhel, ns));\n"
    "    store_wave(out, at + 84, oxxxx2(minus, nhel, ns));\n"
    "    store_wave(out, at + 96, vxxxx0(plus, nhel, ns));\n"
    "    store_wave(out, at + 108, vxxxx1(plus, nhel, ns));\n"
    "    store_wave(out, at + 120, vxxxx0(minus, nhel, ns));\n"
    "    store_wave(out, at + 132, vxxxx2(minus, nhel, ns));\n"
    "    at += 144;\n"
    "  }\n"
    "}\n";

static int uses_precision(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_FLOAT || ts_has_fp64(ctx);
}

static int wanted(unsigned engine, unsigned n) {
  return engine != HEGETCL_ENGINE_DIAGRAMS || n <= N_DIAGRAMS_MAX || getenv("HEGETCL_TEST_SLOW");
}

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  if (ctx == NULL) return -1;
  for (int p = 0; p < 2; ++p) {
    if (!uses_precision((hegetcl_precision)p)) continue;
    variants_status[p] = ts_probe_build(ctx, TS_PROBE_HELAS_ONLY, (hegetcl_precision)p, 1,
                                        variants_kernel, &variants[p]);
    if (variants_status[p] != HEGETCL_OK)
      snprintf(variants_message[p], sizeof variants_message[p], "%s", hegetcl_last_error(ctx));
    for (unsigned n = N_MIN; n <= N_MAX; ++n) {
      for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
        if (!wanted(engine, n)) continue;
        build_status[engine][n][p] =
            ts_probe_build(ctx, (int)engine, (hegetcl_precision)p, n, ts_probe_amplitude_kernel,
                           &probes[engine][n][p]);
        if (build_status[engine][n][p] != HEGETCL_OK)
          snprintf(build_message[engine][n][p], sizeof build_message[engine][n][p], "%s",
                   hegetcl_last_error(ctx));
      }
      hegetcl_process process;
      hegetcl_process_defaults(&process, n);
      process.precision = (hegetcl_precision)p;
      create_status[n][p] = hegetcl_amplitude_create(ctx, &process, &recursive[n][p]);
      if (create_status[n][p] != HEGETCL_OK)
        snprintf(create_message[n][p], sizeof create_message[n][p], "%s", hegetcl_last_error(ctx));
    }
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (unsigned n = N_MIN; n <= N_MAX; ++n)
    for (int p = 0; p < 2; ++p) hegetcl_amplitude_destroy(recursive[n][p]);
  hegetcl_context_destroy(ctx); /* the probes' programs belong to its cache */
  return 0;
}

/* A Lorentz transformation as a 4x4 matrix acting on (E, px, py, pz). */
typedef struct {
  double m[4][4];
} lorentz;

/* A uniformly random rotation (a random unit quaternion, K. Shoemake, Graphics Gems III 1992)
 * followed by a boost of rapidity up to rapidity_max in a uniformly random direction. */
static lorentz random_transformation(uint64_t *random, double rapidity_max) {
  const double u1 = ts_uniform(random), u2 = 2 * PI * ts_uniform(random),
               u3 = 2 * PI * ts_uniform(random);
  const double a = sqrt(1 - u1) * sin(u2), b = sqrt(1 - u1) * cos(u2), c = sqrt(u1) * sin(u3),
               d = sqrt(u1) * cos(u3);
  const double r[3][3] = {
      {1 - 2 * (c * c + d * d), 2 * (b * c - a * d), 2 * (b * d + a * c)},
      {2 * (b * c + a * d), 1 - 2 * (b * b + d * d), 2 * (c * d - a * b)},
      {2 * (b * d - a * c), 2 * (c * d + a * b), 1 - 2 * (b * b + c * c)},
  };
  const double cos_theta = 2 * ts_uniform(random) - 1, phi = 2 * PI * ts_uniform(random);
  const double sin_theta = sqrt(1 - cos_theta * cos_theta);
  const double axis[3] = {sin_theta * cos(phi), sin_theta * sin(phi), cos_theta};
  const double rapidity = rapidity_max * ts_uniform(random);
  const double gamma = cosh(rapidity), gamma_beta = sinh(rapidity);
  double boost[4][4];
  boost[0][0] = gamma;
  for (int i = 0; i < 3; ++i) {
    boost[0][i + 1] = boost[i + 1][0] = gamma_beta * axis[i];
    for (int j = 0; j < 3; ++j)
      boost[i + 1][j + 1] = (i == j ? 1 : 0) + (gamma - 1) * axis[i] * axis[j];
  }
  double rotation[4][4] = {{1, 0, 0, 0}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) rotation[i + 1][j + 1] = r[i][j];
  lorentz t;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      t.m[i][j] = 0;
      for (int k = 0; k < 4; ++k) t.m[i][j] += boost[i][k] * rotation[k][j];
    }
  return t;
}

static void check(unsigned engine, unsigned n, hegetcl_precision precision, double *worst_sum,
                  double *worst_config) {
  if (build_status[engine][n][precision] != HEGETCL_OK)
    fail_msg("%s", build_message[engine][n][precision]);
  const ts_probe *probe = &probes[engine][n][precision];
  const unsigned np = n + 2;
  const uint32_t n_configs = 1u << np;
  double points[4 * (N_MAX + 2) * N_POINTS], momenta[4 * (N_MAX + 2) * N_EVENTS];
  ts_random_points(n, sqrt_s_gev(precision), N_POINTS, 0x70000u + n, PT_MIN_FRAC, points);
  uint64_t random = 0x71000u + n;
  /* events 0..N_POINTS-1: the points; then N_TRANSFORMS transformations of each */
  for (size_t e = 0; e < N_EVENTS; ++e) {
    const size_t point = e < N_POINTS ? e : (e - N_POINTS) / N_TRANSFORMS;
    const lorentz t = random_transformation(&random, max_rapidity(precision));
    for (unsigned i = 0; i < np; ++i)
      for (int c = 0; c < 4; ++c) {
        double value = 0;
        for (int k = 0; k < 4; ++k)
          value += (e < N_POINTS ? (c == k ? 1 : 0) : t.m[c][k]) *
                   points[HG_SOA_INDEX(k, i, np, N_POINTS, point)];
        momenta[HG_SOA_INDEX(c, i, np, N_EVENTS, e)] = value;
      }
  }
  const size_t n_items = N_EVENTS * (size_t)n_configs;
  uint32_t *events = malloc(n_items * sizeof *events);
  uint32_t *configs = malloc(n_items * sizeof *configs);
  int32_t *replace = malloc(n_items * sizeof *replace);
  double *axis = malloc(2 * n_items * sizeof *axis);
  double *generic = malloc(2 * n_items * sizeof *generic);
  assert_true(events != NULL && configs != NULL && replace != NULL && axis != NULL &&
              generic != NULL);
  for (size_t item = 0; item < n_items; ++item) {
    events[item] = (uint32_t)(item / n_configs);
    configs[item] = (uint32_t)(item % n_configs);
    replace[item] = -1;
  }
  /* the untransformed points with the kernels' axis variants, every event with the generic ones */
  TS_ASSERT_OK(ctx, ts_probe_amplitudes(probe, N_EVENTS, momenta, 0, N_POINTS * n_configs, events,
                                        configs, replace, axis));
  TS_ASSERT_OK(ctx, ts_probe_amplitudes(probe, N_EVENTS, momenta, 1, n_items, events, configs,
                                        replace, generic));
  char label[128];
  ts_probe_label(probe, label, sizeof label);
  double me[N_POINTS] = {0};
  for (size_t item = 0; item < N_POINTS * n_configs; ++item)
    me[item / n_configs] +=
        (axis[2 * item] * axis[2 * item] + axis[2 * item + 1] * axis[2 * item + 1]) *
        hegetcl_me_factor(n);
  for (size_t e = 0; e < N_EVENTS; ++e) {
    const size_t point = e < N_POINTS ? e : (e - N_POINTS) / N_TRANSFORMS;
    double sum = 0;
    for (uint32_t c = 0; c < n_configs; ++c) {
      const size_t item = e * n_configs + c, reference = point * n_configs + c;
      const double a2 =
          generic[2 * item] * generic[2 * item] + generic[2 * item + 1] * generic[2 * item + 1];
      const double r2 = axis[2 * reference] * axis[2 * reference] +
                        axis[2 * reference + 1] * axis[2 * reference + 1];
      const double scale = me[point] / hegetcl_me_factor(n);
      const double deviation = fabs(a2 - r2) / scale;
      if (!(deviation <= tolerance(precision)))
        fail_msg("%s on %s, event %zu (point %zu %s), configuration 0x%x: |A_h|^2 %.17g, in the "
                 "points' frame %.17g, ratio %.17g, difference / sum_h |A_h|^2 %.3g (tolerance "
                 "%g)",
                 label, ts_device_name(ctx), e, point, e < N_POINTS ? "itself" : "transformed", c,
                 a2, r2, a2 / r2, deviation, tolerance(precision));
      *worst_config = fmax(*worst_config, deviation);
      sum += a2 * hegetcl_me_factor(n);
    }
    const double rel = ts_rel_diff(sum, me[point]);
    if (!(rel <= tolerance(precision)))
      fail_msg("%s on %s, event %zu (point %zu %s): helicity-summed |M|^2 %.17g, in the points' "
               "frame with the axis variants %.17g, ratio %.17g (tolerance %g)",
               label, ts_device_name(ctx), e, point, e < N_POINTS ? "itself" : "transformed", sum,
               me[point], sum / me[point], tolerance(precision));
    *worst_sum = fmax(*worst_sum, rel);
  }
  if (engine == HEGETCL_ENGINE_RECURSIVE) {
    if (create_status[n][precision] != HEGETCL_OK) fail_msg("%s", create_message[n][precision]);
    double kernel_me[N_POINTS];
    for (size_t e = 0; e < N_POINTS; ++e) kernel_me[e] = -1; /* poison */
    TS_ASSERT_OK(ctx,
                 hegetcl_amplitude_evaluate(recursive[n][precision], N_POINTS, points, kernel_me));
    for (size_t e = 0; e < N_POINTS; ++e)
      if (!(ts_rel_diff(me[e], kernel_me[e]) <= tolerance(precision)))
        fail_msg("%s on %s, point %zu: the probe's helicity sum %.17g, "
                 "hegetcl_amplitude_evaluate %.17g, ratio %.17g (tolerance %g)",
                 label, ts_device_name(ctx), e, me[e], kernel_me[e], me[e] / kernel_me[e],
                 tolerance(precision));
  }
  free(generic);
  free(axis);
  free(replace);
  free(configs);
  free(events);
}

static void check_all(hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  for (unsigned n = N_MIN; n <= N_MAX; ++n)
    for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
      if (!wanted(engine, n)) continue;
      double worst_sum = 0, worst_config = 0;
      check(engine, n, precision, &worst_sum, &worst_config);
      char label[128];
      print_message("# %s: %d events, worst |ratio - 1| of the sum %.2e, worst ||A_h|^2 "
                    "difference| / sum %.2e\n",
                    ts_probe_label(&probes[engine][n][precision], label, sizeof label), N_EVENTS,
                    worst_sum, worst_config);
    }
  if (!wanted(HEGETCL_ENGINE_DIAGRAMS, N_MAX))
    print_message("# the diagram engine stops at n = %d here: at n = 7 its 84 kernels take PoCL "
                  "about a minute per precision to compile on 2 cores; HEGETCL_TEST_SLOW=1 adds "
                  "it\n",
                  N_DIAGRAMS_MAX);
}

static void random_rotations_and_boosts_leave_the_helicity_sum_unchanged_double(void **state) {
  (void)state;
  check_all(HEGETCL_PRECISION_DOUBLE);
}

static void random_rotations_and_boosts_leave_the_helicity_sum_unchanged_float(void **state) {
  (void)state;
  check_all(HEGETCL_PRECISION_FLOAT);
}

static void check_variants(hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  if (variants_status[precision] != HEGETCL_OK) fail_msg("%s", variants_message[precision]);
  enum { N_ENERGIES = 16 };
  double energies[N_ENERGIES];
  uint64_t random = 0x72000u;
  for (int i = 0; i < N_ENERGIES; ++i) energies[i] = pow(10.0, 4 * ts_uniform(&random) - 1);
  /* the float probe sees the energies rounded to float: give it those */
  if (precision == HEGETCL_PRECISION_FLOAT)
    for (int i = 0; i < N_ENERGIES; ++i) energies[i] = (float)energies[i];
  static double out[N_ENERGIES * REALS_PER_ITEM];
  const ts_arg args[] = {ts_reals_in(N_ENERGIES, energies),
                         ts_reals_out(N_ENERGIES * REALS_PER_ITEM, out)};
  TS_ASSERT_OK(ctx, ts_probe_run(&variants[precision], "probe_variants", N_ENERGIES, args, 2));
  static const char *const pairs[N_PAIRS] = {"ixxxx0/ixxxx1 along +z", "ixxxx0/ixxxx2 along -z",
                                             "oxxxx0/oxxxx1 along +z", "oxxxx0/oxxxx2 along -z",
                                             "vxxxx0/vxxxx1 along +z", "vxxxx0/vxxxx2 along -z"};
  /* both compute the same square roots of the same numbers; 4 units of rounding */
  const double eps = precision == HEGETCL_PRECISION_DOUBLE ? 0x1p-52 : 0x1p-23;
  double worst = 0;
  for (int i = 0; i < N_ENERGIES; ++i)
    for (int sign = 0; sign < N_SIGNS; ++sign)
      for (int pair = 0; pair < N_PAIRS; ++pair) {
        const double *generic = out + i * REALS_PER_ITEM + (sign * N_PAIRS + pair) * 24;
        const double *axis = generic + 12;
        for (int r = 0; r < 12; ++r) {
          /* spinor slots scale as sqrt(2E), polarisations as 1, momentum slots as E */
          const double scale = r >= 8 ? energies[i] : pair < 4 ? sqrt(2 * energies[i]) : 1.0;
          const double deviation = fabs(generic[r] - axis[r]) / scale;
          if (!(deviation <= 4 * eps))
            fail_msg("%s, nhel %+d, ns %+d, E = %.17g GeV, slot %d %s on %s (%s): generic %.17g, "
                     "axis %.17g, difference / scale %.3g",
                     pairs[pair], (sign & 1) ? 1 : -1, (sign & 2) ? 1 : -1, energies[i], r / 2 + 1,
                     r % 2 ? "imaginary" : "real", ts_device_name(ctx),
                     hegetcl_precision_name(precision), generic[r], axis[r], deviation);
          worst = fmax(worst, deviation);
        }
      }
  print_message("# %s: %d energies x 4 (nhel, ns) x %d pairs x 12 reals, worst difference / "
                "scale %.2e\n",
                hegetcl_precision_name(precision), N_ENERGIES, N_PAIRS, worst);
}

static void generic_wavefunctions_equal_the_axis_variants_on_the_axis_double(void **state) {
  (void)state;
  check_variants(HEGETCL_PRECISION_DOUBLE);
}

static void generic_wavefunctions_equal_the_axis_variants_on_the_axis_float(void **state) {
  (void)state;
  check_variants(HEGETCL_PRECISION_FLOAT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(generic_wavefunctions_equal_the_axis_variants_on_the_axis_double),
      cmocka_unit_test(generic_wavefunctions_equal_the_axis_variants_on_the_axis_float),
      cmocka_unit_test(random_rotations_and_boosts_leave_the_helicity_sum_unchanged_double),
      cmocka_unit_test(random_rotations_and_boosts_leave_the_helicity_sum_unchanged_float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
