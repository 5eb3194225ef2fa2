/* SPDX-License-Identifier: MIT */
/* The public amplitude API: picks an engine's sources, builds its program, runs its kernels. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "core/program.h"
#include "core/strbuf.h"
#include "diagrams_codegen.h"
#include "kernel_names.h"
#include "layout.h"
#include "process/colour_ordered.h"
#include "process/flow_recursion.h"
#include "process/model.h"
#include "process/process_spec.h"
#include "recursive_shared.h"

static const char *const engine_names[HEGETCL_ENGINE_COUNT] = {"permutation", "unrolled",
                                                               "diagrams", "recursive"};
/* The diagram engine's straight-line code grows as n! (split over kernels from
 * HG_DIAGRAMS_SPLIT_MIN_PHOTONS on); the recursive engine's private currents as 2^n. */
static const unsigned engine_max_photons[HEGETCL_ENGINE_COUNT] = {8, 8, 8, 12};

void hegetcl_process_defaults(hegetcl_process *p, unsigned n_photons) {
  p->n_photons = n_photons;
  p->engine = HEGETCL_ENGINE_RECURSIVE;
  p->precision = HEGETCL_PRECISION_DOUBLE;
  p->alpha = 1.0 / 132.507;
  p->quark_charge = 2.0 / 3.0;
  p->text = NULL;
  p->alpha_s = 0.118;
  p->top_mass = 173.0;
  p->top_width = 1.4915;
  p->width_scheme = HEGETCL_WIDTH_RESONANT;
  p->gf = 1.16639e-5;
  p->z_mass = 91.188;
  p->h_mass = 125.0;
  p->tau_mass = 1.777;
  p->z_width = 2.441404;
  p->w_width = 2.0476;
  p->h_width = 6.382339e-3;
  p->top_yukawa_mass = 173.0;
  p->tau_yukawa_mass = 1.777;
  p->complex_mass = 0;
}

hegetcl_status hegetcl_process_from_text(hegetcl_process *p, const char *text, char *message,
                                         size_t message_size) {
  hg_process_spec spec;
  char error[1024];
  hegetcl_process_defaults(p, 2);
  if (hg_process_parse(text, &spec, error, sizeof error) != 0) {
    hg_put_message(message, message_size, "%s", error);
    return HEGETCL_ERR_INPUT;
  }
  unsigned n_photons = 0;
  double charge = 0;
  p->text = text;
  if (hg_process_is_photon_family(&spec, &n_photons, &charge)) {
    p->n_photons = n_photons;
    p->quark_charge = charge;
  } else {
    /* the recursive colour engine where it takes the process: its code does not grow with the
     * diagrams (docs/user-guide.md, "Processes and engines") */
    p->engine = hg_colour_ordered_supports(&spec) || hg_flow_recursion_supports(&spec)
                    ? HEGETCL_ENGINE_RECURSIVE
                    : HEGETCL_ENGINE_DIAGRAMS;
  }
  return HEGETCL_OK;
}

double hegetcl_process_mass(const hegetcl_process *p, unsigned i) {
  hg_process_spec spec;
  char error[8];
  if (p->text == NULL || hg_process_parse(p->text, &spec, error, sizeof error) != 0 ||
      i >= (unsigned)spec.n)
    return 0;
  const hg_particle *particle = hg_model_particle(hg_species_particle(spec.species[i]));
  switch (particle->mass) {
  case HG_PARAM_TOP_MASS:
    return p->top_mass;
  case HG_PARAM_Z_MASS:
    return p->z_mass;
  case HG_PARAM_H_MASS:
    return p->h_mass;
  case HG_PARAM_TAU_MASS:
    return p->tau_mass;
  case HG_PARAM_W_MASS: {
    double mw = 0;
    return hegetcl_process_get_derived(p, "MW", &mw) == HEGETCL_OK ? mw : 0;
  }
  default:
    return 0;
  }
}

unsigned hegetcl_process_particles(const hegetcl_process *p) {
  hg_process_spec spec;
  char error[8];
  if (p->text == NULL) return p->n_photons + 2;
  return hg_process_parse(p->text, &spec, error, sizeof error) == 0 ? (unsigned)spec.n : 0;
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
  return precision == HEGETCL_PRECISION_DOUBLE  ? "double"
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
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "n_photons = %u: the %s engine takes 2 to %u photons%s",
                   p->n_photons, engine_names[p->engine], max,
                   max < 12 && p->n_photons > max
                       ? "; the recursive engine takes up to 12 (--engine recursive)"
                       : "");
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

static hegetcl_status create_engine_kernels(hegetcl_amplitude *amp) {
  hegetcl_status status =
      hg_kernel_create(amp->ctx, amp->program, HG_KERNEL_AMPLITUDE_SUMMED, &amp->summed);
  if (status != HEGETCL_OK) return status;
  return hg_kernel_create(amp->ctx, amp->program, HG_KERNEL_AMPLITUDE_HELICITY, &amp->helicity);
}

/* The split diagram engine's kernels: amplitude_diagrams_part_<p> for every part, and
 * amplitude_accumulate. */
static hegetcl_status create_part_kernels(hegetcl_amplitude *amp) {
  amp->parts = calloc(amp->n_parts, sizeof *amp->parts);
  amp->part_local = calloc(amp->n_parts + 1, sizeof *amp->part_local);
  if (amp->parts == NULL || amp->part_local == NULL)
    return hg_fail(amp->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for %u kernels", amp->n_parts);
  for (unsigned p = 0; p < amp->n_parts; ++p) {
    char name[64];
    snprintf(name, sizeof name, "%s%u", HG_KERNEL_AMPLITUDE_DIAGRAMS_PART, p);
    const hegetcl_status status = hg_kernel_create(amp->ctx, amp->program, name, &amp->parts[p]);
    if (status != HEGETCL_OK) return status;
  }
  return hg_kernel_create(amp->ctx, amp->program, HG_KERNEL_AMPLITUDE_ACCUMULATE, &amp->accumulate);
}

hegetcl_status hg_engine_sources(hegetcl_context *ctx, hegetcl_engine engine, unsigned n_photons,
                                 hg_source_part *parts, size_t *n_parts, char **generated,
                                 unsigned *n_diagram_parts) {
  *n_parts = 0;
  *generated = NULL;
  *n_diagram_parts = 1;
  switch (engine) {
  case HEGETCL_ENGINE_PERMUTATION:
    parts[(*n_parts)++] = (hg_source_part){"amplitudes/permutation.cl", NULL};
    return HEGETCL_OK;
  case HEGETCL_ENGINE_UNROLLED:
    parts[(*n_parts)++] = (hg_source_part){"amplitudes/unrolled.cl", NULL};
    return HEGETCL_OK;
  case HEGETCL_ENGINE_RECURSIVE:
    parts[(*n_parts)++] = (hg_source_part){"amplitudes/recursive.cl", NULL};
    return HEGETCL_OK;
  case HEGETCL_ENGINE_DIAGRAMS: {
    /* one part: hg_engine_amplitude for kernels.cl's amplitude_summed and amplitude_helicity;
     * several: one kernel per part and amplitude_accumulate (diagrams_codegen.h) */
    const hegetcl_status status = hg_diagrams_source_parts(
        n_photons, hg_diagrams_part_count(n_photons) > 1 ? HG_DIAGRAMS_PER_PART : 0, generated,
        n_diagram_parts);
    if (status != HEGETCL_OK)
      return hg_fail(ctx, status, "generating the diagram code for %u photons failed", n_photons);
    parts[(*n_parts)++] = (hg_source_part){"amplitudes/engine_common.cl", NULL};
    parts[(*n_parts)++] = (hg_source_part){NULL, *generated};
    return HEGETCL_OK;
  }
  }
  return hg_fail(ctx, HEGETCL_ERR_INPUT,
                 "engine %d is not an engine: use permutation, unrolled, diagrams or recursive",
                 (int)engine);
}

/* A positive whole number from the environment variable name, at most max (and a power of two
 * where power_of_two), into *out; *out is left alone when the variable is unset. */
static hegetcl_status env_count(hegetcl_context *ctx, const char *name, unsigned max,
                                int power_of_two, unsigned *out) {
  const char *text = getenv(name);
  if (text == NULL || text[0] == '\0') return HEGETCL_OK;
  char *end = NULL;
  errno = 0;
  const unsigned long v = strtoul(text, &end, 10);
  if (errno != 0 || *end != '\0' || text[0] == '-' || v < 1 || v > max ||
      (power_of_two && (v & (v - 1)) != 0))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%s=%s: must be a whole number from 1 to %u%s (or unset)", name, text, max,
                   power_of_two ? ", a power of two" : "");
  *out = (unsigned)v;
  return HEGETCL_OK;
}

