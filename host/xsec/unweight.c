/* SPDX-License-Identifier: MIT */
/* The photon family's unweighting: device hit-or-miss and gather, offsets summed on the host,
 * events to the sink. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "events/record.h"
#include "shared/kernel_names.h"
#include "xsec/params.h"
#include "xsec/unweight.h"

/* Records gathered per pass (a batch keeps more only at an efficiency above 1 / 16). */
#define HG_EVENTS_CAPACITY 65536

typedef struct {
  hegetcl_context *ctx;
  cl_kernel mark, gather;
  cl_mem flags, counts, stats, offsets, records;
  cl_uint *counts_host, *offsets_host;
  double *stats_host, *records_host;
  uint32_t *kept_index; /* the kept events' places in their batch, for the variation ratios */
  double *ratios;       /* their ratios, an event's in a row */
} unweighter;

static void release(unweighter *u) {
  if (u->mark) clReleaseKernel(u->mark);
  if (u->gather) clReleaseKernel(u->gather);
  cl_mem *buffers[] = {&u->flags, &u->counts, &u->stats, &u->offsets, &u->records};
  for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
    if (*buffers[i]) clReleaseMemObject(*buffers[i]);
  free(u->counts_host);
  free(u->offsets_host);
  free(u->stats_host);
  free(u->records_host);
  free(u->kept_index);
  free(u->ratios);
}

static hegetcl_status make(unweighter *u, const hg_unweight_inputs *in, size_t groups,
                           size_t record) {
  hegetcl_context *ctx = u->ctx;
  hegetcl_status status = hg_kernel_create(ctx, in->program, HG_KERNEL_EVENTS_MARK, &u->mark);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, in->program, HG_KERNEL_EVENTS_GATHER, &u->gather);
  if (status != HEGETCL_OK) return status;
  const size_t sizes[] = {in->batch, groups * sizeof(cl_uint),
                          groups * HG_EVENT_STATS * sizeof(double), groups * sizeof(cl_uint),
                          HG_EVENTS_CAPACITY * record * sizeof(double)};
  cl_mem *buffers[] = {&u->flags, &u->counts, &u->stats, &u->offsets, &u->records};
  for (size_t i = 0; i < 5 && status == HEGETCL_OK; ++i) {
    cl_int err = CL_SUCCESS;
    *buffers[i] = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, sizes[i], NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating unweighting buffers (%zu bytes)",
                         sizes[i]);
  }
  if (status != HEGETCL_OK) return status;
  u->counts_host = malloc(groups * sizeof *u->counts_host);
  u->offsets_host = malloc(groups * sizeof *u->offsets_host);
  u->stats_host = malloc(groups * HG_EVENT_STATS * sizeof *u->stats_host);
  u->records_host = malloc(HG_EVENTS_CAPACITY * record * sizeof *u->records_host);
  if (!u->counts_host || !u->offsets_host || !u->stats_host || !u->records_host)
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no host memory for unweighting");
  if (in->n_variations > 0) {
    const size_t most = in->batch < HG_EVENTS_CAPACITY ? in->batch : HG_EVENTS_CAPACITY;
    u->kept_index = malloc(most * sizeof *u->kept_index);
    u->ratios = malloc(most * in->n_variations * sizeof *u->ratios);
    if (u->kept_index == NULL || u->ratios == NULL)
      return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no host memory for the variation weights");
  }
  return HEGETCL_OK;
}

/* The record of an event turned into the public event: mirrored (rotated by pi about the x axis,
 * which keeps helicities) when the quark comes from proton 2; in a run over flavour channels the
 * partons are those of the event's channel, the quark along +z or -z as the channel says. */
