/* SPDX-License-Identifier: MIT */
/* The massive HELAS externals (ixxxxx, oxxxxx, vxxxxx), the massive FFV off-shell functions
 * (fvixxx, fvoxxx, jioxxx) and the gluon vertices (vvvxxx, jvvxxx, ggggxx, jgggxx) against the
 * Dirac equation, completeness, polarisation sums, Ward identities and vertex = current . wave
 * (host C, double). Tolerances are relative to the size of the terms that cancel: every check
 * sums O(10) products of double-rounded numbers, so 1e-13 leaves a margin of ~100 over the
 * 1e-15 seen, except where noted. */
#include "helas_test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static const double masses[3] = {0.0, 4.7, 173.0};

/* A random momentum of mass m: |p| up to 500 GeV in a random direction; case 0 along +z, case 1
 * along -z, case 2 at rest (massive only). */
static hg_fourvec momentum_of_mass(uint64_t *random, double m, int variant) {
  const double size = 500 * ht_uniform(random) + 1;
  double dir[3];
  if (variant == 0 || variant == 1) {
    dir[0] = dir[1] = 0;
    dir[2] = variant == 0 ? 1 : -1;
  } else {
    const double cos_theta = 2 * ht_uniform(random) - 1,
                 phi = 6.283185307179586 * ht_uniform(random);
    const double sin_theta = sqrt(1 - cos_theta * cos_theta);
    dir[0] = sin_theta * cos(phi);
    dir[1] = sin_theta * sin(phi);
    dir[2] = cos_theta;
  }
  const double pp = (variant == 2 && m > 0) ? 0 : size;
  return hg_fourvec_make(sqrt(pp * pp + m * m), pp * dir[0], pp * dir[1], pp * dir[2]);
}

static double scale_of(hg_fourvec p, double m) {
  return fabs(p.v[0]) + fabs(p.v[1]) + fabs(p.v[2]) + fabs(p.v[3]) + m;
}

static double spinor_size(hg_wave f) {
  double s = 0;
  for (int i = 0; i < 4; ++i) s = fmax(s, cabs(ht_c(f.w[i])));
  return s;
}

/* (pslash - sign m) u = 0 for a column spinor, u (pslash - sign m) = 0 for a row one. */
static double dirac_residual(hg_fourvec p, double m, double sign, hg_wave f, int row) {
  double complex slash[4][4];
  const double pv[4] = {p.v[0], p.v[1], p.v[2], p.v[3]};
  ht_slash(pv, slash);
  double worst = 0;
  for (int i = 0; i < 4; ++i) {
    double complex r = -sign * m * ht_c(f.w[i]);
    for (int k = 0; k < 4; ++k) r += (row ? slash[k][i] : slash[i][k]) * ht_c(f.w[k]);
    worst = fmax(worst, cabs(r));
  }
  return worst / (scale_of(p, m) * spinor_size(f));
}

static void massive_spinors_solve_the_dirac_equation_for_every_helicity(void **state) {
  (void)state;
  uint64_t random = 0x16001;
  double worst = 0;
  for (int mi = 0; mi < 3; ++mi)
    for (int n = 0; n < 200; ++n) {
      const double m = masses[mi];
      const int variant = n < 3 ? n : 3;
      if (m == 0 && variant == 2) continue;
      const hg_fourvec p = momentum_of_mass(&random, m, variant);
      for (int h = -1; h <= 1; h += 2) {
        /* u: (pslash - m) u = 0; v: (pslash + m) v = 0; ubar, vbar from the right */
        const double r[4] = {dirac_residual(p, m, 1, ixxxxx(p, m, h, 1), 0),
                             dirac_residual(p, m, -1, ixxxxx(p, m, h, -1), 0),
                             dirac_residual(p, m, 1, oxxxxx(p, m, h, 1), 1),
                             dirac_residual(p, m, -1, oxxxxx(p, m, h, -1), 1)};
        static const char *const names[4] = {"u", "v", "ubar", "vbar"};
        for (int k = 0; k < 4; ++k) {
          if (!(r[k] <= 1e-13))
            fail_msg("%s for m = %g, p = (%g, %g, %g, %g), nhel = %d: Dirac residual %.3g",
                     names[k], m, p.v[0], p.v[1], p.v[2], p.v[3], h, r[k]);
          worst = fmax(worst, r[k]);
        }
      }
    }
  print_message("# worst Dirac residual / (|p| + m) |spinor|: %.2e\n", worst);
}

