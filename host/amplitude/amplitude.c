/* SPDX-License-Identifier: MIT */
/* The public amplitude API: picks an engine's sources, builds its program, runs its kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "core/program.h"
#include "diagrams_codegen.h"
#include "kernel_names.h"
#include "layout.h"

static const char *const engine_names[HEGETCL_ENGINE_COUNT] = {"permutation", "unrolled",
                                                               "diagrams", "recursive"};
/* The diagram engine's straight-line code grows as n!; the recursive engine's private currents
 * as 2^n. */
static const unsigned engine_max_photons[HEGETCL_ENGINE_COUNT] = {8, 8, 8, 12};

void hegetcl_process_defaults(hegetcl_process *p, unsigned n_photons) {
  p->n_photons = n_photons;
  p->engine = HEGETCL_ENGINE_RECURSIVE;
  p->precision = HEGETCL_PRECISION_DOUBLE;
  p->alpha = 1.0 / 132.507;
  p->quark_charge = 2.0 / 3.0;
}

const char *hegetcl_engine_name(hegetcl_engine engine) {
  return (unsigned)engine < HEGETCL_ENGINE_COUNT ? engine_names[engine] : "unknown";
}

hegetcl_status hegetcl_engine_parse(const char *name, hegetcl_engine *out) {
  for (unsigned i = 0; i < HEGETCL_ENGINE_COUNT; ++i)
    if (name != NULL && strcmp(name, engine_names[i]) == 0) {
      *out = (hegetcl_engine)i;
      return HEGETCL_OK;
    }
  return HEGETCL_ERR_INPUT;
}

unsigned hegetcl_engine_max_photons(hegetcl_engine engine) {
  return (unsigned)engine < HEGETCL_ENGINE_COUNT ? engine_max_photons[engine] : 0;
}

const char *hegetcl_precision_name(hegetcl_precision precision) {
  return precision == HEGETCL_PRECISION_DOUBLE ? "double"
         : precision == HEGETCL_PRECISION_FLOAT ? "float"
                                                 : "unknown";
}

hegetcl_status hegetcl_precision_parse(const char *name, hegetcl_precision *out) {
  if (name != NULL && strcmp(name, "double") == 0) {
    *out = HEGETCL_PRECISION_DOUBLE;
    return HEGETCL_OK;
  }
  if (name != NULL && strcmp(name, "float") == 0) {
    *out = HEGETCL_PRECISION_FLOAT;
    return HEGETCL_OK;
  }
  return HEGETCL_ERR_INPUT;
}

double hegetcl_me_factor(unsigned n_photons) {
  double factorial = 1;
  for (unsigned i = 2; i <= n_photons; ++i) factorial *= i;
  return 1.0 / (12.0 * factorial);
}

static hegetcl_status validate(hegetcl_context *ctx, const hegetcl_process *p) {
  if ((unsigned)p->engine >= HEGETCL_ENGINE_COUNT)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "engine %d is not an engine: use permutation, unrolled, diagrams or recursive",
                   (int)p->engine);
  const unsigned max = engine_max_photons[p->engine];
  if (p->n_photons < 2 || p->n_photons > max)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "n_photons = %u: the %s engine takes 2 to %u photons%s", p->n_photons,
                   engine_names[p->engine], max,
                   max < 12 ? "; the recursive engine takes up to 12" : "");
  if (p->precision != HEGETCL_PRECISION_DOUBLE && p->precision != HEGETCL_PRECISION_FLOAT)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "precision %d is not float or double",
                   (int)p->precision);
  if (!(p->alpha > 0) || !isfinite(p->alpha))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "alpha = %g: must be a positive finite number",
                   p->alpha);
  if (!isfinite(p->quark_charge) || p->quark_charge == 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "quark_charge = %g: must be finite and non-zero (2/3 for u, -1/3 for d)",
                   p->quark_charge);
  return HEGETCL_OK;
}

