/* SPDX-License-Identifier: MIT */
/* RAMBO for massless photons with a seeded splitmix64 stream, and the benchmark's cuts. */
#include "rambo.h"

#include <math.h>

#include "layout.h"

#define HG_BENCH_MAX_PHOTONS 16

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, uniform doubles in (0, 1). */
static double uniform(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return ((double)(z >> 11) + 0.5) * 0x1p-53;
}

/* RAMBO: n isotropic massless momenta with exponential energies, boosted and scaled to the rest
 * frame of total energy sqrt_s. */
static void rambo(unsigned n, double sqrt_s, uint64_t *state, double p[][4]) {
  const double two_pi = 6.28318530717958647692;
  double q[HG_BENCH_MAX_PHOTONS][4], r[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < n; ++i) {
    const double c = 2 * uniform(state) - 1, s = sqrt(1 - c * c), f = two_pi * uniform(state);
    q[i][0] = -log(uniform(state) * uniform(state));
    q[i][1] = q[i][0] * s * cos(f);
    q[i][2] = q[i][0] * s * sin(f);
    q[i][3] = q[i][0] * c;
    for (int k = 0; k < 4; ++k) r[k] += q[i][k];
  }
  const double mass = sqrt(r[0] * r[0] - r[1] * r[1] - r[2] * r[2] - r[3] * r[3]);
  const double g = r[0] / mass, a = 1 / (1 + g), x = sqrt_s / mass;
  const double b[3] = {-r[1] / mass, -r[2] / mass, -r[3] / mass};
  for (unsigned i = 0; i < n; ++i) {
    const double bq = b[0] * q[i][1] + b[1] * q[i][2] + b[2] * q[i][3];
    for (int k = 1; k < 4; ++k) p[i][k] = x * (q[i][k] + b[k - 1] * (q[i][0] + a * bq));
    p[i][0] = x * (g * q[i][0] + bq);
  }
}

static int passes_cuts(unsigned n, double sqrt_s, double p[][4]) {
  const double cos_min_angle = cos(0.1);
  for (unsigned i = 0; i < n; ++i) {
    if (!(hypot(p[i][1], p[i][2]) > 0.1 * sqrt_s / n)) return 0;
    for (unsigned j = 0; j < i; ++j) {
      const double dot = p[i][1] * p[j][1] + p[i][2] * p[j][2] + p[i][3] * p[j][3];
      if (!(dot < cos_min_angle * p[i][0] * p[j][0])) return 0;
    }
  }
  return 1;
}

void hg_bench_rambo(unsigned n_photons, double sqrt_s, size_t n_events, uint64_t seed,
                    double *momenta) {
  uint64_t state = seed;
  const unsigned n_particles = n_photons + 2;
  const double beams[2][4] = {{sqrt_s / 2, 0, 0, sqrt_s / 2}, {sqrt_s / 2, 0, 0, -sqrt_s / 2}};
  for (size_t e = 0; e < n_events; ++e) {
    double p[HG_BENCH_MAX_PHOTONS][4];
    do rambo(n_photons, sqrt_s, &state, p);
    while (!passes_cuts(n_photons, sqrt_s, p));
    for (unsigned i = 0; i < n_particles; ++i)
      for (int c = 0; c < 4; ++c)
        momenta[HG_SOA_INDEX(c, i, n_particles, n_events, e)] = i < 2 ? beams[i][c] : p[i - 2][c];
  }
}

void hg_bench_rambo_massive(unsigned n_out, const double *masses, double sqrt_s, size_t n_events,
                            uint64_t seed, double *momenta) {
  uint64_t state = seed;
  const unsigned n_particles = n_out + 2;
  const double beams[2][4] = {{sqrt_s / 2, 0, 0, sqrt_s / 2}, {sqrt_s / 2, 0, 0, -sqrt_s / 2}};
  for (size_t e = 0; e < n_events; ++e) {
    double p[HG_BENCH_MAX_PHOTONS][4];
    do rambo(n_out, sqrt_s, &state, p);
    while (!passes_cuts(n_out, sqrt_s, p));
    /* RAMBO's mass rescaling: |p_i| -> xi |p_i| with sum_i sqrt(m_i^2 + xi^2 |p_i|^2) = sqrt_s */
    double xi = 1;
    for (int iteration = 0; iteration < 50; ++iteration) {
      double f = -sqrt_s, df = 0;
      for (unsigned i = 0; i < n_out; ++i) {
        const double e_i = sqrt(masses[i] * masses[i] + xi * xi * p[i][0] * p[i][0]);
        f += e_i;
        df += xi * p[i][0] * p[i][0] / e_i;
      }
      xi -= f / df;
    }
    for (unsigned i = 0; i < n_out; ++i) {
      const double k = p[i][0];
      for (int c = 1; c < 4; ++c) p[i][c] *= xi;
      p[i][0] = sqrt(masses[i] * masses[i] + xi * xi * k * k);
    }
    for (unsigned i = 0; i < n_particles; ++i)
      for (int c = 0; c < 4; ++c)
        momenta[HG_SOA_INDEX(c, i, n_particles, n_events, e)] = i < 2 ? beams[i][c] : p[i - 2][c];
  }
}
