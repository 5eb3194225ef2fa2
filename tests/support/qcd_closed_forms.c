/* SPDX-License-Identifier: MIT */
/* Closed-form tree-level QCD |M|^2 (2 -> 2 with tops and gluons, Parke-Taylor with full colour). */
#include "qcd_closed_forms.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Minkowski product, metric (+, -, -, -) (CONVENTIONS.md "Units and metric"). */
static double dot(const double a[4], const double b[4]) {
  return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

/* Ellis-Stirling-Webber table 10.2 (from Combridge; Glueck-Owens-Reya), spins and colours
 * averaged: with tau1 = 2 p_g1.p_t / s, tau2 = 2 p_g2.p_t / s, rho = 4 m^2 / s,
 *   g g -> Q Q~:   g^4 (1/(6 tau1 tau2) - 3/8) (tau1^2 + tau2^2 + rho - rho^2/(4 tau1 tau2)),
 *   q q~ -> Q Q~:  g^4 (4/9) (tau1^2 + tau2^2 + rho/2). */
double hg_closed_gg_ttx(double p[4][4], double g_s, double m_t) {
  const double s = 2 * dot(p[0], p[1]);
  const double tau1 = 2 * dot(p[0], p[2]) / s, tau2 = 2 * dot(p[1], p[2]) / s;
  const double rho = 4 * m_t * m_t / s, g4 = pow(g_s, 4);
  return g4 * (1 / (6 * tau1 * tau2) - 3.0 / 8) *
         (tau1 * tau1 + tau2 * tau2 + rho - rho * rho / (4 * tau1 * tau2));
}

double hg_closed_qqx_ttx(double p[4][4], double g_s, double m_t) {
  const double s = 2 * dot(p[0], p[1]);
  const double tau1 = 2 * dot(p[0], p[2]) / s, tau2 = 2 * dot(p[1], p[2]) / s;
  const double rho = 4 * m_t * m_t / s;
  return pow(g_s, 4) * 4.0 / 9 * (tau1 * tau1 + tau2 * tau2 + rho / 2);
}

/* Massless 2 -> 2 (ESW table 7.1), spins and colours averaged, s = (p1+p2)^2, t = (p1-p3)^2,
 * u = (p1-p4)^2:  g g -> g g: (9/2) g^4 (3 - tu/s^2 - su/t^2 - st/u^2);
 * q q~ -> g g: g^4 ((32/27)(t^2+u^2)/(tu) - (8/3)(t^2+u^2)/s^2). Both then / 2! as MadGraph. */
double hg_closed_gg_gg(double p[4][4], double g_s) {
  const double s = 2 * dot(p[0], p[1]), t = -2 * dot(p[0], p[2]), u = -2 * dot(p[0], p[3]);
  const double averaged =
      4.5 * pow(g_s, 4) * (3 - t * u / (s * s) - s * u / (t * t) - s * t / (u * u));
  return averaged / 2;
}

double hg_closed_qqx_gg(double p[4][4], double g_s) {
  const double s = 2 * dot(p[0], p[1]), t = -2 * dot(p[0], p[2]), u = -2 * dot(p[0], p[3]);
  const double tu2 = t * t + u * u;
  const double averaged = pow(g_s, 4) * (32.0 / 27 * tu2 / (t * u) - 8.0 / 3 * tu2 / (s * s));
  return averaged / 2;
}

/* ---- Colour: products of traces of t^a contracted by the Fierz identity ---- */

#define LABELS_MAX (2 * HG_CLOSED_GLUONS_MAX)
#define TRACES_MAX (HG_CLOSED_GLUONS_MAX + 2)
/* Powers of N a leaf can reach: each contraction gives at most one 1/N, and at most n+1 empty
 * traces are left (every contraction adds at most one trace to the two we start from). */
#define POWER_MIN (-HG_CLOSED_GLUONS_MAX)
#define POWER_MAX (HG_CLOSED_GLUONS_MAX + 2)

/* A product of traces of generators; the labels of trace k are lab[start[k] .. start[k]+len[k]). */
typedef struct {
  unsigned char lab[LABELS_MAX];
  unsigned char len[TRACES_MAX];
  unsigned n_traces;
} trace_product;

static unsigned trace_start(const trace_product *tp, unsigned k) {
  unsigned s = 0;
  for (unsigned i = 0; i < k; ++i) s += tp->len[i];
  return s;
}

/* Appends a trace made of the labels in[0..n). */
static void push_trace(trace_product *tp, const unsigned char *in, unsigned n) {
  const unsigned s = trace_start(tp, tp->n_traces);
  memcpy(tp->lab + s, in, n);
  tp->len[tp->n_traces++] = (unsigned char)n;
}

/* Every term of the product's full contraction adds sign * N^power to poly (the common factor
 * 2^-(number of contractions) is left to the caller). Each label occurs exactly twice. */
static void contract(const trace_product *tp, int sign, int power, long long *poly) {
  /* empty traces are N each; a trace of one generator is 0 */
  trace_product rest = {.n_traces = 0};
  for (unsigned k = 0; k < tp->n_traces; ++k) {
    if (tp->len[k] == 1) return;
    if (tp->len[k] == 0)
      ++power;
    else
      push_trace(&rest, tp->lab + trace_start(tp, k), tp->len[k]);
  }
  if (rest.n_traces == 0) {
    poly[power - POWER_MIN] += sign;
    return;
  }
  /* contract the first label of the first trace with its partner */
  const unsigned char a = rest.lab[0];
  unsigned tb = 0, pos = 0;
  for (unsigned k = 0, s = 0; k < rest.n_traces; s += rest.len[k], ++k)
    for (unsigned i = (k == 0); i < rest.len[k]; ++i)
      if (rest.lab[s + i] == a) tb = k, pos = i;
  trace_product first = {.n_traces = 0}, second = {.n_traces = 0};
  unsigned char x[LABELS_MAX], y[LABELS_MAX];
  const unsigned char *t0 = rest.lab;
  if (tb == 0) {
    /* Tr(a Y a X) = (Tr(Y) Tr(X) - Tr(Y X) / N) / 2, Y = t0[1..pos), X = t0[pos+1..len) */
    const unsigned ny = pos - 1, nx = rest.len[0] - pos - 1;
    memcpy(y, t0 + 1, ny);
    memcpy(x, t0 + pos + 1, nx);
    push_trace(&first, y, ny);
    push_trace(&first, x, nx);
    memcpy(y + ny, x, nx);
    push_trace(&second, y, ny + nx);
  } else {
    /* Tr(a X) Tr(a Y) = (Tr(X Y) - Tr(X) Tr(Y) / N) / 2, Y read cyclically from after a */
    const unsigned nx = rest.len[0] - 1, sb = trace_start(&rest, tb), lb = rest.len[tb];
    const unsigned ny = lb - 1;
    memcpy(x, t0 + 1, nx);
    for (unsigned i = 0; i < ny; ++i) y[i] = rest.lab[sb + (pos + 1 + i) % lb];
    unsigned char xy[LABELS_MAX];
    memcpy(xy, x, nx);
    memcpy(xy + nx, y, ny);
    push_trace(&first, xy, nx + ny);
    push_trace(&second, x, nx);
    push_trace(&second, y, ny);
  }
  /* the traces not touched by this contraction come along unchanged */
  for (unsigned k = 1; k < rest.n_traces; ++k) {
    if (k == tb) continue;
    const unsigned s = trace_start(&rest, k);
    push_trace(&first, rest.lab + s, rest.len[k]);
    push_trace(&second, rest.lab + s, rest.len[k]);
  }
  contract(&first, sign, power, poly);
  contract(&second, -sign, power - 1, poly);
}

static int is_permutation(unsigned m, const unsigned *tau) {
  unsigned seen = 0;
  for (unsigned k = 0; k < m; ++k) {
    if (tau[k] >= m || (seen >> tau[k] & 1u)) return 0;
    seen |= 1u << tau[k];
  }
  return 1;
}

double hg_closed_trace_colour_factor(unsigned n, const unsigned *tau) {
  if (n < 2 || n > HG_CLOSED_GLUONS_MAX || tau == NULL || !is_permutation(n - 1, tau)) return NAN;
  /* Tr(b1 b2 .. bn) Tr(b1 b_tau2 .. b_taun)^* = Tr(b1 .. bn) Tr(b_taun .. b_tau2 b1): the t^a are
   * Hermitian, so conjugation reverses the order */
  trace_product tp = {.n_traces = 0};
  unsigned char labels[HG_CLOSED_GLUONS_MAX];
  for (unsigned k = 0; k < n; ++k) labels[k] = (unsigned char)k;
  push_trace(&tp, labels, n);
  for (unsigned k = 0; k + 1 < n; ++k) labels[k] = (unsigned char)(tau[n - 2 - k] + 1);
  labels[n - 1] = 0;
  push_trace(&tp, labels, n);
  long long poly[POWER_MAX - POWER_MIN + 1] = {0};
  contract(&tp, 1, 0, poly);
  /* sum_k poly[k] N^k / 2^n at N = 3: one integer numerator over 3^(-POWER_MIN) 2^n, both exact
   * in double (|numerator| < 2^n 3^(POWER_MAX - POWER_MIN) < 2^53), so one correctly rounded
   * division */
  long long numerator = 0, power3 = 1;
  for (int k = 0; k <= POWER_MAX - POWER_MIN; ++k, power3 *= 3) numerator += poly[k] * power3;
  double denominator = ldexp(1.0, (int)n);
  for (int k = 0; k < -POWER_MIN; ++k) denominator *= 3;
  return (double)numerator / denominator;
}

/* ---- Kinematics: spinor products ---- */

/* The angle spinor lambda of a massless momentum with lambda_a lambda*_b = p_ab, p_ab =
 * [[p+, px - i py], [px + i py, p-]] (p+- = E +- pz), up to a phase; the formula is chosen by
 * the sign of pz so that nothing is divided by a vanishing p+ or p-. Incoming momenta are used
 * with their physical (positive) energy: crossing p -> -p multiplies lambda by a constant phase,
 * and each particle enters every ordering's Parke-Taylor denominator twice and the numerator
 * 0 or 4 times, so the crossing changes every partial amplitude by the same phase, which the
 * colour sum does not see. */
static void spinor(const double p[4], double complex lambda[2]) {
  if (p[3] >= 0) {
    const double r = sqrt(p[0] + p[3]);
    lambda[0] = r;
    lambda[1] = (p[1] + I * p[2]) / r;
  } else {
    const double r = sqrt(p[0] - p[3]);
    lambda[0] = (p[1] - I * p[2]) / r;
    lambda[1] = r;
  }
}

/* The permutations of 0..m-1 in lexicographic order, m at a time; returns their count. */
static size_t all_permutations(unsigned m, unsigned char *out) {
  unsigned char a[HG_CLOSED_GLUONS_MAX];
  for (unsigned k = 0; k < m; ++k) a[k] = (unsigned char)k;
  size_t count = 0;
  for (;;) {
    memcpy(out + count++ * m, a, m);
    int i = (int)m - 2;
    while (i >= 0 && a[i] > a[i + 1]) --i;
    if (i < 0) return count;
    int j = (int)m - 1;
    while (a[j] < a[i]) --j;
    unsigned char t = a[i];
    a[i] = a[j], a[j] = t;
    for (int l = i + 1, r = (int)m - 1; l < r; ++l, --r) t = a[l], a[l] = a[r], a[r] = t;
  }
}

/* A permutation's digits read in base m: a dense index into a table of m^m entries. */
static size_t code_of(unsigned m, const unsigned char *perm) {
  size_t code = 0;
  for (unsigned k = m; k-- > 0;) code = code * m + perm[k];
  return code;
}

double hg_closed_mhv_gluons(unsigned n, double p[][4], uint32_t helicity, double g_s) {
  if (n < 4 || n > HG_CLOSED_GLUONS_MAX || p == NULL || (helicity >> n) != 0)
    return HG_CLOSED_BAD_INPUT;
  for (unsigned i = 0; i < n; ++i)
    for (unsigned c = 0; c < 4; ++c)
      if (!isfinite(p[i][c])) return HG_CLOSED_BAD_INPUT;
  for (unsigned i = 0; i < n; ++i)
    if (!(p[i][0] > 0)) return HG_CLOSED_BAD_INPUT;
  /* all-outgoing helicities: the incoming 0 and 1 flip */
  unsigned n_negative = 0, n_positive = 0, negative[HG_CLOSED_GLUONS_MAX],
           positive[HG_CLOSED_GLUONS_MAX];
  for (unsigned i = 0; i < n; ++i) {
    const int physical_plus = (helicity >> i) & 1u;
    if (physical_plus != (i < 2))
      positive[n_positive++] = i;
    else
      negative[n_negative++] = i;
  }
  if (n_negative <= 1 || n_positive <= 1) return 0;
  const int mhv = n_negative == 2;
  if (!mhv && n_positive != 2) return HG_CLOSED_NMHV;
  const unsigned j = mhv ? negative[0] : positive[0], k = mhv ? negative[1] : positive[1];

  /* angle brackets <ab>; anti-MHV takes square brackets [ab], which for real momenta are the
   * complex conjugates up to a sign per bracket: (-1)^n in every partial amplitude alike */
  double complex lambda[HG_CLOSED_GLUONS_MAX][2],
      bracket[HG_CLOSED_GLUONS_MAX][HG_CLOSED_GLUONS_MAX];
  for (unsigned i = 0; i < n; ++i) spinor(p[i], lambda[i]);
  for (unsigned a = 0; a < n; ++a)
    for (unsigned b = 0; b < n; ++b) {
      const double complex ab = lambda[a][0] * lambda[b][1] - lambda[a][1] * lambda[b][0];
      if (a != b && ab == 0) return HG_CLOSED_BAD_INPUT; /* collinear: |M|^2 is infinite */
      bracket[a][b] = mhv ? ab : conj(ab);
    }

  const unsigned m = n - 1;
  size_t n_perms = 1, table_size = 1;
  for (unsigned i = 2; i <= m; ++i) n_perms *= i;
  for (unsigned i = 0; i < m; ++i) table_size *= m;
  unsigned char *perms = malloc(n_perms * m);
  unsigned *rank = malloc(table_size * sizeof *rank);
  double complex *denominator = malloc(n_perms * sizeof *denominator);
  double *colour = malloc(n_perms * sizeof *colour);
  double result = HG_CLOSED_BAD_INPUT;
  if (perms == NULL || rank == NULL || denominator == NULL || colour == NULL) goto done;
  all_permutations(m, perms);
  for (size_t r = 0; r < n_perms; ++r) {
    const unsigned char *sigma = perms + r * m;
    rank[code_of(m, sigma)] = (unsigned)r;
    /* D_sigma = 1 / (<1 s2><s2 s3> ... <sn 1>), particle 0 first, then 1 + sigma[..] */
    double complex product = bracket[0][1 + sigma[0]];
    for (unsigned i = 0; i + 1 < m; ++i) product *= bracket[1 + sigma[i]][1 + sigma[i + 1]];
    product *= bracket[1 + sigma[m - 1]][0];
    denominator[r] = 1 / product;
    unsigned tau[HG_CLOSED_GLUONS_MAX];
    for (unsigned i = 0; i < m; ++i) tau[i] = sigma[i];
    colour[r] = hg_closed_trace_colour_factor(n, tau);
  }
  /* C_{sigma sigma'} depends on tau = sigma^-1 sigma' only (rename the summed colour labels), so
   * sum_{sigma, sigma'} D_sigma D*_sigma' C_{sigma sigma'} = sum_sigma D_sigma
   * sum_tau C(tau) D*_{sigma tau}, with (sigma tau)[i] = sigma[tau[i]] */
  double complex sum = 0;
  for (size_t r = 0; r < n_perms; ++r) {
    const unsigned char *sigma = perms + r * m;
    double complex inner = 0;
    for (size_t t = 0; t < n_perms; ++t) {
      const unsigned char *tau = perms + t * m;
      size_t code = 0;
      for (unsigned i = m; i-- > 0;) code = code * m + sigma[tau[i]];
      inner += colour[t] * conj(denominator[rank[code]]);
    }
    sum += denominator[r] * inner;
  }
  /* |<jk>|^8 = s_jk^4; the normalisation (Dixon's T^a = sqrt(2) t^a) gives 2^n */
  const double jk2 = creal(bracket[j][k] * conj(bracket[j][k]));
  result = pow(g_s, 2.0 * n - 4) * ldexp(1.0, (int)n) * jk2 * jk2 * jk2 * jk2 * creal(sum);
done:
  free(perms);
  free(rank);
  free(denominator);
  free(colour);
  return result;
}

double complex hg_closed_parke_taylor(unsigned n, double p[][4], uint32_t helicity,
                                     const unsigned char *order) {
  unsigned n_negative = 0, n_positive = 0, negative[2] = {0, 0}, positive[2] = {0, 0};
  for (unsigned i = 0; i < n; ++i) {
    const int physical_plus = (helicity >> i) & 1u;
    if (physical_plus != (i < 2)) {
      if (n_positive < 2) positive[n_positive] = i;
      ++n_positive;
    } else {
      if (n_negative < 2) negative[n_negative] = i;
      ++n_negative;
    }
  }
  const int mhv = n_negative == 2;
  if (!mhv && n_positive != 2) return 0;
  double complex a[2], b[2];
  const unsigned j = mhv ? negative[0] : positive[0], k = mhv ? negative[1] : positive[1];
  spinor(p[j], a);
  spinor(p[k], b);
  const double complex jk = a[0] * b[1] - a[1] * b[0];
  double complex numerator = mhv ? jk : conj(jk);
  numerator *= numerator;
  numerator *= numerator;
  double complex denominator = 1;
  for (unsigned i = 0; i < n; ++i) {
    spinor(p[order[i]], a);
    spinor(p[order[(i + 1) % n]], b);
    const double complex ab = a[0] * b[1] - a[1] * b[0];
    denominator *= mhv ? ab : conj(ab);
  }
  return numerator / denominator;
}

const char *hg_closed_error_message(double code) {
  if (code == HG_CLOSED_NMHV)
    return "hg_closed_mhv_gluons: NMHV configuration (3 or more gluons of each helicity after "
           "crossing): no Parke-Taylor form; compare it against a full amplitude instead";
  if (code == HG_CLOSED_BAD_INPUT)
    return "hg_closed_mhv_gluons: n must be 4..8 (HG_CLOSED_GLUONS_MAX), helicity must fit in "
           "n bits, every momentum be finite with E > 0 and no two collinear (or out of memory)";
  return code >= 0 ? "not an error" : "unknown error code";
}
