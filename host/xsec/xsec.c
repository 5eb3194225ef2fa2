/* SPDX-License-Identifier: MIT */
/* p p -> n photons cross sections: configuration checks, the sampler program, and VEGAS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "core/program.h"
#include "hegetcl/pdf.h"
#include "hegetcl/xsec.h"
#include "integrate/vegas.h"
#include "pdf/lhapdf6_grid.h"
#include "shared/kernel_names.h"
#include "xsec/params.h"

static const char *const phase_space_names[] = {"collider", "rambo"};
static const char *const orientation_names[] = {"both", "u-first"};
static const char *const helicity_names[] = {"summed", "sampled"};

static hegetcl_status parse_name(const char *name, const char *const *names, int count, int *out) {
  for (int i = 0; i < count; ++i)
    if (name != NULL && strcmp(name, names[i]) == 0) {
      *out = i;
      return HEGETCL_OK;
    }
  return HEGETCL_ERR_INPUT;
}

const char *hegetcl_phase_space_name(hegetcl_phase_space p) {
  return (unsigned)p < 2 ? phase_space_names[p] : "unknown";
}
hegetcl_status hegetcl_phase_space_parse(const char *name, hegetcl_phase_space *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, phase_space_names, 2, &v);
  if (s == HEGETCL_OK) *out = (hegetcl_phase_space)v;
  return s;
}
const char *hegetcl_orientation_name(hegetcl_orientation o) {
  return (unsigned)o < 2 ? orientation_names[o] : "unknown";
}
hegetcl_status hegetcl_orientation_parse(const char *name, hegetcl_orientation *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, orientation_names, 2, &v);
  if (s == HEGETCL_OK) *out = (hegetcl_orientation)v;
  return s;
}
const char *hegetcl_helicity_mode_name(hegetcl_helicity_mode h) {
  return (unsigned)h < 2 ? helicity_names[h] : "unknown";
}
hegetcl_status hegetcl_helicity_mode_parse(const char *name, hegetcl_helicity_mode *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, helicity_names, 2, &v);
  if (s == HEGETCL_OK) *out = (hegetcl_helicity_mode)v;
  return s;
}

void hegetcl_xsec_defaults(hegetcl_xsec_config *c, unsigned n_photons) {
  memset(c, 0, sizeof *c);
  hegetcl_process_defaults(&c->process, n_photons);
  c->quark_pid = 2;
  c->sqrt_s_gev = 14000.0;
  c->mu_f_gev = 20.0;
  c->pt_min_gev = 20.0;
  c->eta_max = 2.5;
  c->delta_r_min = 0.4;
  snprintf(c->pdf_set, sizeof c->pdf_set, "%s", "cteq6l1");
  c->pdf_member = 0;
  c->phase_space = HEGETCL_PHASE_SPACE_COLLIDER;
  c->orientation = HEGETCL_ORIENTATION_BOTH;
  c->helicity = HEGETCL_HELICITY_SUMMED;
  hegetcl_vegas_settings_defaults(&c->vegas);
}

static unsigned dims_of(const hegetcl_xsec_config *c) {
  const unsigned n = c->process.n_photons;
  return c->phase_space == HEGETCL_PHASE_SPACE_RAMBO ? 4 * n + 2 : 3 * n - 2;
}

static hegetcl_status validate(hegetcl_context *ctx, const hegetcl_xsec_config *c) {
  const unsigned n = c->process.n_photons;
  if (!(c->sqrt_s_gev > 0.0) || !isfinite(c->sqrt_s_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "sqrt(s) = %g GeV: must be a positive number",
                   c->sqrt_s_gev);
  if (!(c->pt_min_gev > 0.0) || !isfinite(c->pt_min_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "photon pT cut = %g GeV: must be > 0 (it keeps the photons away from the soft "
                   "and collinear singularities, where sigma is infinite)",
                   c->pt_min_gev);
  if (n * c->pt_min_gev >= c->sqrt_s_gev)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "sqrt(s) = %g GeV is below the threshold n * pT cut = %u * %g GeV: no photon "
                   "configuration passes the cuts",
                   c->sqrt_s_gev, n, c->pt_min_gev);
  if (!(c->eta_max > 0.0) || !isfinite(c->eta_max))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "photon |eta| cut = %g: must be a positive number (the collider phase space "
                   "samples eta inside it)",
                   c->eta_max);
  if (!(c->delta_r_min >= 0.0) || !isfinite(c->delta_r_min))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "photon Delta R cut = %g: must be >= 0", c->delta_r_min);
  if (!(c->mu_f_gev > 0.0) || !isfinite(c->mu_f_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "factorisation scale = %g GeV: must be > 0",
                   c->mu_f_gev);
  if (c->quark_pid < 1 || c->quark_pid > 5)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "quark PDG id %d: must be 1..5 (d u s c b)",
                   c->quark_pid);
  if ((unsigned)c->phase_space > 1 || (unsigned)c->orientation > 1 || (unsigned)c->helicity > 1)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "phase space, orientation or helicity mode unknown");
  if (n > HEGETCL_MAX_XSEC_PHOTONS)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "n = %u photons: the cross section supports 2..%d", n,
                   HEGETCL_MAX_XSEC_PHOTONS);
  return HEGETCL_OK;
}

/* The run's device state, passed to the sampler callback. */
typedef struct {
  hegetcl_context *ctx;
  hegetcl_amplitude *amp;
  cl_kernel sample;
  size_t local; /* xsec_sample's work-group size */
  cl_mem params, pdf, factor, bins;
  uint64_t seed;
  int per_helicity;
} xsec_run;

