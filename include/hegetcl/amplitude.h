/* SPDX-License-Identifier: MIT */
/* Squared matrix elements of a process (q qbar -> n photons, or any QCD/QED process written as
 * MadGraph users write it) on a batch of phase-space points. */
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
  HEGETCL_ENGINE_DIAGRAMS = 2,    /* generated straight-line diagram code, MadGraph style; the
                                     engine of every process other than q qbar -> n photons */
  HEGETCL_ENGINE_RECURSIVE = 3    /* Berends-Giele currents over photon subsets, ~n 2^n; for
                                     gluons with at most one quark line, one recursion per
                                     colour ordering and the colour matrix */
} hegetcl_engine;
#define HEGETCL_ENGINE_COUNT 4

/* Room for a process written as text, coupling orders included (with the final NUL). */
#define HEGETCL_PROCESS_TEXT_SIZE 200

typedef enum { HEGETCL_PRECISION_DOUBLE = 0, HEGETCL_PRECISION_FLOAT = 1 } hegetcl_precision;

/* Which internal propagators of a particle with a width carry it (CONVENTIONS.md, "Widths"). */
typedef enum {
  HEGETCL_WIDTH_RESONANT = 0, /* only s-channel propagators that do not continue an external
                                 particle's own line: gauge invariant for stable external tops */
  HEGETCL_WIDTH_ALL = 1       /* every propagator, t-channel included (MadGraph's standalone
                                 output; breaks the gluon Ward identity at order width/mass) */
} hegetcl_width_scheme;

/* A process and how to evaluate it. With text NULL it is q(p0, +z) qbar(p1, -z) -> n photons of
 * the fields n_photons and quark_charge; otherwise text names it as MadGraph users write it,
 * "g g > t t~ g g" (README.md, "Processes"), and "q q~ > a a ..." (q = d u s c b) is again the
 * photon family with q's charge. */
typedef struct {
  unsigned n_photons; /* 2..8 for every engine, up to 12 for the recursive one */
  hegetcl_engine engine;
  hegetcl_precision precision;       /* double needs cl_khr_fp64 */
  double alpha;                      /* fine-structure constant, default 1/132.507 (MadGraph sm) */
  double quark_charge;               /* in units of e, default 2/3 (up quark) */
  const char *text;                  /* NULL, or the process (not copied: keep it alive) */
  double alpha_s;                    /* strong coupling, fixed, default 0.118 */
  double top_mass, top_width;        /* GeV, default 173.0 and 1.4915 (MadGraph sm) */
  hegetcl_width_scheme width_scheme; /* default HEGETCL_WIDTH_RESONANT */
  /* The electroweak sector (MadGraph's sm, restrict_default; CONVENTIONS.md, "Electroweak
   * parameters"): inputs G_F, M_Z (with alpha above), M_W, sin^2 theta_W and the vev derived at
   * tree level; set them by their param_card names with hegetcl_process_set_param. */
  double gf;                        /* Fermi constant, GeV^-2, default 1.16639e-5 */
  double z_mass, h_mass, tau_mass;  /* GeV, default 91.188, 125, 1.777 */
  double z_width, w_width, h_width; /* GeV, default 2.441404, 2.0476, 6.382339e-3 */
  double top_yukawa_mass;           /* ymt: the top Yukawa y_t = sqrt(2) ymt / vev, default 173 */
  double tau_yukawa_mass;           /* ymtau, default 1.777 */
  int complex_mass;                 /* 1: complex-mass scheme for Z and W (default 0) */
} hegetcl_process;

/* The model parameters by MadGraph's param_card names: aEWM1 (1/alpha), Gf, aS, MZ, MT, MH, MTA,
 * WZ, WW, WT, WH, ymt, ymtau. hegetcl_process_set_param refuses an unknown name or a value out of
 * range (HEGETCL_ERR_INPUT, the problem and the fix in message, which may be NULL); masses must
 * be positive, widths >= 0, and G_F, M_Z and alpha must give a real W mass. */
hegetcl_status hegetcl_process_set_param(hegetcl_process *p, const char *name, double value,
                                         char *message, size_t message_size);
hegetcl_status hegetcl_process_get_param(const hegetcl_process *p, const char *name, double *value);
/* The settable names in order (NULL past the last), and the derived quantities hegetcl prints
 * with a run: MW, sw2, ee, vev, yt (NULL past the last). */
const char *hegetcl_process_param_name(unsigned index);
const char *hegetcl_process_derived_name(unsigned index);
/* A derived quantity's value for p's inputs; HEGETCL_ERR_INPUT for an unknown name or inputs
 * without a real W mass. */
hegetcl_status hegetcl_process_get_derived(const hegetcl_process *p, const char *name,
                                           double *value);
/* The parameters one line each ("MZ = 91.188"), inputs then derived, into out (truncated to
 * size); returns the length it needed. */
size_t hegetcl_process_describe_params(const hegetcl_process *p, char *out, size_t size);

/* Fills *p with n photons, the recursive engine, double precision, alpha = 1/132.507, Q = 2/3,
 * and the QCD defaults above (text NULL). */
void hegetcl_process_defaults(hegetcl_process *p, unsigned n_photons);

