/* SPDX-License-Identifier: MIT */
/* Resonances of a process run (the Breit-Wigner channels of the phase space) against
 * semi-analytic cross sections written here: q q~' > W > l nu and q q~ > gamma/Z > l+ l- in
 * closed form (fixed-width Breit-Wigner, CKM = 1, MadGraph's sm couplings from the run's own
 * derived parameters), first checked against the diagrams engine's |M|^2 at a few points, then
 * integrated over x1 and x2 with the same PDF grid (hegetcl_pdf_xfxq, the devices' interpolation)
 * by composite Gauss-Legendre quadrature after the Breit-Wigner's tan substitution. CTEQ6L1 at
 * 14 TeV, mu_F = mu_R fixed; the Monte Carlo runs to about 0.1 % and must agree within 3 of its
 * standard deviations (the quadrature converges to 1e-6). Drell-Yan in 66 < m_ll < 116 also
 * against MadEvent (../shared/refs/mg5-next/xsec.txt, B4). HEGETCL_TEST_EXHAUSTIVE=1: more. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/pdf.h"
#include "hegetcl/xsec.h"
#include "phasespace/mg_cuts.h"
#include "test_support.h"

static const double pi = 3.14159265358979323846;
/* MadGraph's GeV^-2 -> pb (xsec.txt's semi-analytic checks take this one) */
static const double gev2_to_fb = 0.3893793721e12;

static hegetcl_context *ctx;
static hegetcl_pdf *pdf;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  char message[512];
  if (hegetcl_pdf_open("cteq6l1", 0, &pdf, message, sizeof message) != HEGETCL_OK) {
    fprintf(stderr, "%s\n", message);
    return -1;
  }
  return ctx == NULL;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_pdf_close(pdf);
  hegetcl_context_destroy(ctx);
  return 0;
}

static int exhaustive(void) {
  const char *ex = getenv("HEGETCL_TEST_EXHAUSTIVE");
  return ex != NULL && strcmp(ex, "1") == 0;
}

/* The electroweak parameters a process is built with (MadGraph's sm, restrict_default). */
typedef struct {
  double ee, sw2, mw, ww, mz, wz;
} ew;

static ew parameters(void) {
  hegetcl_process p;
  assert_int_equal(hegetcl_process_from_text(&p, "u d~ > e+ ve", NULL, 0), HEGETCL_OK);
  ew e;
  assert_int_equal(hegetcl_process_get_derived(&p, "ee", &e.ee), HEGETCL_OK);
  assert_int_equal(hegetcl_process_get_derived(&p, "sw2", &e.sw2), HEGETCL_OK);
  assert_int_equal(hegetcl_process_get_derived(&p, "MW", &e.mw), HEGETCL_OK);
  e.ww = p.w_width;
  e.mz = p.z_mass;
  e.wz = p.z_width;
  return e;
}

/* Chiral amplitudes of q qbar > V > f fbar, |M|^2 averaged over spins and colours =
 * (t^2 (|A_LL|^2 + |A_RR|^2) + u^2 (|A_LR|^2 + |A_RL|^2)) / 3 with t = (p_q - p_fbar)^2 (massless;
 * same helicities: the antifermion follows the antiquark), so that sigma_hat = s / (144 pi) sum
 * |A|^2. W: A_LL = (g^2 / 2) / (s - M^2 + i M Gamma), g^2 = e^2 / sw2. gamma/Z: A_ij = e^2 Q_q Q_f
 * / s
 * + g_i^q g_j^f / (s - M_Z^2 + i M_Z Gamma_Z), g_L = e (T3 - Q sw2) / (sw cw), g_R = -e Q sw2 /
 * (sw cw). */
typedef struct {
  int w;           /* 1: W; 0: gamma/Z */
  double q_q, t3q; /* the quark's charge and isospin (gamma/Z) */
} channel;

