/* SPDX-License-Identifier: MIT */
/* The recursive colour engine: for each helicity configuration and each ordering of the gluons,
 * one Berends-Giele recursion over the ordering's contiguous substrings gives the
 * colour-ordered amplitude; the colour matrix sums them. The process's generated header
 * (host/amplitude/colour_ordered_amplitude.c) comes before this file: N_PARTICLES, CO_LETTERS,
 * CO_ORDERINGS, CO_HELICITIES, CO_QUARK_LINE, CO_CLOSING, CO_O, CO_I, CO_QUARK_MASS,
 * CO_QUARK_WIDTH, CO_PERMUTED (the letters the orderings permute: every one for a quark line,
 * all but the last, particle 0, for gluons), CO_FULL_COLOUR (1: the colour matrix is the
 * kernels' last argument), the tables hg_co_letter_particle and hg_co_helicities (for a quark
 * line: the gluons' configurations, and CO_FERMION_PAIRS masks hg_co_fermion_pairs of the line's
 * ends), and hg_co_externals. The orderings are the lexicographic permutations of the letters,
 * stepped through in the kernel; the colour matrix's rows follow the same order.
 * With CO_GROUP the exact colour sum's kernels (amplitude_summed, amplitude_helicity) are the
 * work-group kernels of colour_group.cl instead, which share the words between orderings.
 * Conventions: CONVENTIONS.md, "Colour-ordered amplitudes" and "Colour sampling". */

#include "amplitudes/colour_factors.h"
#include "amplitudes/next_permutation.h"

/* The colour sum's precision: double also in a float program with HG_CO_COLOUR_DOUBLE. */
#ifdef HG_CO_COLOUR_DOUBLE
typedef double hg_co_sum_t;
#else
typedef REAL hg_co_sum_t;
#endif

/* Substring (start i, length l) of an ordering: currents of length l follow those of length
 * l - 1, CO_LETTERS - m + 1 substrings of each length m. */
#define CO_SUB(i, l) (((l)-1) * (CO_LETTERS + 1) - ((l)-1) * (l) / 2 + (i))
#define CO_N_SUB (CO_LETTERS * (CO_LETTERS + 1) / 2)

/* acc += the colour-ordered three-gluon vertex of currents a, b (a first) before the propagator:
 * g [(p1 - p2)^mu (a.b) + ((p1 + 2 p2).a) b^mu - ((2 p1 + p2).b) a^mu], p1, p2 their momenta
 * (HELAS slots). This is -s jvvxxx(a, b) of the off-shell gluon, s its virtuality: the colour
 * factor -[X_a, X_b] of a three-gluon current (diagrams.c) read for the order a b. */
HG_INLINE void hg_co_v3(hg_wave a, hg_wave b, REAL g, hg_complex *acc) {
  const hg_fourvec p1 = hg_wave_momentum(a), p2 = hg_wave_momentum(b);
  const hg_fourvec t1 = hg_fourvec_make(p1.v[0] + 2 * p2.v[0], p1.v[1] + 2 * p2.v[1],
                                        p1.v[2] + 2 * p2.v[2], p1.v[3] + 2 * p2.v[3]);
  const hg_fourvec t2 = hg_fourvec_make(2 * p1.v[0] + p2.v[0], 2 * p1.v[1] + p2.v[1],
                                        2 * p1.v[2] + p2.v[2], 2 * p1.v[3] + p2.v[3]);
  const hg_complex ab = hg_cscale(g, hg_wave_dot(a, b));
  const hg_complex ta = hg_cscale(g, hg_momentum_dot(t1, a));
  const hg_complex tb = hg_cscale(-g, hg_momentum_dot(t2, b));
  for (int mu = 0; mu < 4; ++mu)
    acc[mu] = hg_cadd(acc[mu], hg_cadd(hg_cscale(p1.v[mu] - p2.v[mu], ab),
                                       hg_cadd(hg_cmul(ta, b.w[mu]), hg_cmul(tb, a.w[mu]))));
}

/* acc += the colour-ordered four-gluon vertex of currents a, b, c in this order:
 * g^2 [2 b^mu (a.c) - a^mu (b.c) - c^mu (a.b)] (jgggxx(b, c, a) - jgggxx(a, b, c) times s). */
