/* SPDX-License-Identifier: MIT */
/* Flavour channels: their list, the device sums per batch, the combination over iterations. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "shared/kernel_names.h"
#include "xsec/channels.h"
#include "xsec/params.h"

static const char *const quark_names[5] = {"d", "u", "s", "c", "b"};

unsigned hg_xsec_channels_of(const hegetcl_xsec_config *c,
                             hegetcl_xsec_channel channels[HEGETCL_XSEC_MAX_CHANNELS],
                             int flavour_pids[5], unsigned *n_flavours) {
  const int both = c->orientation == HEGETCL_ORIENTATION_BOTH;
  unsigned n = 0, k = 0;
  for (int pid = 1; pid <= 5; ++pid) {
    if (!(c->flavours & HEGETCL_FLAVOUR_BIT(pid))) continue;
    flavour_pids[k++] = pid;
    const double charge = pid % 2 == 0 ? 2.0 / 3.0 : -1.0 / 3.0;
    for (int mirrored = 0; mirrored <= both; ++mirrored) {
      hegetcl_xsec_channel *ch = &channels[n++];
      memset(ch, 0, sizeof *ch);
      ch->pid[0] = mirrored ? -pid : pid;
      ch->pid[1] = -ch->pid[0];
      ch->charge = charge;
      snprintf(ch->name, sizeof ch->name, "%s%s %s%s", quark_names[pid - 1], mirrored ? "~" : "",
               quark_names[pid - 1], mirrored ? "" : "~");
    }
  }
  *n_flavours = k;
  return n;
}

struct hg_channels {
  hegetcl_context *ctx;
  unsigned n;
  size_t max_groups;
  cl_kernel reduce, accumulate;
  cl_mem channel_factor, partial, accumulator;
  /* the combination: sum of a_i = 1 / variance_i, then per channel sum a_i mean_i and sum a_i^2
   * var(mean_i) */
  double combination[1 + 2 * HEGETCL_XSEC_MAX_CHANNELS];
};

hegetcl_status hg_channels_create(hegetcl_context *ctx, cl_program program, unsigned n_channels,
                                  size_t batch, cl_mem channel_factor, hg_channels **out) {
  *out = NULL;
  assert(n_channels >= 1 && n_channels <= HEGETCL_XSEC_MAX_CHANNELS);
  hg_channels *ch = calloc(1, sizeof *ch);
  if (ch == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the channel sums");
  ch->ctx = ctx;
  ch->n = n_channels;
  ch->channel_factor = channel_factor;
  ch->max_groups = (batch + HG_CHANNEL_PER_GROUP - 1) / HG_CHANNEL_PER_GROUP;
  hegetcl_status status =
      hg_kernel_create(ctx, program, HG_KERNEL_XSEC_CHANNEL_REDUCE, &ch->reduce);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, program, HG_KERNEL_HISTOGRAM_ACCUMULATE, &ch->accumulate);
  cl_int err = CL_SUCCESS;
  const size_t partial_bytes = ch->max_groups * 2 * n_channels * sizeof(double);
  if (status == HEGETCL_OK) {
    ch->partial = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, partial_bytes, NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating partial channel sums (%zu bytes)",
                         partial_bytes);
  }
  if (status == HEGETCL_OK) {
    ch->accumulator = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE,
                                     2 * n_channels * sizeof(double), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the channel sums");
  }
  if (status != HEGETCL_OK) {
    hg_channels_destroy(ch);
    return status;
  }
  *out = ch;
  return HEGETCL_OK;
}

void hg_channels_destroy(hg_channels *ch) {
  if (ch == NULL) return;
  if (ch->reduce) clReleaseKernel(ch->reduce);
  if (ch->accumulate) clReleaseKernel(ch->accumulate);
  if (ch->partial) clReleaseMemObject(ch->partial);
  if (ch->accumulator) clReleaseMemObject(ch->accumulator);
  free(ch);
}

size_t hg_channels_batch_sums(const hg_channels *ch) { return 2 * (size_t)ch->n; }

