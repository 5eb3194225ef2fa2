/* SPDX-License-Identifier: MIT */
/* LHEH5: Les Houches events in HDF5, version 2.0.0 of the layout that Pepper and Sherpa write and
 * Pythia 8's LHAupH5v2 reads (docs/user-guide.md, "Event files"):
 *   version    int[3]   2 0 0
 *   init       double[10]  beamA beamB energyA energyB PDFgroupA PDFgroupB PDFsetA PDFsetB
 *                          weightingStrategy numProcesses
 *   procInfo   double[P][6]  procId npLO npNLO xSection error unitWeight   (pb)
 *   events     double[N][9 + W]  pid nparticles start trials scale fscale rscale aqed aqcd,
 *                                then W weights: the nominal, then each variation (pb)
 *   particles  double[M][13]  id status mother1 mother2 color1 color2 px py pz e m lifetime spin
 * each with the attribute "properties" naming its columns (variable-length strings), the events'
 * weight columns by their weight names. events and particles are chunked and grow as events come.
 * Written under the claimed path's temporary name and renamed when complete (output_claim.h). */
#ifndef HG_LHEH5_WRITER_H
#define HG_LHEH5_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/events.h"

typedef struct hg_lheh5 hg_lheh5;

typedef struct {
  int beam_pid[2];
  double beam_energy_gev[2];
  int pdf_set[2];
  int weight_strategy;
  double xsec_pb, xsec_error_pb, unit_weight_pb;
  int n_particles_lo; /* npLO of the process: its particles */
  unsigned n_weights; /* names: the nominal's, then each variation's */
  const char *const *weight_names;
  const char *run_card;     /* the file's attribute hegetcl_run_card; may be NULL */
  uint64_t expected_events; /* the file's events, which size its chunks (0: unknown) */
} hg_lheh5_init;

/* Nonzero when this build writes LHEH5 (libhdf5 found at build time). */
int hg_lheh5_available(void);

/* Opens path's temporary name (claiming path when not claimed, as hg_output_open does) and
 * writes the run's datasets. 0 or a negative hegetcl_status with message. */
int hg_lheh5_open(const char *path, const hg_lheh5_init *init, hg_lheh5 **out, char *message,
                  size_t message_size);

/* One event: weights[0] the nominal weight (pb), then n_weights - 1 variation weights. */
int hg_lheh5_write(hg_lheh5 *h, const hegetcl_event *e, const double *weights);

/* Events written so far. */
uint64_t hg_lheh5_events(const hg_lheh5 *h);

/* The sticky failure's message ("" while none). */
const char *hg_lheh5_message(const hg_lheh5 *h);

/* Closes and frees h: commit != 0 writes what is buffered, closes the file and renames it to its
 * path when every write succeeded; otherwise, or on any failure, the temporary file is removed. */
int hg_lheh5_close(hg_lheh5 *h, int commit, char *message, size_t message_size);

#endif
