/* SPDX-License-Identifier: MIT */
/* Scale and PDF variation weights of a run over a process (generator/variations.h). */
#include "generator/variations.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/program.h"
#include "generator/histograms.h"
#include "generator/run_internal.h"
#include "hegetcl/pdf.h"
#include "pdf/alpha_s.h"
#include "pdf/lhapdf6_grid.h"
#include "xsec/channels.h"

#define HG_KERNEL_GENERATOR_VARIATIONS "generator_variations"
/* device memory the per-launch factors may take, and variations per launch at most */
#define VAR_BUFFER_BYTES ((size_t)256 << 20)
#define VAR_CHUNK_MAX ((unsigned)HEGETCL_XSEC_MAX_CHANNELS) /* the channels reduction's limit */

typedef struct {
  cl_program program;
  cl_kernel kernel;
  hg_channels **chunks; /* one reduction per chunk of variations */
} var_group;

struct hg_gen_variations {
  hg_gen_run *run;
  hegetcl_variation_result meta; /* the list, n_scales, first_pdf, n_pdf, pdf_error_type */
  unsigned n, chunk, n_chunks;
  cl_mem var, tables, pdfs, alpha_s, out, index, state;
  var_group *groups;
};

static hegetcl_status buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                             const void *host, const char *what, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                        (void *)host, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

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
static hegetcl_status set_members(hg_gen_run *run, unsigned *n_members, char *error_type,
                                  size_t size) {
  char info_path[2048], message[512];
  snprintf(info_path, sizeof info_path, "%s/%s.info", hegetcl_pdf_directory(run->pdf),
           hegetcl_pdf_set_name(run->pdf));
  hg_pdf_info *info = NULL;
  if (hg_pdf_info_open(info_path, &info, message, sizeof message) != HEGETCL_OK)
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "PDF variations: %s", message);
  double n = 1.0;
  char *type = NULL;
  int bad = hg_pdf_info_double(info, "NumMembers", &n, message, sizeof message) < 0 ||
            hg_pdf_info_string(info, "ErrorType", &type, message, sizeof message) < 0;
  hg_pdf_info_close(info);
  if (bad) {
    free(type);
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "PDF variations: %s", message);
  }
  snprintf(error_type, size, "%s", type ? type : "");
  free(type);
  if (!(n >= 1.0 && n <= HEGETCL_MAX_VARIATIONS && n == floor(n)))
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT,
                   "PDF variations: %s gives NumMembers %g; a set with 1 to %d members can be "
                   "varied (turn PDF variations off with --pdf-variations off)",
                   info_path, n, HEGETCL_MAX_VARIATIONS);
  *n_members = (unsigned)n;
  return HEGETCL_OK;
}

/* The key of a metadata line ("AlphaS_MZ: 0.118" -> "AlphaS_MZ"), "" for a continuation. */
static void line_key(const char *line, char *key, size_t size) {
  size_t n = 0;
  while (line[n] != '\0' && line[n] != ':' && line[n] != ' ' && line[n] != '\t' &&
         line[n] != '\n' && n + 1 < size) {
    key[n] = line[n];
    ++n;
  }
  key[line[n] == ':' ? n : 0] = '\0';
}

