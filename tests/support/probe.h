/* SPDX-License-Identifier: MIT */
/* Probe kernels for device tests: an engine's sources plus a test's kernel text, run on doubles. */
#ifndef HG_TEST_PROBE_H
#define HG_TEST_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "test_support.h"

/* In place of an engine: a program with the HELAS library only (amplitudes/engine_common.cl). */
#define TS_PROBE_HELAS_ONLY (-1)
/* In place of an engine: the whole HELAS library, massive and gluon functions too (helas/qcd.cl).
 */
#define TS_PROBE_HELAS_QCD (-2)

/* A built probe program; the program belongs to the context's cache. */
typedef struct {
  hegetcl_context *ctx;
  hegetcl_precision precision;
  unsigned n_photons;
  int engine;               /* a hegetcl_engine or TS_PROBE_HELAS_ONLY */
  void *program;            /* cl_program, kept opaque so tests need not include <CL/cl.h> */
  unsigned n_diagram_parts; /* the diagram engine's kernels per amplitude; 1 otherwise */
  double build_seconds;     /* 0 when the program came from the cache */
} ts_probe;

/* Builds (or takes from the cache) the program of the engine's sources, ts_probe_preamble and
 * kernel_text, with the library's build options for precision and n_photons. For the diagrams
 * engine the sources are amplitudes/engine_common.cl and hg_diagrams_source(n_photons). */
hegetcl_status ts_probe_build(hegetcl_context *ctx, int engine, hegetcl_precision precision,
                              unsigned n_photons, const char *kernel_text, ts_probe *out);

/* What ts_probe_build puts before kernel_text: ts_load_momentum(momenta, n_events, event, i)
 * reads particle i's momentum in the SoA layout of include/hegetcl/amplitude.h, and
 * ts_photon_coupling(g) makes gal[0] = gal[1] = g. */
extern const char ts_probe_preamble[];

/* Kernel text for ts_probe_build with an engine: probe_amplitude(momenta, n_events, coupling,
 * generic_quarks, events, configs, replace, amplitude) gives, per work-item w, the engine's
 * amplitude at event events[w] in helicity configuration configs[w] (bit i: particle i has
 * helicity +1), the quarks made by ixxxx0/oxxxx0 when generic_quarks != 0, else by ixxxx1/oxxxx2,
 * the photons by vxxxx0, photon replace[w] (when >= 0) with its polarisation w[0..3] replaced by
 * its momentum (E, px, py, pz); amplitude[2w], amplitude[2w + 1] = its real and imaginary parts.
 * A diagram engine split into parts gets probe_amplitude_part_<p>, each its part's diagrams. */
extern const char ts_probe_amplitude_kernel[];

/* Runs ts_probe_amplitude_kernel (built with ts_probe_build) over n_items work-items with the
 * coupling of ts_default_photon_coupling; a split diagram engine's parts are run in turn and
 * added on the host in double. */
hegetcl_status ts_probe_amplitudes(const ts_probe *probe, size_t n_events, const double *momenta,
                                   int generic_quarks, size_t n_items, const uint32_t *events,
                                   const uint32_t *configs, const int32_t *replace,
                                   double *amplitude);

/* A probe kernel's argument, in the kernel's parameter order. */
typedef enum {
  TS_ARG_REALS_IN,  /* doubles, uploaded in the program's precision */
  TS_ARG_REALS_OUT, /* read back into doubles; NaN on the device and in reals_out before launch */
  TS_ARG_U32S_IN,   /* uint array */
  TS_ARG_INTS_IN,   /* int array */
  TS_ARG_U32,       /* uint scalar */
  TS_ARG_INT,       /* int scalar */
  TS_ARG_REAL       /* REAL scalar */
} ts_arg_kind;

typedef struct {
  ts_arg_kind kind;
  size_t count; /* elements of an array */
  const double *reals_in;
  double *reals_out;
  const uint32_t *u32s_in;
  const int32_t *ints_in;
  uint32_t u32;
  int32_t i32;
  double real;
} ts_arg;

static inline ts_arg ts_reals_in(size_t count, const double *values) {
  return (ts_arg){.kind = TS_ARG_REALS_IN, .count = count, .reals_in = values};
}
static inline ts_arg ts_reals_out(size_t count, double *values) {
  return (ts_arg){.kind = TS_ARG_REALS_OUT, .count = count, .reals_out = values};
}
static inline ts_arg ts_u32s_in(size_t count, const uint32_t *values) {
  return (ts_arg){.kind = TS_ARG_U32S_IN, .count = count, .u32s_in = values};
}
static inline ts_arg ts_ints_in(size_t count, const int32_t *values) {
  return (ts_arg){.kind = TS_ARG_INTS_IN, .count = count, .ints_in = values};
}
static inline ts_arg ts_u32(uint32_t value) { return (ts_arg){.kind = TS_ARG_U32, .u32 = value}; }
static inline ts_arg ts_int(int32_t value) { return (ts_arg){.kind = TS_ARG_INT, .i32 = value}; }
static inline ts_arg ts_real(double value) { return (ts_arg){.kind = TS_ARG_REAL, .real = value}; }

/* Runs kernel_name over n_work_items work-items, one per work-group, with args, then reads every
 * TS_ARG_REALS_OUT back. */
hegetcl_status ts_probe_run(const ts_probe *probe, const char *kernel_name, size_t n_work_items,
                            const ts_arg *args, size_t n_args);

/* "engine n = N precision" for failure messages ("HELAS" in place of a missing engine). */
const char *ts_probe_label(const ts_probe *probe, char *buf, size_t size);

/* e * Q, the photon coupling gal[0] = gal[1] of hegetcl_process_defaults (alpha = 1/132.507,
 * Q = 2/3). */
double ts_default_photon_coupling(void);

#endif
