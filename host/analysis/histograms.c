/* SPDX-License-Identifier: MIT */
/* Histograms: booking, device reduction launches, and the combination over iterations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/histogram_layout.h"
#include "analysis/histograms.h"
#include "analysis/observables.h"
#include "core/program.h"
#include "shared/kernel_names.h"

/* Events per work-group of the reduction. */
#define HG_HIST_PER_GROUP 2048

struct hg_histograms {
  hegetcl_context *ctx;
  unsigned n;
  size_t count, total_bins, batch, max_groups;
  cl_kernel reduce, accumulate;
  cl_mem partial, accumulator, params, obs_value, obs_bin;
  double weight_total;     /* sum of 1 / variance over the combined iterations */
  double *mean, *mean_var; /* per bin and sum: the weighted sums of estimates and their variances */
  hegetcl_histogram *histograms;
};

static const char *const family_names[HG_OBS_FAMILIES] = {"pT", "eta", "Delta R", "mass"};

void hegetcl_histogram_binning_defaults(hegetcl_histogram_binning *b) {
  b->pt_gev = (hegetcl_bins){50, 0.0, 500.0};
  b->eta = (hegetcl_bins){50, -2.5, 2.5};
  b->delta_r = (hegetcl_bins){50, 0.0, 6.0};
  b->mass_gev = (hegetcl_bins){50, 0.0, 2000.0};
}

static const hegetcl_bins *family_bins(const hegetcl_histogram_binning *b, int family) {
  const hegetcl_bins *all[HG_OBS_FAMILIES] = {&b->pt_gev, &b->eta, &b->delta_r, &b->mass_gev};
  return all[family];
}

hegetcl_status hg_histograms_check(hegetcl_context *ctx, const hegetcl_histogram_binning *binning) {
  for (int f = 0; f < HG_OBS_FAMILIES; ++f) {
    const hegetcl_bins *b = family_bins(binning, f);
    if (b->bins < 1 || b->bins > HG_OBS_MAX_BINS)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "%s histograms: %u bins: must be 1 .. %d (the device reduction gives each "
                     "work-item two of %d bins with the underflow and overflow)",
                     family_names[f], b->bins, HG_OBS_MAX_BINS, HG_OBS_MAX_BINS + 2);
    if (!isfinite(b->lo) || !isfinite(b->hi) || !(b->hi > b->lo))
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "%s histograms: range [%g, %g): the upper edge must be a finite number above "
                     "the lower",
                     family_names[f], b->lo, b->hi);
  }
  return HEGETCL_OK;
}

size_t hg_histograms_fills(unsigned n_photons) { return (size_t)HG_OBS_FILLS((int)n_photons); }

void hegetcl_histograms_free(hegetcl_histogram *h, size_t count) {
  if (h == NULL) return;
  for (size_t i = 0; i < count; ++i) free(h[i].sumw); /* one block per histogram */
  free(h);
}

/* Names, titles and arrays of the histograms of n photons. */
static hegetcl_histogram *book(unsigned n, const hegetcl_histogram_binning *binning) {
  const int count = HG_OBS_HISTOGRAMS((int)n);
  hegetcl_histogram *hs = calloc((size_t)count, sizeof *hs);
  if (hs == NULL) return NULL;
  for (int h = 0; h < count; ++h) {
    hegetcl_histogram *x = &hs[h];
    const int family = hg_obs_family(h, (int)n);
    const hegetcl_bins *b = family_bins(binning, family);
    x->bins = b->bins;
    x->lo = b->lo;
    x->hi = b->hi;
    if (h < (int)n) {
      snprintf(x->name, sizeof x->name, "pt_%d", h + 1);
      snprintf(x->title, sizeof x->title, "pT of the photon ranked %d in pT", h + 1);
      snprintf(x->x_label, sizeof x->x_label, "pT [GeV]");
    } else if (h < 2 * (int)n) {
      snprintf(x->name, sizeof x->name, "eta_%d", h - (int)n + 1);
      snprintf(x->title, sizeof x->title, "pseudorapidity of the photon ranked %d in pT",
               h - (int)n + 1);
      snprintf(x->x_label, sizeof x->x_label, "eta");
    } else if (h == 2 * (int)n) {
      snprintf(x->name, sizeof x->name, "dr_min");
      snprintf(x->title, sizeof x->title, "smallest Delta R between two photons");
      snprintf(x->x_label, sizeof x->x_label, "Delta R");
    } else if (h == 2 * (int)n + 1) {
      snprintf(x->name, sizeof x->name, "dr_pairs");
      snprintf(x->title, sizeof x->title, "Delta R of every photon pair (%d per event)",
               HG_OBS_PAIRS((int)n));
      snprintf(x->x_label, sizeof x->x_label, "Delta R");
    } else {
      snprintf(x->name, sizeof x->name, "m_photons");
      snprintf(x->title, sizeof x->title, "invariant mass of the %u photons", n);
      snprintf(x->x_label, sizeof x->x_label, "m [GeV]");
    }
    const size_t cells = (size_t)b->bins + 2;
    double *block = calloc(5 * cells, sizeof *block);
    if (block == NULL) {
      hegetcl_histograms_free(hs, (size_t)count);
      return NULL;
    }
    x->sumw = block;
    x->sumw2 = block + cells;
    x->sumwx = block + 2 * cells;
    x->sumwx2 = block + 3 * cells;
    x->entries = block + 4 * cells;
  }
  return hs;
}

