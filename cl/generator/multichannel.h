/* SPDX-License-Identifier: MIT */
/* The multichannel phase space of a process group (CONVENTIONS.md, "Phase space of a process"):
 * its channels as table data, the channel each event draws, and the densities of every channel
 * at a point, which give the multichannel weight 1 / sum_c alpha_c g_c. Plain C for the host and
 * the devices: every channel's density is computed for every point, values and selects. */
#ifndef HG_GENERATOR_MULTICHANNEL_H
#define HG_GENERATOR_MULTICHANNEL_H

#include "generator/phase_space.h"
#include "generator/tchannel.h"
#include "shared/portable.h"

/* Kinds of channel. A group's channels are all of one kind: without a system, which object
 * balances (a: its index among the objects); with one, how the system's mass is sampled
 * (a, b: the Breit-Wigner's mass and width in GeV; b <= 0: log-uniform in m^2). */
#define HG_GEN_CHANNEL_BALANCE 0
#define HG_GEN_CHANNEL_MASS 1
/* A t-channel chain (generator/tchannel.h): its record follows the channels' kinds in the
 * sampler's parameters. A group may add chain channels to its balance or mass ones. */
#define HG_GEN_CHANNEL_CHAIN 2

/* The most channels a group has: one per object, or one per resonance plus the log map. */
#define HG_GEN_MAX_CHANNELS 8 /* = HEGETCL_PROCESS_MAX_PS_CHANNELS */

/* d^3k / (2E) per unit of the unit cube for an object sampled at (pT, eta): 0.5 pT^3 (1/pt_min -
 * 2/sqrt_s) (2 eta_range) 2 pi, as hg_gen_make_point's factor. */
HG_INLINE double hg_gen_object_factor(double pt, double pt_min, double eta_max, double sqrt_s) {
  const double inv_span = 1.0 / pt_min - 2.0 / sqrt_s;
  const double eta_range = eta_max > 0.0 ? eta_max : log(sqrt_s / pt);
  return 0.5 * pt * pt * pt * inv_span * (2.0 * eta_range) * 2.0 * HG_GEN_PI;
}

/* The density in m^2 of a mass channel (hg_gen_mass2's map) at m2: 1 / (m^2 ln(m_max^2/m_min^2))
 * or M Gamma / (((m^2 - M^2)^2 + M^2 Gamma^2) (theta_max - theta_min)). */
HG_INLINE double hg_gen_mass_density(double m2, double m_min, double m_max, double bw_mass,
                                     double bw_width) {
  const double m2_min = m_min * m_min, m2_max = m_max * m_max;
  const double span = log(m2_max / (m2_min > 0.0 ? m2_min : m2_max));
  const double mg = bw_width > 0.0 ? bw_mass * bw_width : 1.0, mm = bw_mass * bw_mass;
  const double t_min = atan((m2_min - mm) / mg), t_max = atan((m2_max - mm) / mg);
  const double d = m2 - mm;
  return bw_width > 0.0 ? mg / ((d * d + mg * mg) * (t_max - t_min)) : 1.0 / (m2 * span);
}

/* The multichannel weight of a point the map made with channel weights alpha[0 .. n) of kind
 * `kind` (entries a[c], b[c]): for balance channels 1 / sum_c alpha_c / w_c(point), w_c the
 * weight channel c's map gives the point (the same momenta from u of that channel); for mass
 * channels the point's weight with its own mass Jacobian replaced by 1 / sum_c alpha_c g_c(m^2).
 * Objects sit at p[2 .. 1 + n_jets]. */
