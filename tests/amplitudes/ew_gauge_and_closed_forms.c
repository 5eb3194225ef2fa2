/* SPDX-License-Identifier: MIT */
/* The electroweak sector's physics through the diagrams engine: e+ e- > mu+ mu- (photon and Z)
 * and Bhabha scattering against their helicity-amplitude closed forms, the forward-backward
 * asymmetry at sqrt(s) = M_Z and the Z line shape; Ward identities of external photons and
 * gluons in processes with W and Z (the W W a vertex among them); the high-energy cancellations
 * in e+ e- > W+ W- and W+ W- > Z Z; and bad input (a process the model forbids, a negative
 * width, electroweak inputs out of range). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "test_support.h"

static const double pi = 3.14159265358979323846;

/* HEGETCL_TEST_EXHAUSTIVE=1: the checks whose programs take PoCL longest too */
static int exhaustive(void) {
  const char *ex = getenv("HEGETCL_TEST_EXHAUSTIVE");
  return ex != NULL && strcmp(ex, "1") == 0;
}
static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  ctx = ts_context_create();
  return ctx == NULL ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

/* momenta[(c * n + i) * n_events + e] = component c of particle i of event e */
#define AT(m, c, i, n, ne, e) (m)[((size_t)(c) * (n) + (i)) * (ne) + (e)]

/* A 2 -> 2 point: incoming of mass m_in along +z and -z at sqrt_s, the outgoing pair of masses
 * m3, m4 at polar angle theta (of particle 3) in the x-z plane. */
static void two_to_two_in(double sqrt_s, double m_in, double m3, double m4, double cos_theta,
                          double *m, size_t ne, size_t e) {
  const double s = sqrt_s * sqrt_s;
  const double e3 = (s + m3 * m3 - m4 * m4) / (2 * sqrt_s), e4 = sqrt_s - e3;
  const double p = sqrt(e3 * e3 - m3 * m3), sin_theta = sqrt(1 - cos_theta * cos_theta);
  const double pin = sqrt(s / 4 - m_in * m_in);
  const double v[4][4] = {{sqrt_s / 2, 0, 0, pin},
                          {sqrt_s / 2, 0, 0, -pin},
                          {e3, p * sin_theta, 0, p * cos_theta},
                          {e4, -p * sin_theta, 0, -p * cos_theta}};
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) AT(m, c, i, 4, ne, e) = v[i][c];
}

static hegetcl_amplitude *make(const char *text, hegetcl_width_scheme scheme) {
  hegetcl_process process;
  char message[1024];
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  process.engine = HEGETCL_ENGINE_DIAGRAMS;
  process.width_scheme = scheme;
  hegetcl_amplitude *amp = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  return amp;
}

static void two_to_two(double sqrt_s, double m3, double m4, double cos_theta, double *m, size_t ne,
                       size_t e) {
  two_to_two_in(sqrt_s, 0, m3, m4, cos_theta, m, ne, e);
}

/* ---- e+ e- > mu+ mu- closed form ---- */

typedef struct {
  double ee, sw2, mz, wz;
} ew_inputs;

static ew_inputs inputs(void) {
  hegetcl_process p;
  hegetcl_process_defaults(&p, 2);
  ew_inputs in;
  assert_int_equal(hegetcl_process_get_derived(&p, "ee", &in.ee), HEGETCL_OK);
  assert_int_equal(hegetcl_process_get_derived(&p, "sw2", &in.sw2), HEGETCL_OK);
  in.mz = p.z_mass;
  in.wz = p.z_width;
  return in;
}

/* The chiral amplitudes A_ij = e^2 Q_e Q_mu / s + g_i(e) g_j(mu) / (s - M_Z^2 + i M_Z Gamma_Z),
 * g_L = e (T3 - Q sw2) / (sw cw), g_R = -e Q sw2 / (sw cw) (T3 = -1/2, Q = -1 for both);
 * a = |A_LL|^2 + |A_RR|^2 (the same helicity: (1 + cos theta)^2), b = |A_LR|^2 + |A_RL|^2. */
