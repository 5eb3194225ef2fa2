/* SPDX-License-Identifier: MIT */
/* The recursive engine for two or more quark lines, or with leptons, photons, W, Z and H: per
 * helicity configuration, the tape of vertex operations (host/process/flow_recursion.c) is
 * interpreted in order: each operation evaluates one HELAS vertex of earlier currents once and
 * adds it, times constant colour coefficients, into the off-shell currents it feeds (or, at the
 * last particle, into the colour flows' partial amplitudes); the colour matrix then sums the
 * flows. The process is data: the tape's two buffers (the words and the reals, laid out as
 * amplitudes/flow_recursion_tape.h says) are the kernels' last arguments, after the colour matrix.
 * What the program fixes comes from the small generated header before this file
 * (host/amplitude/flow_recursion_amplitude.c): N_PARTICLES, the capacities FR_SLOTS, FR_FLOWS and
 * FR_COUPLINGS, FR_USES_<kind> for each vertex kind compiled, HG_PROCESS_EW, and HG_FR_TAPE, the
 * tape's address space (__constant, or const __global where it outgrows the constant buffer).
 * Every group of a process run shares one program (their capacities and kinds are the run's
 * largest and union). Read the tables through the hg_fr_* helpers below.
 * Conventions: CONVENTIONS.md, "Quark lines in the recursive engine". */

#include "amplitudes/colour_factors.h"
#include "amplitudes/flow_recursion_tape.h"

/* The colour sum's precision: as colour_ordered.cl. */
#ifdef HG_CO_COLOUR_DOUBLE
typedef double hg_fr_sum_t;
#else
typedef REAL hg_fr_sum_t;
#endif

/* operation kinds: hg_wf_kind, then hg_amp_kind + HG_FR_IOV (host/process/diagrams.h) */
#define HG_FR_FVI 1
#define HG_FR_FVO 2
#define HG_FR_JIO 3
#define HG_FR_JVV 4
#define HG_FR_JGGG 5
#define HG_FR_FSI 6
#define HG_FR_FSO 7
#define HG_FR_HIO 8
#define HG_FR_JVVC 9
#define HG_FR_JVVVC 10
#define HG_FR_JVS 11
#define HG_FR_HVV 12
#define HG_FR_JVSS 13
#define HG_FR_HVVS 14
#define HG_FR_HSS 15
#define HG_FR_HSSS 16
#define HG_FR_IOV 17
#define HG_FR_VVV 18
#define HG_FR_GGGG 19
#define HG_FR_IOS 20
#define HG_FR_VVVC 21
#define HG_FR_VVVVC 22
#define HG_FR_VVS 23
#define HG_FR_VVSS 24
#define HG_FR_SSS 25
#define HG_FR_SSSS 26

/* The mass of code m (0 none, 1 top, 2 Z, 3 W, 4 H, 5 tau) and, when width is set, its width. */
HG_INLINE REAL hg_fr_mass(const hg_process_params *pp, hg_u32 m) {
#ifdef HG_PROCESS_EW
  return m == 1u   ? pp->top_mass
         : m == 2u ? pp->mz
         : m == 3u ? pp->mw
         : m == 4u ? pp->mh
         : m == 5u ? pp->mta
                   : (REAL)0;
#else
  return m == 1u ? pp->top_mass : (REAL)0;
#endif
}

HG_INLINE REAL hg_fr_width(const hg_process_params *pp, hg_u32 m, hg_u32 width) {
  if (!width) return (REAL)0;
#ifdef HG_PROCESS_EW
  return m == 1u ? pp->top_width : m == 2u ? pp->wz : m == 3u ? pp->ww : m == 4u ? pp->wh : (REAL)0;
#else
  return m == 1u ? pp->top_width : (REAL)0;
#endif
}

/* The tape's tables (amplitudes/flow_recursion_tape.h): a header entry, operation o's three
 * words (kind | mass << 5 | width << 8 | coupling << 9 | targets << 16, a | b << 16, c | d << 16),
 * target t (slot or flow | first << 15 | coefficient << 16; first: the current's first
 * contribution, which replaces what its slot held), coefficient k, configuration h. */
