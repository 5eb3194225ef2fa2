/* SPDX-License-Identifier: MIT */
/* The process sampler of one group (generator/event.h): each event writes its momenta in the
 * group's particle order (GeV, in the amplitude's precision), the factor that multiplies |M|^2,
 * each member's share of it and its VEGAS bins. The program also holds the VEGAS reduction and
 * the channels' reduction. Build options: those of generator/event.h, AMP_REAL, GEN_ORDER (for
 * each of the group's particles its slot in the sampler's order, comma-separated), CHANNELS
 * (GEN_MEMBERS, plus GEN_PS_CHANNELS when there are several), N_PHOTONS (any: histogram_accumulate
 * adds the channel sums up). The unweighting's hit-or-miss and compaction are here too. */
#include "analysis/histogram.cl"
#include "generator/event.h"
#include "integrate/reduce.cl"
#include "shared/layout.h"
#include "xsec/channels.cl"

__constant int hg_gen_order[HG_GEN_N_EXTERNAL] = {GEN_ORDER};

/* Event first_event + get_global_id(0) of iteration `iteration`; momenta, factor, member_factor
 * (member m of event e at m * n_events + e) and bins are indexed by the batch position. */
__kernel void
generator_sample(__global const double *restrict params, __global const double *restrict grid,
                 __global const double *restrict pdf, __global const double *restrict alpha_s_table,
                 const hg_u32 seed_low, const hg_u32 seed_high, const hg_u32 iteration,
                 const hg_u32 first_low, const hg_u32 first_high, const hg_u32 n_events,
                 __global AMP_REAL *restrict momenta, __global double *restrict factor,
                 __global double *restrict member_factor, __global uchar *restrict bins) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)e;
  const hg_gen_event ev =
      hg_gen_make_event(params, grid, pdf, alpha_s_table, seed_low, seed_high, iteration, event);
  for (int j = 0; j < VEGAS_DIMS; ++j) bins[(size_t)j * n_events + e] = (uchar)ev.bin[j];
  factor[e] = ev.factor;
  for (int m = 0; m < GEN_MEMBERS; ++m) member_factor[(size_t)m * n_events + e] = ev.member[m];
  /* with several phase-space channels, rows GEN_MEMBERS + c: the factor of the events channel c
   * made (their sums of w^2 adapt the channel weights) */
  for (int c = 0; c < CHANNELS - GEN_MEMBERS; ++c)
    member_factor[(size_t)(GEN_MEMBERS + c) * n_events + e] = ev.channel == c ? ev.factor : 0.0;
  for (int i = 0; i < HG_GEN_N_EXTERNAL; ++i)
    for (int c = 0; c < 4; ++c)
      momenta[HG_SOA_INDEX(c, i, HG_GEN_N_EXTERNAL, n_events, e)] =
          (AMP_REAL)ev.pt.p[hg_gen_order[i]][c];
}

/* Hit-or-miss on the device. Event e of the batch (counter first + e of `iteration`) with weight
 * w = factor |M|^2 is kept when r w_max < w, r uniform in (0, 1) from its Philox block `block`
 * (the host drew the same number before). Per work-group k: counts[k] = the events kept,
 * stats[HG_GEN_MARK_STATS * k + ...] = the sum of weights, the events above w_max, their excess
 * over it and the negative events (the unweighting's statistics, added on the host in work-group
 * order, so they do not depend on the device's timing). */