/* Sigma.n f for Sigma = diag(sigma, sigma) (chiral basis), n a unit vector; row: f Sigma.n. */
static double helicity_residual(const double n[3], double nh, hg_wave f, int row) {
  double complex s[2][2];
  s[0][0] = n[2];
  s[0][1] = n[0] - I * n[1];
  s[1][0] = n[0] + I * n[1];
  s[1][1] = -n[2];
  double worst = 0;
  for (int block = 0; block < 2; ++block)
    for (int i = 0; i < 2; ++i) {
      double complex r = -nh * ht_c(f.w[2 * block + i]);
      for (int k = 0; k < 2; ++k) r += (row ? s[k][i] : s[i][k]) * ht_c(f.w[2 * block + k]);
      worst = fmax(worst, cabs(r));
    }
  return worst / spinor_size(f);
}

/* Sigma.p-hat u = nhel nsf u (so a v spinor of helicity nhel has Sigma.p-hat eigenvalue -nhel),
 * the same from the right for ubar, vbar; at rest the spin is along +z (the p -> 0 limit along +z).
 */
static void massive_spinors_are_helicity_eigenstates(void **state) {
  (void)state;
  uint64_t random = 0x1600b;
  double worst = 0;
  for (int mi = 1; mi < 3; ++mi)
    for (int n = 0; n < 200; ++n) {
      const double m = masses[mi];
      const hg_fourvec p = momentum_of_mass(&random, m, n < 3 ? n : 3);
      const double pp = sqrt(p.v[1] * p.v[1] + p.v[2] * p.v[2] + p.v[3] * p.v[3]);
      const double dir[3] = {pp > 0 ? p.v[1] / pp : 0, pp > 0 ? p.v[2] / pp : 0,
                             pp > 0 ? p.v[3] / pp : 1};
      for (int h = -1; h <= 1; h += 2)
        for (int nsf = -1; nsf <= 1; nsf += 2) {
          const double r[2] = {helicity_residual(dir, h * nsf, ixxxxx(p, m, h, nsf), 0),
                               helicity_residual(dir, h * nsf, oxxxxx(p, m, h, nsf), 1)};
          for (int k = 0; k < 2; ++k) {
            if (!(r[k] <= 1e-13))
              fail_msg("%s, m = %g, p = (%g, %g, %g, %g), nhel = %d, nsf = %d: helicity residual "
                       "%.3g",
                       k ? "oxxxxx" : "ixxxxx", m, p.v[0], p.v[1], p.v[2], p.v[3], h, nsf, r[k]);
            worst = fmax(worst, r[k]);
          }
        }
    }
  print_message("# worst |Sigma.p-hat f - nh f| / |f|: %.2e\n", worst);
}

/* sum_h u ubar = pslash + m, sum_h v vbar = pslash - m (entrywise). */
static void spinor_sums_over_helicity_give_pslash_plus_or_minus_m(void **state) {
  (void)state;
  uint64_t random = 0x16002;
  double worst = 0;
  for (int mi = 0; mi < 3; ++mi)
    for (int n = 0; n < 100; ++n) {
      const double m = masses[mi];
      const int variant = n < 3 ? n : 3;
      if (m == 0 && variant == 2) continue;
      const hg_fourvec p = momentum_of_mass(&random, m, variant);
      const double pv[4] = {p.v[0], p.v[1], p.v[2], p.v[3]};
      double complex slash[4][4];
      ht_slash(pv, slash);
      for (int nsf = -1; nsf <= 1; nsf += 2) {
        double complex sum[4][4] = {{0}};
        for (int h = -1; h <= 1; h += 2) {
          const hg_wave a = ixxxxx(p, m, h, nsf), b = oxxxxx(p, m, h, nsf);
          for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) sum[r][c] += ht_c(a.w[r]) * ht_c(b.w[c]);
        }
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c) {
            const double complex expected = slash[r][c] + (r == c ? nsf * m : 0);
            const double deviation = cabs(sum[r][c] - expected) / scale_of(p, m);
            if (!(deviation <= 1e-13))
              fail_msg("nsf = %d, m = %g, p = (%g, %g, %g, %g): entry (%d, %d) of the sum is "
                       "%.17g%+.17gi, pslash %+d m gives %.17g%+.17gi",
                       nsf, m, p.v[0], p.v[1], p.v[2], p.v[3], r, c, creal(sum[r][c]),
                       cimag(sum[r][c]), nsf, creal(expected), cimag(expected));
            worst = fmax(worst, deviation);
          }
      }
    }
  print_message("# worst |sum_h u ubar - (pslash +- m)| / (|p| + m): %.2e\n", worst);
}