HG_INLINE hg_u32 hg_fr_header(HG_FR_TAPE hg_u32 *tape, int entry) { return tape[entry]; }

HG_INLINE HG_FR_TAPE hg_u32 *hg_fr_op(HG_FR_TAPE hg_u32 *tape, hg_u32 o) {
  return tape + tape[HG_FR_OPS_AT] + 3u * o;
}

HG_INLINE hg_u32 hg_fr_target(HG_FR_TAPE hg_u32 *tape, hg_u32 t) {
  return tape[tape[HG_FR_TARGETS_AT] + t];
}

HG_INLINE hg_complex hg_fr_coef(HG_FR_TAPE REAL *reals, hg_u32 k) {
  return hg_cmplx(reals[2u * k], reals[2u * k + 1u]);
}

HG_INLINE hg_u32 hg_fr_configuration(HG_FR_TAPE hg_u32 *tape, hg_u32 h) {
  return tape[tape[HG_FR_CONFIGS_AT] + h];
}

/* The vertices' couplings from the model parameters, HELAS convention (hg_coupling): index 0 is
 * g_s, the others as their descriptors say (HG_FR_CPL_*). */
HG_INLINE void hg_fr_couplings(const hg_process_params *pp, HG_FR_TAPE hg_u32 *tape,
                               HG_FR_TAPE REAL *reals, hg_coupling *cpl) {
  const hg_u32 n = tape[HG_FR_N_COUPLINGS], at = tape[HG_FR_COUPLINGS_AT],
               charges = tape[HG_FR_CHARGES_AT];
  cpl[0] = hg_coupling_both(pp->g_s);
#pragma unroll 1
  for (hg_u32 k = 1; k < n; ++k) {
    const hg_u32 d = tape[at + k], kind = d & 255u;
    const int slot = (int)(d >> 8);
#ifdef HG_PROCESS_EW
    if (kind == HG_FR_CPL_PAIR) {
      cpl[k] = hg_coupling_pair(pp->c, slot);
    } else if (kind == HG_FR_CPL_BOSON) {
      cpl[k].gal[0] = cpl[k].gal[1] = pp->c[slot];
    } else
#endif
    {
      (void)slot;
      cpl[k] = hg_coupling_both(kind == HG_FR_CPL_PHOTON ? pp->e * reals[charges + k] : pp->g_s);
    }
  }
}

/* External particle p's wavefunction in configuration config from its descriptor e
 * (HG_FR_EXT_*); a massive vector's value 3 (no configuration: hg_fr_is_configuration) gives its
 * helicity-0 state. */
HG_INLINE hg_wave hg_fr_external(const hg_fourvec p, hg_u32 e, hg_u32 config,
                                 const hg_process_params *pp) {
  const hg_u32 kind = e & 7u, bit = e >> 8 & 31u;
  const int sign = (e >> 16 & 1u) ? -1 : 1, helicity = HG_HELICITY_OF(config, bit);
  const REAL mass = hg_fr_mass(pp, e >> 3 & 7u);
  const hg_u32 v = config >> bit & 3u;
  switch (kind) {
  case HG_FR_EXT_SCALAR:
    return sxxxxx(p, sign);
  case HG_FR_EXT_FERMION_IN:
    return ixxxxx(p, mass, helicity, sign);
  case HG_FR_EXT_FERMION_OUT:
    return oxxxxx(p, mass, helicity, sign);
  case HG_FR_EXT_GAUGE:
    return hg_polarisation_from_momentum(p, sign);
  case HG_FR_EXT_MASSIVE:
    return vxxxxx(p, mass, v == 0u ? -1 : v == 1u ? 1 : 0, sign);
  default:
    return vxxxxx(p, (REAL)0, helicity, sign);
  }
}

