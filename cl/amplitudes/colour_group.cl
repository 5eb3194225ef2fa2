/* SPDX-License-Identifier: MIT */
/* The recursive colour engine's work-group kernels (amplitude_summed, amplitude_helicity with
 * CO_GROUP): a work-group evaluates CO_WG_EVENTS events with CO_WG_SIZE work-items.
 *
 * The per-ordering recursion of colour_ordered.cl makes every ordering's substrings again, though
 * orderings share them: t t~ g g g has 120 orderings of 15 currents each (1800) where 325 words
 * (ordered strings of distinct gluons) are distinct. Here each word up to CO_TABLE_MAX gluons is
 * made once per helicity configuration, in local memory, by one work-item, level by level (a
 * barrier after each length); a work-item per ordering then makes the ordering's own current and
 * its quark line (or the closing gluon's contraction) from the table, and writes its
 * colour-ordered amplitudes to local memory; the colour sum A^+ C A is a work-group product: a
 * work-item per ordering a forms Re(A_a^* sum_b C_ab A_b) for every helicity pair of the line at
 * once, reading C's column (C is symmetric: the reads coalesce); with one event a group
 * (t t~ g g g, t t~ + 4 g) a work-item takes its CO_CG_ROWS orderings in one pass over b, so that
 * each A_b it reads serves all of them (t t~ + 4 g: 3, with 256 work-items for 720 orderings).
 * Every other loop over the group's work is flattened over (event, item), so events of few
 * orderings fill the group.
 *
 * The host (host/amplitude/colour_ordered_amplitude.c) writes ahead of colour_ordered.cl:
 * CO_GROUP, CO_WG_EVENTS, CO_WG_SIZE, CO_WORDS (the table's words: the CO_LETTERS letters first,
 * word j being letter j, then longer words level by level), CO_TABLE_MAX (the longest tabulated
 * word), hg_cg_level_start[l] (the first word of length l, 1 <= l <= CO_TABLE_MAX + 1), and
 * hg_cg_pairs (the line's helicity pairs ordered by the flowing-out end's helicity, so that
 * pairs sharing that end share its currents). The kernels' argument after the colour matrix,
 * `words`, holds, for each word of length >= 2 and then each ordering, the table index of each
 * contiguous substring (i, m) at CO_SUB(i, m) (CO_N_SUB entries a row). Each quark-line current
 * is built as fvoxxx builds it, but with one propagator for the sum of its vertices. */

/* Where an event's words and amplitudes do not fit in local memory (t t~ + 4 g: 119 KB in
 * double), CO_WG_GLOBAL puts them in a global buffer (the argument after `words`),
 * CO_WG_EVENTS * (CO_WORDS waves and the amplitudes) per work-group; as many groups are launched
 * as it has room for, and each goes over the batch in steps of their number. With CO_WG_A_LOCAL
 * (the host's choice where they fit beside the externals: t t~ + 4 g's 46 KB in double) the
 * amplitudes, which the colour sum reads CO_ORDERINGS times each, stay in local memory, and the
 * colour sum's per-ordering terms (acc) take their place in the global buffer. */
#if CO_WG_GLOBAL
#define HG_CG_TABLE __global
#define HG_CG_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#else
#define HG_CG_TABLE __local
#define HG_CG_FENCE CLK_LOCAL_MEM_FENCE
#endif
#if CO_WG_GLOBAL && CO_WG_A_LOCAL
#define HG_CG_AMPS __local
#define HG_CG_ACC __global
#else
#define HG_CG_AMPS HG_CG_TABLE
#define HG_CG_ACC __local
#endif

/* The orderings a work-item takes in the colour sum of one event a group (CO_WG_EVENTS 1):
 * a = lid + r CO_WG_SIZE, r < CO_CG_ROWS, so that each A_b read serves them all. */
#define CO_CG_ROWS ((CO_ORDERINGS + CO_WG_SIZE - 1) / CO_WG_SIZE)

#define CO_WORD_ROWS_BEFORE_ORDERINGS (CO_WORDS - CO_LETTERS)
#define CO_EXT_SLOTS (N_PARTICLES * 2)
#define CO_A_PAIRS CO_FERMION_PAIRS