/* xsec_sample's arguments that stay for the whole run, and its work-group size. */
static hegetcl_status prepare_sampler(xsec_run *r) {
  const cl_uint seed_low = (cl_uint)r->seed, seed_high = (cl_uint)(r->seed >> 32);
  cl_int err = clSetKernelArg(r->sample, 0, sizeof(cl_mem), &r->params);
  err |= clSetKernelArg(r->sample, 2, sizeof(cl_mem), &r->pdf);
  err |= clSetKernelArg(r->sample, 3, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(r->sample, 4, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(r->sample, 9, sizeof(cl_mem), &r->amp->momenta);
  err |= clSetKernelArg(r->sample, 10, sizeof(cl_mem), &r->amp->helicities);
  err |= clSetKernelArg(r->sample, 11, sizeof(cl_mem), &r->factor);
  err |= clSetKernelArg(r->sample, 12, sizeof(cl_mem), &r->bins);
  hegetcl_status status =
      hg_cl_check(r->ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_XSEC_SAMPLE);
  if (status != HEGETCL_OK) return status;
  size_t limit = 0;
  err = clGetKernelWorkGroupInfo(r->sample, r->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit,
                                 &limit, NULL);
  status = hg_cl_check(r->ctx, err, "clGetKernelWorkGroupInfo", "asking %s's work-group limit",
                       HG_KERNEL_XSEC_SAMPLE);
  r->local = limit >= 128 ? 128 : limit;
  return status;
}

/* One batch: the sampler, then the amplitude's kernels on the momenta it wrote. */
static hegetcl_status sample_batch(void *user, uint32_t iteration, uint64_t first_event,
                                   size_t n_events, cl_mem grid) {
  xsec_run *r = user;
  const cl_uint first_low = (cl_uint)first_event, first_high = (cl_uint)(first_event >> 32);
  const cl_uint n = (cl_uint)n_events, it = iteration;
  cl_int err = clSetKernelArg(r->sample, 1, sizeof(cl_mem), &grid);
  err |= clSetKernelArg(r->sample, 5, sizeof(cl_uint), &it);
  err |= clSetKernelArg(r->sample, 6, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(r->sample, 7, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(r->sample, 8, sizeof(cl_uint), &n);
  hegetcl_status status =
      hg_cl_check(r->ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_XSEC_SAMPLE);
  if (status != HEGETCL_OK) return status;
  const size_t local = r->local, global = (n_events + local - 1) / local * local;
  err = clEnqueueNDRangeKernel(r->ctx->queue, r->sample, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(r->ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events",
                       HG_KERNEL_XSEC_SAMPLE, n_events);
  if (status != HEGETCL_OK) return status;
  return hg_amplitude_run(r->amp, n_events, r->per_helicity, NULL);
}

static hegetcl_status make_buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                                  void *host, const char *what, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes, host, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

hegetcl_status hegetcl_xsec_run(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                hegetcl_vegas_progress progress, void *progress_user,
                                hegetcl_xsec_result *result) {
  memset(result, 0, sizeof *result);
  hegetcl_status status = validate(ctx, config);
  if (status != HEGETCL_OK) return status;
  const unsigned n = config->process.n_photons, dims = dims_of(config);
  const size_t batch = config->vegas.batch_size;
  xsec_run run = {.ctx = ctx,
                  .seed = config->vegas.seed,
                  .per_helicity = config->helicity == HEGETCL_HELICITY_SAMPLED};
  hegetcl_pdf *pdf = NULL;
  double *grid = NULL;
  hg_vegas *vegas = NULL;
  char message[2048];
  status = hegetcl_pdf_open(config->pdf_set, config->pdf_member, &pdf, message, sizeof message);
  if (status != HEGETCL_OK) {
    hg_fail(ctx, status, "%s", message);
    goto done;
  }
  result->pdf_lhapdf_id = hegetcl_pdf_lhapdf_id(pdf);
  snprintf(result->pdf_path, sizeof result->pdf_path, "%s", hegetcl_pdf_directory(pdf));
  const int pids[2] = {config->quark_pid, -config->quark_pid};
  size_t n_grid = 0;
  status = hg_pdf_pack(pdf, pids, 2, &grid, &n_grid, message, sizeof message);
  if (status != HEGETCL_OK) {
    hg_fail(ctx, status, "%s", message);
    goto done;
  }
  status = hegetcl_amplitude_create(ctx, &config->process, &run.amp);
  if (status != HEGETCL_OK) goto done;
  result->build_seconds += run.amp->build_seconds;
  snprintf(result->amplitude_options, sizeof result->amplitude_options, "%s", run.amp->options);
  status = hg_amplitude_reserve(run.amp, batch);
  if (status != HEGETCL_OK) goto done;

  char options[512];
  status = hg_build_options(ctx, HEGETCL_PRECISION_DOUBLE, n, options, sizeof options);
  if (status != HEGETCL_OK) goto done;
  const size_t used = strlen(options);
  snprintf(options + used, sizeof options - used,
           " -D VEGAS_DIMS=%u -D VEGAS_BINS=%u -D AMP_REAL=%s -D PHASE_SPACE_RAMBO=%d "
           "-D HELICITY_SAMPLED=%d",
           dims, config->vegas.bins,
           config->process.precision == HEGETCL_PRECISION_DOUBLE ? "double" : "float",
           config->phase_space == HEGETCL_PHASE_SPACE_RAMBO, run.per_helicity);
  snprintf(result->sampler_options, sizeof result->sampler_options, "%s", options);
  const hg_source_part part = {"xsec/kernels.cl", NULL};
  cl_program program = NULL;
  double build_seconds = 0.0;
  status = hg_program_get(ctx, &part, 1, options, &program, &build_seconds);
  if (status != HEGETCL_OK) goto done;
  result->build_seconds += build_seconds;
  status = hg_kernel_create(ctx, program, HG_KERNEL_XSEC_SAMPLE, &run.sample);
  if (status != HEGETCL_OK) goto done;

  double params[HG_XSEC_PARAM_COUNT];
  params[HG_XSEC_SQRT_S] = config->sqrt_s_gev;
  params[HG_XSEC_PT_MIN] = config->pt_min_gev;
  params[HG_XSEC_ETA_MAX] = config->eta_max;
  params[HG_XSEC_DR_MIN] = config->delta_r_min;
  params[HG_XSEC_MU_F2] = config->mu_f_gev * config->mu_f_gev;
  params[HG_XSEC_NORMALISATION] =
      HEGETCL_GEV2_TO_FB * (config->orientation == HEGETCL_ORIENTATION_BOTH ? 2.0 : 1.0);
  status = make_buffer(ctx, CL_MEM_READ_ONLY, sizeof params, params, "parameters", &run.params);
  if (status == HEGETCL_OK)
    status =
        make_buffer(ctx, CL_MEM_READ_ONLY, n_grid * sizeof(double), grid, "the PDF grid", &run.pdf);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, batch * sizeof(double), NULL, "weight factors",
                         &run.factor);
  if (status == HEGETCL_OK)
    status =
        make_buffer(ctx, CL_MEM_READ_WRITE, batch * dims, NULL, "VEGAS bin indices", &run.bins);
  if (status != HEGETCL_OK) goto done;

  status = prepare_sampler(&run);
  if (status != HEGETCL_OK) goto done;
  status = hg_vegas_create(ctx, program, dims, &config->vegas, &vegas);
  if (status != HEGETCL_OK) goto done;
  const hg_vegas_buffers buffers = {run.factor, run.amp->me, run.bins};
  status = hg_vegas_integrate(vegas, sample_batch, &run, &buffers, progress, progress_user,
                              &result->vegas);
done:
  hg_vegas_destroy(vegas);
  if (run.sample) clReleaseKernel(run.sample);
  if (run.params) clReleaseMemObject(run.params);
  if (run.pdf) clReleaseMemObject(run.pdf);
  if (run.factor) clReleaseMemObject(run.factor);
  if (run.bins) clReleaseMemObject(run.bins);
  hegetcl_amplitude_destroy(run.amp);
  free(grid);
  hegetcl_pdf_close(pdf);
  return status;
}