/* eps.p = 0, eps.eps* = -1, sum_{h=-1,0,1} eps^mu eps^nu* = -g^{mu nu} + p^mu p^nu / m^2. */
static void massive_polarisations_are_transverse_normalised_and_complete(void **state) {
  (void)state;
  uint64_t random = 0x16003;
  static const double vmasses[2] = {80.4, 91.19};
  double worst = 0;
  for (int mi = 0; mi < 2; ++mi)
    for (int n = 0; n < 200; ++n) {
      const double m = vmasses[mi];
      const hg_fourvec p = momentum_of_mass(&random, m, n < 3 ? n : 3);
      const double scale = scale_of(p, m) / m; /* the size of the longitudinal components */
      for (int nsv = -1; nsv <= 1; nsv += 2) {
        double complex sum[4][4] = {{0}};
        for (int h = -1; h <= 1; ++h) {
          const hg_wave e = vxxxxx(p, m, h, nsv);
          double complex ep = 0, ee = 0;
          for (int mu = 0; mu < 4; ++mu) {
            const double g = mu == 0 ? 1 : -1;
            ep += g * ht_c(e.w[mu]) * p.v[mu];
            ee += g * ht_c(e.w[mu]) * conj(ht_c(e.w[mu]));
          }
          const double d1 = cabs(ep) / (scale * scale_of(p, m)),
                       d2 = cabs(ee + 1) / (scale * scale);
          if (!(d1 <= 1e-13) || !(d2 <= 1e-13))
            fail_msg("m = %g, p = (%g, %g, %g, %g), nhel = %d, nsv = %d: eps.p = %.3g%+.3gi, "
                     "eps.eps* = %.17g%+.3gi",
                     m, p.v[0], p.v[1], p.v[2], p.v[3], h, nsv, creal(ep), cimag(ep), creal(ee),
                     cimag(ee));
          worst = fmax(worst, fmax(d1, d2));
          for (int mu = 0; mu < 4; ++mu)
            for (int nu = 0; nu < 4; ++nu) sum[mu][nu] += ht_c(e.w[mu]) * conj(ht_c(e.w[nu]));
        }
        for (int mu = 0; mu < 4; ++mu)
          for (int nu = 0; nu < 4; ++nu) {
            const double g = mu != nu ? 0 : (mu == 0 ? 1 : -1);
            const double expected = -g + p.v[mu] * p.v[nu] / (m * m);
            const double deviation = cabs(sum[mu][nu] - expected) / (scale * scale);
            if (!(deviation <= 1e-13))
              fail_msg("m = %g, p = (%g, %g, %g, %g), nsv = %d: sum eps^%d eps*^%d = %.17g%+.3gi, "
                       "-g + p p / m^2 = %.17g",
                       m, p.v[0], p.v[1], p.v[2], p.v[3], nsv, mu, nu, creal(sum[mu][nu]),
                       cimag(sum[mu][nu]), expected);
            worst = fmax(worst, deviation);
          }
      }
    }
  print_message("# worst polarisation deviation (relative to (|p| + m)^2 / m^2): %.2e\n", worst);
}

static int same_wave(hg_wave a, hg_wave b) {
  for (int i = 0; i < 6; ++i)
    if (a.w[i].re != b.w[i].re || a.w[i].im != b.w[i].im) return 0;
  return 1;
}

/* Mass 0: ixxxxx, oxxxxx, vxxxxx are ixxxx0, oxxxx0, vxxxx0 bit for bit. */
static void massless_calls_equal_the_massless_functions_exactly(void **state) {
  (void)state;
  uint64_t random = 0x16004;
  for (int n = 0; n < 200; ++n) {
    const hg_fourvec p = momentum_of_mass(&random, 0, 3);
    for (int h = -1; h <= 1; h += 2)
      for (int ns = -1; ns <= 1; ns += 2) {
        assert_true(same_wave(ixxxxx(p, 0, h, ns), ixxxx0(p, h, ns)));
        assert_true(same_wave(oxxxxx(p, 0, h, ns), oxxxx0(p, h, ns)));
        assert_true(same_wave(vxxxxx(p, 0, h, ns), vxxxx0(p, h, ns)));
      }
  }
}

static double symmetric(uint64_t *random) { return 2 * ht_uniform(random) - 1; }

/* A wave with random components of size up to `size` and random slot momentum up to 100. */
static hg_wave random_wave(uint64_t *random, double size) {
  hg_wave w;
  for (int i = 0; i < 4; ++i) w.w[i] = hg_cmplx(size * symmetric(random), size * symmetric(random));
  for (int i = 4; i < 6; ++i) w.w[i] = hg_cmplx(100 * symmetric(random), 100 * symmetric(random));
  return w;
}

