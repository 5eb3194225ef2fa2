/* SPDX-License-Identifier: MIT */
/* The t-channel chain map of a process's phase space (CONVENTIONS.md, "Phase space of a
 * process"): the final-state particles emitted one after another along a spacelike line from
 * the parton of beam 1 to the parton of beam 2. tau = x1 x2 log-uniform above the cuts' least
 * shat, the pair's rapidity uniform; in the partonic frame the invariant masses s_i of the
 * emissions i .. n-1 (1 <= i <= n - 2) log-uniform in s_i + s0_i, each propagator's t_i =
 * (q_i - k_i)^2 log-uniform in -t_i + t0_i (the massless exchange's 1/(-t) with a cut-off, or a
 * massive one's 1/(m^2 - t)), the azimuths uniform. Plain C for the host and the devices; the
 * density of any point (hg_gen_chain_density) from its invariants alone, as the generation. */
#ifndef HG_GENERATOR_TCHANNEL_H
#define HG_GENERATOR_TCHANNEL_H

#include "generator/phase_space.h"
#include "shared/portable.h"

/* A chain channel's record in the sampler's parameters (HG_GEN_CHAIN_STRIDE doubles): for the
 * i-th emission (i < n) its slot in the sampler's order, for propagator i (i < n - 1, between
 * emissions i and i + 1) its t0 (GeV^2, > 0), for the system of emissions i .. n - 1 (1 <= i <=
 * n - 2) its s0 (GeV^2; > 0 when the system can be massless). */
#define HG_GEN_CHAIN_ORDER 0
#define HG_GEN_CHAIN_T0 HG_GEN_MAX_EXTERNAL
#define HG_GEN_CHAIN_S0 (2 * HG_GEN_MAX_EXTERNAL)
#define HG_GEN_CHAIN_STRIDE (3 * HG_GEN_MAX_EXTERNAL)