hegetcl_status hg_channels_add_batch(hg_channels *ch, cl_mem me, size_t n_events, double *out) {
  hegetcl_context *ctx = ch->ctx;
  const cl_uint n = (cl_uint)n_events, per_group = HG_CHANNEL_PER_GROUP;
  const size_t groups = (n_events + HG_CHANNEL_PER_GROUP - 1) / HG_CHANNEL_PER_GROUP;
  const cl_uint n_groups = (cl_uint)groups, count = 2 * ch->n;
  cl_int err = clSetKernelArg(ch->reduce, 0, sizeof(cl_mem), &ch->channel_factor);
  err |= clSetKernelArg(ch->reduce, 1, sizeof(cl_mem), &me);
  err |= clSetKernelArg(ch->reduce, 2, sizeof(cl_uint), &n);
  err |= clSetKernelArg(ch->reduce, 3, sizeof(cl_uint), &per_group);
  err |= clSetKernelArg(ch->reduce, 4, sizeof(cl_mem), &ch->partial);
  err |= clSetKernelArg(ch->accumulate, 0, sizeof(cl_mem), &ch->partial);
  err |= clSetKernelArg(ch->accumulate, 1, sizeof(cl_uint), &n_groups);
  err |= clSetKernelArg(ch->accumulate, 2, sizeof(cl_uint), &count);
  err |= clSetKernelArg(ch->accumulate, 3, sizeof(cl_mem), &ch->accumulator);
  hegetcl_status status = hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments",
                                      HG_KERNEL_XSEC_CHANNEL_REDUCE);
  if (status != HEGETCL_OK) return status;
  const size_t local = HG_CHANNEL_LOCAL, global = groups * HG_CHANNEL_LOCAL;
  err = clEnqueueNDRangeKernel(ctx->queue, ch->reduce, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_XSEC_CHANNEL_REDUCE, n_events);
  if (status != HEGETCL_OK) return status;
  /* histogram_accumulate stores every sum: the buffer is never cleared */
  const size_t acc_local = 32, acc_global = acc_local;
  err = clEnqueueNDRangeKernel(ctx->queue, ch->accumulate, 1, NULL, &acc_global, &acc_local, 0,
                               NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s for the channel sums",
                       HG_KERNEL_HISTOGRAM_ACCUMULATE);
  if (status != HEGETCL_OK) return status;
  err = clEnqueueReadBuffer(ctx->queue, ch->accumulator, CL_TRUE, 0, 2 * ch->n * sizeof(double),
                            out, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the channel sums");
}

void hg_channels_end_iteration(hg_channels *ch, uint64_t n_events, double variance,
                               const double *sums) {
  /* the estimate of a mean and its variance, as VEGAS forms sigma's (host/integrate/vegas.c) */
  const double n = (double)n_events, a = 1.0 / variance;
  double *m = ch->combination;
  m[0] += a;
  for (unsigned c = 0; c < ch->n; ++c) {
    const double mean = sums[2 * c] / n;
    const double var = fmax(sums[2 * c + 1] / n - mean * mean, 0.0) / (n - 1.0);
    m[1 + 2 * c] += a * mean;
    m[2 + 2 * c] += a * a * var;
  }
}

void hg_channels_result(const hg_channels *ch, hegetcl_xsec_channel *channels) {
  const double *m = ch->combination, total = m[0];
  for (unsigned c = 0; c < ch->n; ++c) {
    channels[c].sigma_fb = total > 0.0 ? m[1 + 2 * c] / total : 0.0;
    channels[c].error_fb = total > 0.0 ? sqrt(m[2 + 2 * c]) / total : 0.0;
  }
}

void hg_channels_save(const hg_channels *ch, hg_ckpt_writer *w) {
  hg_channels_save_as(ch, w, "channels.sums");
}

int hg_channels_load(hg_channels *ch, hg_ckpt *c) { return hg_channels_load_as(ch, c, "channels.sums"); }

void hg_channels_save_as(const hg_channels *ch, hg_ckpt_writer *w, const char *key) {
  hg_ckpt_put_reals(w, key, ch->combination, 1 + 2 * (size_t)ch->n);
}

int hg_channels_load_as(hg_channels *ch, hg_ckpt *c, const char *key) {
  const hg_ckpt_entry *e = hg_ckpt_find(c, key, 0);
  if (e == NULL) {
    snprintf(c->message, sizeof c->message, "%s: no '%s' line: the checkpoint is incomplete",
             c->path, key);
    return HEGETCL_ERR_INPUT;
  }
  return hg_ckpt_get_reals(c, key, 0, ch->combination, 1 + 2 * (size_t)ch->n);
}

double *hg_channels_combination(hg_channels *ch, size_t *count) {
  *count = 1 + 2 * (size_t)ch->n;
  return ch->combination;
}