static hg_coupling random_coupling(uint64_t *random) {
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(0.5 * symmetric(random), 0.5 * symmetric(random));
  gc.gal[1] = hg_cmplx(0.5 * symmetric(random), 0.5 * symmetric(random));
  return gc;
}

static void set_slots(hg_wave *w, hg_fourvec p) {
  w->w[4] = hg_cmplx(p.v[0], p.v[3]);
  w->w[5] = hg_cmplx(p.v[1], p.v[2]);
}

static double wave_deviation(hg_wave a, hg_wave b) {
  double d = 0, s = 0;
  for (int i = 0; i < 6; ++i) {
    d = fmax(d, cabs(ht_c(a.w[i]) - ht_c(b.w[i])));
    s = fmax(s, cabs(ht_c(b.w[i])));
  }
  return d / s;
}

/* fvixxx, fvoxxx with m = 0 are fvixx0, fvoxx0; jioxxx with M = 0 is jioxx0 with its slots
 * negated (HELAS: fo - fi; jioxx0: fi - fo), to rounding (1e-15 relative). */
static void massless_off_shell_functions_reduce_to_the_massless_set(void **state) {
  (void)state;
  uint64_t random = 0x16005;
  double worst = 0;
  for (int n = 0; n < 500; ++n) {
    const hg_wave fi = random_wave(&random, 10), fo = random_wave(&random, 10);
    const hg_wave vc = random_wave(&random, 1);
    const hg_coupling gc = random_coupling(&random);
    hg_wave j0 = jioxx0(fi, fo, gc);
    j0.w[4] = hg_cneg(j0.w[4]);
    j0.w[5] = hg_cneg(j0.w[5]);
    const double d[3] = {wave_deviation(fvixxx(fi, vc, gc, 0, 0), fvixx0(fi, vc, gc)),
                         wave_deviation(fvoxxx(fo, vc, gc, 0, 0), fvoxx0(fo, vc, gc)),
                         wave_deviation(jioxxx(fi, fo, gc, 0, 0), j0)};
    for (int k = 0; k < 3; ++k) {
      if (!(d[k] <= 1e-14)) fail_msg("case %d: function %d deviates by %.3g", n, k, d[k]);
      worst = fmax(worst, d[k]);
    }
  }
  print_message("# worst deviation from the massless functions: %.2e\n", worst);
}

static double complex wave_dot(hg_wave a, hg_wave b) {
  double complex s = 0;
  for (int mu = 0; mu < 4; ++mu) s += (mu == 0 ? 1 : -1) * ht_c(a.w[mu]) * ht_c(b.w[mu]);
  return s;
}

static double wave_size(hg_wave a) {
  double s = 0;
  for (int mu = 0; mu < 4; ++mu) s += cabs(ht_c(a.w[mu]));
  return s;
}

/* A wave whose vector components are its own slot momentum p (the replacement eps -> p). */
static hg_wave momentum_as_wave(hg_fourvec p) {
  hg_wave w;
  for (int mu = 0; mu < 4; ++mu) w.w[mu] = hg_cmplx(p.v[mu], 0);
  set_slots(&w, p);
  return w;
}

/* w minus q (q.w)/q^2: a random vector with q.w = 0, its slots set to q. */
static hg_wave transverse_to(uint64_t *random, hg_fourvec q) {
  hg_wave w = random_wave(random, 1);
  const hg_wave qw = momentum_as_wave(q);
  const double complex c = wave_dot(qw, w) / hg_minkowski(q, q);
  for (int mu = 0; mu < 4; ++mu) {
    const double complex x = ht_c(w.w[mu]) - c * q.v[mu];
    w.w[mu] = hg_cmplx(creal(x), cimag(x));
  }
  set_slots(&w, q);
  return w;
}

/* Two on-shell massless gluons 2, 3 (vxxxx0, transverse), leg 1 with slot momentum -(P2 + P3)
 * and its polarisation replaced by that momentum: vvvxxx = 0, relative to g |P|^2 |eps|^2. The
 * current jvvxxx(e2, e3) contracted with its q = -(P2 + P3) vanishes relative to |j| |q|. */
