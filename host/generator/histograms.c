/* SPDX-License-Identifier: MIT */
/* Histograms of a run over a process (generator/histograms.h). */
#include "generator/histograms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/histograms.h"
#include "core/program.h"
#include "generator/run_internal.h"
#include "generator/variations.h"
#include "shared/kernel_names.h"
#include "xsec/params.h"

/* final-state particles histogrammed at most: HG_PS_MAX_PHOTONS, the size of the observables'
 * arrays (cl/analysis/observables.h, cl/phasespace/point.h) */
#define GEN_HIST_MAX_OBJECTS 12

typedef struct {
  cl_program program;
  cl_kernel observables;
  size_t local;
  cl_mem obs_value, obs_bin, factor;
  hg_histograms *nominal;
  hg_histograms **varied; /* n_var */
} hist_group;

struct hg_gen_histograms {
  hg_gen_run *run;
  unsigned n_objects, n_var;
  size_t sums; /* one set of histograms' batch sums */
  cl_mem hist_params;
  hist_group *groups;
};

static hegetcl_status buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                             const void *host, const char *what, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                        (void *)host, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

static hegetcl_status open_group(hg_gen_histograms *h, unsigned gi) {
  hg_gen_run *run = h->run;
  hegetcl_context *ctx = run->ctx;
  gen_group *g = &run->groups[gi];
  hist_group *hg = &h->groups[gi];
  const size_t batch = run->config.vegas.batch_size;
  char options[1200];
  snprintf(options, sizeof options, "%s -D GEN_HIST_OBJECTS=%u", g->options, h->n_objects);
  const hg_source_part part = {"generator/histograms.cl", NULL};
  double seconds = 0.0;
  hegetcl_status status = hg_program_get(ctx, &part, 1, options, &hg->program, &seconds);
  run->build_seconds += seconds;
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, hg->program, HG_KERNEL_GENERATOR_OBSERVABLES, &hg->observables);
  if (status == HEGETCL_OK) {
    size_t limit = 0;
    const cl_int err = clGetKernelWorkGroupInfo(hg->observables, ctx->device,
                                                CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit,
                                                NULL);
    status = hg_cl_check(ctx, err, "clGetKernelWorkGroupInfo", "asking %s's work-group limit",
                         HG_KERNEL_GENERATOR_OBSERVABLES);
    hg->local = limit >= 128 ? 128 : limit;
  }
  const size_t fills = hg_histograms_fills(h->n_objects) * batch;
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_WRITE, fills * sizeof(cl_float), NULL, "observable values",
                    &hg->obs_value);
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_WRITE, fills * sizeof(cl_ushort), NULL, "observable bins",
                    &hg->obs_bin);
  if (status == HEGETCL_OK && h->n_var > 0)
    status = buffer(ctx, CL_MEM_READ_WRITE, batch * sizeof(double), NULL,
                    "a variation's weight factors", &hg->factor);
  if (status == HEGETCL_OK)
    status = hg_histograms_create(ctx, hg->program, h->n_objects, &run->config.binning, batch,
                                  h->hist_params, hg->obs_value, hg->obs_bin, &hg->nominal);
  hg->varied = status == HEGETCL_OK && h->n_var > 0 ? calloc(h->n_var, sizeof *hg->varied) : NULL;
  if (status == HEGETCL_OK && h->n_var > 0 && hg->varied == NULL)
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations' histograms");
  for (unsigned k = 0; k < h->n_var && status == HEGETCL_OK; ++k)
    status = hg_histograms_create(ctx, hg->program, h->n_objects, &run->config.binning, batch,
                                  h->hist_params, hg->obs_value, hg->obs_bin, &hg->varied[k]);
  return status;
}

hegetcl_status hg_gen_histograms_create(hg_gen_run *run, hg_gen_histograms **out) {
  *out = NULL;
  const hegetcl_xsec_config *c = &run->config;
  if (!c->histograms) return HEGETCL_OK;
  hegetcl_context *ctx = run->ctx;
  hegetcl_status status = hg_histograms_check(ctx, &c->binning);
  if (status != HEGETCL_OK) return status;
  const unsigned n = (unsigned)run->groups[0].spec.n - 2;
  for (unsigned g = 1; g < run->n_groups; ++g)
    if ((unsigned)run->groups[g].spec.n - 2 != n)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "%s: its groups have %u and %d final-state particles (%s, %s); the "
                     "histograms rank one final state: run without --yoda and --csv, or one "
                     "multiplicity at a time",
                     c->process_text, n, run->groups[g].spec.n - 2, run->groups[0].spec.text,
                     run->groups[g].spec.text);
  if (n < 2 || n > GEN_HIST_MAX_OBJECTS)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%s: histograms of %u final-state particles: 2 to %d are histogrammed",
                   c->process_text, n, GEN_HIST_MAX_OBJECTS);
  hg_gen_histograms *h = calloc(1, sizeof *h);
  if (h == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms");
  *out = h;
  h->run = run;
  h->n_objects = n;
  h->n_var = hg_gen_variations_count(run->variations);
  double params[HG_XSEC_PARAM_COUNT] = {0};
  const hegetcl_bins *families[4] = {&c->binning.pt_gev, &c->binning.eta, &c->binning.delta_r,
                                     &c->binning.mass_gev};
  for (int f = 0; f < 4; ++f) {
    params[HG_XSEC_HIST_BINS(f)] = (double)families[f]->bins;
    params[HG_XSEC_HIST_LO(f)] = families[f]->lo;
    params[HG_XSEC_HIST_HI(f)] = families[f]->hi;
  }
  status = buffer(ctx, CL_MEM_READ_ONLY, sizeof params, params, "the histograms' binning",
                  &h->hist_params);
  h->groups = status == HEGETCL_OK ? calloc(run->n_groups, sizeof *h->groups) : NULL;
  if (status == HEGETCL_OK && h->groups == NULL)
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms");
  for (unsigned g = 0; g < run->n_groups && status == HEGETCL_OK; ++g) status = open_group(h, g);
  if (status == HEGETCL_OK) h->sums = hg_histograms_batch_sums(h->groups[0].nominal);
  return status;
}

