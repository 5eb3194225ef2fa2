/* SPDX-License-Identifier: MIT */
/* The electroweak HELAS functions (cl/helas/ew.cl) as host C in double: each off-shell current
 * contracted with a wave equals its vertex (the same diagram computed from either end), the W W a
 * vertex's Ward identity in unitary gauge, the four-vector vertex's symmetries, and the W -> e nu
 * width from the vertex against G_F M_W^3 / (6 sqrt2 pi). */
#include "helas_test_support.h"

#include "helas/ew.cl"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static const double pi = 3.14159265358979323846;
static const double mw = 80.41900244575616, ww = 2.0476, mh = 125.0, wh = 6.382339e-3;
static const double mt = 173.0, wt = 1.4915;

static double complex cdot(hg_wave a, hg_wave b) { return ht_c(hg_wave_dot(a, b)); }

static hg_fourvec random_momentum(uint64_t *rng, double scale) {
  return hg_fourvec_make(scale * (2 + ht_uniform(rng)), scale * (ht_uniform(rng) - 0.5),
                         scale * (ht_uniform(rng) - 0.5), scale * (ht_uniform(rng) - 0.5));
}

/* A vector wave with random components and slots P = p. */
static hg_wave random_vector(uint64_t *rng, hg_fourvec p) {
  hg_wave w;
  for (int mu = 0; mu < 4; ++mu) w.w[mu] = hg_cmplx(ht_uniform(rng) - 0.5, ht_uniform(rng) - 0.5);
  hg_set_momentum_slots(&w, p, 1);
  return w;
}

static hg_wave scalar_wave(uint64_t *rng, hg_fourvec p) {
  hg_wave s = sxxxxx(p, 1);
  s.w[0] = hg_cmplx(ht_uniform(rng) + 0.5, ht_uniform(rng) - 0.5);
  return s;
}

/* x with its component along q removed (q.x = 0), slots -q: the external wave a current meets */
static hg_wave transverse_to(hg_wave x, hg_fourvec q) {
  const double q2 = hg_minkowski(q, q);
  const double complex qx = ht_c(hg_momentum_dot(q, x));
  hg_wave w = x;
  for (int mu = 0; mu < 4; ++mu) {
    const double complex c = ht_c(x.w[mu]) - q.v[mu] * qx / q2;
    w.w[mu] = hg_cmplx(creal(c), cimag(c));
  }
  hg_set_momentum_slots(&w, q, -1);
  return w;
}

static double complex denominator(hg_fourvec q, double m, double g) {
  return hg_minkowski(q, q) - m * m + I * m * g;
}

static void near(double complex a, double complex b, double tolerance, const char *what) {
  const double scale = cabs(a) > cabs(b) ? cabs(a) : cabs(b);
  if (!(cabs(a - b) <= tolerance * scale))
    fail_msg("%s: %.17g%+.17gi against %.17g%+.17gi", what, creal(a), cimag(a), creal(b), cimag(b));
}

