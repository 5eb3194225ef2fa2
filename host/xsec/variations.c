/* SPDX-License-Identifier: MIT */
/* Factorisation-scale and PDF variation weights of a photon run (xsec/variations.h). */
#include "xsec/variations.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "pdf/lhapdf6_grid.h"
#include "shared/kernel_names.h"
#include "xsec/channels.h"
#include "xsec/params.h"

/* device memory the per-launch factors may take, and variations per launch at most (the
 * channels' reduction's limit) */
#define VAR_BUFFER_BYTES ((size_t)256 << 20)
#define VAR_CHUNK_MAX ((unsigned)HEGETCL_XSEC_MAX_CHANNELS)

/* Appends n doubles to a growing array. */
static int append(double **array, size_t *size, const double *values, size_t n) {
  double *grown = realloc(*array, (*size + n) * sizeof *grown);
  if (grown == NULL) return -1;
  memcpy(grown + *size, values, n * sizeof *grown);
  *array = grown;
  *size += n;
  return 0;
}

/* The set's NumMembers and ErrorType from its .info (ErrorType "" when absent). */
static hegetcl_status set_members(hegetcl_context *ctx, const hegetcl_pdf *pdf, unsigned *n_members,
                                  char *error_type, size_t size) {
  char info_path[2048], message[512];
  snprintf(info_path, sizeof info_path, "%s/%s.info", hegetcl_pdf_directory(pdf),
           hegetcl_pdf_set_name(pdf));
  hg_pdf_info *info = NULL;
  if (hg_pdf_info_open(info_path, &info, message, sizeof message) != HEGETCL_OK)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "PDF variations: %s", message);
  double n = 1.0;
  char *type = NULL;
  const int bad = hg_pdf_info_double(info, "NumMembers", &n, message, sizeof message) < 0 ||
                  hg_pdf_info_string(info, "ErrorType", &type, message, sizeof message) < 0;
  hg_pdf_info_close(info);
  if (bad) {
    free(type);
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "PDF variations: %s", message);
  }
  snprintf(error_type, size, "%s", type ? type : "");
  free(type);
  if (!(n >= 1.0 && n <= HEGETCL_MAX_VARIATIONS && n == floor(n)))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "PDF variations: %s gives NumMembers %g; a set with 1 to %d members can be "
                   "varied (turn PDF variations off with --pdf-variations off)",
                   info_path, n, HEGETCL_MAX_VARIATIONS);
  *n_members = (unsigned)n;
  return HEGETCL_OK;
}

/* Whether a PDF grid holds every point the cuts allow at Q = q GeV (as the nominal's check in
 * xsec.c: hegetcl never extrapolates a PDF in a cross section). */
static hegetcl_status check_covers(hegetcl_context *ctx, const hegetcl_xsec_config *c,
                                   const hegetcl_pdf *pdf, double q, const char *what) {
  double x_min = 0, x_max = 0, q_min = 0, q_max = 0;
  hg_pdf_grid_range(pdf, &x_min, &x_max, &q_min, &q_max);
  const double x_lowest =
      c->process.n_photons * c->pt_min_gev * exp(-c->eta_max) / c->sqrt_s_gev;
  if (hg_pdf_grid_covers(pdf, x_max, q) && hg_pdf_grid_covers(pdf, x_lowest, q))
    return HEGETCL_OK;
  return hg_fail(ctx, HEGETCL_ERR_INPUT,
                 "%s: PDF set %s's grid (x from %g, Q = %g to %g GeV) does not hold Q = %g GeV "
                 "and x down to %.3g, which the cuts reach: hegetcl does not extrapolate PDFs in "
                 "a cross section; choose another --scale, or leave the variation out "
                 "(--scale-variations off, --pdf-variations off, --alt-pdf \"\")",
                 what, hegetcl_pdf_set_name(pdf), x_min, q_min, q_max, q, x_lowest);
}

