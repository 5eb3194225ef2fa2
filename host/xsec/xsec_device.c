/* SPDX-License-Identifier: MIT */
/* One device's part of a cross-section run: programs, buffers, and a batch's sums. */
#include <stdio.h>
#include <string.h>

#include "core/program.h"
#include "shared/kernel_names.h"
#include "xsec/xsec_device.h"

static hegetcl_status make_buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                                  const void *host, const char *what, cl_mem *out) {
  if (ctx->info.max_buffer_bytes > 0 && bytes > ctx->info.max_buffer_bytes)
    return hg_fail(ctx, HEGETCL_ERR_DEVICE_MEMORY,
                   "allocating %s: %zu bytes, more than %s allows in one buffer "
                   "(CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes); use a smaller --batch",
                   what, bytes, ctx->info.name, ctx->info.max_buffer_bytes);
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                        (void *)host, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

/* xsec_sample's arguments that stay for the whole run, and its work-group size. */
static hegetcl_status prepare_sampler(hg_xsec_device *d) {
  const uint64_t seed = d->setup->seed;
  const cl_uint seed_low = (cl_uint)seed, seed_high = (cl_uint)(seed >> 32);
  cl_int err = clSetKernelArg(d->sample, 0, sizeof(cl_mem), &d->params);
  err |= clSetKernelArg(d->sample, 2, sizeof(cl_mem), &d->pdf);
  err |= clSetKernelArg(d->sample, 3, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(d->sample, 4, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(d->sample, 9, sizeof(cl_mem), &d->amp->momenta);
  err |= clSetKernelArg(d->sample, 10, sizeof(cl_mem), &d->amp->helicities);
  err |= clSetKernelArg(d->sample, 11, sizeof(cl_mem), &d->factor);
  err |= clSetKernelArg(d->sample, 12, sizeof(cl_mem), &d->bins);
  err |= clSetKernelArg(d->sample, 13, sizeof(cl_mem), &d->obs_value);
  err |= clSetKernelArg(d->sample, 14, sizeof(cl_mem), &d->obs_bin);
  err |= clSetKernelArg(d->sample, 16, sizeof(cl_mem), &d->channel_factor);
  err |= clSetKernelArg(d->sample, 17, sizeof(cl_mem), &d->sampling);
  err |= clSetKernelArg(d->sample, 18, sizeof(cl_mem), &d->ps_channel);
  hegetcl_status status =
      hg_cl_check(d->ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_XSEC_SAMPLE);
  if (status != HEGETCL_OK) return status;
  size_t limit = 0;
  err = clGetKernelWorkGroupInfo(d->sample, d->ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof limit, &limit, NULL);
  status = hg_cl_check(d->ctx, err, "clGetKernelWorkGroupInfo", "asking %s's work-group limit",
                       HG_KERNEL_XSEC_SAMPLE);
  d->local = limit >= 128 ? 128 : limit;
  return status;
}

hegetcl_status hg_xsec_device_open(hg_xsec_device *d, hegetcl_context *ctx,
                                   const hg_xsec_setup *setup) {
  memset(d, 0, sizeof *d);
  d->ctx = ctx;
  d->setup = setup;
  const hegetcl_xsec_config *config = setup->config;
  const unsigned n = config->process.n_photons, dims = setup->dims;
  const size_t batch = config->vegas.batch_size;
  hegetcl_status status = hegetcl_amplitude_create(ctx, &config->process, &d->amp);
  if (status != HEGETCL_OK) return status;
  d->build_seconds += d->amp->build_seconds;
  status = hg_amplitude_reserve(d->amp, batch);
  if (status != HEGETCL_OK) return status;
  char *options = d->sampler_options;
  status = hg_build_options(ctx, HEGETCL_PRECISION_DOUBLE, n, options, sizeof d->sampler_options);
  if (status != HEGETCL_OK) return status;
  const size_t used = strlen(options);
  snprintf(options + used, sizeof d->sampler_options - used,
           " -D VEGAS_DIMS=%u -D VEGAS_BINS=%u -D AMP_REAL=%s -D PHASE_SPACE_RAMBO=%d "
           "-D PHASE_SPACE_MULTICHANNEL=%d -D HELICITY_SAMPLED=%d -D HELICITY_ADAPTIVE=%d "
           "-D HISTOGRAMS=%d -D FLAVOURS=%u -D CHANNELS=%u",
           dims, config->vegas.bins,
           config->process.precision == HEGETCL_PRECISION_DOUBLE ? "double" : "float",
           config->phase_space == HEGETCL_PHASE_SPACE_RAMBO,
           config->phase_space == HEGETCL_PHASE_SPACE_MULTICHANNEL, setup->per_helicity,
           config->helicity == HEGETCL_HELICITY_ADAPTIVE, config->histograms != 0,
           setup->n_flavours, setup->n_channels);
  const hg_source_part part = {"xsec/kernels.cl", NULL};
  double build_seconds = 0.0;
  status = hg_program_get(ctx, &part, 1, options, &d->program, &build_seconds);
  if (status != HEGETCL_OK) return status;
  d->build_seconds += build_seconds;
  status = hg_kernel_create(ctx, d->program, HG_KERNEL_XSEC_SAMPLE, &d->sample);
  if (status != HEGETCL_OK) return status;
  const size_t fills = config->histograms ? hg_histograms_fills(n) * batch : 1;
  const unsigned n_channels = setup->n_channels;
  status = make_buffer(ctx, CL_MEM_READ_ONLY, HG_XSEC_PARAM_COUNT * sizeof(double),
                       setup->params, "parameters", &d->params);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_ONLY, setup->n_grid * sizeof(double), setup->pdf_grid,
                         "the PDF grid", &d->pdf);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, batch * sizeof(double), NULL, "weight factors",
                         &d->factor);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, batch * dims, NULL, "VEGAS bin indices", &d->bins);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, fills * sizeof(cl_float), NULL,
                         "observable values", &d->obs_value);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, fills * sizeof(cl_ushort), NULL,
                         "observable bins", &d->obs_bin);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE,
                         (n_channels > 0 ? n_channels * batch : 1) * sizeof(double), NULL,
                         "channel weight factors", &d->channel_factor);
  const int adapts = config->helicity == HEGETCL_HELICITY_ADAPTIVE ||
                     config->phase_space == HEGETCL_PHASE_SPACE_MULTICHANNEL;
  const size_t groups = (batch + HG_SAMPLING_PER_GROUP - 1) / HG_SAMPLING_PER_GROUP;
  d->sampling_sums_count = adapts ? HG_SAMPLING_SUMS(n) : 0;
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_ONLY, HG_SAMPLING_TABLE_SIZE(n) * sizeof(double), NULL,
                         "the adaptive sampling's tables", &d->sampling);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE,
                         config->phase_space == HEGETCL_PHASE_SPACE_MULTICHANNEL ? batch : 1, NULL,
                         "phase-space channel indices", &d->ps_channel);
  if (status == HEGETCL_OK && adapts)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, groups * HG_SAMPLING_SUMS(n) * sizeof(double),
                         NULL, "the adaptive sampling's partial sums", &d->sampling_partial);
  if (status == HEGETCL_OK && adapts)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, HG_SAMPLING_SUMS(n) * sizeof(double), NULL,
                         "the adaptive sampling's sums", &d->sampling_sums);
  if (status == HEGETCL_OK && adapts)
    status = hg_kernel_create(ctx, d->program, HG_KERNEL_XSEC_SAMPLING_REDUCE, &d->sampling_reduce);
  if (status == HEGETCL_OK && adapts)
    status =
        hg_kernel_create(ctx, d->program, HG_KERNEL_HISTOGRAM_ACCUMULATE, &d->sampling_accumulate);
  if (status == HEGETCL_OK && config->histograms)
    status = hg_histograms_create(ctx, d->program, n, &config->binning, batch, d->params,
                                  d->obs_value, d->obs_bin, &d->histograms);
  if (status == HEGETCL_OK && n_channels > 0)
    status = hg_channels_create(ctx, d->program, n_channels, batch, d->channel_factor,
                                &d->channels);
  if (status == HEGETCL_OK && setup->variations != NULL)
    status = hg_xsec_variations_open(
        ctx, setup->variations, d->sampler_options,
        setup->n_flavours > 0 ? n_channels / setup->n_flavours : 1, batch, setup->seed, d->params,
        d->pdf, d->sampling, d->amp->me, &d->variations, &d->build_seconds);
  if (status == HEGETCL_OK && config->histograms)
    status = hg_xsec_variations_add_histograms(d->variations, d->program, n, &config->binning, batch,
                                               d->obs_value, d->obs_bin);
  if (status == HEGETCL_OK) status = prepare_sampler(d);
  if (status == HEGETCL_OK)
    status = hg_vegas_reducer_create(ctx, d->program, dims, config->vegas.bins, batch, &d->reducer);
  if (status == HEGETCL_OK) {
    const hg_vegas_buffers buffers = {d->factor, d->amp->me, d->bins};
    status = hg_vegas_reducer_set_buffers(d->reducer, &buffers);
  }
  return status;
}