hegetcl_status hg_histograms_create(hegetcl_context *ctx, cl_program program, unsigned n_photons,
                                    const hegetcl_histogram_binning *binning, size_t batch,
                                    cl_mem params, cl_mem obs_value, cl_mem obs_bin,
                                    hg_histograms **out) {
  *out = NULL;
  hegetcl_status status = hg_histograms_check(ctx, binning);
  if (status != HEGETCL_OK) return status;
  hg_histograms *h = calloc(1, sizeof *h);
  if (h == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms");
  h->ctx = ctx;
  h->n = n_photons;
  h->count = (size_t)HG_OBS_HISTOGRAMS((int)n_photons);
  h->batch = batch;
  h->params = params;
  h->obs_value = obs_value;
  h->obs_bin = obs_bin;
  h->histograms = book(n_photons, binning);
  for (size_t k = 0; h->histograms != NULL && k < h->count; ++k)
    h->total_bins += h->histograms[k].bins + 2;
  const size_t cells = h->total_bins * HG_HIST_SUMS;
  h->max_groups = (batch + HG_HIST_PER_GROUP - 1) / HG_HIST_PER_GROUP;
  h->mean = calloc(cells, sizeof *h->mean);
  h->mean_var = calloc(cells, sizeof *h->mean_var);
  if (h->histograms == NULL || !h->mean || !h->mean_var) {
    hg_histograms_destroy(h);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for %zu histograms", h->count);
  }
  status = hg_kernel_create(ctx, program, HG_KERNEL_HISTOGRAM_REDUCE, &h->reduce);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, program, HG_KERNEL_HISTOGRAM_ACCUMULATE, &h->accumulate);
  cl_int err = CL_SUCCESS;
  if (status == HEGETCL_OK) {
    h->partial = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE,
                                h->max_groups * cells * sizeof(double), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating partial histograms (%zu bytes)",
                         h->max_groups * cells * sizeof(double));
  }
  if (status == HEGETCL_OK) {
    h->accumulator = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, cells * sizeof(double), NULL,
                                    &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the histogram sums");
  }
  if (status != HEGETCL_OK) {
    hg_histograms_destroy(h);
    return status;
  }
  *out = h;
  return HEGETCL_OK;
}

void hg_histograms_destroy(hg_histograms *h) {
  if (h == NULL) return;
  if (h->reduce) clReleaseKernel(h->reduce);
  if (h->accumulate) clReleaseKernel(h->accumulate);
  if (h->partial) clReleaseMemObject(h->partial);
  if (h->accumulator) clReleaseMemObject(h->accumulator);
  hegetcl_histograms_free(h->histograms, h->count);
  free(h->mean);
  free(h->mean_var);
  free(h);
}

size_t hg_histograms_batch_sums(const hg_histograms *h) { return h->total_bins * HG_HIST_SUMS; }