static void vector_and_scalar_currents_contract_to_their_vertices(void **state) {
  (void)state;
  uint64_t rng = 11;
  const hg_complex g = hg_cmplx(0.7, -0.2);
  const double complex gc = 0.7 - 0.2 * I;
  for (int trial = 0; trial < 20; ++trial) {
    const hg_fourvec p1 = random_momentum(&rng, 100), p2 = random_momentum(&rng, 100),
                     p3 = random_momentum(&rng, 100);
    const hg_wave v1 = random_vector(&rng, p1), v2 = random_vector(&rng, p2),
                  v3 = random_vector(&rng, p3);
    const hg_wave s1 = scalar_wave(&rng, p2), s2 = scalar_wave(&rng, p3);
    /* jvsxxx: V S -> V */
    const hg_wave j = jvsxxx(v1, s1, g, mw, ww);
    const hg_fourvec q = hg_wave_momentum(j);
    const hg_wave w = transverse_to(v3, q);
    near(ht_c(vvsxxx(v1, w, s1, g)), denominator(q, mw, ww) * cdot(j, w), 1e-13, "jvsxxx");
    /* hvvxxx: V V -> S (the scalar current is -vertex / denominator) */
    const hg_wave h = hvvxxx(v1, v2, g, mh, wh);
    const hg_wave one = sxxxxx(hg_fourvec_make(0, 0, 0, 0), 1);
    near(ht_c(vvsxxx(v1, v2, one, g)), -denominator(hg_wave_momentum(h), mh, wh) * ht_c(h.w[0]),
         1e-13, "hvvxxx");
    /* jvvcxx: the W W V current against vvvcxx */
    const hg_wave jv = jvvcxx(v1, v2, g, mw, ww);
    const hg_fourvec qv = hg_wave_momentum(jv);
    const hg_wave wv = transverse_to(v3, qv);
    near(ht_c(vvvcxx(v1, v2, wv, g)), denominator(qv, mw, ww) * cdot(jv, wv), 1e-12, "jvvcxx");
    /* jvvvcx: the four-vector current in the fourth slot */
    const hg_wave j4 = jvvvcx(v1, v2, v3, g, mw, ww);
    const hg_fourvec q4 = hg_wave_momentum(j4);
    const hg_wave w4 = transverse_to(random_vector(&rng, p1), q4);
    near(ht_c(vvvvcx(v1, v2, v3, w4, g)), denominator(q4, mw, ww) * cdot(j4, w4), 1e-12, "jvvvcx");
    /* vvssxx, jvssxx, hvvsxx; sssxxx, hssxxx, ssssxx, hsssxx */
    const hg_wave jss = jvssxx(v1, s1, s2, g, mw, ww);
    const hg_wave wss = transverse_to(v2, hg_wave_momentum(jss));
    /* 1e-12 as jvvvcx: clang's contraction into fused multiply-adds left 1.0e-13 of rounding
     * between the two orders of evaluation at one trial (gcc: below 1e-13) */
    near(ht_c(vvssxx(v1, wss, s1, s2, g)),
         denominator(hg_wave_momentum(jss), mw, ww) * cdot(jss, wss), 1e-12, "jvssxx");
    const hg_wave hvs = hvvsxx(v1, v2, s1, g, mh, wh);
    near(ht_c(vvssxx(v1, v2, s1, one, g)),
         -denominator(hg_wave_momentum(hvs), mh, wh) * ht_c(hvs.w[0]), 1e-13, "hvvsxx");
    const hg_wave hs = hssxxx(s1, s2, g, mh, wh);
    near(ht_c(sssxxx(s1, s2, one, g)), -denominator(hg_wave_momentum(hs), mh, wh) * ht_c(hs.w[0]),
         1e-13, "hssxxx");
    near(ht_c(ssssxx(s1, s2, s1, s2, g)),
         gc * ht_c(s1.w[0]) * ht_c(s1.w[0]) * ht_c(s2.w[0]) * ht_c(s2.w[0]), 1e-14, "ssssxx");
    const hg_wave hsss = hsssxx(s1, s2, s1, g, mh, wh);
    near(ht_c(ssssxx(s1, s2, s1, one, g)),
         -denominator(hg_wave_momentum(hsss), mh, wh) * ht_c(hsss.w[0]), 1e-13, "hsssxx");
    /* the four-vector structure's symmetries: 1 <-> 2, 3 <-> 4, (12) <-> (34) */
    const double complex a = ht_c(vvvvcx(v1, v2, v3, w4, g));
    near(ht_c(vvvvcx(v2, v1, v3, w4, g)), a, 1e-13, "vvvvcx 1 <-> 2");
    near(ht_c(vvvvcx(v1, v2, w4, v3, g)), a, 1e-13, "vvvvcx 3 <-> 4");
    near(ht_c(vvvvcx(v3, w4, v1, v2, g)), a, 1e-13, "vvvvcx (12) <-> (34)");
  }
}

/* A fermion line with a scalar and a vector attached, computed from each end: fo Vslash
 * (p + m) S fi through fsixxx then iovxxx, and through fvoxxx then iosxxx (and the mirror). */