static void to_event(const double *rec, const hg_unweight_inputs *in, hegetcl_event *ev) {
  const unsigned n = in->n_photons, np = n + 2;
  const double *tail = rec + 4 * np;
  const int mirror = in->both_orientations && tail[HG_EVENT_MIRROR] != 0.0;
  const unsigned channel = (unsigned)tail[HG_EVENT_CHANNEL];
  const int first_pid =
      in->n_channels > 0 && channel < in->n_channels ? in->channel_pid[channel] : in->quark_pid;
  const uint32_t hel = (uint32_t)tail[HG_EVENT_HELICITY];
  memset(ev, 0, sizeof *ev);
  ev->n_particles = np;
  for (unsigned i = 0; i < np; ++i) {
    /* mirrored: the antiquark (record particle 1) is now along +z, so it is listed first */
    const unsigned src = mirror && i < 2 ? 1 - i : i;
    const double *p = rec + 4 * src;
    ev->p[i][0] = p[0];
    ev->p[i][1] = p[1];
    ev->p[i][2] = mirror ? 0.0 - p[2] : p[2]; /* 0 - x: no -0 for the beams */
    ev->p[i][3] = mirror ? 0.0 - p[3] : p[3];
    ev->pid[i] = src == 0 ? first_pid : (src == 1 ? -first_pid : 22);
    ev->helicity[i] = in->helicity_sampled ? (((hel >> src) & 1u) ? 1 : -1) : 0;
    ev->status[i] = i < 2 ? -1 : 1;
    /* colour flows along the quark line: the quark carries colour 501, the antiquark anticolour */
    ev->colour[i][0] = ev->pid[i] > 0 && ev->pid[i] < 7 ? 501 : 0;
    ev->colour[i][1] = ev->pid[i] < 0 ? 501 : 0;
    ev->mass[i] = 0.0;
  }
  ev->mu_f_gev = in->mu_f_gev;
  ev->mu_r_gev = in->mu_r_gev;
  ev->alpha_s = in->alpha_s;
  ev->alpha_qed = in->alpha_qed;
  ev->process_id = in->process_id;
  ev->n_variations = 0;
  ev->variations = NULL;
  ev->x1 = mirror ? tail[HG_EVENT_X2] : tail[HG_EVENT_X1];
  ev->x2 = mirror ? tail[HG_EVENT_X1] : tail[HG_EVENT_X2];
  ev->weight_ratio = tail[HG_EVENT_WEIGHT_RATIO];
  ev->number = (uint64_t)tail[HG_EVENT_NUMBER];
}