/* The shared sum's layout tuning: the defaults, or HEGETCL_RS_THREADS, HEGETCL_RS_CHUNK_ITEMS,
 * HEGETCL_RS_EVENTS and HEGETCL_RS_GLOBAL_GROUPS for speed studies (bench/speed_study.sh tune,
 * large), and HEGETCL_RS_GLOBAL_TABLES=1, the tables in global memory wherever they would fit
 * (tests/opencl/oclgrind_clean.py). */
static hegetcl_status rs_tuning(hegetcl_context *ctx, hg_rs_tuning *t) {
  hg_rs_tuning_defaults(t);
  hegetcl_status status = env_count(ctx, "HEGETCL_RS_THREADS", 1024, 1, &t->threads);
  if (status == HEGETCL_OK)
    status = env_count(ctx, "HEGETCL_RS_CHUNK_ITEMS", 64, 0, &t->chunk_items);
  if (status == HEGETCL_OK) status = env_count(ctx, "HEGETCL_RS_EVENTS", 256, 0, &t->events);
  if (status == HEGETCL_OK)
    status = env_count(ctx, "HEGETCL_RS_GLOBAL_GROUPS", 256, 0, &t->groups_per_unit);
  unsigned global_tables = 0;
  if (status == HEGETCL_OK)
    status = env_count(ctx, "HEGETCL_RS_GLOBAL_TABLES", 1, 0, &global_tables);
  t->global_tables = (int)global_tables;
  return status;
}

/* The global buffer of the shared sum's tables where they do not fit in local memory: as many
 * work-groups' as recursive_shared.h's hg_rs_global_groups allows within a quarter of the
 * device's memory and one buffer's limit. */
static hegetcl_status create_summed_tables(hegetcl_amplitude *amp, const hg_rs_layout *layout,
                                           unsigned groups_per_unit) {
  hegetcl_context *ctx = amp->ctx;
  unsigned long long limit = ctx->info.global_memory_bytes / 4;
  if (ctx->info.max_buffer_bytes > 0 && ctx->info.max_buffer_bytes < limit)
    limit = ctx->info.max_buffer_bytes;
  amp->summed_groups = hg_rs_global_groups(layout, ctx->info.compute_units, groups_per_unit, limit);
  const size_t bytes = amp->summed_groups * layout->global_bytes;
  cl_int err = CL_SUCCESS;
  amp->summed_tables = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer",
                     "allocating %.3g MiB of currents for the recursive engine's helicity sum "
                     "(n = %u, %zu work-groups of %.3g MiB)",
                     (double)bytes / 1048576.0, layout->n_photons, amp->summed_groups,
                     (double)layout->global_bytes / 1048576.0);
}

hegetcl_status hegetcl_amplitude_create(hegetcl_context *ctx, const hegetcl_process *process,
                                        hegetcl_amplitude **out) {
  return hg_amplitude_create_variant(ctx, process, HG_SUMMED_SHARED, out);
}

static hegetcl_status create(hegetcl_context *ctx, const hegetcl_process *process, int shared_sum,
                             const hg_fr_shape *shape, hegetcl_amplitude **out);

hegetcl_status hg_amplitude_create_variant(hegetcl_context *ctx, const hegetcl_process *process,
                                           int shared_sum, hegetcl_amplitude **out) {
  return create(ctx, process, shared_sum, NULL, out);
}

hegetcl_status hg_amplitude_create_shaped(hegetcl_context *ctx, const hegetcl_process *process,
                                          const hg_fr_shape *shape, hegetcl_amplitude **out) {
  return create(ctx, process, HG_SUMMED_SHARED, shape, out);
}