static void chiral(const ew *e, const channel *c, double s, double *same, double *opposite) {
  if (c->w) {
    const double g2 = e->ee * e->ee / e->sw2;
    const double complex a = 0.5 * g2 / (s - e->mw * e->mw + I * e->mw * e->ww);
    *same = creal(a * conj(a));
    *opposite = 0.0;
    return;
  }
  const double sw = sqrt(e->sw2), cw = sqrt(1.0 - e->sw2), e2 = e->ee * e->ee;
  const double ql = -1.0, t3l = -0.5;
  const double glq = e->ee * (c->t3q - c->q_q * e->sw2) / (sw * cw);
  const double grq = -e->ee * c->q_q * e->sw2 / (sw * cw);
  const double gll = e->ee * (t3l - ql * e->sw2) / (sw * cw),
               grl = -e->ee * ql * e->sw2 / (sw * cw);
  const double complex z = 1.0 / (s - e->mz * e->mz + I * e->mz * e->wz);
  const double complex ll = e2 * c->q_q * ql / s + glq * gll * z;
  const double complex rr = e2 * c->q_q * ql / s + grq * grl * z;
  const double complex lr = e2 * c->q_q * ql / s + glq * grl * z;
  const double complex rl = e2 * c->q_q * ql / s + grq * gll * z;
  *same = creal(ll * conj(ll)) + creal(rr * conj(rr));
  *opposite = creal(lr * conj(lr)) + creal(rl * conj(rl));
}

static double sigma_hat(const ew *e, const channel *c, double s) {
  double same, opposite;
  chiral(e, c, s, &same, &opposite);
  return s / (144.0 * pi) * (same + opposite);
}

/* momenta[(c * 4 + i) * n + k] of 2 -> 2 massless points: the fermion anti-fermion pair (3 the
 * antifermion) at polar angle theta of particle 3 against beam 1. */
static void points(const double *roots, const double *cosines, size_t n, double *m) {
  for (size_t k = 0; k < n; ++k) {
    const double e = roots[k] / 2, c = cosines[k], s = sqrt(1 - c * c);
    const double v[4][4] = {
        {e, 0, 0, e}, {e, 0, 0, -e}, {e, e * s, 0, e * c}, {e, -e * s, 0, -e * c}};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) m[((size_t)j * 4 + i) * n + k] = v[i][j];
  }
}

/* The closed forms' |M|^2 against the diagrams engine's at points around the peak. */
static void check_matrix_element(const char *process, const channel *c, double mass, double width) {
  const ew e = parameters();
  enum { N = 12 };
  double roots[N], cosines[N], me[N], m[16 * N];
  const double r[4] = {0.3 * mass, mass - 2 * width, mass + 0.3 * width, 4 * mass};
  const double cs[3] = {-0.8, 0.1, 0.6};
  for (int i = 0; i < N; ++i) {
    roots[i] = r[i / 3];
    cosines[i] = cs[i % 3];
  }
  points(roots, cosines, N, m);
  hegetcl_process p;
  char message[512];
  if (hegetcl_process_from_text(&p, process, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  p.engine = HEGETCL_ENGINE_DIAGRAMS;
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &p, &amp));
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, N, m, me));
  hegetcl_amplitude_destroy(amp);
  double worst = 0.0;
  for (int i = 0; i < N; ++i) {
    const double s = roots[i] * roots[i];
    const double t = -s / 2 * (1 - cosines[i]), u = -s / 2 * (1 + cosines[i]);
    double same, opposite;
    chiral(&e, c, s, &same, &opposite);
    const double want = (t * t * same + u * u * opposite) / 3.0;
    const double rel = fabs(me[i] / want - 1.0);
    if (!(rel < 1e-10))
      fail_msg("%s at sqrt(s) = %g, cos theta = %g: |M|^2 %.15g, closed form %.15g", process,
               roots[i], cosines[i], me[i], want);
    worst = rel > worst ? rel : worst;
  }
  print_message("# %s: the closed form's |M|^2 within %.1e of the diagrams engine's (%d points)\n",
                process, worst, N);
}

static void w_matrix_element_matches_closed_form(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const ew e = parameters();
  const channel w = {1, 0, 0};
  check_matrix_element("u d~ > e+ ve", &w, e.mw, e.ww);
  const channel up = {0, 2.0 / 3.0, 0.5}, down = {0, -1.0 / 3.0, -0.5};
  check_matrix_element("u u~ > e+ e-", &up, e.mz, e.wz);
  check_matrix_element("d d~ > e+ e-", &down, e.mz, e.wz);
}

/* Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n). */
#define GL 8
static void gauss_legendre(double x[GL], double w[GL]) {
  for (int i = 0; i < GL; ++i) {
    double z = cos(pi * (i + 0.75) / (GL + 0.5)), dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;
      for (int k = 2; k <= GL; ++k) {
        const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = GL * (z * p1 - p0) / (z * z - 1.0);
      const double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

/* Composite Gauss-Legendre of f over [a, b] in `panels` panels. */
typedef double (*integrand)(double v, const void *user);
static double quadrature(integrand f, const void *user, double a, double b, int panels) {
  double x[GL], w[GL], sum = 0.0;
  gauss_legendre(x, w);
  const double h = (b - a) / panels;
  for (int p = 0; p < panels; ++p)
    for (int i = 0; i < GL; ++i) sum += w[i] * 0.5 * h * f(a + h * (p + 0.5 * (x[i] + 1.0)), user);
  return sum;
}

/* The partonic luminosity at tau: sum over the quark flavours of the channel's kind of
 * integral dy f_q(x1) f_qbar'(x2) + (q <-> qbar'), x1,2 = sqrt(tau) e^(+-y), within the grid. */
typedef struct {
  const int (*pairs)[2];
  int n_pairs;
  double q, tau;
  int panels;
} luminosity_args;

static double luminosity_y(double y, const void *user) {
  const luminosity_args *a = user;
  const double x1 = sqrt(a->tau) * exp(y), x2 = sqrt(a->tau) * exp(-y);
  double sum = 0.0;
  for (int k = 0; k < a->n_pairs; ++k) {
    const int i = a->pairs[k][0], j = a->pairs[k][1];
    sum += hegetcl_pdf_xfxq(pdf, i, x1, a->q) * hegetcl_pdf_xfxq(pdf, j, x2, a->q) +
           hegetcl_pdf_xfxq(pdf, j, x1, a->q) * hegetcl_pdf_xfxq(pdf, i, x2, a->q);
  }
  return sum / a->tau;
}

/* The grid's smallest x (CTEQ6L1: 1e-6); the sampler drops points below it */
#define X_MIN 1e-6

typedef struct {
  const ew *e;
  const channel *c;
  luminosity_args lum;
  double s, mass, width;
  int by_theta; /* the variable: theta of the tan map, or ln shat */
} shat_args;

static double d_sigma(double v, const void *user) {
  const shat_args *a = user;
  const double mg = a->mass * a->width;
  const double shat = a->by_theta ? a->mass * a->mass + mg * tan(v) : exp(v);
  const double jacobian = a->by_theta ? mg * (1.0 + tan(v) * tan(v)) : shat;
  luminosity_args lum = a->lum;
  lum.tau = shat / a->s;
  const double half = -0.5 * log(lum.tau), edge = log(sqrt(lum.tau) / X_MIN);
  const double y_max = half < edge ? half : edge;
  if (!(y_max > 0.0)) return 0.0;
  return jacobian / a->s * sigma_hat(a->e, a->c, shat) *
         quadrature(luminosity_y, &lum, -y_max, y_max, lum.panels);
}

/* sigma in fb for m_min < m < m_max: ln shat below and above M -+ 15 Gamma, the tan map's theta
 * between; `scale` multiplies the panels. */
static double semi_analytic(const channel *c, const int (*pairs)[2], int n_pairs, double mu,
                            double m_min, double m_max, int scale) {
  const ew e = parameters();
  const double mass = c->w ? e.mw : e.mz, width = c->w ? e.ww : e.wz;
  shat_args a = {&e, c, {pairs, n_pairs, mu, 0.0, 24 * scale}, 14000.0 * 14000.0, mass, width, 0};
  const double lo = fmax(mass - 15 * width, m_min), hi = fmin(mass + 15 * width, m_max);
  const double m2_low = fmax(m_min * m_min, X_MIN * X_MIN * a.s);
  double sum = 0.0;
  if (lo > m_min) sum += quadrature(d_sigma, &a, log(m2_low), log(lo * lo), 60 * scale);
  if (hi < m_max) sum += quadrature(d_sigma, &a, log(hi * hi), log(m_max * m_max), 90 * scale);
  a.by_theta = 1;
  const double mg = mass * width;
  sum += quadrature(d_sigma, &a, atan((lo * lo - mass * mass) / mg),
                    atan((hi * hi - mass * mass) / mg), 60 * scale);
  return sum * gev2_to_fb;
}

static double converged(const char *what, const channel *c, const int (*pairs)[2], int n_pairs,
                        double mu, double m_min, double m_max) {
  const double a = semi_analytic(c, pairs, n_pairs, mu, m_min, m_max, 1);
  const double b = semi_analytic(c, pairs, n_pairs, mu, m_min, m_max, 2);
  print_message("# %s semi-analytic: %.7e fb (doubled panels %.7e)\n", what, a, b);
  if (!(fabs(a / b - 1.0) < 1e-6)) fail_msg("%s: the quadrature has not converged", what);
  return b;
}

static hegetcl_xsec_result run(const char *process, double mu, double mmll, double mmllmax,
                               double target) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", process);
  c.dynamical_scale_choice = 0;
  c.mu_f_gev = c.mu_r_gev = mu;
  c.cuts[HG_CUT_MMLL] = mmll;
  if (mmllmax > 0.0) c.cuts[HG_CUT_MMLLMAX] = mmllmax;
  c.vegas.adapt_iterations = 4;
  c.vegas.adapt_events = 50000;
  c.vegas.events_per_iteration = 100000;
  c.vegas.min_iterations = 2;
  c.vegas.max_iterations = 40;
  c.vegas.max_events = 20000000;
  c.vegas.target_rel_error = target;
  c.vegas.batch_size = 32768;
  c.vegas.seed = 11;
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  if (status != HEGETCL_OK)
    fail_msg("%s: %s (%s)", process, hegetcl_last_error(ctx), hegetcl_status_name(status));
  return r;
}

static void check(const char *what, const hegetcl_xsec_result *r, double want) {
  const double pull = (r->vegas.estimate - want) / r->vegas.error;
  print_message("# %s: %.7e +- %.2e fb (%.3f %%), semi-analytic %.7e, pull %+.2f; unweighting "
                "efficiency %.3f\n",
                what, r->vegas.estimate, r->vegas.error, 100 * r->vegas.error / r->vegas.estimate,
                want, pull, r->groups[0].unweighting_efficiency);
  if (!(fabs(pull) < 3.0))
    fail_msg("%s: %.7e +- %.2e fb against the semi-analytic %.7e: %.2f standard deviations on %s",
             what, r->vegas.estimate, r->vegas.error, want, pull, ts_device_name(ctx));
}

static const int w_plus[2][2] = {{2, -1}, {4, -3}}, w_minus[2][2] = {{1, -2}, {3, -4}};
static const int up_type[2][2] = {{2, -2}, {4, -4}}, down_type[2][2] = {{1, -1}, {3, -3}};

/* p p > e+ ve and p p > e- ve~: no cut (the W's width bounds them), mu = M_W. */
static void w_production_matches_semi_analytic(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const ew e = parameters();
  const channel w = {1, 0, 0};
  const double target = exhaustive() ? 3e-4 : 1e-3;
  const double plus = converged("W+", &w, w_plus, 2, e.mw, 0.0, 14000.0);
  hegetcl_xsec_result r = run("p p > e+ ve", e.mw, 0.0, 0.0, target);
  check("p p > e+ ve", &r, plus);
  assert_int_equal(r.groups[0].phase_space_channels, 1);
  hegetcl_xsec_result_free(&r);
  if (!exhaustive()) return;
  const double minus = converged("W-", &w, w_minus, 2, e.mw, 0.0, 14000.0);
  r = run("p p > e- ve~", e.mw, 0.0, 0.0, target);
  check("p p > e- ve~", &r, minus);
  hegetcl_xsec_result_free(&r);
}

/* p p > e+ e- in 66 < m < 116 GeV (also against MadEvent's B4) and above 40 GeV, mu = M_Z. */
static void drell_yan_matches_semi_analytic(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const ew e = parameters();
  const channel up = {0, 2.0 / 3.0, 0.5}, down = {0, -1.0 / 3.0, -0.5};
  const double target = exhaustive() ? 3e-4 : 1e-3;
  const double window = converged("Z/gamma up-type 66..116", &up, up_type, 2, e.mz, 66, 116) +
                        converged("Z/gamma down-type 66..116", &down, down_type, 2, e.mz, 66, 116);
  hegetcl_xsec_result r = run("p p > e+ e-", e.mz, 66.0, 116.0, target);
  check("p p > e+ e- (66 < m_ll < 116)", &r, window);
  /* the Z's Breit-Wigner and the photon's 1/m^2 */
  assert_int_equal(r.groups[0].phase_space_channels, 2);
  /* MadEvent 1641.53 +- 0.72 pb */
  const double pull = (r.vegas.estimate - 1641.53e3) / hypot(r.vegas.error, 0.72e3);
  print_message("# against MadEvent's 1641.53 +- 0.72 pb: pull %+.2f\n", pull);
  assert_true(fabs(pull) < 3.0);
  hegetcl_xsec_result_free(&r);
  if (!exhaustive()) return;
  const double open = converged("Z/gamma up-type > 40", &up, up_type, 2, e.mz, 40, 14000) +
                      converged("Z/gamma down-type > 40", &down, down_type, 2, e.mz, 40, 14000);
  r = run("p p > mu+ mu-", e.mz, 40.0, 0.0, target);
  check("p p > mu+ mu- (m_ll > 40)", &r, open);
  hegetcl_xsec_result_free(&r);
}

/* What stays refused: a pair a photon makes without a mass cut; what runs: W, Z > nu nu~. */
static void massless_pairs(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 2);
  snprintf(c.process_text, sizeof c.process_text, "%s", "p p > e+ e- j");
  c.cuts[HG_CUT_PTJ] = 20.0;
  hegetcl_xsec_result r;
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, NULL, NULL, &r);
  print_message("# p p > e+ e- j without mmll: %s\n", hegetcl_last_error(ctx));
  assert_int_equal(status, HEGETCL_ERR_INPUT);
  assert_non_null(strstr(hegetcl_last_error(ctx), "--mmll"));
  hegetcl_xsec_result_free(&r);
}

