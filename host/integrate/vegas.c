/* SPDX-License-Identifier: MIT */
/* VEGAS: device reduction launches, grid refinement, the inverse-variance combination, and the
 * state between iterations that a checkpoint saves. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/reduce_layout.h"
#include "integrate/vegas.h"
#include "io/checkpoint_file.h"
#include "shared/kernel_names.h"
/* Events per work-group of the reduction. */
#define HG_REDUCE_PER_GROUP (8 * HG_REDUCE_LOCAL)

struct hg_vegas {
  hegetcl_context *ctx;
  hegetcl_vegas_settings settings;
  unsigned dims, bins;
  cl_kernel reduce;
  cl_mem grid, sums, hist;
  size_t max_groups;
  double *edges, *d, *scratch, *sums_host, *hist_host;
  double *estimates, *variances; /* of the combined iterations */
  double *last_edges;            /* the grid the latest iteration sampled with */
  double last_max_weight;        /* and its largest weight */
  hg_vegas_iteration_end observer;
  void *observer_user;
  /* the progress of the integration: what a checkpoint saves */
  uint32_t index;               /* iterations done, adapting included */
  unsigned combined;            /* combined iterations done */
  int done;                     /* the integration is complete */
  double inv_sum, weighted;     /* sums of 1 / variance and estimate / variance */
  hegetcl_vegas_result result;  /* so far */
  hegetcl_vegas_iteration *its; /* every iteration done */
  size_t cap_its;
  hg_vegas_checkpoint checkpoint;
  void *checkpoint_user;
  const volatile sig_atomic_t *stop;
  int stopped;
};

void hegetcl_vegas_settings_defaults(hegetcl_vegas_settings *s) {
  s->bins = 64;
  s->alpha = 1.5;
  s->adapt_iterations = 5;
  s->adapt_events = 200000;
  s->events_per_iteration = 1000000;
  s->min_iterations = 3;
  s->max_iterations = 100;
  s->max_events = 1000000000;
  s->target_rel_error = 2e-3;
  s->batch_size = (size_t)1 << 20;
  s->seed = 1;
}

const double *hg_vegas_edges(const hg_vegas *v) { return v->edges; }

static hegetcl_status check_settings(hegetcl_context *ctx, const hegetcl_vegas_settings *s) {
  if (s->bins < 2 || s->bins > 255)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "VEGAS bins = %u: must be between 2 and 255 (bin indices are stored as bytes)",
                   s->bins);
  if (!(s->alpha >= 0.0) || !isfinite(s->alpha))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "VEGAS alpha = %g: must be a finite number >= 0",
                   s->alpha);
  if (s->events_per_iteration < 2 || (s->adapt_iterations > 0 && s->adapt_events < 2))
    return hg_fail(
        ctx, HEGETCL_ERR_INPUT, "events per iteration must be at least 2 (got %llu, adapting %llu)",
        (unsigned long long)s->events_per_iteration, (unsigned long long)s->adapt_events);
  if (s->max_iterations < 1 || s->min_iterations > s->max_iterations)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "iterations: min %u, max %u: max must be at least 1 and at least min",
                   s->min_iterations, s->max_iterations);
  if (!(s->target_rel_error >= 0.0))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "target relative error = %g: must be >= 0",
                   s->target_rel_error);
  if (s->batch_size < HG_REDUCE_LOCAL || s->batch_size > UINT32_MAX / 2)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "batch size %zu: must be between %d and %u",
                   s->batch_size, HG_REDUCE_LOCAL, UINT32_MAX / 2);
  return HEGETCL_OK;
}