/* The current of the word whose substrings' table indices are sub (a row of `words`), of length
 * l, from the table J: the same vertices in the same order as hg_co_gluon_currents. */
HG_INLINE hg_wave hg_cg_current(HG_CG_TABLE const hg_wave *J, __global const ushort *restrict sub,
                                const int l, const REAL g) {
  hg_complex acc[4] = {hg_czero(), hg_czero(), hg_czero(), hg_czero()};
  for (int m = 1; m < l; ++m) hg_co_v3(J[sub[CO_SUB(0, m)]], J[sub[CO_SUB(m, l - m)]], g, acc);
  for (int m1 = 1; m1 < l - 1; ++m1)
    for (int m2 = 1; m1 + m2 < l; ++m2)
      hg_co_v4(J[sub[CO_SUB(0, m1)]], J[sub[CO_SUB(m1, m2)]], J[sub[CO_SUB(m1 + m2, l - m1 - m2)]],
               g, acc);
  return hg_co_gluon(acc, J[sub[CO_SUB(0, 1)]], J[sub[CO_SUB(1, l - 1)]]);
}

#define HG_CG_BIT(config, i) (((config) >> (i)) & 1u)

/* The group's events from first: their |M|^2 summed over n_configs configurations (config[e]
 * for event e when per_event, else hg_co_helicities[h]) and over the pairs (hg_cg_pairs, or the
 * configuration's own ends when per_event), times me_factor. */