/* 0 when config is no configuration (a massive vector's value 3), else 1. */
HG_INLINE int hg_fr_is_configuration(hg_u32 config, HG_FR_TAPE hg_u32 *tape) {
  const hg_u32 at = tape[HG_FR_EXTERNALS_AT];
  int ok = 1;
  for (int i = 0; i < N_PARTICLES; ++i) {
    const hg_u32 e = tape[at + (hg_u32)i];
    ok &= (e & 7u) != HG_FR_EXT_MASSIVE || (config >> (e >> 8 & 31u) & 3u) != 3u;
  }
  return ok;
}

/* The external wavefunctions of configuration config from the particles' descriptors
 * (HG_FR_EXT_*); 0 when it is no configuration (a massive vector's value 3). */
HG_INLINE int hg_fr_externals(const hg_fourvec *p, hg_u32 config, const hg_process_params *pp,
                              HG_FR_TAPE hg_u32 *tape, hg_wave *W) {
  if (!hg_fr_is_configuration(config, tape)) return 0;
  const hg_u32 at = tape[HG_FR_EXTERNALS_AT];
  for (int i = 0; i < N_PARTICLES; ++i)
    W[i] = hg_fr_external(p[i], tape[at + (hg_u32)i], config, pp);
  return 1;
}

/* The vertex of operation kind on the currents W[a], W[b], W[c], W[d] of array W (private in
 * the one-event-per-work-item kernels, local in the work-group ones): a current into r, or an
 * amplitude into amp. Only the kinds the program compiles (FR_USES_<kind>) have a case; the
 * names a, b, c, d, gc, mass, fwidth, pp, r and amp are the caller's. */
#ifdef FR_USES_FVI
#define HG_FR_CASE_FVI(W)                                                                          \
  case HG_FR_FVI:                                                                                  \
    r = fvixxx((W)[a], (W)[b], gc, mass, fwidth);                                                  \
    break;
#else
#define HG_FR_CASE_FVI(W)
#endif
#ifdef FR_USES_FVO
#define HG_FR_CASE_FVO(W)                                                                          \
  case HG_FR_FVO:                                                                                  \
    r = fvoxxx((W)[a], (W)[b], gc, mass, fwidth);                                                  \
    break;
#else
#define HG_FR_CASE_FVO(W)
#endif
#ifdef FR_USES_JIO
#define HG_FR_CASE_JIO(W)                                                                          \
  case HG_FR_JIO:                                                                                  \
    r = jioxxx((W)[a], (W)[b], gc, mass, fwidth);                                                  \
    break;
#else
#define HG_FR_CASE_JIO(W)
#endif
#ifdef FR_USES_JVV
#define HG_FR_CASE_JVV(W)                                                                          \
  case HG_FR_JVV:                                                                                  \
    r = jvvxxx((W)[a], (W)[b], pp.g_s, (REAL)0, (REAL)0);                                          \
    break;
#else
#define HG_FR_CASE_JVV(W)
#endif
#ifdef FR_USES_JGGG
#define HG_FR_CASE_JGGG(W)                                                                         \
  case HG_FR_JGGG:                                                                                 \
    r = jgggxx((W)[a], (W)[b], (W)[c], pp.g_s);                                                    \
    break;
#else
#define HG_FR_CASE_JGGG(W)
#endif
#ifdef FR_USES_FSI
#define HG_FR_CASE_FSI(W)                                                                          \
  case HG_FR_FSI:                                                                                  \
    r = fsixxx((W)[a], (W)[b], gc, mass, fwidth);                                                  \
    break;
#else
#define HG_FR_CASE_FSI(W)
#endif
#ifdef FR_USES_FSO
#define HG_FR_CASE_FSO(W)                                                                          \
  case HG_FR_FSO:                                                                                  \
    r = fsoxxx((W)[a], (W)[b], gc, mass, fwidth);                                                  \
    break;
#else
#define HG_FR_CASE_FSO(W)
#endif
#ifdef FR_USES_HIO
#define HG_FR_CASE_HIO(W)                                                                          \
  case HG_FR_HIO:                                                                                  \
    r = hioxxx((W)[a], (W)[b], gc, mass, fwidth);                                                  \
    break;