HG_INLINE void hg_co_v4(hg_wave a, hg_wave b, hg_wave c, REAL g, hg_complex *acc) {
  const REAL g2 = g * g;
  const hg_complex ac = hg_cscale(2 * g2, hg_wave_dot(a, c));
  const hg_complex bc = hg_cscale(-g2, hg_wave_dot(b, c));
  const hg_complex ab = hg_cscale(-g2, hg_wave_dot(a, b));
  for (int mu = 0; mu < 4; ++mu)
    acc[mu] = hg_cadd(acc[mu], hg_cadd(hg_cmul(ac, b.w[mu]),
                                       hg_cadd(hg_cmul(bc, a.w[mu]), hg_cmul(ab, c.w[mu]))));
}

/* The off-shell gluon of substring (i, l) from its vertices' sum: acc / s (Feynman gauge, as
 * jvvxxx), momentum slots the sum of the first split's. */
HG_INLINE hg_wave hg_co_gluon(const hg_complex *acc, hg_wave first, hg_wave rest) {
  hg_wave j;
  j.w[4] = hg_cadd(first.w[4], rest.w[4]);
  j.w[5] = hg_cadd(first.w[5], rest.w[5]);
  const hg_fourvec q = hg_wave_momentum(j);
  const REAL inv = (REAL)1 / hg_minkowski(q, q);
  for (int mu = 0; mu < 4; ++mu) j.w[mu] = hg_cscale(inv, acc[mu]);
  return j;
}

/* The first ordering: the letters in their order. */
HG_INLINE void hg_co_first_ordering(int *perm) {
  for (int i = 0; i < CO_LETTERS; ++i) perm[i] = i;
}

/* The gluon currents of the ordering perm's contiguous substrings (the whole ordering too for a
 * quark line) from the external wavefunctions ext. */
HG_INLINE void hg_co_gluon_currents(const hg_wave *ext, const int *perm, const REAL g, hg_wave *J) {
#pragma unroll
  for (int i = 0; i < CO_LETTERS; ++i) J[CO_SUB(i, 1)] = ext[hg_co_letter_particle[perm[i]]];
#pragma unroll
  for (int l = 2; l <= CO_LETTERS - 1 + CO_QUARK_LINE; ++l) {
#pragma unroll
    for (int i = 0; i + l <= CO_LETTERS; ++i) {
      hg_complex acc[4] = {hg_czero(), hg_czero(), hg_czero(), hg_czero()};
#pragma unroll
      for (int m = 1; m < l; ++m) hg_co_v3(J[CO_SUB(i, m)], J[CO_SUB(i + m, l - m)], g, acc);
#pragma unroll
      for (int m1 = 1; m1 < l - 1; ++m1)
#pragma unroll
        for (int m2 = 1; m1 + m2 < l; ++m2)
          hg_co_v4(J[CO_SUB(i, m1)], J[CO_SUB(i + m1, m2)], J[CO_SUB(i + m1 + m2, l - m1 - m2)], g,
                   acc);
      J[CO_SUB(i, l)] = hg_co_gluon(acc, J[CO_SUB(i, 1)], J[CO_SUB(i + 1, l - 1)]);
    }
  }
}

#if CO_QUARK_LINE
/* A quark line's colour-ordered amplitude from the gluon currents J: the flowing-out end absorbs
 * the gluons in the ordering's order (Q[l] has the first l), the flowing-in end closes it. */
HG_INLINE hg_complex hg_co_line_amplitude(const hg_wave *J, hg_wave out_end, hg_wave in_end,
                                          const hg_process_params pp) {
  const hg_coupling gs = hg_coupling_both(pp.g_s);
  hg_wave Q[CO_LETTERS];
  Q[0] = out_end;
#pragma unroll
  for (int l = 1; l < CO_LETTERS; ++l) {
    hg_wave q = fvoxxx(Q[0], J[CO_SUB(0, l)], gs, CO_QUARK_MASS, CO_QUARK_WIDTH);
#pragma unroll
    for (int m = 1; m < l; ++m) {
      const hg_wave t = fvoxxx(Q[m], J[CO_SUB(m, l - m)], gs, CO_QUARK_MASS, CO_QUARK_WIDTH);
      for (int c = 0; c < 4; ++c) q.w[c] = hg_cadd(q.w[c], t.w[c]);
    }
    Q[l] = q;
  }
  hg_complex amp = hg_czero();
#pragma unroll
  for (int m = 0; m < CO_LETTERS; ++m)
    amp = hg_cadd(amp, iovxxx(in_end, Q[m], J[CO_SUB(m, CO_LETTERS - m)], gs));
  return amp;
}
#else
/* Gluons only: the whole ordering's vertices contracted with the closing gluon, A = 2 acc.e
 * (the factor 2 Tr(X T^c) that closes a gluon current, diagrams.c). */
