/* SPDX-License-Identifier: MIT */
/* The adaptive sampling's tables and weights on the host, against quantities computed here
 * (CONVENTIONS.md, "Adaptive sampling"): helicity probabilities sum to 1 and none is 0, a
 * configuration drawn with a nearly-zero probability gets exactly 1/probability in its weight,
 * draws follow the table, the multichannel density of one channel is the collider map's and of
 * all channels is the sum over each channel's own inverse coordinates, and both maps give the
 * same integral. The sampler's own source (cl/xsec/event.h) is compiled here for n = 3. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/pdf.h"
#include "integrate/channel_weights.h"
#include "integrate/helicity_adapt.h"
#include "pdf/lhapdf6_grid.h"
#include "test_support.h"

#define N_PHOTONS 3
#define VEGAS_DIMS 7
#define VEGAS_BINS 8
#define PHASE_SPACE_RAMBO 0
#define PHASE_SPACE_MULTICHANNEL 0
#define HELICITY_SAMPLED 1
#define HELICITY_ADAPTIVE 1
#define FLAVOURS 0
#define CHANNELS 0
#include "xsec/event.h"

static double params[HG_XSEC_PARAM_COUNT];
static double *pdf_grid;

static int setup(void **state) {
  (void)state;
  hegetcl_pdf *pdf = NULL;
  char message[1024];
  if (hegetcl_pdf_open("cteq6l1", 0, &pdf, message, sizeof message) != HEGETCL_OK) {
    fprintf(stderr, "cteq6l1: %s\n", message);
    return 1;
  }
  const int pids[2] = {2, -2};
  size_t n_grid = 0;
  const hegetcl_status status =
      hg_pdf_pack(pdf, pids, 2, &pdf_grid, &n_grid, message, sizeof message);
  hegetcl_pdf_close(pdf);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "packing cteq6l1: %s\n", message);
    return 1;
  }
  params[HG_XSEC_SQRT_S] = 14000.0;
  params[HG_XSEC_PT_MIN] = 20.0;
  params[HG_XSEC_ETA_MAX] = 2.5;
  params[HG_XSEC_DR_MIN] = 0.4;
  params[HG_XSEC_MU_F2] = 400.0;
  params[HG_XSEC_NORMALISATION] = HEGETCL_GEV2_TO_FB;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(pdf_grid);
  return 0;
}

/* A VEGAS grid of dims dimensions with random edges (bins of widths 0.2 to 1.8 of the mean). */
static void random_grid(double *grid, int dims, int bins, uint64_t *rng) {
  for (int j = 0; j < dims; ++j) {
    double *edges = grid + j * (bins + 1), sum = 0.0;
    edges[0] = 0.0;
    for (int i = 0; i < bins; ++i) edges[i + 1] = (sum += 0.2 + 1.6 * ts_uniform(rng));
    for (int i = 1; i <= bins; ++i) edges[i] /= sum;
    edges[bins] = 1.0;
  }
}

static void uniform_grid(double *grid, int dims, int bins) {
  for (int j = 0; j < dims; ++j)
    for (int i = 0; i <= bins; ++i) grid[j * (bins + 1) + i] = (double)i / bins;
}

static void helicity_probabilities_sum_to_one_and_none_is_zero(void **state) {
  (void)state;
  uint64_t rng = 11;
  static double shares[4094], cumulative[4094];
  for (unsigned n = 2; n <= 12; ++n) {
    const size_t count = HG_PHOTON_CONFIGS(n);
    /* zeros, tiny, ordinary and one overwhelming share: the shape a few adapting events give */
    for (size_t c = 0; c < count; ++c) {
      const double u = ts_uniform(&rng);
      shares[c] = u < 0.3 ? 0.0 : u < 0.4 ? 1e-30 : u;
    }
    shares[count / 2] = 1e12;
    hg_helicity_table(shares, count, HG_HELICITY_FLOOR, cumulative);
    double sum = 0.0, smallest = 1.0;
    for (size_t c = 0; c < count; ++c) {
      const double p = hg_table_probability(cumulative, c);
      sum += p;
      smallest = fmin(smallest, p);
    }
    const double floor = HG_HELICITY_FLOOR / count;
    if (fabs(sum - 1.0) > 1e-12 || !(smallest >= floor * (1.0 - 1e-9)))
      fail_msg("n = %u: probabilities sum to 1 %+.3e, smallest %.6e (floor %.6e)", n, sum - 1.0,
               smallest, floor);
    /* nothing learnt: uniform */
    memset(shares, 0, count * sizeof *shares);
    hg_helicity_table(shares, count, HG_HELICITY_FLOOR, cumulative);
    for (size_t c = 0; c < count; ++c)
      if (fabs(hg_table_probability(cumulative, c) * count - 1.0) > 1e-9)
        fail_msg("n = %u: no shares, configuration %zu has probability %.17g, not 1/%zu", n, c + 1,
                 hg_table_probability(cumulative, c), count);
  }
}