static void fermion_scalar_currents_agree_with_the_vector_ones(void **state) {
  (void)state;
  uint64_t rng = 5;
  hg_coupling gv, gsc;
  gv.gal[0] = hg_cmplx(0.3, 0.1);
  gv.gal[1] = hg_cmplx(-0.2, 0.05);
  gsc.gal[0] = hg_cmplx(-0.7, 0);
  gsc.gal[1] = hg_cmplx(-0.5, 0.2);
  for (int trial = 0; trial < 20; ++trial) {
    const hg_fourvec pi_ = random_momentum(&rng, 200), po = random_momentum(&rng, 200);
    hg_wave fi, fo;
    for (int k = 0; k < 4; ++k) {
      fi.w[k] = hg_cmplx(ht_uniform(&rng) - 0.5, ht_uniform(&rng) - 0.5);
      fo.w[k] = hg_cmplx(ht_uniform(&rng) - 0.5, ht_uniform(&rng) - 0.5);
    }
    hg_set_momentum_slots(&fi, pi_, 1);
    hg_set_momentum_slots(&fo, po, 1);
    /* momentum conservation along the line: P(fi) - P(s) = P(fo) + P(v) */
    const hg_fourvec pv = random_momentum(&rng, 50);
    const hg_wave v = random_vector(&rng, pv);
    const hg_wave s = scalar_wave(
        &rng, hg_fourvec_make(pi_.v[0] - po.v[0] - pv.v[0], pi_.v[1] - po.v[1] - pv.v[1],
                              pi_.v[2] - po.v[2] - pv.v[2], pi_.v[3] - po.v[3] - pv.v[3]));
    near(ht_c(iovxxx(fsixxx(fi, s, gsc, mt, wt), fo, v, gv)),
         ht_c(iosxxx(fi, fvoxxx(fo, v, gv, mt, wt), s, gsc)), 1e-13, "fsixxx against fvoxxx");
    hg_wave v2 = v, s2 = s;
    v2.w[4] = s.w[4];
    v2.w[5] = s.w[5];
    s2.w[4] = v.w[4];
    s2.w[5] = v.w[5];
    near(ht_c(iosxxx(fvixxx(fi, v2, gv, mt, wt), fo, s2, gsc)),
         ht_c(iovxxx(fi, fsoxxx(fo, s2, gsc, mt, wt), v2, gv)), 1e-13, "fvixxx against fsoxxx");
    /* hioxxx: minus the vertex with a unit scalar over the denominator */
    const hg_wave h = hioxxx(fi, fo, gsc, mh, wh);
    const hg_wave one = sxxxxx(hg_fourvec_make(0, 0, 0, 0), 1);
    near(ht_c(iosxxx(fi, fo, one, gsc)), -denominator(hg_wave_momentum(h), mh, wh) * ht_c(h.w[0]),
         1e-13, "hioxxx");
  }
}

/* W+ W- a with both W's on shell and physical, the photon's polarisation replaced by its
 * momentum: zero (unitary gauge, any W helicities). */