HG_INLINE void hg_cg_events(__global const REAL *restrict momenta, const hg_u32 n_events,
                            __global const REAL *restrict params, const REAL me_factor,
                            __global const hg_u32 *restrict helicity, __global REAL *restrict me,
                            __global const hg_co_sum_t *restrict colour,
                            __global const ushort *restrict words, const int per_event,
                            const size_t first, __local hg_wave *ext, HG_CG_TABLE hg_wave *J,
                            HG_CG_AMPS hg_complex *A, HG_CG_ACC hg_co_sum_t *acc,
                            __local hg_u32 *config) {
  const int lid = (int)get_local_id(0);
  const hg_process_params pp = hg_load_params(params);
  const REAL g = pp.g_s;
#if CO_QUARK_LINE
  const int n_pairs = per_event ? 1 : CO_FERMION_PAIRS;
#else
  const int n_pairs = 1;
#endif
  const hg_u32 n_configs = per_event ? 1u : CO_HELICITIES;

  /* every particle's wavefunction in both helicities; the configurations, the sums cleared */
  for (int k = lid; k < 2 * CO_WG_EVENTS; k += CO_WG_SIZE) {
    const int e = k >> 1, b = k & 1;
    const size_t event = first + (size_t)e;
    const size_t source = event < n_events ? event : (size_t)n_events - 1;
    hg_fourvec p[N_PARTICLES];
    hg_load_event(momenta, N_PARTICLES, n_events, source, p);
    hg_wave w[N_PARTICLES];
    hg_co_externals(p, b ? 0xffffffffu : 0u, pp, w);
    for (int i = 0; i < N_PARTICLES; ++i) ext[e * CO_EXT_SLOTS + 2 * i + b] = w[i];
    if (b == 0) config[e] = per_event ? helicity[source] : 0u;
  }
  for (int k = lid; k < CO_WG_EVENTS * (int)CO_ORDERINGS; k += CO_WG_SIZE) acc[k] = 0;
  barrier(HG_CG_FENCE);

#pragma unroll 1
  for (hg_u32 h = 0; h < n_configs; ++h) {
    /* the letters: the external gluons of this configuration */
    for (int k = lid; k < CO_WG_EVENTS * CO_LETTERS; k += CO_WG_SIZE) {
      const int e = k / CO_LETTERS, j = k % CO_LETTERS;
      const hg_u32 c = per_event ? config[e] : hg_co_helicities[h];
      const int particle = hg_co_letter_particle[j];
      J[e * CO_WORDS + j] = ext[e * CO_EXT_SLOTS + 2 * particle + (int)HG_CG_BIT(c, particle)];
    }
    barrier(HG_CG_FENCE);
    /* the longer words, a length at a time */
#pragma unroll 1
    for (int l = 2; l <= CO_TABLE_MAX; ++l) {
      const int start = hg_cg_level_start[l], count = hg_cg_level_start[l + 1] - start;
      for (int k = lid; k < CO_WG_EVENTS * count; k += CO_WG_SIZE) {
        const int e = k / count, w = start + k % count;
        J[e * CO_WORDS + w] = hg_cg_current(J + e * CO_WORDS,
                                            words + (size_t)(w - CO_LETTERS) * CO_N_SUB, l, g);
      }
      barrier(HG_CG_FENCE);
    }
    /* the colour-ordered amplitudes, a work-item per ordering */
    for (int k = lid; k < CO_WG_EVENTS * (int)CO_ORDERINGS; k += CO_WG_SIZE) {
      const int e = k / (int)CO_ORDERINGS, o = k % (int)CO_ORDERINGS;
      HG_CG_TABLE const hg_wave *Je = J + e * CO_WORDS;
      __local const hg_wave *xe = ext + e * CO_EXT_SLOTS;
      __global const ushort *restrict sub =
          words + (size_t)(CO_WORD_ROWS_BEFORE_ORDERINGS + o) * CO_N_SUB;
      const hg_u32 c = per_event ? config[e] : hg_co_helicities[h];
      HG_CG_AMPS hg_complex *Ae = A + (e * CO_A_PAIRS) * (int)CO_ORDERINGS + o;
#if CO_QUARK_LINE
      const hg_coupling gs = hg_coupling_both(pp.g_s);
#if CO_LETTERS == 1
      const hg_wave whole = Je[0];
#else
      const hg_wave whole = hg_cg_current(Je, sub, CO_LETTERS, g);
#endif
      /* The line by the flowing-out end's currents Q[l] (the first l gluons absorbed): each
       * fvoxxx of Q[l] = sum_m fvoxxx(Q[m], J(m, l - m)) carries the same propagator, so the
       * vertices' sum (sr, sl: fvoxxx's two-component row spinors before it) takes it once, and
       * the amplitudes sum_m iovxxx(in, Q[m], J(m, L - m)) are that sum at l = L contracted with
       * each flowing-in end. */
      hg_complex Q[CO_LETTERS][4], sr[2], sl[2];
      hg_u32 made = 2u; /* the flowing-out end's helicity Q was made for (2: none yet) */
#pragma unroll 1
      for (int f = 0; f < n_pairs; ++f) {
        const hg_u32 cf = per_event ? c : (c | hg_cg_pairs[f]);
        const hg_u32 out_bit = HG_CG_BIT(cf, CO_O);
        if (out_bit != made) {
          const hg_wave out_end = xe[2 * CO_O + (int)out_bit];
          for (int cc = 0; cc < 4; ++cc) Q[0][cc] = out_end.w[cc];
#pragma unroll
          for (int l = 1; l <= CO_LETTERS; ++l) {
            sr[0] = sr[1] = sl[0] = sl[1] = hg_czero();
#pragma unroll
            for (int m = 0; m < l; ++m) {
              const hg_wave v = (m == 0 && l == CO_LETTERS) ? whole : Je[sub[CO_SUB(m, l - m)]];
              hg_complex r0, r1;
              hg_mat2_apply_row(hg_sigma_of_wave(v, -(REAL)1), Q[m][0], Q[m][1], &r0, &r1);
              sr[0] = hg_cadd(sr[0], r0);
              sr[1] = hg_cadd(sr[1], r1);
              hg_mat2_apply_row(hg_sigma_of_wave(v, (REAL)1), Q[m][2], Q[m][3], &r0, &r1);
              sl[0] = hg_cadd(sl[0], r0);
              sl[1] = hg_cadd(sl[1], r1);
            }
            if (l == CO_LETTERS) break;
            /* fvoxxx's propagator at P(out end) + P(first l gluons) */
            const hg_wave first = Je[sub[CO_SUB(0, l)]];
            hg_wave slots;
            slots.w[4] = hg_cadd(out_end.w[4], first.w[4]);
            slots.w[5] = hg_cadd(out_end.w[5], first.w[5]);
            const hg_fourvec pf = hg_wave_momentum(slots);
            const hg_complex d = hg_cneg(
                hg_breit_wigner(hg_minkowski(pf, pf), CO_QUARK_MASS, CO_QUARK_WIDTH));
            hg_complex u1, u2, l1, l2;
            hg_mat2_apply_row(hg_sigma_real(pf, (REAL)1), sr[0], sr[1], &u1, &u2);
            hg_mat2_apply_row(hg_sigma_real(pf, -(REAL)1), sl[0], sl[1], &l1, &l2);
            const hg_complex left = hg_cmul(d, gs.gal[0]), right = hg_cmul(d, gs.gal[1]);
            const hg_complex left_m = hg_cscale(CO_QUARK_MASS, left);
            const hg_complex right_m = hg_cscale(CO_QUARK_MASS, right);
            Q[l][0] = hg_cadd(hg_cmul(right, u1), hg_cmul(left_m, sl[0]));
            Q[l][1] = hg_cadd(hg_cmul(right, u2), hg_cmul(left_m, sl[1]));
            Q[l][2] = hg_cadd(hg_cmul(left, l1), hg_cmul(right_m, sr[0]));
            Q[l][3] = hg_cadd(hg_cmul(left, l2), hg_cmul(right_m, sr[1]));
          }
          made = out_bit;
        }
        /* iovxxx: gal[0] sl.(in upper) + gal[1] sr.(in lower) */
        const hg_wave in_end = xe[2 * CO_I + (int)HG_CG_BIT(cf, CO_I)];
        const hg_complex left = hg_cfma(sl[1], in_end.w[1], hg_cmul(sl[0], in_end.w[0]));
        const hg_complex right = hg_cfma(sr[1], in_end.w[3], hg_cmul(sr[0], in_end.w[2]));
        Ae[f * (int)CO_ORDERINGS] = hg_cadd(hg_cmul(gs.gal[0], left), hg_cmul(gs.gal[1], right));
      }
#else
      /* gluons only: the whole ordering's vertices contracted with the closing gluon */
      hg_complex v[4] = {hg_czero(), hg_czero(), hg_czero(), hg_czero()};
      const int l = CO_LETTERS;
#pragma unroll
      for (int m = 1; m < l; ++m) hg_co_v3(Je[sub[CO_SUB(0, m)]], Je[sub[CO_SUB(m, l - m)]], g, v);
#pragma unroll
      for (int m1 = 1; m1 < l - 1; ++m1)
#pragma unroll
        for (int m2 = 1; m1 + m2 < l; ++m2)
          hg_co_v4(Je[sub[CO_SUB(0, m1)]], Je[sub[CO_SUB(m1, m2)]],
                   Je[sub[CO_SUB(m1 + m2, l - m1 - m2)]], g, v);
      const hg_wave closing = xe[2 * CO_CLOSING + (int)HG_CG_BIT(c, CO_CLOSING)];
      hg_complex amp = hg_cmul(v[0], closing.w[0]);
      for (int mu = 1; mu < 4; ++mu) amp = hg_csub(amp, hg_cmul(v[mu], closing.w[mu]));
      Ae[0] = hg_cscale((REAL)2, amp);
#endif
    }
    barrier(HG_CG_FENCE);
#if CO_WG_EVENTS == 1
    /* the colour sum: work-item lid adds Re(A_a^* sum_b C_ab A_b) for every pair and its
     * CO_CG_ROWS orderings a (the last clamped to the last ordering and not added), each A_b read
     * once for them */
    {
      hg_co_sum_t zr[CO_CG_ROWS][CO_A_PAIRS], zi[CO_CG_ROWS][CO_A_PAIRS];
#pragma unroll
      for (int r = 0; r < CO_CG_ROWS; ++r)
#pragma unroll
        for (int f = 0; f < CO_A_PAIRS; ++f) zr[r][f] = zi[r][f] = 0;
#pragma unroll 2
      for (int b = 0; b < (int)CO_ORDERINGS; ++b) {
        hg_complex ab[CO_A_PAIRS];
#pragma unroll
        for (int f = 0; f < CO_A_PAIRS; ++f)
          ab[f] = f < n_pairs ? A[f * (int)CO_ORDERINGS + b] : hg_czero();
#pragma unroll
        for (int r = 0; r < CO_CG_ROWS; ++r) {
          /* a warp whose work-items have no ordering in the last row skips it */
          if (r + 1 == CO_CG_ROWS && (lid & ~31) + r * CO_WG_SIZE >= (int)CO_ORDERINGS) break;
          const int a = min(lid + r * CO_WG_SIZE, (int)CO_ORDERINGS - 1);
          const hg_co_sum_t cab = colour[(size_t)b * CO_ORDERINGS + (size_t)a];
#pragma unroll
          for (int f = 0; f < CO_A_PAIRS; ++f) {
            if (f < n_pairs) { /* the same for the whole group */
              zr[r][f] += cab * (hg_co_sum_t)ab[f].re;
              zi[r][f] += cab * (hg_co_sum_t)ab[f].im;
            }
          }
        }
      }
#pragma unroll
      for (int r = 0; r < CO_CG_ROWS; ++r) {
        const int a = lid + r * CO_WG_SIZE;
        if (a < (int)CO_ORDERINGS) {
          hg_co_sum_t s = 0;
#pragma unroll
          for (int f = 0; f < CO_A_PAIRS; ++f) {
            if (f < n_pairs) {
              const hg_complex aa = A[f * (int)CO_ORDERINGS + a];
              s += (hg_co_sum_t)aa.re * zr[r][f] + (hg_co_sum_t)aa.im * zi[r][f];
            }
          }
          acc[a] += s;
        }
      }
    }
#else
    /* the colour sum: work-item (e, a) adds Re(A_a^* sum_b C_ab A_b) for every pair */
    for (int k = lid; k < CO_WG_EVENTS * (int)CO_ORDERINGS; k += CO_WG_SIZE) {
      const int e = k / (int)CO_ORDERINGS, a = k % (int)CO_ORDERINGS;
      HG_CG_AMPS const hg_complex *Ae = A + (e * CO_A_PAIRS) * (int)CO_ORDERINGS;
      hg_co_sum_t zr[CO_A_PAIRS], zi[CO_A_PAIRS];
#pragma unroll
      for (int f = 0; f < CO_A_PAIRS; ++f) zr[f] = zi[f] = 0;
#pragma unroll 4
      for (int b = 0; b < (int)CO_ORDERINGS; ++b) {
        const hg_co_sum_t cab = colour[(size_t)b * CO_ORDERINGS + (size_t)a];
#pragma unroll
        for (int f = 0; f < CO_A_PAIRS; ++f) {
          if (f < n_pairs) { /* the same for the whole group */
            const hg_complex ab = Ae[f * (int)CO_ORDERINGS + b];
            zr[f] += cab * (hg_co_sum_t)ab.re;
            zi[f] += cab * (hg_co_sum_t)ab.im;
          }
        }
      }
      hg_co_sum_t s = 0;
#pragma unroll
      for (int f = 0; f < CO_A_PAIRS; ++f) {
        if (f < n_pairs) {
          const hg_complex aa = Ae[f * (int)CO_ORDERINGS + a];
          s += (hg_co_sum_t)aa.re * zr[f] + (hg_co_sum_t)aa.im * zi[f];
        }
      }
      acc[k] += s;
    }
#endif
    /* The next configuration's first writes (the letters) touch no array this step reads, but
     * without a barrier here PoCL's optimised build of the global-tables kernel with two or more
     * events a group and no quark line skipped the colour sum (|M|^2 = 0; right under
     * -cl-opt-disable and under Oclgrind): every configuration ends with the group in step. */
    barrier(HG_CG_FENCE);
  }
  barrier(HG_CG_FENCE);
  for (int e = lid; e < CO_WG_EVENTS; e += CO_WG_SIZE) {
    const size_t event = first + (size_t)e;
    hg_co_sum_t sum = 0;
    for (int a = 0; a < (int)CO_ORDERINGS; ++a) sum += acc[e * (int)CO_ORDERINGS + a];
    if (event < n_events) me[event] = (REAL)sum * me_factor;
  }
}

