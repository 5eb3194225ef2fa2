/* SPDX-License-Identifier: MIT */
/* The unweighting stage of a run over a process: hit-or-miss per group against its largest
 * weight, the member (partonic channel) of each event by its PDFs' share, and its colour flow
 * from the flows' leading-colour weights (docs/generator.md, "Events"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  memset(f, 0, sizeof *f);
}

hegetcl_status hg_gen_flows_open(hegetcl_context *ctx, const hg_process_spec *spec, size_t capacity,
                                 hg_gen_flows *f) {
  memset(f, 0, sizeof *f);
  char error[1024];
  if (hg_diagrams_build(spec, 0, &f->set, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "colour flows of %s: %s", spec->text, error);
  f->have_set = 1;
  f->n_particles = spec->n;
  char *generated = hg_process_source_flow_weights(&f->set);
  if (generated == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for flow code");
  char options[512];
  hegetcl_status status =
      hg_build_options(ctx, HEGETCL_PRECISION_DOUBLE, 0, options, sizeof options);
  const hg_source_part parts[] = {
      {"amplitudes/process_common.cl", NULL}, {NULL, generated}, {"generator/flows.cl", NULL}};
  if (status == HEGETCL_OK) status = hg_program_get(ctx, parts, 3, options, &f->program, NULL);
  free(generated);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, f->program, HG_KERNEL_GENERATOR_FLOWS, &f->kernel);
  if (status != HEGETCL_OK) return status;
  cl_int err = CL_SUCCESS;
  f->capacity = capacity;
  f->momenta = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY,
                              4 * (size_t)spec->n * capacity * sizeof(double), NULL, &err);
  status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the flows' momenta");
  if (status != HEGETCL_OK) return status;
  f->weights = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY,
                              f->set.n_flows * capacity * sizeof(double), NULL, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating the flows' weights");
}

hegetcl_status hg_gen_flows_weights(hegetcl_context *ctx, hg_gen_flows *f, cl_mem params, size_t n,
                                    const double *momenta, double *w) {
  if (n > f->capacity)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%zu events for the flows, room for %zu", n,
                   f->capacity);
  const size_t count = 4 * (size_t)f->n_particles * n;
  cl_int err = clEnqueueWriteBuffer(ctx->queue, f->momenta, CL_TRUE, 0, count * sizeof(double),
                                    momenta, 0, NULL, NULL);
  hegetcl_status status = hg_cl_check(ctx, err, "clEnqueueWriteBuffer", "uploading momenta");
  if (status != HEGETCL_OK) return status;
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
  err = clEnqueueReadBuffer(ctx->queue, f->weights, CL_TRUE, 0, f->set.n_flows * n * sizeof(double),
                            w, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading the flows' weights");
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

/* One accepted event of group g, member m, flow k into e (the member's particle order). */
static void make_record(hg_gen_run *run, gen_group *g, unsigned m, const hg_colour_term *flow,
                        const double (*p)[4], uint64_t number, double ratio, hegetcl_event *e) {
  const hegetcl_xsec_config *c = &run->config;
  const gen_channel *ch = &run->channels[g->first_channel + m];
  const int n = g->spec.n;
  memset(e, 0, sizeof *e);
  e->n_particles = (unsigned)n;
  int colour[HG_GEN_MAX_EXTERNAL][2];
  hg_gen_flow_colours(&g->spec, flow, colour);
  hegetcl_process proc;
  hegetcl_process_from_text(&proc, g->spec.text, NULL, 0);
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
    e->mass[i] = hegetcl_process_mass(&proc, (unsigned)j);
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

/* The batch's weight factors and |M|^2 read back (16 bytes an event). */
static hegetcl_status read_weights(hg_gen_run *run, gen_group *g, size_t n, double *factor,
                                   double *me) {
  hegetcl_context *ctx = run->ctx;
  cl_int err = clEnqueueReadBuffer(ctx->queue, g->factor, CL_FALSE, 0, n * sizeof(double), factor,
                                   0, NULL, NULL);
  err |= clEnqueueReadBuffer(ctx->queue, g->amp->me, CL_TRUE, 0, n * sizeof(double), me, 0, NULL,
                             NULL);
  return hg_cl_check(ctx, err, "clEnqueueReadBuffer", "reading a batch of %s", g->spec.text);
}

/* The kept events' gather on the device (cl/generator/kernels.cl): its kernel and buffers. */
typedef struct {
  cl_kernel kernel;
  cl_mem index, momenta, members;
} gather;

static void gather_close(gather *q) {
  if (q->kernel) clReleaseKernel(q->kernel);
  cl_mem buffers[] = {q->index, q->momenta, q->members};
  for (int i = 0; i < 3; ++i)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  memset(q, 0, sizeof *q);
}

static hegetcl_status gather_open(hegetcl_context *ctx, gen_group *g, size_t batch, gather *q) {
  memset(q, 0, sizeof *q);
  hegetcl_status status = hg_kernel_create(ctx, g->program, HG_KERNEL_GENERATOR_GATHER, &q->kernel);
  cl_int err = CL_SUCCESS;
  if (status == HEGETCL_OK) {
    q->index = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY, batch * sizeof(cl_uint), NULL, &err);
    if (err == CL_SUCCESS)
      q->momenta = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY,
                                  4 * (size_t)g->spec.n * batch * sizeof(double), NULL, &err);
    if (err == CL_SUCCESS)
      q->members = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY,
                                  g->n_channels * batch * sizeof(double), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating the kept events' gather");
  }
  return status;
}