hegetcl_status hg_vegas_create(hegetcl_context *ctx, cl_program program, unsigned dims,
                               const hegetcl_vegas_settings *settings, hg_vegas **out) {
  *out = NULL;
  hegetcl_status status = check_settings(ctx, settings);
  if (status != HEGETCL_OK) return status;
  hg_vegas *v = calloc(1, sizeof *v);
  if (v == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the VEGAS state");
  v->ctx = ctx;
  v->settings = *settings;
  v->dims = dims;
  v->bins = settings->bins;
  const size_t batch = settings->batch_size;
  v->max_groups = (batch + HG_REDUCE_PER_GROUP - 1) / HG_REDUCE_PER_GROUP;
  const size_t n_edges = (size_t)dims * (v->bins + 1), n_hist = (size_t)dims * v->bins;
  v->edges = malloc(n_edges * sizeof *v->edges);
  v->d = malloc(n_hist * sizeof *v->d);
  v->scratch = malloc(2 * ((size_t)v->bins + 1) * sizeof *v->scratch);
  v->sums_host = malloc(v->max_groups * HG_REDUCE_SUMS * sizeof *v->sums_host);
  v->hist_host = malloc(v->max_groups * n_hist * sizeof *v->hist_host);
  v->estimates = malloc(settings->max_iterations * sizeof *v->estimates);
  v->variances = malloc(settings->max_iterations * sizeof *v->variances);
  v->last_edges = malloc(n_edges * sizeof *v->last_edges);
  if (!v->edges || !v->d || !v->scratch || !v->sums_host || !v->hist_host || !v->estimates ||
      !v->variances || !v->last_edges) {
    hg_vegas_destroy(v);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no host memory for a VEGAS grid of %u x %u", dims,
                   v->bins);
  }
  for (unsigned j = 0; j < dims; ++j)
    for (unsigned i = 0; i <= v->bins; ++i)
      v->edges[(size_t)j * (v->bins + 1) + i] = (double)i / (double)v->bins;
  cl_int err = CL_SUCCESS;
  v->reduce = clCreateKernel(program, HG_KERNEL_VEGAS_REDUCE, &err);
  status = hg_cl_check(ctx, err, "clCreateKernel", "creating %s", HG_KERNEL_VEGAS_REDUCE);
  if (status == HEGETCL_OK) {
    v->grid = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY, n_edges * sizeof(double), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the VEGAS grid");
  }
  if (status == HEGETCL_OK) {
    v->sums = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY,
                             v->max_groups * HG_REDUCE_SUMS * sizeof(double), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating VEGAS partial sums");
  }
  if (status == HEGETCL_OK) {
    v->hist = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY,
                             v->max_groups * n_hist * sizeof(double), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating VEGAS partial histograms");
  }
  if (status != HEGETCL_OK) {
    hg_vegas_destroy(v);
    return status;
  }
  *out = v;
  return HEGETCL_OK;
}

void hg_vegas_destroy(hg_vegas *v) {
  if (v == NULL) return;
  if (v->reduce) clReleaseKernel(v->reduce);
  if (v->grid) clReleaseMemObject(v->grid);
  if (v->sums) clReleaseMemObject(v->sums);
  if (v->hist) clReleaseMemObject(v->hist);
  free(v->edges);
  free(v->d);
  free(v->scratch);
  free(v->sums_host);
  free(v->hist_host);
  free(v->estimates);
  free(v->variances);
  free(v->last_edges);
  free(v->its);
  free(v);
}

void hg_vegas_refine_dimension(double *edges, const double *d, unsigned bins, double alpha,
                               double *scratch) {
  double *smooth = scratch, *share = scratch + bins;
  /* neighbour smoothing, as Lepage's VEGAS */
  double total = 0.0;
  for (unsigned i = 0; i < bins; ++i) {
    const double left = i > 0 ? d[i - 1] : d[i], right = i + 1 < bins ? d[i + 1] : d[i];
    smooth[i] = (i == 0 || i + 1 == bins) ? 0.5 * (d[i] + (i == 0 ? right : left))
                                          : (left + d[i] + right) / 3.0;
    total += smooth[i];
  }
  if (!(total > 0.0)) return; /* nothing seen: keep the grid */
  double share_total = 0.0;
  for (unsigned i = 0; i < bins; ++i) {
    const double r = smooth[i] / total;
    /* ((r - 1) / ln r)^alpha, with its limits 0 at r = 0 and 1 at r = 1 */
    share[i] = r > 0.0 ? (r < 1.0 ? pow((r - 1.0) / log(r), alpha) : 1.0) : 0.0;
    share_total += share[i];
  }
  const double per_bin = share_total / bins;
  /* new edges where the cumulative share crosses multiples of per_bin; old bins are filled
   * uniformly */
  double *next = smooth; /* reuse: new interior edges 1 .. bins - 1 */
  unsigned k = 0;
  double acc = 0.0;
  for (unsigned i = 1; i < bins; ++i) {
    const double want = per_bin * i;
    while (k < bins - 1 && acc + share[k] < want) acc += share[k++];
    const double frac = share[k] > 0.0 ? (want - acc) / share[k] : 0.0;
    next[i] = edges[k] + (frac < 1.0 ? frac : 1.0) * (edges[k + 1] - edges[k]);
  }
  for (unsigned i = 1; i < bins; ++i) edges[i] = next[i];
  edges[0] = 0.0;
  edges[bins] = 1.0;
}