static void chiral(const ew_inputs *in, double s, double *a, double *b) {
  const double sw = sqrt(in->sw2), cw = sqrt(1 - in->sw2);
  const double gl = in->ee * (-0.5 + in->sw2) / (sw * cw), gr = in->ee * in->sw2 / (sw * cw);
  const double complex z = 1.0 / (s - in->mz * in->mz + I * in->mz * in->wz);
  const double photon = in->ee * in->ee / s;
  const double complex ll = photon + gl * gl * z, rr = photon + gr * gr * z;
  const double complex lr = photon + gl * gr * z;
  *a = creal(ll * conj(ll)) + creal(rr * conj(rr));
  *b = 2 * creal(lr * conj(lr));
}

/* |M|^2 averaged over the initial helicities, particles e+(1) e-(2) mu+(3) mu-(4):
 * a u^2 + b t^2, t = (p_e- - p_mu-)^2, u = (p_e- - p_mu+)^2. */
static double closed_form(const ew_inputs *in, double sqrt_s, double cos_mu_plus) {
  const double s = sqrt_s * sqrt_s;
  /* theta of the mu- against the e- (along -z) equals theta of the mu+ against +z */
  const double t = -s / 2 * (1 - cos_mu_plus), u = -s / 2 * (1 + cos_mu_plus);
  double a, b;
  chiral(in, s, &a, &b);
  return a * u * u + b * t * t;
}

static void epem_mupmum_matches_its_helicity_closed_form(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const ew_inputs in = inputs();
  const double roots[] = {
      20, in.mz - 3 * in.wz, in.mz - in.wz / 2, in.mz, in.mz + in.wz, 200, 1000, 3000};
  const double cosines[] = {-0.95, -0.4, 0.1, 0.7};
  const size_t nr = sizeof roots / sizeof roots[0], nc = sizeof cosines / sizeof cosines[0];
  const size_t ne = nr * nc;
  double *m = calloc(16 * ne, sizeof *m), *me = calloc(ne, sizeof *me);
  for (size_t r = 0; r < nr; ++r)
    for (size_t c = 0; c < nc; ++c) two_to_two(roots[r], 0, 0, cosines[c], m, ne, r * nc + c);
  hegetcl_amplitude *amp = make("e+ e- > mu+ mu-", HEGETCL_WIDTH_RESONANT);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, ne, m, me));
  double worst = 0;
  for (size_t r = 0; r < nr; ++r)
    for (size_t c = 0; c < nc; ++c) {
      const double want = closed_form(&in, roots[r], cosines[c]);
      const double rel = ts_rel_diff(me[r * nc + c], want);
      if (!(rel <= 1e-12))
        fail_msg("e+ e- > mu+ mu- at sqrt(s) = %g, cos theta = %g: %.17g, closed form %.17g",
                 roots[r], cosines[c], me[r * nc + c], want);
      if (rel > worst) worst = rel;
    }
  printf("# e+ e- > mu+ mu- against the closed form: largest relative difference %.2e over %zu "
         "points\n",
         worst, ne);
  hegetcl_amplitude_destroy(amp);
  free(m);
  free(me);
}

/* Bhabha scattering e+ e- > e+ e- with photon and Z in the s and t channels (the Z width in the
 * s channel only, the resonant scheme), against its helicity amplitudes (the relative sign of
 * the s and t channels is Fermi statistics, the diagram engine's pairing sign):
 *   A_LL = e^2/s + g_L^2 D(s) + e^2/t + g_L^2 D(t) (and R), weight u^2;
 *   A_LR^s = e^2/s + g_L g_R D(s), weight t^2;  A_LR^t = e^2/t + g_L g_R D(t), weight s^2;
 * |M|^2 averaged = u^2 (|A_LL|^2 + |A_RR|^2) + 2 t^2 |A_LR^s|^2 + 2 s^2 |A_LR^t|^2. */
