/* SPDX-License-Identifier: MIT */
/* Writes N events u ubar -> gamma gamma at the 13 TeV LHC as an LHE file (gzip for ".gz"), for
 * tests/io/lhef_reads_back.py and tests/io/lhe_merge.py. usage: lhef_example PATH N [NEVE [FIRST]]:
 * <xsecinfo neve> is NEVE (default N: another value makes a partial file, as a run stopped early
 * would leave), the events are those numbered FIRST .. FIRST+N-1 (default 0: one MPI rank's). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/lhef_writer.h"
#include "io/output_file.h"

static const double beam_energy_gev = 6500, xsec_pb = 12.5;

/* Event k: fractions x1, x2 of the beams, the photons at (theta, phi) in the partonic rest frame,
 * boosted along z to the lab: momentum is conserved to rounding. */
static void make_event(long k, double p[4][5]) {
  const double pi = 3.14159265358979323846;
  const double x1 = 0.01 + 0.003 * (double)(k % 17), x2 = 0.012 + 0.002 * (double)(k % 11);
  const double e1 = x1 * beam_energy_gev, e2 = x2 * beam_energy_gev;
  const double half = sqrt(e1 * e2); /* each photon's energy in the rest frame: sqrt(s-hat) / 2 */
  const double beta = (e1 - e2) / (e1 + e2), gamma = 1 / sqrt(1 - beta * beta);
  const double theta = pi * (0.1 + 0.8 * (double)((k * 7) % 13) / 12.0);
  const double phi = 2 * pi * (double)((k * 5) % 9) / 9.0;
  const double pz_rest = half * cos(theta);
  const double incoming[2][5] = {{0, 0, e1, e1, 0}, {0, 0, -e2, e2, 0}};
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 5; ++c) p[i][c] = incoming[i][c];
  for (int j = 0; j < 2; ++j) {
    const double sign = j == 0 ? 1 : -1;
    const double pz = sign * pz_rest;
    p[2 + j][0] = sign * half * sin(theta) * cos(phi);
    p[2 + j][1] = sign * half * sin(theta) * sin(phi);
    p[2 + j][2] = gamma * (pz + beta * half);
    p[2 + j][3] = gamma * (half + beta * pz);
    p[2 + j][4] = 0;
  }
}

/* argv[index] as a whole number >= 0 into *value; 0, or -1 after saying why. */
static int parse_count(char **argv, int index, const char *name, long *value) {
  char *end = NULL;
  errno = 0;
  *value = strtol(argv[index], &end, 10);
  if (*argv[index] == '\0' || *end != '\0' || errno != 0 || *value < 0) {
    fprintf(stderr, "lhef_example: error: %s = '%s' must be a whole number >= 0\n", name,
            argv[index]);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: lhef_example PATH N [NEVE [FIRST]]\n");
    return 2;
  }
  long n = 0, neve = 0, first = 0;
  if (parse_count(argv, 2, "N", &n) != 0) return 2;
  if (argc > 3 && parse_count(argv, 3, "NEVE", &neve) != 0) return 2;
  if (argc > 4 && parse_count(argv, 4, "FIRST", &first) != 0) return 2;
  if (argc <= 3) neve = n;
  char message[2048];
  hg_output *o = NULL;
  if (hg_output_open(argv[1], hg_output_path_is_gzip(argv[1]), &o, message, sizeof message)) {
    fprintf(stderr, "lhef_example: error: %s\n", message);
    return 1;
  }
  const hg_lhef_init init = {.beam_pid = {2212, 2212},
                             .beam_energy_gev = {beam_energy_gev, beam_energy_gev},
                             .pdf_group = {0, 0},
                             .pdf_set = {10042, 10042},
                             .weight_strategy = 3,
                             .xsec_pb = xsec_pb,
                             .xsec_error_pb = 0.25,
                             .max_weight_pb = xsec_pb,
                             .process_id = 1,
                             .generator_name = "hegetcl",
                             .generator_version = "lhef_example",
                             .n_events = neve,
                             .total_xsec_pb = xsec_pb,
                             .header_name = "hegetcl_run_card",
                             .header_text = "process = u u~ > a a\ncuts: pt > 20 & |eta| < 2.5\n",
                             .comment = "tests/io/lhef_example -- a test file"};
  static const int pid[4] = {2, -2, 22, 22}, status[4] = {-1, -1, 1, 1};
  static const int mothers[4][2] = {{0, 0}, {0, 0}, {1, 2}, {1, 2}};
  static const int colours[4][2] = {{501, 0}, {0, 501}, {0, 0}, {0, 0}};
  static const double lifetime[4] = {0, 0, 0, 0}, spin[4] = {9, 9, 9, 9};
  hg_lhef_write_init(o, &init);
  for (long k = first; k < first + n; ++k) {
    double p[4][5];
    make_event(k, p);
    const hg_lhef_event event = {.n_particles = 4,
                                 .process_id = 1,
                                 .weight = xsec_pb,
                                 .scale_gev = 2 * sqrt(p[0][3] * p[1][3]),
                                 .alpha_qed = 1 / 137.035999084,
                                 .alpha_qcd = 0.118,
                                 .pid = pid,
                                 .status = status,
                                 .mothers = mothers,
                                 .colours = colours,
                                 .momentum = (const double(*)[5])p,
                                 .lifetime = lifetime,
                                 .spin = spin};
    hg_lhef_write_event(o, &event);
  }
  hg_lhef_write_end(o);
  if (hg_output_close(o, 1, message, sizeof message) != 0) {
    fprintf(stderr, "lhef_example: error: %s\n", message);
    return 1;
  }
  return 0;
}