hegetcl_status hegetcl_amplitude_create(hegetcl_context *ctx, const hegetcl_process *process,
                                        hegetcl_amplitude **out) {
  *out = NULL;
  if (ctx == NULL || ctx->context == NULL) return HEGETCL_ERR_INPUT;
  hegetcl_status status = validate(ctx, process);
  if (status != HEGETCL_OK) return status;
  hegetcl_amplitude *amp = calloc(1, sizeof *amp);
  if (amp == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for an amplitude");
  amp->ctx = ctx;
  amp->process = *process;
  char *generated = NULL;
  status = hg_build_options(ctx, process->precision, process->n_photons, amp->options,
                            sizeof amp->options);
  if (status != HEGETCL_OK) goto fail;
  hg_source_part parts[3];
  size_t n_parts = 0;
  switch (process->engine) {
  case HEGETCL_ENGINE_PERMUTATION:
    parts[n_parts++] = (hg_source_part){"amplitudes/permutation.cl", NULL};
    break;
  case HEGETCL_ENGINE_UNROLLED:
    parts[n_parts++] = (hg_source_part){"amplitudes/unrolled.cl", NULL};
    break;
  case HEGETCL_ENGINE_RECURSIVE:
    parts[n_parts++] = (hg_source_part){"amplitudes/recursive.cl", NULL};
    break;
  case HEGETCL_ENGINE_DIAGRAMS:
    status = hg_diagrams_source(process->n_photons, &generated);
    if (status != HEGETCL_OK) {
      hg_fail(ctx, status, "generating the diagram code for %u photons failed",
              process->n_photons);
      goto fail;
    }
    parts[n_parts++] = (hg_source_part){"amplitudes/engine_common.cl", NULL};
    parts[n_parts++] = (hg_source_part){NULL, generated};
    break;
  }
  parts[n_parts++] = (hg_source_part){"amplitudes/kernels.cl", NULL};
  status = hg_program_get(ctx, parts, n_parts, amp->options, &amp->program, &amp->build_seconds);
  if (status != HEGETCL_OK) goto fail;
  status = hg_kernel_create(ctx, amp->program, HG_KERNEL_AMPLITUDE_SUMMED, &amp->summed);
  if (status != HEGETCL_OK) goto fail;
  status = hg_kernel_create(ctx, amp->program, HG_KERNEL_AMPLITUDE_HELICITY, &amp->helicity);
  if (status != HEGETCL_OK) goto fail;
  free(generated);
  *out = amp;
  return HEGETCL_OK;
fail:
  free(generated);
  hegetcl_amplitude_destroy(amp);
  return status;
}

static void release_buffers(hegetcl_amplitude *amp) {
  if (amp->momenta != NULL) clReleaseMemObject(amp->momenta);
  if (amp->helicities != NULL) clReleaseMemObject(amp->helicities);
  if (amp->me != NULL) clReleaseMemObject(amp->me);
  amp->momenta = amp->helicities = amp->me = NULL;
  free(amp->staging);
  amp->staging = NULL;
  amp->capacity = 0;
}

void hegetcl_amplitude_destroy(hegetcl_amplitude *amp) {
  if (amp == NULL) return;
  release_buffers(amp);
  if (amp->summed != NULL) clReleaseKernel(amp->summed);
  if (amp->helicity != NULL) clReleaseKernel(amp->helicity);
  free(amp); /* the program belongs to the context's cache */
}

const char *hegetcl_amplitude_build_options(const hegetcl_amplitude *amp) {
  return amp != NULL ? amp->options : "";
}

size_t hg_amplitude_real_size(const hegetcl_amplitude *amp) {
  return amp->process.precision == HEGETCL_PRECISION_DOUBLE ? sizeof(double) : sizeof(float);
}

/* Makes the buffers hold at least n_events; they are kept for the next call. */
static hegetcl_status reserve(hegetcl_amplitude *amp, size_t n_events) {
  if (n_events <= amp->capacity) return HEGETCL_OK;
  release_buffers(amp);
  hegetcl_context *ctx = amp->ctx;
  const size_t real = hg_amplitude_real_size(amp);
  const size_t n_particles = amp->process.n_photons + 2;
  cl_int err = CL_SUCCESS;
  amp->momenta =
      clCreateBuffer(ctx->context, CL_MEM_READ_ONLY, 4 * n_particles * n_events * real, NULL, &err);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clCreateBuffer", "allocating momenta for %zu events", n_events);
  if (status != HEGETCL_OK) return status;
  amp->helicities =
      clCreateBuffer(ctx->context, CL_MEM_READ_ONLY, n_events * sizeof(cl_uint), NULL, &err);
  status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating helicities for %zu events",
                       n_events);
  if (status != HEGETCL_OK) return status;
  amp->me = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY, n_events * real, NULL, &err);
  status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating |M|^2 for %zu events", n_events);
  if (status != HEGETCL_OK) return status;
  amp->staging = malloc(4 * n_particles * n_events * real);
  if (amp->staging == NULL)
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no host memory to stage %zu events", n_events);
  amp->capacity = n_events;
  return HEGETCL_OK;
}