static hegetcl_status create(hegetcl_context *ctx, const hegetcl_process *process, int shared_sum,
                             const hg_fr_shape *shape, hegetcl_amplitude **out) {
  *out = NULL;
  if (ctx == NULL || ctx->context == NULL) return HEGETCL_ERR_INPUT;
  hegetcl_process photons = *process;
  int general = 0;
  if (process->text != NULL) {
    /* a process as text: the photon family keeps its engines, anything else is general */
    hg_process_spec spec;
    char error[1024];
    if (hg_process_parse(process->text, &spec, error, sizeof error) != 0)
      return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
    general = !hg_process_is_photon_family(&spec, &photons.n_photons, &photons.quark_charge);
    photons.text = NULL;
  }
  hegetcl_status status = general ? HEGETCL_OK : validate(ctx, &photons);
  if (status != HEGETCL_OK) return status;
  hegetcl_amplitude *amp = calloc(1, sizeof *amp);
  if (amp == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for an amplitude");
  amp->ctx = ctx;
  amp->process = general ? *process : photons;
  amp->colour_item = shared_sum == HG_SUMMED_PRIVATE;
  amp->colour_global = shared_sum == HG_SUMMED_SHARED_GLOBAL;
  if (general) {
    amp->fr_shape = shape;
    status = hg_process_amplitude_build(amp, process->text, -1);
    amp->fr_shape = NULL;
    if (status != HEGETCL_OK) {
      hegetcl_amplitude_destroy(amp);
      return status;
    }
    *out = amp;
    return HEGETCL_OK;
  }
  process = &amp->process;
  amp->n_particles = process->n_photons + 2;
  amp->me_factor = hegetcl_me_factor(process->n_photons);
  snprintf(amp->process_text, sizeof amp->process_text, "n = %u", process->n_photons);
  char *generated = NULL, *layout_text = NULL, *contraction_text = NULL;
  status = hg_build_options(ctx, process->precision, process->n_photons, amp->options,
                            sizeof amp->options);
  if (status != HEGETCL_OK) goto fail;
  hg_source_part parts[5];
  size_t n_parts = 0;
  unsigned n_diagram_parts = 0;
  status = hg_engine_sources(ctx, process->engine, process->n_photons, parts, &n_parts, &generated,
                             &n_diagram_parts);
  if (status != HEGETCL_OK) goto fail;
  amp->n_parts = n_diagram_parts > 1 ? n_diagram_parts : 0;
  /* the recursive engine sums helicities in a work-group where an event's currents fit */
  hg_rs_layout layout;
  hg_rs_tuning tuning;
  status = rs_tuning(ctx, &tuning);
  if (status != HEGETCL_OK) goto fail;
  if (shared_sum == HG_SUMMED_SHARED_GLOBAL) tuning.global_tables = 1;
  const int shared = shared_sum != HG_SUMMED_PRIVATE &&
                     process->engine == HEGETCL_ENGINE_RECURSIVE &&
                     hg_rs_layout_choose(process->n_photons, hg_amplitude_real_size(amp),
                                         ctx->info.local_memory_bytes, &tuning, &layout);
  if (shared) {
    layout_text = hg_rs_layout_source(&layout);
    if (layout_text == NULL) {
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine's layout");
      goto fail;
    }
    parts[n_parts++] = (hg_source_part){NULL, layout_text};
    amp->summed_group = hg_rs_group_size(&layout);
    amp->summed_group_events = layout.events;
    if (layout.global_tables) {
      status = create_summed_tables(amp, &layout, tuning.groups_per_unit);
      if (status != HEGETCL_OK) goto fail;
    }
  }
  parts[n_parts++] = (hg_source_part){"amplitudes/kernels.cl", NULL};
  if (shared && hg_rs_contraction_generated(&layout)) {
    contraction_text = hg_rs_contraction_source(&layout);
    if (contraction_text == NULL) {
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine's layout");
      goto fail;
    }
    parts[n_parts++] = (hg_source_part){NULL, contraction_text};
  }
  if (shared) parts[n_parts++] = (hg_source_part){"amplitudes/recursive_shared.cl", NULL};
  status = hg_program_get(ctx, parts, n_parts, amp->options, &amp->program, &amp->build_seconds);
  if (status != HEGETCL_OK) goto fail;
  status = amp->n_parts > 0 ? create_part_kernels(amp) : create_engine_kernels(amp);
  if (status != HEGETCL_OK) goto fail;
  free(generated);
  free(layout_text);
  free(contraction_text);
  *out = amp;
  return HEGETCL_OK;
fail:
  free(generated);
  free(layout_text);
  free(contraction_text);
  hegetcl_amplitude_destroy(amp);
  return status;
}

static void release_buffers(hegetcl_amplitude *amp) {
  if (amp->momenta != NULL) clReleaseMemObject(amp->momenta);
  if (amp->helicities != NULL) clReleaseMemObject(amp->helicities);
  if (amp->me != NULL) clReleaseMemObject(amp->me);
  if (amp->partial != NULL) clReleaseMemObject(amp->partial);
  if (amp->colours != NULL) clReleaseMemObject(amp->colours);
  amp->momenta = amp->helicities = amp->me = amp->partial = amp->colours = NULL;
  free(amp->staging);
  free(amp->shat);
  free(amp->framed);
  amp->staging = NULL;
  amp->shat = NULL;
  amp->framed = NULL;
  amp->scaled_events = 0;
  amp->capacity = 0;
}

void hegetcl_amplitude_destroy(hegetcl_amplitude *amp) {
  if (amp == NULL) return;
  release_buffers(amp);
  if (amp->params != NULL) clReleaseMemObject(amp->params);
  if (amp->colour != NULL) clReleaseMemObject(amp->colour);
  if (amp->tape != NULL) clReleaseMemObject(amp->tape);
  if (amp->tape_reals != NULL) clReleaseMemObject(amp->tape_reals);
  if (amp->summed_tables != NULL) clReleaseMemObject(amp->summed_tables);
  if (amp->words != NULL) clReleaseMemObject(amp->words);
  if (amp->summed != NULL) clReleaseKernel(amp->summed);
  if (amp->helicity != NULL) clReleaseKernel(amp->helicity);
  if (amp->colour_kernel != NULL) clReleaseKernel(amp->colour_kernel);
  if (amp->beam_frame != NULL) clReleaseKernel(amp->beam_frame);
  for (unsigned p = 0; amp->parts != NULL && p < amp->n_parts; ++p)
    if (amp->parts[p] != NULL) clReleaseKernel(amp->parts[p]);
  free(amp->parts);
  free(amp->part_local);
  if (amp->accumulate != NULL) clReleaseKernel(amp->accumulate);
  free(amp); /* the program belongs to the context's cache */
}

const char *hegetcl_amplitude_build_options(const hegetcl_amplitude *amp) {
  return amp != NULL ? amp->options : "";
}

size_t hg_amplitude_real_size(const hegetcl_amplitude *amp) {
  return amp->process.precision == HEGETCL_PRECISION_DOUBLE ? sizeof(double) : sizeof(float);
}

hegetcl_status hg_amplitude_reserve(hegetcl_amplitude *amp, size_t n_events) {
  if (n_events <= amp->capacity) return HEGETCL_OK;
  release_buffers(amp);
  hegetcl_context *ctx = amp->ctx;
  const size_t real = hg_amplitude_real_size(amp);
  const size_t n_particles = amp->n_particles;
  /* the momenta are the largest buffer: checked against the device's limit before asking for it,
   * so the message can say how many events fit */
  const size_t per_event = 4 * n_particles * real;
  const unsigned long long limit = ctx->info.max_buffer_bytes;
  if (limit > 0 && (n_events > SIZE_MAX / per_event || n_events * per_event > limit))
    return hg_fail(ctx, HEGETCL_ERR_DEVICE_MEMORY,
                   "%zu events at once need %.3g GiB for their momenta (%zu bytes each), more than "
                   "%s allows in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %.3g GiB): pass at "
                   "most %llu events per call (hegetcl xsec: a smaller --batch)",
                   n_events, (double)n_events * (double)per_event / 1073741824.0, per_event,
                   ctx->info.name, (double)limit / 1073741824.0,
                   (unsigned long long)(limit / per_event));
  cl_int err = CL_SUCCESS;
  amp->momenta = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, 4 * n_particles * n_events * real,
                                NULL, &err);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clCreateBuffer", "allocating momenta for %zu events", n_events);
  if (status != HEGETCL_OK) return status;
  amp->helicities =
      clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, n_events * sizeof(cl_uint), NULL, &err);
  status =
      hg_cl_check(ctx, err, "clCreateBuffer", "allocating helicities for %zu events", n_events);
  if (status != HEGETCL_OK) return status;
  /* read and written: amplitude_accumulate adds to it */
  amp->me = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, n_events * real, NULL, &err);
  status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating |M|^2 for %zu events", n_events);
  if (status != HEGETCL_OK) return status;
  if (amp->colour_kernel != NULL) {
    amp->colours =
        clCreateBuffer(ctx->context, CL_MEM_READ_ONLY, n_events * sizeof(cl_uint), NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating colours for %zu events", n_events);
    if (status != HEGETCL_OK) return status;
  }
  if (amp->n_parts > 0) {
    amp->partial = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, 2 * n_events * real, NULL, &err);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "allocating partial amplitudes for %zu events",
                         n_events);
    if (status != HEGETCL_OK) return status;
  }
  amp->capacity = n_events;
  return HEGETCL_OK;
}

/* The host copy in the program's precision for the capacity, made on first use: kernels of other
 * programs that fill the device buffers themselves (the cross-section sampler) never need it. */
static hegetcl_status ensure_staging(hegetcl_amplitude *amp) {
  if (amp->staging != NULL) return HEGETCL_OK;
  const size_t n_particles = amp->n_particles;
  amp->staging = malloc(4 * n_particles * amp->capacity * hg_amplitude_real_size(amp));
  const int scaled = !amp->general && hg_amplitude_real_size(amp) == sizeof(float);
  if (scaled) amp->shat = malloc(amp->capacity * sizeof *amp->shat);
  if (amp->staging == NULL || (scaled && amp->shat == NULL))
    return hg_fail(amp->ctx, HEGETCL_ERR_NO_MEMORY, "no host memory to stage %zu events",
                   amp->capacity);
  return HEGETCL_OK;
}

/* The private arrays a work-group of a CPU device may hold together; PoCL's threads have the
 * default 8 MiB stack. */
#define HG_CPU_WORK_GROUP_STACK_BYTES ((size_t)4 << 20)