hegetcl_status hg_gen_member_alpha_s_table(hg_gen_run *run, int member, double **table,
                                           size_t *size) {
  *table = NULL;
  *size = 0;
  if (run->config.alpha_s_running != HEGETCL_ALPHA_S_PDF) return HEGETCL_OK;
  char dat[2048], info[2048], line[1 << 16], key[128];
  const char *dir = hegetcl_pdf_directory(run->pdf), *name = hegetcl_pdf_set_name(run->pdf);
  snprintf(dat, sizeof dat, "%s/%s_%04d.dat", dir, name, member);
  snprintf(info, sizeof info, "%s/%s.info", dir, name);
  FILE *f = fopen(dat, "r");
  if (f == NULL) return hg_fail(run->ctx, HEGETCL_ERR_IO, "PDF variations: cannot read %s", dat);
  /* the member's header keys */
  char(*keys)[128] = NULL;
  size_t n_keys = 0;
  int gives_alpha_s = 0;
  char *header = NULL;
  size_t header_size = 0;
  while (fgets(line, sizeof line, f) != NULL && strncmp(line, "---", 3) != 0) {
    line_key(line, key, sizeof key);
    const size_t length = strlen(line);
    char *grown = realloc(header, header_size + length + 1);
    void *more = key[0] ? realloc(keys, (n_keys + 1) * sizeof *keys) : keys;
    if (grown == NULL || more == NULL) {
      free(grown ? grown : header);
      free(more ? more : keys);
      fclose(f);
      return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for %s", dat);
    }
    header = grown;
    keys = more;
    memcpy(header + header_size, line, length + 1);
    header_size += length;
    if (key[0]) {
      snprintf(keys[n_keys++], sizeof *keys, "%s", key);
      gives_alpha_s |= strncmp(key, "AlphaS_", 7) == 0;
    }
  }
  fclose(f);
  hegetcl_status status = HEGETCL_OK;
  if (gives_alpha_s) {
    char merged[] = "/tmp/hegetcl-alpha-s-XXXXXX";
    const int fd = mkstemp(merged);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    FILE *in = fopen(info, "r");
    if (out == NULL || in == NULL) {
      status =
          hg_fail(run->ctx, HEGETCL_ERR_IO, "PDF variations: cannot merge %s with %s", info, dat);
    } else {
      int skip = 0;
      while (fgets(line, sizeof line, in) != NULL) {
        line_key(line, key, sizeof key);
        if (key[0]) {
          skip = 0;
          for (size_t k = 0; k < n_keys; ++k) skip |= strcmp(keys[k], key) == 0;
        }
        if (!skip) fputs(line, out);
      }
      fputs(header, out);
    }
    if (in) fclose(in);
    if (out) fclose(out);
    char error[512];
    if (status == HEGETCL_OK && hg_alpha_s_table(HG_ALPHA_S_INTERPOLATED, merged, 0.0, 0.0, 1,
                                                 table, size, error, sizeof error) != 0)
      status =
          hg_fail(run->ctx, HEGETCL_ERR_INPUT, "PDF variations: alpha_s of %s: %s", dat, error);
    if (fd >= 0) remove(merged);
  }
  free(keys);
  free(header);
  return status;
}

/* MadGraph's Z mass, from which its one-loop alpha_s runs (as run.c's). */
#define VAR_MADGRAPH_MZ 91.188

/* Packs one PDF member's grid (the run's flavour slots) and alpha_s table onto the arrays:
 * member `member` of the run's set, or with other_set the central member of that set with the
 * set's own alpha_s (its .info, or MadGraph's running from its alpha_s(M_Z)), as a run with
 * --pdf other_set would take; *lhapdf_id (may be NULL) gets the member's LHAPDF ID. */
static hegetcl_status add_table(hg_gen_run *run, const char *other_set, int member, double **pdfs,
                                size_t *n_pdfs, double **alpha_s, size_t *n_alpha_s,
                                double *offsets, int *lhapdf_id) {
  char message[1024];
  hegetcl_pdf *pdf = NULL;
  hegetcl_status status = hegetcl_pdf_open(other_set ? other_set : run->config.pdf_set, member,
                                           &pdf, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(run->ctx, status, "PDF variations: %s", message);
  if (lhapdf_id != NULL) *lhapdf_id = hegetcl_pdf_lhapdf_id(pdf);
  double *member_alpha_s = NULL;
  size_t n_member_alpha_s = 0;
  if (other_set != NULL) {
    const int mode = run->config.alpha_s_running == HEGETCL_ALPHA_S_MADGRAPH
                         ? HG_ALPHA_S_ONE_LOOP
                         : HG_ALPHA_S_INTERPOLATED;
    if (hg_alpha_s_table_for_pdf(mode, pdf, hg_pdf_alpha_s_mz(pdf), VAR_MADGRAPH_MZ, 1,
                                 &member_alpha_s, &n_member_alpha_s, message,
                                 sizeof message) != 0) {
      hegetcl_pdf_close(pdf);
      return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "alternative PDF set %s: alpha_s: %s", other_set,
                     message);
    }
  }
  double *grid = NULL;
  size_t n_grid = 0;
  status =
      hg_pdf_pack(pdf, run->pdf_pids, run->n_pdf_pids, &grid, &n_grid, message, sizeof message);
  hegetcl_pdf_close(pdf);
  if (status != HEGETCL_OK) {
    free(member_alpha_s);
    return hg_fail(run->ctx, status, "PDF variations: %s", message);
  }
  offsets[0] = (double)*n_pdfs;
  offsets[1] = (double)*n_alpha_s;
  if (other_set == NULL)
    status = hg_gen_member_alpha_s_table(run, member, &member_alpha_s, &n_member_alpha_s);
  const int failed =
      status == HEGETCL_OK &&
      (append(pdfs, n_pdfs, grid, n_grid) != 0 ||
       (member_alpha_s != NULL
            ? append(alpha_s, n_alpha_s, member_alpha_s, n_member_alpha_s)
            : append(alpha_s, n_alpha_s, run->alpha_s_table, run->alpha_s_size)) != 0);
  free(grid);
  free(member_alpha_s);
  if (status != HEGETCL_OK) return status;
  return failed ? hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the PDF members")
                : HEGETCL_OK;
}