void hg_gen_histograms_destroy(hg_gen_histograms *h) {
  if (h == NULL) return;
  for (unsigned g = 0; h->groups != NULL && g < h->run->n_groups; ++g) {
    hist_group *hg = &h->groups[g];
    hg_histograms_destroy(hg->nominal);
    for (unsigned k = 0; hg->varied != NULL && k < h->n_var; ++k)
      hg_histograms_destroy(hg->varied[k]);
    free(hg->varied);
    if (hg->observables) clReleaseKernel(hg->observables);
    cl_mem buffers[] = {hg->obs_value, hg->obs_bin, hg->factor};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
      if (buffers[i]) clReleaseMemObject(buffers[i]);
  }
  free(h->groups);
  if (h->hist_params) clReleaseMemObject(h->hist_params);
  free(h);
}

size_t hg_gen_histograms_batch_sums(const hg_gen_histograms *h) {
  return h == NULL ? 0 : (1 + (size_t)h->n_var) * h->sums;
}

hegetcl_status hg_gen_histograms_add_batch(hg_gen_histograms *h, unsigned gi, uint32_t iteration,
                                           uint64_t first_event, size_t n_events, double *out) {
  if (h == NULL) return HEGETCL_OK;
  hg_gen_run *run = h->run;
  hegetcl_context *ctx = run->ctx;
  gen_group *g = &run->groups[gi];
  hist_group *hg = &h->groups[gi];
  cl_kernel k = hg->observables;
  cl_int err = hg_gen_set_event_args(k, g, iteration, first_event, n_events);
  err |= clSetKernelArg(k, 10, sizeof(cl_mem), &h->hist_params);
  err |= clSetKernelArg(k, 11, sizeof(cl_mem), &hg->obs_value);
  err |= clSetKernelArg(k, 12, sizeof(cl_mem), &hg->obs_bin);
  hegetcl_status status = hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments",
                                      HG_KERNEL_GENERATOR_OBSERVABLES);
  if (status != HEGETCL_OK) return status;
  const size_t local = hg->local, global = (n_events + local - 1) / local * local;
  err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events of %s",
                       HG_KERNEL_GENERATOR_OBSERVABLES, n_events, g->spec.text);
  if (status == HEGETCL_OK)
    status = hg_histograms_add_batch(hg->nominal, g->factor, g->amp->me, n_events, out);
  return status;
}

hegetcl_status hg_gen_histograms_add_variation(hg_gen_histograms *h, unsigned gi, unsigned k,
                                               cl_mem factors, size_t offset, size_t n_events,
                                               double *out) {
  if (h == NULL || k >= h->n_var) return HEGETCL_OK;
  hegetcl_context *ctx = h->run->ctx;
  hist_group *hg = &h->groups[gi];
  const cl_int err = clEnqueueCopyBuffer(ctx->queue, factors, hg->factor, offset * sizeof(double),
                                         0, n_events * sizeof(double), 0, NULL, NULL);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clEnqueueCopyBuffer", "copying variation %u's factors", k);
  if (status == HEGETCL_OK)
    status = hg_histograms_add_batch(hg->varied[k], hg->factor, h->run->groups[gi].amp->me,
                                     n_events, out + (1 + (size_t)k) * h->sums);
  return status;
}

void hg_gen_histograms_end_iteration(hg_gen_histograms *h, unsigned gi, uint64_t n_events,
                                     double variance, const double *sums) {
  if (h == NULL) return;
  hist_group *hg = &h->groups[gi];
  hg_histograms_end_iteration(hg->nominal, n_events, variance, sums);
  for (unsigned k = 0; k < h->n_var; ++k)
    hg_histograms_end_iteration(hg->varied[k], n_events, variance, sums + (1 + (size_t)k) * h->sums);
}

/* Adds b's sums into a (the groups are independent: their variances add). */
static void add_into(hegetcl_histogram *a, const hegetcl_histogram *b, size_t count) {
  for (size_t i = 0; i < count; ++i)
    for (unsigned j = 0; j < a[i].bins + 2; ++j) {
      a[i].sumw[j] += b[i].sumw[j];
      a[i].sumw2[j] += b[i].sumw2[j];
      a[i].sumwx[j] += b[i].sumwx[j];
      a[i].sumwx2[j] += b[i].sumwx2[j];
      a[i].entries[j] += b[i].entries[j];
    }
}

