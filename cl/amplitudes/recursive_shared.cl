/* SPDX-License-Identifier: MIT */
/* The recursive engine's helicity-summed kernel: one work-group shares an event's currents over
 * every helicity configuration, and the n! orderings meet in the middle of the quark line.
 *
 * amplitude_summed in kernels.cl recomputes all 2^n - 1 currents of recursive.cl for each of the
 * 2^n - 2 photon configurations. Here a current J(S, h_S) (the quark line with the photons of S
 * attached, their helicities h_S) is made once and serves every configuration that agrees on S:
 * 3^n currents in all instead of 4^n. Each ordering is cut after its first K photons, so
 *   A(h) = sum_{|S| = K} R''(S^c, h_{S^c}) . J(S, h_S),
 * where J(S) = P(S) sum_{j in S} V_j J(S \ {j}) grows from the quark (recursive.cl) and the row
 * current R(T) = [sum_{j in T} R(T \ {j}) V_j] P(all \ T) grows from the antiquark, R(empty) = the
 * antiquark's spinor; R'' is R without its last propagator. Only the levels below the cut are
 * tabulated, in local memory; level K of J and level n - K of R'' are made a chunk of subsets at a
 * time and contracted at once. Only the left-handed quark line is evaluated and doubled, and the
 * configurations with all photons alike are left out, exactly as amplitude_summed does.
 *
 * Where an event's tables do not fit in local memory (n >= 9 on NVIDIA's 48 KB), HG_RS_GLOBAL puts
 * them in a global buffer, HG_RS_CURRENTS per component and event, the two components after each
 * other; consecutive work-items make consecutive currents of a level, so the accesses coalesce.
 * The chunk and the final sum keep local memory (HG_RS_CHUNK_AREA currents). As many work-groups
 * are launched as the buffer has room for, and each goes over the batch in steps of their number.
 *
 * The host (host/amplitude/recursive_shared.c) writes the layout ahead of this file (and, where a
 * work-item holds more than 4 configurations, HG_RS_CONTRACT_GENERATED and the contraction
 * hg_rs_contract between kernels.cl and this file): the cut HG_RS_K, HG_RS_THREADS work-items
 * per event, HG_RS_EVENTS events per work-group, HG_RS_CHUNK subsets per contraction step,
 * HG_RS_CURRENTS currents per event, HG_RS_GLOBAL (0 or 1), the level offsets hg_rs_j_offset /
 * hg_rs_r_offset (in currents), and the subsets by size and rank (hg_rs_level_start,
 * hg_rs_subsets, hg_rs_rank). */
#ifndef HG_RECURSIVE_SHARED_CL
#define HG_RECURSIVE_SHARED_CL

#include "amplitudes/engine_common.cl"
#include "shared/layout.h"

#ifndef HG_RS_THREADS
#error "the shared recursive kernel needs the layout that host/amplitude/recursive_shared.c writes"
#endif

#define HG_RS_M (N_PHOTONS - HG_RS_K)
#define HG_RS_CONFIGS (1u << N_PHOTONS)
#define HG_RS_PER_THREAD (HG_RS_CONFIGS / HG_RS_THREADS)
#define HG_RS_FULL ((1u << N_PHOTONS) - 1u)
/* the chunk of level-K J currents, then the chunk of level-(n - K) R'' currents, in the scratch */
#define HG_RS_CHUNK_J (HG_RS_CHUNK << HG_RS_K)
#define HG_RS_CHUNK_ITEMS (HG_RS_CHUNK_J + (HG_RS_CHUNK << HG_RS_M))
#define HG_RS_CHUNKS ((HG_RS_SUBSETS_K + HG_RS_CHUNK - 1) / HG_RS_CHUNK)
/* where the tables live, and the fence their barriers need */
#if HG_RS_GLOBAL
#define HG_RS_TABLE __global
#define HG_RS_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#else
#define HG_RS_TABLE __local
#define HG_RS_FENCE CLK_LOCAL_MEM_FENCE
#endif

/* What an event's work-items share besides its currents. */
typedef struct {
  hg_mat2 vertex[N_PHOTONS][2]; /* g sigma-bar(eps_j) for helicity -1 (0) and +1 (1) */
  hg_fourvec k[N_PHOTONS];      /* photon momenta */
  hg_fourvec p_quark, k_all;    /* the quark's momentum and the photons' sum */
  hg_complex fi0, fi1, fo0, fo1; /* the left-handed components of the quark and antiquark */
} hg_rs_event;