static void triple_gluon_vertex_and_current_obey_the_ward_identity(void **state) {
  (void)state;
  uint64_t random = 0x16006;
  const double g = 1.2;
  double worst = 0, worst_current = 0;
  for (int n = 0; n < 500; ++n) {
    const hg_fourvec k2 = momentum_of_mass(&random, 0, 3), k3 = momentum_of_mass(&random, 0, 3);
    const int ns2 = ht_uniform(&random) < 0.5 ? 1 : -1, ns3 = ht_uniform(&random) < 0.5 ? 1 : -1;
    for (int h2 = -1; h2 <= 1; h2 += 2)
      for (int h3 = -1; h3 <= 1; h3 += 2) {
        const hg_wave e2 = vxxxx0(k2, h2, ns2), e3 = vxxxx0(k3, h3, ns3);
        const hg_fourvec p2 = hg_wave_momentum(e2), p3 = hg_wave_momentum(e3);
        const hg_fourvec p1 = hg_fourvec_make(-(p2.v[0] + p3.v[0]), -(p2.v[1] + p3.v[1]),
                                              -(p2.v[2] + p3.v[2]), -(p2.v[3] + p3.v[3]));
        const double scale = g * (scale_of(p1, 0) + scale_of(p2, 0)) * scale_of(p1, 0);
        const double complex v[3] = {ht_c(vvvxxx(momentum_as_wave(p1), e2, e3, g)),
                                     ht_c(vvvxxx(e3, momentum_as_wave(p1), e2, g)),
                                     ht_c(vvvxxx(e2, e3, momentum_as_wave(p1), g))};
        for (int k = 0; k < 3; ++k) {
          if (!(cabs(v[k]) / scale <= 1e-13))
            fail_msg("case %d, helicities %d %d, position %d: vvvxxx with eps1 -> P1 is "
                     "%.3g%+.3gi, scale %.3g",
                     n, h2, h3, k, creal(v[k]), cimag(v[k]), scale);
          worst = fmax(worst, cabs(v[k]) / scale);
        }
        const hg_wave j = jvvxxx(e2, e3, g, 0, 0);
        const hg_wave q = momentum_as_wave(p1);
        const double d = cabs(wave_dot(j, q)) / (wave_size(j) * scale_of(p1, 0));
        if (!(d <= 1e-13)) fail_msg("case %d: q.jvvxxx = %.3g relative", n, d);
        worst_current = fmax(worst_current, d);
      }
  }
  print_message("# worst |vvvxxx(P1, e2, e3)| / scale %.2e, worst |q.jvv| / (|j||q|) %.2e\n", worst,
                worst_current);
}

/* ggggxx(w1, w2, w3, w4) is odd under w1 <-> w2 and w3 <-> w4, even under (12) <-> (34), and the
 * three colour structures' parts ggggxx(1,2,3,4) + ggggxx(1,3,4,2) + ggggxx(1,4,2,3) add up to 0
 * (as f^{abe} f^{cde} + f^{ace} f^{dbe} + f^{ade} f^{bce} = 0, Jacobi). */
static void four_gluon_structures_have_the_colour_symmetries(void **state) {
  (void)state;
  uint64_t random = 0x16007;
  const double g = 1.2;
  double worst = 0;
  for (int n = 0; n < 500; ++n) {
    const hg_wave w1 = random_wave(&random, 1), w2 = random_wave(&random, 1);
    const hg_wave w3 = random_wave(&random, 1), w4 = random_wave(&random, 1);
    const double scale = g * g * wave_size(w1) * wave_size(w2) * wave_size(w3) * wave_size(w4);
    const double complex v = ht_c(ggggxx(w1, w2, w3, w4, g));
    const double complex d[4] = {
        v + ht_c(ggggxx(w2, w1, w3, w4, g)), v + ht_c(ggggxx(w1, w2, w4, w3, g)),
        v - ht_c(ggggxx(w3, w4, w1, w2, g)),
        v + ht_c(ggggxx(w1, w3, w4, w2, g)) + ht_c(ggggxx(w1, w4, w2, w3, g))};
    for (int k = 0; k < 4; ++k) {
      if (!(cabs(d[k]) / scale <= 1e-14))
        fail_msg("case %d, property %d: off by %.3g relative", n, k, cabs(d[k]) / scale);
      worst = fmax(worst, cabs(d[k]) / scale);
    }
  }
  print_message("# worst symmetry deviation: %.2e\n", worst);
}