/* The first event from `first` inside the cuts, with the uniform grid and table t. */
static hg_xsec_event event_inside(const double *grid, const double *t, uint64_t *first) {
  for (;; ++*first) {
    const hg_xsec_event ev = hg_xsec_make_event(params, grid, pdf_grid, t, 3, 0, 0, *first);
    if (ev.factor > 0.0) return ev;
  }
}

static void a_nearly_zero_probability_gives_its_inverse_as_weight(void **state) {
  (void)state;
  static double grid[VEGAS_DIMS * (VEGAS_BINS + 1)];
  uniform_grid(grid, VEGAS_DIMS, VEGAS_BINS);
  double table[HG_SAMPLING_TABLE_SIZE(N_PHOTONS)], shares[6] = {1, 1, 1, 1, 1, 1};
  hg_helicity_table(shares, 6, HG_HELICITY_FLOOR, table);
  hg_channel_weights_table((const double[]){1.0 / 3, 1.0 / 3, 1.0 / 3}, 3,
                           table + HG_SAMPLING_CHANNEL_TABLE(N_PHOTONS));
  uint64_t number = 0;
  for (int k = 0; k < 5; ++k, ++number) {
    const hg_xsec_event uniform = event_inside(grid, table, &number);
    const hg_philox_words r =
        hg_philox4x32_10(hg_philox_counter(number, 0, HG_BLOCK_HELICITY), 3, 0);
    const double u = hg_uniform_double(r.v[0], r.v[1]);
    /* tables whose configuration 3 (index 2) holds u in an interval of width delta: a nearly-zero
     * probability (1e-12) and an ordinary one */
    double rare[HG_SAMPLING_TABLE_SIZE(N_PHOTONS)], usual[HG_SAMPLING_TABLE_SIZE(N_PHOTONS)];
    const double deltas[2] = {1e-12, 0.5 * fmin(u, 1.0 - u)};
    double *tables[2] = {rare, usual};
    for (int t = 0; t < 2; ++t) {
      double *c = tables[t];
      memcpy(c, table, sizeof table);
      c[1] = u - 0.5 * deltas[t];
      c[0] = 0.5 * c[1];
      c[2] = u + 0.5 * deltas[t];
      c[3] = c[2] + (1.0 - c[2]) / 3.0;
      c[4] = c[2] + 2.0 * (1.0 - c[2]) / 3.0;
      c[5] = 1.0;
    }
    const double p_rare = hg_table_probability(rare, 2), p_usual = hg_table_probability(usual, 2);
    const hg_xsec_event a = hg_xsec_make_event(params, grid, pdf_grid, rare, 3, 0, 0, number);
    const hg_xsec_event b = hg_xsec_make_event(params, grid, pdf_grid, usual, 3, 0, 0, number);
    const hg_u32 quarks = uniform.helicity & 3u;
    if (a.helicity != ((3u << 2) | quarks) || b.helicity != a.helicity)
      fail_msg("event %llu: helicity 0x%x and 0x%x drawn, want photon configuration 3 (0x%x)",
               (unsigned long long)number, a.helicity, b.helicity, (3u << 2) | quarks);
    if (!(p_rare > 0.0 && p_rare < 2e-12))
      fail_msg("the forced probability is %.3e, not about 1e-12", p_rare);
    /* the weight is (phase space and PDFs) * 2 / p: the same event, its ratio that of the
     * probabilities, and against the uniform table's 2 * 6 */
    const double want = p_usual / p_rare, got = a.factor / b.factor;
    const double uniform_ratio = uniform.factor / b.factor, uniform_want = p_usual * 6.0;
    if (fabs(got / want - 1.0) > 1e-12 || fabs(uniform_ratio / uniform_want - 1.0) > 1e-12)
      fail_msg("event %llu: factor ratio %.17g for probabilities %.6e and %.6e (want %.17g); "
               "uniform / usual %.17g (want %.17g)",
               (unsigned long long)number, got, p_rare, p_usual, want, uniform_ratio, uniform_want);
  }
}

