/* SPDX-License-Identifier: MIT */
/* Probe kernels for device tests: an engine's sources plus a test's kernel text, run on doubles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "core/context.h"
#include "core/program.h"
#include "probe.h"

const char ts_probe_preamble[] =
    "#line 1 \"tests/support/probe.c: ts_probe_preamble\"\n"
    "HG_INLINE hg_fourvec ts_load_momentum(__global const REAL *momenta, uint n_events,\n"
    "                                      size_t event, int particle) {\n"
    "  hg_fourvec p;\n"
    "  for (int c = 0; c < 4; ++c)\n"
    "    p.v[c] = momenta[((size_t)c * N_PARTICLES + (size_t)particle) * n_events + event];\n"
    "  return p;\n"
    "}\n"
    "HG_INLINE hg_coupling ts_photon_coupling(REAL g) {\n"
    "  hg_coupling gc;\n"
    "  gc.gal[0] = hg_cmplx(g, (REAL)0);\n"
    "  gc.gal[1] = hg_cmplx(g, (REAL)0);\n"
    "  return gc;\n"
    "}\n";

/* One kernel per part when the diagram engine's source is split (HG_DIAGRAM_PARTS, see
 * host/amplitude/diagrams_codegen.h), else one kernel around hg_engine_amplitude. */
const char ts_probe_amplitude_kernel[] =
    "#line 1 \"tests/support/probe.c: ts_probe_amplitude_kernel\"\n"
    "typedef struct {\n"
    "  hg_wave fi, fo, photons[N_PHOTONS];\n"
    "  int quark_helicity;\n"
    "} ts_externals;\n"
    "HG_INLINE ts_externals ts_probe_externals(__global const REAL *momenta, uint n_events,\n"
    "                                          size_t event, uint config, int generic_quarks,\n"
    "                                          int replace) {\n"
    "  ts_externals x;\n"
    "  x.quark_helicity = (config & 1u) ? 1 : -1;\n"
    "  const int antiquark_helicity = (config & 2u) ? 1 : -1;\n"
    "  const hg_fourvec p_quark = ts_load_momentum(momenta, n_events, event, 0);\n"
    "  const hg_fourvec p_antiquark = ts_load_momentum(momenta, n_events, event, 1);\n"
    "  x.fi = generic_quarks ? ixxxx0(p_quark, x.quark_helicity, 1)\n"
    "                        : ixxxx1(p_quark, x.quark_helicity, 1);\n"
    "  x.fo = generic_quarks ? oxxxx0(p_antiquark, antiquark_helicity, -1)\n"
    "                        : oxxxx2(p_antiquark, antiquark_helicity, -1);\n"
    "  for (int k = 0; k < N_PHOTONS; ++k) {\n"
    "    const hg_fourvec p = ts_load_momentum(momenta, n_events, event, 2 + k);\n"
    "    x.photons[k] = vxxxx0(p, ((config >> (2 + k)) & 1u) ? 1 : -1, 1);\n"
    "    for (int c = 0; c < 4; ++c)\n"
    "      x.photons[k].w[c] =\n"
    "          hg_csel(k == replace, hg_cmplx(p.v[c], (REAL)0), x.photons[k].w[c]);\n"
    "  }\n"
    "  return x;\n"
    "}\n"
    "#define TS_PROBE_ARGS __global const REAL *restrict momenta, const uint n_events, "
    "const REAL coupling, const int generic_quarks, __global const uint *restrict events, "
    "__global const uint *restrict configs, __global const int *restrict replace, "
    "__global REAL *restrict amplitude\n"
    "#define TS_PROBE_EXTERNALS const size_t item = get_global_id(0); const ts_externals x = "
    "ts_probe_externals(momenta, n_events, events[item], configs[item], generic_quarks, "
    "replace[item])\n"
    "HG_INLINE void ts_store_complex(__global REAL *out, size_t item, hg_complex a) {\n"
    "  out[2 * item] = a.re;\n"
    "  out[2 * item + 1] = a.im;\n"
    "}\n"
    "#if defined(HG_DIAGRAM_PARTS)\n"
    "#define TS_PROBE_PART_KERNEL(part) __kernel void probe_amplitude_part_##part(TS_PROBE_ARGS) "
    "{ TS_PROBE_EXTERNALS; ts_store_complex(amplitude, item, hg_diagrams_part_##part(x.fi, x.fo, "
    "x.photons, ts_photon_coupling(coupling))); }\n"
    "HG_DIAGRAM_PARTS(TS_PROBE_PART_KERNEL)\n"
    "#else\n"
    "__kernel void probe_amplitude(TS_PROBE_ARGS) {\n"
    "  TS_PROBE_EXTERNALS;\n"
    "  ts_store_complex(amplitude, item, hg_engine_amplitude(x.fi, x.fo, x.photons,\n"
    "                                                       x.quark_helicity,\n"
    "                                                       ts_photon_coupling(coupling)));\n"
    "}\n"
    "#endif\n";

