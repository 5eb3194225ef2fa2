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

/* The quark-line recursion's pieces (cl/helas: ffv.cl, ffv_massive.cl, vvv.cl, vvvv.cl, ew.cl,
 * external.cl, external_massive.cl; propagator.h), as the interpreter calls them. A complex
 * addition or a real-times-complex scaling is 2, hg_cmuli and negations 0; sigma(V) 16, sigma(p)
 * 8, a 2x2 matrix applied 28, p^2 7, hg_cinv 6 (both of its selects' sides), a Breit-Wigner 9, a
 * complex dot product 30, a real-complex one 14, the slots of a new current 4 (8 for three). */
/* fvixxx, fvoxxx: slots, p^2, Breit-Wigner, 2 sigma(V), 2 sigma(p), 4 applications (112), the
 * couplings (16), four components (56) */
#define F_FR_FVI 252.0
/* jioxxx at mass 0 (jioxx0): slots, q^2, 1/q^2, the couplings (4), 8 bilinears (112), four
 * components (56) */
#define F_FR_JIO0 184.0
/* jioxxx with mass: bilinears and couplings (168), q.c (14), the complex mass (8), cs (6), q^2 with
 * its Breit-Wigner (16), 4 x 10 */
#define F_FR_JIOM 256.0
/* jvvxxx at mass 0: slots, s, v1.v2 (30), two momentum dots (36), j12 (76), -g/s and the scaling
 * (9) */
#define F_FR_JVV 162.0
/* jgggxx: slots (8), q^2, g^2/q^2 (2), two dots (60), 4 x 16 */
#define F_FR_JGGG 141.0
/* iovxxx (F_IOVXXX) */
#define F_FR_IOV 186.0
/* vvvxxx: three dots (90), three momentum differences (12) and dots (42), their sum (22), the
 * coupling (2) */
#define F_FR_VVV 168.0
/* ggggxx: four dots (120), two products and their difference (14), g^2 and the scaling (3) */
#define F_FR_GGGG 137.0
/* hg_vector_propagate at mass 0: q^2, 1/q^2, four scalings */
#define F_FR_PROP0 16.0
/* with mass: q^2, q.X (14), the complex mass (8), cs (6), the Breit-Wigner (9), 4 x 10 */
#define F_FR_PROPM 84.0
/* hg_scalar_propagator: p^2 and a Breit-Wigner */
#define F_FR_SPROP 16.0
/* fsixxx, fsoxxx: slots, d S (22), 2 sigma(p), 2 applications, the couplings (16), four components
 * (56) */
#define F_FR_FSI 170.0
/* hioxxx: slots, propagator, iosxxx (48), the product */
#define F_FR_HIO 74.0
/* iosxxx: two bilinears (28), couplings (14), the scalar (6) */
#define F_FR_IOS 48.0
/* jvsxxx before its propagator: slots, g S, four products */
#define F_FR_JVS 34.0
/* hvvxxx: slots, propagator, a dot, two products */
#define F_FR_HVV 62.0
/* jvssxx before its propagator: S1 S2, slots, jvsxxx's 34 */
#define F_FR_JVSS 44.0
/* hvvsxx: slots (8), propagator, a dot, three products */
#define F_FR_HVVS 72.0
/* hssxxx: slots, propagator, three products */
#define F_FR_HSS 38.0
/* hsssxx: slots (8), propagator, four products */
#define F_FR_HSSS 48.0
/* jvvcxx before its propagator: jvvxxx (162), q^2, 4 x 8 */
#define F_FR_JVVC 201.0
/* jvvvcx before its propagator: slots (8), three dots and the factor 2 (92), 4 x 28 */
#define F_FR_JVVVC 212.0
/* vvvcxx: vvvxxx and the coupling */
#define F_FR_VVVC 174.0
/* vvvvcx: six dots (180), the products and sums (30) */
#define F_FR_VVVVC 210.0
/* vvsxxx: a dot and two products */
#define F_FR_VVS 42.0
/* vvssxx: a dot and three products */
#define F_FR_VVSS 48.0
/* sssxxx: three products */
#define F_FR_SSS 18.0
/* ssssxx: four products */
#define F_FR_SSSS 24.0
/* ixxxx0, oxxxx0: sqrt(E + pz) (3), chi2 (6), slots (4) */
#define F_FR_FERMION0 13.0
/* ixxxxx, oxxxxx with mass: the spinor's parts (25), four scalings, slots */
#define F_FR_FERMIONM 37.0
/* vxxxxx with mass */
#define F_FR_VECTORM 44.0
/* sxxxxx: slots */
#define F_FR_SCALAR 4.0
/* a current's four components times its coefficient, added */
#define F_FR_CURRENT_TARGET 32.0
/* an amplitude times its coefficient, added to its flow */
#define F_FR_FLOW_TARGET 8.0

