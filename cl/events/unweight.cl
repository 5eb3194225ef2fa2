/* SPDX-License-Identifier: MIT */
/* Unweighting on the device: hit-or-miss against the integration's largest weight, then a gather
 * of the accepted events into consecutive records, in event order (a per-group count, offsets
 * summed on the host, a scan inside each group: no atomics, so the event file does not depend on
 * the device or the batch size). Build options: those of xsec/event.h, AMP_REAL. */
#include "events/record.h"
#include "integrate/weight.h"
#include "shared/philox.h"
#include "xsec/event.h"

/* Event e of the batch (counter first + e of the events iteration) with weight w = factor * me is
 * kept when w > r * max_weight, r uniform in (0, 1) from its own Philox block. flags[e] = kept;
 * per group g: counts[g] = events kept, stats[HG_EVENT_STATS * g + ...] = the statistics of
 * events/record.h. */
__kernel __attribute__((reqd_work_group_size(HG_EVENTS_LOCAL, 1, 1))) void
events_mark(__global const double *restrict factor, __global const AMP_REAL *restrict me,
            const hg_u32 n_events, const double max_weight, const hg_u32 seed_low,
            const hg_u32 seed_high, const hg_u32 first_low, const hg_u32 first_high,
            __global uchar *restrict flags, __global hg_u32 *restrict counts,
            __global double *restrict stats) {
  __local double scratch[HG_EVENT_STATS * HG_EVENTS_LOCAL];
  const size_t e = get_global_id(0);
  const hg_u32 t = (hg_u32)get_local_id(0), g = (hg_u32)get_group_id(0);
  const int valid = e < n_events;
  const size_t ev = valid ? e : 0;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)ev;
  const double raw = valid ? hg_event_weight(factor[ev], (double)me[ev]) : 0.0;
  const int finite = isfinite(raw);
  const double w = finite ? raw : 0.0;
  const hg_philox_words r = hg_philox4x32_10(
      hg_philox_counter(event, HG_ITERATION_EVENTS, HG_BLOCK_UNWEIGHT), seed_low, seed_high);
  const double u = hg_uniform_double(r.v[0], r.v[1]);
  const int keep = valid && w > 0.0 && w > u * max_weight;
  if (valid) flags[ev] = (uchar)keep;
  scratch[HG_EVENT_STAT_KEPT * HG_EVENTS_LOCAL + t] = keep ? 1.0 : 0.0;
  scratch[HG_EVENT_STAT_OVERWEIGHT * HG_EVENTS_LOCAL + t] = w > max_weight ? 1.0 : 0.0;
  scratch[HG_EVENT_STAT_EXCESS * HG_EVENTS_LOCAL + t] = w > max_weight ? w - max_weight : 0.0;
  scratch[HG_EVENT_STAT_SUM_W * HG_EVENTS_LOCAL + t] = w;
  scratch[HG_EVENT_STAT_NEGATIVE * HG_EVENTS_LOCAL + t] = w < 0.0 ? 1.0 : 0.0;
  scratch[HG_EVENT_STAT_NONFINITE * HG_EVENTS_LOCAL + t] = (valid && !finite) ? 1.0 : 0.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (hg_u32 stride = HG_EVENTS_LOCAL / 2; stride > 0; stride /= 2) {
    if (t < stride)
      for (int k = 0; k < HG_EVENT_STATS; ++k)
        scratch[k * HG_EVENTS_LOCAL + t] += scratch[k * HG_EVENTS_LOCAL + t + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t < HG_EVENT_STATS) stats[HG_EVENT_STATS * g + t] = scratch[t * HG_EVENTS_LOCAL];
  if (t == 0) counts[g] = (hg_u32)scratch[HG_EVENT_STAT_KEPT * HG_EVENTS_LOCAL];
}

/* Kept event e of group g goes to record offsets[g] + (kept events before it in the group), when
 * below capacity: the event made again from its counter (xsec/event.h, with the sampler's
 * params, grid, pdf and sampling tables) in the lab frame, with the fields of events/record.h. */
__kernel __attribute__((reqd_work_group_size(HG_EVENTS_LOCAL, 1, 1))) void
events_gather(__global const double *restrict params, __global const double *restrict grid,
              __global const double *restrict pdf, const hg_u32 seed_low, const hg_u32 seed_high,
              const hg_u32 first_low, const hg_u32 first_high, const hg_u32 n_events,
              __global const uchar *restrict flags, __global const hg_u32 *restrict offsets,
              __global const double *restrict factor, __global const AMP_REAL *restrict me,
              const double max_weight, const hg_u32 capacity, __global double *restrict records,
              __global const double *restrict sampling) {
  __local hg_u32 scan[2][HG_EVENTS_LOCAL];
  const size_t e = get_global_id(0);
  const hg_u32 t = (hg_u32)get_local_id(0), g = (hg_u32)get_group_id(0);
  const int keep = e < n_events && flags[e];
  /* inclusive Hillis-Steele scan of the kept flags */
  int src = 0;
  scan[0][t] = (hg_u32)keep;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (hg_u32 stride = 1; stride < HG_EVENTS_LOCAL; stride *= 2) {
    scan[1 - src][t] = scan[src][t] + (t >= stride ? scan[src][t - stride] : 0u);
    src = 1 - src;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const hg_u32 slot = offsets[g] + scan[src][t] - 1u;
  if (!keep || slot >= capacity) return;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)e;
  const hg_xsec_event ev =
      hg_xsec_make_event(params, grid, pdf, sampling, seed_low, seed_high, HG_ITERATION_EVENTS,
                         event);
  const hg_philox_words r = hg_philox4x32_10(
      hg_philox_counter(event, HG_ITERATION_EVENTS, HG_BLOCK_ORIENTATION), seed_low, seed_high);
  __global double *out = records + (size_t)slot * HG_EVENT_RECORD(N_PHOTONS);
  for (int i = 0; i < HG_N_PARTICLES; ++i)
    for (int c = 0; c < 4; ++c) out[4 * i + c] = ev.pt.p[i][c];
  __global double *tail = out + 4 * HG_N_PARTICLES;
  tail[HG_EVENT_X1] = ev.pt.x1;
  tail[HG_EVENT_X2] = ev.pt.x2;
  tail[HG_EVENT_HELICITY] = (double)ev.helicity;
  tail[HG_EVENT_MIRROR] = (double)(r.v[0] & 1u);
  tail[HG_EVENT_WEIGHT_RATIO] = hg_event_weight(factor[e], (double)me[e]) / max_weight;
  tail[HG_EVENT_NUMBER] = (double)event;
  /* a run over flavour channels: channel c with probability its share of the weight (the
   * quark's proton is part of the channel; no mirror) */
  int channel = 0;
#if CHANNELS
  const hg_philox_words rc = hg_philox4x32_10(
      hg_philox_counter(event, HG_ITERATION_EVENTS, HG_BLOCK_CHANNEL), seed_low, seed_high);
  double total = 0.0;
  for (int c = 0; c < CHANNELS; ++c) total += fmax(ev.channel[c], 0.0);
  const double target = hg_uniform_double(rc.v[0], rc.v[1]) * total;
  double below = 0.0;
  int last = 0;
  channel = -1;
  for (int c = 0; c < CHANNELS; ++c) {
    below += fmax(ev.channel[c], 0.0);
    channel = (channel < 0 && target < below) ? c : channel;
    last = ev.channel[c] > 0.0 ? c : last;
  }
  channel = channel < 0 ? last : channel; /* target rounded up to the total */
#endif
  tail[HG_EVENT_CHANNEL] = (double)channel;
}