#define HG_GEN_MARK_LOCAL 128
#define HG_GEN_MARK_STATS 4
__kernel __attribute__((reqd_work_group_size(HG_GEN_MARK_LOCAL, 1, 1))) void
generator_mark(__global const double *restrict factor, __global const AMP_REAL *restrict me,
               const hg_u32 n_events, const double w_max, const hg_u32 seed_low,
               const hg_u32 seed_high, const hg_u32 iteration, const hg_u32 block,
               const hg_u32 first_low, const hg_u32 first_high, __global uchar *restrict flags,
               __global hg_u32 *restrict counts, __global double *restrict stats) {
  __local double scratch[(HG_GEN_MARK_STATS + 1) * HG_GEN_MARK_LOCAL];
  const size_t e = get_global_id(0);
  const hg_u32 t = (hg_u32)get_local_id(0), k = (hg_u32)get_group_id(0);
  const int valid = e < n_events;
  const size_t ev = valid ? e : 0;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)ev;
  const double w = valid ? hg_event_weight(factor[ev], (double)me[ev]) : 0.0;
  const hg_philox_words r =
      hg_philox4x32_10(hg_philox_counter(event, iteration, block), seed_low, seed_high);
  const int keep = valid && hg_uniform_double(r.v[0], r.v[1]) * w_max < w;
  if (valid) flags[ev] = (uchar)keep;
  const int over = w > w_max;
  scratch[0 * HG_GEN_MARK_LOCAL + t] = w;
  scratch[1 * HG_GEN_MARK_LOCAL + t] = over ? 1.0 : 0.0;
  scratch[2 * HG_GEN_MARK_LOCAL + t] = over ? w - w_max : 0.0;
  scratch[3 * HG_GEN_MARK_LOCAL + t] = w < 0.0 ? 1.0 : 0.0;
  scratch[4 * HG_GEN_MARK_LOCAL + t] = keep ? 1.0 : 0.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (hg_u32 stride = HG_GEN_MARK_LOCAL / 2; stride > 0; stride /= 2) {
    if (t < stride)
      for (int s = 0; s <= HG_GEN_MARK_STATS; ++s)
        scratch[s * HG_GEN_MARK_LOCAL + t] += scratch[s * HG_GEN_MARK_LOCAL + t + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t < HG_GEN_MARK_STATS) stats[HG_GEN_MARK_STATS * k + t] = scratch[t * HG_GEN_MARK_LOCAL];
  if (t == 0) counts[k] = (hg_u32)scratch[HG_GEN_MARK_STATS * HG_GEN_MARK_LOCAL];
}

/* The kept events in event order: kept event e of work-group k goes to slot offsets[k] + (the
 * kept events before it in k), when below n_kept (the events still wanted): its batch position,
 * its weight, its momenta (structure of arrays at stride n_kept, group order) and its members'
 * factors (member m at m * n_kept). A scan inside each work-group: no atomics, so the order does
 * not depend on the device. */
__kernel __attribute__((reqd_work_group_size(HG_GEN_MARK_LOCAL, 1, 1))) void
generator_compact(__global const uchar *restrict flags, __global const hg_u32 *restrict offsets,
                  const hg_u32 n_events, const hg_u32 n_kept,
                  __global const double *restrict factor, __global const AMP_REAL *restrict me,
                  __global const AMP_REAL *restrict momenta,
                  __global const double *restrict member_factor, __global hg_u32 *restrict index,
                  __global double *restrict weight, __global double *restrict momenta_out,
                  __global double *restrict member_out) {
  __local hg_u32 scan[2][HG_GEN_MARK_LOCAL];
  const size_t e = get_global_id(0);
  const hg_u32 t = (hg_u32)get_local_id(0), k = (hg_u32)get_group_id(0);
  const int keep = e < n_events && flags[e];
  /* inclusive Hillis-Steele scan of the kept flags */
  int src = 0;
  scan[0][t] = (hg_u32)keep;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (hg_u32 stride = 1; stride < HG_GEN_MARK_LOCAL; stride *= 2) {
    scan[1 - src][t] = scan[src][t] + (t >= stride ? scan[src][t - stride] : 0u);
    src = 1 - src;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const hg_u32 slot = offsets[k] + scan[src][t] - 1u;
  if (!keep || slot >= n_kept) return;
  index[slot] = (hg_u32)e;
  weight[slot] = hg_event_weight(factor[e], (double)me[e]);
  for (int i = 0; i < HG_GEN_N_EXTERNAL; ++i)
    for (int c = 0; c < 4; ++c)
      momenta_out[HG_SOA_INDEX(c, i, HG_GEN_N_EXTERNAL, n_kept, slot)] =
          (double)momenta[HG_SOA_INDEX(c, i, HG_GEN_N_EXTERNAL, n_events, e)];
  for (int m = 0; m < GEN_MEMBERS; ++m)
    member_out[(size_t)m * n_kept + slot] = member_factor[(size_t)m * n_events + e];
}
