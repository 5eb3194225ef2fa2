/* SPDX-License-Identifier: MIT */
/* The recursive engine for two or more quark lines, or with leptons, photons, W, Z and H: per
 * helicity configuration, the tape of vertex operations (host/process/flow_recursion.c) is
 * interpreted in order: each operation evaluates one HELAS vertex of earlier currents once and
 * adds it, times constant colour coefficients, into the off-shell currents it feeds (or, at the
 * last particle, into the colour flows' partial amplitudes); the colour matrix then sums the
 * flows. The program is the same for every process but for the vertex kinds it compiles: the
 * process is data (the tape) in the generated header, which comes before this file
 * (host/amplitude/flow_recursion_amplitude.c): N_PARTICLES, FR_SLOTS, FR_OPS, FR_FLOWS,
 * FR_CONFIGS, FR_COUPLINGS, FR_USES_<kind> for each vertex kind the tape holds, the tables
 * hg_fr_ops (3 words an operation: kind | mass << 5 | width << 8 | coupling << 9 | targets << 16,
 * a | b << 16, c | d << 16), hg_fr_targets (slot | coefficient << 16), hg_fr_coefs, and the
 * functions hg_fr_couplings and hg_fr_externals.
 * Conventions: CONVENTIONS.md, "Quark lines in the recursive engine". */

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

/* The colour flows' partial amplitudes A[0..FR_FLOWS-1] of helicity configuration config (the
 * tape interpreted); 0, A left as it is, when config is no configuration (a massive vector's
 * value 3). */