HG_INLINE hg_complex hg_co_gluon_amplitude(const hg_wave *J, hg_wave e, const REAL g) {
  hg_complex acc[4] = {hg_czero(), hg_czero(), hg_czero(), hg_czero()};
  const int l = CO_LETTERS;
#pragma unroll
  for (int m = 1; m < l; ++m) hg_co_v3(J[CO_SUB(0, m)], J[CO_SUB(m, l - m)], g, acc);
#pragma unroll
  for (int m1 = 1; m1 < l - 1; ++m1)
#pragma unroll
    for (int m2 = 1; m1 + m2 < l; ++m2)
      hg_co_v4(J[CO_SUB(0, m1)], J[CO_SUB(m1, m2)], J[CO_SUB(m1 + m2, l - m1 - m2)], g, acc);
  hg_complex amp = hg_cmul(acc[0], e.w[0]);
  for (int mu = 1; mu < 4; ++mu) amp = hg_csub(amp, hg_cmul(acc[mu], e.w[mu]));
  return hg_cscale((REAL)2, amp);
}
#endif

/* The colour index of particle i in a colour assignment (3 bits each: CONVENTIONS.md, "Colour
 * sampling"). */
#define HG_CO_COLOUR_OF(colours, i) (((colours) >> (3 * (i))) & 7u)

#if CO_QUARK_LINE
/* The colour-ordered amplitudes of the ordering perm for the line's end wavefunctions of each
 * helicity pair: the gluon currents are made once for all pairs, which do not change them. */
HG_INLINE void hg_co_ordering_amplitudes(const hg_wave *ext, const int *perm,
                                         const hg_wave *out_end, const hg_wave *in_end,
                                         hg_u32 n_pairs, const hg_process_params pp,
                                         hg_complex *a) {
  hg_wave J[CO_N_SUB];
  hg_co_gluon_currents(ext, perm, pp.g_s, J);
#pragma unroll 1
  for (hg_u32 f = 0; f < n_pairs; ++f) a[f] = hg_co_line_amplitude(J, out_end[f], in_end[f], pp);
}

/* The external wavefunctions of the gluon configuration gluons and the line's ends of each pair
 * pairs[0..n_pairs-1]. */
HG_INLINE void hg_co_line_externals(const hg_fourvec *p, hg_u32 gluons, const hg_u32 *pairs,
                                    hg_u32 n_pairs, const hg_process_params pp, hg_wave *ext,
                                    hg_wave *out_end, hg_wave *in_end) {
#pragma unroll 1
  for (hg_u32 f = 0; f < n_pairs; ++f) {
    hg_co_externals(p, gluons | pairs[f], pp, ext);
    out_end[f] = ext[CO_O];
    in_end[f] = ext[CO_I];
  }
}

/* The colour factor (T^x1 ... T^xk)_{o i} of the ordering perm in the colour assignment
 * colours. */
HG_INLINE hg_complex hg_co_colour_factor(const int *perm, hg_u32 colours) {
  hg_u32 x[CO_LETTERS];
  for (int j = 0; j < CO_LETTERS; ++j)
    x[j] = HG_CO_COLOUR_OF(colours, hg_co_letter_particle[perm[j]]);
  return hg_cf_quark_line(x, CO_LETTERS, HG_CO_COLOUR_OF(colours, CO_O),
                          HG_CO_COLOUR_OF(colours, CO_I));
}
#else
/* The colour-ordered amplitude of the ordering perm. */
HG_INLINE hg_complex hg_co_ordering_amplitude(const hg_wave *ext, const int *perm,
                                              const hg_process_params pp) {
  hg_wave J[CO_N_SUB];
  hg_co_gluon_currents(ext, perm, pp.g_s, J);
  return hg_co_gluon_amplitude(J, ext[CO_CLOSING], pp.g_s);
}

/* The DDM coefficient (without its phase) of the ordering perm in the colour assignment
 * colours: the inner gluons in the ordering's order, particle 0 innermost, the closing gluon's
 * colour picked by the trace. */