/* hc (bits over S's elements in ascending order) without bit i. */
HG_INLINE hg_u32 hg_rs_drop_bit(hg_u32 hc, int i) {
  return ((hc >> (i + 1)) << i) | (hc & ((1u << i) - 1u));
}

/* The bits of h at the positions set in mask among its lowest `bits`, packed in ascending order
 * (a parallel extract). */
HG_INLINE hg_u32 hg_rs_extract(hg_u32 h, hg_u32 mask, int bits) {
  hg_u32 out = 0;
  int at = 0;
  for (int b = 0; b < bits; ++b) {
    const hg_u32 in = (mask >> b) & 1u;
    out |= (((h >> b) & 1u) & in) << at;
    at += (int)in;
  }
  return out;
}

/* The currents of set (bits: photons) with helicities hc over its l elements, from the previous
 * level of the same side: J's column sum sum_j V_j J(S \ j) or R's row sum sum_j R(T \ j) V_j,
 * and the momentum p_quark - sum_{j in set} k_j that the propagator next to it carries. */
HG_INLINE void hg_rs_vertex_sum(__local const hg_rs_event *x, HG_RS_TABLE const hg_complex *c0,
                                HG_RS_TABLE const hg_complex *c1, int row, int l, hg_u32 set,
                                hg_u32 hc, int previous_offset, hg_complex *s0, hg_complex *s1,
                                hg_fourvec *p) {
  hg_complex sum0 = hg_czero(), sum1 = hg_czero();
  hg_fourvec q = x->p_quark;
  int i = 0;
  for (int j = 0; j < N_PHOTONS; ++j) {
    if (!((set >> j) & 1u)) continue;
    const hg_u32 h = (hc >> i) & 1u;
    hg_complex a0, a1;
    if (l == 1) {
      a0 = row ? x->fo0 : x->fi0;
      a1 = row ? x->fo1 : x->fi1;
    } else {
      const hg_u32 rest = set ^ (1u << j);
      const int at = previous_offset + (int)((hg_u32)hg_rs_rank[rest] << (l - 1)) +
                     (int)hg_rs_drop_bit(hc, i);
      a0 = c0[at];
      a1 = c1[at];
    }
    hg_complex r0, r1;
    if (row)
      hg_mat2_apply_row(x->vertex[j][h], a0, a1, &r0, &r1);
    else
      hg_mat2_apply(x->vertex[j][h], a0, a1, &r0, &r1);
    sum0 = hg_cadd(sum0, r0);
    sum1 = hg_cadd(sum1, r1);
    for (int c = 0; c < 4; ++c) q.v[c] -= x->k[j].v[c];
    ++i;
  }
  *s0 = sum0;
  *s1 = sum1;
  *p = q;
}

/* -sigma(p) / p^2 applied to the column (row = 0) or row (row = 1) spinor (s0, s1). */
HG_INLINE void hg_rs_propagate(hg_fourvec p, int row, hg_complex s0, hg_complex s1,
                               hg_complex *r0, hg_complex *r1) {
  const REAL d = -(REAL)1 / hg_minkowski(p, p);
  if (row)
    hg_mat2_apply_row(hg_sigma_real(p, -(REAL)1), s0, s1, r0, r1);
  else
    hg_mat2_apply(hg_sigma_real(p, -(REAL)1), s0, s1, r0, r1);
  *r0 = hg_cscale(d, *r0);
  *r1 = hg_cscale(d, *r1);
}

/* R's propagator after the photons of set: it carries p_quark minus the photons not in set. */
HG_INLINE hg_fourvec hg_rs_row_momentum(__local const hg_rs_event *x, hg_fourvec p_of_set) {
  hg_fourvec q;
  for (int c = 0; c < 4; ++c)
    q.v[c] = x->p_quark.v[c] - x->k_all.v[c] + (x->p_quark.v[c] - p_of_set.v[c]);
  return q;
}

/* Event group_first + slot's |M|^2 (as amplitude_summed below) by the group's work-items t of that
 * slot: x its shared values, c0 and c1 its tables, k0 and k1 its chunk; a group past the batch's
 * end computes the batch's last event again (every work-item must meet the barriers) and writes
 * nothing. */