/* Bytes of private arrays one work-item holds where they can matter: the recursive engine's two
 * arrays of 2^n - 1 complex currents (cl/amplitudes/recursive.cl); 0 for the other engines. */
static size_t private_array_bytes(const hegetcl_amplitude *amp) {
  if (amp->general || amp->process.engine != HEGETCL_ENGINE_RECURSIVE) return 0;
  return 2 * (((size_t)1 << amp->process.n_photons) - 1) * 2 * hg_amplitude_real_size(amp);
}

hegetcl_status hg_amplitude_local_size(hegetcl_amplitude *amp, cl_kernel kernel, size_t *local) {
  hegetcl_context *ctx = amp->ctx;
  size_t max = 0, multiple = 1;
  hegetcl_status status =
      hg_cl_check(ctx,
                  clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                           sizeof max, &max, NULL),
                  "clGetKernelWorkGroupInfo", "asking CL_KERNEL_WORK_GROUP_SIZE");
  if (status != HEGETCL_OK) return status;
  status = hg_cl_check(
      ctx,
      clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                               sizeof multiple, &multiple, NULL),
      "clGetKernelWorkGroupInfo", "asking CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
  if (status != HEGETCL_OK) return status;
  if (amp->general && amp->summed_group != 0 && (kernel == amp->summed || kernel == amp->helicity)) {
    /* the recursive colour engine's work-group kernels (reqd_work_group_size) */
    if (max < amp->summed_group || (amp->local_size != 0 && amp->local_size != amp->summed_group))
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "local size %zu: the recursive colour engine runs %s in work-groups of %zu "
                     "work-items, %zu events each (%s allows %zu); leave the local size at 0",
                     amp->local_size, amp->process_text, amp->summed_group,
                     amp->summed_group_events, ctx->info.name, max);
    *local = amp->summed_group;
    return HEGETCL_OK;
  }
  if (kernel == amp->summed && amp->summed_group != 0) {
    /* the shared helicity sum is compiled for its work-group (reqd_work_group_size) */
    if (max < amp->summed_group || (amp->local_size != 0 && amp->local_size != amp->summed_group))
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "local size %zu: the recursive engine's helicity sum for n = %u runs %zu "
                     "events of %zu work-items per work-group (local size %zu; %s allows %zu); "
                     "leave the local size at 0",
                     amp->local_size, amp->process.n_photons, amp->summed_group_events,
                     amp->summed_group / amp->summed_group_events, amp->summed_group,
                     ctx->info.name, max);
    *local = amp->summed_group;
    return HEGETCL_OK;
  }
  /* A CPU device (PoCL's pthread driver) runs a work-group on one thread's stack, the private
   * arrays of all its work-items together, and crashes beyond the stack; CL_KERNEL_PRIVATE_MEM_SIZE
   * does not tell (PoCL reports 1024), so the recursive engine's currents are counted here. */
  const size_t per_item = private_array_bytes(amp);
  const size_t stack_max = per_item > 0 ? HG_CPU_WORK_GROUP_STACK_BYTES / per_item : 0;
  const int stack_bound = !ctx->info.is_gpu && per_item > 0 && stack_max < max;
  if (stack_bound) max = stack_max > 0 ? stack_max : 1;
  if (amp->local_size != 0) {
    if (amp->local_size > max)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "local size %zu: this kernel allows at most %zu on %s%s; choose a smaller one",
                     amp->local_size, max, ctx->info.name,
                     stack_bound ? " (a work-group of a CPU device shares one thread's stack, and "
                                   "each work-item of the recursive engine holds its currents)"
                                 : "");
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

/* Sets a real kernel argument, converted to the program's precision. */
static cl_int set_real_arg(hegetcl_amplitude *amp, cl_kernel kernel, cl_uint index, double value) {
  const float value_f = (float)value;
  return amp->process.precision == HEGETCL_PRECISION_DOUBLE
             ? clSetKernelArg(kernel, index, sizeof(double), &value)
             : clSetKernelArg(kernel, index, sizeof(float), &value_f);
}

static double photon_coupling(const hegetcl_amplitude *amp) {
  return sqrt(4.0 * 3.14159265358979323846 * amp->process.alpha) * amp->process.quark_charge;
}

hegetcl_status hg_amplitude_set_common_args(hegetcl_amplitude *amp, cl_kernel kernel,
                                            cl_mem momenta, cl_uint n_events, cl_uint *next) {
  cl_int err = clSetKernelArg(kernel, 0, sizeof(cl_mem), &momenta);
  err |= clSetKernelArg(kernel, 1, sizeof(cl_uint), &n_events);
  if (amp->general) /* the model parameters (process_kernels.cl) */
    err |= clSetKernelArg(kernel, 2, sizeof(cl_mem), &amp->params);
  else
    err |= set_real_arg(amp, kernel, 2, photon_coupling(amp));
  err |= set_real_arg(amp, kernel, 3, amp->me_factor);
  *next = 4;
  return hg_cl_check(amp->ctx, err, "clSetKernelArg", "setting the amplitude kernel's arguments");
}

/* Converts event-major momenta (momenta[(e * n_particles + i) * 4 + c]) into the staging copy's
 * structure of arrays, in the program's precision. */
static void stage_events_major(hegetcl_amplitude *amp, size_t n_events, const double *momenta) {
  const size_t n_particles = amp->n_particles;
  const int is_double = hg_amplitude_real_size(amp) == sizeof(double);
  for (size_t e = 0; e < n_events; ++e)
    for (size_t i = 0; i < n_particles; ++i)
      for (size_t c = 0; c < 4; ++c) {
        const double v = momenta[(e * n_particles + i) * 4 + c];
        const size_t at = (c * n_particles + i) * n_events + e;
        if (is_double)
          ((double *)amp->staging)[at] = v;
        else
          ((float *)amp->staging)[at] = (float)v;
      }
}

/* Component c of particle i of event e, in either host layout. */
static double host_momentum(const double *momenta, int events_major, size_t n_particles,
                            size_t n_events, size_t e, size_t i, size_t c) {
  return events_major ? momenta[(e * n_particles + i) * 4 + c]
                      : momenta[HG_SOA_INDEX(c, i, n_particles, n_events, e)];
}

/* A float program of the photon family: every event's momenta staged in units of sqrt(s-hat),
 * s-hat = (p_quark + p_antiquark)^2 kept in amp->shat for hg_amplitude_read (|M|^2 has mass
 * dimension 4 - 2n; unscaled, float |M|^2 leaves float's range from n = 9 at 500 GeV:
 * CONVENTIONS.md, "Precision"). An event whose s-hat is not positive and finite is staged as
 * given, with s-hat 1, for the kernels' checks to report. */
static void stage_scaled(hegetcl_amplitude *amp, size_t n_events, const double *momenta,
                         int events_major) {
  const size_t n_particles = amp->n_particles;
  float *staging = amp->staging;
  for (size_t e = 0; e < n_events; ++e) {
    double sum[4];
    for (size_t c = 0; c < 4; ++c)
      sum[c] = host_momentum(momenta, events_major, n_particles, n_events, e, 0, c) +
               host_momentum(momenta, events_major, n_particles, n_events, e, 1, c);
    const double shat = sum[0] * sum[0] - sum[1] * sum[1] - sum[2] * sum[2] - sum[3] * sum[3];
    const int usable = shat > 0 && isfinite(shat);
    amp->shat[e] = usable ? shat : 1.0;
    const double inverse_root = usable ? 1.0 / sqrt(shat) : 1.0;
    for (size_t i = 0; i < n_particles; ++i)
      for (size_t c = 0; c < 4; ++c)
        staging[HG_SOA_INDEX(c, i, n_particles, n_events, e)] =
            (float)(host_momentum(momenta, events_major, n_particles, n_events, e, i, c) *
                    inverse_root);
  }
  amp->scaled_events = n_events;
}

