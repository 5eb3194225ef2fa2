/* SPDX-License-Identifier: MIT */
/* The t-channel chain map of a process's phase space (cl/generator/tchannel.h, compiled here as
 * host C) and every channel's density at any point (hg_gen_channel_density): momentum
 * conservation and the masses; each map's weight times its density at its own point is 1; the
 * massless chain's weight averages to the massless n-body volume, closed form, at any shat; and
 * each channel's density averaged over another channel's points (over its density) is the share
 * of the first channel's points the second covers: 1 between chains, the physical share of a
 * balance or mass channel, both ways. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#include "generator/multichannel.h"

#define SQRT_S 13000.0
#define PT_CUT 50.0
#define ETA_CUT 5.0
#define M_TOP 173.0

typedef struct {
  int n_jets, has_system, n_channels;
  int kind[8];
  double a[8], b[8];
  double chain[8][HG_GEN_CHAIN_STRIDE];
  double pt_min[HG_GEN_MAX_EXTERNAL], eta_max[HG_GEN_MAX_EXTERNAL], mass[HG_GEN_MAX_EXTERNAL];
  double m_min, m_max, shat_min;
} setup;

static void add_chain(setup *s, const int *order, const double *t0, const double *s0) {
  const int n = s->n_jets + 2 * s->has_system, c = s->n_channels++;
  s->kind[c] = HG_GEN_CHANNEL_CHAIN;
  s->a[c] = s->b[c] = 0.0;
  memset(s->chain[c], 0, sizeof s->chain[c]);
  for (int i = 0; i < n; ++i) s->chain[c][HG_GEN_CHAIN_ORDER + i] = order[i];
  for (int i = 0; i + 1 < n; ++i) s->chain[c][HG_GEN_CHAIN_T0 + i] = t0[i];
  for (int i = 1; i + 1 < n; ++i) s->chain[c][HG_GEN_CHAIN_S0 + i] = s0[i];
}

/* p p > j j j: three balance channels and three chains (the middle jet each) */
static setup three_jets(void) {
  setup s;
  memset(&s, 0, sizeof s);
  s.n_jets = 3;
  for (int k = 0; k < 3; ++k) {
    s.pt_min[k] = PT_CUT;
    s.eta_max[k] = ETA_CUT;
    s.kind[k] = HG_GEN_CHANNEL_BALANCE;
    s.a[k] = k;
  }
  s.n_channels = 3;
  s.shat_min = 9.0 * PT_CUT * PT_CUT;
  const double c2 = PT_CUT * PT_CUT, t0[3] = {c2, c2}, s0[3] = {0.0, c2};
  const int orders[3][3] = {{2, 3, 4}, {2, 4, 3}, {3, 2, 4}};
  for (int c = 0; c < 3; ++c) add_chain(&s, orders[c], t0, s0);
  return s;
}

/* p p > t t~ j: the log mass channel and three chains (slots: j 2, t 3, t~ 4) */
static setup top_pair_jet(void) {
  setup s;
  memset(&s, 0, sizeof s);
  s.n_jets = 1;
  s.has_system = 1;
  s.pt_min[0] = PT_CUT;
  s.eta_max[0] = ETA_CUT;
  s.mass[3] = s.mass[4] = M_TOP;
  s.m_min = 2.0 * M_TOP;
  s.m_max = SQRT_S;
  s.kind[0] = HG_GEN_CHANNEL_MASS;
  s.n_channels = 1;
  s.shat_min = (PT_CUT + 2.0 * M_TOP) * (PT_CUT + 2.0 * M_TOP);
  const double c2 = PT_CUT * PT_CUT, m2 = M_TOP * M_TOP;
  const int o1[3] = {2, 3, 4}, o2[3] = {3, 2, 4}, o3[3] = {3, 4, 2};
  add_chain(&s, o1, (const double[]){c2, m2}, (const double[]){0.0, 0.0});
  add_chain(&s, o2, (const double[]){m2, m2}, (const double[]){0.0, 0.0});
  add_chain(&s, o3, (const double[]){m2, c2}, (const double[]){0.0, 0.0});
  return s;
}