/* Packs one PDF member's grid (the run's flavour slots) onto s->pdfs as a new table. */
static hegetcl_status add_table(hegetcl_context *ctx, const hegetcl_pdf *pdf, const int *pids,
                                size_t n_pids, hg_xsec_var_setup *s) {
  char message[512];
  double *grid = NULL;
  size_t n_grid = 0;
  hegetcl_status status = hg_pdf_pack(pdf, pids, n_pids, &grid, &n_grid, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "PDF variations: %s", message);
  const double offset = (double)s->n_pdfs;
  size_t n_tables = s->n_tables;
  const int failed =
      append(&s->pdfs, &s->n_pdfs, grid, n_grid) != 0 || append(&s->tables, &n_tables, &offset, 1);
  free(grid);
  if (failed) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the PDF members");
  s->n_tables = n_tables;
  return HEGETCL_OK;
}

/* Opens member `member` of set `name` and adds its table after checking its grid at mu_F. */
static hegetcl_status add_member(hegetcl_context *ctx, const hegetcl_xsec_config *c,
                                 const char *name, int member, const int *pids, size_t n_pids,
                                 hg_xsec_var_setup *s, int *lhapdf_id) {
  char message[1024], what[128];
  hegetcl_pdf *pdf = NULL;
  hegetcl_status status = hegetcl_pdf_open(name, member, &pdf, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "PDF variations: %s", message);
  snprintf(what, sizeof what, "PDF variation %s member %d", name, member);
  status = check_covers(ctx, c, pdf, c->mu_f_gev, what);
  if (status == HEGETCL_OK) status = add_table(ctx, pdf, pids, n_pids, s);
  if (lhapdf_id != NULL) *lhapdf_id = hegetcl_pdf_lhapdf_id(pdf);
  hegetcl_pdf_close(pdf);
  return status;
}