/* The local arrays of a group: the externals in both helicities, the colour sum's terms, the
 * configurations, and (without CO_WG_GLOBAL) the word table and the amplitudes of every pair. */
#if CO_WG_GLOBAL && CO_WG_A_LOCAL
#define HG_CG_LOCALS                                                                              \
  __local hg_wave ext[CO_WG_EVENTS * CO_EXT_SLOTS];                                               \
  __local hg_complex A[CO_WG_EVENTS * CO_A_PAIRS * CO_ORDERINGS];                                 \
  __local hg_u32 config[CO_WG_EVENTS]
#else
#define HG_CG_LOCALS                                                                              \
  __local hg_wave ext[CO_WG_EVENTS * CO_EXT_SLOTS];                                               \
  __local hg_co_sum_t acc[CO_WG_EVENTS * CO_ORDERINGS];                                           \
  __local hg_u32 config[CO_WG_EVENTS]
#endif
#define HG_CG_GROUP_REALS (CO_WG_EVENTS * (12 * CO_WORDS + 2 * CO_A_PAIRS * CO_ORDERINGS))

#if CO_WG_GLOBAL && CO_WG_A_LOCAL
/* the colour sum's terms where the amplitudes would be (they take no more room) */
#define HG_CG_GLOBAL_AMPS                                                                         \
  __global hg_co_sum_t *acc = (__global hg_co_sum_t *)(J + CO_WG_EVENTS * CO_WORDS);