hegetcl_status hg_amplitude_upload(hegetcl_amplitude *amp, size_t n_events, const double *momenta,
                                   const uint32_t *helicity) {
  return hg_amplitude_upload_layout(amp, n_events, momenta, 0, helicity);
}

/* The photon family's engines take the quark along +z and the antiquark along -z. Where some
 * event of the batch is not in that frame, the batch is copied into amp->framed (the structure of
 * arrays, double) with those events brought there (|M|^2 is Lorentz invariant, and so is a
 * massless particle's helicity); *momenta and *events_major then point at the copy. Batches
 * already in the beam frame are staged as given, bit for bit. */
static hegetcl_status frame_events(hegetcl_amplitude *amp, size_t n_events, const double **momenta,
                                   int *events_major) {
  const size_t n_particles = amp->n_particles;
  double event[4 * 16]; /* the recursive engine's 12 photons and the two quarks */
  if (amp->general || n_particles * 4 > sizeof event / sizeof event[0]) return HEGETCL_OK;
  size_t e = 0;
  for (; e < n_events; ++e) {
    for (size_t i = 0; i < 2; ++i)
      for (size_t c = 0; c < 4; ++c)
        event[4 * i + c] = host_momentum(*momenta, *events_major, n_particles, n_events, e, i, c);
    if (!hg_event_in_beam_frame(event)) break;
  }
  if (e == n_events) return HEGETCL_OK;
  if (amp->framed == NULL) amp->framed = malloc(4 * n_particles * amp->capacity * sizeof(double));
  if (amp->framed == NULL)
    return hg_fail(amp->ctx, HEGETCL_ERR_NO_MEMORY,
                   "no host memory to bring %zu events into the beam frame", amp->capacity);
  for (e = 0; e < n_events; ++e) {
    for (size_t i = 0; i < n_particles; ++i)
      for (size_t c = 0; c < 4; ++c)
        event[4 * i + c] = host_momentum(*momenta, *events_major, n_particles, n_events, e, i, c);
    hg_event_to_beam_frame(event, (unsigned)n_particles);
    for (size_t i = 0; i < n_particles; ++i)
      for (size_t c = 0; c < 4; ++c)
        amp->framed[HG_SOA_INDEX(c, i, n_particles, n_events, e)] = event[4 * i + c];
  }
  *momenta = amp->framed;
  *events_major = 0;
  return HEGETCL_OK;
}

hegetcl_status hg_amplitude_upload_layout(hegetcl_amplitude *amp, size_t n_events,
                                          const double *momenta, int events_major,
                                          const uint32_t *helicity) {
  hegetcl_status status = hg_amplitude_reserve(amp, n_events);
  if (status == HEGETCL_OK) status = ensure_staging(amp);
  if (status == HEGETCL_OK) status = frame_events(amp, n_events, &momenta, &events_major);
  if (status != HEGETCL_OK) return status;
  const size_t count = 4 * (size_t)amp->n_particles * n_events;
  const size_t real = hg_amplitude_real_size(amp);
  amp->scaled_events = 0;
  if (amp->shat != NULL)
    stage_scaled(amp, n_events, momenta, events_major);
  else if (events_major)
    stage_events_major(amp, n_events, momenta);
  else if (real == sizeof(double))
    memcpy(amp->staging, momenta, count * sizeof(double));
  else
    for (size_t i = 0; i < count; ++i) ((float *)amp->staging)[i] = (float)momenta[i];
  status = hg_cl_check(amp->ctx,
                       clEnqueueWriteBuffer(amp->ctx->queue, amp->momenta, CL_TRUE, 0, count * real,
                                            amp->staging, 0, NULL, NULL),
                       "clEnqueueWriteBuffer", "uploading momenta of %zu events", n_events);
  if (status != HEGETCL_OK || helicity == NULL) return status;
  return hg_cl_check(amp->ctx,
                     clEnqueueWriteBuffer(amp->ctx->queue, amp->helicities, CL_TRUE, 0,
                                          n_events * sizeof(cl_uint), helicity, 0, NULL, NULL),
                     "clEnqueueWriteBuffer", "uploading helicities of %zu events", n_events);
}

/* Enqueues kernel over n_events with the given local size; event (may be NULL) receives the
 * launch's profiling event. */
static hegetcl_status launch(hegetcl_amplitude *amp, cl_kernel kernel, const char *name,
                             size_t n_events, size_t local, cl_event *event) {
  /* the shared helicity sum takes summed_group_events events per work-group, and with its
   * tables in global memory at most summed_groups groups, which go over the batch */
  const int shared = (kernel == amp->summed || (amp->general && kernel == amp->helicity)) &&
                     amp->summed_group != 0;
  const size_t per_group = shared ? amp->summed_group_events : local;
  size_t groups = (n_events + per_group - 1) / per_group;
  if (shared && amp->summed_groups != 0 && groups > amp->summed_groups) groups = amp->summed_groups;
  const size_t global = groups * local;
  return hg_cl_check(
      amp->ctx,
      clEnqueueNDRangeKernel(amp->ctx->queue, kernel, 1, NULL, &global, &local, 0, NULL, event),
      "clEnqueueNDRangeKernel", "launching %s (%s, %s, %s) for %zu events, local size %zu", name,
      hegetcl_engine_name(amp->process.engine), amp->process_text,
      hegetcl_precision_name(amp->process.precision), n_events, local);
}

/* The part kernels' arguments but the helicity configuration (4), and amplitude_accumulate's
 * but its factor (2) and first flag (3); their local sizes into part_local. */
static hegetcl_status prepare_parts(hegetcl_amplitude *amp, cl_uint n_events, cl_uint per_event) {
  hegetcl_context *ctx = amp->ctx;
  for (unsigned p = 0; p <= amp->n_parts; ++p) {
    cl_kernel kernel = p < amp->n_parts ? amp->parts[p] : amp->accumulate;
    const hegetcl_status status = hg_amplitude_local_size(amp, kernel, &amp->part_local[p]);
    if (status != HEGETCL_OK) return status;
  }
  cl_int err = CL_SUCCESS;
  for (unsigned p = 0; p < amp->n_parts; ++p) {
    err |= clSetKernelArg(amp->parts[p], 0, sizeof(cl_mem), &amp->momenta);
    err |= clSetKernelArg(amp->parts[p], 1, sizeof(cl_uint), &n_events);
    err |= set_real_arg(amp, amp->parts[p], 2, photon_coupling(amp));
    err |= clSetKernelArg(amp->parts[p], 3, sizeof(cl_mem), &amp->helicities);
    err |= clSetKernelArg(amp->parts[p], 5, sizeof(cl_uint), &per_event);
    err |= clSetKernelArg(amp->parts[p], 6, sizeof(cl_mem), &amp->partial);
  }
  err |= clSetKernelArg(amp->accumulate, 0, sizeof(cl_mem), &amp->partial);
  err |= clSetKernelArg(amp->accumulate, 1, sizeof(cl_uint), &n_events);
  err |= clSetKernelArg(amp->accumulate, 4, sizeof(cl_mem), &amp->me);
  return hg_cl_check(ctx, err, "clSetKernelArg", "setting the arguments of the %u diagram parts",
                     amp->n_parts);
}

/* One helicity configuration of the split diagram engine: every part, then amplitude_accumulate
 * adding factor |amp|^2 (to 0 when first). first_event and last_event (may be NULL) receive the
 * first and the last launch's profiling events. */