static void bhabha_matches_its_helicity_closed_form(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const ew_inputs in = inputs();
  const double sw = sqrt(in.sw2), cw = sqrt(1 - in.sw2);
  const double gl = in.ee * (-0.5 + in.sw2) / (sw * cw), gr = in.ee * in.sw2 / (sw * cw);
  const double e2 = in.ee * in.ee;
  const double roots[] = {30, in.mz, in.mz + in.wz, 500, 2000};
  const double cosines[] = {-0.8, -0.2, 0.3, 0.9};
  double m[16 * 20], me[20];
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c) two_to_two(roots[r], 0, 0, cosines[c], m, 20, (size_t)(4 * r + c));
  hegetcl_amplitude *amp = make("e+ e- > e+ e-", HEGETCL_WIDTH_RESONANT);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 20, m, me));
  double worst = 0;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c) {
      const double s = roots[r] * roots[r];
      /* particle 3 (e+) at cos theta: the e- (4) leaves at -cos theta against +z, i.e. at
       * angle theta from the incoming e- (2, along -z): t = (p2 - p4)^2 = -s (1 - cos) / 2 */
      const double t = -s / 2 * (1 - cosines[c]), u = -s / 2 * (1 + cosines[c]);
      const double complex ds = 1.0 / (s - in.mz * in.mz + I * in.mz * in.wz);
      const double complex dt = 1.0 / (t - in.mz * in.mz);
      const double complex ll = e2 / s + gl * gl * ds + e2 / t + gl * gl * dt;
      const double complex rr = e2 / s + gr * gr * ds + e2 / t + gr * gr * dt;
      const double complex lrs = e2 / s + gl * gr * ds, lrt = e2 / t + gl * gr * dt;
      const double want = u * u * (creal(ll * conj(ll)) + creal(rr * conj(rr))) +
                          2 * t * t * creal(lrs * conj(lrs)) + 2 * s * s * creal(lrt * conj(lrt));
      const double rel = ts_rel_diff(me[4 * r + c], want);
      if (!(rel <= 1e-12))
        fail_msg("e+ e- > e+ e- at sqrt(s) = %g, cos theta = %g: %.17g, closed form %.17g",
                 roots[r], cosines[c], me[4 * r + c], want);
      if (rel > worst) worst = rel;
    }
  printf("# e+ e- > e+ e- (Bhabha, photon and Z, s and t channels) against the closed form: "
         "%.2e\n",
         worst);
  hegetcl_amplitude_destroy(amp);
}

/* sigma(sqrt s) and A_FB from the engine: |M|^2 is quadratic in cos theta, so two-point
 * Gauss-Legendre on each hemisphere integrates it exactly. */
static void engine_sigma(hegetcl_amplitude *amp, double sqrt_s, double *sigma, double *afb) {
  const double x = 1 / sqrt(3.0);
  const double nodes[4] = {0.5 - x / 2, 0.5 + x / 2, -0.5 - x / 2, -0.5 + x / 2};
  double m[16 * 4], me[4];
  for (int k = 0; k < 4; ++k) two_to_two(sqrt_s, 0, 0, nodes[k], m, 4, (size_t)k);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 4, m, me));
  /* cos theta of the mu+ against +z = cos theta of the mu- against the e-: forward = k 0, 1 */
  const double s = sqrt_s * sqrt_s, norm = 2 * pi / (64 * pi * pi * s) * 0.5;
  const double forward = norm * (me[0] + me[1]), backward = norm * (me[2] + me[3]);
  *sigma = forward + backward;
  *afb = (forward - backward) / (forward + backward);
}

static void forward_backward_asymmetry_and_z_line_shape_match_closed_forms(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  const ew_inputs in = inputs();
  hegetcl_amplitude *amp = make("e+ e- > mu+ mu-", HEGETCL_WIDTH_RESONANT);
  /* A_FB at the pole: 3/4 (a - b) / (a + b) */
  double sigma, afb, a, b;
  engine_sigma(amp, in.mz, &sigma, &afb);
  chiral(&in, in.mz * in.mz, &a, &b);
  const double afb_closed = 0.75 * (a - b) / (a + b);
  if (!(fabs(afb - afb_closed) <= 1e-12))
    fail_msg("A_FB at sqrt(s) = M_Z: %.17g, closed form %.17g", afb, afb_closed);
  printf("# A_FB(sqrt s = M_Z) = %.15f, closed form %.15f\n", afb, afb_closed);
  /* the line shape: sigma = s (a + b) / (48 pi) */
  const double k[] = {-3, -1, -0.5, 0, 0.5, 1, 3};
  double at[7];
  for (int j = 0; j < 7; ++j) {
    const double root = in.mz + k[j] * in.wz, s = root * root;
    engine_sigma(amp, root, &sigma, &afb);
    chiral(&in, s, &a, &b);
    const double want = s * (a + b) / (48 * pi);
    if (!(ts_rel_diff(sigma, want) <= 1e-12))
      fail_msg("sigma(sqrt s = M_Z %+g Gamma_Z) = %.17g GeV^-2, closed form %.17g", k[j], sigma,
               want);
    at[j] = sigma;
  }
  /* a Breit-Wigner of width Gamma_Z: the peak at M_Z, half the height at M_Z +- Gamma_Z / 2
   * (within 10%: the photon and the s-dependence of the width term shift it slightly) */
  for (int j = 0; j < 7; ++j)
    if (j != 3 && !(at[j] < at[3]))
      fail_msg("the line shape peaks away from M_Z: sigma(%+g Gamma) = %g >= sigma(M_Z) = %g", k[j],
               at[j], at[3]);
  for (int j = 2; j <= 4; j += 2)
    if (!(fabs(at[j] / at[3] - 0.5) < 0.05))
      fail_msg("sigma(M_Z %+g Gamma_Z) / sigma(M_Z) = %g, a Breit-Wigner gives 1/2", k[j],
               at[j] / at[3]);
  printf("# Z line shape: sigma(M_Z) = %.6e GeV^-2 = %.4f nb; sigma(M_Z -+ Gamma/2) / sigma(M_Z) "
         "= %.4f, %.4f\n",
         at[3], at[3] * 0.3893793721e6, at[2] / at[3], at[4] / at[3]);
  hegetcl_amplitude_destroy(amp);
}

