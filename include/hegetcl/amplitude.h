/* SPDX-License-Identifier: MIT */
/* Squared matrix elements of q qbar -> n photons on a batch of phase-space points. */
#ifndef HEGETCL_AMPLITUDE_H
#define HEGETCL_AMPLITUDE_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/cl.h"
#include "hegetcl/device.h"
#include "hegetcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the sum over the n! photon orderings is evaluated (README.md, "Engines"). */
typedef enum {
  HEGETCL_ENGINE_PERMUTATION = 0, /* next-permutation loop, HEGET's method */
  HEGETCL_ENGINE_UNROLLED = 1,    /* the same with the last three levels written out */
  HEGETCL_ENGINE_DIAGRAMS = 2,    /* generated straight-line diagram code, MadGraph style */
  HEGETCL_ENGINE_RECURSIVE = 3    /* Berends-Giele currents over photon subsets, ~n 2^n */
} hegetcl_engine;
#define HEGETCL_ENGINE_COUNT 4

typedef enum { HEGETCL_PRECISION_DOUBLE = 0, HEGETCL_PRECISION_FLOAT = 1 } hegetcl_precision;

/* The process q(p0, +z) qbar(p1, -z) -> n photons and how to evaluate it. */
typedef struct {
  unsigned n_photons;          /* 2..8 for every engine, up to 12 for the recursive one */
  hegetcl_engine engine;
  hegetcl_precision precision; /* double needs cl_khr_fp64 */
  double alpha;                /* fine-structure constant, default 1/132.507 (MadGraph sm) */
  double quark_charge;         /* in units of e, default 2/3 (up quark) */
} hegetcl_process;

/* Fills *p with n photons, the recursive engine, double precision, alpha = 1/132.507, Q = 2/3. */
void hegetcl_process_defaults(hegetcl_process *p, unsigned n_photons);

/* Engine and precision names ("permutation", ..., "double", "float") and their inverses
 * (HEGETCL_ERR_INPUT for an unknown name). */
const char *hegetcl_engine_name(hegetcl_engine engine);
hegetcl_status hegetcl_engine_parse(const char *name, hegetcl_engine *out);
const char *hegetcl_precision_name(hegetcl_precision precision);
hegetcl_status hegetcl_precision_parse(const char *name, hegetcl_precision *out);

/* The largest n an engine accepts. */
unsigned hegetcl_engine_max_photons(hegetcl_engine engine);

typedef struct hegetcl_amplitude hegetcl_amplitude;

/* Builds (or takes from the context's cache) the program for the process and makes its kernels.
 * HEGETCL_ERR_INPUT for n out of range, HEGETCL_ERR_UNSUPPORTED for double without cl_khr_fp64,
 * HEGETCL_ERR_PROGRAM_BUILD with the compiler log. */
hegetcl_status hegetcl_amplitude_create(hegetcl_context *ctx, const hegetcl_process *process,
                                        hegetcl_amplitude **out);
void hegetcl_amplitude_destroy(hegetcl_amplitude *amp);

/* Momenta are structure-of-arrays doubles in GeV: component c (E, px, py, pz) of particle i
 * (0 = quark along +z, 1 = antiquark along -z, 2.. = photons, all massless) of event e at
 * momenta[(c * (n + 2) + i) * n_events + e]. me[e] receives the squared matrix element summed over
 * helicities and colours and divided by 4 * 9 * n! (initial spins, colours, identical photons),
 * the normalisation of MadGraph's standalone output. */
hegetcl_status hegetcl_amplitude_evaluate(hegetcl_amplitude *amp, size_t n_events,
                                          const double *momenta, double *me);

/* The same for one helicity configuration per event: bit i of helicity[e] is the helicity of
 * particle i (0: -1, 1: +1). Summed over all 2^(n+2) configurations it equals the above. */
hegetcl_status hegetcl_amplitude_evaluate_helicity(hegetcl_amplitude *amp, size_t n_events,
                                                   const double *momenta,
                                                   const uint32_t *helicity, double *me);

/* The same as the two calls above with momenta event by event, as numpy's C-contiguous
 * (events, n + 2, 4) array holds them: component c of particle i of event e at
 * momenta[(e * (n + 2) + i) * 4 + c]. helicity NULL: summed over helicities
 * (hegetcl_amplitude_evaluate); else one configuration per event
 * (hegetcl_amplitude_evaluate_helicity). The Python package calls this: its arrays cross once. */
hegetcl_status hegetcl_amplitude_evaluate_events(hegetcl_amplitude *amp, size_t n_events,
                                                 const double *momenta, const uint32_t *helicity,
                                                 double *me);

/* Zero copy: the kernels read and write the caller's OpenCL buffers, made in the context's
 * cl_context (hegetcl_context_opencl). momenta holds 4 (n + 2) n_events values of the program's
 * precision (cl_double for HEGETCL_PRECISION_DOUBLE, cl_float for FLOAT) in the
 * structure-of-arrays layout of hegetcl_amplitude_evaluate; me receives n_events values of that
 * precision; helicity (NULL: summed over helicities) holds n_events cl_uint configurations, which
 * are not checked here (bits above n + 2 give garbage, never a crash). The kernels are enqueued on
 * the context's in-order queue and the call returns without waiting: enqueue your next command
 * on that queue, or clFinish it, before reading me. Buffers of another cl_context or too small
 * are HEGETCL_ERR_INPUT (naming the buffer and the size needed); the diagram engine from n = 6,
 * which runs in parts through buffers of its own, is HEGETCL_ERR_UNSUPPORTED. Non-finite values
 * are not checked (the data never reach the host). */
hegetcl_status hegetcl_amplitude_evaluate_buffers(hegetcl_amplitude *amp, size_t n_events,
                                                  cl_mem momenta, cl_mem helicity, cl_mem me);

/* Sets the work-group size of the amplitude's launches (0: chosen from the kernel's limits). */
hegetcl_status hegetcl_amplitude_set_local_size(hegetcl_amplitude *amp, size_t local_size);

/* 1/(12 n!): the spin (1/4), colour (3/9) and identical-photon (1/n!) factors. */
double hegetcl_me_factor(unsigned n_photons);

/* The build options and device the amplitude's program was built with (for outputs). */
const char *hegetcl_amplitude_build_options(const hegetcl_amplitude *amp);

#ifdef __cplusplus
}
#endif
#endif