static void draws_follow_the_table_and_skip_vanishing_configurations(void **state) {
  (void)state;
  static double grid[VEGAS_DIMS * (VEGAS_BINS + 1)];
  uniform_grid(grid, VEGAS_DIMS, VEGAS_BINS);
  double table[HG_SAMPLING_TABLE_SIZE(N_PHOTONS)];
  const double shares[6] = {5.0, 0.0, 1.0, 20.0, 0.5, 3.0};
  hg_helicity_table(shares, 6, HG_HELICITY_FLOOR, table);
  hg_channel_weights_table((const double[]){1.0 / 3, 1.0 / 3, 1.0 / 3}, 3,
                           table + HG_SAMPLING_CHANNEL_TABLE(N_PHOTONS));
  const int draws = 60000;
  double counts[6] = {0}, quark_minus = 0;
  for (int e = 0; e < draws; ++e) {
    const hg_xsec_event ev = hg_xsec_make_event(params, grid, pdf_grid, table, 9, 0, 1, e);
    const hg_u32 c = ev.helicity >> 2;
    if (c < 1 || c > 6 || ts_configuration_vanishes(ev.helicity, N_PHOTONS))
      fail_msg("event %d drew helicity 0x%x, a configuration that vanishes", e, ev.helicity);
    counts[c - 1] += 1.0;
    quark_minus += (ev.helicity & 1u) == 0u;
  }
  for (int c = 0; c < 6; ++c) {
    const double p = hg_table_probability(table, c), expect = p * draws;
    if (fabs(counts[c] - expect) > 5.0 * sqrt(expect * (1.0 - p)))
      fail_msg("configuration %d: drawn %.0f times in %d, expected %.1f (p = %.4f)", c + 1,
               counts[c], draws, expect, p);
  }
  if (fabs(quark_minus - 0.5 * draws) > 5.0 * sqrt(0.25 * draws))
    fail_msg("quark helicity - drawn %.0f times in %d", quark_minus, draws);
}

/* Channel k's coordinates of a point (the collider map's inverse with photon k balancing), by
 * its own arithmetic: slots in photon order skipping k, 1/pT, eta and phi, then k's rapidity. */
static void coordinates_of(const hg_ps_point *pt, int n, int k, double *x) {
  const double pi = HG_PS_PI, inv_low = 1.0 / 20.0, inv_span = inv_low - 2.0 / 14000.0;
  int slot = 0;
  for (int i = 0; i < n; ++i) {
    const double *p = pt->p[2 + i];
    const double pt_i = hypot(p[1], p[2]), eta = asinh(p[3] / pt_i);
    if (i == k) {
      x[3 * n - 3] = (eta / 2.5 + 1.0) / 2.0;
      continue;
    }
    x[3 * slot] = (inv_low - 1.0 / pt_i) / inv_span;
    x[3 * slot + 1] = (eta / 2.5 + 1.0) / 2.0;
    x[3 * slot + 2] = fmod(atan2(p[2], p[1]) + 2.0 * pi, 2.0 * pi) / (2.0 * pi);
    ++slot;
  }
}

/* The grid's density at x by a linear search. */
static double density_of(const double *grid, int dims, int bins, const double *x) {
  double rho = 1.0;
  for (int j = 0; j < dims; ++j) {
    const double *edges = grid + j * (bins + 1);
    int i = 0;
    while (i < bins - 1 && edges[i + 1] <= x[j]) ++i;
    rho /= bins * (edges[i + 1] - edges[i]);
  }
  return rho;
}