HG_INLINE REAL hg_co_colour_factor(const int *perm, hg_u32 colours) {
  hg_u32 x[CO_PERMUTED];
  for (int j = 0; j < CO_PERMUTED; ++j)
    x[j] = HG_CO_COLOUR_OF(colours, hg_co_letter_particle[perm[j]]);
  return hg_cf_ddm(x, CO_PERMUTED, HG_CO_COLOUR_OF(colours, hg_co_letter_particle[CO_PERMUTED]),
                   HG_CO_COLOUR_OF(colours, CO_CLOSING));
}
#endif

#if CO_FULL_COLOUR
/* sum_ab Re(A_a* C_ab A_b) with the symmetric real colour matrix. */
HG_INLINE hg_co_sum_t hg_co_colour_sum(const hg_complex *A,
                                       __global const hg_co_sum_t *restrict colour) {
  hg_co_sum_t sum = 0;
#pragma unroll 1
  for (hg_u32 a = 0; a < CO_ORDERINGS; ++a) {
    __global const hg_co_sum_t *row = colour + (size_t)a * CO_ORDERINGS;
    hg_co_sum_t zr = row[a] * (hg_co_sum_t)A[a].re, zi = row[a] * (hg_co_sum_t)A[a].im;
    for (hg_u32 b = 0; b < a; ++b) {
      zr += 2 * row[b] * (hg_co_sum_t)A[b].re;
      zi += 2 * row[b] * (hg_co_sum_t)A[b].im;
    }
    sum += (hg_co_sum_t)A[a].re * zr + (hg_co_sum_t)A[a].im * zi;
  }
  return sum;
}

#if CO_QUARK_LINE
/* |M|^2 summed over colours and over the quark line's helicity pairs pairs[0..n_pairs-1] (bit
 * masks of its two ends) with the gluons in configuration gluons. */
HG_INLINE REAL hg_co_config(const hg_fourvec *p, hg_u32 gluons, const hg_u32 *pairs, hg_u32 n_pairs,
                            const hg_process_params pp,
                            __global const hg_co_sum_t *restrict colour) {
  hg_wave ext[N_PARTICLES], out_end[CO_FERMION_PAIRS], in_end[CO_FERMION_PAIRS];
  hg_co_line_externals(p, gluons, pairs, n_pairs, pp, ext, out_end, in_end);
  hg_complex A[CO_FERMION_PAIRS][CO_ORDERINGS];
  int perm[CO_LETTERS];
  hg_co_first_ordering(perm);
#pragma unroll 1
  for (hg_u32 o = 0; o < CO_ORDERINGS; ++o) {
    hg_complex a[CO_FERMION_PAIRS];
    hg_co_ordering_amplitudes(ext, perm, out_end, in_end, n_pairs, pp, a);
#pragma unroll 1
    for (hg_u32 f = 0; f < n_pairs; ++f) A[f][o] = a[f];
    hg_next_permutation(perm, CO_PERMUTED);
  }
  hg_co_sum_t sum = 0;
#pragma unroll 1
  for (hg_u32 f = 0; f < n_pairs; ++f) sum += hg_co_colour_sum(A[f], colour);
  return (REAL)sum;
}
#else
/* |M|^2 of helicity configuration config summed over colours. */
HG_INLINE REAL hg_co_config(const hg_fourvec *p, hg_u32 config, const hg_process_params pp,
                            __global const hg_co_sum_t *restrict colour) {
  hg_wave ext[N_PARTICLES];
  hg_co_externals(p, config, pp, ext);
  hg_complex A[CO_ORDERINGS];
  int perm[CO_LETTERS];
  hg_co_first_ordering(perm);
#pragma unroll 1
  for (hg_u32 o = 0; o < CO_ORDERINGS; ++o) {
    A[o] = hg_co_ordering_amplitude(ext, perm, pp);
    hg_next_permutation(perm, CO_PERMUTED);
  }
  return (REAL)hg_co_colour_sum(A, colour);
}
#endif

#if CO_GROUP
#include "amplitudes/colour_group.cl"
#else
/* |M|^2 summed over the configurations that can be non-zero (for a quark line: every gluon
 * configuration with a non-zero one times every helicity pair the line allows) and over colours,
 * times me_factor = 1/IDEN (MadGraph's normalisation). */
__kernel void amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                               __global const REAL *restrict params, const REAL me_factor,
                               __global REAL *restrict me,
                               __global const hg_co_sum_t *restrict colour) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  const hg_process_params pp = hg_load_params(params);
  REAL sum = (REAL)0;