hegetcl_status ts_probe_build(hegetcl_context *ctx, int engine, hegetcl_precision precision,
                              unsigned n_photons, const char *kernel_text, ts_probe *out) {
  memset(out, 0, sizeof *out);
  out->n_diagram_parts = 1;
  out->ctx = ctx;
  out->precision = precision;
  out->n_photons = n_photons;
  out->engine = engine;
  char options[512];
  hegetcl_status status = hg_build_options(ctx, precision, n_photons, options, sizeof options);
  if (status != HEGETCL_OK) return status;
  char *generated = NULL;
  hg_source_part parts[4];
  size_t n_parts = 0;
  if (engine == TS_PROBE_HELAS_ONLY) {
    parts[n_parts++] = (hg_source_part){"amplitudes/engine_common.cl", NULL};
  } else if (engine == TS_PROBE_HELAS_QCD) {
    parts[n_parts++] = (hg_source_part){"amplitudes/engine_common.cl", NULL}; /* N_PARTICLES */
    parts[n_parts++] = (hg_source_part){"helas/qcd.cl", NULL};
  } else {
    status = hg_engine_sources(ctx, (hegetcl_engine)engine, n_photons, parts, &n_parts,
                               &generated, &out->n_diagram_parts);
    if (status != HEGETCL_OK) return status;
  }
  parts[n_parts++] = (hg_source_part){NULL, ts_probe_preamble};
  parts[n_parts++] = (hg_source_part){NULL, kernel_text};
  cl_program program = NULL;
  status = hg_program_get(ctx, parts, n_parts, options, &program, &out->build_seconds);
  free(generated);
  out->program = program;
  return status;
}

const char *ts_probe_label(const ts_probe *probe, char *buf, size_t size) {
  snprintf(buf, size, "%s n = %u %s",
           probe->engine == TS_PROBE_HELAS_ONLY || probe->engine == TS_PROBE_HELAS_QCD
               ? "HELAS"
               : hegetcl_engine_name((hegetcl_engine)probe->engine),
           probe->n_photons, hegetcl_precision_name(probe->precision));
  return buf;
}

double ts_default_photon_coupling(void) {
  hegetcl_process process;
  hegetcl_process_defaults(&process, 2);
  return sqrt(4.0 * 3.14159265358979323846 * process.alpha) * process.quark_charge;
}

static size_t element_size(const ts_arg *arg, size_t real) {
  switch (arg->kind) {
  case TS_ARG_REALS_IN:
  case TS_ARG_REALS_OUT:
    return real;
  case TS_ARG_U32S_IN:
    return sizeof(cl_uint);
  case TS_ARG_INTS_IN:
    return sizeof(cl_int);
  default:
    return 0;
  }
}

