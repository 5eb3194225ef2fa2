/* SPDX-License-Identifier: MIT */
/* The unweighting stage of a run over a process: hit-or-miss per group against its largest
 * weight, the member (partonic channel) of each event by its PDFs' share, and its colour flow
 * from the flows' leading-colour weights (docs/generator.md, "Events"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "core/program.h"
#include "generator/helicities.h"
#include "generator/run_internal.h"
#include "generator/variations.h"
#include "integrate/weight.h"
#include "pdf/alpha_s.h"
#include "phasespace/scales.h"
#include "process/codegen.h"
#include "process/diagrams.h"
#include "process/model.h"
#include "shared/kernel_names.h"
#include "shared/philox.h"

void hg_gen_flows_close(hg_gen_flows *f) {
  if (f->kernel) clReleaseKernel(f->kernel);
  if (f->momenta) clReleaseMemObject(f->momenta);
  if (f->weights) clReleaseMemObject(f->weights);
  if (f->have_set) hg_diagrams_free(&f->set);
  free(f->valid);
  free(f->basis_of);
  free(f->engine_w);
  memset(f, 0, sizeof *f);
}

static hegetcl_status flows_reserve(hegetcl_context *ctx, hg_gen_flows *f, size_t n);

/* Whether basis flow k's ICOLUP is a colour flow of spec's particles: hg_gen_flow_colours takes
 * it, and every gluon has a colour and a different anticolour. */
static int flow_valid(const hg_process_spec *spec, const hg_colour_term *flow) {
  int colour[HG_GEN_MAX_EXTERNAL][2];
  if (spec->n > HG_GEN_MAX_EXTERNAL || hg_gen_flow_colours(spec, flow, colour) != 0) return 0;
  for (int i = 0; i < spec->n; ++i)
    if (hg_model_particle(hg_species_particle(spec->species[i]))->pdg == 21 &&
        (colour[i][0] == 0 || colour[i][1] == 0 || colour[i][0] == colour[i][1]))
      return 0;
  return 1;
}

/* The recursive engine's flows of amp mapped onto the basis: basis_of[k] for its flow k. */
static hegetcl_status map_engine_flows(hegetcl_context *ctx, const hg_process_spec *spec,
                                       hg_gen_flows *f) {
  hg_colour_term *engine = NULL;
  size_t n = 0;
  hegetcl_status status = hg_amplitude_flows(f->amp, &engine, &n);
  if (status != HEGETCL_OK) return status;
  f->n_engine = n;
  f->basis_of = malloc((n + 1) * sizeof *f->basis_of);
  if (f->basis_of == NULL) status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the flows");
  for (size_t k = 0; k < n && status == HEGETCL_OK; ++k) {
    size_t b = 0;
    while (b < f->set.n_flows && !hg_colour_same_structure(&engine[k], &f->set.flows[b])) ++b;
    if (b == f->set.n_flows)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT,
                       "colour flows of %s: the recursive engine's flow %zu is none of the %zu "
                       "elements of the diagrams engine's colour basis (an internal "
                       "inconsistency; --group-engine diagrams avoids it)",
                       spec->text, k, f->set.n_flows);
    else
      f->basis_of[k] = b;
  }
  free(engine);
  return status;
}

hegetcl_status hg_gen_flows_open(hegetcl_context *ctx, const hg_process_spec *spec,
                                 hegetcl_amplitude *amp, size_t capacity, hg_gen_flows *f) {
  memset(f, 0, sizeof *f);
  char error[1024];
  if (hg_diagrams_build(spec, 0, &f->set, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "colour flows of %s: %s", spec->text, error);
  f->have_set = 1;
  f->n_particles = spec->n;
  f->valid = malloc(f->set.n_flows + 1);
  if (f->valid == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the flows");
  for (size_t k = 0; k < f->set.n_flows; ++k)
    f->valid[k] = (unsigned char)flow_valid(spec, &f->set.flows[k]);
  hegetcl_status status = HEGETCL_OK;
  if (amp != NULL && amp->general && amp->process.engine == HEGETCL_ENGINE_RECURSIVE) {
    /* the group's own program: no build */
    f->amp = amp;
    if (hg_amplitude_real_size(amp) != sizeof(double))
      return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                     "colour flows of %s need the amplitude in double precision (--precision "
                     "double)",
                     spec->text);
    status = map_engine_flows(ctx, spec, f);
    if (status == HEGETCL_OK)
      status = hg_kernel_create(ctx, amp->program, HG_KERNEL_AMPLITUDE_FLOW_WEIGHTS, &f->kernel);
    if (status != HEGETCL_OK) return status;
    return flows_reserve(ctx, f, capacity > 0 ? capacity : 1);
  }
  char *generated = hg_process_source_flow_weights(&f->set);
  if (generated == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for flow code");
  char options[512];
  status = hg_build_options(ctx, HEGETCL_PRECISION_DOUBLE, 0, options, sizeof options);
  const hg_source_part parts[] = {
      {"amplitudes/process_common.cl", NULL}, {NULL, generated}, {"generator/flows.cl", NULL}};
  if (status == HEGETCL_OK)
    status = hg_program_get(ctx, parts, 3, options, &f->program, &f->build_seconds);
  free(generated);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, f->program, HG_KERNEL_GENERATOR_FLOWS, &f->kernel);
  if (status != HEGETCL_OK) return status;
  return flows_reserve(ctx, f, capacity > 0 ? capacity : 1);
}

/* The flows' device buffers (and the engine's weights on the host) for n events (grown, never
 * shrunk). */
static hegetcl_status flows_reserve(hegetcl_context *ctx, hg_gen_flows *f, size_t n) {
  if (n <= f->capacity && f->momenta != NULL) return HEGETCL_OK;
  if (f->momenta) clReleaseMemObject(f->momenta);
  if (f->weights) clReleaseMemObject(f->weights);
  f->momenta = f->weights = NULL;
  f->capacity = 0;
  const size_t rows = f->amp != NULL ? f->n_engine : f->set.n_flows;
  if (f->amp != NULL) {
    free(f->engine_w);
    f->engine_w = malloc(rows * n * sizeof *f->engine_w + 1);
    if (f->engine_w == NULL)
      return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the flows' weights");
  }
  cl_int err = CL_SUCCESS;
  f->momenta = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY,
                              4 * (size_t)f->n_particles * n * sizeof(double), NULL, &err);
  hegetcl_status status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the flows' momenta");
  if (status != HEGETCL_OK) return status;
  /* the colour-ordered kernel adds each configuration into its rows: read and written */
  f->weights = clCreateBuffer(ctx->context, f->amp != NULL ? CL_MEM_READ_WRITE : CL_MEM_WRITE_ONLY,
                              rows * n * sizeof(double), NULL, &err);
  status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the flows' weights");
  if (status == HEGETCL_OK) f->capacity = n;
  return status;
}

