/* SPDX-License-Identifier: MIT */
/* What the tests share: the device under test, random phase-space points, reference paths. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "test_support.h"

hegetcl_context *ts_context_create(void) {
  const char *spec = getenv("HEGETCL_TEST_DEVICE");
  if (spec == NULL) spec = getenv("HEGETCL_DEVICE");
  hegetcl_context *ctx = NULL;
  const hegetcl_status status = hegetcl_context_create(spec ? spec : "auto", &ctx);
  if (status != HEGETCL_OK) {
    print_error("no device for the tests: %s\n", hegetcl_last_error(ctx));
    hegetcl_context_destroy(ctx);
    return NULL;
  }
  return ctx;
}

const char *ts_device_name(hegetcl_context *ctx) {
  static hegetcl_device_info info;
  if (hegetcl_context_device(ctx, &info) != HEGETCL_OK) return "(no device)";
  return info.name;
}

int ts_exhaustive(void) {
  const char *value = getenv("HEGETCL_TEST_EXHAUSTIVE");
  return value != NULL && strcmp(value, "1") == 0;
}

int ts_has_fp64(hegetcl_context *ctx) {
  hegetcl_device_info info;
  return hegetcl_context_device(ctx, &info) == HEGETCL_OK && info.has_fp64;
}

void ts_skip_without_fp64(hegetcl_context *ctx, hegetcl_precision precision) {
  if (precision == HEGETCL_PRECISION_DOUBLE && !ts_has_fp64(ctx)) {
    print_message("# SKIP: %s has no cl_khr_fp64, so double precision cannot run\n",
                  ts_device_name(ctx));
    skip();
  }
}

void ts_amplitude_set_create(hegetcl_context *ctx, unsigned n_min, unsigned n_max,
                             ts_amplitude_wanted wanted, ts_amplitude_set *set) {
  memset(set, 0, sizeof *set);
  if (n_max > TS_AMPLITUDE_SET_N_MAX) n_max = TS_AMPLITUDE_SET_N_MAX;
  const int fp64 = ts_has_fp64(ctx);
  for (unsigned n = n_min; n <= n_max; ++n)
    for (int p = 0; p < 2; ++p) {
      if (p == HEGETCL_PRECISION_DOUBLE && !fp64) continue;
      for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
        if (wanted != NULL && !wanted(engine, n, (hegetcl_precision)p)) continue;
        hegetcl_process process;
        hegetcl_process_defaults(&process, n);
        process.engine = (hegetcl_engine)engine;
        process.precision = (hegetcl_precision)p;
        hegetcl_status *status = &set->status[engine][n][p];
        *status = hegetcl_amplitude_create(ctx, &process, &set->amps[engine][n][p]);
        if (*status != HEGETCL_OK)
          snprintf(set->message[engine][n][p], sizeof set->message[engine][n][p], "%s",
                   hegetcl_last_error(ctx));
      }
    }
}

hegetcl_amplitude *ts_amplitude_set_get(const ts_amplitude_set *set, unsigned engine, unsigned n,
                                        hegetcl_precision precision) {
  if (set->status[engine][n][precision] != HEGETCL_OK)
    fail_msg("creating the %s engine for n=%u in %s failed: %s: %s",
             hegetcl_engine_name((hegetcl_engine)engine), n, hegetcl_precision_name(precision),
             hegetcl_status_name(set->status[engine][n][precision]),
             set->message[engine][n][precision]);
  return set->amps[engine][n][precision];
}

void ts_amplitude_set_destroy(ts_amplitude_set *set) {
  for (unsigned engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine)
    for (unsigned n = 0; n <= TS_AMPLITUDE_SET_N_MAX; ++n)
      for (int p = 0; p < 2; ++p) {
        hegetcl_amplitude_destroy(set->amps[engine][n][p]);
        set->amps[engine][n][p] = NULL;
      }
}

uint64_t ts_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double ts_uniform(uint64_t *state) {
  return ((double)(ts_splitmix64(state) >> 11) + 0.5) * 0x1p-53;
}

/* RAMBO (Kleiss, Stirling, Ellis 1986) for n massless particles at total energy w, c.m. frame. */
static void rambo(unsigned n, double w, uint64_t *state, double p[][4]) {
  double q[16][4], r[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < n; ++i) {
    const double c = 2 * ts_uniform(state) - 1, s = sqrt(1 - c * c);
    const double f = 2 * 3.14159265358979323846 * ts_uniform(state);
    q[i][0] = -log(ts_uniform(state) * ts_uniform(state));
    q[i][3] = q[i][0] * c;
    q[i][2] = q[i][0] * s * cos(f);
    q[i][1] = q[i][0] * s * sin(f);
    for (int k = 0; k < 4; ++k) r[k] += q[i][k];
  }
  const double rmas = sqrt(r[0] * r[0] - r[1] * r[1] - r[2] * r[2] - r[3] * r[3]);
  const double g = r[0] / rmas, a = 1 / (1 + g), x = w / rmas;
  double b[3];
  for (int k = 0; k < 3; ++k) b[k] = -r[k + 1] / rmas;
  for (unsigned i = 0; i < n; ++i) {
    const double bq = b[0] * q[i][1] + b[1] * q[i][2] + b[2] * q[i][3];
    for (int k = 1; k < 4; ++k) p[i][k] = x * (q[i][k] + b[k - 1] * (q[i][0] + a * bq));
    p[i][0] = x * (g * q[i][0] + bq);
  }
}