static void multichannel_density_is_the_sum_of_the_channels(void **state) {
  (void)state;
  enum { n = 5, dims = 3 * n - 2, bins = 16 };
  static double grid[dims * (bins + 1)];
  uint64_t rng = 5;
  random_grid(grid, dims, bins, &rng);
  const double alpha[n] = {0.1, 0.3, 0.15, 0.25, 0.2};
  double cumulative[n], only_last[n] = {0, 0, 0, 0, 1};
  hg_channel_weights_table(alpha, n, cumulative);
  int checked = 0;
  for (int e = 0; checked < 200; ++e) {
    double u[dims], x[dims], jacobian = 1.0;
    int bin = 0;
    for (int j = 0; j < dims; ++j) u[j] = ts_uniform(&rng);
    for (int j = 0; j < dims; ++j) x[j] = hg_vegas_map(grid, j, bins, u[j], &jacobian, &bin);
    const int k = e % n;
    const hg_ps_point pt = hg_multichannel_point(x, n, k, 14000.0, 20.0, 2.5);
    if (!pt.physical || !hg_passes_cuts(&pt, n, 20.0, 2.5, 0.4)) continue;
    ++checked;
    /* one channel, the last: the collider map's own Jacobian and weight */
    if (k == n - 1) {
      const hg_ps_point collider = hg_collider_point(x, n, 14000.0, 20.0, 2.5);
      const double one = hg_multichannel_weight(&pt, n, grid, bins, only_last, 14000.0, 20.0, 2.5);
      if (fabs(one / (jacobian * collider.weight) - 1.0) > 1e-9)
        fail_msg("point %d: one channel gives 1/g = %.17g, the collider map %.17g", e, one,
                 jacobian * collider.weight);
    }
    /* every channel: its coordinates, its point made again from them, its density */
    double g = 0.0;
    for (int c = 0; c < n; ++c) {
      double xc[dims];
      coordinates_of(&pt, n, c, xc);
      const hg_ps_point again = hg_multichannel_point(xc, n, c, 14000.0, 20.0, 2.5);
      for (int i = 0; i < n + 2; ++i)
        for (int m = 0; m < 4; ++m)
          if (fabs(again.p[i][m] - pt.p[i][m]) > 1e-9 * pt.p[i][0] + 1e-9)
            fail_msg("point %d, channel %d: particle %d component %d made again as %.12g, was "
                     "%.12g",
                     e, c, i, m, again.p[i][m], pt.p[i][m]);
      g += alpha[c] * density_of(grid, dims, bins, xc) / again.weight;
    }
    const double got = hg_multichannel_weight(&pt, n, grid, bins, cumulative, 14000.0, 20.0, 2.5);
    if (fabs(got * g - 1.0) > 1e-9)
      fail_msg("point %d (channel %d): 1/g = %.17g, the channels' sum gives %.17g", e, k, got,
               1.0 / g);
  }
}

/* The integral of h(p) = prod (pt_min / pT_i)^2 inside the cuts, for n = 4, by the collider map
 * and by the multichannel map with random grids: two estimates of one number. */
static void both_maps_give_the_same_integral(void **state) {
  (void)state;
  enum { n = 4, dims = 3 * n - 2, bins = 8, events = 400000 };
  static double grid[dims * (bins + 1)];
  uint64_t rng = 17;
  random_grid(grid, dims, bins, &rng);
  double cumulative[n];
  hg_channel_weights_table((const double[]){0.4, 0.2, 0.3, 0.1}, n, cumulative);
  double sum[2] = {0, 0}, sum2[2] = {0, 0};
  for (int e = 0; e < events; ++e) {
    double u[dims], x[dims], jacobian = 1.0;
    int bin = 0;
    for (int j = 0; j < dims; ++j) u[j] = ts_uniform(&rng);
    for (int j = 0; j < dims; ++j) x[j] = hg_vegas_map(grid, j, bins, u[j], &jacobian, &bin);
    for (int map = 0; map < 2; ++map) {
      double p_channel = 0.0;
      const int k =
          map == 0 ? n - 1 : (int)hg_table_draw(cumulative, n, ts_uniform(&rng), &p_channel);
      const hg_ps_point pt = hg_multichannel_point(x, n, k, 14000.0, 20.0, 2.5);
      if (!pt.physical || !hg_passes_cuts(&pt, n, 20.0, 2.5, 0.4)) continue;
      double h = 1.0;
      for (int i = 0; i < n; ++i)
        h *= 400.0 / (pt.p[2 + i][1] * pt.p[2 + i][1] + pt.p[2 + i][2] * pt.p[2 + i][2]);
      const double w = h * (map == 0 ? jacobian * pt.weight
                                     : hg_multichannel_weight(&pt, n, grid, bins, cumulative,
                                                              14000.0, 20.0, 2.5));
      sum[map] += w;
      sum2[map] += w * w;
    }
  }
  double mean[2], error[2];
  for (int m = 0; m < 2; ++m) {
    mean[m] = sum[m] / events;
    error[m] = sqrt((sum2[m] / events - mean[m] * mean[m]) / (events - 1.0));
  }
  const double pull = (mean[0] - mean[1]) / hypot(error[0], error[1]);
  print_message("# collider %.6e +- %.2e, multichannel %.6e +- %.2e GeV^%d: pull %.2f\n", mean[0],
                error[0], mean[1], error[1], 2 * n - 4, pull);
  if (fabs(pull) > 5.0) fail_msg("the maps disagree by %.1f sigma", pull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(helicity_probabilities_sum_to_one_and_none_is_zero),
      cmocka_unit_test(a_nearly_zero_probability_gives_its_inverse_as_weight),
      cmocka_unit_test(draws_follow_the_table_and_skip_vanishing_configurations),
      cmocka_unit_test(multichannel_density_is_the_sum_of_the_channels),
      cmocka_unit_test(both_maps_give_the_same_integral),
  };
  return cmocka_run_group_tests_name("sampling_weights", tests, setup, teardown);
}