static hegetcl_status run_parts(hegetcl_amplitude *amp, size_t n_events, cl_uint config,
                                double factor, cl_uint first, cl_event *first_event,
                                cl_event *last_event) {
  hegetcl_status status = HEGETCL_OK;
  for (unsigned p = 0; p < amp->n_parts && status == HEGETCL_OK; ++p) {
    status = hg_cl_check(amp->ctx, clSetKernelArg(amp->parts[p], 4, sizeof(cl_uint), &config),
                         "clSetKernelArg", "setting the helicity configuration of part %u", p);
    if (status == HEGETCL_OK)
      status = launch(amp, amp->parts[p], HG_KERNEL_AMPLITUDE_DIAGRAMS_PART, n_events,
                      amp->part_local[p], p == 0 ? first_event : NULL);
  }
  if (status != HEGETCL_OK) return status;
  cl_int err = set_real_arg(amp, amp->accumulate, 2, factor);
  err |= clSetKernelArg(amp->accumulate, 3, sizeof(cl_uint), &first);
  status = hg_cl_check(amp->ctx, err, "clSetKernelArg", "setting the arguments of %s",
                       HG_KERNEL_AMPLITUDE_ACCUMULATE);
  if (status != HEGETCL_OK) return status;
  return launch(amp, amp->accumulate, HG_KERNEL_AMPLITUDE_ACCUMULATE, n_events,
                amp->part_local[amp->n_parts], last_event);
}

/* The split diagram engine over the uploaded events; see hg_amplitude_run. */
static hegetcl_status run_split(hegetcl_amplitude *amp, size_t n_events, int per_helicity,
                                cl_event *first_event, cl_event *last_event) {
  hegetcl_status status = prepare_parts(amp, (cl_uint)n_events, per_helicity ? 1u : 0u);
  if (status != HEGETCL_OK) return status;
  const double me_factor = hegetcl_me_factor(amp->process.n_photons);
  if (per_helicity) return run_parts(amp, n_events, 0, me_factor, 1, first_event, last_event);
  /* as amplitude_summed: quark -1 (bit 0 clear), antiquark +1 (bit 1 set), photons neither all
   * -1 nor all +1, each configuration counted twice for its flipped partner */
  const cl_uint last = (1u << amp->process.n_photons) - 2;
  for (cl_uint photons = 1; photons <= last && status == HEGETCL_OK; ++photons) {
    cl_event *last_launch = photons == last ? last_event : NULL;
    status = run_parts(amp, n_events, 2u | (photons << 2), 2 * me_factor, photons == 1,
                       photons == 1 ? first_event : NULL, last_launch);
  }
  return status;
}

/* HEGETCL_ERR_UNSUPPORTED, saying what to call instead, for the exact colour sum of a process
 * whose amplitude has sampled colours only. */
static hegetcl_status check_full_colour(hegetcl_amplitude *amp) {
  if (amp->n_parts > 0 || amp->summed != NULL) return HEGETCL_OK;
  return hg_fail(amp->ctx, HEGETCL_ERR_UNSUPPORTED,
                 "%s: %zu colour orderings, more than the recursive engine's exact colour sum "
                 "takes (%d): evaluate it with sampled colours (hegetcl_amplitude_evaluate_colour, "
                 "hegetcl-bench --colour sampled), or take fewer gluons",
                 amp->process_text, amp->n_orderings, HG_CO_MAX_ORDERINGS);
}

/* Waits for last (or first) and stores the time from first's start to its end. */
static hegetcl_status profiled_seconds(hegetcl_context *ctx, cl_event first, cl_event last,
                                       double *seconds) {
  cl_event end = last != NULL ? last : first;
  cl_ulong start_ns = 0, end_ns = 0;
  hegetcl_status status = hg_cl_check(ctx, clWaitForEvents(1, &end), "clWaitForEvents",
                                      "waiting for the amplitude kernels");
  if (status == HEGETCL_OK)
    status = hg_cl_check(ctx,
                         clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start_ns,
                                                 &start_ns, NULL),
                         "clGetEventProfilingInfo", "reading the first kernel's start");
  if (status == HEGETCL_OK)
    status = hg_cl_check(
        ctx, clGetEventProfilingInfo(end, CL_PROFILING_COMMAND_END, sizeof end_ns, &end_ns, NULL),
        "clGetEventProfilingInfo", "reading the last kernel's end");
  *seconds = status == HEGETCL_OK ? (double)(end_ns - start_ns) * 1e-9 : 0;
  return status;
}

hegetcl_status hg_amplitude_run(hegetcl_amplitude *amp, size_t n_events, int per_helicity,
                                double *kernel_seconds) {
  hegetcl_context *ctx = amp->ctx;
  cl_event first = NULL, last = NULL;
  cl_event *first_event = kernel_seconds != NULL ? &first : NULL;
  cl_event *last_event = kernel_seconds != NULL ? &last : NULL;
  hegetcl_status status = check_full_colour(amp);
  if (status != HEGETCL_OK) return status;
  if (amp->n_parts > 0) {
    status = run_split(amp, n_events, per_helicity, first_event, last_event);
  } else {
    cl_kernel kernel = per_helicity ? amp->helicity : amp->summed;
    const char *name = per_helicity ? HG_KERNEL_AMPLITUDE_HELICITY : HG_KERNEL_AMPLITUDE_SUMMED;
    cl_uint next = 0;
    size_t local = 0;
    status = hg_amplitude_set_common_args(amp, kernel, amp->momenta, (cl_uint)n_events, &next);
    cl_int err = CL_SUCCESS;
    if (per_helicity) err |= clSetKernelArg(kernel, next++, sizeof(cl_mem), &amp->helicities);
    err |= clSetKernelArg(kernel, next++, sizeof(cl_mem), &amp->me);
    /* the photon engine's tables (the colour engine's are set once, after its own arguments) */
    if (!per_helicity && amp->summed_tables != NULL && !amp->general)
      err |= clSetKernelArg(kernel, next, sizeof(cl_mem), &amp->summed_tables);
    if (status == HEGETCL_OK)
      status = hg_cl_check(ctx, err, "clSetKernelArg", "setting the buffers of %s", name);
    if (status == HEGETCL_OK) status = hg_amplitude_local_size(amp, kernel, &local);
    if (status == HEGETCL_OK) status = launch(amp, kernel, name, n_events, local, first_event);
  }
  if (status == HEGETCL_OK && kernel_seconds != NULL)
    status = profiled_seconds(ctx, first, last, kernel_seconds);
  if (first != NULL) clReleaseEvent(first);
  if (last != NULL) clReleaseEvent(last);
  return status;
}

/* HEGETCL_ERR_UNSUPPORTED for sampled colours of an amplitude without the colour kernel. */
static hegetcl_status check_colour_kernel(hegetcl_amplitude *amp) {
  if (amp->colour_kernel != NULL) return HEGETCL_OK;
  return hg_fail(amp->ctx, HEGETCL_ERR_UNSUPPORTED,
                 "%s (%s engine): sampled colours are for the recursive engine of processes "
                 "given as text (the recursive colour engine and the quark-line recursion); "
                 "evaluate this one summed over colours (hegetcl_amplitude_evaluate)",
                 amp->general ? amp->process_text : "the photon family",
                 hegetcl_engine_name(amp->process.engine));
}

