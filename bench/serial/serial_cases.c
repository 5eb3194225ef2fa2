/* SPDX-License-Identifier: MIT */
/* The table of serial cases, and the constants the amplitude kernels are given. */
#include "serial_cases.h"

#include <math.h>
#include <string.h>

#include "hegetcl/hegetcl.h"

#define HG_SERIAL_PRECISION_float 0
#define HG_SERIAL_PRECISION_double 1
#define HG_SERIAL_ENGINE_permutation HG_SERIAL_PERMUTATION
#define HG_SERIAL_ENGINE_unrolled HG_SERIAL_UNROLLED
#define HG_SERIAL_ENGINE_recursive HG_SERIAL_RECURSIVE
#define HG_SERIAL_ENTRY(engine, n, real)                                                           \
  {HG_SERIAL_ENGINE_##engine, n, HG_SERIAL_PRECISION_##real,                                       \
   HG_SERIAL_NAME(engine, n, real, summed), HG_SERIAL_NAME(engine, n, real, helicity)},

const hg_serial_case hg_serial_cases[] = {HG_SERIAL_CASES(HG_SERIAL_ENTRY)};
const size_t hg_serial_case_count = sizeof hg_serial_cases / sizeof *hg_serial_cases;

static const char *const engine_names[HG_SERIAL_ENGINE_COUNT] = {"permutation", "unrolled",
                                                                 "recursive"};
static const unsigned engine_max_photons[HG_SERIAL_ENGINE_COUNT] = {
    HG_SERIAL_PERMUTATION_MAX_PHOTONS, HG_SERIAL_UNROLLED_MAX_PHOTONS,
    HG_SERIAL_RECURSIVE_MAX_PHOTONS};

const char *hg_serial_engine_name(int engine) {
  return engine >= 0 && engine < HG_SERIAL_ENGINE_COUNT ? engine_names[engine] : "unknown";
}

int hg_serial_engine_parse(const char *name) {
  for (int engine = 0; engine < HG_SERIAL_ENGINE_COUNT; ++engine)
    if (strcmp(name, engine_names[engine]) == 0) return engine;
  return -1;
}

unsigned hg_serial_max_photons(int engine) {
  return engine >= 0 && engine < HG_SERIAL_ENGINE_COUNT ? engine_max_photons[engine] : 0;
}

const hg_serial_case *hg_serial_find(int engine, unsigned n, int is_double) {
  for (size_t i = 0; i < hg_serial_case_count; ++i) {
    const hg_serial_case *c = &hg_serial_cases[i];
    if (c->engine == engine && c->n == n && c->is_double == is_double) return c;
  }
  return NULL;
}

/* The same numbers host/amplitude/amplitude.c hands the kernels (photon_coupling, me_factor). */
void hg_serial_constants(unsigned n_photons, double *coupling, double *me_factor) {
  hegetcl_process process;
  hegetcl_process_defaults(&process, n_photons);
  *coupling = sqrt(4.0 * 3.14159265358979323846 * process.alpha) * process.quark_charge;
  *me_factor = hegetcl_me_factor(n_photons);
}