HG_INLINE void hg_rs_event_sum(__global const REAL *restrict momenta, const hg_u32 n_events,
                               const REAL coupling, const REAL me_factor,
                               __global REAL *restrict me, size_t group_first, int slot, int t,
                               __local hg_rs_event *x, HG_RS_TABLE hg_complex *c0,
                               HG_RS_TABLE hg_complex *c1, __local hg_complex *k0,
                               __local hg_complex *k1) {
  const size_t event = group_first + (size_t)slot;
  const size_t source = event < n_events ? event : (size_t)n_events - 1;

  /* the external wavefunctions: a work-item per photon helicity, one for the quarks */
  for (int w = t; w <= 2 * N_PHOTONS; w += HG_RS_THREADS) {
    if (w < 2 * N_PHOTONS) {
      const int j = w >> 1, h = w & 1;
      const hg_fourvec k = hg_load_momentum(momenta, n_events, source, 2 + j);
      const hg_wave v = vxxxx0(k, h ? 1 : -1, 1);
      /* the coupling sits in every vertex, as in HELAS, so that no current or amplitude is g^-n
       * times its size: in float, products of n - 1 propagators near the cuts would overflow */
      hg_mat2 vertex = hg_sigma_of_wave(v, (REAL)1);
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) vertex.m[r][c] = hg_cscale(coupling, vertex.m[r][c]);
      x->vertex[j][h] = vertex;
      if (h == 0) x->k[j] = hg_wave_momentum(v);
    } else {
      const hg_wave fi = ixxxx1(hg_load_momentum(momenta, n_events, source, 0), -1, 1);
      const hg_wave fo = oxxxx2(hg_load_momentum(momenta, n_events, source, 1), 1, -1);
      x->p_quark = hg_wave_momentum(fi);
      x->fi0 = fi.w[0];
      x->fi1 = fi.w[1];
      x->fo0 = fo.w[2];
      x->fo1 = fo.w[3];
    }
  }
  barrier(HG_RS_FENCE);
  if (t == 0) {
    hg_fourvec all = hg_fourvec_make((REAL)0, (REAL)0, (REAL)0, (REAL)0);
    for (int j = 0; j < N_PHOTONS; ++j)
      for (int c = 0; c < 4; ++c) all.v[c] += x->k[j].v[c];
    x->k_all = all;
  }
  barrier(HG_RS_FENCE);

  /* the tabulated levels: J below K and R below n - K, both sides' level l in one pass */
  for (int l = 1; l < HG_RS_K || l < HG_RS_M; ++l) {
    const int j_items = l < HG_RS_K ? (int)hg_rs_level_size[l] : 0;
    const int r_items = l < HG_RS_M ? (int)hg_rs_level_size[l] : 0;
    for (int w = t; w < j_items + r_items; w += HG_RS_THREADS) {
      const int row = w >= j_items;
      const int item = row ? w - j_items : w;
      const hg_u32 set = hg_rs_subsets[hg_rs_level_start[l] + (item >> l)];
      const hg_u32 hc = (hg_u32)item & ((1u << l) - 1u);
      const int previous = row ? hg_rs_r_offset[l - 1] : hg_rs_j_offset[l - 1];
      hg_complex s0, s1, r0, r1;
      hg_fourvec p;
      hg_rs_vertex_sum(x, c0, c1, row, l, set, hc, previous, &s0, &s1, &p);
      hg_rs_propagate(row ? hg_rs_row_momentum(x, p) : p, row, s0, s1, &r0, &r1);
      const int at = (row ? hg_rs_r_offset[l] : hg_rs_j_offset[l]) + item;
      c0[at] = r0;
      c1[at] = r1;
    }
    barrier(HG_RS_FENCE);
  }

  /* the cut: chunks of level-K subsets S, J(S) with its propagator and R''(S^c) without */
  hg_complex amp[HG_RS_PER_THREAD];
  for (int i = 0; i < HG_RS_PER_THREAD; ++i) amp[i] = hg_czero();
  for (int chunk = 0; chunk < HG_RS_CHUNKS; ++chunk) {
    const int first = chunk * HG_RS_CHUNK;
    for (int w = t; w < HG_RS_CHUNK_ITEMS; w += HG_RS_THREADS) {
      const int row = w >= HG_RS_CHUNK_J;
      const int item = row ? w - HG_RS_CHUNK_J : w;
      const int bits = row ? HG_RS_M : HG_RS_K;
      const int s = first + (item >> bits);
      if (s >= HG_RS_SUBSETS_K) continue;
      const hg_u32 cut = hg_rs_subsets[hg_rs_level_start[HG_RS_K] + s];
      const hg_u32 set = row ? (HG_RS_FULL ^ cut) : cut;
      const hg_u32 hc = (hg_u32)item & ((1u << bits) - 1u);
      const int previous = row ? hg_rs_r_offset[bits - 1] : hg_rs_j_offset[bits - 1];
      hg_complex s0, s1, r0, r1;
      hg_fourvec p;
      hg_rs_vertex_sum(x, c0, c1, row, bits, set, hc, previous, &s0, &s1, &p);
      if (row) {
        r0 = s0;
        r1 = s1;
      } else {
        hg_rs_propagate(p, 0, s0, s1, &r0, &r1);
      }
      k0[w] = r0;
      k1[w] = r1;
    }
    barrier(HG_RS_FENCE);
    for (int s = 0; s < HG_RS_CHUNK && first + s < HG_RS_SUBSETS_K; ++s) {
      /* configuration h = t + HG_RS_THREADS i: its bits below HG_RS_LOG_THREADS are t's, so the
       * extracts split into t's part (once per subset) and i's (shifted past t's bits) */
      const hg_u32 cut = hg_rs_subsets[hg_rs_level_start[HG_RS_K] + first + s];
      const hg_u32 rest = HG_RS_FULL ^ cut, low = HG_RS_THREADS - 1u;
      const int j_base = (s << HG_RS_K) +
                         (int)hg_rs_extract((hg_u32)t, cut & low, HG_RS_LOG_THREADS);
      const int r_base = HG_RS_CHUNK_J + (s << HG_RS_M) +
                         (int)hg_rs_extract((hg_u32)t, rest & low, HG_RS_LOG_THREADS);
      const int j_shift = (int)popcount(cut & low), r_shift = HG_RS_LOG_THREADS - j_shift;
#if !defined(HG_RS_PLAIN_CONTRACTION) && (HG_RS_PER_THREAD == 2 || HG_RS_PER_THREAD == 4)
      /* A work-item's configurations differ only in the bits above HG_RS_LOG_THREADS, so many of
       * its J and R'' coincide: read each once. The branches depend on the subset alone, which
       * every work-item of the group shares; local memory, not arithmetic, bounds this loop. */
      const hg_u32 cut_high = cut >> HG_RS_LOG_THREADS;
      if (cut_high == 0u || cut_high == HG_RS_PER_THREAD - 1u) {
        /* one side is the same for all of them, the other takes the configuration's bits as is */
        const int x_base = cut_high != 0u ? j_base : r_base;
        const int x_shift = cut_high != 0u ? j_shift : r_shift;
        const int y_at = cut_high != 0u ? r_base : j_base;
        const hg_complex y0 = k0[y_at], y1 = k1[y_at];
        for (int i = 0; i < HG_RS_PER_THREAD; ++i) {
          const int x_at = x_base + (i << x_shift);
          amp[i] = hg_cfma(k0[x_at], y0, hg_cfma(k1[x_at], y1, amp[i]));
        }
      } else {
#if HG_RS_PER_THREAD == 4
        /* one high bit on each side: two J and two R'' make the four products */
        const hg_complex ja0 = k0[j_base], ja1 = k1[j_base];
        const hg_complex jb0 = k0[j_base + (1 << j_shift)], jb1 = k1[j_base + (1 << j_shift)];
        const hg_complex ra0 = k0[r_base], ra1 = k1[r_base];
        const hg_complex rb0 = k0[r_base + (1 << r_shift)], rb1 = k1[r_base + (1 << r_shift)];
        const int low_in_cut = cut_high == 1u; /* configuration bit 0 picks J, bit 1 picks R'' */
        amp[0] = hg_cfma(ra0, ja0, hg_cfma(ra1, ja1, amp[0]));
        amp[3] = hg_cfma(rb0, jb0, hg_cfma(rb1, jb1, amp[3]));
        amp[1] = low_in_cut ? hg_cfma(ra0, jb0, hg_cfma(ra1, jb1, amp[1]))
                            : hg_cfma(rb0, ja0, hg_cfma(rb1, ja1, amp[1]));
        amp[2] = low_in_cut ? hg_cfma(rb0, ja0, hg_cfma(rb1, ja1, amp[2]))
                            : hg_cfma(ra0, jb0, hg_cfma(ra1, jb1, amp[2]));
#endif
      }
#elif !defined(HG_RS_PLAIN_CONTRACTION) && defined(HG_RS_CONTRACT_GENERATED)
      /* more configurations per work-item (n >= 10): the host's generated hg_rs_contract reads
       * each J and R'' once, a case per split of the high bits (uniform over the group) */
      hg_rs_contract(amp, k0, k1, j_base, r_base, j_shift, r_shift, cut >> HG_RS_LOG_THREADS);
#else
      for (int i = 0; i < HG_RS_PER_THREAD; ++i) {
        const int j_at = j_base + (int)(hg_rs_extract((hg_u32)i, cut >> HG_RS_LOG_THREADS,
                                                      N_PHOTONS - HG_RS_LOG_THREADS)
                                        << j_shift);
        const int r_at = r_base + (int)(hg_rs_extract((hg_u32)i, rest >> HG_RS_LOG_THREADS,
                                                      N_PHOTONS - HG_RS_LOG_THREADS)
                                        << r_shift);
        amp[i] = hg_cfma(k0[r_at], k0[j_at], hg_cfma(k1[r_at], k1[j_at], amp[i]));
      }
#endif
    }
    barrier(HG_RS_FENCE);
  }

  /* |A|^2 over this work-item's configurations, all photons alike left out, then the event's sum */
  REAL sum = (REAL)0;
  for (int i = 0; i < HG_RS_PER_THREAD; ++i) {
    const hg_u32 h = (hg_u32)t + (hg_u32)HG_RS_THREADS * (hg_u32)i;
    sum += (h != 0u && h != HG_RS_FULL) ? hg_cabs2(amp[i]) : (REAL)0;
  }
  __local REAL *partial = (__local REAL *)k0;
  partial[t] = sum;
  barrier(HG_RS_FENCE);
  for (int stride = HG_RS_THREADS / 2; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    barrier(HG_RS_FENCE);
  }
  if (t == 0 && event < n_events) me[event] = (REAL)2 * partial[0] * me_factor;
}