static hg_gen_point make(const setup *s, int c, const double *u) {
  if (s->kind[c] == HG_GEN_CHANNEL_CHAIN)
    return hg_gen_chain_point(u, s->n_jets + 2 * s->has_system, SQRT_S, s->mass, s->chain[c],
                              s->shat_min);
  const int balance = s->kind[c] == HG_GEN_CHANNEL_BALANCE ? (int)s->a[c] : s->n_jets - 1;
  return hg_gen_make_point(u, s->n_jets, s->has_system, SQRT_S, s->pt_min, s->eta_max, s->mass[3],
                           s->mass[4], s->m_min, s->m_max, balance,
                           s->kind[c] == HG_GEN_CHANNEL_MASS ? s->a[c] : 0.0,
                           s->kind[c] == HG_GEN_CHANNEL_MASS ? s->b[c] : 0.0);
}

static double density(const setup *s, int c, const hg_gen_point *pt) {
  return hg_gen_channel_density(pt, s->kind[c], s->a[c], s->b[c], s->chain[c], s->n_jets,
                                s->has_system, SQRT_S, s->pt_min, s->eta_max, s->m_min, s->m_max,
                                s->mass, s->shat_min);
}

/* inside every object's pT and eta cuts */
static int inside_cuts(const setup *s, const hg_gen_point *pt) {
  for (int j = 0; j < s->n_jets; ++j) {
    const double *p = pt->p[2 + j];
    const double pt_j = sqrt(p[1] * p[1] + p[2] * p[2]);
    if (!(pt_j >= s->pt_min[j]) || fabs(asinh(p[3] / pt_j)) > s->eta_max[j]) return 0;
  }
  return 1;
}

static void chains_conserve_momentum_and_invert_their_densities(void **state) {
  (void)state;
  const setup setups[2] = {three_jets(), top_pair_jet()};
  uint64_t rng = 71;
  for (int k = 0; k < 2; ++k) {
    const setup *s = &setups[k];
    const int n = s->n_jets + 2 * s->has_system, dims = 3 * n - 2;
    for (int c = 0; c < s->n_channels; ++c)
      for (int trial = 0; trial < 2000; ++trial) {
        double u[3 * HG_GEN_MAX_EXTERNAL];
        for (int j = 0; j < dims; ++j) u[j] = ts_uniform(&rng);
        const hg_gen_point pt = make(s, c, u);
        if (!pt.physical || pt.weight == 0.0) continue;
        double total[4] = {pt.p[0][0] + pt.p[1][0], 0.0, 0.0, pt.p[0][3] + pt.p[1][3]};
        for (int i = 2; i < n + 2; ++i) {
          for (int m = 0; m < 4; ++m) total[m] -= pt.p[i][m];
          const double m2 = hg_gen_minkowski(pt.p[i], pt.p[i]);
          if (fabs(m2 - s->mass[i] * s->mass[i]) > 1e-6 * pt.p[i][0] * pt.p[i][0])
            fail_msg("setup %d channel %d: particle %d has m^2 %.9g, not %.9g", k, c, i, m2,
                     s->mass[i] * s->mass[i]);
        }
        for (int m = 0; m < 4; ++m)
          if (fabs(total[m]) > 1e-9 * pt.p[0][0])
            fail_msg("setup %d channel %d: momentum not conserved (%d: %.3g)", k, c, m, total[m]);
        /* a balance or mass map's physical point meets the objects' cuts */
        if (s->kind[c] != HG_GEN_CHANNEL_CHAIN && !inside_cuts(s, &pt)) continue;
        const double g = density(s, c, &pt);
        if (fabs(g * pt.weight - 1.0) > 1e-8)
          fail_msg("setup %d channel %d: weight %.12g, 1 / density %.12g", k, c, pt.weight,
                   1.0 / g);
      }
  }
}