/* Fills *p with the defaults for the process text (kept, not copied): the photon family with the
 * recursive engine, every other process with the recursive engine too (HEGETCL_ENGINE_RECURSIVE:
 * its colour-ordered kernels for gluons with at most one quark line, its quark-line recursion
 * for the rest, electroweak bosons and coupling orders included). HEGETCL_ERR_INPUT, with
 * the problem and its fix in message (may be NULL), for text that does not parse, particles the
 * model does not know, or charge, colour or a flavour not conserved. */
hegetcl_status hegetcl_process_from_text(hegetcl_process *p, const char *text, char *message,
                                         size_t message_size);

/* The number of external particles of a process (n + 2 for the photon family). */
unsigned hegetcl_process_particles(const hegetcl_process *p);

/* The mass in GeV of external particle i of a process (top_mass for a top, 0 for the others and
 * for i out of range). */
double hegetcl_process_mass(const hegetcl_process *p, unsigned i);

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

/* Momenta are structure-of-arrays doubles in GeV: component c (E, px, py, pz) of particle i of
 * event e at momenta[(c * N + i) * n_events + e], N the number of external particles, in the
 * process's order (photon family: 0 = quark, 1 = antiquark, 2.. = photons, all massless, in any
 * frame: events whose quark is not along +z and antiquark along -z are brought there by a Lorentz
 * transformation first, CONVENTIONS.md "The beam frame"; a process given as text: its particles as
 * written, the two incoming first). me[e]
 * receives the squared matrix element summed over helicities and colours and divided by the
 * initial spins and colours and the identical final-state particles' factorials (photon family:
 * 4 * 9 * n!), the normalisation of MadGraph's standalone output. */
hegetcl_status hegetcl_amplitude_evaluate(hegetcl_amplitude *amp, size_t n_events,
                                          const double *momenta, double *me);

/* The same for one helicity configuration per event: bit i of helicity[e] is the helicity of
 * particle i (0: -1, 1: +1; incoming particles with their physical helicity, as MadGraph), with
 * the same normalisation. Summed over all 2^N configurations it equals the above. */
hegetcl_status hegetcl_amplitude_evaluate_helicity(hegetcl_amplitude *amp, size_t n_events,
                                                   const double *momenta, const uint32_t *helicity,
                                                   double *me);

/* The same as the two calls above with momenta event by event, as numpy's C-contiguous
 * (events, n + 2, 4) array holds them: component c of particle i of event e at
 * momenta[(e * (n + 2) + i) * 4 + c]. helicity NULL: summed over helicities
 * (hegetcl_amplitude_evaluate); else one configuration per event
 * (hegetcl_amplitude_evaluate_helicity). The Python package calls this: its arrays cross once. */
hegetcl_status hegetcl_amplitude_evaluate_events(hegetcl_amplitude *amp, size_t n_events,
                                                 const double *momenta, const uint32_t *helicity,
                                                 double *me);

/* Sampled colours (the recursive colour engine: gluons with at most one quark line): me[e]
 * receives |M|^2 of the one colour assignment colour[e], summed over helicities (helicity NULL)
 * or for the configuration helicity[e], with the normalisation above, so that summed over every
 * assignment it equals hegetcl_amplitude_evaluate (or _helicity): an event generator draws the
 * assignment uniformly and weights me[e] by the number of assignments, 8 per gluon and 3 per
 * quark. colour[e] holds 3 bits per particle, particle i's at bits 3i..3i+2: a gluon's adjoint
 * index a - 1 (0..7), a quark's or antiquark's fundamental index (0..2; CONVENTIONS.md, "Colour
 * sampling"); other bits zero. The only way to evaluate processes beyond the exact colour sum's
 * 720 orderings (g g > 7 g, g g > 8 g). HEGETCL_ERR_INPUT for an index out of range,
 * HEGETCL_ERR_UNSUPPORTED for the other engines and for processes with two or more quark lines
 * (their exact colour sum only). */
hegetcl_status hegetcl_amplitude_evaluate_colour(hegetcl_amplitude *amp, size_t n_events,
                                                 const double *momenta, const uint32_t *helicity,
                                                 const uint32_t *colour, double *me);

/* Zero copy: the kernels read and write the caller's OpenCL buffers, made in the context's
 * cl_context (hegetcl_context_opencl). momenta holds 4 (n + 2) n_events values of the program's
 * precision (cl_double for HEGETCL_PRECISION_DOUBLE, cl_float for FLOAT) in the
 * structure-of-arrays layout of hegetcl_amplitude_evaluate; me receives n_events values of that
 * precision; helicity (NULL: summed over helicities) holds n_events cl_uint configurations, which
 * are not checked here (bits above n + 2 give garbage, never a crash). The kernels are enqueued on
 * the context's in-order queue and the call returns without waiting: enqueue your next command
 * on that queue, or clFinish it, before reading me. Buffers of another cl_context or too small
 * are HEGETCL_ERR_INPUT (naming the buffer and the size needed). Photon-family events in any frame
 * are copied into the amplitude's own momenta buffer in the beam frame first (a kernel, in the
 * program's precision; the caller's buffer is not changed). The diagram engine from n = 6,
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