static hegetcl_status build_list(hg_gen_run *run, hg_gen_variations *v, double **var,
                                 double **tables, size_t *n_tables, double **pdfs, size_t *n_pdfs,
                                 double **alpha_s, size_t *n_alpha_s) {
  const hegetcl_xsec_config *c = &run->config;
  hegetcl_variation_result *m = &v->meta;
  const int set_id = hegetcl_pdf_lhapdf_id(run->pdf) - c->pdf_member;
  unsigned n_members = 1;
  if (c->pdf_variations) {
    hegetcl_status status =
        set_members(run, &n_members, m->pdf_error_type, sizeof m->pdf_error_type);
    if (status != HEGETCL_OK) return status;
    char base[sizeof m->pdf_error_type];
    snprintf(base, sizeof base, "%s", m->pdf_error_type);
    const size_t length = strlen(base);
    if (length > 3 && strcmp(base + length - 3, "+as") == 0) base[length - 3] = '\0';
    if (n_members > 1 && strcmp(base, "hessian") != 0 && strcmp(base, "symmhessian") != 0 &&
        strcmp(base, "replicas") != 0)
      return hg_fail(run->ctx, HEGETCL_ERR_INPUT,
                     "PDF variations: %s's ErrorType is \"%s\"; hessian, symmhessian and replicas "
                     "(each with +as) are known (turn PDF variations off with --pdf-variations "
                     "off)",
                     c->pdf_set, m->pdf_error_type);
  }
  if (c->scale_variations != 0 && c->scale_variations != 7 && c->scale_variations != 9)
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT,
                   "scale variations %d: 7 (MadGraph's) or 9 points, or 0 for none",
                   c->scale_variations);
  if (c->scale_variations && hegetcl_variations_add_scales(&m->list, set_id + c->pdf_member,
                                                           c->scale_variations == 7) != HEGETCL_OK)
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "too many variations");
  for (unsigned k = 0; k < m->list.n; ++k) m->list.v[k].pdf_member = c->pdf_member;
  m->n_scales = m->list.n;
  m->first_pdf = m->list.n;
  if (c->pdf_variations && n_members == 1) /* said with sigma: no PDF band */
    snprintf(m->pdf_error_type, sizeof m->pdf_error_type, "none");
  if (c->pdf_variations && n_members > 1) {
    if (hegetcl_variations_add_pdf_set(&m->list, hegetcl_pdf_set_name(run->pdf), m->pdf_error_type,
                                       set_id, n_members) != HEGETCL_OK)
      return hg_fail(run->ctx, HEGETCL_ERR_INPUT,
                     "PDF variations: %u scale variations and %u members are more than %d",
                     m->n_scales, n_members, HEGETCL_MAX_VARIATIONS);
    m->n_pdf = n_members;
  }
  /* the alternative central sets, each its own table (its LHAPDF ID is known once it is open) */
  m->first_alt = m->list.n;
  char alt[HEGETCL_MAX_ALT_PDF_SETS][256];
  for (const char *p = c->alt_pdf_sets; p[0] != '\0';) {
    const size_t length = strcspn(p, ",");
    if (length == 0 || length >= sizeof alt[0] || m->n_alt >= HEGETCL_MAX_ALT_PDF_SETS)
      return hg_fail(run->ctx, HEGETCL_ERR_INPUT,
                     "alt-pdf \"%s\": a comma-separated list of up to %d LHAPDF set names, none "
                     "empty",
                     c->alt_pdf_sets, HEGETCL_MAX_ALT_PDF_SETS);
    memcpy(alt[m->n_alt], p, length);
    alt[m->n_alt][length] = '\0';
    const char *slash = strrchr(alt[m->n_alt], '/');
    if (hegetcl_variations_add_alt_set(&m->list, slash ? slash + 1 : alt[m->n_alt], 0) !=
        HEGETCL_OK)
      return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "more than %d variations",
                     HEGETCL_MAX_VARIATIONS);
    m->n_alt++;
    if (p[length] == '\0') break;
    p += length + 1;
  }
  v->n = m->list.n;
  /* table 0: the run's own member; table 1 + k: the set's member k; then the other sets' */
  const size_t n_t = 1 + m->n_pdf + m->n_alt;
  *var = calloc(3 * (size_t)v->n, sizeof **var);
  *tables = calloc(2 * n_t, sizeof **tables);
  if (*var == NULL || *tables == NULL)
    return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations");
  *n_tables = n_t;
  hegetcl_status status = HEGETCL_OK;
  for (size_t t = 0; t < 1 + m->n_pdf && status == HEGETCL_OK; ++t)
    status = add_table(run, NULL, t == 0 ? c->pdf_member : (int)t - 1, pdfs, n_pdfs, alpha_s,
                       n_alpha_s, *tables + 2 * t, NULL);
  for (unsigned a = 0; a < m->n_alt && status == HEGETCL_OK; ++a) {
    hegetcl_variation *x = &m->list.v[m->first_alt + a];
    status = add_table(run, alt[a], 0, pdfs, n_pdfs, alpha_s, n_alpha_s,
                       *tables + 2 * (1 + m->n_pdf + a), &x->pdf_lhapdf_id);
    snprintf(x->description, sizeof x->description, "PDF=%d MemberID=0", x->pdf_lhapdf_id);
  }
  for (unsigned k = 0; k < v->n; ++k) {
    (*var)[3 * k] = m->list.v[k].mu_r_factor;
    (*var)[3 * k + 1] = m->list.v[k].mu_f_factor;
    (*var)[3 * k + 2] = k < m->first_pdf    ? 0.0
                        : k < m->first_alt ? (double)(1 + k - m->first_pdf)
                                           : (double)(1 + m->n_pdf + k - m->first_alt);
  }
  return status;
}