HG_INLINE double hg_gen_minkowski(const double *a, const double *b) {
  return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

/* x in [lo, hi] with x + x0 log-uniform (lo + x0 > 0) and dx/du */
HG_INLINE double hg_gen_shifted_log(double u, double lo, double hi, double x0, double *jacobian) {
  const double a = lo + x0, span = log((hi + x0) / a);
  const double v = a * exp(u * span);
  *jacobian = v * span;
  return v - x0;
}

/* The range of t = (q - k)^2 in the rest frame of Q = q + p_b (Q^2 = s, p_b massless, q^2 = q2,
 * k^2 = mk2, (Q - k)^2 = s_next): t_lo, t_hi, and the constant c0 and slope 2 |q*||k*| of t in
 * cos theta. */
HG_INLINE void hg_gen_t_range(double s, double q2, double mk2, double s_next, double *c0,
                              double *slope) {
  const double rs = sqrt(s);
  const double eq = (s + q2) / (2.0 * rs), pq = fabs(s - q2) / (2.0 * rs);
  const double ek = (s + mk2 - s_next) / (2.0 * rs);
  const double l = (s - mk2 - s_next) * (s - mk2 - s_next) - 4.0 * mk2 * s_next;
  const double pk = sqrt(l > 0.0 ? l : 0.0) / (2.0 * rs);
  *c0 = q2 + mk2 - 2.0 * eq * ek;
  *slope = 2.0 * pq * pk;
}

/* p boosted from the rest frame of Q (mass m) to the frame where Q is Q (sign 1), or into Q's
 * rest frame (sign -1) */
HG_INLINE void hg_gen_boost(const double *p, const double *q, double m, double sign, double *out) {
  const double kq = sign * (p[1] * q[1] + p[2] * q[2] + p[3] * q[3]);
  const double e = (p[0] * q[0] + kq) / m;
  const double c = (kq / (q[0] + m) + p[0]) / m;
  out[0] = e;
  for (int i = 1; i < 4; ++i) out[i] = p[i] + sign * c * q[i];
}

/* Dimensions: 3 n - 2, as hg_gen_dims, laid out as the balance map's (3 per object, then the
 * balancing rapidity) so that the VEGAS grid the channels share means a little more alike for
 * both: for propagator i (i < n - 1), u[3 i] its t, u[3 i + 1] tau (i = 0) or s_i, u[3 i + 2]
 * its azimuth; the last, u[3 n - 3], the pair's rapidity. */
/* The point of u[0 .. 3 n - 2) for the chain `chain` (record above) of n final-state particles
 * of masses mass[slot] (slots 2 .. n + 1 of the sampler's order); tau from shat_min / s. */
HG_INLINE hg_gen_point hg_gen_chain_point(const double *u, int n, double sqrt_s, const double *mass,
                                          HG_GLOBAL const double *chain, double shat_min) {
  hg_gen_point pt;
  const double two_pi = 2.0 * HG_GEN_PI, s = sqrt_s * sqrt_s;
  double weight = two_pi * two_pi * two_pi * two_pi;
  for (int k = 0; k < n; ++k) weight /= two_pi * two_pi * two_pi;
  const double log_tau_min = log(shat_min / s);
  const double log_tau = log_tau_min * (1.0 - u[1]);
  const double y = -0.5 * log_tau * (2.0 * u[3 * n - 3] - 1.0);
  /* dx1 dx2 = dtau dy */
  weight *= exp(log_tau) * -log_tau_min * -log_tau;
  pt.x1 = exp(0.5 * log_tau + y);
  pt.x2 = exp(0.5 * log_tau - y);
  const double shat = exp(log_tau) * s, rs = sqrt(shat);
  double m[HG_GEN_MAX_EXTERNAL], msum[HG_GEN_MAX_EXTERNAL + 1];
  msum[n] = 0.0;
  for (int i = n - 1; i >= 0; --i) {
    m[i] = mass[(int)chain[HG_GEN_CHAIN_ORDER + i]];
    msum[i] = msum[i + 1] + m[i];
  }
  double q[4] = {0.5 * rs, 0.0, 0.0, 0.5 * rs}, big[4] = {rs, 0.0, 0.0, 0.0};
  const double pb[4] = {0.5 * rs, 0.0, 0.0, -0.5 * rs};
  double s_i = shat, q2 = 0.0;
  int physical = 1;
  for (int i = 0; i < n - 1; ++i) {
    const double mk2 = m[i] * m[i];
    double s_next = m[n - 1] * m[n - 1], jacobian = 1.0;
    if (i + 1 < n - 1) {
      const double hi = sqrt(s_i) - m[i], lo = msum[i + 1] * msum[i + 1];
      s_next =
          hg_gen_shifted_log(u[3 * i + 4], lo, hi * hi, chain[HG_GEN_CHAIN_S0 + i + 1], &jacobian);
    }
    double c0, slope;
    hg_gen_t_range(s_i, q2, mk2, s_next, &c0, &slope);
    const double t_hi = c0 + slope, t_lo = c0 - slope;
    const double x0 = chain[HG_GEN_CHAIN_T0 + i] + fmax(t_hi, 0.0);
    double jacobian_t;
    const double t = -hg_gen_shifted_log(u[3 * i], -t_hi, -t_lo, x0, &jacobian_t);
    /* dPhi_2 = dt dphi / (4 sqrt(lambda(s, q^2, 0))) and ds */
    weight *= jacobian * jacobian_t * two_pi / (4.0 * fabs(s_i - q2));
    physical = physical && slope > 0.0;
    const double cos_t = fmin(fmax(slope > 0.0 ? (t - c0) / slope : 1.0, -1.0), 1.0);
    const double sin_t = sqrt(fmax(1.0 - cos_t * cos_t, 0.0));
    const double phi = two_pi * u[3 * i + 2];
    /* in Q's rest frame: q* against p_b*, e1 and e2 across it */
    const double mq = sqrt(s_i);
    double b[4];
    hg_gen_boost(pb, big, mq, -1.0, b);
    const double nb = sqrt(b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
    const double e3[3] = {-b[1] / nb, -b[2] / nb, -b[3] / nb};
    const int use_x = fabs(e3[0]) < 0.6;
    const double ax = use_x ? 1.0 : 0.0, ay = use_x ? 0.0 : 1.0;
    const double dot = ax * e3[0] + ay * e3[1];
    double e1[3] = {ax - dot * e3[0], ay - dot * e3[1], -dot * e3[2]};
    const double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int j = 0; j < 3; ++j) e1[j] /= n1;
    const double e2[3] = {e3[1] * e1[2] - e3[2] * e1[1], e3[2] * e1[0] - e3[0] * e1[2],
                          e3[0] * e1[1] - e3[1] * e1[0]};
    const double ek = (s_i + mk2 - s_next) / (2.0 * mq);
    const double pk = sqrt(fmax(ek * ek - mk2, 0.0));
    const double a = pk * sin_t * cos(phi), c = pk * sin_t * sin(phi), d = pk * cos_t;
    const double rest[4] = {ek, a * e1[0] + c * e2[0] + d * e3[0],
                            a * e1[1] + c * e2[1] + d * e3[1], a * e1[2] + c * e2[2] + d * e3[2]};
    double *k = pt.p[(int)chain[HG_GEN_CHAIN_ORDER + i]];
    hg_gen_boost(rest, big, mq, 1.0, k);
    for (int j = 0; j < 4; ++j) {
      q[j] -= k[j];
      big[j] -= k[j];
    }
    s_i = s_next;
    q2 = t;
  }
  double *last = pt.p[(int)chain[HG_GEN_CHAIN_ORDER + n - 1]];
  for (int j = 0; j < 4; ++j) last[j] = big[j];
  /* to the lab: a boost along z by the pair's rapidity */
  const double ch = cosh(y), sh = sinh(y);
  for (int i = 2; i < n + 2; ++i) {
    const double e = pt.p[i][0], pz = pt.p[i][3];
    pt.p[i][0] = e * ch + pz * sh;
    pt.p[i][3] = pz * ch + e * sh;
  }
  hg_gen_set_beams(&pt, sqrt_s, s);
  pt.weight = weight;
  pt.m2 = 0.0;
  pt.mass_jacobian = 1.0;
  pt.physical = physical && pt.x1 < 1.0 && pt.x2 < 1.0;
  return pt;
}

/* The density in the unit cube (1 / the weight hg_gen_chain_point gives) of the chain's map at
 * any point pt of n final-state particles: from x1 x2 and the invariants s_i = (P - k_0 - ..
 * - k_(i-1))^2 and t_i = (p_1 - k_0 - .. - k_i)^2 of the point's momenta; 0 below shat_min. */
HG_INLINE double hg_gen_chain_density(const hg_gen_point *pt, int n, double sqrt_s,
                                      const double *mass, HG_GLOBAL const double *chain,
                                      double shat_min) {
  const double two_pi = 2.0 * HG_GEN_PI, s = sqrt_s * sqrt_s;
  double weight = two_pi * two_pi * two_pi * two_pi;
  for (int k = 0; k < n; ++k) weight /= two_pi * two_pi * two_pi;
  const double tau = pt->x1 * pt->x2, log_tau_min = log(shat_min / s);
  const double log_tau = log(tau);
  weight *= tau * -log_tau_min * -log_tau;
  double q[4], big[4];
  for (int j = 0; j < 4; ++j) {
    q[j] = pt->p[0][j];
    big[j] = pt->p[0][j] + pt->p[1][j];
  }
  double s_i = hg_gen_minkowski(big, big), q2 = 0.0, msum = 0.0;
  for (int i = 0; i < n; ++i) msum += mass[(int)chain[HG_GEN_CHAIN_ORDER + i]];
  for (int i = 0; i < n - 1; ++i) {
    const double *k = pt->p[(int)chain[HG_GEN_CHAIN_ORDER + i]];
    const double mi = mass[(int)chain[HG_GEN_CHAIN_ORDER + i]], mk2 = mi * mi;
    const double m_last = mass[(int)chain[HG_GEN_CHAIN_ORDER + n - 1]];
    msum -= mi;
    for (int j = 0; j < 4; ++j) {
      q[j] -= k[j];
      big[j] -= k[j];
    }
    double s_next = m_last * m_last;
    if (i + 1 < n - 1) {
      s_next = hg_gen_minkowski(big, big);
      const double hi = sqrt(s_i) - mi, lo = msum * msum, x0 = chain[HG_GEN_CHAIN_S0 + i + 1];
      weight *= (s_next + x0) * log((hi * hi + x0) / (lo + x0));
    }
    const double t = hg_gen_minkowski(q, q);
    double c0, slope;
    hg_gen_t_range(s_i, q2, mk2, s_next, &c0, &slope);
    const double t_hi = c0 + slope, t_lo = c0 - slope;
    const double x0 = chain[HG_GEN_CHAIN_T0 + i] + fmax(t_hi, 0.0);
    weight *= (x0 - t) * log((x0 - t_lo) / (x0 - t_hi)) * two_pi / (4.0 * fabs(s_i - q2));
    s_i = s_next;
    q2 = t;
  }
  return tau > shat_min / s && weight > 0.0 ? 1.0 / weight : 0.0;
}

#endif