#else
#define HG_FR_CASE_HIO(W)
#endif
#ifdef FR_USES_JVVC
#define HG_FR_CASE_JVVC(W)                                                                         \
  case HG_FR_JVVC:                                                                                 \
    r = jvvcxx((W)[a], (W)[b], gc.gal[0], mass, fwidth);                                           \
    break;
#else
#define HG_FR_CASE_JVVC(W)
#endif
#ifdef FR_USES_JVVVC
#define HG_FR_CASE_JVVVC(W)                                                                        \
  case HG_FR_JVVVC:                                                                                \
    r = jvvvcx((W)[a], (W)[b], (W)[c], gc.gal[0], mass, fwidth);                                   \
    break;
#else
#define HG_FR_CASE_JVVVC(W)
#endif
#ifdef FR_USES_JVS
#define HG_FR_CASE_JVS(W)                                                                          \
  case HG_FR_JVS:                                                                                  \
    r = jvsxxx((W)[a], (W)[b], gc.gal[0], mass, fwidth);                                           \
    break;
#else
#define HG_FR_CASE_JVS(W)
#endif
#ifdef FR_USES_HVV
#define HG_FR_CASE_HVV(W)                                                                          \
  case HG_FR_HVV:                                                                                  \
    r = hvvxxx((W)[a], (W)[b], gc.gal[0], mass, fwidth);                                           \
    break;
#else
#define HG_FR_CASE_HVV(W)
#endif
#ifdef FR_USES_JVSS
#define HG_FR_CASE_JVSS(W)                                                                         \
  case HG_FR_JVSS:                                                                                 \
    r = jvssxx((W)[a], (W)[b], (W)[c], gc.gal[0], mass, fwidth);                                   \
    break;
#else
#define HG_FR_CASE_JVSS(W)
#endif
#ifdef FR_USES_HVVS
#define HG_FR_CASE_HVVS(W)                                                                         \
  case HG_FR_HVVS:                                                                                 \
    r = hvvsxx((W)[a], (W)[b], (W)[c], gc.gal[0], mass, fwidth);                                   \
    break;
#else
#define HG_FR_CASE_HVVS(W)
#endif
#ifdef FR_USES_HSS
#define HG_FR_CASE_HSS(W)                                                                          \
  case HG_FR_HSS:                                                                                  \
    r = hssxxx((W)[a], (W)[b], gc.gal[0], mass, fwidth);                                           \
    break;
#else
#define HG_FR_CASE_HSS(W)
#endif
#ifdef FR_USES_HSSS
#define HG_FR_CASE_HSSS(W)                                                                         \
  case HG_FR_HSSS:                                                                                 \
    r = hsssxx((W)[a], (W)[b], (W)[c], gc.gal[0], mass, fwidth);                                   \
    break;
#else
#define HG_FR_CASE_HSSS(W)
#endif
#ifdef FR_USES_IOV
#define HG_FR_CASE_IOV(W)                                                                          \
  case HG_FR_IOV:                                                                                  \
    amp = iovxxx((W)[a], (W)[b], (W)[c], gc);                                                      \
    break;
#else
#define HG_FR_CASE_IOV(W)
#endif
#ifdef FR_USES_VVV
#define HG_FR_CASE_VVV(W)                                                                          \
  case HG_FR_VVV:                                                                                  \
    amp = vvvxxx((W)[a], (W)[b], (W)[c], pp.g_s);                                                  \
    break;
#else
#define HG_FR_CASE_VVV(W)
#endif
#ifdef FR_USES_GGGG
#define HG_FR_CASE_GGGG(W)                                                                         \
  case HG_FR_GGGG:                                                                                 \
    amp = ggggxx((W)[a], (W)[b], (W)[c], (W)[d], pp.g_s);                                          \
    break;