#else
#define HG_CG_GLOBAL_AMPS                                                                         \
  __global hg_complex *A = (__global hg_complex *)(J + CO_WG_EVENTS * CO_WORDS);
#endif
#if CO_WG_GLOBAL
/* the group's events in steps of the launched groups (the same for all its work-items, so the
 * barriers stay in step), its tables in scratch */
#define HG_CG_RUN(helicity, per_event)                                                            \
  __global hg_wave *J = (__global hg_wave *)(scratch + get_group_id(0) * HG_CG_GROUP_REALS);      \
  HG_CG_GLOBAL_AMPS                                                                               \
  for (size_t first = get_group_id(0) * CO_WG_EVENTS; first < n_events;                           \
       first += get_num_groups(0) * CO_WG_EVENTS) {                                               \
    hg_cg_events(momenta, n_events, params, me_factor, helicity, me, colour, words, per_event,    \
                 first, ext, J, A, acc, config);                                                  \
    barrier(HG_CG_FENCE); /* the sums are read before the next events clear them */              \
  }
#define HG_CG_SCRATCH , __global REAL *restrict scratch
#else
#define HG_CG_RUN(helicity, per_event)                                                            \
  __local hg_wave J[CO_WG_EVENTS * CO_WORDS];                                                     \
  __local hg_complex A[CO_WG_EVENTS * CO_A_PAIRS * CO_ORDERINGS];                                 \
  hg_cg_events(momenta, n_events, params, me_factor, helicity, me, colour, words, per_event,      \
               get_group_id(0) * (size_t)CO_WG_EVENTS, ext, J, A, acc, config);
#define HG_CG_SCRATCH
#endif

/* As colour_ordered.cl's amplitude_summed, CO_WG_EVENTS events per group of CO_WG_SIZE. */
__kernel __attribute__((reqd_work_group_size(CO_WG_SIZE, 1, 1))) void
amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                 __global const REAL *restrict params, const REAL me_factor,
                 __global REAL *restrict me, __global const hg_co_sum_t *restrict colour,
                 __global const ushort *restrict words HG_CG_SCRATCH) {
  HG_CG_LOCALS;
  HG_CG_RUN(NULL, 0)
}

/* As colour_ordered.cl's amplitude_helicity, CO_WG_EVENTS events per group of CO_WG_SIZE. */
__kernel __attribute__((reqd_work_group_size(CO_WG_SIZE, 1, 1))) void
amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                   __global const REAL *restrict params, const REAL me_factor,
                   __global const hg_u32 *restrict helicity, __global REAL *restrict me,
                   __global const hg_co_sum_t *restrict colour,
                   __global const ushort *restrict words HG_CG_SCRATCH) {
  HG_CG_LOCALS;
  HG_CG_RUN(helicity, 1)
}