hegetcl_status hg_xsec_var_setup_make(hegetcl_context *ctx, const hegetcl_xsec_config *c,
                                      const hegetcl_pdf *pdf, const int *pids, size_t n_pids,
                                      hg_xsec_var_setup *s) {
  memset(s, 0, sizeof *s);
  hegetcl_variation_result *m = &s->meta;
  const int alt = c->alt_pdf_sets[0] != '\0';
  if (!c->scale_variations && !c->pdf_variations && !alt) return HEGETCL_OK;
  if (c->scale_variations != 0 && c->scale_variations != 7 && c->scale_variations != 9)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "scale variations %d: 7 (MadGraph's) or 9 points, or 0 for none",
                   c->scale_variations);
  const int lhapdf_id = hegetcl_pdf_lhapdf_id(pdf), set_id = lhapdf_id - c->pdf_member;
  /* table 0: the run's own member */
  hegetcl_status status = add_table(ctx, pdf, pids, n_pids, s);
  if (status != HEGETCL_OK) return status;
  if (c->scale_variations) {
    for (int k = 0; k < 2 && status == HEGETCL_OK; ++k)
      status = check_covers(ctx, c, pdf, c->mu_f_gev * (k ? 2.0 : 0.5),
                            k ? "scale variation mu_F x 2" : "scale variation mu_F x 1/2");
    if (status != HEGETCL_OK) return status;
    if (hegetcl_variations_add_scales(&m->list, lhapdf_id, c->scale_variations == 7) !=
        HEGETCL_OK)
      return hg_fail(ctx, HEGETCL_ERR_INPUT, "too many variations");
    for (unsigned k = 0; k < m->list.n; ++k) m->list.v[k].pdf_member = c->pdf_member;
  }
  m->n_scales = m->list.n;
  m->first_pdf = m->list.n;
  unsigned n_members = 1;
  if (c->pdf_variations) {
    status = set_members(ctx, pdf, &n_members, m->pdf_error_type, sizeof m->pdf_error_type);
    if (status != HEGETCL_OK) return status;
    char base[sizeof m->pdf_error_type];
    snprintf(base, sizeof base, "%s", m->pdf_error_type);
    const size_t length = strlen(base);
    if (length > 3 && strcmp(base + length - 3, "+as") == 0) base[length - 3] = '\0';
    if (n_members > 1 && strcmp(base, "hessian") != 0 && strcmp(base, "symmhessian") != 0 &&
        strcmp(base, "replicas") != 0)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "PDF variations: %s's ErrorType is \"%s\"; hessian, symmhessian and replicas "
                     "(each with +as) are known (turn PDF variations off with --pdf-variations "
                     "off)",
                     c->pdf_set, m->pdf_error_type);
    if (n_members == 1) snprintf(m->pdf_error_type, sizeof m->pdf_error_type, "none");
  }
  if (n_members > 1) {
    if (hegetcl_variations_add_pdf_set(&m->list, hegetcl_pdf_set_name(pdf), m->pdf_error_type,
                                       set_id, n_members) != HEGETCL_OK)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "PDF variations: %u scale variations and %u members are more than %d",
                     m->n_scales, n_members, HEGETCL_MAX_VARIATIONS);
    m->n_pdf = n_members;
    for (unsigned k = 0; k < n_members && status == HEGETCL_OK; ++k)
      status = add_member(ctx, c, c->pdf_set, (int)k, pids, n_pids, s, NULL);
    if (status != HEGETCL_OK) return status;
  }
  m->first_alt = m->list.n;
  for (const char *p = c->alt_pdf_sets; alt && status == HEGETCL_OK;) {
    char name[256];
    const size_t length = strcspn(p, ",");
    if (length == 0 || length >= sizeof name || m->n_alt >= HEGETCL_MAX_ALT_PDF_SETS)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "alt-pdf \"%s\": a comma-separated list of up to %d LHAPDF set names, none "
                     "empty",
                     c->alt_pdf_sets, HEGETCL_MAX_ALT_PDF_SETS);
    memcpy(name, p, length);
    name[length] = '\0';
    int id = 0;
    status = add_member(ctx, c, name, 0, pids, n_pids, s, &id);
    if (status == HEGETCL_OK) {
      const char *slash = strrchr(name, '/');
      if (hegetcl_variations_add_alt_set(&m->list, slash ? slash + 1 : name, id) != HEGETCL_OK)
        return hg_fail(ctx, HEGETCL_ERR_INPUT, "more than %d variations",
                       HEGETCL_MAX_VARIATIONS);
      m->n_alt++;
    }
    if (p[length] == '\0') break;
    p += length + 1;
  }
  if (status != HEGETCL_OK) return status;
  const unsigned n = m->list.n;
  s->var = calloc(2 * (size_t)n, sizeof *s->var);
  if (s->var == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations");
  for (unsigned k = 0; k < n; ++k) {
    const int member = k >= m->first_pdf && k < m->first_pdf + m->n_pdf;
    const int other = k >= m->first_alt;
    s->var[2 * k] = m->list.v[k].mu_f_factor;
    s->var[2 * k + 1] = member    ? (double)(1 + k - m->first_pdf)
                        : other ? (double)(1 + m->n_pdf + k - m->first_alt)
                                : 0.0;
  }
  return HEGETCL_OK;
}

void hg_xsec_var_setup_free(hg_xsec_var_setup *s) {
  free(s->var);
  free(s->tables);
  free(s->pdfs);
  memset(s, 0, sizeof *s);
}

struct hg_xsec_variations {
  hegetcl_context *ctx;
  const hg_xsec_var_setup *setup;
  unsigned n, chunk, n_chunks;
  uint64_t seed;
  cl_program program;
  cl_kernel kernel;
  size_t local;
  cl_mem params, pdf, sampling, me; /* the sampler's and the amplitude's (not owned) */
  cl_mem var, tables, pdfs, out, index;
  hg_channels **chunks; /* one reduction per chunk of variations */
  double *host;         /* a chunk's ratios read back */
  /* the histograms per variation (NULL: none): each fed a copy of its variation's factors */
  hg_histograms **histograms;
  cl_mem hist_factor;
  size_t hist_sums; /* a batch's sums of one variation's histograms */
};

