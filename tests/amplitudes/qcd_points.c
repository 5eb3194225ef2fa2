/* SPDX-License-Identifier: MIT */
/* Processes and random points for the recursive colour engine's tests (qcd_points.h). */
#include "qcd_points.h"

#include <stdlib.h>

#include "rambo.h"
#include "test_support.h"

hegetcl_process qcd_process_of(const char *text) {
  hegetcl_process process;
  char message[1024];
  if (hegetcl_process_from_text(&process, text, message, sizeof message) != HEGETCL_OK)
    fail_msg("%s", message);
  return process;
}

double *qcd_points_of(const hegetcl_process *process, size_t n_points, uint64_t seed) {
  const unsigned n = hegetcl_process_particles(process);
  double masses[16] = {0};
  for (unsigned i = 2; i < n; ++i) masses[i - 2] = hegetcl_process_mass(process, i);
  double *momenta = malloc(4 * n * n_points * sizeof *momenta);
  hg_bench_rambo_massive(n - 2, masses, QCD_POINTS_SQRT_S, n_points, seed, momenta);
  return momenta;
}