/* The n kept events (batch positions index[0 .. n)) of a batch of n_events: their momenta
 * (structure of arrays at stride n, group order) and member factors (member m at m * n). */
static hegetcl_status gather_run(hegetcl_context *ctx, gen_group *g, gather *q,
                                 const cl_uint *index, size_t n, size_t n_events, double *momenta,
                                 double *members) {
  cl_int err = clEnqueueWriteBuffer(ctx->queue, q->index, CL_FALSE, 0, n * sizeof(cl_uint), index,
                                    0, NULL, NULL);
  const cl_uint n_kept = (cl_uint)n, n_batch = (cl_uint)n_events;
  err |= clSetKernelArg(q->kernel, 0, sizeof(cl_mem), &q->index);
  err |= clSetKernelArg(q->kernel, 1, sizeof(cl_uint), &n_kept);
  err |= clSetKernelArg(q->kernel, 2, sizeof(cl_mem), &g->amp->momenta);
  err |= clSetKernelArg(q->kernel, 3, sizeof(cl_uint), &n_batch);
  err |= clSetKernelArg(q->kernel, 4, sizeof(cl_mem), &g->member_factor);
  err |= clSetKernelArg(q->kernel, 5, sizeof(cl_mem), &q->momenta);
  err |= clSetKernelArg(q->kernel, 6, sizeof(cl_mem), &q->members);
  const size_t local = 1, global = n;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(ctx->queue, q->kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(ctx->queue, q->momenta, CL_FALSE, 0,
                              4 * (size_t)g->spec.n * n * sizeof(double), momenta, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(ctx->queue, q->members, CL_TRUE, 0,
                              g->n_channels * n * sizeof(double), members, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "generator_gather", "gathering %zu kept events of %s", n,
                     g->spec.text);
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
  size_t max_np = 0, max_members = 0;
  for (unsigned g = 0; g < run->n_groups; ++g) {
    max_np = (size_t)run->groups[g].spec.n > max_np ? (size_t)run->groups[g].spec.n : max_np;
    max_members = run->groups[g].n_channels > max_members ? run->groups[g].n_channels : max_members;
  }
  double *factor = malloc(batch * sizeof *factor), *me = malloc(batch * sizeof *me);
  double *members = malloc(max_members * batch * sizeof *members);
  double *accepted = malloc(4 * max_np * batch * sizeof *accepted);
  cl_uint *accepted_index = malloc(batch * sizeof *accepted_index);
  double *weights = NULL;
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
  hegetcl_status status = HEGETCL_OK;
  if (!factor || !me || !members || !accepted || !accepted_index || !per_group)
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the unweighting's batches");
  if (status == HEGETCL_OK) shares(run, n_events, per_group);
  const double start = hg_now_seconds();
  double sigma_check = 0.0, overweight_sum = 0.0;
  for (unsigned gi = 0; gi < run->n_groups && status == HEGETCL_OK; ++gi) {
    gen_group *g = &run->groups[gi];
    if (per_group[gi] == 0) continue;
    const double w_max = g->result.max_weight;
    hg_gen_flows flows;
    gather kept;
    hg_gen_helicities hel;
    memset(&kept, 0, sizeof kept);
    memset(&hel, 0, sizeof hel);
    status = hg_gen_flows_open(ctx, &g->spec, batch, &flows);
    if (status == HEGETCL_OK) status = hg_gen_helicities_open(ctx, &g->amp->process, &hel);
    if (status == HEGETCL_OK) status = gather_open(ctx, g, batch, &kept);
    free(weights);
    weights = status == HEGETCL_OK ? malloc(flows.set.n_flows * batch * sizeof *weights) : NULL;
    if (status == HEGETCL_OK && weights == NULL)
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the flows' weights");
    g->key_high = hg_gen_stage_key(run, gi, 2);
    uint64_t written = 0, tried = 0;
    double group_sum = 0.0, group_over = 0.0;
    const size_t np = (size_t)g->spec.n;
    for (uint32_t pass = 0; status == HEGETCL_OK && written < per_group[gi]; ++pass) {
      if (out->tried >= c->max_unweighting_tries) {
        status =
            hg_fail(ctx, HEGETCL_ERR_INPUT,
                    "%s: %llu weighted events tried for %llu unweighted events (the limit, "
                    "--max-unweighting-tries)",
                    g->spec.text, (unsigned long long)out->tried, (unsigned long long)n_events);
        break;
      }
      const uint64_t first = run->first_event + (uint64_t)pass * batch;
      double t0 = hg_now_seconds();
      status = hg_gen_group_sample(g, GEN_UNWEIGHT_ITERATION, first, batch, 0);
      if (status == HEGETCL_OK) status = read_weights(run, g, batch, factor, me);
      double t1 = hg_now_seconds();
      times->unweight_device_seconds += t1 - t0;
      size_t n_acc = 0;
      for (size_t e = 0; status == HEGETCL_OK && e < batch && written + n_acc < per_group[gi];
           ++e) {
        const double w = hg_event_weight(factor[e], me[e]);
        ++tried;
        ++out->tried;
        group_sum += w;
        const hg_philox_words r = hg_philox4x32_10(
            hg_philox_counter(first + e, GEN_UNWEIGHT_ITERATION, HG_GEN_BLOCK_UNWEIGHT),
            (hg_u32)c->vegas.seed, g->key_high);
        if (w < 0) ++out->negative;
        if (w > w_max) {
          ++out->overweight;
          group_over += w - w_max;
        }
        if (!(hg_uniform_double(r.v[0], r.v[1]) * w_max < w)) continue;
        accepted_index[n_acc++] = (cl_uint)e;
      }
      /* only the kept events' momenta and member factors cross to the host */
      if (status == HEGETCL_OK && n_acc > 0) {
        const double g0 = hg_now_seconds();
        status = gather_run(ctx, g, &kept, accepted_index, n_acc, batch, accepted, members);
        times->unweight_device_seconds += hg_now_seconds() - g0;
      }
      if (status == HEGETCL_OK && n_acc > 0) {
        const double f0 = hg_now_seconds();
        status = hg_gen_flows_weights(ctx, &flows, g->amp->params, n_acc, accepted, weights);
        if (status == HEGETCL_OK) status = hg_gen_event_helicity_weights(&hel, n_acc, accepted);
        times->flows_seconds += hg_now_seconds() - f0;
        for (size_t a = 0; a < n_acc && n_var; ++a) ratio_index[a] = (uint32_t)accepted_index[a];
        if (status == HEGETCL_OK && n_var)
          status = hg_gen_variations_ratios(run->variations, gi, GEN_UNWEIGHT_ITERATION, first,
                                            ratio_index, n_acc, ratios);
      }
      for (size_t a = 0; status == HEGETCL_OK && a < n_acc; ++a) {
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
        for (size_t k = 0; k < flows.set.n_flows; ++k) flow_total += weights[k * n_acc + a];
        pick = hg_uniform_double(r.v[2], r.v[3]) * flow_total;
        run_sum = 0.0;
        size_t flow = flows.set.n_flows - 1;
        for (size_t k = 0; k < flows.set.n_flows; ++k) {
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
        make_record(run, g, member, &flows.set.flows[flow], (const double(*)[4])p, first + e,
                    hg_event_weight(factor[e], me[e]) / w_max, &record);
        hg_gen_event_helicities(run, g, member, &hel, a, first + e, &record);
        if (n_var) {
          for (unsigned k = 0; k < n_var; ++k) event_ratios[k] = ratios[(size_t)k * n_acc + a];
          record.n_variations = n_var;
          record.variations = event_ratios;
        }
        const double w0 = hg_now_seconds();
        status = sink(&record, sink_user);
        times->write_seconds += hg_now_seconds() - w0;
        ++written;
        ++out->written;
      }
      if (progress && status == HEGETCL_OK)
        progress(out->written, n_events, out->tried, progress_user);
      (void)t1;
    }
    hg_gen_flows_close(&flows);
    gather_close(&kept);
    hg_gen_helicities_close(&hel);
    /* each group's mean weight estimates its sigma; so the overweight share */
    sigma_check += tried > 0 ? group_sum / (double)tried : 0.0;
    overweight_sum += tried > 0 ? group_over / (double)tried : 0.0;
    out->max_weight_fb = w_max > out->max_weight_fb ? w_max : out->max_weight_fb;
    (void)written;
  }
  out->seconds = hg_now_seconds() - start;
  times->unweight_host_seconds =
      out->seconds - times->unweight_device_seconds - times->flows_seconds - times->write_seconds;
  out->efficiency = out->tried > 0 ? (double)out->written / (double)out->tried : 0.0;
  out->sigma_check_fb = sigma_check;
  out->overweight_sigma_fraction = sigma_check > 0 ? overweight_sum / sigma_check : 0.0;
  free(factor);
  free(me);
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