#else
#define HG_FR_CASE_GGGG(W)
#endif
#ifdef FR_USES_IOS
#define HG_FR_CASE_IOS(W)                                                                          \
  case HG_FR_IOS:                                                                                  \
    amp = iosxxx((W)[a], (W)[b], (W)[c], gc);                                                      \
    break;
#else
#define HG_FR_CASE_IOS(W)
#endif
#ifdef FR_USES_VVVC
#define HG_FR_CASE_VVVC(W)                                                                         \
  case HG_FR_VVVC:                                                                                 \
    amp = vvvcxx((W)[a], (W)[b], (W)[c], gc.gal[0]);                                               \
    break;
#else
#define HG_FR_CASE_VVVC(W)
#endif
#ifdef FR_USES_VVVVC
#define HG_FR_CASE_VVVVC(W)                                                                        \
  case HG_FR_VVVVC:                                                                                \
    amp = vvvvcx((W)[a], (W)[b], (W)[c], (W)[d], gc.gal[0]);                                       \
    break;
#else
#define HG_FR_CASE_VVVVC(W)
#endif
#ifdef FR_USES_VVS
#define HG_FR_CASE_VVS(W)                                                                          \
  case HG_FR_VVS:                                                                                  \
    amp = vvsxxx((W)[a], (W)[b], (W)[c], gc.gal[0]);                                               \
    break;
#else
#define HG_FR_CASE_VVS(W)
#endif
#ifdef FR_USES_VVSS
#define HG_FR_CASE_VVSS(W)                                                                         \
  case HG_FR_VVSS:                                                                                 \
    amp = vvssxx((W)[a], (W)[b], (W)[c], (W)[d], gc.gal[0]);                                       \
    break;
#else
#define HG_FR_CASE_VVSS(W)
#endif
#ifdef FR_USES_SSS
#define HG_FR_CASE_SSS(W)                                                                          \
  case HG_FR_SSS:                                                                                  \
    amp = sssxxx((W)[a], (W)[b], (W)[c], gc.gal[0]);                                               \
    break;
#else
#define HG_FR_CASE_SSS(W)
#endif
#ifdef FR_USES_SSSS
#define HG_FR_CASE_SSSS(W)                                                                         \
  case HG_FR_SSSS:                                                                                 \
    amp = ssssxx((W)[a], (W)[b], (W)[c], (W)[d], gc.gal[0]);                                       \
    break;
#else
#define HG_FR_CASE_SSSS(W)
#endif
#define HG_FR_VERTEX(W)                                                                            \
  switch (kind) {                                                                                  \
    HG_FR_CASE_FVI(W)                                                                              \
    HG_FR_CASE_FVO(W)                                                                              \
    HG_FR_CASE_JIO(W)                                                                              \
    HG_FR_CASE_JVV(W)                                                                              \
    HG_FR_CASE_JGGG(W)                                                                             \
    HG_FR_CASE_FSI(W)                                                                              \
    HG_FR_CASE_FSO(W)                                                                              \
    HG_FR_CASE_HIO(W)                                                                              \
    HG_FR_CASE_JVVC(W)                                                                             \
    HG_FR_CASE_JVVVC(W)                                                                            \
    HG_FR_CASE_JVS(W)                                                                              \
    HG_FR_CASE_HVV(W)                                                                              \
    HG_FR_CASE_JVSS(W)                                                                             \
    HG_FR_CASE_HVVS(W)                                                                             \
    HG_FR_CASE_HSS(W)                                                                              \
    HG_FR_CASE_HSSS(W)                                                                             \
    HG_FR_CASE_IOV(W)                                                                              \
    HG_FR_CASE_VVV(W)                                                                              \
    HG_FR_CASE_GGGG(W)                                                                             \
    HG_FR_CASE_IOS(W)                                                                              \
    HG_FR_CASE_VVVC(W)                                                                             \
    HG_FR_CASE_VVVVC(W)                                                                            \
    HG_FR_CASE_VVS(W)                                                                              \
    HG_FR_CASE_VVSS(W)                                                                             \
    HG_FR_CASE_SSS(W)                                                                              \
    HG_FR_CASE_SSSS(W)                                                                             \
  default:                                                                                         \
    break;                                                                                         \
  }