HG_INLINE double hg_gen_multichannel_weight(const hg_gen_point *pt, int n, int kind,
                                            const double *alpha, const double *a, const double *b,
                                            int n_jets, double sqrt_s, const double *pt_min,
                                            const double *eta_max, double m_min, double m_max) {
  double sum = 0.0;
  if (kind == HG_GEN_CHANNEL_MASS) {
    for (int c = 0; c < n; ++c)
      sum += alpha[c] * hg_gen_mass_density(pt->m2, m_min, m_max, a[c], b[c]);
    return pt->weight / pt->mass_jacobian / sum;
  }
  /* w_c = K prod_{j != c} F_j y_c with K = (2 pi)^(4 - 3 n) 2 / s and y_c = ln(sqrt_s / pT_c)
   * the balancing rapidity's range: 1 / sum_c alpha_c / w_c = K prod_j F_j / sum_c alpha_c F_c /
   * y_c */
  const double two_pi = 2.0 * HG_GEN_PI;
  double k = two_pi * two_pi * two_pi * two_pi * 2.0 / (sqrt_s * sqrt_s), product = 1.0;
  double f[HG_GEN_MAX_EXTERNAL], y[HG_GEN_MAX_EXTERNAL];
  for (int j = 0; j < n_jets; ++j) {
    k /= two_pi * two_pi * two_pi;
    const double *p = pt->p[2 + j];
    const double pt_j = sqrt(p[1] * p[1] + p[2] * p[2]);
    f[j] = hg_gen_object_factor(pt_j, pt_min[j], eta_max[j], sqrt_s);
    y[j] = log(sqrt_s / pt_j);
    product *= f[j];
  }
  for (int c = 0; c < n; ++c) {
    const int j = (int)a[c];
    sum += alpha[c] * f[j] / y[j];
  }
  return k * product / sum;
}

/* The density in the unit cube of one channel's map at any point pt (0 outside the map's
 * region): a balance or mass channel (a, b as above) from the point's objects' pT and eta and its
 * system's mass, transverse momentum and decay momentum; a chain from `chain`
 * (hg_gen_chain_density). mass[slot]: each particle's mass in the sampler's order. */
HG_INLINE double hg_gen_channel_density(const hg_gen_point *pt, int kind, double a, double b,
                                        HG_GLOBAL const double *chain, int n_jets, int has_system,
                                        double sqrt_s, const double *pt_min, const double *eta_max,
                                        double m_min, double m_max, const double *mass,
                                        double shat_min) {
  const double two_pi = 2.0 * HG_GEN_PI;
  const int n_final = n_jets + (has_system ? 2 : 0);
  double w = two_pi * two_pi * two_pi * two_pi * 2.0 / (sqrt_s * sqrt_s);
  for (int k = 0; k < n_final; ++k) w /= two_pi * two_pi * two_pi;
  int inside = 1;
  for (int j = 0; j < n_jets; ++j) {
    const double *p = pt->p[2 + j];
    const double pt_j = sqrt(p[1] * p[1] + p[2] * p[2]);
    const double eta = asinh(p[3] / pt_j);
    inside = inside && pt_j >= pt_min[j] && (eta_max[j] <= 0.0 || fabs(eta) <= eta_max[j]);
    const int balances = kind == HG_GEN_CHANNEL_BALANCE && j == (int)a;
    w *= balances ? log(sqrt_s / pt_j) : hg_gen_object_factor(pt_j, pt_min[j], eta_max[j], sqrt_s);
  }
  double g_mass = 1.0;
  if (has_system) {
    const double *pa = pt->p[2 + n_jets], *pb = pt->p[3 + n_jets];
    const double q[4] = {pa[0] + pb[0], pa[1] + pb[1], pa[2] + pb[2], pa[3] + pb[3]};
    const double m2 = hg_gen_minkowski(q, q), qt2 = q[1] * q[1] + q[2] * q[2];
    const double m = sqrt(fmax(m2, 0.0)),
                 p_star = hg_gen_two_body_momentum(m2, mass[2 + n_jets], mass[3 + n_jets]);
    inside = inside && m >= m_min && m <= m_max;
    w *= log(sqrt_s / sqrt(m2 + qt2)) * p_star / (4.0 * m) * 4.0 * HG_GEN_PI;
    g_mass = hg_gen_mass_density(m2, m_min, m_max, a, b);
  }
  const double collider = inside && w > 0.0 ? g_mass / w : 0.0;
  const double chained = kind == HG_GEN_CHANNEL_CHAIN
                             ? hg_gen_chain_density(pt, n_final, sqrt_s, mass, chain, shat_min)
                             : 0.0;
  return kind == HG_GEN_CHANNEL_CHAIN ? chained : collider;
}

#endif