/* The photon runs' names and titles, said of final-state particles. */
static void relabel(hegetcl_histogram *x, size_t count, unsigned n) {
  for (size_t i = 0; i < count; ++i) {
    char *title = x[i].title;
    const char *photon = strstr(title, "photon");
    if (strcmp(x[i].name, "m_photons") == 0) {
      snprintf(x[i].name, sizeof x[i].name, "m_final");
      snprintf(title, sizeof x[i].title, "invariant mass of the %u final-state particles", n);
    } else if (photon != NULL) {
      char text[sizeof x[i].title];
      const int plural = strncmp(photon, "photons", 7) == 0;
      snprintf(text, sizeof text, "%.*s%s%s", (int)(photon - title),
               title, plural ? "particles" : "particle", photon + (plural ? 7 : 6));
      snprintf(title, sizeof x[i].title, "%s", text);
    }
  }
}

/* Group g's histograms of one set, taken and added over the groups into a new array. */
static hegetcl_histogram *sum_groups(hg_gen_histograms *h, int variation, size_t *count) {
  hegetcl_histogram *total = NULL;
  for (unsigned g = 0; g < h->run->n_groups; ++g) {
    hist_group *hg = &h->groups[g];
    hg_histograms *from = variation < 0 ? hg->nominal : hg->varied[variation];
    size_t n = 0;
    hegetcl_histogram *x = hg_histograms_take(from, &n);
    if (x == NULL) {
      hegetcl_histograms_free(total, *count);
      return NULL;
    }
    if (total == NULL) {
      total = x;
      *count = n;
    } else {
      add_into(total, x, n);
      hegetcl_histograms_free(x, n);
    }
  }
  relabel(total, *count, h->n_objects);
  return total;
}

hegetcl_status hg_gen_histograms_result(hg_gen_histograms *h, hegetcl_xsec_result *result) {
  if (h == NULL) return HEGETCL_OK;
  hegetcl_context *ctx = h->run->ctx;
  size_t count = 0;
  result->histograms = sum_groups(h, -1, &count);
  if (result->histograms == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  result->n_histograms = count;
  if (h->n_var == 0 || result->variations == NULL) return HEGETCL_OK;
  result->variation_histograms = calloc((size_t)h->n_var * count, sizeof *result->variation_histograms);
  if (result->variation_histograms == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  for (unsigned k = 0; k < h->n_var; ++k) {
    size_t n = 0;
    hegetcl_histogram *x = sum_groups(h, (int)k, &n);
    if (x == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
    memcpy(result->variation_histograms + (size_t)k * count, x, count * sizeof *x);
    free(x); /* the structs moved; their arrays are the result's now */
  }
  return HEGETCL_OK;
}

/* One line per group and set (the nominal, then each variation's), in that order. */
void hg_gen_histograms_save(const hg_gen_histograms *h, hg_ckpt_writer *w) {
  if (h == NULL) return;
  const size_t count = hg_histograms_state_size(h->groups[0].nominal);
  double *state = malloc(count * sizeof *state);
  if (state == NULL) return; /* the commit fails on the missing lines: load refuses them */
  for (unsigned g = 0; g < h->run->n_groups; ++g)
    for (unsigned k = 0; k <= h->n_var; ++k) {
      hg_histograms_save_state(k == 0 ? h->groups[g].nominal : h->groups[g].varied[k - 1], state);
      hg_ckpt_put_reals(w, "generator.histograms", state, count);
    }
  free(state);
}

int hg_gen_histograms_load(hg_gen_histograms *h, hg_ckpt *c) {
  if (h == NULL) return 0;
  const size_t sets = (size_t)h->run->n_groups * (1 + (size_t)h->n_var);
  if (hg_ckpt_count(c, "generator.histograms") != sets) {
    snprintf(c->message, sizeof c->message,
             "%s holds %zu lines of histograms, this run %zu: the checkpoint is incomplete or "
             "another run's",
             c->path, hg_ckpt_count(c, "generator.histograms"), sets);
    return HEGETCL_ERR_INPUT;
  }
  const size_t count = hg_histograms_state_size(h->groups[0].nominal);
  double *state = malloc(count * sizeof *state);
  if (state == NULL) {
    snprintf(c->message, sizeof c->message, "no memory for the histograms' state");
    return HEGETCL_ERR_NO_MEMORY;
  }
  int status = 0;
  for (unsigned g = 0; g < h->run->n_groups && status == 0; ++g)
    for (unsigned k = 0; k <= h->n_var && status == 0; ++k) {
      status = hg_ckpt_get_reals(c, "generator.histograms", (size_t)g * (1 + h->n_var) + k, state,
                                 count);
      if (status == 0)
        hg_histograms_load_state(k == 0 ? h->groups[g].nominal : h->groups[g].varied[k - 1],
                                 state);
    }
  free(state);
  return status;
}