/* The colour flows' partial amplitudes A[0..n_flows-1] of helicity configuration config (the
 * tape interpreted); 0, A left as it is, when config is no configuration (a massive vector's
 * value 3). */
HG_INLINE int hg_fr_flows(const hg_fourvec *p, hg_u32 config, const hg_process_params pp,
                          HG_FR_TAPE hg_u32 *tape, HG_FR_TAPE REAL *reals, hg_complex *A) {
  hg_wave W[FR_SLOTS];
  if (!hg_fr_externals(p, config, &pp, tape, W)) return 0;
  const hg_u32 n_flows = hg_fr_header(tape, HG_FR_N_FLOWS), n_ops = hg_fr_header(tape, HG_FR_N_OPS);
#pragma unroll 1
  for (hg_u32 f = 0; f < n_flows; ++f) A[f] = hg_czero();
  hg_coupling cpl[FR_COUPLINGS];
  hg_fr_couplings(&pp, tape, reals, cpl);
  hg_u32 first = 0; /* each operation's targets follow the previous one's */
#pragma unroll 1
  for (hg_u32 o = 0; o < n_ops; ++o) {
    HG_FR_TAPE hg_u32 *op = hg_fr_op(tape, o);
    const hg_u32 kind = op[0] & 31u, m = op[0] >> 5 & 7u, width = op[0] >> 8 & 1u;
    const hg_u32 n = op[0] >> 16;
    const hg_coupling gc = cpl[op[0] >> 9 & 127u];
    const hg_u32 a = op[1] & 0xffffu, b = op[1] >> 16, c = op[2] & 0xffffu, d = op[2] >> 16;
    const REAL mass = hg_fr_mass(&pp, m), fwidth = hg_fr_width(&pp, m, width);
    hg_wave r = W[a];
    hg_complex amp = hg_czero();
    (void)c;
    (void)d;
    (void)mass;
    (void)fwidth;
    (void)gc;
    HG_FR_VERTEX(W)
    if (kind >= HG_FR_IOV) {
#pragma unroll 1
      for (hg_u32 t = first; t < first + n; ++t) {
        const hg_u32 target = hg_fr_target(tape, t);
        const hg_complex coef = hg_fr_coef(reals, target >> 16);
        A[target & 0x7fffu] = hg_cfma(coef, amp, A[target & 0x7fffu]);
      }
    } else {
#pragma unroll 1
      for (hg_u32 t = first; t < first + n; ++t) {
        const hg_u32 target = hg_fr_target(tape, t), s = target & 0x7fffu;
        const hg_complex coef = hg_fr_coef(reals, target >> 16);
        /* a current's first contribution replaces what its slot held (an earlier current's, or
         * nothing yet); every work-item takes the same branch */
        if (target >> 15 & 1u)
          for (int k = 0; k < 4; ++k) W[s].w[k] = hg_cfma(coef, r.w[k], hg_czero());
        else
          for (int k = 0; k < 4; ++k) W[s].w[k] = hg_cfma(coef, r.w[k], W[s].w[k]);
        W[s].w[4] = r.w[4];
        W[s].w[5] = r.w[5];
      }
    }
    first += n;
  }
  return 1;
}

