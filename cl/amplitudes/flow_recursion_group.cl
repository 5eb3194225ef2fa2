/* SPDX-License-Identifier: MIT */
/* The quark-line recursion's work-group kernels (amplitude_summed, amplitude_helicity with
 * FR_GROUP): a work-group of FR_WG_SIZE work-items evaluates one event, its currents in local
 * memory (FR_WG_SLOTS of them) rather than in each work-item's private array, which on GPUs is
 * off-chip memory every operation reads and writes.
 *
 * The host (host/amplitude/flow_recursion_amplitude.c) schedules the tape's operations in steps
 * (amplitudes/flow_recursion_tape.h): a step's operations (at most FR_WG_SIZE) read only
 * currents that earlier steps completed, so its work-items evaluate them at once, each into its
 * own temporary T[item] (an amplitude in T[item].w[0]); after a barrier each target of the step
 * (a current's slot, or a colour flow) is one entry, which one work-item forms by adding its
 * terms (operation, coefficient) into it, or into zero at the current's first step: no two
 * work-items write one slot, and the sums come in the entries' fixed order. The slots follow
 * the steps' liveness (a slot is reused once its current's last reader's step is done). The
 * colour sum A^+ C A is a work-group reduction: a work-item per flow i forms
 * Re(A_i^* sum_j C_ji A_j), reading C's column (C is symmetric: the reads coalesce). */

/* The step's entry e: its target's sum into W[slot] or A[flow]. */
HG_INLINE void hg_frg_gather(HG_FR_TAPE hg_u32 *tape, HG_FR_TAPE REAL *reals, hg_u32 e,
                             __local hg_wave *W, __local const hg_wave *T, __local hg_complex *A) {
  HG_FR_TAPE hg_u32 *entry = tape + tape[HG_FR_ENTRIES_AT] + 3u * e;
  HG_FR_TAPE hg_u32 *terms = tape + tape[HG_FR_TERMS_AT] + entry[1];
  const hg_u32 where = entry[0], s = where & 0x7fffu, n = entry[2];
  if (where >> 16 & 1u) { /* a colour flow */
    hg_complex sum = A[s];
#pragma unroll 1
    for (hg_u32 t = 0; t < n; ++t)
      sum = hg_cfma(hg_fr_coef(reals, terms[t] >> 16), T[terms[t] & 0xffffu].w[0], sum);
    A[s] = sum;
    return;
  }
  hg_wave sum;
  if (where >> 15 & 1u) /* the current's first step replaces what its slot held */
    for (int k = 0; k < 4; ++k) sum.w[k] = hg_czero();
  else
    for (int k = 0; k < 4; ++k) sum.w[k] = W[s].w[k];
  hg_u32 last = 0;
#pragma unroll 1
  for (hg_u32 t = 0; t < n; ++t) {
    const hg_complex coef = hg_fr_coef(reals, terms[t] >> 16);
    last = terms[t] & 0xffffu;
    for (int k = 0; k < 4; ++k) sum.w[k] = hg_cfma(coef, T[last].w[k], sum.w[k]);
  }
  sum.w[4] = T[last].w[4]; /* every term has the current's momentum */
  sum.w[5] = T[last].w[5];
  W[s] = sum;
}

/* This work-item's share of |M|^2 of configuration config summed over colours (the group's
 * shares add up to it), the group's local arrays W (currents), T (a step's results) and A (the
 * flows) used on the way. Every work-item of the group calls it (barriers). */