static void w_w_photon_vertex_obeys_the_ward_identity(void **state) {
  (void)state;
  uint64_t rng = 3;
  for (int trial = 0; trial < 20; ++trial) {
    const double e = 300 * (1 + ht_uniform(&rng));
    const double pz = sqrt(e * e - mw * mw);
    const double th = pi * ht_uniform(&rng), ph = 2 * pi * ht_uniform(&rng);
    const hg_fourvec p1 =
        hg_fourvec_make(e, pz * sin(th) * cos(ph), pz * sin(th) * sin(ph), pz * cos(th));
    const double e2 = 250 * (1 + ht_uniform(&rng)), pz2 = sqrt(e2 * e2 - mw * mw);
    const double th2 = pi * ht_uniform(&rng), ph2 = 2 * pi * ht_uniform(&rng);
    const hg_fourvec p2 =
        hg_fourvec_make(e2, pz2 * sin(th2) * cos(ph2), pz2 * sin(th2) * sin(ph2), pz2 * cos(th2));
    for (int h1 = -1; h1 <= 1; ++h1)
      for (int h2 = -1; h2 <= 1; ++h2) {
        const hg_wave w1 = vxxxxx(p1, mw, h1, 1), w2 = vxxxxx(p2, mw, h2, 1);
        /* the photon: momentum k = -(p1 + p2) (all outgoing), "polarisation" k */
        const hg_fourvec k = hg_fourvec_make(-(p1.v[0] + p2.v[0]), -(p1.v[1] + p2.v[1]),
                                             -(p1.v[2] + p2.v[2]), -(p1.v[3] + p2.v[3]));
        hg_wave a;
        for (int mu = 0; mu < 4; ++mu) a.w[mu] = hg_cmplx(k.v[mu], 0);
        hg_set_momentum_slots(&a, k, 1);
        const double complex v = ht_c(vvvcxx(w1, w2, a, hg_cmplx(1, 0)));
        const double scale = e * e2 * (e + e2) / (mw * mw);
        if (!(cabs(v) <= 1e-11 * scale))
          fail_msg("W W a with eps_a -> k: %.3e against the scale %.3e (helicities %d %d)", cabs(v),
                   scale, h1, h2);
      }
  }
}

/* Gamma(W+ -> e+ nu_e) = (1/3) sum |M|^2 / (2 M_W) * 1/(8 pi), M = iovxxx with g_W = e/(sw
 * sqrt2); at tree level g_W^2 / (8 M_W^2) = G_F / sqrt2, so Gamma = G_F M_W^3 / (6 sqrt2 pi). */
static void w_decay_width_from_the_vertex_is_the_closed_form(void **state) {
  (void)state;
  const double aewm1 = 132.507, gf = 1.16639e-5, mz = 91.188;
  const double m_w =
      sqrt(mz * mz / 2 + sqrt(mz * mz * mz * mz / 4 - pi * mz * mz / (aewm1 * sqrt(2.0) * gf)));
  const double ee = 2 * sqrt(pi / aewm1), sw = sqrt(1 - m_w * m_w / (mz * mz));
  hg_coupling gw;
  gw.gal[0] = hg_cmplx(ee / (sw * sqrt(2.0)), 0);
  gw.gal[1] = hg_cmplx(0, 0);
  const hg_fourvec pw = hg_fourvec_make(m_w, 0, 0, 0);
  const double th = 0.7, ph = 1.9;
  const hg_fourvec pe = ht_massless(m_w / 2, th, ph), pn = ht_massless(m_w / 2, pi - th, ph + pi);
  double sum = 0;
  for (int hw = -1; hw <= 1; ++hw)
    for (int he = -1; he <= 1; he += 2)
      for (int hn = -1; hn <= 1; hn += 2) {
        /* W+ incoming (nsv = -1), e+ outgoing antifermion (ixxxxx, nsf = -1), nu outgoing */
        const hg_wave w = vxxxxx(pw, m_w, hw, -1);
        const hg_wave e = ixxxxx(pe, 0, he, -1), n = oxxxxx(pn, 0, hn, 1);
        const double complex m = ht_c(iovxxx(e, n, w, gw));
        sum += creal(m * conj(m));
      }
  const double width = sum / 3 / (2 * m_w) / (8 * pi);
  const double closed = gf * m_w * m_w * m_w / (6 * sqrt(2.0) * pi);
  if (!(fabs(width / closed - 1) <= 1e-13))
    fail_msg("Gamma(W -> e nu) = %.17g GeV from the vertex, closed form %.17g", width, closed);
  print_message("# Gamma(W -> e nu) = %.15f GeV, G_F M_W^3 / (6 sqrt2 pi) = %.15f GeV\n", width,
                closed);
  /* the derived W mass is MadGraph's */
  assert_true(fabs(m_w / mw - 1) < 1e-15);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vector_and_scalar_currents_contract_to_their_vertices),
      cmocka_unit_test(fermion_scalar_currents_agree_with_the_vector_ones),
      cmocka_unit_test(w_w_photon_vertex_obeys_the_ward_identity),
      cmocka_unit_test(w_decay_width_from_the_vertex_is_the_closed_form),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