/* The helicity-summed, spin- and colour-averaged |M|^2 times me_factor, as amplitude_summed in
 * kernels.cl; launched with HG_RS_THREADS * HG_RS_EVENTS work-items per group, a group per
 * HG_RS_EVENTS events (host/amplitude/recursive_shared.c), or with HG_RS_GLOBAL as many groups as
 * tables has room for, HG_RS_EVENTS * 2 * HG_RS_CURRENTS complex numbers each. */
__kernel __attribute__((reqd_work_group_size(HG_RS_THREADS * HG_RS_EVENTS, 1, 1))) void
amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                 const REAL coupling, const REAL me_factor, __global REAL *restrict me
#if HG_RS_GLOBAL
                 , __global hg_complex *restrict tables
#endif
) {
  __local hg_rs_event shared_event[HG_RS_EVENTS];
  const int slot = (int)get_local_id(0) / HG_RS_THREADS;
  const int t = (int)get_local_id(0) % HG_RS_THREADS;
#if HG_RS_GLOBAL
  __local hg_complex chunk0[HG_RS_EVENTS * HG_RS_CHUNK_AREA];
  __local hg_complex chunk1[HG_RS_EVENTS * HG_RS_CHUNK_AREA];
  __global hg_complex *c0 =
      tables + ((size_t)get_group_id(0) * HG_RS_EVENTS + (size_t)slot) * (2 * HG_RS_CURRENTS);
  /* the group's events, in steps of the launched groups (the same for all its work-items, so the
   * barriers stay in step) */
  for (size_t first = get_group_id(0) * HG_RS_EVENTS; first < n_events;
       first += get_num_groups(0) * HG_RS_EVENTS)
    hg_rs_event_sum(momenta, n_events, coupling, me_factor, me, first, slot, t,
                    &shared_event[slot], c0, c0 + HG_RS_CURRENTS,
                    chunk0 + slot * HG_RS_CHUNK_AREA, chunk1 + slot * HG_RS_CHUNK_AREA);
#else
  __local hg_complex currents0[HG_RS_EVENTS * HG_RS_CURRENTS];
  __local hg_complex currents1[HG_RS_EVENTS * HG_RS_CURRENTS];
  __local hg_complex *c0 = currents0 + slot * HG_RS_CURRENTS;
  __local hg_complex *c1 = currents1 + slot * HG_RS_CURRENTS;
  /* the chunk and the final sum reuse the lower levels' scratch */
  hg_rs_event_sum(momenta, n_events, coupling, me_factor, me, get_group_id(0) * HG_RS_EVENTS,
                  slot, t, &shared_event[slot], c0, c1, c0 + HG_RS_SCRATCH, c1 + HG_RS_SCRATCH);
#endif
}

#endif