static hegetcl_status open_group(hg_gen_variations *v, unsigned gi) {
  hg_gen_run *run = v->run;
  gen_group *g = &run->groups[gi];
  var_group *vg = &v->groups[gi];
  char options[1200];
  snprintf(options, sizeof options, "%s -D GEN_VAR_CHUNK=%u", g->options, v->chunk);
  const hg_source_part part = {"generator/variations.cl", NULL};
  double seconds = 0.0;
  hegetcl_status status = hg_program_get(run->ctx, &part, 1, options, &vg->program, &seconds);
  run->build_seconds += seconds;
  if (status == HEGETCL_OK)
    status = hg_kernel_create(run->ctx, vg->program, HG_KERNEL_GENERATOR_VARIATIONS, &vg->kernel);
  if (status != HEGETCL_OK) return status;
  vg->chunks = calloc(v->n_chunks, sizeof *vg->chunks);
  if (vg->chunks == NULL) return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  for (unsigned c = 0; c < v->n_chunks && status == HEGETCL_OK; ++c)
    status = hg_channels_create(run->ctx, vg->program, v->chunk, run->config.vegas.batch_size,
                                v->out, &vg->chunks[c]);
  return status;
}

hegetcl_status hg_gen_variations_create(hg_gen_run *run, hg_gen_variations **out) {
  *out = NULL;
  const hegetcl_xsec_config *c = &run->config;
  if (!c->scale_variations && !c->pdf_variations && c->alt_pdf_sets[0] == '\0') return HEGETCL_OK;
  hg_gen_variations *v = calloc(1, sizeof *v);
  if (v == NULL) return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations");
  v->run = run;
  *out = v;
  double *var = NULL, *tables = NULL, *pdfs = NULL, *alpha_s = NULL;
  size_t n_tables = 0, n_pdfs = 0, n_alpha_s = 0;
  hegetcl_status status =
      build_list(run, v, &var, &tables, &n_tables, &pdfs, &n_pdfs, &alpha_s, &n_alpha_s);
  const size_t batch = c->vegas.batch_size;
  if (status == HEGETCL_OK && v->n > 0) {
    size_t chunk = VAR_BUFFER_BYTES / (batch * sizeof(double));
    chunk = chunk < 1 ? 1 : chunk > VAR_CHUNK_MAX ? VAR_CHUNK_MAX : chunk;
    v->chunk = v->n < chunk ? v->n : (unsigned)chunk;
    v->n_chunks = (v->n + v->chunk - 1) / v->chunk;
    hegetcl_context *ctx = run->ctx;
    status =
        buffer(ctx, CL_MEM_READ_ONLY, 3 * v->n * sizeof(double), var, "the variations", &v->var);
    if (status == HEGETCL_OK)
      status = buffer(ctx, CL_MEM_READ_ONLY, 2 * n_tables * sizeof(double), tables,
                      "the PDF members' offsets", &v->tables);
    if (status == HEGETCL_OK)
      status = buffer(ctx, CL_MEM_READ_ONLY, n_pdfs * sizeof(double), pdfs,
                      "the PDF members' grids", &v->pdfs);
    if (status == HEGETCL_OK)
      status = buffer(ctx, CL_MEM_READ_ONLY, n_alpha_s * sizeof(double), alpha_s,
                      "the PDF members' alpha_s", &v->alpha_s);
    if (status == HEGETCL_OK)
      status = buffer(ctx, CL_MEM_READ_WRITE, (size_t)v->chunk * batch * sizeof(double), NULL,
                      "the variations' factors", &v->out);
    if (status == HEGETCL_OK)
      status = buffer(ctx, CL_MEM_READ_ONLY, batch * sizeof(cl_uint), NULL,
                      "the accepted events' indices", &v->index);
    /* x1, x2, mu_F^2, mu_R^2, alpha_s, base, factor per event (cl/generator/variations.cl) */
    if (status == HEGETCL_OK)
      status = buffer(ctx, CL_MEM_READ_WRITE, 7 * batch * sizeof(double), NULL,
                      "the variations' event state", &v->state);
    v->groups = status == HEGETCL_OK ? calloc(run->n_groups, sizeof *v->groups) : NULL;
    if (status == HEGETCL_OK && v->groups == NULL)
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations");
    for (unsigned g = 0; g < run->n_groups && status == HEGETCL_OK; ++g) status = open_group(v, g);
  }
  free(var);
  free(tables);
  free(pdfs);
  free(alpha_s);
  return status;
}