/* ---- Ward identities ---- */

/* Points of text from seeded RAMBO-like draws: isotropic two-body chains are enough here, so
 * points come from hegetcl's own massless-or-massive generator of the benchmark. */
#include "../../bench/rambo.h"

static void ward_identity_scheme(const char *text, int gauge_particle, double sqrt_s,
                                 int complex_mass) {
  hegetcl_process process;
  char message[1024];
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  process.engine = HEGETCL_ENGINE_DIAGRAMS;
  process.complex_mass = complex_mass;
  if (complex_mass) process.width_scheme = HEGETCL_WIDTH_ALL;
  const unsigned n = hegetcl_process_particles(&process);
  double masses[16];
  for (unsigned i = 2; i < n; ++i) masses[i - 2] = hegetcl_process_mass(&process, i);
  const size_t ne = 4;
  double *m = calloc(4 * n * ne, sizeof *m), *me = calloc(ne, sizeof *me),
         *zero = calloc(ne, sizeof *zero);
  hg_bench_rambo_massive(n - 2, masses, sqrt_s, ne, 2024, m);
  hegetcl_amplitude *amp = NULL, *gauge = NULL;
  TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, ne, m, me));
  TS_ASSERT_OK(ctx, hg_amplitude_create_gauge_check(ctx, &process, gauge_particle, &gauge));
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(gauge, ne, m, zero));
  double worst = 0;
  for (size_t e = 0; e < ne; ++e) {
    /* rounding leaves ~1e-16 of the largest diagrams: |M|^2 ~ 1e-28 of the helicity sum */
    if (!(fabs(zero[e]) <= 1e-20 * me[e]))
      fail_msg("%s, particle %d's polarisation -> p/E, point %zu: |M|^2 %.3e against the "
               "helicity sum %.3e (ratio %.3e, tolerance 1e-20)",
               text, gauge_particle, e + 1, zero[e], me[e], zero[e] / me[e]);
    if (zero[e] / me[e] > worst) worst = zero[e] / me[e];
  }
  printf("# Ward identity %-22s particle %d%s: largest |M|^2(eps -> p/E) / |M|^2 = %.1e\n", text,
         gauge_particle, complex_mass ? " (complex masses)" : "", worst);
  hegetcl_amplitude_destroy(amp);
  hegetcl_amplitude_destroy(gauge);
  free(m);
  free(me);
  free(zero);
}

static void ward_identity(const char *text, int gauge_particle, double sqrt_s) {
  ward_identity_scheme(text, gauge_particle, sqrt_s, 0);
}