/* p p > l+ vl: the muon members join the electron's group (same |M|^2, same cuts), each
 * channel's sigma equal to its electron twin's; p p > ve ve~ through the Z alone, no cut. */
static void lepton_labels_and_neutrinos(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  if (!exhaustive()) return; /* the exhaustive twin's */
  hegetcl_xsec_result r = run("p p > l+ vl", 80.419, 0.0, 0.0, 3e-3);
  assert_int_equal(r.n_groups, 1);
  assert_int_equal(r.n_process_channels, 8);
  for (unsigned k = 0; k < r.n_process_channels; ++k) {
    char twin[sizeof r.process_channels[k].text];
    snprintf(twin, sizeof twin, "%s", r.process_channels[k].text);
    char *mu = strstr(twin, "mu+ vm");
    if (mu == NULL) continue;
    memcpy(mu, "e+ ve ", 6);
    mu[5] = '\0';
    int found = 0;
    for (unsigned j = 0; j < r.n_process_channels; ++j)
      if (strcmp(r.process_channels[j].text, twin) == 0) {
        found = 1;
        assert_true(r.process_channels[j].sigma_fb == r.process_channels[k].sigma_fb);
      }
    assert_true(found);
  }
  hegetcl_xsec_result_free(&r);
  r = run("p p > ve ve~", 91.188, 0.0, 0.0, 3e-3);
  assert_int_equal(r.groups[0].phase_space_channels, 1);
  print_message("# p p > ve ve~: %.6e +- %.2e fb\n", r.vegas.estimate, r.vegas.error);
  hegetcl_xsec_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(w_matrix_element_matches_closed_form),
      cmocka_unit_test(massless_pairs),
      cmocka_unit_test(w_production_matches_semi_analytic),
      cmocka_unit_test(drell_yan_matches_semi_analytic),
      cmocka_unit_test(lepton_labels_and_neutrinos),
  };
  return cmocka_run_group_tests_name("resonances", tests, setup, teardown);
}
