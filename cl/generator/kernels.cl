/* SPDX-License-Identifier: MIT */
/* The process sampler of one group (generator/event.h): each event writes its momenta in the
 * group's particle order (GeV, in the amplitude's precision), the factor that multiplies |M|^2,
 * each member's share of it and its VEGAS bins. The program also holds the VEGAS reduction and
 * the channels' reduction. Build options: those of generator/event.h, AMP_REAL, GEN_ORDER (for
 * each of the group's particles its slot in the sampler's order, comma-separated), CHANNELS
 * (GEN_MEMBERS, plus GEN_PS_CHANNELS when there are several), N_PHOTONS (any: histogram_accumulate
 * adds the channel sums up). */
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

/* The kept events of a batch, compacted: event index[k] of the batch's momenta (n_events per
 * batch) and member factors into slot k of momenta_out and member_out (n_kept per component), so
 * only they cross to the host. */
__kernel void generator_gather(__global const hg_u32 *restrict index, const hg_u32 n_kept,
                               __global const AMP_REAL *restrict momenta, const hg_u32 n_events,
                               __global const double *restrict member_factor,
                               __global double *restrict momenta_out,
                               __global double *restrict member_out) {
  const size_t k = get_global_id(0);
  if (k >= n_kept) return;
  const size_t e = index[k];
  for (int i = 0; i < HG_GEN_N_EXTERNAL; ++i)
    for (int c = 0; c < 4; ++c)
      momenta_out[HG_SOA_INDEX(c, i, HG_GEN_N_EXTERNAL, n_kept, k)] =
          (double)momenta[HG_SOA_INDEX(c, i, HG_GEN_N_EXTERNAL, n_events, e)];
  for (int m = 0; m < GEN_MEMBERS; ++m)
    member_out[(size_t)m * n_kept + k] = member_factor[(size_t)m * n_events + e];
}