static void photons_and_gluons_obey_ward_identities(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  /* the photon off the W (the W W a vertex in unitary gauge, the W width in every W
   * propagator), off the quarks and the leptons */
  ward_identity("u d~ > e+ ve a", 4, 1000);
  if (!exhaustive()) return;
  /* external W's: W W a a and W W Z a four-vector vertices */
  ward_identity("e+ e- > w+ w- a", 4, 1000);
  /* the complex-mass scheme: complex couplings, the widths in every propagator (internal W's
   * only: an external W on its real mass shell is not at the complex pole) */
  ward_identity_scheme("u d~ > e+ ve a", 4, 1000, 1);
  ward_identity("u u~ > e+ e- a", 4, 1000);
  /* gluons beside a W */
  ward_identity("u d~ > e+ ve g g", 4, 1000);
  ward_identity("u d~ > e+ ve g g", 5, 1000);
}

/* e+ e- > W+ W- at a fixed angle: the photon, Z and neutrino diagrams grow like s / M_W^2 each
 * for longitudinal W's (|M|^2 of each alone rises with sqrt(s)); their sum falls (the gauge
 * cancellation). */
static void epem_to_ww_falls_with_energy(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_process process;
  hegetcl_process_defaults(&process, 2);
  double mw;
  assert_int_equal(hegetcl_process_get_derived(&process, "MW", &mw), HEGETCL_OK);
  const double roots[] = {500, 1000, 2000, 5000};
  const double cosines[] = {-0.5, 0.0, 0.5};
  double m[16 * 12], me[12];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c)
      two_to_two(roots[r], mw, mw, cosines[c], m, 12, (size_t)(3 * r + c));
  hegetcl_amplitude *amp = make("e+ e- > w+ w-", HEGETCL_WIDTH_RESONANT);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 12, m, me));
  for (int c = 0; c < 3; ++c) {
    printf("# e+ e- > w+ w-, cos theta = %+.1f: |M|^2 =", cosines[c]);
    for (int r = 0; r < 4; ++r) printf(" %.4e (%g GeV)", me[3 * r + c], roots[r]);
    printf("\n");
    for (int r = 1; r < 4; ++r)
      if (!(me[3 * r + c] < me[3 * (r - 1) + c]))
        fail_msg("e+ e- > w+ w- at cos theta = %g: |M|^2 rises from %g GeV (%.6e) to %g GeV "
                 "(%.6e): the gauge cancellation fails",
                 cosines[c], roots[r - 1], me[3 * (r - 1) + c], roots[r], me[3 * r + c]);
  }
  hegetcl_amplitude_destroy(amp);
  /* each of the three diagrams alone: |M|^2 grows (like s^2 / M_W^4 at large s); three more
   * programs, in the exhaustive run */
  if (!exhaustive()) return;
  hegetcl_process_from_text(&process, "e+ e- > w+ w-", NULL, 0);
  process.engine = HEGETCL_ENGINE_DIAGRAMS;
  for (int d = 0; d < 3; ++d) {
    hegetcl_amplitude *one = NULL;
    TS_ASSERT_OK(ctx, hg_amplitude_create_diagram_subset(ctx, &process, 1u << d, &one));
    double alone[12];
    TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(one, 12, m, alone));
    printf("# e+ e- > w+ w-, diagram %d alone, cos theta = 0: |M|^2 =", d);
    for (int r = 0; r < 4; ++r) printf(" %.4e (%g GeV)", alone[3 * r + 1], roots[r]);
    printf("\n");
    for (int r = 1; r < 4; ++r)
      if (!(alone[3 * r + 1] > 2 * alone[3 * (r - 1) + 1]))
        fail_msg("e+ e- > w+ w-, diagram %d alone: |M|^2 %.6e at %g GeV, %.6e at %g GeV: it "
                 "should grow",
                 d, alone[3 * (r - 1) + 1], roots[r - 1], alone[3 * r + 1], roots[r]);
    hegetcl_amplitude_destroy(one);
  }
}

/* W+ W- > Z Z: W exchange and the W W Z Z vertex grow like (s / M_W^2)^2 for longitudinal
 * bosons, the Higgs in the s channel cancels what is left: |M|^2 at a fixed angle stays bounded
 * from 1 to 20 TeV (the Higgs couplings' signs against the gauge couplings). */
