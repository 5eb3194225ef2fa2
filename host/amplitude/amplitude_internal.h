/* SPDX-License-Identifier: MIT */
/* The amplitude object's insides, for the host files that launch its kernels (bench, pipelines). */
#ifndef HG_AMPLITUDE_INTERNAL_H
#define HG_AMPLITUDE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "core/program.h"
#include "hegetcl/amplitude.h"
#include "process/colour.h"
#include "process/process_spec.h"

struct hegetcl_amplitude {
  hegetcl_context *ctx;
  hegetcl_process process;
  char options[512];
  cl_program program;         /* owned by the context's cache */
  cl_kernel summed, helicity; /* NULL for the split diagram engine, and for the recursive
                                 colour engine with sampled colours only */
  cl_kernel colour_kernel;    /* the recursive colour engine: one colour assignment per
                                 event (hegetcl_amplitude_evaluate_colour); else NULL */
  size_t n_orderings;         /* the recursive colour engine's colour orderings */
  unsigned char colour_dims[HG_PROCESS_MAX_EXTERNAL]; /* its particles' colour indices: 8 for a
                                     gluon, 3 for a quark (hegetcl_amplitude_evaluate_colour) */
  cl_kernel *parts, accumulate;   /* the split diagram engine's kernels (n_parts > 0) */
  size_t *part_local;             /* their local sizes, set at each run */
  unsigned n_parts;               /* 0 unless the diagram engine is split */
  cl_mem momenta, helicities, me; /* kept between calls, grown as needed */
  cl_mem colours;                 /* the colour assignments, with the above (colour engine) */
  cl_mem partial;                 /* the split engine's partial amplitudes, 2 REALs per event */
  void *staging;                  /* host copy in the program's precision */
  double *shat;                   /* float programs of the photon family: each uploaded event's
                                     s-hat, its momenta staged in units of sqrt(s-hat) and its
                                     |M|^2 read back times s-hat^(2 - n) (CONVENTIONS.md,
                                     "Precision"); NULL otherwise */
  double *framed;                 /* the photon family: an uploaded batch with some event outside
                                     the beam frame, brought there in double (beam_frame.c) */
  cl_kernel beam_frame;           /* the same on the device for caller buffers, made on first use */
  size_t scaled_events;           /* events of the last upload that were so scaled, 0 after a
                                     run on other buffers */
  size_t capacity;                /* events the buffers hold */
  size_t local_size;              /* 0: chosen from the kernel's limits */
  size_t summed_group;            /* the recursive engine's shared helicity sum: work-items per
                                     group (recursive_shared.h), or the recursive colour
                                     engine's work-group kernels (both: colour_group.cl); 0: one
                                     event per work-item */
  size_t summed_group_events;     /* events per group of that kernel (those kernels) */
  cl_mem summed_tables;           /* its currents where they live in global memory, else NULL */
  size_t summed_groups;           /* work-groups it is launched with then (each goes over the
                                     batch); 0: one per summed_group_events events */
  double build_seconds;           /* 0 when the program came from the cache */
  unsigned n_particles;           /* external particles (n_photons + 2 for the photon family) */
  double me_factor;               /* 1 / IDEN: hegetcl_me_factor(n) for the photon family */
  int general;                    /* a process given as text other than the photon family */
  unsigned helicity_bits;         /* bits of a helicity configuration (0: n_particles) */
  uint64_t diagram_subset;        /* tests: the diagrams kept (bit k: diagram k), 0 for all */
  cl_mem params;                  /* its model parameters (process_common.cl's order) */
  cl_mem colour;                  /* the recursive colour engine's colour matrix */
  cl_mem words;                   /* its work-group kernels' word table (colour_group.cl) */
  int colour_item;                /* the recursive colour engine: one event per work-item even
                                     where the work-group kernels fit (HG_SUMMED_PRIVATE) */
  int colour_global;              /* its work-group kernels' tables in global memory even where
                                     they fit in local memory (HG_SUMMED_SHARED_GLOBAL) */
  char process_text[200];         /* its normalised text, for messages */
  cl_mem tape, tape_reals;        /* the quark-line recursion's tape (flow_recursion_tape.h) */
  const struct hg_fr_shape *fr_shape; /* while being made: the program shape to share (a process
                                         run's), else NULL */
};