void ts_random_points(unsigned n_photons, double sqrt_s, size_t n_events, uint64_t seed,
                      double pt_min_frac, double *momenta) {
  uint64_t state = seed;
  const unsigned n_particles = n_photons + 2;
  for (size_t e = 0; e < n_events; ++e) {
    double p[16][4];
    int ok = 0;
    while (!ok) {
      rambo(n_photons, sqrt_s, &state, p);
      ok = 1;
      for (unsigned i = 0; i < n_photons && ok; ++i) {
        ok = hypot(p[i][1], p[i][2]) > pt_min_frac * sqrt_s;
        for (unsigned j = 0; j < i && ok; ++j) {
          const double dot = p[i][1] * p[j][1] + p[i][2] * p[j][2] + p[i][3] * p[j][3];
          ok = dot / (p[i][0] * p[j][0]) < cos(0.1);
        }
      }
    }
    const double beams[2][4] = {{sqrt_s / 2, 0, 0, sqrt_s / 2}, {sqrt_s / 2, 0, 0, -sqrt_s / 2}};
    for (unsigned i = 0; i < n_particles; ++i)
      for (int c = 0; c < 4; ++c)
        momenta[HG_SOA_INDEX(c, i, n_particles, n_events, e)] = i < 2 ? beams[i][c] : p[i - 2][c];
  }
}

double ts_float_tolerance(unsigned n_photons, const double *momenta, size_t n_events, size_t e) {
  const unsigned n_particles = n_photons + 2;
#define TS_P(c, i) momenta[HG_SOA_INDEX(c, i, n_particles, n_events, e)]
  double beams[4], smallest = INFINITY;
  for (int c = 0; c < 4; ++c) beams[c] = TS_P(c, 0) + TS_P(c, 1);
  const double shat = beams[0] * beams[0] - beams[1] * beams[1] - beams[2] * beams[2] -
                      beams[3] * beams[3];
  for (uint32_t set = 1; set + 1 < (1u << n_photons); ++set) {
    double q[4];
    for (int c = 0; c < 4; ++c) {
      q[c] = TS_P(c, 0);
      for (unsigned j = 0; j < n_photons; ++j)
        if ((set >> j) & 1u) q[c] -= TS_P(c, 2 + j);
    }
    const double virtuality = fabs(q[0] * q[0] - q[1] * q[1] - q[2] * q[2] - q[3] * q[3]);
    if (virtuality < smallest) smallest = virtuality;
  }
#undef TS_P
  return 2.0 * n_photons * 0x1p-24 * shat / smallest;
}

const char *ts_refs_path(unsigned n_photons, char *buf, size_t size) {
  const char *dir = getenv("HEGETCL_REFS_DIR");
  snprintf(buf, size, "%s/me_points_n%u.txt", dir ? dir : "../shared/refs/mg5", n_photons);
  return buf;
}

double ts_rel_diff(double a, double b) { return b != 0 ? fabs(a / b - 1) : fabs(a); }

int ts_configuration_vanishes(uint32_t config, unsigned n) {
  const uint32_t photons = config >> 2, all = (1u << n) - 1;
  return (config & 1u) == ((config >> 1) & 1u) || photons == 0 || photons == all;
}

double ts_configuration_difference(double a, double b, double scale, int vanishing) {
  const double unit = vanishing ? scale : sqrt(b * scale);
  return unit > 0 ? fabs(a - b) / unit : fabs(a - b);
}