static void ww_to_zz_stays_bounded(void **state) {
  (void)state;
  ts_skip_without_fp64(ctx, HEGETCL_PRECISION_DOUBLE);
  hegetcl_process process;
  hegetcl_process_defaults(&process, 2);
  double mw;
  assert_int_equal(hegetcl_process_get_derived(&process, "MW", &mw), HEGETCL_OK);
  const double mz = process.z_mass;
  const double roots[] = {1000, 2000, 5000, 20000};
  double m[16 * 4], me[4];
  for (int r = 0; r < 4; ++r) two_to_two_in(roots[r], mw, mz, mz, 0.3, m, 4, (size_t)r);
  hegetcl_amplitude *amp = make("w+ w- > z z", HEGETCL_WIDTH_RESONANT);
  TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, 4, m, me));
  printf("# w+ w- > z z, cos theta = 0.3: |M|^2 =");
  for (int r = 0; r < 4; ++r) printf(" %.4e (%g GeV)", me[r], roots[r]);
  printf("\n");
  for (int r = 1; r < 4; ++r)
    if (!(me[r] < 2 * me[0]))
      fail_msg("w+ w- > z z: |M|^2 grows from %.6e at 1 TeV to %.6e at %g GeV: the Higgs does "
               "not cancel the longitudinal growth",
               me[0], me[r], roots[r]);
  hegetcl_amplitude_destroy(amp);
}

/* ---- bad input ---- */

static void expect_refused(hegetcl_status status, const char *message, const char *needle) {
  assert_int_equal(status, HEGETCL_ERR_INPUT);
  if (strstr(message, needle) == NULL) fail_msg("message \"%s\" lacks \"%s\"", message, needle);
}

static void bad_input_is_refused_with_the_fix(void **state) {
  (void)state;
  hegetcl_process p;
  char message[1024] = "";
  expect_refused(hegetcl_process_from_text(&p, "u u~ > w+ g", message, sizeof message), message,
                 "electric charge is not conserved");
  expect_refused(hegetcl_process_from_text(&p, "u d~ > e+ vm", message, sizeof message), message,
                 "not conserved");
  hegetcl_process_defaults(&p, 2);
  expect_refused(hegetcl_process_set_param(&p, "WZ", -1, message, sizeof message), message,
                 "WZ = -1 is out of range");
  expect_refused(hegetcl_process_set_param(&p, "MQ", 1, message, sizeof message), message,
                 "unknown parameter 'MQ'");
  expect_refused(hegetcl_process_set_param(&p, "Gf", 1e-6, message, sizeof message), message,
                 "no real W mass");
  expect_refused(hegetcl_process_set_param(&p, "MZ", NAN, message, sizeof message), message,
                 "out of range");
  /* the refused values left p as it was */
  double wz;
  assert_int_equal(hegetcl_process_get_param(&p, "WZ", &wz), HEGETCL_OK);
  assert_true(wz == 2.441404);
  assert_int_equal(hegetcl_process_set_param(&p, "MZ", 91.2, message, sizeof message), HEGETCL_OK);
  assert_true(p.z_mass == 91.2);
  /* a negative width written into the struct directly: refused when the amplitude is made */
  assert_int_equal(hegetcl_process_from_text(&p, "e+ e- > mu+ mu-", message, sizeof message),
                   HEGETCL_OK);
  p.z_width = -2;
  hegetcl_amplitude *amp = NULL;
  assert_int_equal(hegetcl_amplitude_create(ctx, &p, &amp), HEGETCL_ERR_INPUT);
  if (strstr(hegetcl_last_error(ctx), "WZ = -2") == NULL)
    fail_msg("message: %s", hegetcl_last_error(ctx));
  /* no diagram within the orders */
  assert_int_equal(hegetcl_process_from_text(&p, "e+ e- > ve ve~ QED<=1", message, sizeof message),
                   HEGETCL_OK);
  assert_int_equal(hegetcl_amplitude_create(ctx, &p, &amp), HEGETCL_ERR_INPUT);
  if (strstr(hegetcl_last_error(ctx), "within the coupling orders") == NULL)
    fail_msg("message: %s", hegetcl_last_error(ctx));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(epem_mupmum_matches_its_helicity_closed_form),
      cmocka_unit_test(forward_backward_asymmetry_and_z_line_shape_match_closed_forms),
      cmocka_unit_test(bhabha_matches_its_helicity_closed_form),
      cmocka_unit_test(photons_and_gluons_obey_ward_identities),
      cmocka_unit_test(epem_to_ww_falls_with_energy),
      cmocka_unit_test(ww_to_zz_stays_bounded),
      cmocka_unit_test(bad_input_is_refused_with_the_fix),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
