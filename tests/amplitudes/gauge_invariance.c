/* SPDX-License-Identifier: MIT */
/* Replacing any photon's polarisation by its momentum makes every engine's amplitude vanish.
 *
 * The Ward identity of QED: with eps_k -> k for one photon k, the n! orderings cancel exactly, for
 * any helicities of the other particles. A probe kernel (tests/support/probe.c) builds the quark
 * (ixxxx1), antiquark (oxxxx2) and photons (vxxxx0) as the kernels do, overwrites photon k's
 * w[0..3] with (E, px, py, pz) (slots 5 and 6 stay as vxxxx0 set them) and calls the engine's
 * hg_engine_amplitude (the split diagram engine's parts, added on the host). The gauge amplitude
 * has one more power of momentum than a physical one, so it is compared with E_k times the size of
 * the physical amplitudes at that point, S = sqrt(sum_h |A_h|^2) over every configuration with
 * h_ubar = -h_u, from the same probe. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "probe.h"
#include "test_support.h"

#define N_MIN 2
#define N_MAX 7
#define N_DIAGRAMS_MAX 6 /* n = 7: 84 kernels, a minute per precision on PoCL; see check_all() */
#define N_POINTS 3
#define N_SAMPLED_CONFIGS 8 /* configurations of the other particles per photon from n = 5 on */
#define PT_MIN_FRAC 0.05

/* double at 500 GeV; float at 10 GeV, where the amplitudes stay far from float's underflow. */
static double sqrt_s_gev(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 500.0 : 10.0;
}

/* |A_gauge| / (E_k S): the n! orderings cancel to rounding of terms about as large as S; seen up
 * to 1.5e-15 in double and 5.5e-7 in float (n = 2..7). */
static double tolerance(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? 1e-12 : 1e-4;
}

static hegetcl_context *ctx;
static ts_probe probes[HEGETCL_ENGINE_COUNT][N_MAX + 1][2];
static hegetcl_status build_status[HEGETCL_ENGINE_COUNT][N_MAX + 1][2];
static char build_message[HEGETCL_ENGINE_COUNT][N_MAX + 1][2][1024];

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
  for (unsigned n = N_MIN; n <= N_MAX; ++n)
    for (int p = 0; p < 2; ++p)
      for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
        if (!uses_precision((hegetcl_precision)p) || !wanted(engine, n)) continue;
        build_status[engine][n][p] =
            ts_probe_build(ctx, (int)engine, (hegetcl_precision)p, n, ts_probe_amplitude_kernel,
                           &probes[engine][n][p]);
        if (build_status[engine][n][p] != HEGETCL_OK)
          snprintf(build_message[engine][n][p], sizeof build_message[engine][n][p], "%s",
                   hegetcl_last_error(ctx));
      }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx); /* the probes' programs belong to its cache */
  return 0;
}

/* Helicity configurations (bit i: particle i has helicity +1) with h_ubar = -h_u, photon k's bit
 * left 0 (its polarisation is replaced): all 2^n for n <= 4, else the two with all other photons
 * alike and N_SAMPLED_CONFIGS - 2 random ones. */
static size_t others_configs(unsigned n, unsigned k, uint64_t *random, uint32_t *out) {
  const uint32_t photon_mask = ((1u << n) - 1u) & ~(1u << k);
  size_t count = 0;
  if (n <= 4) {
    for (uint32_t quark = 0; quark < 2; ++quark)
      for (uint32_t photons = 0; photons < (1u << n); ++photons)
        if (!((photons >> k) & 1u)) out[count++] = quark | (1u - quark) << 1 | photons << 2;
    return count;
  }
  for (; count < N_SAMPLED_CONFIGS; ++count) {
    const uint64_t r = ts_splitmix64(random);
    const uint32_t quark = (uint32_t)(r & 1u);
    const uint32_t photons = count == 0   ? 0u
                             : count == 1 ? photon_mask
                                          : (uint32_t)(r >> 1) & photon_mask;
    out[count] = quark | (1u - quark) << 1 | photons << 2;
  }
  return count;
}

