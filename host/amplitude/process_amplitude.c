/* SPDX-License-Identifier: MIT */
/* The amplitude of a process given as text (other than q qbar -> n photons): diagrams and colour
 * from host/process, their generated OpenCL C, the program and its model-parameter buffer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "core/program.h"
#include "kernel_names.h"
#include "process/codegen.h"
#include "process/colour_ordered.h"
#include "process/diagrams.h"
#include "process/flow_recursion.h"
#include "process/model.h"
#include "process/model_params.h"

static hegetcl_status check_parameters(hegetcl_context *ctx, const hegetcl_process *p) {
  if (p->engine != HEGETCL_ENGINE_DIAGRAMS && p->engine != HEGETCL_ENGINE_RECURSIVE)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "process \"%s\": the %s engine computes q q~ > n photons only; use the "
                   "recursive or the diagrams engine (--engine recursive|diagrams) for this "
                   "process",
                   p->text, hegetcl_engine_name(p->engine));
  if (p->precision != HEGETCL_PRECISION_DOUBLE && p->precision != HEGETCL_PRECISION_FLOAT)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "precision %d is not float or double",
                   (int)p->precision);
  if (!(p->alpha > 0) || !isfinite(p->alpha) || !(p->alpha_s > 0) || !isfinite(p->alpha_s))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "alpha = %g, alpha_s = %g: both must be positive finite numbers", p->alpha,
                   p->alpha_s);
  if (!(p->top_mass > 0) || !isfinite(p->top_mass) || !(p->top_width >= 0) ||
      !isfinite(p->top_width))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "top mass %g GeV, width %g GeV: the mass must be positive, the width >= 0",
                   p->top_mass, p->top_width);
  char error[1024];
  if (hg_model_check(p, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  if (p->width_scheme != HEGETCL_WIDTH_RESONANT && p->width_scheme != HEGETCL_WIDTH_ALL)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "width scheme %d is not resonant (0) or all (1)",
                   (int)p->width_scheme);
  return HEGETCL_OK;
}

hegetcl_status hg_process_program(hegetcl_amplitude *amp, const char *generated,
                                  const char *kernels_file, int summed_kernels) {
  const hg_source_part parts[] = {
      {"amplitudes/process_common.cl", NULL}, {NULL, generated}, {kernels_file, NULL}};
  hegetcl_status status =
      hg_program_get(amp->ctx, parts, 3, amp->options, &amp->program, &amp->build_seconds);
  if (status != HEGETCL_OK || !summed_kernels) return status;
  status = hg_kernel_create(amp->ctx, amp->program, HG_KERNEL_AMPLITUDE_SUMMED, &amp->summed);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(amp->ctx, amp->program, HG_KERNEL_AMPLITUDE_HELICITY, &amp->helicity);
  return status;
}

int hg_recursive_uses_flows(const hg_process_spec *spec) {
  /* coupling orders: the quark-line recursion applies them, the colour-ordered kernels do not */
  return hg_flow_recursion_supports(spec) &&
         (!hg_colour_ordered_supports(spec) || hg_process_has_orders(spec));
}

