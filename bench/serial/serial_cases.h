/* SPDX-License-Identifier: MIT */
/* The serial CPU build of the amplitude kernels: one compiled case per (engine, n, precision). */
#ifndef HG_SERIAL_CASES_H
#define HG_SERIAL_CASES_H

#include <stddef.h>
#include <stdint.h>

/* The engines built serially, as bench/serial/meson.build passes them in -D HG_SERIAL_ENGINE. */
#define HG_SERIAL_PERMUTATION 0
#define HG_SERIAL_UNROLLED 1
#define HG_SERIAL_RECURSIVE 2
#define HG_SERIAL_ENGINE_COUNT 3
/* The largest n built per engine; bench/serial/meson.build builds n = 2 up to these. */
#define HG_SERIAL_PERMUTATION_MAX_PHOTONS 8
#define HG_SERIAL_UNROLLED_MAX_PHOTONS 8
#define HG_SERIAL_RECURSIVE_MAX_PHOTONS 12

/* The helicity-summed |M|^2 times me_factor of n_events events, as the kernel amplitude_summed
 * computes it: momenta in the structure-of-arrays layout of hegetcl_amplitude_evaluate (doubles,
 * converted to the case's REAL as they are loaded), me out (n_events doubles). */
typedef void hg_serial_summed_fn(size_t n_events, const double *momenta, double coupling,
                                 double me_factor, double *me);
/* |M|^2 times me_factor of helicity configuration helicity[event] per event (bit i: particle i
 * has helicity +1), as the kernel amplitude_helicity computes it. */
typedef void hg_serial_helicity_fn(size_t n_events, const double *momenta, double coupling,
                                   double me_factor, const uint32_t *helicity, double *me);

/* The name of one case's function: hg_serial_<engine>_n<n>_<float|double>_<summed|helicity>. */
#define HG_SERIAL_NAME_(engine, n, real, mode) hg_serial_##engine##_n##n##_##real##_##mode
#define HG_SERIAL_NAME(engine, n, real, mode) HG_SERIAL_NAME_(engine, n, real, mode)

/* Every case, X(engine, n, real) once each, in the order of the table; it must list what
 * bench/serial/meson.build compiles (a case missing there fails the link). */
#define HG_SERIAL_N_2_TO_8(X, engine, real)                                                        \
  X(engine, 2, real)                                                                               \
  X(engine, 3, real) X(engine, 4, real) X(engine, 5, real) X(engine, 6, real) X(engine, 7, real)   \
      X(engine, 8, real)
#define HG_SERIAL_N_2_TO_12(X, engine, real)                                                       \
  HG_SERIAL_N_2_TO_8(X, engine, real)                                                              \
  X(engine, 9, real) X(engine, 10, real) X(engine, 11, real) X(engine, 12, real)
#define HG_SERIAL_CASES(X)                                                                         \
  HG_SERIAL_N_2_TO_8(X, permutation, float)                                                        \
  HG_SERIAL_N_2_TO_8(X, permutation, double)                                                       \
  HG_SERIAL_N_2_TO_8(X, unrolled, float)                                                           \
  HG_SERIAL_N_2_TO_8(X, unrolled, double)                                                          \
  HG_SERIAL_N_2_TO_12(X, recursive, float)                                                         \
  HG_SERIAL_N_2_TO_12(X, recursive, double)

#define HG_SERIAL_DECLARE(engine, n, real)                                                         \
  hg_serial_summed_fn HG_SERIAL_NAME(engine, n, real, summed);                                     \
  hg_serial_helicity_fn HG_SERIAL_NAME(engine, n, real, helicity);
HG_SERIAL_CASES(HG_SERIAL_DECLARE)
#undef HG_SERIAL_DECLARE

/* One compiled case. */
typedef struct {
  int engine;    /* HG_SERIAL_PERMUTATION, HG_SERIAL_UNROLLED or HG_SERIAL_RECURSIVE */
  unsigned n;    /* photons */
  int is_double; /* REAL is double (1) or float (0) */
  hg_serial_summed_fn *summed;
  hg_serial_helicity_fn *helicity;
} hg_serial_case;

extern const hg_serial_case hg_serial_cases[];
extern const size_t hg_serial_case_count;

/* "permutation", "unrolled" or "recursive"; "unknown" for anything else. */
const char *hg_serial_engine_name(int engine);
/* The engine named name, or -1. */
int hg_serial_engine_parse(const char *name);
/* The largest n built for engine (0 for an unknown engine). */
unsigned hg_serial_max_photons(int engine);
/* The case (engine, n, precision), or NULL where none was built. */
const hg_serial_case *hg_serial_find(int engine, unsigned n, int is_double);
/* The photon coupling e*Q and the factor 1/(12 n!) the amplitude kernels get, from the library's
 * process defaults (hegetcl_process_defaults, hegetcl_me_factor). */
void hg_serial_constants(unsigned n_photons, double *coupling, double *me_factor);

#endif
