/* SPDX-License-Identifier: MIT */
/* Floating-point operations per event, counted from the kernels' code (cl/helas, cl/amplitudes):
 * a complex multiplication is 6, a complex fused multiply-add 8, a complex addition 2, a real
 * multiply-add 2, a division or square root 1. Integer work (indices, ranks) is not counted. */
#include "flops.h"

#include <stdlib.h>
#include <string.h>

#include "amplitude/diagrams_codegen.h"

/* The HELAS functions (cl/helas/ffv.cl, external.cl) and their pieces. */
#define F_MAT2_APPLY 28.0  /* 2 complex multiplications and 2 complex multiply-adds */
#define F_SIGMA_WAVE 16.0  /* four complex entries of sigma(V) */
#define F_SIGMA_REAL 8.0   /* four real entries of sigma(p) */
#define F_PROPAGATE 48.0   /* p^2 (7), -1/p^2 (1), sigma(p) (8), the product (28), scaling (4) */
#define F_VERTEX_TERM 36.0 /* a vertex product (28), its sum (4), p minus k (4) */
#define F_FVIXX0 200.0     /* fvixx0 / fvoxx0: 2 sigma(V), 2 sigma(p), 4 products, scalings */
#define F_IOVXXX 186.0     /* iovxxx: 8 bilinears with their vector components */
#define F_VXXXX0 23.0
#define F_QUARKS 15.0 /* ixxxx1 and oxxxx2 */
#define F_SQUARE 4.0  /* |A|^2 and its sum */

static double factorial(unsigned n) {
  double f = 1;
  for (unsigned i = 2; i <= n; ++i) f *= i;
  return f;
}