void hg_xsec_device_close(hg_xsec_device *d) {
  hg_vegas_reducer_destroy(d->reducer);
  hg_histograms_destroy(d->histograms);
  hg_channels_destroy(d->channels);
  hg_xsec_variations_close(d->variations);
  if (d->sample) clReleaseKernel(d->sample);
  if (d->sampling_reduce) clReleaseKernel(d->sampling_reduce);
  if (d->sampling_accumulate) clReleaseKernel(d->sampling_accumulate);
  cl_mem buffers[] = {d->params,         d->pdf,
                      d->factor,         d->bins,
                      d->obs_value,      d->obs_bin,
                      d->channel_factor, d->sampling,
                      d->ps_channel,     d->sampling_partial,
                      d->sampling_sums};
  for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  hegetcl_amplitude_destroy(d->amp);
  memset(d, 0, sizeof *d);
}

hegetcl_status hg_xsec_device_sample(hg_xsec_device *d, uint32_t iteration, uint64_t first_event,
                                     size_t n_events, cl_mem grid, int fill) {
  const cl_uint first_low = (cl_uint)first_event, first_high = (cl_uint)(first_event >> 32);
  const cl_uint n = (cl_uint)n_events, it = iteration, fill_arg = fill != 0;
  cl_int err = clSetKernelArg(d->sample, 1, sizeof(cl_mem), &grid);
  err |= clSetKernelArg(d->sample, 15, sizeof(cl_uint), &fill_arg);
  err |= clSetKernelArg(d->sample, 5, sizeof(cl_uint), &it);
  err |= clSetKernelArg(d->sample, 6, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(d->sample, 7, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(d->sample, 8, sizeof(cl_uint), &n);
  hegetcl_status status =
      hg_cl_check(d->ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_XSEC_SAMPLE);
  if (status != HEGETCL_OK) return status;
  const size_t local = d->local, global = (n_events + local - 1) / local * local;
  err = clEnqueueNDRangeKernel(d->ctx->queue, d->sample, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(d->ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_XSEC_SAMPLE, n_events);
  if (status != HEGETCL_OK) return status;
  return hg_amplitude_run(d->amp, n_events, d->setup->per_helicity, NULL);
}

hegetcl_status hg_xsec_device_upload_sampling(hg_xsec_device *d, const double *table) {
  const size_t bytes = HG_SAMPLING_TABLE_SIZE(d->setup->config->process.n_photons) * sizeof(double);
  const cl_int err =
      clEnqueueWriteBuffer(d->ctx->queue, d->sampling, CL_TRUE, 0, bytes, table, 0, NULL, NULL);
  return hg_cl_check(d->ctx, err, "clEnqueueWriteBuffer",
                     "uploading the adaptive sampling's table");
}

size_t hg_xsec_device_extra_sums(const hg_xsec_device *d) {
  return (d->histograms ? hg_histograms_batch_sums(d->histograms) : 0) +
         (d->channels ? hg_channels_batch_sums(d->channels) : 0) + d->sampling_sums_count +
         hg_xsec_variations_batch_sums(d->variations);
}

/* The adaptive sampling's sums of a batch (the sampler and the amplitude done) into out. */
static hegetcl_status sampling_sums(hg_xsec_device *d, size_t n_events, double *out) {
  hegetcl_context *ctx = d->ctx;
  const cl_uint n = (cl_uint)n_events, per_group = HG_SAMPLING_PER_GROUP;
  const size_t groups = (n_events + HG_SAMPLING_PER_GROUP - 1) / HG_SAMPLING_PER_GROUP;
  const cl_uint n_groups = (cl_uint)groups, count = d->sampling_sums_count;
  cl_int err = clSetKernelArg(d->sampling_reduce, 0, sizeof(cl_mem), &d->factor);
  err |= clSetKernelArg(d->sampling_reduce, 1, sizeof(cl_mem), &d->amp->me);
  err |= clSetKernelArg(d->sampling_reduce, 2, sizeof(cl_mem), &d->amp->helicities);
  err |= clSetKernelArg(d->sampling_reduce, 3, sizeof(cl_mem), &d->ps_channel);
  err |= clSetKernelArg(d->sampling_reduce, 4, sizeof(cl_uint), &n);
  err |= clSetKernelArg(d->sampling_reduce, 5, sizeof(cl_uint), &per_group);
  err |= clSetKernelArg(d->sampling_reduce, 6, sizeof(cl_mem), &d->sampling_partial);
  err |= clSetKernelArg(d->sampling_accumulate, 0, sizeof(cl_mem), &d->sampling_partial);
  err |= clSetKernelArg(d->sampling_accumulate, 1, sizeof(cl_uint), &n_groups);
  err |= clSetKernelArg(d->sampling_accumulate, 2, sizeof(cl_uint), &count);
  err |= clSetKernelArg(d->sampling_accumulate, 3, sizeof(cl_mem), &d->sampling_sums);
  hegetcl_status status = hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments",
                                      HG_KERNEL_XSEC_SAMPLING_REDUCE);
  if (status != HEGETCL_OK) return status;
  const size_t local = HG_SAMPLING_LOCAL, global = groups * HG_SAMPLING_LOCAL;
  err = clEnqueueNDRangeKernel(ctx->queue, d->sampling_reduce, 1, NULL, &global, &local, 0, NULL,
                               NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_XSEC_SAMPLING_REDUCE, n_events);
  if (status != HEGETCL_OK) return status;
  /* histogram_accumulate stores every sum: the buffer is never cleared */
  const size_t acc_local = 64, acc_global = (count + acc_local - 1) / acc_local * acc_local;
  err = clEnqueueNDRangeKernel(ctx->queue, d->sampling_accumulate, 1, NULL, &acc_global, &acc_local,
                               0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s for the sampling sums",
                       HG_KERNEL_HISTOGRAM_ACCUMULATE);
  if (status != HEGETCL_OK) return status;
  err = clEnqueueReadBuffer(ctx->queue, d->sampling_sums, CL_TRUE, 0, count * sizeof(double), out,
                            0, NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the adaptive sampling's sums");
}

hegetcl_status hg_xsec_device_batch(hg_xsec_device *d, uint32_t iteration, int combined,
                                    uint64_t first_event, size_t n_events, double *out) {
  const int fill = d->histograms != NULL && combined;
  hegetcl_status status = hg_xsec_device_sample(d, iteration, first_event, n_events,
                                                hg_vegas_reducer_grid(d->reducer), fill);
  if (status == HEGETCL_OK) status = hg_vegas_reducer_run(d->reducer, n_events, out);
  double *extra = out + hg_vegas_batch_sums(d->setup->dims, d->setup->config->vegas.bins);
  const size_t n_hist = d->histograms ? hg_histograms_batch_sums(d->histograms) : 0;
  const size_t n_channels = d->channels ? hg_channels_batch_sums(d->channels) : 0;
  if (status == HEGETCL_OK && n_hist > 0) {
    if (fill)
      status = hg_histograms_add_batch(d->histograms, d->factor, d->amp->me, n_events, extra);
    else
      memset(extra, 0, n_hist * sizeof *extra);
  }
  if (status == HEGETCL_OK && n_channels > 0) {
    if (combined)
      status = hg_channels_add_batch(d->channels, d->amp->me, n_events, extra + n_hist);
    else
      memset(extra + n_hist, 0, n_channels * sizeof *extra);
  }
  double *learnt = extra + n_hist + n_channels;
  if (status == HEGETCL_OK && d->sampling_sums_count > 0) {
    if (!combined)
      status = sampling_sums(d, n_events, learnt);
    else
      memset(learnt, 0, d->sampling_sums_count * sizeof *learnt);
  }
  const size_t n_var = hg_xsec_variations_batch_sums(d->variations);
  double *varied = learnt + d->sampling_sums_count;
  if (status == HEGETCL_OK && n_var > 0) {
    if (combined)
      status = hg_xsec_variations_add_batch(d->variations, hg_vegas_reducer_grid(d->reducer),
                                            iteration, first_event, n_events, varied);
    else
      memset(varied, 0, n_var * sizeof *varied);
  }
  return status;
}