static void check(unsigned engine, unsigned n, hegetcl_precision precision, double *worst) {
  if (build_status[engine][n][precision] != HEGETCL_OK)
    fail_msg("%s", build_message[engine][n][precision]);
  const ts_probe *probe = &probes[engine][n][precision];
  const unsigned np = n + 2;
  double momenta[4 * (N_MAX + 2) * N_POINTS];
  ts_random_points(n, sqrt_s_gev(precision), N_POINTS, 0x6a0000u + n, PT_MIN_FRAC, momenta);
  /* items: every physical configuration with h_ubar = -h_u at every point (for S), then the gauge
   * amplitudes */
  const size_t n_physical = (size_t)1 << (n + 1);
  const size_t capacity = N_POINTS * (n_physical + N_MAX * ((size_t)1 << N_MAX));
  uint32_t *events = malloc(capacity * sizeof *events);
  uint32_t *configs = malloc(capacity * sizeof *configs);
  int32_t *replace = malloc(capacity * sizeof *replace);
  double *amplitude = malloc(2 * capacity * sizeof *amplitude);
  assert_true(events != NULL && configs != NULL && replace != NULL && amplitude != NULL);
  size_t n_items = 0;
  for (uint32_t e = 0; e < N_POINTS; ++e)
    for (uint32_t h = 0; h < n_physical; ++h) {
      events[n_items] = e;
      configs[n_items] = (h & 1u) | (~h & 1u) << 1 | (h >> 1) << 2;
      replace[n_items++] = -1;
    }
  uint64_t random = 0x9a0000u + n;
  for (uint32_t e = 0; e < N_POINTS; ++e)
    for (unsigned k = 0; k < n; ++k) {
      uint32_t others[1u << N_MAX];
      const size_t count = others_configs(n, k, &random, others);
      for (size_t c = 0; c < count; ++c) {
        events[n_items] = e;
        configs[n_items] = others[c];
        replace[n_items++] = (int32_t)k;
      }
    }
  TS_ASSERT_OK(ctx, ts_probe_amplitudes(probe, N_POINTS, momenta, 0, n_items, events, configs,
                                        replace, amplitude));
  double scale[N_POINTS] = {0};
  for (size_t item = 0; item < N_POINTS * n_physical; ++item)
    scale[events[item]] += amplitude[2 * item] * amplitude[2 * item] +
                           amplitude[2 * item + 1] * amplitude[2 * item + 1];
  char label[128];
  ts_probe_label(probe, label, sizeof label);
  for (size_t e = 0; e < N_POINTS; ++e) {
    scale[e] = sqrt(scale[e]);
    if (!(scale[e] > 0) || !isfinite(scale[e]))
      fail_msg("%s on %s, point %zu: the physical amplitudes' size is %g, not a positive number",
               label, ts_device_name(ctx), e, scale[e]);
  }
  for (size_t item = N_POINTS * n_physical; item < n_items; ++item) {
    const double energy = momenta[HG_SOA_INDEX(0, 2 + replace[item], np, N_POINTS, events[item])];
    const double bound = energy * scale[events[item]];
    const double gauge = hypot(amplitude[2 * item], amplitude[2 * item + 1]);
    const double ratio = gauge / bound;
    if (!(ratio <= tolerance(precision)))
      fail_msg("%s on %s, point %u, photon %d replaced by its momentum, configuration 0x%x: "
               "|A_gauge| %.17g, E_k S %.17g, ratio %.3g (tolerance %g)",
               label, ts_device_name(ctx), events[item], replace[item], configs[item], gauge, bound,
               ratio, tolerance(precision));
    *worst = fmax(*worst, ratio);
  }
  print_message("# %s: %zu gauge amplitudes, worst |A_gauge| / (E_k S) %.2e\n", label,
                n_items - N_POINTS * n_physical, *worst);
  free(amplitude);
  free(replace);
  free(configs);
  free(events);
}

static void check_all(hegetcl_precision precision) {
  ts_skip_without_fp64(ctx, precision);
  for (unsigned n = N_MIN; n <= N_MAX; ++n)
    for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
      double worst = 0;
      if (wanted(engine, n)) check(engine, n, precision, &worst);
    }
  if (!wanted(HEGETCL_ENGINE_DIAGRAMS, N_MAX))
    print_message("# the diagram engine stops at n = %d here: at n = 7 its 84 kernels take PoCL "
                  "about a minute per precision to compile on 2 cores; HEGETCL_TEST_SLOW=1 adds "
                  "it\n",
                  N_DIAGRAMS_MAX);
}

static void
every_engine_vanishes_when_a_photon_polarisation_becomes_its_momentum_double(void **state) {
  (void)state;
  check_all(HEGETCL_PRECISION_DOUBLE);
}

static void
every_engine_vanishes_when_a_photon_polarisation_becomes_its_momentum_float(void **state) {
  (void)state;
  check_all(HEGETCL_PRECISION_FLOAT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          every_engine_vanishes_when_a_photon_polarisation_becomes_its_momentum_double),
      cmocka_unit_test(every_engine_vanishes_when_a_photon_polarisation_becomes_its_momentum_float),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