/* The colour-stripped gg -> gg amplitudes, all momenta outgoing in the slots (sum zero),
 *   A(1,2,3,4) = vvvxxx(w3, w4, jvvxxx(w1, w2, g, 0, 0), g) - ggggxx(w1, w2, w3, w4, g),
 * the coefficient of f^{abe} f^{cde}, with A(1,3,4,2), A(1,4,2,3) those of f^{ace} f^{dbe},
 * f^{ade} f^{bce}. The minus sign: with the 3-vertex g f V3, propagator -i g_{mu nu}/s and the
 * 4-vertex -i g^2 [f^{abe} f^{cde} (g^{mu rho} g^{nu sigma} - g^{mu sigma} g^{nu rho}) + ...]
 * (Peskin-Schroeder), the s-channel is g^2 V3.V3/s = vvvxxx(w3, w4, jvv(w1, w2)) and the contact
 * term is -ggggxx. Gauge invariance: with eps1 -> P1 the full amplitude vanishes for every colour,
 * and the three colour factors obey exactly one relation (they add up to zero), so
 * A(1,2,3,4) = A(1,3,4,2) = A(1,4,2,3). Checked relative to the largest diagram or g^2 E. */
static void four_gluon_amplitude_is_gauge_invariant_with_the_contact_term(void **state) {
  (void)state;
  uint64_t random = 0x16008;
  const double g = 1.2;
  double worst = 0;
  for (int n = 0; n < 300; ++n) {
    /* 1 2 -> 3 4 in the centre-of-mass frame, then slots: incoming get nsv = -1 */
    const double e = 50 + 500 * ht_uniform(&random);
    const hg_fourvec k1 = ht_massless(e, 0.3, 0.1),
                     k2 = ht_massless(e, 3.14159265358979 - 0.3, 3.14159265358979 + 0.1);
    const double ct = symmetric(&random), ph = 6.283185307179586 * ht_uniform(&random);
    const double th = acos(ct);
    const hg_fourvec k3 = ht_massless(e, th, ph),
                     k4 = ht_massless(e, 3.14159265358979 - th, ph + 3.14159265358979);
    for (int hel = 0; hel < 8; ++hel) {
      hg_wave w[4];
      w[1] = vxxxx0(k2, hel & 1 ? 1 : -1, -1);
      w[2] = vxxxx0(k3, hel & 2 ? 1 : -1, 1);
      w[3] = vxxxx0(k4, hel & 4 ? 1 : -1, 1);
      w[0] = momentum_as_wave(hg_fourvec_make(-k1.v[0], -k1.v[1], -k1.v[2], -k1.v[3]));
      static const int perm[3][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}};
      double complex a[3];
      double scale = 0;
      for (int c = 0; c < 3; ++c) {
        const hg_wave *x = w;
        const int *q = perm[c];
        const double complex s_channel =
            ht_c(vvvxxx(x[q[2]], x[q[3]], jvvxxx(x[q[0]], x[q[1]], g, 0, 0), g));
        const double complex contact = ht_c(ggggxx(x[q[0]], x[q[1]], x[q[2]], x[q[3]], g));
        a[c] = s_channel - contact;
        scale = fmax(scale, fmax(cabs(s_channel), cabs(contact)));
        scale = fmax(scale, g * g * e); /* eps1 -> p1 makes every diagram of size g^2 E */
      }
      const double d = fmax(cabs(a[0] - a[1]), cabs(a[0] - a[2])) / scale;
      if (!(d <= 1e-12)) /* the diagrams cancel to 2.3e-14 of g^2 E at worst */
        fail_msg("case %d, helicities %d: A1 = %.6g%+.6gi, A2 = %.6g%+.6gi, A3 = %.6g%+.6gi "
                 "(scale %.3g)",
                 n, hel, creal(a[0]), cimag(a[0]), creal(a[1]), cimag(a[1]), creal(a[2]),
                 cimag(a[2]), scale);
      worst = fmax(worst, d);
    }
  }
  print_message("# worst |A_i - A_j| / largest diagram with eps1 -> p1: %.2e\n", worst);
}

/* vvvxxx(w1, w2, w3) = s (jvvxxx(w1, w2, g, 0, 0) . w3) for any waves with P(w3) = -(P1 + P2),
 * s = P(w3)^2; with a mass M, width G and q.w3 = 0 (w3 projected transverse to q):
 * vvvxxx = (s - M^2 + i M G theta(s)) (jvv . w3). q^2 (jgggxx(w1, w2, w3) . w4) = ggggxx(w1, w2,
 * w3, w4). Relative to |s| |j| |w3| (resp. g^2 prod |w|); 1e-12 allows the cancellations in the
 * random slots. */
