/* SPDX-License-Identifier: MIT */
/* One device's VEGAS reduction: launches, the read back, and the group-by-group batch sums. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/vegas_reducer.h"
#include "shared/kernel_names.h"

/* Events per work-group of the reduction. */
#define HG_REDUCE_PER_GROUP (8 * HG_REDUCE_LOCAL)

struct hg_vegas_reducer {
  hegetcl_context *ctx;
  unsigned dims, bins;
  size_t max_groups;
  cl_kernel reduce;
  cl_mem grid, sums, hist;
  double *sums_host, *hist_host;
};

size_t hg_vegas_batch_sums(unsigned dims, unsigned bins) {
  return HG_REDUCE_SUMS + (size_t)dims * bins;
}

static hegetcl_status make_buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                                  const char *what, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags, bytes, NULL, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

hegetcl_status hg_vegas_reducer_create(hegetcl_context *ctx, cl_program program, unsigned dims,
                                       unsigned bins, size_t batch, hg_vegas_reducer **out) {
  *out = NULL;
  hg_vegas_reducer *r = calloc(1, sizeof *r);
  if (r == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for a VEGAS reducer");
  r->ctx = ctx;
  r->dims = dims;
  r->bins = bins;
  r->max_groups = (batch + HG_REDUCE_PER_GROUP - 1) / HG_REDUCE_PER_GROUP;
  const size_t n_edges = (size_t)dims * (bins + 1), n_hist = (size_t)dims * bins;
  r->sums_host = malloc(r->max_groups * HG_REDUCE_SUMS * sizeof *r->sums_host);
  r->hist_host = malloc(r->max_groups * n_hist * sizeof *r->hist_host);
  hegetcl_status status = HEGETCL_OK;
  if (r->sums_host == NULL || r->hist_host == NULL)
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no host memory for VEGAS partial sums");
  cl_int err = CL_SUCCESS;
  if (status == HEGETCL_OK) {
    r->reduce = clCreateKernel(program, HG_KERNEL_VEGAS_REDUCE, &err);
    status = hg_cl_check(ctx, err, "clCreateKernel", "creating %s", HG_KERNEL_VEGAS_REDUCE);
  }
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_ONLY, n_edges * sizeof(double), "the VEGAS grid",
                         &r->grid);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_WRITE_ONLY, r->max_groups * HG_REDUCE_SUMS * sizeof(double),
                         "VEGAS partial sums", &r->sums);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_WRITE_ONLY, r->max_groups * n_hist * sizeof(double),
                         "VEGAS partial histograms", &r->hist);
  if (status != HEGETCL_OK) {
    hg_vegas_reducer_destroy(r);
    return status;
  }
  *out = r;
  return HEGETCL_OK;
}

void hg_vegas_reducer_destroy(hg_vegas_reducer *r) {
  if (r == NULL) return;
  if (r->reduce) clReleaseKernel(r->reduce);
  if (r->grid) clReleaseMemObject(r->grid);
  if (r->sums) clReleaseMemObject(r->sums);
  if (r->hist) clReleaseMemObject(r->hist);
  free(r->sums_host);
  free(r->hist_host);
  free(r);
}

hegetcl_status hg_vegas_reducer_set_buffers(hg_vegas_reducer *r, const hg_vegas_buffers *b) {
  const cl_uint per_group = HG_REDUCE_PER_GROUP;
  const cl_uint use_me = b->me != NULL;
  const cl_mem me = b->me != NULL ? b->me : b->factor;
  cl_int err = clSetKernelArg(r->reduce, 0, sizeof(cl_mem), &b->factor);
  err |= clSetKernelArg(r->reduce, 1, sizeof(cl_mem), &me);
  err |= clSetKernelArg(r->reduce, 2, sizeof(cl_uint), &use_me);
  err |= clSetKernelArg(r->reduce, 3, sizeof(cl_mem), &b->bins);
  err |= clSetKernelArg(r->reduce, 5, sizeof(cl_uint), &per_group);
  err |= clSetKernelArg(r->reduce, 6, sizeof(cl_mem), &r->sums);
  err |= clSetKernelArg(r->reduce, 7, sizeof(cl_mem), &r->hist);
  return hg_cl_check(r->ctx, err, "clSetKernelArg", "setting %s's arguments",
                     HG_KERNEL_VEGAS_REDUCE);
}

hegetcl_status hg_vegas_reducer_upload(hg_vegas_reducer *r, const double *edges) {
  const size_t n_edges = (size_t)r->dims * (r->bins + 1);
  const cl_int err = clEnqueueWriteBuffer(r->ctx->queue, r->grid, CL_TRUE, 0,
                                          n_edges * sizeof(double), edges, 0, NULL, NULL);
  return hg_cl_check(r->ctx, err, "clEnqueueWriteBuffer", "uploading the VEGAS grid");
}

cl_mem hg_vegas_reducer_grid(const hg_vegas_reducer *r) { return r->grid; }

hegetcl_status hg_vegas_reducer_run(hg_vegas_reducer *r, size_t n_events, double *out) {
  hegetcl_context *ctx = r->ctx;
  const cl_uint n = (cl_uint)n_events;
  const size_t groups = (n_events + HG_REDUCE_PER_GROUP - 1) / HG_REDUCE_PER_GROUP;
  cl_int err = clSetKernelArg(r->reduce, 4, sizeof(cl_uint), &n);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's event count", HG_KERNEL_VEGAS_REDUCE);
  if (status != HEGETCL_OK) return status;
  const size_t local = HG_REDUCE_LOCAL, global = groups * HG_REDUCE_LOCAL;
  err = clEnqueueNDRangeKernel(ctx->queue, r->reduce, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_VEGAS_REDUCE, n_events);
  if (status != HEGETCL_OK) return status;
  const size_t n_hist = (size_t)r->dims * r->bins;
  err = clEnqueueReadBuffer(ctx->queue, r->sums, CL_FALSE, 0,
                            groups * HG_REDUCE_SUMS * sizeof(double), r->sums_host, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(ctx->queue, r->hist, CL_TRUE, 0, groups * n_hist * sizeof(double),
                             r->hist_host, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading VEGAS partial sums");
  if (status != HEGETCL_OK) return status;
  /* fixed order: group by group */
  memset(out, 0, hg_vegas_batch_sums(r->dims, r->bins) * sizeof *out);
  double *d = out + HG_REDUCE_SUMS;
  for (size_t g = 0; g < groups; ++g) {
    for (int k = 0; k < HG_REDUCE_MAX; ++k) out[k] += r->sums_host[g * HG_REDUCE_SUMS + k];
    out[HG_REDUCE_MAX] = fmax(out[HG_REDUCE_MAX], r->sums_host[g * HG_REDUCE_SUMS + HG_REDUCE_MAX]);
    const double *h = r->hist_host + g * n_hist;
    for (size_t i = 0; i < n_hist; ++i) d[i] += h[i];
  }
  return HEGETCL_OK;
}