void hg_gen_variations_destroy(hg_gen_variations *v) {
  if (v == NULL) return;
  for (unsigned g = 0; v->groups != NULL && g < v->run->n_groups; ++g) {
    var_group *vg = &v->groups[g];
    for (unsigned c = 0; vg->chunks != NULL && c < v->n_chunks; ++c)
      hg_channels_destroy(vg->chunks[c]);
    free(vg->chunks);
    if (vg->kernel) clReleaseKernel(vg->kernel);
  }
  free(v->groups);
  cl_mem buffers[] = {v->var, v->tables, v->pdfs, v->alpha_s, v->out, v->index, v->state};
  for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  free(v);
}

unsigned hg_gen_variations_count(const hg_gen_variations *v) { return v ? v->n : 0u; }

size_t hg_gen_variations_batch_sums(const hg_gen_variations *v) {
  if (v == NULL || v->n == 0) return 0;
  return v->n_chunks * hg_channels_batch_sums(v->groups[0].chunks[0]);
}

/* Launches group g's kernel for variations [first_variation, + chunk) over n events. */
static hegetcl_status launch(hg_gen_variations *v, unsigned gi, uint32_t iteration,
                             uint64_t first_event, size_t n_events, int use_index,
                             unsigned first_variation, int ratio) {
  hg_gen_run *run = v->run;
  hegetcl_context *ctx = run->ctx;
  gen_group *g = &run->groups[gi];
  cl_kernel k = v->groups[gi].kernel;
  const cl_uint indexed = (cl_uint)use_index;
  const cl_uint first_v = first_variation, n_v = v->n, as_ratio = (cl_uint)ratio;
  cl_int err = hg_gen_set_event_args(k, g, iteration, first_event, n_events);
  err |= clSetKernelArg(k, 10, sizeof(cl_mem), &v->index);
  err |= clSetKernelArg(k, 11, sizeof(cl_uint), &indexed);
  err |= clSetKernelArg(k, 12, sizeof(cl_mem), &v->var);
  err |= clSetKernelArg(k, 13, sizeof(cl_uint), &first_v);
  err |= clSetKernelArg(k, 14, sizeof(cl_uint), &n_v);
  err |= clSetKernelArg(k, 15, sizeof(cl_mem), &v->tables);
  err |= clSetKernelArg(k, 16, sizeof(cl_mem), &v->pdfs);
  err |= clSetKernelArg(k, 17, sizeof(cl_mem), &v->alpha_s);
  err |= clSetKernelArg(k, 18, sizeof(cl_uint), &as_ratio);
  const cl_uint load_state = first_variation > 0; /* the batch's first chunk keeps the state */
  err |= clSetKernelArg(k, 19, sizeof(cl_mem), &v->state);
  err |= clSetKernelArg(k, 20, sizeof(cl_uint), &load_state);
  err |= clSetKernelArg(k, 21, sizeof(cl_mem), &v->out);
  hegetcl_status status = hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments",
                                      HG_KERNEL_GENERATOR_VARIATIONS);
  if (status != HEGETCL_OK) return status;
  const size_t local = g->local, global = (n_events + local - 1) / local * local;
  err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events of %s",
                     HG_KERNEL_GENERATOR_VARIATIONS, n_events, g->spec.text);
}