hegetcl_status hg_gen_flows_weights(hegetcl_context *ctx, hg_gen_flows *f, cl_mem params, size_t n,
                                    const double *momenta, double *w) {
  hegetcl_status status = flows_reserve(ctx, f, n);
  if (status != HEGETCL_OK) return status;
  const size_t count = 4 * (size_t)f->n_particles * n;
  cl_int err = clEnqueueWriteBuffer(ctx->queue, f->momenta, CL_TRUE, 0, count * sizeof(double),
                                    momenta, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueWriteBuffer", "uploading momenta");
  if (status != HEGETCL_OK) return status;
  const size_t nf = f->set.n_flows;
  if (f->amp != NULL) {
    /* the group's program, its flows' rows scattered into the basis's */
    status = hg_amplitude_flow_weights(f->amp, f->kernel, f->momenta, n, f->weights);
    if (status != HEGETCL_OK) return status;
    err = clEnqueueReadBuffer(ctx->queue, f->weights, CL_TRUE, 0,
                              f->n_engine * n * sizeof(double), f->engine_w, 0, NULL, NULL);
    status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the flows' weights");
    if (status != HEGETCL_OK) return status;
    memset(w, 0, nf * n * sizeof *w);
    for (size_t k = 0; k < f->n_engine; ++k)
      memcpy(w + f->basis_of[k] * n, f->engine_w + k * n, n * sizeof *w);
  } else {
    const cl_uint n_events = (cl_uint)n;
    err = clSetKernelArg(f->kernel, 0, sizeof(cl_mem), &f->momenta);
    err |= clSetKernelArg(f->kernel, 1, sizeof(cl_uint), &n_events);
    err |= clSetKernelArg(f->kernel, 2, sizeof(cl_mem), &params);
    err |= clSetKernelArg(f->kernel, 3, sizeof(cl_mem), &f->weights);
    const size_t local = 1, global = n;
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(ctx->queue, f->kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                         HG_KERNEL_GENERATOR_FLOWS, n);
    if (status != HEGETCL_OK) return status;
    err = clEnqueueReadBuffer(ctx->queue, f->weights, CL_TRUE, 0, nf * n * sizeof(double), w, 0,
                              NULL, NULL);
    status = hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the flows' weights");
    if (status != HEGETCL_OK) return status;
  }
  for (size_t k = 0; k < nf; ++k)
    if (!f->valid[k]) memset(w + k * n, 0, n * sizeof *w);
  return HEGETCL_OK;
}

/* Whether group particle i is, seen as outgoing, a quark (its colour index is a string's start)
 * or an antiquark: an outgoing quark or an incoming antiquark is a quark. */
static int outgoing_quark(const hg_process_spec *spec, int i) {
  const int pdg = hg_species_pdg(spec->species[i]);
  return (pdg > 0) == (i >= spec->n_in);
}

int hg_gen_flow_colours(const hg_process_spec *spec, const hg_colour_term *flow, int colour[][2]) {
  int next = 501;
  for (int i = 0; i < spec->n; ++i) colour[i][0] = colour[i][1] = 0;
  /* tags as if every particle were outgoing: T^a_{xy} gives gluon a anticolour tag(x) and colour
   * tag(y); a string starts at a quark (colour) and ends at an antiquark (anticolour); a trace
   * closes on itself */
  for (int s = 0; s < flow->n_strings; ++s) {
    const hg_colour_string *str = &flow->s[s];
    const int trace = str->start == HG_COLOUR_LABEL_TRACE;
    const int first = next;
    int tag = next++;
    if (!trace) {
      if (str->start >= spec->n || str->end >= spec->n || !outgoing_quark(spec, str->start) ||
          outgoing_quark(spec, str->end))
        return -1;
      colour[str->start][0] = tag;
    }
    for (int k = 0; k < str->length; ++k) {
      const int gluon = str->word[k];
      if (gluon >= spec->n) return -1;
      colour[gluon][1] = tag;
      const int last = k == str->length - 1;
      tag = trace && last ? first : next++;
      colour[gluon][0] = tag;
    }
    if (!trace) colour[str->end][1] = tag;
  }
  /* incoming particles: colour and anticolour swap */
  for (int i = 0; i < spec->n_in; ++i) {
    const int c = colour[i][0];
    colour[i][0] = colour[i][1];
    colour[i][1] = c;
  }
  return 0;
}

/* One accepted event of group g (its particles' masses: mass), member m, flow k into e (the
 * member's particle order). */
static void make_record(hg_gen_run *run, gen_group *g, const double *mass, unsigned m,
                        const hg_colour_term *flow, const double (*p)[4], uint64_t number,
                        double ratio, hegetcl_event *e) {
  const hegetcl_xsec_config *c = &run->config;
  const gen_channel *ch = &run->channels[g->first_channel + m];
  const int n = g->spec.n;
  memset(e, 0, sizeof *e);
  e->n_particles = (unsigned)n;
  int colour[HG_GEN_MAX_EXTERNAL][2];
  hg_gen_flow_colours(&g->spec, flow, colour);
  for (int i = 0; i < n; ++i) {
    const int j = ch->order[i]; /* member particle i is group particle j */
    e->pid[i] = ch->pdg[i];
    /* a mirror is the group's event rotated by pi about the x axis */
    e->p[i][0] = p[j][0];
    e->p[i][1] = p[j][1];
    e->p[i][2] = ch->mirror ? -p[j][2] : p[j][2];
    e->p[i][3] = ch->mirror ? -p[j][3] : p[j][3];
    e->status[i] = i < 2 ? -1 : 1;
    e->colour[i][0] = colour[j][0];
    e->colour[i][1] = colour[j][1];
    e->mass[i] = mass[j];
  }
  e->x1 = 2.0 * e->p[0][0] / c->sqrt_s_gev;
  e->x2 = 2.0 * e->p[1][0] / c->sqrt_s_gev;
  const double mu =
      hg_dynamical_scale(c->dynamical_scale_choice, HG_MOMENTA(e->p), NULL, 2, n, 1.0);
  e->mu_f_gev = c->dynamical_scale_choice ? mu * c->mu_f_factor : c->mu_f_gev * c->mu_f_factor;
  e->mu_r_gev = c->dynamical_scale_choice ? mu * c->mu_r_factor : c->mu_r_gev * c->mu_r_factor;
  e->alpha_s =
      run->alpha_s_power > 0 ? hg_alpha_s(run->alpha_s_table, e->mu_r_gev * e->mu_r_gev) : 0.0;
  e->alpha_qed = c->process.alpha;
  e->process_id = (int)g->index + 1;
  e->weight_ratio = ratio;
  e->number = number;
}

/* Largest-remainder shares of n events over the groups by sigma. */
static void shares(const hg_gen_run *run, uint64_t n, uint64_t *out) {
  double total = 0.0;
  for (unsigned g = 0; g < run->n_groups; ++g) total += run->groups[g].result.estimate;
  uint64_t given = 0;
  double rest[HG_MAX_CHANNEL_GROUPS];
  for (unsigned g = 0; g < run->n_groups; ++g) {
    const double exact = (double)n * run->groups[g].result.estimate / total;
    out[g] = (uint64_t)floor(exact);
    rest[g] = exact - floor(exact);
    given += out[g];
  }
  while (given < n) {
    unsigned best = 0;
    for (unsigned g = 1; g < run->n_groups; ++g)
      if (rest[g] > rest[best]) best = g;
    ++out[best];
    rest[best] = -1.0;
    ++given;
  }
}

/* Work-group size of generator_mark and generator_compact (cl/generator/kernels.cl) and the
 * statistics each of its groups sums: the weights, the events above w_max, their excess, the
 * negative events. */
#define GEN_MARK_LOCAL 128
#define GEN_MARK_STATS 4
/* A group's unweighting batches are at least this many work-groups of GEN_MARK_LOCAL per compute
 * unit, and at least the configured batch over GEN_UNWEIGHT_LEAST_SHARE when that is less
 * (docs/generator.md, "Batch sizes of the unweighting"): 65 536 events on an H100 or H200 (132
 * compute units, 2^20 batches), enough to fill one; 1024 on PoCL with two cores. */
#define GEN_UNWEIGHT_LEAST_PER_UNIT 4
#define GEN_UNWEIGHT_LEAST_SHARE 16

/* The hit-or-miss on the device (cl/generator/kernels.cl): its kernels and buffers for batches of
 * up to `batch` events. Only the per-work-group counts and statistics and the kept events cross
 * to the host. */
typedef struct {
  cl_kernel mark, compact;
  cl_mem flags, counts, stats, offsets, index, weight, momenta, members;
  size_t n_groups; /* work-groups of a full batch */
} device_unweight;

static void device_unweight_close(device_unweight *q) {
  if (q->mark) clReleaseKernel(q->mark);
  if (q->compact) clReleaseKernel(q->compact);
  cl_mem buffers[] = {q->flags,  q->counts, q->stats,   q->offsets,
                      q->index,  q->weight, q->momenta, q->members};
  for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  memset(q, 0, sizeof *q);
}

/* The buffers, once for every group (the most particles and members of any): made and released
 * per group, they would also meet Oclgrind's reuse of a released buffer's shadow
 * (docs/opencl-implementations.md, "A second trap"). */
static hegetcl_status device_unweight_open(hg_gen_run *run, size_t batch, device_unweight *q) {
  hegetcl_context *ctx = run->ctx;
  memset(q, 0, sizeof *q);
  q->n_groups = (batch + GEN_MARK_LOCAL - 1) / GEN_MARK_LOCAL;
  size_t np = 0;
  for (unsigned g = 0; g < run->n_groups; ++g)
    np = (size_t)run->groups[g].spec.n > np ? (size_t)run->groups[g].spec.n : np;
  const struct {
    cl_mem_flags flags;
    size_t bytes;
    cl_mem *out;
  } list[] = {{CL_MEM_READ_WRITE, batch, &q->flags},
              {CL_MEM_WRITE_ONLY, q->n_groups * sizeof(cl_uint), &q->counts},
              {CL_MEM_WRITE_ONLY, GEN_MARK_STATS * q->n_groups * sizeof(double), &q->stats},
              {CL_MEM_READ_ONLY, q->n_groups * sizeof(cl_uint), &q->offsets},
              {CL_MEM_WRITE_ONLY, batch * sizeof(cl_uint), &q->index},
              {CL_MEM_WRITE_ONLY, batch * sizeof(double), &q->weight},
              {CL_MEM_WRITE_ONLY, 4 * np * batch * sizeof(double), &q->momenta},
              {CL_MEM_WRITE_ONLY, run->members_max * batch * sizeof(double), &q->members}};
  cl_int err = CL_SUCCESS;
  for (size_t i = 0; i < sizeof list / sizeof *list && err == CL_SUCCESS; ++i)
    *list[i].out = clCreateBuffer(ctx->context, list[i].flags, list[i].bytes, NULL, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating the unweighting's buffers");
}

/* Group g's kernels (its sampler program's), replacing the previous group's. */
static hegetcl_status device_unweight_kernels(hegetcl_context *ctx, gen_group *g,
                                             device_unweight *q) {
  if (q->mark) clReleaseKernel(q->mark);
  if (q->compact) clReleaseKernel(q->compact);
  q->mark = q->compact = NULL;
  hegetcl_status status = hg_kernel_create(ctx, g->program, HG_KERNEL_GENERATOR_MARK, &q->mark);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, g->program, HG_KERNEL_GENERATOR_COMPACT, &q->compact);
  return status;
}

/* Marks the kept events of a batch of n (events first .. first + n of the unweighting) against
 * w_max and reads back each work-group's count and statistics. */
static hegetcl_status device_mark(hg_gen_run *run, gen_group *g, device_unweight *q, uint64_t first,
                                  size_t n, double w_max, cl_uint *counts, double *stats) {
  hegetcl_context *ctx = run->ctx;
  const cl_uint n_events = (cl_uint)n, seed_low = (cl_uint)run->config.vegas.seed,
                seed_high = g->key_high, iteration = GEN_UNWEIGHT_ITERATION,
                block = HG_GEN_BLOCK_UNWEIGHT, first_low = (cl_uint)first,
                first_high = (cl_uint)(first >> 32);
  cl_int err = clSetKernelArg(q->mark, 0, sizeof(cl_mem), &g->factor);
  err |= clSetKernelArg(q->mark, 1, sizeof(cl_mem), &g->amp->me);
  err |= clSetKernelArg(q->mark, 2, sizeof(cl_uint), &n_events);
  err |= clSetKernelArg(q->mark, 3, sizeof(double), &w_max);
  err |= clSetKernelArg(q->mark, 4, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(q->mark, 5, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(q->mark, 6, sizeof(cl_uint), &iteration);
  err |= clSetKernelArg(q->mark, 7, sizeof(cl_uint), &block);
  err |= clSetKernelArg(q->mark, 8, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(q->mark, 9, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(q->mark, 10, sizeof(cl_mem), &q->flags);
  err |= clSetKernelArg(q->mark, 11, sizeof(cl_mem), &q->counts);
  err |= clSetKernelArg(q->mark, 12, sizeof(cl_mem), &q->stats);
  const size_t n_groups = (n + GEN_MARK_LOCAL - 1) / GEN_MARK_LOCAL;
  const size_t local = GEN_MARK_LOCAL, global = n_groups * GEN_MARK_LOCAL;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(ctx->queue, q->mark, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(ctx->queue, q->stats, CL_FALSE, 0,
                              GEN_MARK_STATS * n_groups * sizeof(double), stats, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(ctx->queue, q->counts, CL_TRUE, 0, n_groups * sizeof(cl_uint),
                              counts, 0, NULL, NULL);
  return hg_cl_check(ctx, err, HG_KERNEL_GENERATOR_MARK, "the hit-or-miss of a batch of %s",
                     g->spec.text);
}

/* The first n_kept kept events of a batch of n (offsets: each work-group's first slot) into
 * index, weight, momenta (structure of arrays at stride n_kept, group order) and members (member
 * m at m * n_kept). */
static hegetcl_status device_compact(hegetcl_context *ctx, gen_group *g, device_unweight *q,
                                     size_t n, const cl_uint *offsets, size_t n_kept,
                                     cl_uint *index, double *weight, double *momenta,
                                     double *members) {
  const size_t n_groups = (n + GEN_MARK_LOCAL - 1) / GEN_MARK_LOCAL;
  cl_int err = clEnqueueWriteBuffer(ctx->queue, q->offsets, CL_FALSE, 0,
                                    n_groups * sizeof(cl_uint), offsets, 0, NULL, NULL);
  const cl_uint n_events = (cl_uint)n, kept = (cl_uint)n_kept;
  err |= clSetKernelArg(q->compact, 0, sizeof(cl_mem), &q->flags);
  err |= clSetKernelArg(q->compact, 1, sizeof(cl_mem), &q->offsets);
  err |= clSetKernelArg(q->compact, 2, sizeof(cl_uint), &n_events);
  err |= clSetKernelArg(q->compact, 3, sizeof(cl_uint), &kept);
  err |= clSetKernelArg(q->compact, 4, sizeof(cl_mem), &g->factor);
  err |= clSetKernelArg(q->compact, 5, sizeof(cl_mem), &g->amp->me);
  err |= clSetKernelArg(q->compact, 6, sizeof(cl_mem), &g->amp->momenta);
  err |= clSetKernelArg(q->compact, 7, sizeof(cl_mem), &g->member_factor);
  err |= clSetKernelArg(q->compact, 8, sizeof(cl_mem), &q->index);
  err |= clSetKernelArg(q->compact, 9, sizeof(cl_mem), &q->weight);
  err |= clSetKernelArg(q->compact, 10, sizeof(cl_mem), &q->momenta);
  err |= clSetKernelArg(q->compact, 11, sizeof(cl_mem), &q->members);
  const size_t local = GEN_MARK_LOCAL, global = n_groups * GEN_MARK_LOCAL;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(ctx->queue, q->compact, 1, NULL, &global, &local, 0, NULL, NULL);
  const size_t np = (size_t)g->spec.n;
  const struct {
    cl_mem buffer;
    size_t bytes;
    void *host;
  } reads[] = {{q->index, n_kept * sizeof(cl_uint), index},
               {q->weight, n_kept * sizeof(double), weight},
               {q->momenta, 4 * np * n_kept * sizeof(double), momenta},
               {q->members, g->n_channels * n_kept * sizeof(double), members}};
  const size_t n_reads = sizeof reads / sizeof *reads;
  for (size_t i = 0; i < n_reads && err == CL_SUCCESS; ++i)
    err = clEnqueueReadBuffer(ctx->queue, reads[i].buffer, i + 1 == n_reads ? CL_TRUE : CL_FALSE,
                              0, reads[i].bytes, reads[i].host, 0, NULL, NULL);
  return hg_cl_check(ctx, err, HG_KERNEL_GENERATOR_COMPACT, "gathering %zu kept events of %s",
                     n_kept, g->spec.text);
}

/* A batch's hit-or-miss as the host adds it up: the events it tried, the weights' sum, the
 * events above w_max and their excess, the negative events. */
typedef struct {
  uint64_t tried, overweight, negative;
  double sum, excess;
} batch_stats;

/* The statistics of a batch of n events whose work-groups kept counts[k] events each, when
 * `wanted` more events are wanted: the events up to the wanted-th kept one count (all when fewer
 * are kept); n_kept = the events taken. The work-group where the wanted-th kept event lies is
 * read back (128 events' weights and flags) and added up here, event by event. */
static hegetcl_status batch_statistics(hg_gen_run *run, gen_group *g, device_unweight *q, size_t n,
                                       const cl_uint *counts, const double *stats, uint64_t wanted,
                                       double w_max, cl_uint *offsets, size_t *n_kept,
                                       batch_stats *b) {
  hegetcl_context *ctx = run->ctx;
  const size_t n_groups = (n + GEN_MARK_LOCAL - 1) / GEN_MARK_LOCAL;
  memset(b, 0, sizeof *b);
  uint64_t kept = 0;
  size_t k = 0;
  for (; k < n_groups && kept + counts[k] < wanted; ++k) {
    offsets[k] = (cl_uint)kept;
    kept += counts[k];
    b->sum += stats[GEN_MARK_STATS * k];
    b->overweight += (uint64_t)stats[GEN_MARK_STATS * k + 1];
    b->excess += stats[GEN_MARK_STATS * k + 2];
    b->negative += (uint64_t)stats[GEN_MARK_STATS * k + 3];
  }
  if (k == n_groups) { /* the whole batch counts */
    b->tried = n;
    *n_kept = (size_t)kept;
    return HEGETCL_OK;
  }
  /* work-group k holds the last wanted event: add its events up to that one */
  offsets[k] = (cl_uint)kept;
  for (size_t j = k + 1; j < n_groups; ++j) offsets[j] = (cl_uint)wanted; /* past the end */
  const size_t start = k * GEN_MARK_LOCAL;
  const size_t m = n - start < GEN_MARK_LOCAL ? n - start : GEN_MARK_LOCAL;
  double factor[GEN_MARK_LOCAL], me[GEN_MARK_LOCAL];
  unsigned char flags[GEN_MARK_LOCAL];
  cl_int err = clEnqueueReadBuffer(ctx->queue, g->factor, CL_FALSE, start * sizeof(double),
                                   m * sizeof(double), factor, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(ctx->queue, g->amp->me, CL_FALSE, start * sizeof(double),
                              m * sizeof(double), me, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(ctx->queue, q->flags, CL_TRUE, start, m, flags, 0, NULL, NULL);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading a work-group of %s", g->spec.text);
  if (status != HEGETCL_OK) return status;
  size_t last = 0;
  for (size_t e = 0; e < m && kept < wanted; ++e) {
    const double w = hg_event_weight(factor[e], me[e]);
    b->sum += w;
    b->overweight += w > w_max;
    b->excess += w > w_max ? w - w_max : 0.0;
    b->negative += w < 0.0;
    kept += flags[e] != 0;
    last = e;
  }
  if (kept < wanted)
    return hg_fail(ctx, HEGETCL_ERR_OPENCL,
                   "%s: the hit-or-miss's flags of a work-group hold fewer kept events than its "
                   "count (a device fault)",
                   g->spec.text);
  b->tried = start + last + 1;
  *n_kept = (size_t)wanted;
  return HEGETCL_OK;
}

size_t hg_gen_unweight_batch_size(uint64_t needed, uint64_t kept, uint64_t tried, double efficiency,
                                  size_t least, size_t batch, size_t granule) {
  if (granule == 0 || granule > batch) granule = batch;
  size_t floor_size = (least + granule - 1) / granule * granule;
  if (floor_size == 0) floor_size = granule;
  if (floor_size > batch) floor_size = batch;
  if (!(efficiency > 0.0) || !isfinite(efficiency)) return batch;
  double p = ((double)kept + 1.0) / ((double)tried + 1.0 / efficiency);
  p = p < 1.0 ? p : 1.0;
  /* mu - 3 sqrt(mu) = needed: the kept events' mean mu, three of its Poisson deviations above
   * the events needed */
  const double root = 1.5 + sqrt(2.25 + (double)needed), trials = root * root / p;
  if (!(trials < (double)batch)) return batch;
  const size_t n = ((size_t)ceil(trials) + granule - 1) / granule * granule;
  return n < floor_size ? floor_size : n > batch ? batch : n;
}

static size_t gcd_size(size_t a, size_t b) {
  while (b != 0) {
    const size_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

typedef struct {
  hg_gen_run *run;
  const uint64_t *per_group;
  hg_gen_flows *flows;
} flows_work;

static hegetcl_status open_one_flows(size_t gi, void *user) {
  const flows_work *w = user;
  if (w->per_group[gi] == 0) return HEGETCL_OK;
  gen_group *g = &w->run->groups[gi];
  return hg_gen_flows_open(w->run->ctx, &g->spec, g->amp, 1024, &w->flows[gi]);
}

/* The flows of every group with events to write, opened (their colour basis, and for a group of
 * the diagrams engine their program built, several groups at once) before the first batch, so
 * that this counts as builds; a group of the recursive engine takes a kernel of its amplitude's
 * program. */
static hegetcl_status open_flows(hg_gen_run *run, const uint64_t *per_group, hg_gen_flows *flows) {
  flows_work w = {run, per_group, flows};
  return hg_parallel_for(run->n_groups, open_one_flows, &w);
}

hegetcl_status hg_gen_run_unweight(hg_gen_run *run, uint64_t n_events, hegetcl_event_sink sink,
                                   void *sink_user, hegetcl_events_progress progress,
                                   void *progress_user, hegetcl_unweighting_result *out,
                                   hegetcl_xsec_result *times) {
  hegetcl_context *ctx = run->ctx;
  const hegetcl_xsec_config *c = &run->config;
  memset(out, 0, sizeof *out);
  out->requested = n_events;
  if (c->process.precision != HEGETCL_PRECISION_DOUBLE)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "unweighted events of a process run need --precision double for now");
  const size_t batch = c->vegas.batch_size;
  const size_t n_wg = (batch + GEN_MARK_LOCAL - 1) / GEN_MARK_LOCAL;
  size_t max_np = 0, max_members = 0;
  for (unsigned g = 0; g < run->n_groups; ++g) {
    max_np = (size_t)run->groups[g].spec.n > max_np ? (size_t)run->groups[g].spec.n : max_np;
    max_members = run->groups[g].n_channels > max_members ? run->groups[g].n_channels : max_members;
  }
  cl_uint *counts = malloc(n_wg * sizeof *counts), *offsets = malloc(n_wg * sizeof *offsets);
  double *stats = malloc(GEN_MARK_STATS * n_wg * sizeof *stats);
  double *kept_weight = malloc(batch * sizeof *kept_weight);
  double *members = malloc(max_members * batch * sizeof *members);
  double *accepted = malloc(4 * max_np * batch * sizeof *accepted);
  cl_uint *accepted_index = malloc(batch * sizeof *accepted_index);
  double *weights = NULL;
  size_t weights_size = 0;
  /* the accepted events' variation ratios, computed on the device (generator/variations.h) */
  const unsigned n_var = hg_gen_variations_count(run->variations);
  double *ratios = n_var ? malloc((size_t)n_var * batch * sizeof *ratios) : NULL;
  uint32_t *ratio_index = n_var ? malloc(batch * sizeof *ratio_index) : NULL;
  double *event_ratios = n_var ? malloc(n_var * sizeof *event_ratios) : NULL;
  if (n_var && (!ratios || !ratio_index || !event_ratios)) {
    free(ratios);
    free(ratio_index);
    free(event_ratios);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variation weights");
  }
  uint64_t *per_group = calloc(run->n_groups, sizeof *per_group);
  hg_gen_flows *all_flows = calloc(run->n_groups, sizeof *all_flows);
  hegetcl_status status = HEGETCL_OK;
  if (!counts || !offsets || !stats || !kept_weight || !members || !accepted || !accepted_index ||
      !per_group || !all_flows)
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the unweighting's batches");
  if (status == HEGETCL_OK) shares(run, n_events, per_group);
  const double open_start = hg_now_seconds();
  if (status == HEGETCL_OK) status = open_flows(run, per_group, all_flows);
  times->build_seconds += hg_now_seconds() - open_start; /* wall seconds: the builds overlap */
  device_unweight dev;
  memset(&dev, 0, sizeof dev);
  if (status == HEGETCL_OK) status = device_unweight_open(run, batch, &dev);
  const double start = hg_now_seconds();
  double sigma_check = 0.0, overweight_sum = 0.0;
  for (unsigned gi = 0; gi < run->n_groups && status == HEGETCL_OK; ++gi) {
    gen_group *g = &run->groups[gi];
    if (per_group[gi] == 0) continue;
    const double w_max = g->result.max_weight;
    hg_gen_flows *flows = &all_flows[gi];
    hg_gen_helicities hel;
    memset(&hel, 0, sizeof hel);
    status = device_unweight_kernels(ctx, g, &dev);
    if (status == HEGETCL_OK) status = hg_gen_helicities_open(ctx, &g->amp->process, &run->fr_shape, &hel);
    /* the masses once per group (hegetcl_process_mass parses the process text) */
    hegetcl_process proc;
    hegetcl_process_from_text(&proc, g->spec.text, NULL, 0);
    double mass[HG_GEN_MAX_EXTERNAL];
    for (int i = 0; i < g->spec.n; ++i) mass[i] = hegetcl_process_mass(&proc, (unsigned)i);
    g->key_high = hg_gen_stage_key(run, gi, 2);
    uint64_t written = 0, tried = 0, sampled = 0;
    unsigned batches = 0;
    double group_sum = 0.0, group_over = 0.0;
    const size_t np = (size_t)g->spec.n;
    /* each batch sized from the events the group still needs (hg_gen_unweight_batch_size), a
     * multiple of both kernels' work-groups; trial k of the group is event first_event + k
     * whatever the sizes, so the events are those of full batches */
    const double efficiency = w_max > 0.0 ? g->result.estimate / w_max : 0.0;
    const size_t granule = GEN_MARK_LOCAL / gcd_size(GEN_MARK_LOCAL, g->local) * g->local;
    const size_t units = ctx->info.compute_units > 0 ? ctx->info.compute_units : 1;
    const size_t per_units = GEN_UNWEIGHT_LEAST_PER_UNIT * GEN_MARK_LOCAL * units;
    const size_t least =
        per_units < batch / GEN_UNWEIGHT_LEAST_SHARE ? per_units : batch / GEN_UNWEIGHT_LEAST_SHARE;
    while (status == HEGETCL_OK && written < per_group[gi]) {
      if (out->tried >= c->max_unweighting_tries) {
        status =
            hg_fail(ctx, HEGETCL_ERR_INPUT,
                    "%s: %llu weighted events tried for %llu unweighted events (the limit, "
                    "--max-unweighting-tries)",
                    g->spec.text, (unsigned long long)out->tried, (unsigned long long)n_events);
        break;
      }
      const size_t n = hg_gen_unweight_batch_size(per_group[gi] - written, written, tried,
                                                  efficiency, least, batch, granule);
      const uint64_t first = run->first_event + sampled;
      sampled += n;
      ++batches;
      const double t0 = hg_now_seconds();
      status = hg_gen_group_sample(g, GEN_UNWEIGHT_ITERATION, first, n, 0);
      if (status == HEGETCL_OK)
        status = hg_cl_check(ctx, clFinish(ctx->queue), "clFinish", "sampling %s", g->spec.text);
      const double t1 = hg_now_seconds();
      times->unweight_device_seconds += t1 - t0;
      /* the hit-or-miss on the device; only counts, sums and the kept events come back */
      if (status == HEGETCL_OK) status = device_mark(run, g, &dev, first, n, w_max, counts, stats);
      batch_stats b;
      size_t n_acc = 0;
      if (status == HEGETCL_OK)
        status = batch_statistics(run, g, &dev, n, counts, stats, per_group[gi] - written, w_max,
                                  offsets, &n_acc, &b);
      const double t2 = hg_now_seconds();
      times->unweight_mark_seconds += t2 - t1;
      if (status != HEGETCL_OK) break;
      tried += b.tried;
      out->tried += b.tried;
      out->negative += b.negative;
      out->overweight += b.overweight;
      group_sum += b.sum;
      group_over += b.excess;
      if (n_acc > 0) {
        status = device_compact(ctx, g, &dev, n, offsets, n_acc, accepted_index, kept_weight,
                                accepted, members);
        times->unweight_transfer_seconds += hg_now_seconds() - t2;
      }
      if (status == HEGETCL_OK && n_acc > 0) {
        if (flows->set.n_flows * n_acc > weights_size) {
          free(weights);
          weights_size = flows->set.n_flows * n_acc;
          weights = malloc(weights_size * sizeof *weights);
          if (weights == NULL)
            status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the flows' weights");
        }
        const double f0 = hg_now_seconds();
        if (status == HEGETCL_OK)
          status = hg_gen_flows_weights(ctx, flows, g->amp->params, n_acc, accepted, weights);
        if (times->groups != NULL && gi < times->n_groups)
          times->groups[gi].flows_seconds += hg_now_seconds() - f0;
        if (status == HEGETCL_OK) status = hg_gen_event_helicity_weights(&hel, n_acc, accepted);
        times->flows_seconds += hg_now_seconds() - f0;
        const double v0 = hg_now_seconds();
        for (size_t a = 0; a < n_acc && n_var; ++a) ratio_index[a] = (uint32_t)accepted_index[a];
        if (status == HEGETCL_OK && n_var)
          status = hg_gen_variations_ratios(run->variations, gi, GEN_UNWEIGHT_ITERATION, first,
                                            ratio_index, n_acc, ratios);
        times->variation_seconds += hg_now_seconds() - v0;
      }
      for (size_t a = 0; status == HEGETCL_OK && a < n_acc; ++a) {
        const double r0 = hg_now_seconds();
        const size_t e = accepted_index[a];
        const hg_philox_words r = hg_philox4x32_10(
            hg_philox_counter(first + e, GEN_UNWEIGHT_ITERATION, HG_GEN_BLOCK_UNWEIGHT + 1),
            (hg_u32)c->vegas.seed, g->key_high);
        /* the member by its share of the factor, the flow by its |J_k|^2 */
        double total = 0.0;
        for (unsigned m = 0; m < g->n_channels; ++m) total += members[m * n_acc + a];
        double pick = hg_uniform_double(r.v[0], r.v[1]) * total, run_sum = 0.0;
        unsigned member = g->n_channels - 1;
        for (unsigned m = 0; m < g->n_channels; ++m) {
          run_sum += members[m * n_acc + a];
          if (pick < run_sum) {
            member = m;
            break;
          }
        }
        double flow_total = 0.0;
        for (size_t k = 0; k < flows->set.n_flows; ++k) flow_total += weights[k * n_acc + a];
        pick = hg_uniform_double(r.v[2], r.v[3]) * flow_total;
        run_sum = 0.0;
        size_t flow = flows->set.n_flows - 1;
        for (size_t k = 0; k < flows->set.n_flows; ++k) {
          run_sum += weights[k * n_acc + a];
          if (pick < run_sum) {
            flow = k;
            break;
          }
        }
        double p[HG_GEN_MAX_EXTERNAL][4];
        for (size_t i = 0; i < np; ++i)
          for (size_t k = 0; k < 4; ++k) p[i][k] = accepted[(k * np + i) * n_acc + a];
        hegetcl_event record;
        make_record(run, g, mass, member, &flows->set.flows[flow], (const double(*)[4])p,
                    first + e, kept_weight[a] / w_max, &record);
        hg_gen_event_helicities(run, g, member, &hel, a, first + e, &record);
        if (n_var) {
          for (unsigned k = 0; k < n_var; ++k) event_ratios[k] = ratios[(size_t)k * n_acc + a];
          record.n_variations = n_var;
          record.variations = event_ratios;
        }
        const double w0 = hg_now_seconds();
        times->record_seconds += w0 - r0;
        status = sink(&record, sink_user);
        times->write_seconds += hg_now_seconds() - w0;
        ++written;
        ++out->written;
      }
      if (progress && status == HEGETCL_OK)
        progress(out->written, n_events, out->tried, progress_user);
    }
    hg_gen_helicities_close(&hel);
    out->sampled += sampled;
    out->batches += batches;
    if (times->groups != NULL && gi < times->n_groups) {
      hegetcl_xsec_group *r = &times->groups[gi];
      r->unweighted_events = written;
      r->unweighting_tried = tried;
      r->unweighting_sampled = sampled;
      r->unweighting_batches = batches;
    }
    /* each group's mean weight estimates its sigma; so the overweight share */
    sigma_check += tried > 0 ? group_sum / (double)tried : 0.0;
    overweight_sum += tried > 0 ? group_over / (double)tried : 0.0;
    out->max_weight_fb = w_max > out->max_weight_fb ? w_max : out->max_weight_fb;
  }
  out->seconds = hg_now_seconds() - start;
  times->unweight_host_seconds =
      out->seconds - times->unweight_device_seconds - times->unweight_mark_seconds -
      times->unweight_transfer_seconds - times->flows_seconds - times->variation_seconds -
      times->record_seconds - times->write_seconds;
  out->efficiency = out->tried > 0 ? (double)out->written / (double)out->tried : 0.0;
  out->sigma_check_fb = sigma_check;
  out->overweight_sigma_fraction = sigma_check > 0 ? overweight_sum / sigma_check : 0.0;
  device_unweight_close(&dev);
  for (unsigned gi = 0; all_flows != NULL && gi < run->n_groups; ++gi)
    hg_gen_flows_close(&all_flows[gi]);
  free(all_flows);
  free(counts);
  free(offsets);
  free(stats);
  free(kept_weight);
  free(members);
  free(accepted);
  free(accepted_index);
  free(weights);
  free(ratios);
  free(ratio_index);
  free(event_ratios);
  free(per_group);
  return status;
}