hegetcl_status hg_amplitude_local_size(hegetcl_amplitude *amp, cl_kernel kernel, size_t *local) {
  hegetcl_context *ctx = amp->ctx;
  size_t max = 0, multiple = 1;
  hegetcl_status status = hg_cl_check(
      ctx,
      clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max,
                               NULL),
      "clGetKernelWorkGroupInfo", "asking CL_KERNEL_WORK_GROUP_SIZE");
  if (status != HEGETCL_OK) return status;
  status = hg_cl_check(ctx,
                       clGetKernelWorkGroupInfo(kernel, ctx->device,
                                                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                                sizeof multiple, &multiple, NULL),
                       "clGetKernelWorkGroupInfo",
                       "asking CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
  if (status != HEGETCL_OK) return status;
  if (amp->local_size != 0) {
    if (amp->local_size > max)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "local size %zu: this kernel allows at most %zu on %s; choose a smaller one",
                     amp->local_size, max, ctx->info.name);
    *local = amp->local_size;
    return HEGETCL_OK;
  }
  if (multiple == 0) multiple = 1;
  size_t chosen = multiple;
  while (chosen * 2 <= max && chosen * 2 <= 128) chosen *= 2;
  *local = chosen <= max ? chosen : max;
  return HEGETCL_OK;
}

hegetcl_status hegetcl_amplitude_set_local_size(hegetcl_amplitude *amp, size_t local_size) {
  if (amp == NULL) return HEGETCL_ERR_INPUT;
  amp->local_size = local_size;
  return HEGETCL_OK;
}

/* Converts the caller's double momenta into the program's precision and uploads them. */
static hegetcl_status upload_momenta(hegetcl_amplitude *amp, size_t n_events,
                                     const double *momenta) {
  const size_t count = 4 * (amp->process.n_photons + 2) * n_events;
  const size_t real = hg_amplitude_real_size(amp);
  if (real == sizeof(double))
    memcpy(amp->staging, momenta, count * sizeof(double));
  else
    for (size_t i = 0; i < count; ++i) ((float *)amp->staging)[i] = (float)momenta[i];
  return hg_cl_check(amp->ctx,
                     clEnqueueWriteBuffer(amp->ctx->queue, amp->momenta, CL_TRUE, 0, count * real,
                                          amp->staging, 0, NULL, NULL),
                     "clEnqueueWriteBuffer", "uploading momenta of %zu events", n_events);
}

hegetcl_status hg_amplitude_set_common_args(hegetcl_amplitude *amp, cl_kernel kernel,
                                            cl_mem momenta, cl_uint n_events, cl_uint *next) {
  hegetcl_context *ctx = amp->ctx;
  const double coupling =
      sqrt(4.0 * 3.14159265358979323846 * amp->process.alpha) * amp->process.quark_charge;
  const double factor = hegetcl_me_factor(amp->process.n_photons);
  const int is_double = amp->process.precision == HEGETCL_PRECISION_DOUBLE;
  const float coupling_f = (float)coupling, factor_f = (float)factor;
  cl_int err = clSetKernelArg(kernel, 0, sizeof(cl_mem), &momenta);
  err |= clSetKernelArg(kernel, 1, sizeof(cl_uint), &n_events);
  err |= is_double ? clSetKernelArg(kernel, 2, sizeof(double), &coupling)
                   : clSetKernelArg(kernel, 2, sizeof(float), &coupling_f);
  err |= is_double ? clSetKernelArg(kernel, 3, sizeof(double), &factor)
                   : clSetKernelArg(kernel, 3, sizeof(float), &factor_f);
  *next = 4;
  return hg_cl_check(ctx, err, "clSetKernelArg", "setting the amplitude kernel's arguments");
}

/* Launches kernel over n_events, then reads me back as doubles and checks they are finite. */
static hegetcl_status launch_and_read(hegetcl_amplitude *amp, cl_kernel kernel, const char *name,
                                      size_t n_events, double *me) {
  hegetcl_context *ctx = amp->ctx;
  size_t local = 0;
  hegetcl_status status = hg_amplitude_local_size(amp, kernel, &local);
  if (status != HEGETCL_OK) return status;
  const size_t global = (n_events + local - 1) / local * local;
  status = hg_cl_check(
      ctx, clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL),
      "clEnqueueNDRangeKernel", "launching %s (%s, n = %u, %s) for %zu events, local size %zu",
      name, hegetcl_engine_name(amp->process.engine), amp->process.n_photons,
      hegetcl_precision_name(amp->process.precision), n_events, local);
  if (status != HEGETCL_OK) return status;
  const size_t real = hg_amplitude_real_size(amp);
  status = hg_cl_check(ctx,
                       clEnqueueReadBuffer(ctx->queue, amp->me, CL_TRUE, 0, n_events * real,
                                           amp->staging, 0, NULL, NULL),
                       "clEnqueueReadBuffer", "reading |M|^2 of %zu events from %s", n_events,
                       name);
  if (status != HEGETCL_OK) return status;
  size_t bad = 0, first_bad = 0;
  for (size_t e = 0; e < n_events; ++e) {
    me[e] = real == sizeof(double) ? ((double *)amp->staging)[e] : ((float *)amp->staging)[e];
    if (!isfinite(me[e]) && bad++ == 0) first_bad = e;
  }
  if (bad > 0)
    return hg_fail(ctx, HEGETCL_ERR_NONFINITE,
                   "%s (%s, n = %u, %s): %zu of %zu events gave a non-finite |M|^2, the first "
                   "event %zu; check its momenta (massless, quark along +z, antiquark along -z, "
                   "no photon collinear to another or to a beam)",
                   name, hegetcl_engine_name(amp->process.engine), amp->process.n_photons,
                   hegetcl_precision_name(amp->process.precision), bad, n_events, first_bad);
  return HEGETCL_OK;
}

