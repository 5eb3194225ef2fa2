/* SPDX-License-Identifier: MIT */
/* The recursive engine for two or more quark lines: per helicity configuration, the tape of
 * vertex operations (host/process/flow_recursion.c) is interpreted in order: each operation
 * evaluates one HELAS vertex of earlier currents once and adds it, times constant colour
 * coefficients, into the off-shell currents it feeds (or, at the last particle, into the colour
 * flows' partial amplitudes); the colour matrix then sums the flows. The program is the same
 * size for every process: the process is data (the tape) in the generated header, which comes
 * before this file (host/amplitude/flow_recursion_amplitude.c): N_PARTICLES, FR_SLOTS, FR_OPS,
 * FR_FLOWS, FR_CONFIGS, the tables hg_fr_ops (3 words an operation: kind | top << 4 | width << 5 |
 * targets << 8, a | b << 16, c | d << 16), hg_fr_targets (slot |
 * coefficient << 16), hg_fr_coefs and the function hg_fr_externals.
 * Conventions: CONVENTIONS.md, "Quark lines in the recursive engine". */

/* The colour sum's precision: as colour_ordered.cl. */
#ifdef HG_CO_COLOUR_DOUBLE
typedef double hg_fr_sum_t;
#else
typedef REAL hg_fr_sum_t;
#endif

#define HG_FR_FVI 1
#define HG_FR_FVO 2
#define HG_FR_JIO 3
#define HG_FR_JVV 4
#define HG_FR_JGGG 5
#define HG_FR_IOV 8
#define HG_FR_VVV 9
#define HG_FR_GGGG 10

/* |M|^2 of helicity configuration config summed over colours. */
HG_INLINE REAL hg_fr_config(const hg_fourvec *p, hg_u32 config, const hg_process_params pp,
                            __global const hg_fr_sum_t *restrict colour) {
  hg_wave W[FR_SLOTS];
  hg_fr_externals(p, config, pp, W);
#pragma unroll 1
  for (int s = N_PARTICLES; s < FR_SLOTS; ++s)
    for (int k = 0; k < 6; ++k) W[s].w[k] = hg_czero();
  hg_complex A[FR_FLOWS];
  for (int f = 0; f < FR_FLOWS; ++f) A[f] = hg_czero();
  const hg_coupling gs = hg_coupling_both(pp.g_s);
  hg_u32 first = 0; /* each operation's targets follow the previous one's */
#pragma unroll 1
  for (hg_u32 o = 0; o < FR_OPS; ++o) {
    __constant const hg_u32 *op = hg_fr_ops + 3 * o;
    const hg_u32 kind = op[0] & 15u, top = op[0] >> 4 & 1u, width = op[0] >> 5 & 1u;
    const hg_u32 n = op[0] >> 8;
    const hg_u32 a = op[1] & 0xffffu, b = op[1] >> 16, c = op[2] & 0xffffu, d = op[2] >> 16;
    const REAL mass = top ? pp.top_mass : (REAL)0;
    const REAL fwidth = top && width ? pp.top_width : (REAL)0;
    hg_wave r = W[a];
    hg_complex amp = hg_czero();
    switch (kind) {
    case HG_FR_FVI:
      r = fvixxx(W[a], W[b], gs, mass, fwidth);
      break;
    case HG_FR_FVO:
      r = fvoxxx(W[a], W[b], gs, mass, fwidth);
      break;
    case HG_FR_JIO:
      r = jioxxx(W[a], W[b], gs, (REAL)0, (REAL)0);
      break;
    case HG_FR_JVV:
      r = jvvxxx(W[a], W[b], pp.g_s, (REAL)0, (REAL)0);
      break;
    case HG_FR_JGGG:
      r = jgggxx(W[a], W[b], W[c], pp.g_s);
      break;
    case HG_FR_IOV:
      amp = iovxxx(W[a], W[b], W[c], gs);
      break;
    case HG_FR_VVV:
      amp = vvvxxx(W[a], W[b], W[c], pp.g_s);
      break;
    default:
      amp = ggggxx(W[a], W[b], W[c], W[d], pp.g_s);
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
  const hg_process_params pp = hg_load_params(params);
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
  const hg_process_params pp = hg_load_params(params);
  me[event] = hg_fr_config(p, helicity[event], pp, colour) * me_factor;
}