hegetcl_status hg_gen_variations_add_batch(hg_gen_variations *v, unsigned gi, uint32_t iteration,
                                           uint64_t first_event, size_t n_events, double *out,
                                           double *histogram_out) {
  if (v == NULL || v->n == 0) return HEGETCL_OK;
  var_group *vg = &v->groups[gi];
  const size_t per = hg_channels_batch_sums(vg->chunks[0]);
  hegetcl_status status = HEGETCL_OK;
  for (unsigned c = 0; c < v->n_chunks && status == HEGETCL_OK; ++c) {
    status = launch(v, gi, iteration, first_event, n_events, 0, c * v->chunk, 0);
    if (status == HEGETCL_OK)
      status =
          hg_channels_add_batch(vg->chunks[c], v->run->groups[gi].amp->me, n_events, out + c * per);
    for (unsigned k = 0; histogram_out != NULL && k < v->chunk && c * v->chunk + k < v->n &&
                         status == HEGETCL_OK;
         ++k)
      status = hg_gen_histograms_add_variation(v->run->histograms, gi, c * v->chunk + k, v->out,
                                               (size_t)k * n_events, n_events, histogram_out);
  }
  return status;
}

void hg_gen_variations_end_iteration(hg_gen_variations *v, unsigned gi, uint64_t n_events,
                                     double variance, const double *sums) {
  if (v == NULL || v->n == 0) return;
  const size_t per = hg_channels_batch_sums(v->groups[gi].chunks[0]);
  for (unsigned c = 0; c < v->n_chunks; ++c)
    hg_channels_end_iteration(v->groups[gi].chunks[c], n_events, variance, sums + c * per);
}