static hegetcl_status buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                             const void *host, const char *what, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                        (void *)host, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

hegetcl_status hg_xsec_variations_open(hegetcl_context *ctx, const hg_xsec_var_setup *s,
                                       const char *sampler_options, unsigned orientations,
                                       size_t batch, uint64_t seed, cl_mem params, cl_mem pdf,
                                       cl_mem sampling, cl_mem me, hg_xsec_variations **out,
                                       double *build_seconds) {
  *out = NULL;
  if (s->meta.list.n == 0) return HEGETCL_OK;
  hg_xsec_variations *v = calloc(1, sizeof *v);
  if (v == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations");
  *out = v;
  v->ctx = ctx;
  v->setup = s;
  v->n = s->meta.list.n;
  v->seed = seed;
  v->params = params;
  v->pdf = pdf;
  v->sampling = sampling;
  v->me = me;
  size_t chunk = VAR_BUFFER_BYTES / (batch * sizeof(double));
  chunk = chunk < 1 ? 1 : chunk > VAR_CHUNK_MAX ? VAR_CHUNK_MAX : chunk;
  v->chunk = v->n < chunk ? v->n : (unsigned)chunk;
  v->n_chunks = (v->n + v->chunk - 1) / v->chunk;
  char options[1200];
  snprintf(options, sizeof options, "%s -D XSEC_VAR_CHUNK=%u -D XSEC_VAR_ORIENTATIONS=%u",
           sampler_options, v->chunk, orientations);
  const hg_source_part part = {"xsec/variations.cl", NULL};
  double seconds = 0.0;
  hegetcl_status status = hg_program_get(ctx, &part, 1, options, &v->program, &seconds);
  *build_seconds += seconds;
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, v->program, HG_KERNEL_XSEC_VARIATIONS, &v->kernel);
  if (status == HEGETCL_OK) {
    size_t limit = 0;
    const cl_int err = clGetKernelWorkGroupInfo(v->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                                sizeof limit, &limit, NULL);
    status = hg_cl_check(ctx, err, "clGetKernelWorkGroupInfo", "asking %s's work-group limit",
                         HG_KERNEL_XSEC_VARIATIONS);
    v->local = limit >= 128 ? 128 : limit;
  }
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_ONLY, 2 * v->n * sizeof(double), s->var, "the variations",
                    &v->var);
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_ONLY, s->n_tables * sizeof(double), s->tables,
                    "the PDF tables' offsets", &v->tables);
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_ONLY, s->n_pdfs * sizeof(double), s->pdfs,
                    "the PDF tables' grids", &v->pdfs);
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_WRITE, (size_t)v->chunk * batch * sizeof(double), NULL,
                    "the variations' factors", &v->out);
  if (status == HEGETCL_OK)
    status = buffer(ctx, CL_MEM_READ_ONLY, batch * sizeof(cl_uint), NULL,
                    "the kept events' indices", &v->index);
  v->chunks = status == HEGETCL_OK ? calloc(v->n_chunks, sizeof *v->chunks) : NULL;
  v->host = status == HEGETCL_OK ? malloc((size_t)v->chunk * batch * sizeof *v->host) : NULL;
  if (status == HEGETCL_OK && (v->chunks == NULL || v->host == NULL))
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations");
  for (unsigned c = 0; c < v->n_chunks && status == HEGETCL_OK; ++c)
    status = hg_channels_create(ctx, v->program, v->chunk, batch, v->out, &v->chunks[c]);
  return status;
}