/* |M|^2 of helicity configuration config summed over colours. */
HG_INLINE REAL hg_fr_config(const hg_fourvec *p, hg_u32 config, const hg_process_params pp,
                            __global const hg_fr_sum_t *restrict colour, HG_FR_TAPE hg_u32 *tape,
                            HG_FR_TAPE REAL *reals) {
  hg_complex A[FR_FLOWS];
  if (!hg_fr_flows(p, config, pp, tape, reals, A)) return (REAL)0;
  const hg_u32 n_flows = hg_fr_header(tape, HG_FR_N_FLOWS);
  /* sum_ab Re(A_a* C_ab A_b) with the symmetric real colour matrix */
  hg_fr_sum_t sum = 0;
#pragma unroll 1
  for (hg_u32 i = 0; i < n_flows; ++i) {
    __global const hg_fr_sum_t *row = colour + (size_t)i * n_flows;
    hg_fr_sum_t zr = row[i] * (hg_fr_sum_t)A[i].re, zi = row[i] * (hg_fr_sum_t)A[i].im;
    for (hg_u32 j = 0; j < i; ++j) {
      zr += 2 * row[j] * (hg_fr_sum_t)A[j].re;
      zi += 2 * row[j] * (hg_fr_sum_t)A[j].im;
    }
    sum += (hg_fr_sum_t)A[i].re * zr + (hg_fr_sum_t)A[i].im * zi;
  }
  return (REAL)sum;
}

#ifdef FR_GROUP
/* amplitude_summed and amplitude_helicity with a work-group per event */
#include "amplitudes/flow_recursion_group.cl"
#else
/* |M|^2 summed over every helicity configuration and over colours, times me_factor = 1/IDEN. */
__kernel void amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                               __global const REAL *restrict params, const REAL me_factor,
                               __global REAL *restrict me,
                               __global const hg_fr_sum_t *restrict colour,
                               HG_FR_TAPE hg_u32 *restrict tape, HG_FR_TAPE REAL *restrict reals) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  REAL sum = (REAL)0;
  const hg_u32 n_configs = hg_fr_header(tape, HG_FR_N_CONFIGS);
#pragma unroll 1
  for (hg_u32 h = 0; h < n_configs; ++h)
    sum += hg_fr_config(p, hg_fr_configuration(tape, h), pp, colour, tape, reals);
  me[event] = sum * me_factor;
}

/* The same for the configuration helicity[event] (bit i: particle i has helicity +1). */
__kernel void amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                                 __global const REAL *restrict params, const REAL me_factor,
                                 __global const hg_u32 *restrict helicity,
                                 __global REAL *restrict me,
                                 __global const hg_fr_sum_t *restrict colour,
                               HG_FR_TAPE hg_u32 *restrict tape, HG_FR_TAPE REAL *restrict reals) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  me[event] = hg_fr_config(p, helicity[event], pp, colour, tape, reals) * me_factor;
}

#endif

/* The colour flows' leading-colour weights of n_events events (the kept events of a process
 * run): weights[f * n_events + event] = sum of |A_f|^2 over the configurations amplitude_summed
 * sums, flow f < the tape's n_flows the recursion's basis element f
 * (host/amplitude/flow_weights.c; CONVENTIONS.md, "Colour flows of the recursive engines"). No
 * colour matrix, no 1/IDEN: only their ratios are used. */
__kernel void amplitude_flow_weights(__global const REAL *restrict momenta, const hg_u32 n_events,
                                     __global const REAL *restrict params,
                                     __global REAL *restrict weights,
                                     HG_FR_TAPE hg_u32 *restrict tape,
                                     HG_FR_TAPE REAL *restrict reals) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  const hg_u32 n_flows = hg_fr_header(tape, HG_FR_N_FLOWS);
  const hg_u32 n_configs = hg_fr_header(tape, HG_FR_N_CONFIGS);
  REAL w[FR_FLOWS];
#pragma unroll 1
  for (hg_u32 f = 0; f < n_flows; ++f) w[f] = (REAL)0;
#pragma unroll 1
  for (hg_u32 h = 0; h < n_configs; ++h) {
    hg_complex A[FR_FLOWS];
    if (!hg_fr_flows(p, hg_fr_configuration(tape, h), pp, tape, reals, A)) continue;
#pragma unroll 1
    for (hg_u32 f = 0; f < n_flows; ++f) w[f] += hg_cabs2(A[f]);
  }
#pragma unroll 1
  for (hg_u32 f = 0; f < n_flows; ++f) weights[(size_t)f * n_events + event] = w[f];
}