static void massless_chains_weigh_the_n_body_volume(void **state) {
  (void)state;
  /* Phi_n = (pi/2)^(n-1) shat^(n-2) / ((n-1)! (n-2)!) times (2 pi)^(4-3n); the tau and y
   * Jacobians divided out, the weight over shat^(n-2) averages to that constant */
  for (int n = 3; n <= 4; ++n) {
    setup s = three_jets();
    s.n_jets = n;
    const double c2 = PT_CUT * PT_CUT, t0[3] = {c2, 4.0 * c2, c2}, s0[3] = {0.0, c2, 0.5 * c2};
    const int orders[2][4] = {{3, 2, 4}, {5, 2, 4, 3}};
    s.n_channels = 0;
    add_chain(&s, orders[n - 3], t0, s0);
    double fact = 1.0, expected = 1.0;
    for (int i = 2; i < n; ++i) fact *= i;
    for (int i = 0; i < n - 1; ++i) expected *= HG_GEN_PI / 2.0;
    expected /= fact * (fact / (n - 1));
    for (int i = 0; i < 3 * n - 4; ++i) expected /= 2.0 * HG_GEN_PI;
    uint64_t rng = 5 + (uint64_t)n;
    const int points = 1000000;
    double sum = 0.0, sum2 = 0.0;
    for (int e = 0; e < points; ++e) {
      double u[3 * HG_GEN_MAX_EXTERNAL];
      for (int j = 0; j < 3 * n - 2; ++j) u[j] = ts_uniform(&rng);
      const hg_gen_point pt = make(&s, 0, u);
      const double tau = pt.x1 * pt.x2, log_tau_min = log(s.shat_min / (SQRT_S * SQRT_S));
      const double v = pt.weight / (tau * -log_tau_min * -log(tau) * pow(pt.shat, n - 2));
      sum += v;
      sum2 += v * v;
    }
    const double mean = sum / points, error = sqrt((sum2 / points - mean * mean) / points);
    printf("# n = %d: chain volume %.6e +- %.1e, closed form %.6e (pull %.2f)\n", n, mean,
                  error, expected, (mean - expected) / error);
    if (fabs(mean - expected) > 4.0 * error || error > 0.02 * expected)
      fail_msg("n = %d: the chain's volume %.6e +- %.1e is not Phi_n's %.6e", n, mean, error,
               expected);
  }
}

/* For channels c and d, int g_c g_d / (g_c + g_d) two ways: over c's points of g_d / (g_c + g_d)
 * and over d's points of g_c / (g_c + g_d) (bounded, so the estimates are tame); a density off
 * by a factor anywhere splits them. Points with a density 0 count 0. */
static double overlap(const setup *s, int c, int d, int dims, int points, uint64_t seed,
                      double *error) {
  uint64_t rng = seed;
  double sum = 0.0, sum2 = 0.0;
  for (int e = 0; e < points; ++e) {
    double u[3 * HG_GEN_MAX_EXTERNAL];
    for (int j = 0; j < dims; ++j) u[j] = ts_uniform(&rng);
    const hg_gen_point pt = make(s, c, u);
    const double gc = pt.physical ? density(s, c, &pt) : 0.0;
    const double gd = gc > 0.0 ? density(s, d, &pt) : 0.0;
    const double v = gc > 0.0 ? gd / (gc + gd) : 0.0;
    sum += v;
    sum2 += v * v;
  }
  const double mean = sum / points;
  *error = sqrt((sum2 / points - mean * mean) / points);
  return mean;
}

static void densities_agree_between_channels(void **state) {
  (void)state;
  const setup setups[2] = {three_jets(), top_pair_jet()};
  const int points = 40000;
  for (int k = 0; k < 2; ++k) {
    const setup *s = &setups[k];
    const int dims = 3 * (s->n_jets + 2 * s->has_system) - 2;
    for (int c = 0; c < s->n_channels; ++c)
      for (int d = c + 1; d < s->n_channels; ++d) {
        double e1, e2;
        const double m1 = overlap(s, c, d, dims, points, 100 * (uint64_t)k + 10 * (uint64_t)c, &e1);
        const double m2 =
            overlap(s, d, c, dims, points, 100 * (uint64_t)k + 10 * (uint64_t)d + 1, &e2);
        const double pull = (m1 - m2) / sqrt(e1 * e1 + e2 * e2);
        printf("# setup %d, channels %d and %d: %.5f +- %.5f and %.5f +- %.5f (pull %.2f)\n",
                      k, c, d, m1, e1, m2, e2, pull);
        if (fabs(pull) > 5.0 || !(m1 > 0.01))
          fail_msg("setup %d: int g_%d g_%d / (g_%d + g_%d) is %.5f +- %.5f over channel %d's "
                   "points, %.5f +- %.5f over channel %d's",
                   k, c, d, c, d, m1, e1, c, m2, e2, d);
      }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(chains_conserve_momentum_and_invert_their_densities),
      cmocka_unit_test(massless_chains_weigh_the_n_body_volume),
      cmocka_unit_test(densities_agree_between_channels),
  };
  return cmocka_run_group_tests_name("chain_densities", tests, NULL, NULL);
}