hegetcl_status hg_amplitude_run_colour(hegetcl_amplitude *amp, size_t n_events, int per_helicity,
                                       double *kernel_seconds) {
  hegetcl_context *ctx = amp->ctx;
  cl_kernel kernel = amp->colour_kernel;
  if (kernel == NULL) return check_colour_kernel(amp);
  cl_uint next = 0;
  size_t local = 0;
  const cl_uint flag = per_helicity ? 1u : 0u;
  hegetcl_status status =
      hg_amplitude_set_common_args(amp, kernel, amp->momenta, (cl_uint)n_events, &next);
  cl_int err = clSetKernelArg(kernel, next++, sizeof(cl_mem), &amp->helicities);
  err |= clSetKernelArg(kernel, next++, sizeof(cl_uint), &flag);
  err |= clSetKernelArg(kernel, next++, sizeof(cl_mem), &amp->colours);
  err |= clSetKernelArg(kernel, next, sizeof(cl_mem), &amp->me);
  if (status == HEGETCL_OK)
    status = hg_cl_check(ctx, err, "clSetKernelArg", "setting the buffers of %s",
                         HG_KERNEL_AMPLITUDE_COLOUR);
  if (status == HEGETCL_OK) status = hg_amplitude_local_size(amp, kernel, &local);
  cl_event first = NULL;
  if (status == HEGETCL_OK)
    status = launch(amp, kernel, HG_KERNEL_AMPLITUDE_COLOUR, n_events, local,
                    kernel_seconds != NULL ? &first : NULL);
  if (status == HEGETCL_OK && kernel_seconds != NULL)
    status = profiled_seconds(ctx, first, NULL, kernel_seconds);
  if (first != NULL) clReleaseEvent(first);
  return status;
}

hegetcl_status hg_amplitude_upload_colours(hegetcl_amplitude *amp, size_t n_events,
                                           const uint32_t *colour) {
  hegetcl_context *ctx = amp->ctx;
  const hegetcl_status status = check_colour_kernel(amp);
  if (status != HEGETCL_OK) return status;
  return hg_cl_check(ctx,
                     clEnqueueWriteBuffer(ctx->queue, amp->colours, CL_TRUE, 0,
                                          n_events * sizeof(cl_uint), colour, 0, NULL, NULL),
                     "clEnqueueWriteBuffer", "uploading colours of %zu events", n_events);
}

hegetcl_status hg_amplitude_read(hegetcl_amplitude *amp, size_t n_events, double *me) {
  hegetcl_context *ctx = amp->ctx;
  const size_t real = hg_amplitude_real_size(amp);
  hegetcl_status status = ensure_staging(amp);
  if (status != HEGETCL_OK) return status;
  status = hg_cl_check(ctx,
                       clEnqueueReadBuffer(ctx->queue, amp->me, CL_TRUE, 0, n_events * real,
                                           amp->staging, 0, NULL, NULL),
                       "clEnqueueReadBuffer", "reading |M|^2 of %zu events (%s, %s, %s)", n_events,
                       hegetcl_engine_name(amp->process.engine), amp->process_text,
                       hegetcl_precision_name(amp->process.precision));
  if (status != HEGETCL_OK) return status;
  size_t bad = 0, first_bad = 0;
  /* momenta staged in units of sqrt(s-hat): |M|^2 times s-hat^(2 - n), in double */
  const int scaled = amp->shat != NULL && amp->scaled_events >= n_events;
  const double power = 2.0 - (double)amp->process.n_photons;
  for (size_t e = 0; e < n_events; ++e) {
    me[e] = real == sizeof(double) ? ((double *)amp->staging)[e] : ((float *)amp->staging)[e];
    if (scaled) me[e] *= pow(amp->shat[e], power);
    if (!isfinite(me[e]) && bad++ == 0) first_bad = e;
  }
  if (bad > 0 && amp->general)
    return hg_fail(ctx, HEGETCL_ERR_NONFINITE,
                   "%s (%s engine, %s): %zu of %zu events gave a non-finite |M|^2, the first "
                   "event %zu; check its momenta (on the particles' mass shells, momentum "
                   "conserved, no massless particle collinear to another or soft)",
                   amp->process_text, hegetcl_engine_name(amp->process.engine),
                   hegetcl_precision_name(amp->process.precision), bad, n_events, first_bad);
  if (bad > 0)
    return hg_fail(ctx, HEGETCL_ERR_NONFINITE,
                   "%s engine (n = %u, %s): %zu of %zu events gave a non-finite |M|^2, the "
                   "first event %zu; check its momenta (massless, momentum conserved, no photon "
                   "collinear to another or to a beam, no soft photon)",
                   hegetcl_engine_name(amp->process.engine), amp->process.n_photons,
                   hegetcl_precision_name(amp->process.precision), bad, n_events, first_bad);
  return HEGETCL_OK;
}

hegetcl_status hg_amplitude_launch_local_size(hegetcl_amplitude *amp, int per_helicity,
                                              size_t *local) {
  cl_kernel kernel = amp->n_parts > 0 ? amp->parts[0] : per_helicity ? amp->helicity : amp->summed;
  return hg_amplitude_local_size(amp, kernel, local);
}

static hegetcl_status check_batch(hegetcl_amplitude *amp, size_t n_events, const void *momenta,
                                  const double *me) {
  if (amp == NULL) return HEGETCL_ERR_INPUT;
  if (n_events == 0 || n_events > 0xffffffffu)
    return hg_fail(amp->ctx, HEGETCL_ERR_INPUT,
                   "n_events = %zu: a batch holds 1 to 4294967295 events", n_events);
  if (momenta == NULL || me == NULL)
    return hg_fail(amp->ctx, HEGETCL_ERR_INPUT, "momenta and me must not be NULL");
  return HEGETCL_OK;
}

hegetcl_status hegetcl_amplitude_evaluate(hegetcl_amplitude *amp, size_t n_events,
                                          const double *momenta, double *me) {
  hegetcl_status status = check_batch(amp, n_events, momenta, me);
  if (status == HEGETCL_OK) status = hg_amplitude_upload(amp, n_events, momenta, NULL);
  if (status == HEGETCL_OK) status = hg_amplitude_run(amp, n_events, 0, NULL);
  if (status == HEGETCL_OK) status = hg_amplitude_read(amp, n_events, me);
  return status;
}

static hegetcl_status check_helicities(hegetcl_amplitude *amp, size_t n_events,
                                       const uint32_t *helicity) {
  const uint32_t limit = 1u << (amp->helicity_bits ? amp->helicity_bits : amp->n_particles);
  for (size_t e = 0; e < n_events; ++e)
    if (helicity[e] >= limit)
      return hg_fail(amp->ctx, HEGETCL_ERR_INPUT,
                     "helicity[%zu] = %u: configurations of %s lie in 0..%u", e, helicity[e],
                     amp->general ? amp->process_text : "these photons", limit - 1);
  return HEGETCL_OK;
}

hegetcl_status hegetcl_amplitude_evaluate_helicity(hegetcl_amplitude *amp, size_t n_events,
                                                   const double *momenta, const uint32_t *helicity,
                                                   double *me) {
  hegetcl_status status = check_batch(amp, n_events, momenta, me);
  if (status != HEGETCL_OK) return status;
  if (helicity == NULL) return hg_fail(amp->ctx, HEGETCL_ERR_INPUT, "helicity must not be NULL");
  status = check_helicities(amp, n_events, helicity);
  if (status == HEGETCL_OK) status = hg_amplitude_upload(amp, n_events, momenta, helicity);
  if (status == HEGETCL_OK) status = hg_amplitude_run(amp, n_events, 1, NULL);
  if (status == HEGETCL_OK) status = hg_amplitude_read(amp, n_events, me);
  return status;
}

hegetcl_status hegetcl_amplitude_evaluate_events(hegetcl_amplitude *amp, size_t n_events,
                                                 const double *momenta, const uint32_t *helicity,
                                                 double *me) {
  hegetcl_status status = check_batch(amp, n_events, momenta, me);
  if (status == HEGETCL_OK && helicity != NULL) status = check_helicities(amp, n_events, helicity);
  if (status == HEGETCL_OK)
    status = hg_amplitude_upload_layout(amp, n_events, momenta, 1, helicity);
  if (status == HEGETCL_OK) status = hg_amplitude_run(amp, n_events, helicity != NULL, NULL);
  if (status == HEGETCL_OK) status = hg_amplitude_read(amp, n_events, me);
  return status;
}