static hegetcl_status check_batch(hegetcl_amplitude *amp, size_t n_events, const void *momenta,
                                  const double *me) {
  if (amp == NULL) return HEGETCL_ERR_INPUT;
  if (n_events == 0 || n_events > 0xffffffffu)
    return hg_fail(amp->ctx, HEGETCL_ERR_INPUT,
                   "n_events = %zu: a batch holds 1 to 4294967295 events", n_events);
  if (momenta == NULL || me == NULL)
    return hg_fail(amp->ctx, HEGETCL_ERR_INPUT, "momenta and me must not be NULL");
  return reserve(amp, n_events);
}

hegetcl_status hegetcl_amplitude_evaluate(hegetcl_amplitude *amp, size_t n_events,
                                          const double *momenta, double *me) {
  hegetcl_status status = check_batch(amp, n_events, momenta, me);
  if (status != HEGETCL_OK) return status;
  status = upload_momenta(amp, n_events, momenta);
  if (status != HEGETCL_OK) return status;
  cl_uint next = 0;
  status = hg_amplitude_set_common_args(amp, amp->summed, amp->momenta, (cl_uint)n_events, &next);
  if (status != HEGETCL_OK) return status;
  status = hg_cl_check(amp->ctx, clSetKernelArg(amp->summed, next, sizeof(cl_mem), &amp->me),
                       "clSetKernelArg", "setting the output of %s", HG_KERNEL_AMPLITUDE_SUMMED);
  if (status != HEGETCL_OK) return status;
  return launch_and_read(amp, amp->summed, HG_KERNEL_AMPLITUDE_SUMMED, n_events, me);
}

hegetcl_status hegetcl_amplitude_evaluate_helicity(hegetcl_amplitude *amp, size_t n_events,
                                                   const double *momenta,
                                                   const uint32_t *helicity, double *me) {
  hegetcl_status status = check_batch(amp, n_events, momenta, me);
  if (status != HEGETCL_OK) return status;
  if (helicity == NULL) return hg_fail(amp->ctx, HEGETCL_ERR_INPUT, "helicity must not be NULL");
  const uint32_t limit = 1u << (amp->process.n_photons + 2);
  for (size_t e = 0; e < n_events; ++e)
    if (helicity[e] >= limit)
      return hg_fail(amp->ctx, HEGETCL_ERR_INPUT,
                     "helicity[%zu] = %u: configurations of %u photons lie in 0..%u", e,
                     helicity[e], amp->process.n_photons, limit - 1);
  status = upload_momenta(amp, n_events, momenta);
  if (status != HEGETCL_OK) return status;
  status = hg_cl_check(amp->ctx,
                       clEnqueueWriteBuffer(amp->ctx->queue, amp->helicities, CL_TRUE, 0,
                                            n_events * sizeof(cl_uint), helicity, 0, NULL, NULL),
                       "clEnqueueWriteBuffer", "uploading helicities of %zu events", n_events);
  if (status != HEGETCL_OK) return status;
  cl_uint next = 0;
  status =
      hg_amplitude_set_common_args(amp, amp->helicity, amp->momenta, (cl_uint)n_events, &next);
  if (status != HEGETCL_OK) return status;
  cl_int err = clSetKernelArg(amp->helicity, next, sizeof(cl_mem), &amp->helicities);
  err |= clSetKernelArg(amp->helicity, next + 1, sizeof(cl_mem), &amp->me);
  status = hg_cl_check(amp->ctx, err, "clSetKernelArg", "setting the buffers of %s",
                       HG_KERNEL_AMPLITUDE_HELICITY);
  if (status != HEGETCL_OK) return status;
  return launch_and_read(amp, amp->helicity, HG_KERNEL_AMPLITUDE_HELICITY, n_events, me);
}