/* The program and kernels of a general process (host/amplitude/process_amplitude.c): amp's
 * context and process are set; fills options, program, summed, helicity, params, n_particles,
 * me_factor and process_text. gauge_particle >= 0 replaces that external vector's polarisation
 * by its momentum (tests of the Ward identity), -1 for the physical amplitude. */
hegetcl_status hg_process_amplitude_build(hegetcl_amplitude *amp, const char *text,
                                          int gauge_particle);

/* A general process's program (process_common.cl, the generated text, kernels_file) built with
 * amp->options, and (summed_kernels = 1) its two kernels amplitude_summed and
 * amplitude_helicity. */
hegetcl_status hg_process_program(hegetcl_amplitude *amp, const char *generated,
                                  const char *kernels_file, int summed_kernels);

/* The recursive colour engine's program, kernels and colour matrix for spec (called by
 * hg_process_amplitude_build for the recursive engine; colour_ordered_amplitude.c): fills
 * options, program, summed, helicity (not beyond HG_CO_MAX_ORDERINGS orderings), colour_kernel,
 * colour, n_orderings and me_factor. */
/* The colour matrix (dim x dim) as the summed and helicity kernels' last argument, in double or
 * float (colour_double 0); colour_ordered_amplitude.c. */
hegetcl_status hg_amplitude_colour_matrix(hegetcl_amplitude *amp, const double *matrix, size_t dim,
                                          int colour_double, const char *process_text);
hegetcl_status hg_colour_ordered_amplitude_build(hegetcl_amplitude *amp,
                                                 const hg_process_spec *spec, int gauge_particle);

/* The quark-line recursion's program shape: what its program fixes at compile time (particles,
 * the capacities of its private arrays, the vertex kinds it compiles, the electroweak parameters,
 * and the largest tape, which decides whether tapes live in constant or global memory). Every
 * other part of a process (the tape) is buffers, so amplitudes of one shape share one program. */
typedef struct hg_fr_shape {
  int n_particles;
  int slots, flows, couplings;
  uint32_t uses; /* bit k: operation kind k (hg_fr_op.kind) is compiled */
  int ew;        /* the Z, W, H and tau parameters are loaded */
  size_t tape_bytes;
  int group_width; /* the work-group kernels' work-items (0: one event per work-item) */
  int group_slots; /* their current slots */
} hg_fr_shape;

/* The shape of process's own quark-line program: 1, or 0 when the quark-line recursion does not
 * compute it (another engine, or an error its amplitude will report), -1 (ctx's message set)
 * when out of memory. */
int hg_fr_shape_of(hegetcl_context *ctx, const hegetcl_process *process, hg_fr_shape *out);
/* Grows into to hold shape too (the largest capacities, the union of the kinds); an empty into
 * (n_particles 0) becomes shape. */
void hg_fr_shape_merge(hg_fr_shape *into, const hg_fr_shape *shape);
/* hegetcl_amplitude_create with the quark-line recursion's program made for shape (merged with
 * the process's own) when it computes the process: the groups of a process run, made with the
 * merge of their shapes, share one program. */
hegetcl_status hg_amplitude_create_shaped(hegetcl_context *ctx, const hegetcl_process *process,
                                          const hg_fr_shape *shape, hegetcl_amplitude **out);

/* The same for the quark-line recursion (flow_recursion_amplitude.c): two or more quark lines,
 * leptons, photons, W, Z, H, coupling orders (hg_recursive_uses_flows). */
hegetcl_status hg_flow_recursion_amplitude_build(hegetcl_amplitude *amp,
                                                 const hg_process_spec *spec, int gauge_particle);
/* The helicity configurations the quark-line recursion sums for spec (those that can be
 * non-zero; the bits of hg_diagrams_helicity_layout, as hegetcl_amplitude_evaluate_helicity takes
 * them): *n of them in *configs, which the caller frees; -1 when out of memory. */