/* HEGETCL_ERR_INPUT naming the first colour assignment with an index out of range. */
static hegetcl_status check_colours(hegetcl_amplitude *amp, size_t n_events,
                                    const uint32_t *colour) {
  const unsigned n = amp->n_particles;
  for (size_t e = 0; e < n_events; ++e) {
    for (unsigned i = 0; i < n; ++i) {
      const unsigned index = colour[e] >> (3 * i) & 7u;
      if (index >= amp->colour_dims[i])
        return hg_fail(amp->ctx, HEGETCL_ERR_INPUT,
                       "colour[%zu] = 0x%x: particle %u of %s has colour index %u; a %s takes "
                       "%s%u (3 bits per particle, CONVENTIONS.md, \"Colour sampling\")",
                       e, colour[e], i, amp->process_text, index,
                       amp->colour_dims[i] == 8   ? "gluon"
                       : amp->colour_dims[i] == 3 ? "quark"
                                                  : "colourless particle",
                       amp->colour_dims[i] > 1 ? "0.." : "only ", amp->colour_dims[i] - 1u);
    }
    if (3 * n < 32 && colour[e] >> (3 * n) != 0)
      return hg_fail(amp->ctx, HEGETCL_ERR_INPUT,
                     "colour[%zu] = 0x%x: bits above particle %u's set; %s has %u particles", e,
                     colour[e], n - 1, amp->process_text, n);
  }
  return HEGETCL_OK;
}

hegetcl_status hegetcl_amplitude_evaluate_colour(hegetcl_amplitude *amp, size_t n_events,
                                                 const double *momenta, const uint32_t *helicity,
                                                 const uint32_t *colour, double *me) {
  hegetcl_status status = check_batch(amp, n_events, momenta, me);
  if (status != HEGETCL_OK) return status;
  status = check_colour_kernel(amp);
  if (status != HEGETCL_OK) return status;
  if (colour == NULL) return hg_fail(amp->ctx, HEGETCL_ERR_INPUT, "colour must not be NULL");
  status = check_colours(amp, n_events, colour);
  if (status == HEGETCL_OK && helicity != NULL) status = check_helicities(amp, n_events, helicity);
  if (status == HEGETCL_OK) status = hg_amplitude_upload(amp, n_events, momenta, helicity);
  if (status == HEGETCL_OK) status = hg_amplitude_upload_colours(amp, n_events, colour);
  if (status == HEGETCL_OK) status = hg_amplitude_run_colour(amp, n_events, helicity != NULL, NULL);
  if (status == HEGETCL_OK) status = hg_amplitude_read(amp, n_events, me);
  return status;
}

/* HEGETCL_OK when buffer belongs to the amplitude's OpenCL context and holds at least bytes. */
static hegetcl_status check_user_buffer(hegetcl_amplitude *amp, cl_mem buffer, const char *what,
                                        size_t bytes) {
  hegetcl_context *ctx = amp->ctx;
  cl_context owner = NULL;
  size_t size = 0;
  hegetcl_status status =
      hg_cl_check(ctx, clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, NULL),
                  "clGetMemObjectInfo", "asking the OpenCL context of the %s buffer", what);
  if (status == HEGETCL_OK)
    status = hg_cl_check(ctx, clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL),
                         "clGetMemObjectInfo", "asking the size of the %s buffer", what);
  if (status != HEGETCL_OK) return status;
  if (owner != ctx->context)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "the %s buffer belongs to another OpenCL context: create it in the one "
                   "hegetcl_context_opencl gives",
                   what);
  if (size < bytes)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "the %s buffer holds %zu bytes; %s needs %zu (n_events in the program's "
                   "precision, %s)",
                   what, size, what, bytes, hegetcl_precision_name(amp->process.precision));
  return HEGETCL_OK;
}

/* The caller's momenta (n_events in the program's precision) into the amplitude's own momenta
 * buffer, each event in the beam frame (cl/amplitudes/kernels.cl's amplitude_beam_frame). */
static hegetcl_status frame_buffer(hegetcl_amplitude *amp, size_t n_events, cl_mem momenta) {
  hegetcl_status status = hg_amplitude_reserve(amp, n_events);
  if (status == HEGETCL_OK && amp->beam_frame == NULL)
    status =
        hg_kernel_create(amp->ctx, amp->program, HG_KERNEL_AMPLITUDE_BEAM_FRAME, &amp->beam_frame);
  size_t local = 0;
  if (status == HEGETCL_OK) status = hg_amplitude_local_size(amp, amp->beam_frame, &local);
  if (status != HEGETCL_OK) return status;
  const cl_uint count = (cl_uint)n_events;
  cl_int err = clSetKernelArg(amp->beam_frame, 0, sizeof(cl_mem), &momenta);
  err |= clSetKernelArg(amp->beam_frame, 1, sizeof(cl_uint), &count);
  err |= clSetKernelArg(amp->beam_frame, 2, sizeof(cl_mem), &amp->momenta);
  status = hg_cl_check(amp->ctx, err, "clSetKernelArg", "setting the arguments of %s",
                       HG_KERNEL_AMPLITUDE_BEAM_FRAME);
  if (status != HEGETCL_OK) return status;
  return launch(amp, amp->beam_frame, HG_KERNEL_AMPLITUDE_BEAM_FRAME, n_events, local, NULL);
}

hegetcl_status hegetcl_amplitude_evaluate_buffers(hegetcl_amplitude *amp, size_t n_events,
                                                  cl_mem momenta, cl_mem helicity, cl_mem me) {
  if (amp == NULL) return HEGETCL_ERR_INPUT;
  hegetcl_context *ctx = amp->ctx;
  if (n_events == 0 || n_events > 0xffffffffu)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "n_events = %zu: a batch holds 1 to 4294967295 events",
                   n_events);
  if (momenta == NULL || me == NULL)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "the momenta and me buffers must not be NULL");
  if (amp->n_parts > 0)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "the diagram engine for n = %u runs in parts through buffers of its own: use "
                   "the recursive engine (the default) on caller buffers, or "
                   "hegetcl_amplitude_evaluate",
                   amp->process.n_photons);
  const size_t real = hg_amplitude_real_size(amp);
  hegetcl_status status =
      check_user_buffer(amp, momenta, "momenta", 4 * (size_t)amp->n_particles * n_events * real);
  if (status == HEGETCL_OK) status = check_user_buffer(amp, me, "me", n_events * real);
  if (status == HEGETCL_OK && helicity != NULL)
    status = check_user_buffer(amp, helicity, "helicity", n_events * sizeof(cl_uint));
  if (status != HEGETCL_OK) return status;
  /* the photon family: the events copied into the amplitude's own momenta buffer in the beam
   * frame by amplitude_beam_frame (those already there unchanged) */
  if (!amp->general) {
    status = frame_buffer(amp, n_events, momenta);
    if (status != HEGETCL_OK) return status;
    momenta = amp->momenta;
  }
  /* the kernels take the caller's buffers in place of the amplitude's own for this launch; their
   * momenta are taken as given, unscaled */
  amp->scaled_events = 0;
  const cl_mem own_momenta = amp->momenta, own_helicities = amp->helicities, own_me = amp->me;
  amp->momenta = momenta;
  amp->helicities = helicity;
  amp->me = me;
  status = hg_amplitude_run(amp, n_events, helicity != NULL, NULL);
  amp->momenta = own_momenta;
  amp->helicities = own_helicities;
  amp->me = own_me;
  return status;
}