#if CO_QUARK_LINE
  hg_u32 pairs[CO_FERMION_PAIRS];
  for (int f = 0; f < CO_FERMION_PAIRS; ++f) pairs[f] = hg_co_fermion_pairs[f];
#pragma unroll 1
  for (hg_u32 h = 0; h < CO_HELICITIES; ++h)
    sum += hg_co_config(p, hg_co_helicities[h], pairs, CO_FERMION_PAIRS, pp, colour);
#else
#pragma unroll 1
  for (hg_u32 h = 0; h < CO_HELICITIES; ++h)
    sum += hg_co_config(p, hg_co_helicities[h], pp, colour);
#endif
  me[event] = sum * me_factor;
}

/* The same for the configuration helicity[event] (bit i: particle i has helicity +1), any
 * configuration, also one the sum leaves out as zero. */
__kernel void amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                                 __global const REAL *restrict params, const REAL me_factor,
                                 __global const hg_u32 *restrict helicity,
                                 __global REAL *restrict me,
                                 __global const hg_co_sum_t *restrict colour) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  const hg_process_params pp = hg_load_params(params);
#if CO_QUARK_LINE
  const hg_u32 none[1] = {0u}; /* the configuration holds the line's helicities */
  me[event] = hg_co_config(p, helicity[event], none, 1, pp, colour) * me_factor;
#else
  me[event] = hg_co_config(p, helicity[event], pp, colour) * me_factor;
#endif
}
#endif /* CO_GROUP */
#endif /* CO_FULL_COLOUR */

/* Sampled colours: |M|^2 of one colour assignment, |sum_o c_o(colours) A_o|^2, whose sum over
 * every assignment is the colour-summed |M|^2; no colour matrix, orderings^1 per configuration. */
#if CO_QUARK_LINE
HG_INLINE REAL hg_co_config_colour(const hg_fourvec *p, hg_u32 gluons, const hg_u32 *pairs,
                                   hg_u32 n_pairs, const hg_process_params pp, hg_u32 colours) {
  hg_wave ext[N_PARTICLES], out_end[CO_FERMION_PAIRS], in_end[CO_FERMION_PAIRS];
  hg_co_line_externals(p, gluons, pairs, n_pairs, pp, ext, out_end, in_end);
  hg_complex M[CO_FERMION_PAIRS];
  for (int f = 0; f < CO_FERMION_PAIRS; ++f) M[f] = hg_czero();
  int perm[CO_LETTERS];
  hg_co_first_ordering(perm);
#pragma unroll 1
  for (hg_u32 o = 0; o < CO_ORDERINGS; ++o) {
    hg_complex a[CO_FERMION_PAIRS];
    hg_co_ordering_amplitudes(ext, perm, out_end, in_end, n_pairs, pp, a);
    const hg_complex c = hg_co_colour_factor(perm, colours);
#pragma unroll 1
    for (hg_u32 f = 0; f < n_pairs; ++f) M[f] = hg_cfma(c, a[f], M[f]);
    hg_next_permutation(perm, CO_PERMUTED);
  }
  REAL sum = (REAL)0;
#pragma unroll 1
  for (hg_u32 f = 0; f < n_pairs; ++f) sum += hg_cabs2(M[f]);
  return sum;
}
#else
HG_INLINE REAL hg_co_config_colour(const hg_fourvec *p, hg_u32 config, const hg_process_params pp,
                                   hg_u32 colours) {
  hg_wave ext[N_PARTICLES];
  hg_co_externals(p, config, pp, ext);
  hg_complex M = hg_czero();
  int perm[CO_LETTERS];
  hg_co_first_ordering(perm);
#pragma unroll 1
  for (hg_u32 o = 0; o < CO_ORDERINGS; ++o) {
    const hg_complex a = hg_co_ordering_amplitude(ext, perm, pp);
    M = hg_cadd(M, hg_cscale(hg_co_colour_factor(perm, colours), a));
    hg_next_permutation(perm, CO_PERMUTED);
  }
  return hg_cabs2(M);
}
#endif

/* |M|^2 of the colour assignment colour[event] (CONVENTIONS.md, "Colour sampling") summed over
 * the helicity configurations that can be non-zero, or with per_helicity for the configuration
 * helicity[event], times me_factor: summed over every colour assignment it is the
 * colour-summed |M|^2 of amplitude_summed or amplitude_helicity. */