static double binomial(unsigned n, unsigned k) {
  double b = 1;
  for (unsigned i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

/* n!/(n-k)! for k = first..last: the distinct ordered prefixes of those lengths. */
static double prefixes(unsigned n, unsigned first, unsigned last) {
  double sum = 0;
  for (unsigned k = first; k <= last && k < n; ++k) sum += factorial(n) / factorial(n - k);
  return sum;
}

/* One helicity configuration's hg_engine_amplitude of the loop engines and recursive.cl. */
static double permutation_amplitude(unsigned n) {
  return prefixes(n, 1, n - 1) * F_FVIXX0 + factorial(n) * (F_IOVXXX + 2);
}

static double unrolled_amplitude(unsigned n) {
  if (n == 2) return 2 * F_FVIXX0 + 2 * F_IOVXXX + 2;
  const double tails = factorial(n) / 6;
  return prefixes(n, 1, n - 3) * F_FVIXX0 + tails * (9 * F_FVIXX0 + 6 * F_IOVXXX + 12);
}

static double recursive_amplitude(unsigned n) {
  const double sets = (double)((1u << n) - 2);
  const double terms = n * (double)(1u << (n - 1)) - n; /* vertex terms below the full set */
  return n * F_SIGMA_WAVE + terms * F_VERTEX_TERM + sets * F_PROPAGATE + n * (F_MAT2_APPLY + 16) +
         n * 6;
}

/* The diagram engine's generated calls, counted in its source (per configuration), and the
 * number of parts (each loads the external wavefunctions again). */
static double diagrams_amplitude(unsigned n, unsigned *parts) {
  char *text = NULL;
  *parts = 0;
  if (hg_diagrams_source_parts(n, hg_diagrams_part_count(n) > 1 ? HG_DIAGRAMS_PER_PART : 0, &text,
                               parts) != HEGETCL_OK)
    return 0;
  double flops = 0;
  static const char *const calls[] = {"fvixx0(", "fvoxx0(", "iovxxx("};
  static const double cost[] = {F_FVIXX0, F_FVIXX0, F_IOVXXX + 2};
  for (int c = 0; c < 3; ++c)
    for (const char *at = strstr(text, calls[c]); at != NULL; at = strstr(at + 1, calls[c]))
      flops += cost[c];
  free(text);
  return flops;
}

/* The shared helicity sum (recursive_shared.cl): tabulated levels, the chunks at the cut, the
 * contraction of every configuration over the level-K subsets. */
static double recursive_shared_sum(unsigned n) {
  const unsigned k = n / 2, m = n - k;
  double flops = 2 * n * (F_VXXXX0 + F_SIGMA_WAVE) + F_QUARKS + 4 * n;
  for (unsigned l = 1; l < k || l < m; ++l) {
    const double items = binomial(n, l) * (double)(1u << l) * ((l < k) + (l < m));
    flops += items * (l * F_VERTEX_TERM + F_PROPAGATE);
  }
  const double cut = binomial(n, k);
  flops += cut * (double)(1u << k) * (k * F_VERTEX_TERM + F_PROPAGATE);
  flops += cut * (double)(1u << m) * (m * F_VERTEX_TERM);
  flops += (double)(1u << n) * (cut * 16 + F_SQUARE);
  return flops;
}

double hg_bench_flops_per_event(hegetcl_engine engine, unsigned n, int per_helicity,
                                int shared_sum) {
  if (n < 2 || n > 12) return 0;
  if (engine == HEGETCL_ENGINE_RECURSIVE && !per_helicity && shared_sum && n <= 12)
    return recursive_shared_sum(n);
  unsigned parts = 1;
  double amplitude = 0;
  switch (engine) {
  case HEGETCL_ENGINE_PERMUTATION:
    amplitude = permutation_amplitude(n);
    break;
  case HEGETCL_ENGINE_UNROLLED:
    amplitude = unrolled_amplitude(n);
    break;
  case HEGETCL_ENGINE_RECURSIVE:
    amplitude = recursive_amplitude(n);
    break;
  case HEGETCL_ENGINE_DIAGRAMS:
    amplitude = diagrams_amplitude(n, &parts);
    break;
  default:
    return 0;
  }
  if (amplitude == 0) return 0;
  /* the split diagram engine loads the external wavefunctions in every part */
  const double externals = n * F_VXXXX0 + F_QUARKS;
  const double per_config = amplitude + F_SQUARE + (parts > 1 ? parts * externals : 0);
  if (per_helicity) return per_config + (parts > 1 ? 0 : externals);
  return (double)((1u << n) - 2) * per_config + (parts > 1 ? 0 : 2 * n * F_VXXXX0 + F_QUARKS);
}

/* The recursive colour engine's pieces (cl/amplitudes/colour_ordered.cl, colour_factors.h). */
#define F_CO_V3 164.0        /* two momentum combinations (16), three dot products (64), 4 x 21 */
#define F_CO_V4 192.0        /* three dot products with their scales (96), 4 x 24 */
#define F_CO_GLUON 20.0      /* momentum slots (4), q^2 (7), 1/q^2 (1), the scaling (8) */
#define F_CO_CLOSE 32.0      /* the closing gluon's contraction and its factor 2 */
#define F_CO_FVO 200.0       /* fvoxxx, counted as the massless fvoxx0 (a lower bound for tops) */
#define F_CO_DDM_STEP 108.0  /* 54 select-multiply-adds of f^{abc} per inner gluon */
#define F_CO_LINE_STEP 144.0 /* 18 complex multiply-adds of T^a per gluon */

double hg_bench_flops_colour_ordered(const hg_colour_ordered *co, int per_helicity,
                                     int colour_sampled) {
  const int L = co->n_letters, top = co->quark_line ? L : L - 1;
  double currents = 0; /* one ordering's gluon currents */
  for (int l = 2; l <= top; ++l)
    currents +=
        (double)(L - l + 1) * ((l - 1) * F_CO_V3 + (l - 1) * (l - 2) / 2.0 * F_CO_V4 + F_CO_GLUON);
  const double pairs = co->quark_line ? (per_helicity ? 1 : co->n_fermion_pairs) : 1;
  double amplitude = 0; /* one ordering's amplitude from the currents, per pair */
  if (co->quark_line) {
    for (int l = 1; l < L; ++l) amplitude += l * F_CO_FVO + (l - 1) * 8.0;
    amplitude += L * (F_IOVXXX + 2);
  } else {
    amplitude = (L - 1) * F_CO_V3 + (L - 1) * (L - 2) / 2.0 * F_CO_V4 + F_CO_CLOSE;
  }
  const double m = (double)co->n_orderings;
  const double colour =
      colour_sampled
          ? m * ((co->quark_line ? L * F_CO_LINE_STEP : (L - 1) * F_CO_DDM_STEP) + 8 * pairs) +
                4 * pairs
          : pairs * (3 * m * m + 3 * m);
  const double externals = pairs * co->spec.n * F_VXXXX0;
  const double per_config = externals + m * (currents + pairs * amplitude) + colour;
  return per_helicity ? per_config : (double)co->n_helicities * per_config;
}

/* n! / (n - k)!: ordered choices of k of n letters */
static double arrangements(int n, int k) {
  double a = 1;
  for (int j = 0; j < k; ++j) a *= n - j;
  return k <= n ? a : 0;
}

#define F_CG_LINE_VERTEX 56.0 /* two sigma(V) (12) and two row applications (2 x 22) */
#define F_CG_PROPAGATOR 110.0 /* p^2 and 1/(p^2 - m^2 + i m w) (20), two sigma(p) applications
                                 (44), the couplings and masses (46) */
#define F_CG_CONTRACT 36.0    /* the flowing-in end's contraction with the couplings */

double hg_bench_flops_colour_group(const hg_colour_ordered *co, int per_helicity) {
  const int L = co->n_letters, top = L > 1 ? L - 1 : 1;
  double words = 0; /* the table: each word of 2..top letters once */
  for (int l = 2; l <= top; ++l) {
    /* gluons only: the last letter stays last, so a word holds it only at its end */
    const double count =
        co->quark_line ? arrangements(L, l) : arrangements(L - 1, l) + arrangements(L - 1, l - 1);
    words += count * ((l - 1) * F_CO_V3 + (l - 1) * (l - 2) / 2.0 * F_CO_V4 + F_CO_GLUON);
  }
  const double pairs = co->quark_line ? (per_helicity ? 1 : co->n_fermion_pairs) : 1;
  const double outs = pairs < 2 ? pairs : 2; /* flowing-out end helicities */
  double ordering = 0; /* one ordering's own current and amplitudes */
  const double whole = (L - 1) * F_CO_V3 + (L - 1) * (L - 2) / 2.0 * F_CO_V4;
  if (co->quark_line)
    ordering = (L > 1 ? whole + F_CO_GLUON : 0) +
               outs * (L * (L + 1) / 2.0 * F_CG_LINE_VERTEX + (L - 1) * F_CG_PROPAGATOR) +
               pairs * F_CG_CONTRACT;
  else
    ordering = whole + F_CO_CLOSE;
  const double m = (double)co->n_orderings;
  const double colour = pairs * (4 * m * m + 4 * m);
  const double externals = 2 * co->spec.n * F_VXXXX0; /* both helicities, once per event */
  const double per_config = words + m * ordering + colour;
  return externals + (per_helicity ? 1 : (double)co->n_helicities) * per_config;
}

int hg_bench_peak_tflops(const char *name, double *fp32, double *fp64) {
  *fp32 = *fp64 = 0;
  if (name == NULL) return 0;
  if (strstr(name, "H200") != NULL || (strstr(name, "H100") != NULL && !strstr(name, "PCIe"))) {
    *fp32 = 67; /* H100 SXM and H200: 67 TFLOP/s FP32, 34 FP64 (NVIDIA's data sheets) */
    *fp64 = 34;
    return 1;
  }
  if (strstr(name, "H100") != NULL) {
    *fp32 = 51; /* H100 PCIe */
    *fp64 = 26;
    return 1;
  }
  return 0;
}