hegetcl_status hg_gen_variations_result(hg_gen_variations *v, hegetcl_xsec_result *result) {
  if (v == NULL) return HEGETCL_OK;
  hegetcl_variation_result *r = malloc(sizeof *r);
  if (r == NULL) return hg_fail(v->run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory");
  *r = v->meta;
  double variance[HEGETCL_MAX_VARIATIONS] = {0};
  memset(r->sigma_fb, 0, sizeof r->sigma_fb);
  hegetcl_xsec_channel per[VAR_CHUNK_MAX];
  for (unsigned g = 0; g < v->run->n_groups && v->n > 0; ++g)
    for (unsigned c = 0; c < v->n_chunks; ++c) {
      hg_channels_result(v->groups[g].chunks[c], per);
      for (unsigned k = 0; k < v->chunk && c * v->chunk + k < v->n; ++k) {
        r->sigma_fb[c * v->chunk + k] += per[k].sigma_fb;
        variance[c * v->chunk + k] += per[k].error_fb * per[k].error_fb;
      }
    }
  for (unsigned k = 0; k < v->n; ++k) r->error_fb[k] = sqrt(variance[k]);
  free(result->variations);
  result->variations = r;
  if (hegetcl_variations_summarise(r) != HEGETCL_OK)
    return hg_fail(v->run->ctx, HEGETCL_ERR_INPUT,
                   "the PDF uncertainty of %u members of ErrorType %s: a Hessian set needs an "
                   "even number of error members, replicas at least 3",
                   r->n_pdf, r->pdf_error_type);
  return HEGETCL_OK;
}

hegetcl_status hg_gen_variations_ratios(hg_gen_variations *v, unsigned gi, uint32_t iteration,
                                        uint64_t first, const uint32_t *index, size_t n,
                                        double *ratios) {
  if (v == NULL || v->n == 0 || n == 0) return HEGETCL_OK;
  hegetcl_context *ctx = v->run->ctx;
  cl_int err = clEnqueueWriteBuffer(ctx->queue, v->index, CL_TRUE, 0, n * sizeof(cl_uint), index, 0,
                                    NULL, NULL);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clEnqueueWriteBuffer", "uploading the accepted events");
  for (unsigned c = 0; c < v->n_chunks && status == HEGETCL_OK; ++c) {
    status = launch(v, gi, iteration, first, n, 1, c * v->chunk, 1);
    const unsigned count = v->n - c * v->chunk < v->chunk ? v->n - c * v->chunk : v->chunk;
    if (status != HEGETCL_OK) break;
    err = clEnqueueReadBuffer(ctx->queue, v->out, CL_TRUE, 0, count * n * sizeof(double),
                              ratios + (size_t)c * v->chunk * n, 0, NULL, NULL);
    status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the variations' ratios");
  }
  return status;
}

void hg_gen_variations_save(hg_gen_variations *v, hg_ckpt_writer *w) {
  if (v == NULL || v->n == 0) return;
  for (unsigned g = 0; g < v->run->n_groups; ++g)
    for (unsigned c = 0; c < v->n_chunks; ++c) {
      size_t count = 0;
      const double *sums = hg_channels_combination(v->groups[g].chunks[c], &count);
      hg_ckpt_put_reals(w, "generator.variations", sums, count);
    }
}

int hg_gen_variations_load(hg_gen_variations *v, hg_ckpt *c) {
  if (v == NULL || v->n == 0) return 0;
  const size_t lines = (size_t)v->run->n_groups * v->n_chunks;
  if (hg_ckpt_count(c, "generator.variations") != lines) {
    snprintf(c->message, sizeof c->message,
             "%s holds %zu lines of variation sums, this run %zu: the checkpoint is incomplete or "
             "another run's",
             c->path, hg_ckpt_count(c, "generator.variations"), lines);
    return HEGETCL_ERR_INPUT;
  }
  int status = 0;
  for (unsigned g = 0; g < v->run->n_groups && status == 0; ++g)
    for (unsigned k = 0; k < v->n_chunks && status == 0; ++k) {
      size_t count = 0;
      double *sums = hg_channels_combination(v->groups[g].chunks[k], &count);
      status =
          hg_ckpt_get_reals(c, "generator.variations", (size_t)g * v->n_chunks + k, sums, count);
    }
  return status;
}