hegetcl_status hg_histograms_add_batch(hg_histograms *h, cl_mem factor, cl_mem me,
                                       size_t n_events, double *out) {
  hegetcl_context *ctx = h->ctx;
  const cl_uint n = (cl_uint)n_events, per_group = HG_HIST_PER_GROUP;
  const cl_uint total = (cl_uint)h->total_bins, cells = (cl_uint)(h->total_bins * HG_HIST_SUMS);
  const size_t groups = (n_events + HG_HIST_PER_GROUP - 1) / HG_HIST_PER_GROUP;
  const cl_uint n_groups = (cl_uint)groups;
  cl_int err = clSetKernelArg(h->reduce, 0, sizeof(cl_mem), &h->params);
  err |= clSetKernelArg(h->reduce, 1, sizeof(cl_mem), &factor);
  err |= clSetKernelArg(h->reduce, 2, sizeof(cl_mem), &me);
  err |= clSetKernelArg(h->reduce, 3, sizeof(cl_mem), &h->obs_value);
  err |= clSetKernelArg(h->reduce, 4, sizeof(cl_mem), &h->obs_bin);
  err |= clSetKernelArg(h->reduce, 5, sizeof(cl_uint), &n);
  err |= clSetKernelArg(h->reduce, 6, sizeof(cl_uint), &per_group);
  err |= clSetKernelArg(h->reduce, 7, sizeof(cl_uint), &total);
  err |= clSetKernelArg(h->reduce, 8, sizeof(cl_mem), &h->partial);
  err |= clSetKernelArg(h->accumulate, 0, sizeof(cl_mem), &h->partial);
  err |= clSetKernelArg(h->accumulate, 1, sizeof(cl_uint), &n_groups);
  err |= clSetKernelArg(h->accumulate, 2, sizeof(cl_uint), &cells);
  err |= clSetKernelArg(h->accumulate, 3, sizeof(cl_mem), &h->accumulator);
  hegetcl_status status = hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments",
                                      HG_KERNEL_HISTOGRAM_REDUCE);
  if (status != HEGETCL_OK) return status;
  const size_t local[2] = {HG_HIST_LOCAL, 1}, global[2] = {groups * HG_HIST_LOCAL, h->count};
  err = clEnqueueNDRangeKernel(ctx->queue, h->reduce, 2, NULL, global, local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_HISTOGRAM_REDUCE, n_events);
  if (status != HEGETCL_OK) return status;
  /* histogram_accumulate stores every cell: the buffer is never cleared */
  const size_t acc_local = 64, acc_global = (cells + acc_local - 1) / acc_local * acc_local;
  err = clEnqueueNDRangeKernel(ctx->queue, h->accumulate, 1, NULL, &acc_global, &acc_local, 0,
                               NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s",
                       HG_KERNEL_HISTOGRAM_ACCUMULATE);
  if (status != HEGETCL_OK) return status;
  err = clEnqueueReadBuffer(ctx->queue, h->accumulator, CL_TRUE, 0, cells * sizeof(double), out, 0,
                            NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the histograms");
}

/* The combination so far, into the histograms. */
static void publish(hg_histograms *h) {
  size_t b = 0;
  for (size_t k = 0; k < h->count; ++k) {
    hegetcl_histogram *x = &h->histograms[k];
    for (unsigned i = 0; i < x->bins + 2; ++i, ++b) {
      const double *m = h->mean + b * HG_HIST_SUMS, *v = h->mean_var + b * HG_HIST_SUMS;
      x->sumw[i] = m[0] / h->weight_total;
      x->sumw2[i] = v[0] / (h->weight_total * h->weight_total);
      x->sumwx[i] = m[2] / h->weight_total;
      x->sumwx2[i] = m[3] / h->weight_total;
      x->entries[i] = m[4];
    }
  }
}

size_t hg_histograms_state_size(const hg_histograms *h) {
  return 1 + 2 * h->total_bins * HG_HIST_SUMS;
}

void hg_histograms_save_state(const hg_histograms *h, double *state) {
  const size_t cells = h->total_bins * HG_HIST_SUMS;
  state[0] = h->weight_total;
  memcpy(state + 1, h->mean, cells * sizeof *state);
  memcpy(state + 1 + cells, h->mean_var, cells * sizeof *state);
}

void hg_histograms_load_state(hg_histograms *h, const double *state) {
  const size_t cells = h->total_bins * HG_HIST_SUMS;
  h->weight_total = state[0];
  memcpy(h->mean, state + 1, cells * sizeof *state);
  memcpy(h->mean_var, state + 1 + cells, cells * sizeof *state);
  if (h->weight_total > 0.0) publish(h);
}

void hg_histograms_end_iteration(hg_histograms *h, uint64_t n_events, double variance,
                                 const double *sums) {
  /* Per bin the iteration estimates E[w 1_bin] (and E[w x 1_bin], E[w x^2 1_bin]) with the
   * variance of a mean; iterations are weighted like the cross section, so the histograms add up
   * to the combined sigma. */
  const double n = (double)n_events, a = 1.0 / variance;
  h->weight_total += a;
  for (size_t b = 0; b < h->total_bins; ++b) {
    const double *s = sums + b * HG_HIST_SUMS;
    double *m = h->mean + b * HG_HIST_SUMS, *v = h->mean_var + b * HG_HIST_SUMS;
    const double mean_w = s[0] / n;
    const double var_w = fmax(s[1] / n - mean_w * mean_w, 0.0) / (n - 1.0);
    m[0] += a * mean_w;
    v[0] += a * a * var_w;
    m[2] += a * s[2] / n;
    m[3] += a * s[3] / n;
    m[4] += s[4]; /* entries: a count over every combined iteration */
  }
  publish(h);
}

hegetcl_histogram *hg_histograms_take(hg_histograms *h, size_t *count) {
  hegetcl_histogram *out = h->histograms;
  *count = h->count;
  h->histograms = NULL;
  return out;
}