/* One operation's HELAS function (hg_fr_op.kind: hg_wf_kind, or hg_amp_kind + HG_FR_AMPLITUDE). */
static double flow_operation(const hg_fr_op *op) {
  const int massive = op->mass != HG_PARAM_ZERO;
  const double propagate = massive ? F_FR_PROPM : F_FR_PROP0;
  if (op->kind >= HG_FR_AMPLITUDE) {
    switch ((hg_amp_kind)(op->kind - HG_FR_AMPLITUDE)) {
    case HG_AMP_IOV:
      return F_FR_IOV;
    case HG_AMP_VVV:
      return F_FR_VVV;
    case HG_AMP_GGGG:
      return F_FR_GGGG;
    case HG_AMP_IOS:
      return F_FR_IOS;
    case HG_AMP_VVVC:
      return F_FR_VVVC;
    case HG_AMP_VVVVC:
      return F_FR_VVVVC;
    case HG_AMP_VVS:
      return F_FR_VVS;
    case HG_AMP_VVSS:
      return F_FR_VVSS;
    case HG_AMP_SSS:
      return F_FR_SSS;
    case HG_AMP_SSSS:
      return F_FR_SSSS;
    default:
      return 0;
    }
  }
  switch ((hg_wf_kind)op->kind) {
  case HG_WF_FVI:
  case HG_WF_FVO:
    return F_FR_FVI;
  case HG_WF_JIO:
    return massive ? F_FR_JIOM : F_FR_JIO0;
  case HG_WF_JVV:
    return F_FR_JVV;
  case HG_WF_JGGG:
    return F_FR_JGGG;
  case HG_WF_FSI:
  case HG_WF_FSO:
    return F_FR_FSI;
  case HG_WF_HIO:
    return F_FR_HIO;
  case HG_WF_JVVC:
    return F_FR_JVVC + propagate;
  case HG_WF_JVVVC:
    return F_FR_JVVVC + propagate;
  case HG_WF_JVS:
    return F_FR_JVS + propagate;
  case HG_WF_HVV:
    return F_FR_HVV;
  case HG_WF_JVSS:
    return F_FR_JVSS + propagate;
  case HG_WF_HVVS:
    return F_FR_HVVS;
  case HG_WF_HSS:
    return F_FR_HSS;
  case HG_WF_HSSS:
    return F_FR_HSSS;
  default:
    return 0;
  }
}

/* External particle i's wavefunction (hg_fr_externals). */
static double flow_external(const hg_process_spec *spec, int i) {
  const hg_particle *p = hg_model_particle(hg_species_particle(spec->species[i]));
  const int massive = p->mass != HG_PARAM_ZERO;
  if (p->spin == HG_SPIN_SCALAR) return F_FR_SCALAR;
  if (p->spin == HG_SPIN_FERMION) return massive ? F_FR_FERMIONM : F_FR_FERMION0;
  return massive ? F_FR_VECTORM : F_VXXXX0;
}

double hg_bench_flops_flow_recursion(const hg_flow_recursion *fr, size_t n_configs,
                                     int per_helicity, int colour_sampled) {
  double per_config = 0;
  for (int i = 0; i < fr->spec.n; ++i) per_config += flow_external(&fr->spec, i);
  for (size_t o = 0; o < fr->n_ops; ++o) {
    const hg_fr_op *op = &fr->ops[o];
    const double target = op->kind >= HG_FR_AMPLITUDE ? F_FR_FLOW_TARGET : F_FR_CURRENT_TARGET;
    per_config += flow_operation(op) + (double)op->n_targets * target;
  }
  const double flows = (double)fr->n_flows;
  double per_event = 0;
  if (colour_sampled) {
    /* sum_f c_f A_f (8 each), |M|^2 and its sum (4); the factors once per event: each string's
     * generators applied (one row, three for a trace), its selected entry (6) and the product */
    per_config += 8 * flows + F_SQUARE;
    for (size_t f = 0; f < fr->n_flows; ++f)
      for (int k = 0; k < fr->flows[f].n_strings; ++k) {
        const hg_colour_string *s = &fr->flows[f].s[k];
        const double rows = s->start == HG_COLOUR_LABEL_TRACE ? 3 : 1;
        per_event += rows * (s->length * F_CO_LINE_STEP + 6) + 6;
      }
  } else {
    /* row i of the colour matrix: its diagonal term (2), 6 per j < i, the row's sum (4); the
     * helicity sum's addition (1) */
    per_config += 6 * flows + 3 * flows * (flows - 1) + 1;
  }
  return per_event + (per_helicity ? 1.0 : (double)n_configs) * per_config;
}