hegetcl_status hg_xsec_variations_add_histograms(hg_xsec_variations *v, cl_program program,
                                                 unsigned n_photons,
                                                 const hegetcl_histogram_binning *binning,
                                                 size_t batch, cl_mem obs_value, cl_mem obs_bin) {
  if (v == NULL) return HEGETCL_OK;
  v->histograms = calloc(v->n, sizeof *v->histograms);
  if (v->histograms == NULL)
    return hg_fail(v->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations' histograms");
  hegetcl_status status = buffer(v->ctx, CL_MEM_READ_WRITE, batch * sizeof(double), NULL,
                                 "a variation's weight factors", &v->hist_factor);
  for (unsigned k = 0; k < v->n && status == HEGETCL_OK; ++k)
    status = hg_histograms_create(v->ctx, program, n_photons, binning, batch, v->params, obs_value,
                                  obs_bin, &v->histograms[k]);
  if (status == HEGETCL_OK) v->hist_sums = hg_histograms_batch_sums(v->histograms[0]);
  return status;
}

hegetcl_histogram *hg_xsec_variations_take_histograms(hg_xsec_variations *v, size_t *per) {
  *per = 0;
  if (v == NULL || v->histograms == NULL) return NULL;
  size_t count = 0;
  hegetcl_histogram *first = hg_histograms_take(v->histograms[0], &count);
  hegetcl_histogram *all = first ? malloc((size_t)v->n * count * sizeof *all) : NULL;
  if (all == NULL) {
    hegetcl_histograms_free(first, count);
    return NULL;
  }
  memcpy(all, first, count * sizeof *all);
  free(first); /* the structs moved; their arrays are all's now */
  for (unsigned k = 1; k < v->n; ++k) {
    size_t n = 0;
    hegetcl_histogram *h = hg_histograms_take(v->histograms[k], &n);
    if (h != NULL) memcpy(all + (size_t)k * count, h, count * sizeof *all);
    free(h);
  }
  *per = count;
  return all;
}

void hg_xsec_variations_close(hg_xsec_variations *v) {
  if (v == NULL) return;
  for (unsigned k = 0; v->histograms != NULL && k < v->n; ++k)
    hg_histograms_destroy(v->histograms[k]);
  free(v->histograms);
  if (v->hist_factor) clReleaseMemObject(v->hist_factor);
  for (unsigned c = 0; v->chunks != NULL && c < v->n_chunks; ++c) hg_channels_destroy(v->chunks[c]);
  free(v->chunks);
  free(v->host);
  if (v->kernel) clReleaseKernel(v->kernel);
  cl_mem buffers[] = {v->var, v->tables, v->pdfs, v->out, v->index};
  for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  free(v);
}

size_t hg_xsec_variations_batch_sums(const hg_xsec_variations *v) {
  return v == NULL ? 0 : v->n_chunks * hg_channels_batch_sums(v->chunks[0]) + v->n * v->hist_sums;
}

unsigned hg_xsec_variations_count(const hg_xsec_variations *v) { return v ? v->n : 0u; }

/* Launches the kernel for variations [first_variation, + chunk) over n events. */
static hegetcl_status launch(hg_xsec_variations *v, cl_mem grid, uint32_t iteration,
                             uint64_t first_event, size_t n_events, int use_index,
                             unsigned first_variation, int ratio) {
  hegetcl_context *ctx = v->ctx;
  cl_kernel k = v->kernel;
  const cl_uint seed_low = (cl_uint)v->seed, seed_high = (cl_uint)(v->seed >> 32);
  const cl_uint first_low = (cl_uint)first_event, first_high = (cl_uint)(first_event >> 32);
  const cl_uint n = (cl_uint)n_events, indexed = (cl_uint)use_index;
  const cl_uint first_v = first_variation, count = v->chunk, n_v = v->n, as_ratio = (cl_uint)ratio;
  cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &v->params);
  err |= clSetKernelArg(k, 1, sizeof(cl_mem), &grid);
  err |= clSetKernelArg(k, 2, sizeof(cl_mem), &v->pdf);
  err |= clSetKernelArg(k, 3, sizeof(cl_mem), &v->sampling);
  err |= clSetKernelArg(k, 4, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(k, 5, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(k, 6, sizeof(cl_uint), &iteration);
  err |= clSetKernelArg(k, 7, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(k, 8, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(k, 9, sizeof(cl_uint), &n);
  err |= clSetKernelArg(k, 10, sizeof(cl_mem), &v->index);
  err |= clSetKernelArg(k, 11, sizeof(cl_uint), &indexed);
  err |= clSetKernelArg(k, 12, sizeof(cl_mem), &v->var);
  err |= clSetKernelArg(k, 13, sizeof(cl_uint), &first_v);
  err |= clSetKernelArg(k, 14, sizeof(cl_uint), &count);
  err |= clSetKernelArg(k, 15, sizeof(cl_uint), &n_v);
  err |= clSetKernelArg(k, 16, sizeof(cl_mem), &v->tables);
  err |= clSetKernelArg(k, 17, sizeof(cl_mem), &v->pdfs);
  err |= clSetKernelArg(k, 18, sizeof(cl_uint), &as_ratio);
  err |= clSetKernelArg(k, 19, sizeof(cl_mem), &v->out);
  hegetcl_status status = hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments",
                                      HG_KERNEL_XSEC_VARIATIONS);
  if (status != HEGETCL_OK) return status;
  const size_t local = v->local, global = (n_events + local - 1) / local * local;
  err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                     HG_KERNEL_XSEC_VARIATIONS, n_events);
}

hegetcl_status hg_xsec_variations_add_batch(hg_xsec_variations *v, cl_mem grid, uint32_t iteration,
                                            uint64_t first_event, size_t n_events, double *out) {
  if (v == NULL) return HEGETCL_OK;
  const size_t per = hg_channels_batch_sums(v->chunks[0]);
  double *hist_out = out + v->n_chunks * per;
  hegetcl_status status = HEGETCL_OK;
  for (unsigned c = 0; c < v->n_chunks && status == HEGETCL_OK; ++c) {
    status = launch(v, grid, iteration, first_event, n_events, 0, c * v->chunk, 0);
    if (status == HEGETCL_OK)
      status = hg_channels_add_batch(v->chunks[c], v->me, n_events, out + c * per);
    for (unsigned k = 0; v->histograms != NULL && k < v->chunk && c * v->chunk + k < v->n &&
                         status == HEGETCL_OK;
         ++k) {
      const unsigned variation = c * v->chunk + k;
      const cl_int err =
          clEnqueueCopyBuffer(v->ctx->queue, v->out, v->hist_factor, k * n_events * sizeof(double),
                              0, n_events * sizeof(double), 0, NULL, NULL);
      status = hg_cl_check(v->ctx, err, "clEnqueueCopyBuffer", "copying variation %u's factors",
                           variation);
      if (status == HEGETCL_OK)
        status = hg_histograms_add_batch(v->histograms[variation], v->hist_factor, v->me, n_events,
                                         hist_out + variation * v->hist_sums);
    }
  }
  return status;
}

void hg_xsec_variations_end_iteration(hg_xsec_variations *v, uint64_t n_events, double variance,
                                      const double *sums) {
  if (v == NULL) return;
  const size_t per = hg_channels_batch_sums(v->chunks[0]);
  for (unsigned c = 0; c < v->n_chunks; ++c)
    hg_channels_end_iteration(v->chunks[c], n_events, variance, sums + c * per);
  for (unsigned k = 0; v->histograms != NULL && k < v->n; ++k)
    hg_histograms_end_iteration(v->histograms[k], n_events, variance,
                                sums + v->n_chunks * per + k * v->hist_sums);
}

hegetcl_status hg_xsec_variations_result(const hg_xsec_variations *v, hegetcl_xsec_result *result) {
  if (v == NULL) return HEGETCL_OK;
  hegetcl_variation_result *r = malloc(sizeof *r);
  if (r == NULL) return hg_fail(v->ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  *r = v->setup->meta;
  hegetcl_xsec_channel per[VAR_CHUNK_MAX];
  for (unsigned c = 0; c < v->n_chunks; ++c) {
    hg_channels_result(v->chunks[c], per);
    for (unsigned k = 0; k < v->chunk && c * v->chunk + k < v->n; ++k) {
      r->sigma_fb[c * v->chunk + k] = per[k].sigma_fb;
      r->error_fb[c * v->chunk + k] = per[k].error_fb;
    }
  }
  free(result->variations);
  result->variations = r;
  if (hegetcl_variations_summarise(r) != HEGETCL_OK)
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "the PDF uncertainty of %u members of ErrorType %s: a Hessian set needs an "
                   "even number of error members, replicas at least 3",
                   r->n_pdf, r->pdf_error_type);
  return HEGETCL_OK;
}

hegetcl_status hg_xsec_variations_ratios(hg_xsec_variations *v, cl_mem grid, uint64_t first,
                                         const uint32_t *index, size_t n, double *ratios) {
  if (v == NULL || n == 0) return HEGETCL_OK;
  hegetcl_context *ctx = v->ctx;
  cl_int err = clEnqueueWriteBuffer(ctx->queue, v->index, CL_TRUE, 0, n * sizeof(cl_uint), index, 0,
                                    NULL, NULL);
  hegetcl_status status = hg_cl_check(ctx, err, "clEnqueueWriteBuffer", "uploading the kept events");
  for (unsigned c = 0; c < v->n_chunks && status == HEGETCL_OK; ++c) {
    status = launch(v, grid, HG_ITERATION_EVENTS, first, n, 1, c * v->chunk, 1);
    const unsigned count = v->n - c * v->chunk < v->chunk ? v->n - c * v->chunk : v->chunk;
    if (status != HEGETCL_OK) break;
    err = clEnqueueReadBuffer(ctx->queue, v->out, CL_TRUE, 0, count * n * sizeof(double), v->host,
                              0, NULL, NULL);
    status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the variations' ratios");
    for (unsigned k = 0; k < count && status == HEGETCL_OK; ++k)
      for (size_t a = 0; a < n; ++a) ratios[a * v->n + c * v->chunk + k] = v->host[k * n + a];
  }
  return status;
}

void hg_xsec_variations_save(const hg_xsec_variations *v, hg_ckpt_writer *w) {
  char key[64];
  for (unsigned c = 0; v != NULL && c < v->n_chunks; ++c) {
    snprintf(key, sizeof key, "variations.sums.%u", c);
    hg_channels_save_as(v->chunks[c], w, key);
  }
  if (v == NULL || v->histograms == NULL) return;
  const size_t count = hg_histograms_state_size(v->histograms[0]);
  double *state = malloc(count * sizeof *state);
  for (unsigned k = 0; state != NULL && k < v->n; ++k) {
    snprintf(key, sizeof key, "variations.histograms.%u", k);
    hg_histograms_save_state(v->histograms[k], state);
    hg_ckpt_put_reals(w, key, state, count);
  }
  free(state);
}

int hg_xsec_variations_load(hg_xsec_variations *v, hg_ckpt *c) {
  char key[64];
  for (unsigned k = 0; v != NULL && k < v->n_chunks; ++k) {
    snprintf(key, sizeof key, "variations.sums.%u", k);
    const int status = hg_channels_load_as(v->chunks[k], c, key);
    if (status != 0) return status;
  }
  if (v == NULL || v->histograms == NULL) return 0;
  const size_t count = hg_histograms_state_size(v->histograms[0]);
  double *state = malloc(count * sizeof *state);
  if (state == NULL) {
    snprintf(c->message, sizeof c->message, "no memory for the variations' histograms");
    return HEGETCL_ERR_NO_MEMORY;
  }
  int status = 0;
  for (unsigned k = 0; k < v->n && status == 0; ++k) {
    snprintf(key, sizeof key, "variations.histograms.%u", k);
    if (hg_ckpt_find(c, key, 0) == NULL) {
      snprintf(c->message, sizeof c->message, "%s: no '%s' line: the checkpoint is incomplete",
               c->path, key);
      status = HEGETCL_ERR_INPUT;
    } else if ((status = hg_ckpt_get_reals(c, key, 0, state, count)) == 0) {
      hg_histograms_load_state(v->histograms[k], state);
    }
  }
  free(state);
  return status;
}