/* Sampled colours (CONVENTIONS.md, "Colour sampling"): flow f's colour factor c_f at the colour
 * assignment colours (3 bits per particle), the product of its strings (T^x1 ... T^xk)_{o i} at
 * the particles' indices, a trace summed over its index; the strings come from the tape
 * (amplitudes/flow_recursion_tape.h), the generators from colour_factors.h. */
HG_INLINE hg_complex hg_fr_colour_factor(HG_FR_TAPE hg_u32 *tape, hg_u32 f, hg_u32 colours) {
  const hg_u32 at = hg_fr_header(tape, HG_FR_COLOURS_AT);
  hg_u32 word = at + tape[at + f];
  const hg_u32 n_strings = tape[word++];
  hg_complex c = hg_cmplx((REAL)1, (REAL)0);
#pragma unroll 1
  for (hg_u32 s = 0; s < n_strings; ++s) {
    const hg_u32 d = tape[word++], start = d & 255u, end = d >> 8 & 255u, length = d >> 16;
    const int trace = start == HG_FR_COLOUR_TRACE;
    hg_complex value = hg_czero();
#pragma unroll 1
    for (hg_u32 k = 0; k < (trace ? 3u : 1u); ++k) {
      const hg_u32 o = trace ? k : colours >> 3u * start & 7u,
                   i = trace ? k : colours >> 3u * end & 7u;
      hg_complex u[3];
      for (hg_u32 a = 0; a < 3u; ++a) u[a] = hg_cmplx(o == a ? (REAL)1 : (REAL)0, (REAL)0);
#pragma unroll 1
      for (hg_u32 j = 0; j < length; ++j)
        hg_cf_fundamental_step(colours >> 3u * tape[word + j] & 7u, u);
      for (hg_u32 a = 0; a < 3u; ++a) value = hg_cadd(value, hg_csel(i == a, u[a], hg_czero()));
    }
    word += length;
    c = hg_cmul(c, value);
  }
  return c;
}

/* |M|^2 of the colour assignment colour[event] (CONVENTIONS.md, "Colour sampling"),
 * |sum_f c_f(colours) A_f|^2 with the partial amplitudes A_f of the exact sum, summed over the
 * helicity configurations or, with per_helicity, for the configuration helicity[event], times
 * me_factor = 1/IDEN: summed over every assignment it is amplitude_summed's or
 * amplitude_helicity's. The c_f are made once per event, before the configurations. */
__kernel void amplitude_colour(__global const REAL *restrict momenta, const hg_u32 n_events,
                               __global const REAL *restrict params, const REAL me_factor,
                               __global const hg_u32 *restrict helicity, const hg_u32 per_helicity,
                               __global const hg_u32 *restrict colour, __global REAL *restrict me,
                               HG_FR_TAPE hg_u32 *restrict tape, HG_FR_TAPE REAL *restrict reals) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  const hg_u32 colours = colour[event];
  const hg_u32 n_flows = hg_fr_header(tape, HG_FR_N_FLOWS);
  hg_complex c[FR_FLOWS];
#pragma unroll 1
  for (hg_u32 f = 0; f < n_flows; ++f) c[f] = hg_fr_colour_factor(tape, f, colours);
  const hg_u32 n_configs = per_helicity ? 1u : hg_fr_header(tape, HG_FR_N_CONFIGS);
  REAL sum = (REAL)0;
#pragma unroll 1
  for (hg_u32 h = 0; h < n_configs; ++h) {
    const hg_u32 config = per_helicity ? helicity[event] : hg_fr_configuration(tape, h);
    hg_complex A[FR_FLOWS];
    if (!hg_fr_flows(p, config, pp, tape, reals, A)) continue;
    hg_complex M = hg_czero();
#pragma unroll 1
    for (hg_u32 f = 0; f < n_flows; ++f) M = hg_cfma(c[f], A[f], M);
    sum += hg_cabs2(M);
  }
  me[event] = sum * me_factor;
}