int hg_fr_configurations(const hg_process_spec *spec, uint32_t **configs, size_t *n);
/* 1 when the recursive engine computes spec with the quark-line recursion, 0 when with the
 * colour-ordered kernels (gluons with at most one quark line and no coupling orders). */
int hg_recursive_uses_flows(const hg_process_spec *spec);

/* The colour flows whose leading-colour weights the recursive engine's amplitude_flow_weights
 * kernel (in amp's own program) gives, in its rows' order (flow_weights.c; CONVENTIONS.md,
 * "Colour flows of the recursive engines"): *flows (the caller frees it), *n_flows.
 * HEGETCL_ERR_UNSUPPORTED for an amplitude of another engine, or of the colour-ordered kernels
 * beyond HG_CO_MAX_ORDERINGS orderings (sampled colours only). */
hegetcl_status hg_amplitude_flows(const hegetcl_amplitude *amp, hg_colour_term **flows,
                                  size_t *n_flows);
/* The same for the process spec alone (no device): 0, or -1 with the reason in error. */
int hg_recursive_flows(const hg_process_spec *spec, int width_all, hg_colour_term **flows,
                       size_t *n_flows, char *error, size_t error_size);
/* Enqueues kernel (amplitude_flow_weights of amp->program, made by the caller) over n_events
 * events of momenta (a device buffer in the program's precision, the structure of arrays of
 * hegetcl_amplitude_evaluate), writing weights[k * n_events + e] = sum over the helicity
 * configurations of |J_k|^2, flow k of hg_amplitude_flows, in the program's precision (weights
 * is read and written: the colour-ordered kernel adds each configuration into it). */
hegetcl_status hg_amplitude_flow_weights(hegetcl_amplitude *amp, cl_kernel kernel, cl_mem momenta,
                                         size_t n_events, cl_mem weights);

/* hegetcl_amplitude_create for a general process whose external vector gauge_particle has its
 * polarisation replaced by its momentum: every |M|^2 vanishes by gauge invariance. */
hegetcl_status hg_amplitude_create_gauge_check(hegetcl_context *ctx, const hegetcl_process *process,
                                               int gauge_particle, hegetcl_amplitude **out);

/* The same with only the diagrams whose bit is set in keep (bit k: the diagrams engine's k-th
 * diagram), for tests of how single diagrams behave (the high-energy growth that their sum
 * cancels). HEGETCL_ERR_INPUT for keep = 0 or a process of another engine. */
hegetcl_status hg_amplitude_create_diagram_subset(hegetcl_context *ctx,
                                                  const hegetcl_process *process, uint64_t keep,
                                                  hegetcl_amplitude **out);

/* The sources of an engine's hg_engine_amplitude (or, for the split diagram engine, its part
 * functions) for n photons, written into parts (room for 2) ahead of the caller's kernels; the
 * diagram engine's generated text is returned in *generated (the caller frees it) and its number of
 * parts in *n_diagram_parts (1 for every other engine). */
hegetcl_status hg_engine_sources(hegetcl_context *ctx, hegetcl_engine engine, unsigned n_photons,
                                 hg_source_part *parts, size_t *n_parts, char **generated,
                                 unsigned *n_diagram_parts);

/* Which helicity sum hg_amplitude_create_variant builds for the recursive engine. */
enum {
  HG_SUMMED_PRIVATE = 0,      /* one event per work-item (kernels.cl's amplitude_summed) */
  HG_SUMMED_SHARED = 1,       /* shared by a work-group, its tables in local memory where they fit,
                                 else in global memory (the default: recursive_shared.h) */
  HG_SUMMED_SHARED_GLOBAL = 2 /* shared, its tables in global memory even where they would fit */
};

/* hegetcl_amplitude_create, with the recursive engine's helicity sum one of HG_SUMMED_*, for
 * benchmarks and tests that compare them. */