/* Gathers kept events [skip, skip + take) of the batch (in event order) and hands them on. */
static hegetcl_status gather(unweighter *u, const hg_unweight_inputs *in, size_t n_events,
                             size_t groups, uint64_t first, cl_uint skip, cl_uint take,
                             hegetcl_event_sink sink, void *sink_user) {
  hegetcl_context *ctx = u->ctx;
  for (size_t g = 0; g < groups; ++g) u->offsets_host[g] -= skip; /* wraps: unsigned below 0 */
  cl_int err = clEnqueueWriteBuffer(ctx->queue, u->offsets, CL_FALSE, 0, groups * sizeof(cl_uint),
                                    u->offsets_host, 0, NULL, NULL);
  const cl_uint seed_low = (cl_uint)in->seed, seed_high = (cl_uint)(in->seed >> 32);
  const cl_uint first_low = (cl_uint)first, first_high = (cl_uint)(first >> 32);
  const cl_uint n = (cl_uint)n_events;
  const cl_mem args[] = {in->params, in->grid, in->pdf};
  for (cl_uint i = 0; i < 3; ++i) err |= clSetKernelArg(u->gather, i, sizeof(cl_mem), &args[i]);
  err |= clSetKernelArg(u->gather, 3, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(u->gather, 4, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(u->gather, 5, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(u->gather, 6, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(u->gather, 7, sizeof(cl_uint), &n);
  err |= clSetKernelArg(u->gather, 8, sizeof(cl_mem), &u->flags);
  err |= clSetKernelArg(u->gather, 9, sizeof(cl_mem), &u->offsets);
  err |= clSetKernelArg(u->gather, 10, sizeof(cl_mem), &in->factor);
  err |= clSetKernelArg(u->gather, 11, sizeof(cl_mem), &in->me);
  err |= clSetKernelArg(u->gather, 12, sizeof(double), &in->max_weight);
  err |= clSetKernelArg(u->gather, 13, sizeof(cl_uint), &take);
  err |= clSetKernelArg(u->gather, 14, sizeof(cl_mem), &u->records);
  err |= clSetKernelArg(u->gather, 15, sizeof(cl_mem), &in->sampling);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_EVENTS_GATHER);
  if (status != HEGETCL_OK) return status;
  const size_t local = HG_EVENTS_LOCAL, global = groups * HG_EVENTS_LOCAL;
  err = clEnqueueNDRangeKernel(ctx->queue, u->gather, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s", HG_KERNEL_EVENTS_GATHER);
  if (status != HEGETCL_OK) return status;
  const size_t record = HG_EVENT_RECORD(in->n_photons);
  err = clEnqueueReadBuffer(ctx->queue, u->records, CL_TRUE, 0, take * record * sizeof(double),
                            u->records_host, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading unweighted events");
  for (size_t g = 0; g < groups; ++g) u->offsets_host[g] += skip;
  if (status == HEGETCL_OK && in->n_variations > 0) {
    /* the record holds the event's Philox counter: its place in the batch is that minus first */
    for (cl_uint k = 0; k < take; ++k)
      u->kept_index[k] =
          (uint32_t)((uint64_t)u->records_host[k * record + 4 * (in->n_photons + 2) +
                                               HG_EVENT_NUMBER] -
                     first);
    status = in->ratios(in->ratios_user, first, u->kept_index, take, u->ratios);
  }
  hegetcl_event ev;
  for (cl_uint k = 0; k < take && status == HEGETCL_OK; ++k) {
    to_event(u->records_host + k * record, in, &ev);
    if (in->n_variations > 0) {
      ev.n_variations = in->n_variations;
      ev.variations = u->ratios + (size_t)k * in->n_variations;
    }
    status = sink(&ev, sink_user);
  }
  return status;
}

/* Hit-or-miss over a batch: flags, per-group counts and statistics; *kept events in total. */
static hegetcl_status mark(unweighter *u, const hg_unweight_inputs *in, size_t n_events,
                           size_t groups, uint64_t first, double stats[HG_EVENT_STATS],
                           uint64_t *kept) {
  hegetcl_context *ctx = u->ctx;
  const cl_uint seed_low = (cl_uint)in->seed, seed_high = (cl_uint)(in->seed >> 32);
  const cl_uint first_low = (cl_uint)first, first_high = (cl_uint)(first >> 32);
  const cl_uint n = (cl_uint)n_events;
  cl_int err = clSetKernelArg(u->mark, 0, sizeof(cl_mem), &in->factor);
  err |= clSetKernelArg(u->mark, 1, sizeof(cl_mem), &in->me);
  err |= clSetKernelArg(u->mark, 2, sizeof(cl_uint), &n);
  err |= clSetKernelArg(u->mark, 3, sizeof(double), &in->max_weight);
  err |= clSetKernelArg(u->mark, 4, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(u->mark, 5, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(u->mark, 6, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(u->mark, 7, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(u->mark, 8, sizeof(cl_mem), &u->flags);
  err |= clSetKernelArg(u->mark, 9, sizeof(cl_mem), &u->counts);
  err |= clSetKernelArg(u->mark, 10, sizeof(cl_mem), &u->stats);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_EVENTS_MARK);
  if (status != HEGETCL_OK) return status;
  const size_t local = HG_EVENTS_LOCAL, global = groups * HG_EVENTS_LOCAL;
  err = clEnqueueNDRangeKernel(ctx->queue, u->mark, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_EVENTS_MARK, n_events);
  if (status != HEGETCL_OK) return status;
  err = clEnqueueReadBuffer(ctx->queue, u->counts, CL_FALSE, 0, groups * sizeof(cl_uint),
                            u->counts_host, 0, NULL, NULL);
  err |=
      clEnqueueReadBuffer(ctx->queue, u->stats, CL_TRUE, 0,
                          groups * HG_EVENT_STATS * sizeof(double), u->stats_host, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the unweighting counts");
  if (status != HEGETCL_OK) return status;
  uint64_t total = 0;
  for (size_t g = 0; g < groups; ++g) {
    u->offsets_host[g] = (cl_uint)total;
    total += u->counts_host[g];
    for (int k = 0; k < HG_EVENT_STATS; ++k) stats[k] += u->stats_host[g * HG_EVENT_STATS + k];
  }
  *kept = total;
  return HEGETCL_OK;
}

/* The result from the state. */
void hg_unweight_summarise(const hg_unweight_state *st, hegetcl_unweighting_result *result) {
  result->written = st->written;
  result->tried = st->tried;
  result->overweight = (uint64_t)st->stats[HG_EVENT_STAT_OVERWEIGHT];
  result->negative = (uint64_t)st->stats[HG_EVENT_STAT_NEGATIVE];
  result->efficiency = st->tried ? (double)st->kept / (double)st->tried : 0.0;
  result->overweight_sigma_fraction =
      st->stats[HG_EVENT_STAT_SUM_W] > 0.0
          ? st->stats[HG_EVENT_STAT_EXCESS] / st->stats[HG_EVENT_STAT_SUM_W]
          : 0.0;
  result->sigma_check_fb = st->tried ? st->stats[HG_EVENT_STAT_SUM_W] / (double)st->tried : 0.0;
  result->seconds = st->seconds;
}

hegetcl_status hg_unweight_run(hegetcl_context *ctx, const hg_unweight_inputs *in,
                               hegetcl_event_sink sink, void *sink_user,
                               hegetcl_events_progress progress, void *progress_user,
                               hegetcl_unweighting_result *result, int *stopped,
                               hg_unweight_state *end) {
  memset(result, 0, sizeof *result);
  *stopped = 0;
  result->requested = in->requested;
  result->max_weight_fb = in->max_weight;
  if (!(in->max_weight > 0.0) || !isfinite(in->max_weight))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "the largest weight of the last iteration is %g: no event can be unweighted "
                   "against it",
                   in->max_weight);
  hg_unweight_state st;
  memset(&st, 0, sizeof st);
  st.first = in->first_event;
  if (in->resume != NULL) st = *in->resume;
  const double start = hg_now_seconds(), before = st.seconds;
  const size_t groups = (in->batch + HG_EVENTS_LOCAL - 1) / HG_EVENTS_LOCAL;
  unweighter u = {.ctx = ctx};
  hegetcl_status status = make(&u, in, groups, HG_EVENT_RECORD(in->n_photons));
  if (status == HEGETCL_OK && progress && st.written > 0)
    progress(st.written, in->requested, st.tried, progress_user);
  while (status == HEGETCL_OK && st.written < in->requested) {
    if (in->stop != NULL && *in->stop != 0) {
      st.seconds = before + (hg_now_seconds() - start);
      if (in->checkpoint) status = in->checkpoint(in->checkpoint_user, &st, 1);
      if (status == HEGETCL_OK) *stopped = 1;
      break;
    }
    if (st.tried >= in->max_tries) {
      status = hg_fail(ctx, HEGETCL_ERR_INPUT,
                       "unweighting: %llu of %llu events after %llu tries (efficiency %.2e): "
                       "raise the tries allowed, ask for fewer events, or adapt the grid better "
                       "(more adaptation events) so the largest weight comes down",
                       (unsigned long long)st.written, (unsigned long long)in->requested,
                       (unsigned long long)st.tried,
                       st.tried ? (double)st.kept / (double)st.tried : 0.0);
      break;
    }
    /* the tries allowed hold to the event: the last batch takes only what is left of them */
    const uint64_t tries_left = in->max_tries - st.tried;
    const size_t n_events = tries_left < in->batch ? (size_t)tries_left : in->batch;
    const size_t batch_groups = (n_events + HG_EVENTS_LOCAL - 1) / HG_EVENTS_LOCAL;
    status = in->sampler(in->sampler_user, HG_ITERATION_EVENTS, st.first, n_events, in->grid);
    uint64_t kept = 0;
    double stats[HG_EVENT_STATS];
    memcpy(stats, st.stats, sizeof stats);
    if (status == HEGETCL_OK) status = mark(&u, in, n_events, batch_groups, st.first, stats, &kept);
    if (status != HEGETCL_OK) break;
    if (stats[HG_EVENT_STAT_NONFINITE] > 0.0) {
      status = hg_fail(ctx, HEGETCL_ERR_NONFINITE,
                       "unweighting: %.0f events have a non-finite weight (the run stops: no "
                       "event file is built on them)",
                       stats[HG_EVENT_STAT_NONFINITE]);
      break;
    }
    const uint64_t written_before = st.written;
    const uint64_t want = in->requested - st.written, use = kept < want ? kept : want;
    for (uint64_t skip = 0; skip < use && status == HEGETCL_OK; skip += HG_EVENTS_CAPACITY) {
      const uint64_t take = use - skip < HG_EVENTS_CAPACITY ? use - skip : HG_EVENTS_CAPACITY;
      status = gather(&u, in, n_events, batch_groups, st.first, (cl_uint)skip, (cl_uint)take, sink,
                      sink_user);
      if (status == HEGETCL_OK) st.written += take;
    }
    if (status != HEGETCL_OK) break;
    /* the batch is complete: the state moves past it */
    memcpy(st.stats, stats, sizeof stats);
    st.tried += n_events;
    st.kept += kept;
    st.first += n_events;
    if (progress) progress(st.written, in->requested, st.tried, progress_user);
    const uint64_t every = in->checkpoint_every;
    if (in->checkpoint && every > 0 && st.written < in->requested &&
        st.written / every != written_before / every) {
      st.seconds = before + (hg_now_seconds() - start);
      status = in->checkpoint(in->checkpoint_user, &st, 0);
    }
  }
  st.seconds = before + (hg_now_seconds() - start);
  hg_unweight_summarise(&st, result);
  if (end != NULL) *end = st;
  release(&u);
  return status;
}

void hg_unweight_save(const hg_unweight_state *state, hg_ckpt_writer *w) {
  hg_ckpt_put(w, "unweight.progress", "%llu %llu %llu %llu", (unsigned long long)state->first,
              (unsigned long long)state->written, (unsigned long long)state->tried,
              (unsigned long long)state->kept);
  hg_ckpt_put_reals(w, "unweight.stats", state->stats, HG_EVENT_STATS);
  hg_ckpt_put_reals(w, "unweight.seconds", &state->seconds, 1);
}

int hg_unweight_load(hg_unweight_state *state, hg_ckpt *c) {
  memset(state, 0, sizeof *state);
  int status = hg_ckpt_scan(c, "unweight.progress", 0, "uuuu", &state->first, &state->written,
                            &state->tried, &state->kept);
  if (status == 0) status = hg_ckpt_get_reals(c, "unweight.stats", 0, state->stats, HG_EVENT_STATS);
  if (status == 0) status = hg_ckpt_get_reals(c, "unweight.seconds", 0, &state->seconds, 1);
  if (status == 0 && (state->kept > state->tried || state->first != state->tried)) {
    snprintf(c->message, sizeof c->message,
             "%s: the unweighting's progress (%llu tried, %llu kept, next event %llu) is "
             "inconsistent: the checkpoint is corrupt",
             c->path, (unsigned long long)state->tried, (unsigned long long)state->kept,
             (unsigned long long)state->first);
    status = HEGETCL_ERR_INPUT;
  }
  return status;
}