static void vertices_equal_currents_contracted_with_the_remaining_wave(void **state) {
  (void)state;
  uint64_t random = 0x16009;
  const double g = 1.2;
  double worst[3] = {0, 0, 0};
  for (int n = 0; n < 1000; ++n) {
    const hg_wave w1 = random_wave(&random, 1), w2 = random_wave(&random, 1);
    const hg_fourvec p1 = hg_wave_momentum(w1), p2 = hg_wave_momentum(w2);
    const hg_fourvec q = hg_fourvec_make(-(p1.v[0] + p2.v[0]), -(p1.v[1] + p2.v[1]),
                                         -(p1.v[2] + p2.v[2]), -(p1.v[3] + p2.v[3]));
    const double s = hg_minkowski(q, q);
    if (fabs(s) < 0.01 * scale_of(q, 0) * scale_of(q, 0)) continue;
    hg_wave w3 = random_wave(&random, 1);
    set_slots(&w3, q);
    const hg_wave j = jvvxxx(w1, w2, g, 0, 0);
    const double complex v = ht_c(vvvxxx(w1, w2, w3, g));
    double d = cabs(v - s * wave_dot(j, w3)) / (fabs(s) * wave_size(j) * wave_size(w3));
    if (!(d <= 1e-12)) fail_msg("case %d massless: vvvxxx vs s (jvv . w3) off by %.3g", n, d);
    worst[0] = fmax(worst[0], d);
    /* massive: a w3 with q.w3 = 0 (vxxxxx would do only for timelike q) */
    const double mass = 91.19, width = 2.4952;
    for (int h = 0; h < 3; ++h) {
      const hg_wave e3 = transverse_to(&random, q);
      const hg_wave jm = jvvxxx(w1, w2, g, mass, width);
      const double complex denominator = s - mass * mass + I * (s >= 0 ? mass * width : 0);
      const double complex vm = ht_c(vvvxxx(w1, w2, e3, g));
      const double dm = cabs(vm - denominator * wave_dot(jm, e3)) /
                        (cabs(denominator) * wave_size(jm) * wave_size(e3));
      if (!(dm <= 1e-12))
        fail_msg("case %d massive, draw %d: vvvxxx %.6g%+.6gi vs D (jvv . e3) %.6g%+.6gi", n, h,
                 creal(vm), cimag(vm), creal(denominator * wave_dot(jm, e3)),
                 cimag(denominator * wave_dot(jm, e3)));
      worst[1] = fmax(worst[1], dm);
    }
    /* the four-gluon current (a fresh third wave: w3's slots would make q = 0) */
    const hg_wave w5 = random_wave(&random, 1), w4 = random_wave(&random, 1);
    const hg_wave jg = jgggxx(w1, w2, w5, g);
    const hg_fourvec qg = hg_wave_momentum(jg);
    const double q2 = hg_minkowski(qg, qg);
    const double complex vg = ht_c(ggggxx(w1, w2, w5, w4, g));
    const double dg = cabs(vg - q2 * wave_dot(jg, w4)) /
                      (g * g * wave_size(w1) * wave_size(w2) * wave_size(w5) * wave_size(w4));
    if (!(dg <= 1e-13)) fail_msg("case %d: ggggxx vs q^2 (jgggxx . w4) off by %.3g", n, dg);
    worst[2] = fmax(worst[2], dg);
  }
  print_message("# worst: vvv/jvv massless %.2e, massive %.2e, gggg/jggg %.2e\n", worst[0],
                worst[1], worst[2]);
}

/* With masses and widths, for random spinors and vectors with slots P(fi) = P(fo) + P(v1) + P(v2):
 *   iovxxx(fvixxx(fi, v1), fo, v2) = iovxxx(fi, fvoxxx(fo, v2), v1)   (both are fo-bar V2slash
 *   d (pslash + m) V1slash fi with p = P(fi) - P(v1) = P(fo) + P(v2));
 *   iovxxx(fi, fo, V) = (q^2 - M^2 + i M G) (jioxxx . V) for q.V = 0 (V projected transverse
 *   to q), q = P(fo) - P(fi);
 *   q . jioxxx = -iovxxx(fi, fo, q) / (M^2 - i M G) (the unitary-gauge term). */