hegetcl_status hg_amplitude_create_variant(hegetcl_context *ctx, const hegetcl_process *process,
                                           int shared_sum, hegetcl_amplitude **out);

/* Non-zero when the event p (n particles' E, px, py, pz in turn) has particle 0 along +z and
 * particle 1 along -z; hg_event_to_beam_frame brings it there by a Lorentz transformation
 * (cl/common/beam_frame.h), leaving an event already there bit for bit as it is. */
int hg_event_in_beam_frame(const double *p);
void hg_event_to_beam_frame(double *p, unsigned n_particles);

/* Makes the device buffers (momenta, helicities, |M|^2) hold at least n_events; kept for later
 * calls. Kernels of other programs (the cross-section sampler) may fill momenta and helicities. */
hegetcl_status hg_amplitude_reserve(hegetcl_amplitude *amp, size_t n_events);
/* Sizeof the program's REAL. */
size_t hg_amplitude_real_size(const hegetcl_amplitude *amp);

/* The local size for a kernel: the one set, checked against the kernel's limit, or the largest
 * power-of-two multiple of the preferred multiple up to 128. */
hegetcl_status hg_amplitude_local_size(hegetcl_amplitude *amp, cl_kernel kernel, size_t *local);

/* Sets arguments 0..3 (momenta, n_events, coupling, me_factor) of an amplitude kernel; *next is
 * the index of the next argument. */
hegetcl_status hg_amplitude_set_common_args(hegetcl_amplitude *amp, cl_kernel kernel,
                                            cl_mem momenta, cl_uint n_events, cl_uint *next);

/* Makes the device buffers hold n_events, converts momenta (the layout of
 * hegetcl_amplitude_evaluate) to the program's precision and uploads them, and helicity too
 * unless it is NULL (it is not checked here). */
hegetcl_status hg_amplitude_upload(hegetcl_amplitude *amp, size_t n_events, const double *momenta,
                                   const uint32_t *helicity);
/* The same with the layout chosen: events_major = 1 reads momenta[(e * (n + 2) + i) * 4 + c]
 * (hegetcl_amplitude_evaluate_events), 0 the structure of arrays above. */
hegetcl_status hg_amplitude_upload_layout(hegetcl_amplitude *amp, size_t n_events,
                                          const double *momenta, int events_major,
                                          const uint32_t *helicity);

/* Enqueues the amplitude's kernels over the n_events already uploaded, helicity-summed or, with
 * per_helicity, one configuration per event from the uploaded helicities, writing the device's
 * |M|^2 buffer. With kernel_seconds (may be NULL) it waits for them and stores the profiled time
 * from the first kernel's start to the last one's end (the queue profiles); without, the kernels
 * are only enqueued. The split diagram engine launches its parts and amplitude_accumulate once
 * per photon helicity configuration in the summed mode, once in the per-helicity mode. */
hegetcl_status hg_amplitude_run(hegetcl_amplitude *amp, size_t n_events, int per_helicity,
                                double *kernel_seconds);

/* The recursive colour engine with one colour assignment per event (the uploaded colours),
 * helicity-summed or with per_helicity one configuration per event; kernel_seconds as above.
 * HEGETCL_ERR_UNSUPPORTED for an amplitude of another engine. */
hegetcl_status hg_amplitude_run_colour(hegetcl_amplitude *amp, size_t n_events, int per_helicity,
                                       double *kernel_seconds);
/* Uploads n_events colour assignments (buffers reserved for them). */
hegetcl_status hg_amplitude_upload_colours(hegetcl_amplitude *amp, size_t n_events,
                                           const uint32_t *colour);

/* Reads the n_events |M|^2 back as doubles into me, HEGETCL_ERR_NONFINITE naming the first
 * non-finite one. */
hegetcl_status hg_amplitude_read(hegetcl_amplitude *amp, size_t n_events, double *me);

/* The local size the amplitude's (first) kernel is launched with in a mode. */
hegetcl_status hg_amplitude_launch_local_size(hegetcl_amplitude *amp, int per_helicity,
                                              size_t *local);

#endif