/* The diagram engine's program and kernels (generated straight-line diagram code). */
static hegetcl_status diagrams_build(hegetcl_amplitude *amp, const hg_process_spec *spec,
                                     int gauge_particle) {
  hegetcl_context *ctx = amp->ctx;
  const hegetcl_process *p = &amp->process;
  char error[1024];
  hg_diagram_set set;
  if (hg_diagrams_build(spec, p->width_scheme == HEGETCL_WIDTH_ALL, &set, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  amp->me_factor = 1.0 / set.iden;
  amp->helicity_bits = (unsigned)set.helicity_bits;
  if (amp->diagram_subset != 0) {
    size_t kept = 0;
    for (size_t k = 0; k < set.n_diagrams; ++k) {
      const int keep = k < 64 && (amp->diagram_subset >> k & 1u);
      if (!keep) {
        free(set.diagrams[k].flows);
        free(set.diagrams[k].coef_re);
        free(set.diagrams[k].coef_im);
        continue;
      }
      set.diagrams[kept++] = set.diagrams[k];
    }
    set.n_diagrams = kept;
  }
  char *generated = gauge_particle >= 0 ? hg_process_source_gauge_check(&set, gauge_particle)
                                        : hg_process_source(&set);
  hg_diagrams_free(&set);
  if (generated == NULL)
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the diagram code");
  hegetcl_status status = hg_build_options(ctx, p->precision, 0, amp->options, sizeof amp->options);
  if (status == HEGETCL_OK)
    status = hg_process_program(amp, generated, "amplitudes/process_kernels.cl", 1);
  free(generated);
  return status;
}

hegetcl_status hg_process_amplitude_build(hegetcl_amplitude *amp, const char *text,
                                          int gauge_particle) {
  hegetcl_context *ctx = amp->ctx;
  const hegetcl_process *p = &amp->process;
  hegetcl_status status = check_parameters(ctx, p);
  if (status != HEGETCL_OK) return status;
  hg_process_spec spec;
  char error[1024];
  if (hg_process_parse(text, &spec, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  amp->general = 1;
  amp->n_particles = (unsigned)spec.n;
  snprintf(amp->process_text, sizeof amp->process_text, "%s", spec.text);
  amp->process.text = amp->process_text; /* the caller's string need not outlive the call */
  if (gauge_particle >= spec.n || (gauge_particle >= 0 &&
                                   hg_species_particle(spec.species[gauge_particle]) !=
                                       hg_species_particle(hg_species_from_name("g")) &&
                                   hg_species_particle(spec.species[gauge_particle]) !=
                                       hg_species_particle(hg_species_from_name("a"))))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "gauge check: particle %d of %s is not a gluon or a photon", gauge_particle,
                   spec.text);
  if (p->engine == HEGETCL_ENGINE_RECURSIVE && hg_recursive_uses_flows(&spec))
    status = hg_flow_recursion_amplitude_build(amp, &spec, gauge_particle);
  else if (p->engine == HEGETCL_ENGINE_RECURSIVE)
    status = hg_colour_ordered_amplitude_build(amp, &spec, gauge_particle);
  else
    status = diagrams_build(amp, &spec, gauge_particle);
  if (status != HEGETCL_OK) return status;
  /* the model parameters in model_couplings.h's order: g_s, e, masses, widths, couplings */
  double values[HG_PARAMS_SIZE];
  float values_f[HG_PARAMS_SIZE];
  if (hg_model_params(p, values, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "process \"%s\": %s", spec.text, error);
  for (int k = 0; k < HG_PARAMS_SIZE; ++k) values_f[k] = (float)values[k];
  const int is_double = p->precision == HEGETCL_PRECISION_DOUBLE;
  cl_int err = CL_SUCCESS;
  amp->params = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               is_double ? sizeof values : sizeof values_f,
                               is_double ? (void *)values : (void *)values_f, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "making the model parameters of %s",
                     amp->process_text);
}

hegetcl_status hg_amplitude_create_diagram_subset(hegetcl_context *ctx,
                                                  const hegetcl_process *process, uint64_t keep,
                                                  hegetcl_amplitude **out) {
  *out = NULL;
  if (ctx == NULL || process == NULL || process->text == NULL || keep == 0 ||
      process->engine != HEGETCL_ENGINE_DIAGRAMS)
    return HEGETCL_ERR_INPUT;
  hegetcl_amplitude *amp = calloc(1, sizeof *amp);
  if (amp == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for an amplitude");
  amp->ctx = ctx;
  amp->process = *process;
  amp->diagram_subset = keep;
  const hegetcl_status status = hg_process_amplitude_build(amp, process->text, -1);
  if (status != HEGETCL_OK) {
    hegetcl_amplitude_destroy(amp);
    return status;
  }
  *out = amp;
  return HEGETCL_OK;
}

hegetcl_status hg_amplitude_create_gauge_check(hegetcl_context *ctx, const hegetcl_process *process,
                                               int gauge_particle, hegetcl_amplitude **out) {
  *out = NULL;
  if (ctx == NULL || process == NULL || process->text == NULL) return HEGETCL_ERR_INPUT;
  hegetcl_amplitude *amp = calloc(1, sizeof *amp);
  if (amp == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for an amplitude");
  amp->ctx = ctx;
  amp->process = *process;
  const hegetcl_status status = hg_process_amplitude_build(amp, process->text, gauge_particle);
  if (status != HEGETCL_OK) {
    hegetcl_amplitude_destroy(amp);
    return status;
  }
  *out = amp;
  return HEGETCL_OK;
}