HG_INLINE int hg_fr_flows(const hg_fourvec *p, hg_u32 config, const hg_process_params pp,
                          hg_complex *A) {
  hg_wave W[FR_SLOTS];
  if (!hg_fr_externals(p, config, pp, W)) return 0;
#pragma unroll 1
  for (int s = N_PARTICLES; s < FR_SLOTS; ++s)
    for (int k = 0; k < 6; ++k) W[s].w[k] = hg_czero();
  for (int f = 0; f < FR_FLOWS; ++f) A[f] = hg_czero();
  hg_coupling cpl[FR_COUPLINGS];
  hg_fr_couplings(pp, cpl);
  hg_u32 first = 0; /* each operation's targets follow the previous one's */
#pragma unroll 1
  for (hg_u32 o = 0; o < FR_OPS; ++o) {
    __constant const hg_u32 *op = hg_fr_ops + 3 * o;
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
    switch (kind) {
#ifdef FR_USES_FVI
    case HG_FR_FVI:
      r = fvixxx(W[a], W[b], gc, mass, fwidth);
      break;
#endif
#ifdef FR_USES_FVO
    case HG_FR_FVO:
      r = fvoxxx(W[a], W[b], gc, mass, fwidth);
      break;
#endif
#ifdef FR_USES_JIO
    case HG_FR_JIO:
      r = jioxxx(W[a], W[b], gc, mass, fwidth);
      break;
#endif
#ifdef FR_USES_JVV
    case HG_FR_JVV:
      r = jvvxxx(W[a], W[b], pp.g_s, (REAL)0, (REAL)0);
      break;
#endif
#ifdef FR_USES_JGGG
    case HG_FR_JGGG:
      r = jgggxx(W[a], W[b], W[c], pp.g_s);
      break;
#endif
#ifdef FR_USES_FSI
    case HG_FR_FSI:
      r = fsixxx(W[a], W[b], gc, mass, fwidth);
      break;
#endif
#ifdef FR_USES_FSO
    case HG_FR_FSO:
      r = fsoxxx(W[a], W[b], gc, mass, fwidth);
      break;
#endif
#ifdef FR_USES_HIO
    case HG_FR_HIO:
      r = hioxxx(W[a], W[b], gc, mass, fwidth);
      break;
#endif
#ifdef FR_USES_JVVC
    case HG_FR_JVVC:
      r = jvvcxx(W[a], W[b], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_JVVVC
    case HG_FR_JVVVC:
      r = jvvvcx(W[a], W[b], W[c], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_JVS
    case HG_FR_JVS:
      r = jvsxxx(W[a], W[b], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_HVV
    case HG_FR_HVV:
      r = hvvxxx(W[a], W[b], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_JVSS
    case HG_FR_JVSS:
      r = jvssxx(W[a], W[b], W[c], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_HVVS
    case HG_FR_HVVS:
      r = hvvsxx(W[a], W[b], W[c], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_HSS
    case HG_FR_HSS:
      r = hssxxx(W[a], W[b], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_HSSS
    case HG_FR_HSSS:
      r = hsssxx(W[a], W[b], W[c], gc.gal[0], mass, fwidth);
      break;
#endif
#ifdef FR_USES_IOV
    case HG_FR_IOV:
      amp = iovxxx(W[a], W[b], W[c], gc);
      break;
#endif
#ifdef FR_USES_VVV
    case HG_FR_VVV:
      amp = vvvxxx(W[a], W[b], W[c], pp.g_s);
      break;
#endif
#ifdef FR_USES_GGGG
    case HG_FR_GGGG:
      amp = ggggxx(W[a], W[b], W[c], W[d], pp.g_s);
      break;
#endif
#ifdef FR_USES_IOS
    case HG_FR_IOS:
      amp = iosxxx(W[a], W[b], W[c], gc);
      break;
#endif
#ifdef FR_USES_VVVC
    case HG_FR_VVVC:
      amp = vvvcxx(W[a], W[b], W[c], gc.gal[0]);
      break;
#endif
#ifdef FR_USES_VVVVC
    case HG_FR_VVVVC:
      amp = vvvvcx(W[a], W[b], W[c], W[d], gc.gal[0]);
      break;
#endif
#ifdef FR_USES_VVS
    case HG_FR_VVS:
      amp = vvsxxx(W[a], W[b], W[c], gc.gal[0]);
      break;
#endif
#ifdef FR_USES_VVSS
    case HG_FR_VVSS:
      amp = vvssxx(W[a], W[b], W[c], W[d], gc.gal[0]);
      break;
#endif
#ifdef FR_USES_SSS
    case HG_FR_SSS:
      amp = sssxxx(W[a], W[b], W[c], gc.gal[0]);
      break;
#endif
#ifdef FR_USES_SSSS
    case HG_FR_SSSS:
      amp = ssssxx(W[a], W[b], W[c], W[d], gc.gal[0]);
      break;
#endif
    default:
      break;
    }
    if (kind >= HG_FR_IOV) {
#pragma unroll 1
      for (hg_u32 t = first; t < first + n; ++t) {
        const hg_u32 target = hg_fr_targets[t];
        const hg_complex coef =
            hg_cmplx(hg_fr_coefs[2 * (target >> 16)], hg_fr_coefs[2 * (target >> 16) + 1]);
        A[target & 0xffffu] = hg_cfma(coef, amp, A[target & 0xffffu]);
      }
    } else {
#pragma unroll 1
      for (hg_u32 t = first; t < first + n; ++t) {
        const hg_u32 target = hg_fr_targets[t], s = target & 0xffffu;
        const hg_complex coef =
            hg_cmplx(hg_fr_coefs[2 * (target >> 16)], hg_fr_coefs[2 * (target >> 16) + 1]);
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
                            __global const hg_fr_sum_t *restrict colour) {
  hg_complex A[FR_FLOWS];
  if (!hg_fr_flows(p, config, pp, A)) return (REAL)0;
  /* sum_ab Re(A_a* C_ab A_b) with the symmetric real colour matrix */
  hg_fr_sum_t sum = 0;
#pragma unroll 1
  for (hg_u32 i = 0; i < FR_FLOWS; ++i) {
    __global const hg_fr_sum_t *row = colour + (size_t)i * FR_FLOWS;
    hg_fr_sum_t zr = row[i] * (hg_fr_sum_t)A[i].re, zi = row[i] * (hg_fr_sum_t)A[i].im;
    for (hg_u32 j = 0; j < i; ++j) {
      zr += 2 * row[j] * (hg_fr_sum_t)A[j].re;
      zi += 2 * row[j] * (hg_fr_sum_t)A[j].im;
    }
    sum += (hg_fr_sum_t)A[i].re * zr + (hg_fr_sum_t)A[i].im * zi;
  }
  return (REAL)sum;
}

/* |M|^2 summed over every helicity configuration and over colours, times me_factor = 1/IDEN. */
__kernel void amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                               __global const REAL *restrict params, const REAL me_factor,
                               __global REAL *restrict me,
                               __global const hg_fr_sum_t *restrict colour) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  REAL sum = (REAL)0;
#pragma unroll 1
  for (hg_u32 h = 0; h < FR_CONFIGS; ++h) sum += hg_fr_config(p, hg_fr_configs[h], pp, colour);
  me[event] = sum * me_factor;
}

/* The same for the configuration helicity[event] (bit i: particle i has helicity +1). */
__kernel void amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                                 __global const REAL *restrict params, const REAL me_factor,
                                 __global const hg_u32 *restrict helicity,
                                 __global REAL *restrict me,
                                 __global const hg_fr_sum_t *restrict colour) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  me[event] = hg_fr_config(p, helicity[event], pp, colour) * me_factor;
}

/* The colour flows' leading-colour weights of n_events events (the kept events of a process
 * run): weights[f * n_events + event] = sum of |A_f|^2 over the configurations amplitude_summed
 * sums, flow f the recursion's basis element f (host/amplitude/flow_weights.c; CONVENTIONS.md,
 * "Colour flows of the recursive engines"). No colour matrix, no 1/IDEN: only their ratios are
 * used. */
__kernel void amplitude_flow_weights(__global const REAL *restrict momenta, const hg_u32 n_events,
                                     __global const REAL *restrict params,
                                     __global REAL *restrict weights) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  REAL w[FR_FLOWS];
  for (int f = 0; f < FR_FLOWS; ++f) w[f] = (REAL)0;
#pragma unroll 1
  for (hg_u32 h = 0; h < FR_CONFIGS; ++h) {
    hg_complex A[FR_FLOWS];
    if (!hg_fr_flows(p, hg_fr_configs[h], pp, A)) continue;
    for (int f = 0; f < FR_FLOWS; ++f) w[f] += hg_cabs2(A[f]);
  }
  for (int f = 0; f < FR_FLOWS; ++f) weights[(size_t)f * n_events + event] = w[f];
}