/* The reduction's arguments that stay for a whole integration: every one but the event count. */
static hegetcl_status set_reduce_args(hg_vegas *v, const hg_vegas_buffers *b) {
  const cl_uint per_group = HG_REDUCE_PER_GROUP;
  const cl_uint use_me = b->me != NULL;
  const cl_mem me = b->me != NULL ? b->me : b->factor;
  cl_int err = clSetKernelArg(v->reduce, 0, sizeof(cl_mem), &b->factor);
  err |= clSetKernelArg(v->reduce, 1, sizeof(cl_mem), &me);
  err |= clSetKernelArg(v->reduce, 2, sizeof(cl_uint), &use_me);
  err |= clSetKernelArg(v->reduce, 3, sizeof(cl_mem), &b->bins);
  err |= clSetKernelArg(v->reduce, 5, sizeof(cl_uint), &per_group);
  err |= clSetKernelArg(v->reduce, 6, sizeof(cl_mem), &v->sums);
  err |= clSetKernelArg(v->reduce, 7, sizeof(cl_mem), &v->hist);
  return hg_cl_check(v->ctx, err, "clSetKernelArg", "setting %s's arguments",
                     HG_KERNEL_VEGAS_REDUCE);
}

static hegetcl_status reduce_batch(hg_vegas *v, size_t n_events, double sums[HG_REDUCE_SUMS]) {
  hegetcl_context *ctx = v->ctx;
  const cl_uint n = (cl_uint)n_events;
  const size_t groups = (n_events + HG_REDUCE_PER_GROUP - 1) / HG_REDUCE_PER_GROUP;
  cl_int err = clSetKernelArg(v->reduce, 4, sizeof(cl_uint), &n);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's event count", HG_KERNEL_VEGAS_REDUCE);
  if (status != HEGETCL_OK) return status;
  const size_t local = HG_REDUCE_LOCAL, global = groups * HG_REDUCE_LOCAL;
  err = clEnqueueNDRangeKernel(ctx->queue, v->reduce, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_VEGAS_REDUCE, n_events);
  if (status != HEGETCL_OK) return status;
  const size_t n_hist = (size_t)v->dims * v->bins;
  err = clEnqueueReadBuffer(ctx->queue, v->sums, CL_FALSE, 0,
                            groups * HG_REDUCE_SUMS * sizeof(double), v->sums_host, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(ctx->queue, v->hist, CL_TRUE, 0, groups * n_hist * sizeof(double),
                             v->hist_host, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading VEGAS partial sums");
  if (status != HEGETCL_OK) return status;
  /* fixed order: group by group */
  for (size_t g = 0; g < groups; ++g) {
    for (int k = 0; k < HG_REDUCE_MAX; ++k) sums[k] += v->sums_host[g * HG_REDUCE_SUMS + k];
    sums[HG_REDUCE_MAX] =
        fmax(sums[HG_REDUCE_MAX], v->sums_host[g * HG_REDUCE_SUMS + HG_REDUCE_MAX]);
    const double *h = v->hist_host + g * n_hist;
    for (size_t i = 0; i < n_hist; ++i) v->d[i] += h[i];
  }
  return HEGETCL_OK;
}

/* Uploads edges (the grid or the last iteration's) into the device grid. */
static hegetcl_status upload_grid(hg_vegas *v, const double *edges) {
  const size_t n_edges = (size_t)v->dims * (v->bins + 1);
  const cl_int err = clEnqueueWriteBuffer(v->ctx->queue, v->grid, CL_TRUE, 0,
                                          n_edges * sizeof(double), edges, 0, NULL, NULL);
  return hg_cl_check(v->ctx, err, "clEnqueueWriteBuffer", "uploading the VEGAS grid");
}

void hg_vegas_set_observer(hg_vegas *v, hg_vegas_iteration_end observer, void *user) {
  v->observer = observer;
  v->observer_user = user;
}

double hg_vegas_last_max_weight(const hg_vegas *v) { return v->last_max_weight; }

hegetcl_status hg_vegas_upload_last_grid(hg_vegas *v, cl_mem *grid) {
  *grid = v->grid;
  return upload_grid(v, v->last_edges);
}

/* One iteration of n_events: samples in batches, reduces, tells the observer, refines the grid. */
static hegetcl_status iterate(hg_vegas *v, uint32_t index, int adapting, uint64_t n_events,
                              hg_vegas_sampler sampler, void *user, double *estimate,
                              double *variance, uint64_t *nonzero) {
  hegetcl_status status = upload_grid(v, v->edges);
  if (status != HEGETCL_OK) return status;
  memset(v->d, 0, (size_t)v->dims * v->bins * sizeof *v->d);
  double sums[HG_REDUCE_SUMS] = {0.0, 0.0, 0.0, 0.0, 0.0};
  for (uint64_t first = 0; first < n_events; first += v->settings.batch_size) {
    if (v->stop != NULL && *v->stop != 0) {
      v->stopped = 1; /* the unfinished iteration is dropped: its sums are not used */
      return HEGETCL_OK;
    }
    const uint64_t left = n_events - first;
    const size_t batch = left < v->settings.batch_size ? (size_t)left : v->settings.batch_size;
    status = sampler(user, index, first, batch, v->grid);
    if (status == HEGETCL_OK) status = reduce_batch(v, batch, sums);
    if (status != HEGETCL_OK) return status;
  }
  if (sums[3] > 0.0)
    return hg_fail(v->ctx, HEGETCL_ERR_NONFINITE,
                   "iteration %u: %.0f of %llu events have a non-finite weight (left out of no "
                   "estimate: the run stops)",
                   index, sums[3], (unsigned long long)n_events);
  const double n = (double)n_events;
  const double mean = sums[0] / n;
  *estimate = mean;
  *variance = fmax(sums[1] / n - mean * mean, 0.0) / (n - 1.0);
  *nonzero = (uint64_t)sums[2];
  if (sums[2] == 0.0)
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "iteration %u: none of %llu events has a non-zero weight: the cuts leave no "
                   "phase space (loosen them or raise the collider energy)",
                   index, (unsigned long long)n_events);
  memcpy(v->last_edges, v->edges, (size_t)v->dims * (v->bins + 1) * sizeof *v->edges);
  v->last_max_weight = sums[HG_REDUCE_MAX];
  if (v->observer) {
    status = v->observer(v->observer_user, index, adapting, n_events, *estimate, *variance);
    if (status != HEGETCL_OK) return status;
  }
  for (unsigned j = 0; j < v->dims; ++j)
    hg_vegas_refine_dimension(v->edges + (size_t)j * (v->bins + 1), v->d + (size_t)j * v->bins,
                              v->bins, v->settings.alpha, v->scratch);
  return HEGETCL_OK;
}

void hg_vegas_set_checkpoint(hg_vegas *v, hg_vegas_checkpoint checkpoint, void *user) {
  v->checkpoint = checkpoint;
  v->checkpoint_user = user;
}

void hg_vegas_set_stop(hg_vegas *v, const volatile sig_atomic_t *stop) { v->stop = stop; }

int hg_vegas_stopped(const hg_vegas *v) { return v->stopped; }

int hg_vegas_done(const hg_vegas *v) { return v->done; }

uint32_t hg_vegas_iterations_done(const hg_vegas *v) { return v->index; }

/* Keeps the record of an iteration (for the checkpoint and a resumed run's progress). */
static hegetcl_status keep_iteration(hg_vegas *v, const hegetcl_vegas_iteration *it) {
  if (it->index >= v->cap_its) {
    const size_t cap = v->cap_its ? 2 * v->cap_its : 64;
    hegetcl_vegas_iteration *grown = realloc(v->its, cap * sizeof *grown);
    if (grown == NULL) return hg_fail(v->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for iterations");
    v->its = grown;
    v->cap_its = cap;
  }
  v->its[it->index] = *it;
  return HEGETCL_OK;
}

hegetcl_status hg_vegas_integrate(hg_vegas *v, hg_vegas_sampler sampler, void *user,
                                  const hg_vegas_buffers *buffers, hegetcl_vegas_progress progress,
                                  void *progress_user, hegetcl_vegas_result *result) {
  const hegetcl_vegas_settings *s = &v->settings;
  memset(result, 0, sizeof *result);
  hegetcl_status status = set_reduce_args(v, buffers);
  if (status != HEGETCL_OK) return status;
  v->stopped = 0;
  /* the iterations done before a resume, as they were */
  for (uint32_t i = 0; progress != NULL && i < v->index; ++i) {
    hegetcl_vegas_iteration it = v->its[i];
    it.restored = 1;
    progress(&it, progress_user);
  }
  hegetcl_vegas_result *r = &v->result;
  const double start = hg_now_seconds(), before = r->wall_seconds;
  while (!v->done) {
    const int adapting = v->index < s->adapt_iterations;
    if (!adapting && !(v->combined < s->max_iterations &&
                       r->events + s->events_per_iteration <= s->max_events)) {
      v->done = 1;
      break;
    }
    const uint64_t n_events = adapting ? s->adapt_events : s->events_per_iteration;
    const double t0 = hg_now_seconds();
    double estimate = 0.0, variance = 0.0;
    uint64_t nonzero = 0;
    status =
        iterate(v, v->index, adapting, n_events, sampler, user, &estimate, &variance, &nonzero);
    if (status != HEGETCL_OK) return status;
    if (v->stopped) break;
    hegetcl_vegas_iteration it = {.index = v->index,
                                  .adapting = adapting,
                                  .events = n_events,
                                  .events_nonzero = nonzero,
                                  .estimate = estimate,
                                  .error = sqrt(variance),
                                  .variance = variance,
                                  .max_weight = v->last_max_weight};
    ++v->index;
    r->events_total += n_events;
    if (!adapting) {
      if (!(variance > 0.0))
        return hg_fail(v->ctx, HEGETCL_ERR_NONFINITE,
                       "iteration %u has zero variance (estimate %g): every weight was equal, so "
                       "no error can be given; use more events per iteration",
                       v->index - 1, estimate);
      v->estimates[v->combined] = estimate;
      v->variances[v->combined] = variance;
      const unsigned k = ++v->combined;
      v->inv_sum += 1.0 / variance;
      v->weighted += estimate / variance;
      const double combined = v->weighted / v->inv_sum;
      double chi2 = 0.0;
      for (unsigned i = 0; i < k; ++i)
        chi2 += (v->estimates[i] - combined) * (v->estimates[i] - combined) / v->variances[i];
      r->estimate = combined;
      r->error = sqrt(1.0 / v->inv_sum);
      r->chi2_per_dof = k > 1 ? chi2 / (k - 1) : 0.0;
      r->iterations = k;
      r->events += n_events;
      r->events_nonzero += nonzero;
      it.combined = combined;
      it.combined_error = r->error;
      it.chi2_per_dof = r->chi2_per_dof;
      it.combined_iterations = k;
      if (k >= s->min_iterations && r->error <= s->target_rel_error * fabs(combined)) {
        r->reached_target = 1;
        v->done = 1;
      }
    }
    it.seconds = hg_now_seconds() - t0;
    status = keep_iteration(v, &it);
    if (status != HEGETCL_OK) return status;
    if (progress) progress(&it, progress_user);
    r->wall_seconds = before + (hg_now_seconds() - start);
    if (v->checkpoint) {
      status = v->checkpoint(v->checkpoint_user);
      if (status != HEGETCL_OK) return status;
    }
  }
  r->wall_seconds = before + (hg_now_seconds() - start);
  r->max_weight = v->last_max_weight;
  *result = *r;
  if (v->stopped) return HEGETCL_OK;
  if (v->combined == 0)
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "max events %llu is below events per iteration %llu: no iteration could run",
                   (unsigned long long)s->max_events, (unsigned long long)s->events_per_iteration);
  return HEGETCL_OK;
}

void hg_vegas_save(const hg_vegas *v, hg_ckpt_writer *w) {
  const hegetcl_vegas_result *r = &v->result;
  const size_t n_edges = (size_t)v->dims * (v->bins + 1);
  hg_ckpt_put(w, "vegas.grid", "%u %u", v->dims, v->bins);
  hg_ckpt_put(w, "vegas.progress", "%u %u %d %llu %llu %llu %d", (unsigned)v->index, v->combined,
              v->done, (unsigned long long)r->events, (unsigned long long)r->events_total,
              (unsigned long long)r->events_nonzero, r->reached_target);
  const double sums[] = {v->inv_sum,      v->weighted,     r->estimate,       r->error,
                         r->chi2_per_dof, r->wall_seconds, v->last_max_weight};
  hg_ckpt_put_reals(w, "vegas.sums", sums, sizeof sums / sizeof *sums);
  hg_ckpt_put_reals(w, "vegas.edges", v->edges, n_edges);
  hg_ckpt_put_reals(w, "vegas.last_edges", v->last_edges, n_edges);
  hg_ckpt_put_reals(w, "vegas.estimates", v->estimates, v->combined);
  hg_ckpt_put_reals(w, "vegas.variances", v->variances, v->combined);
  for (uint32_t i = 0; i < v->index; ++i) {
    const hegetcl_vegas_iteration *it = &v->its[i];
    hg_ckpt_put(w, "vegas.iteration", "%u %d %llu %llu %u %a %a %a %a %a %a %a %a", it->index,
                it->adapting, (unsigned long long)it->events,
                (unsigned long long)it->events_nonzero, it->combined_iterations, it->estimate,
                it->error, it->variance, it->combined, it->combined_error, it->chi2_per_dof,
                it->max_weight, it->seconds);
  }
}

hegetcl_status hg_vegas_load(hg_vegas *v, hg_ckpt *c) {
  const hegetcl_vegas_settings *s = &v->settings;
  hegetcl_vegas_result *r = &v->result;
  uint64_t dims = 0, bins = 0, index = 0, combined = 0, done = 0, reached = 0;
  double sums[7];
  int status = hg_ckpt_scan(c, "vegas.grid", 0, "uu", &dims, &bins);
  if (status == 0 && (dims != v->dims || bins != v->bins))
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "%s: its VEGAS grid has %llu dimensions of %llu bins, this run's %u of %u: it "
                   "is another run's checkpoint",
                   c->path, (unsigned long long)dims, (unsigned long long)bins, v->dims, v->bins);
  if (status == 0)
    status = hg_ckpt_scan(c, "vegas.progress", 0, "uuuuuuu", &index, &combined, &done, &r->events,
                          &r->events_total, &r->events_nonzero, &reached);
  if (status == 0 && (combined > s->max_iterations || combined > index || index > UINT32_MAX / 2 ||
                      done > 1 || reached > 1 || hg_ckpt_count(c, "vegas.iteration") != index))
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "%s: its VEGAS progress (%llu iterations, %llu combined, %zu records) does not "
                   "fit this run's settings (at most %u combined): the checkpoint is corrupt",
                   c->path, (unsigned long long)index, (unsigned long long)combined,
                   hg_ckpt_count(c, "vegas.iteration"), s->max_iterations);
  const size_t n_edges = (size_t)v->dims * (v->bins + 1);
  if (status == 0) status = hg_ckpt_get_reals(c, "vegas.sums", 0, sums, 7);
  if (status == 0) status = hg_ckpt_get_reals(c, "vegas.edges", 0, v->edges, n_edges);
  if (status == 0) status = hg_ckpt_get_reals(c, "vegas.last_edges", 0, v->last_edges, n_edges);
  if (status == 0)
    status = hg_ckpt_get_reals(c, "vegas.estimates", 0, v->estimates, (size_t)combined);
  if (status == 0)
    status = hg_ckpt_get_reals(c, "vegas.variances", 0, v->variances, (size_t)combined);
  if (status != 0) return hg_fail(v->ctx, (hegetcl_status)status, "%s", c->message);
  v->index = (uint32_t)index;
  v->combined = (unsigned)combined;
  v->done = (int)done;
  r->reached_target = (int)reached;
  r->iterations = v->combined;
  v->inv_sum = sums[0];
  v->weighted = sums[1];
  r->estimate = sums[2];
  r->error = sums[3];
  r->chi2_per_dof = sums[4];
  r->wall_seconds = sums[5];
  v->last_max_weight = sums[6];
  for (uint32_t i = 0; i < v->index; ++i) {
    hegetcl_vegas_iteration it;
    memset(&it, 0, sizeof it);
    uint64_t at = 0, adapting = 0, combined_iterations = 0;
    status = hg_ckpt_scan(c, "vegas.iteration", i, "uuuuurrrrrrrr", &at, &adapting, &it.events,
                          &it.events_nonzero, &combined_iterations, &it.estimate, &it.error,
                          &it.variance, &it.combined, &it.combined_error, &it.chi2_per_dof,
                          &it.max_weight, &it.seconds);
    if (status == 0 && (at != i || adapting > 1))
      return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                     "%s: the record of iteration %u says %llu: the checkpoint is corrupt", c->path,
                     (unsigned)i, (unsigned long long)at);
    if (status != 0) return hg_fail(v->ctx, (hegetcl_status)status, "%s", c->message);
    it.index = i;
    it.adapting = (int)adapting;
    it.combined_iterations = (unsigned)combined_iterations;
    status = keep_iteration(v, &it);
    if (status != HEGETCL_OK) return (hegetcl_status)status;
  }
  return HEGETCL_OK;
}