HG_INLINE hg_fr_sum_t hg_frg_config(const hg_fourvec *p, hg_u32 config,
                                    const hg_process_params pp, const hg_coupling *cpl,
                                    __global const hg_fr_sum_t *restrict colour,
                                    HG_FR_TAPE hg_u32 *tape, HG_FR_TAPE REAL *reals,
                                    __local hg_wave *W, __local hg_wave *T,
                                    __local hg_complex *A) {
  if (!hg_fr_is_configuration(config, tape)) return 0; /* the group's one branch */
  const hg_u32 item = (hg_u32)get_local_id(0);
  const hg_u32 n_flows = tape[HG_FR_N_FLOWS], n_steps = tape[HG_FR_N_CHUNKS];
  const hg_u32 externals = tape[HG_FR_EXTERNALS_AT];
  for (hg_u32 i = item; i < (hg_u32)N_PARTICLES; i += FR_WG_SIZE)
    W[i] = hg_fr_external(p[i], tape[externals + i], config, &pp);
  for (hg_u32 f = item; f < n_flows; f += FR_WG_SIZE) A[f] = hg_czero();
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
  for (hg_u32 k = 0; k < n_steps; ++k) {
    HG_FR_TAPE hg_u32 *step = tape + tape[HG_FR_CHUNKS_AT] + 4u * k;
    if (item < step[1]) {
      HG_FR_TAPE hg_u32 *op = tape + tape[HG_FR_GROUP_OPS_AT] + 3u * (step[0] + item);
      const hg_u32 kind = op[0] & 31u, m = op[0] >> 5 & 7u, width = op[0] >> 8 & 1u;
      const hg_coupling gc = cpl[op[0] >> 9 & 127u];
      const hg_u32 a = op[1] & 0xffffu, b = op[1] >> 16, c = op[2] & 0xffffu, d = op[2] >> 16;
      const REAL mass = hg_fr_mass(&pp, m), fwidth = hg_fr_width(&pp, m, width);
      hg_wave r = W[a];
      hg_complex amp = hg_czero();
      (void)b;
      (void)c;
      (void)d;
      (void)mass;
      (void)fwidth;
      (void)gc;
      HG_FR_VERTEX(W)
      if (kind >= HG_FR_IOV) r.w[0] = amp;
      T[item] = r;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const hg_u32 first = step[2], n_entries = step[3];
#pragma unroll 1
    for (hg_u32 e = item; e < n_entries; e += FR_WG_SIZE)
      hg_frg_gather(tape, reals, first + e, W, T, A);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  hg_fr_sum_t share = 0;
#pragma unroll 1
  for (hg_u32 i = item; i < n_flows; i += FR_WG_SIZE) {
    hg_fr_sum_t zr = 0, zi = 0;
#pragma unroll 1
    for (hg_u32 j = 0; j < n_flows; ++j) {
      const hg_fr_sum_t c = colour[(size_t)j * n_flows + i];
      zr += c * (hg_fr_sum_t)A[j].re;
      zi += c * (hg_fr_sum_t)A[j].im;
    }
    share += (hg_fr_sum_t)A[i].re * zr + (hg_fr_sum_t)A[i].im * zi;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* A is read before the next configuration clears it */
  return share;
}

/* The group's event (get_group_id(0)): |M|^2 summed over the tape's configurations, or
 * helicity[event]'s alone when helicity is given, times me_factor, into me[event]. */
HG_INLINE void hg_frg_event(__global const REAL *restrict momenta, const hg_u32 n_events,
                            __global const REAL *restrict params, const REAL me_factor,
                            __global const hg_u32 *restrict helicity, __global REAL *restrict me,
                            __global const hg_fr_sum_t *restrict colour, HG_FR_TAPE hg_u32 *tape,
                            HG_FR_TAPE REAL *reals, __local hg_wave *W, __local hg_wave *T,
                            __local hg_complex *A, __local hg_fr_sum_t *shares) {
  const size_t event = get_group_id(0);
  const hg_u32 item = (hg_u32)get_local_id(0);
  if (event >= n_events) return; /* the whole group */
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  hg_coupling cpl[FR_COUPLINGS];
  hg_fr_couplings(&pp, tape, reals, cpl);
  hg_fr_sum_t share = 0;
  if (helicity != NULL) {
    share = hg_frg_config(p, helicity[event], pp, cpl, colour, tape, reals, W, T, A);
  } else {
    const hg_u32 n_configs = tape[HG_FR_N_CONFIGS];
#pragma unroll 1
    for (hg_u32 h = 0; h < n_configs; ++h)
      share += hg_frg_config(p, hg_fr_configuration(tape, h), pp, cpl, colour, tape, reals, W, T,
                             A);
  }
  shares[item] = share;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (hg_u32 width = FR_WG_SIZE / 2; width > 0; width /= 2) { /* FR_WG_SIZE: a power of two */
    if (item < width) shares[item] += shares[item + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (item == 0) me[event] = (REAL)shares[0] * me_factor;
}

#define HG_FRG_LOCALS                                                                              \
  __local hg_wave currents[FR_WG_SLOTS];                                                           \
  __local hg_wave results[FR_WG_SIZE];                                                             \
  __local hg_complex flows[FR_FLOWS];                                                              \
  __local hg_fr_sum_t shares[FR_WG_SIZE]

/* |M|^2 summed over every helicity configuration and over colours, times me_factor = 1/IDEN. */
__kernel __attribute__((reqd_work_group_size(FR_WG_SIZE, 1, 1))) void
amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                 __global const REAL *restrict params, const REAL me_factor,
                 __global REAL *restrict me, __global const hg_fr_sum_t *restrict colour,
                 HG_FR_TAPE hg_u32 *restrict tape, HG_FR_TAPE REAL *restrict reals) {
  HG_FRG_LOCALS;
  hg_frg_event(momenta, n_events, params, me_factor, NULL, me, colour, tape, reals, currents,
               results, flows, shares);
}

/* The same for the configuration helicity[event] (bit i: particle i has helicity +1). */
__kernel __attribute__((reqd_work_group_size(FR_WG_SIZE, 1, 1))) void
amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                   __global const REAL *restrict params, const REAL me_factor,
                   __global const hg_u32 *restrict helicity, __global REAL *restrict me,
                   __global const hg_fr_sum_t *restrict colour, HG_FR_TAPE hg_u32 *restrict tape,
                   HG_FR_TAPE REAL *restrict reals) {
  HG_FRG_LOCALS;
  hg_frg_event(momenta, n_events, params, me_factor, helicity, me, colour, tape, reals, currents,
               results, flows, shares);
}