static void fermion_vertex_equals_off_shell_functions_contracted(void **state) {
  (void)state;
  uint64_t random = 0x1600a;
  double worst[3] = {0, 0, 0};
  for (int n = 0; n < 1000; ++n) {
    const double fmass = n % 2 ? 173.0 : 4.7, fwidth = n % 2 ? 1.5 : 0.0;
    const double vmass = n % 3 ? 80.4 : 91.19, vwidth = n % 3 ? 2.1 : 2.4952;
    hg_wave fi = random_wave(&random, 10);
    const hg_wave fo = random_wave(&random, 10);
    const hg_wave v1 = random_wave(&random, 1), v2 = random_wave(&random, 1);
    const hg_coupling g1 = random_coupling(&random), g2 = random_coupling(&random);
    const hg_fourvec po = hg_wave_momentum(fo), a = hg_wave_momentum(v1), b = hg_wave_momentum(v2);
    set_slots(&fi, hg_fourvec_make(po.v[0] + a.v[0] + b.v[0], po.v[1] + a.v[1] + b.v[1],
                                   po.v[2] + a.v[2] + b.v[2], po.v[3] + a.v[3] + b.v[3]));
    const hg_wave fvi = fvixxx(fi, v1, g1, fmass, fwidth), fvo = fvoxxx(fo, v2, g2, fmass, fwidth);
    const double complex x = ht_c(iovxxx(fvi, fo, v2, g2)), y = ht_c(iovxxx(fi, fvo, v1, g1));
    const double size = spinor_size(fo) * wave_size(v2) * 0.71 * spinor_size(fvi) * 4 +
                        spinor_size(fi) * wave_size(v1) * 0.71 * spinor_size(fvo) * 4;
    const double d0 = cabs(x - y) / size;
    if (!(d0 <= 1e-13))
      fail_msg("case %d: via fvixxx %.9g%+.9gi, via fvoxxx %.9g%+.9gi", n, creal(x), cimag(x),
               creal(y), cimag(y));
    worst[0] = fmax(worst[0], d0);
    /* jioxxx: V = massive polarisation of momentum +-q, then V = q itself */
    const hg_fourvec pi = hg_wave_momentum(fi);
    const hg_fourvec q =
        hg_fourvec_make(po.v[0] - pi.v[0], po.v[1] - pi.v[1], po.v[2] - pi.v[2], po.v[3] - pi.v[3]);
    const double q2 = hg_minkowski(q, q);
    const hg_wave j = jioxxx(fi, fo, g1, vmass, vwidth);
    const double complex denominator = q2 - vmass * vmass + I * vmass * vwidth;
    for (int h = 0; h < 3; ++h) {
      const hg_wave e = transverse_to(&random, q);
      const double complex v = ht_c(iovxxx(fi, fo, e, g1));
      const double d1 = cabs(v - denominator * wave_dot(j, e)) /
                        (cabs(denominator) * wave_size(j) * wave_size(e) + cabs(v));
      if (!(d1 <= 1e-12))
        fail_msg("case %d, draw %d: iovxxx %.9g%+.9gi, D (jio . e) %.9g%+.9gi", n, h, creal(v),
                 cimag(v), creal(denominator * wave_dot(j, e)),
                 cimag(denominator * wave_dot(j, e)));
      worst[1] = fmax(worst[1], d1);
    }
    const hg_wave qw = momentum_as_wave(q);
    const double complex qc = ht_c(iovxxx(fi, fo, qw, g1));
    const double complex cm2 = vmass * vmass - I * vmass * vwidth;
    const double complex qj = wave_dot(qw, j);
    const double d2 = cabs(qj + qc / cm2) / (wave_size(qw) * wave_size(j) + cabs(qc / cm2));
    if (!(d2 <= 1e-12))
      fail_msg("case %d: q.jio %.9g%+.9gi, -(q.c)/(M^2 - i M G) %.9g%+.9gi", n, creal(qj),
               cimag(qj), creal(-qc / cm2), cimag(-qc / cm2));
    worst[2] = fmax(worst[2], d2);
  }
  print_message("# worst: fvi vs fvo %.2e, iov vs D jio.e %.2e, q.jio %.2e\n", worst[0], worst[1],
                worst[2]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(massive_spinors_solve_the_dirac_equation_for_every_helicity),
      cmocka_unit_test(massive_spinors_are_helicity_eigenstates),
      cmocka_unit_test(spinor_sums_over_helicity_give_pslash_plus_or_minus_m),
      cmocka_unit_test(massive_polarisations_are_transverse_normalised_and_complete),
      cmocka_unit_test(massless_calls_equal_the_massless_functions_exactly),
      cmocka_unit_test(massless_off_shell_functions_reduce_to_the_massless_set),
      cmocka_unit_test(triple_gluon_vertex_and_current_obey_the_ward_identity),
      cmocka_unit_test(four_gluon_structures_have_the_colour_symmetries),
      cmocka_unit_test(four_gluon_amplitude_is_gauge_invariant_with_the_contact_term),
      cmocka_unit_test(vertices_equal_currents_contracted_with_the_remaining_wave),
      cmocka_unit_test(fermion_vertex_equals_off_shell_functions_contracted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