hegetcl_status ts_probe_run(const ts_probe *probe, const char *kernel_name, size_t n_work_items,
                            const ts_arg *args, size_t n_args) {
  hegetcl_context *ctx = probe->ctx;
  const int is_double = probe->precision == HEGETCL_PRECISION_DOUBLE;
  const size_t real = is_double ? sizeof(double) : sizeof(float);
  cl_kernel kernel = NULL;
  cl_mem *buffers = calloc(n_args, sizeof *buffers);
  void **staging = calloc(n_args, sizeof *staging);
  hegetcl_status status = HEGETCL_OK;
  if (buffers == NULL || staging == NULL) {
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for %zu probe arguments", n_args);
    goto fail;
  }
  status = hg_kernel_create(ctx, (cl_program)probe->program, kernel_name, &kernel);
  if (status != HEGETCL_OK) goto fail;
  for (size_t i = 0; i < n_args; ++i) {
    const ts_arg *arg = &args[i];
    const size_t element = element_size(arg, real);
    cl_int err = CL_SUCCESS;
    if (element == 0) {
      const float real_f = (float)arg->real;
      const cl_uint index = (cl_uint)i;
      if (arg->kind == TS_ARG_U32)
        err = clSetKernelArg(kernel, index, sizeof(cl_uint), &arg->u32);
      else if (arg->kind == TS_ARG_INT)
        err = clSetKernelArg(kernel, index, sizeof(cl_int), &arg->i32);
      else if (is_double)
        err = clSetKernelArg(kernel, index, sizeof(double), &arg->real);
      else
        err = clSetKernelArg(kernel, index, sizeof(float), &real_f);
      status =
          hg_cl_check(ctx, err, "clSetKernelArg", "setting argument %zu of %s", i, kernel_name);
      if (status != HEGETCL_OK) goto fail;
      continue;
    }
    const size_t bytes = (arg->count > 0 ? arg->count : 1) * element;
    staging[i] = malloc(bytes);
    if (staging[i] == NULL) {
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory to stage argument %zu", i);
      goto fail;
    }
    for (size_t k = 0; k < arg->count; ++k) {
      switch (arg->kind) {
      case TS_ARG_REALS_IN:
        if (is_double)
          ((double *)staging[i])[k] = arg->reals_in[k];
        else
          ((float *)staging[i])[k] = (float)arg->reals_in[k];
        break;
      case TS_ARG_REALS_OUT: /* poison: a value the kernel does not write stays NaN */
        arg->reals_out[k] = NAN;
        if (is_double)
          ((double *)staging[i])[k] = NAN;
        else
          ((float *)staging[i])[k] = NAN;
        break;
      case TS_ARG_U32S_IN:
        ((cl_uint *)staging[i])[k] = arg->u32s_in[k];
        break;
      default:
        ((cl_int *)staging[i])[k] = arg->ints_in[k];
        break;
      }
    }
    buffers[i] = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating %zu bytes for argument %zu of %s",
                         bytes, i, kernel_name);
    if (status != HEGETCL_OK) goto fail;
    status = hg_cl_check(
        ctx,
        clEnqueueWriteBuffer(ctx->queue, buffers[i], CL_TRUE, 0, bytes, staging[i], 0, NULL, NULL),
        "clEnqueueWriteBuffer", "uploading argument %zu of %s", i, kernel_name);
    if (status != HEGETCL_OK) goto fail;
    status = hg_cl_check(ctx, clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &buffers[i]),
                         "clSetKernelArg", "setting argument %zu of %s", i, kernel_name);
    if (status != HEGETCL_OK) goto fail;
  }
  /* One work-item per work-group, whatever n_work_items is: PoCL compiles a kernel once per local
   * size, and a large engine takes tens of seconds to compile. */
  const size_t local = 1;
  status = hg_cl_check(
      ctx,
      clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &n_work_items, &local, 0, NULL, NULL),
      "clEnqueueNDRangeKernel", "launching %s over %zu work-items", kernel_name, n_work_items);
  if (status != HEGETCL_OK) goto fail;
  for (size_t i = 0; i < n_args; ++i) {
    if (args[i].kind != TS_ARG_REALS_OUT || args[i].count == 0) continue;
    status = hg_cl_check(ctx,
                         clEnqueueReadBuffer(ctx->queue, buffers[i], CL_TRUE, 0,
                                             args[i].count * real, staging[i], 0, NULL, NULL),
                         "clEnqueueReadBuffer", "reading argument %zu of %s", i, kernel_name);
    if (status != HEGETCL_OK) goto fail;
    for (size_t k = 0; k < args[i].count; ++k)
      args[i].reals_out[k] =
          is_double ? ((double *)staging[i])[k] : (double)((float *)staging[i])[k];
  }
fail:
  for (size_t i = n_args; buffers != NULL && i-- > 0;)
    if (buffers[i] != NULL) clReleaseMemObject(buffers[i]);
  for (size_t i = 0; staging != NULL && i < n_args; ++i) free(staging[i]);
  if (kernel != NULL) clReleaseKernel(kernel);
  free(staging);
  free(buffers);
  return status;
}

hegetcl_status ts_probe_amplitudes(const ts_probe *probe, size_t n_events, const double *momenta,
                                   int generic_quarks, size_t n_items, const uint32_t *events,
                                   const uint32_t *configs, const int32_t *replace,
                                   double *amplitude) {
  const size_t n_momenta = 4 * (probe->n_photons + 2) * n_events;
  if (probe->n_diagram_parts <= 1) {
    const ts_arg args[] = {
        ts_reals_in(n_momenta, momenta),       ts_u32((uint32_t)n_events),
        ts_real(ts_default_photon_coupling()), ts_int(generic_quarks),
        ts_u32s_in(n_items, events),           ts_u32s_in(n_items, configs),
        ts_ints_in(n_items, replace),          ts_reals_out(2 * n_items, amplitude)};
    return ts_probe_run(probe, "probe_amplitude", n_items, args, sizeof args / sizeof args[0]);
  }
  double *part = malloc(2 * n_items * sizeof *part);
  if (part == NULL)
    return hg_fail(probe->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for %zu amplitudes", n_items);
  for (size_t i = 0; i < 2 * n_items; ++i) amplitude[i] = 0;
  hegetcl_status status = HEGETCL_OK;
  for (unsigned p = 0; p < probe->n_diagram_parts && status == HEGETCL_OK; ++p) {
    char name[64];
    snprintf(name, sizeof name, "probe_amplitude_part_%u", p);
    const ts_arg args[] = {ts_reals_in(n_momenta, momenta),       ts_u32((uint32_t)n_events),
                           ts_real(ts_default_photon_coupling()), ts_int(generic_quarks),
                           ts_u32s_in(n_items, events),           ts_u32s_in(n_items, configs),
                           ts_ints_in(n_items, replace),          ts_reals_out(2 * n_items, part)};
    status = ts_probe_run(probe, name, n_items, args, sizeof args / sizeof args[0]);
    for (size_t i = 0; status == HEGETCL_OK && i < 2 * n_items; ++i) amplitude[i] += part[i];
  }
  free(part);
  return status;
}