__kernel void amplitude_colour(__global const REAL *restrict momenta, const hg_u32 n_events,
                               __global const REAL *restrict params, const REAL me_factor,
                               __global const hg_u32 *restrict helicity, const hg_u32 per_helicity,
                               __global const hg_u32 *restrict colour, __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  const hg_process_params pp = hg_load_params(params);
  const hg_u32 colours = colour[event];
  REAL sum = (REAL)0;
  if (per_helicity) {
#if CO_QUARK_LINE
    const hg_u32 none[1] = {0u}; /* the configuration holds the line's helicities */
    sum = hg_co_config_colour(p, helicity[event], none, 1, pp, colours);
#else
    sum = hg_co_config_colour(p, helicity[event], pp, colours);
#endif
  } else {
#if CO_QUARK_LINE
    hg_u32 pairs[CO_FERMION_PAIRS];
    for (int f = 0; f < CO_FERMION_PAIRS; ++f) pairs[f] = hg_co_fermion_pairs[f];
#pragma unroll 1
    for (hg_u32 h = 0; h < CO_HELICITIES; ++h)
      sum += hg_co_config_colour(p, hg_co_helicities[h], pairs, CO_FERMION_PAIRS, pp, colours);
#else
#pragma unroll 1
    for (hg_u32 h = 0; h < CO_HELICITIES; ++h)
      sum += hg_co_config_colour(p, hg_co_helicities[h], pp, colours);
#endif
  }
  me[event] = sum * me_factor;
}

/* The colour flows' leading-colour weights of n_events events (the kept events of a process
 * run): weights[o * n_events + event] = sum of |A(sigma_o)|^2 over the configurations
 * amplitude_summed sums, sigma_o the o-th lexicographic ordering of EVERY letter (CO_LETTERS!
 * orderings): for a quark line the string (T^sigma1 ... T^sigmak)_{o i} (the exact sum's
 * orderings), for gluons only the trace Tr(T^sigma1 ... T^sigma(n-1) T^c) of the closing gluon
 * c, particle 0 no longer fixed last (the (n - 1)! single traces, not the DDM basis). The host
 * lists the same orderings (host/amplitude/flow_weights.c; CONVENTIONS.md, "Colour flows of the
 * recursive engines"). One event per work-item; no colour matrix, no 1/IDEN. */
__kernel void amplitude_flow_weights(__global const REAL *restrict momenta, const hg_u32 n_events,
                                     __global const REAL *restrict params,
                                     __global REAL *restrict weights) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  const hg_process_params pp = hg_load_params(params);
  hg_u32 n_flows = 1u;
  for (int j = 2; j <= CO_LETTERS; ++j) n_flows *= (hg_u32)j;
#pragma unroll 1
  for (hg_u32 o = 0; o < n_flows; ++o) weights[(size_t)o * n_events + event] = (REAL)0;
  int perm[CO_LETTERS];
  hg_wave ext[N_PARTICLES];
#if CO_QUARK_LINE
  hg_u32 pairs[CO_FERMION_PAIRS];
  for (int f = 0; f < CO_FERMION_PAIRS; ++f) pairs[f] = hg_co_fermion_pairs[f];
  hg_wave out_end[CO_FERMION_PAIRS], in_end[CO_FERMION_PAIRS];
#endif
#pragma unroll 1
  for (hg_u32 h = 0; h < CO_HELICITIES; ++h) {
#if CO_QUARK_LINE
    hg_co_line_externals(p, hg_co_helicities[h], pairs, CO_FERMION_PAIRS, pp, ext, out_end,
                         in_end);
#else
    hg_co_externals(p, hg_co_helicities[h], pp, ext);
#endif
    hg_co_first_ordering(perm);
#pragma unroll 1
    for (hg_u32 o = 0; o < n_flows; ++o) {
#if CO_QUARK_LINE
      hg_complex a[CO_FERMION_PAIRS];
      hg_co_ordering_amplitudes(ext, perm, out_end, in_end, CO_FERMION_PAIRS, pp, a);
      REAL w = (REAL)0;
      for (int f = 0; f < CO_FERMION_PAIRS; ++f) w += hg_cabs2(a[f]);
#else
      const REAL w = hg_cabs2(hg_co_ordering_amplitude(ext, perm, pp));
#endif
      weights[(size_t)o * n_events + event] += w;
      hg_next_permutation(perm, CO_LETTERS);
    }
  }
}
