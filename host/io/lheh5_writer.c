/* SPDX-License-Identifier: MIT */
/* LHEH5 version 2.0.0 with libhdf5's C API (layout in lheh5_writer.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/lheh5_writer.h"
#include "io/output_claim.h"

#ifndef HG_HAVE_HDF5

int hg_lheh5_available(void) { return 0; }

int hg_lheh5_open(const char *path, const hg_lheh5_init *init, hg_lheh5 **out, char *message,
                  size_t message_size) {
  (void)init;
  *out = NULL;
  hg_put_message(message, message_size,
                 "%s: this hegetcl was built without libhdf5, so it cannot write LHEH5 (.hdf5, "
                 ".h5): install Debian's libhdf5-dev (setup.sh does) and build again, or write "
                 ".lhe, .lhe.gz, .hepmc or .hepmc.gz",
                 path);
  return HEGETCL_ERR_UNSUPPORTED;
}
int hg_lheh5_write(hg_lheh5 *h, const hegetcl_event *e, const double *weights) {
  (void)h, (void)e, (void)weights;
  return HEGETCL_ERR_UNSUPPORTED;
}
uint64_t hg_lheh5_events(const hg_lheh5 *h) { return (void)h, 0; }
const char *hg_lheh5_message(const hg_lheh5 *h) { return (void)h, ""; }
int hg_lheh5_close(hg_lheh5 *h, int commit, char *message, size_t message_size) {
  (void)h, (void)commit;
  hg_put_message(message, message_size, "%s", "");
  return 0;
}

#else

#include <hdf5.h>

/* Events per buffered write and at most per chunk of the events dataset (a small file's chunks are
 * its size: HDF5 allocates whole chunks). */
#define HG_LHEH5_CHUNK 16384

struct hg_lheh5 {
  char *path, *temp_path;
  int own_claim;
  hid_t file, events, particles;
  unsigned columns; /* 9 + weights */
  double *event_rows, *particle_rows;
  size_t n_event_rows, n_particle_rows; /* buffered */
  uint64_t events_written, particles_written;
  int status;
  char message[1024];
};

int hg_lheh5_available(void) { return 1; }

static int fail(hg_lheh5 *h, int status, const char *what) {
  if (h->status != 0) return h->status;
  h->status = status;
  snprintf(h->message, sizeof h->message, "%s: %s (HDF5)", h->temp_path, what);
  return status;
}

/* attribute "properties": the column names as variable-length strings */
static herr_t put_names(hid_t object, const char *name, const char *const *names, size_t n) {
  const hsize_t dims[1] = {n};
  hid_t type = H5Tcopy(H5T_C_S1);
  herr_t err = type < 0 ? -1 : H5Tset_size(type, H5T_VARIABLE);
  if (err >= 0) err = H5Tset_cset(type, H5T_CSET_UTF8);
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t attr =
      space < 0 || err < 0 ? -1 : H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (attr >= 0)
    err = H5Awrite(attr, type, names);
  else
    err = -1;
  if (attr >= 0) H5Aclose(attr);
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  return err;
}

/* a fixed dataset of doubles (rank 1 or 2) with its column names */
static herr_t put_doubles(hid_t file, const char *name, int rank, const hsize_t *dims,
                          const double *data, const char *const *columns, size_t n_columns) {
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t set = space < 0 ? -1
                        : H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                                     H5P_DEFAULT);
  herr_t err = set < 0 ? -1 : H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  if (err >= 0 && columns != NULL) err = put_names(set, "properties", columns, n_columns);
  if (set >= 0) H5Dclose(set);
  if (space >= 0) H5Sclose(space);
  return err;
}

/* an extendible, chunked dataset of rows of doubles */
static hid_t growing(hid_t file, const char *name, hsize_t columns, hsize_t chunk_rows) {
  const hsize_t dims[2] = {0, columns}, max[2] = {H5S_UNLIMITED, columns};
  const hsize_t chunk[2] = {chunk_rows, columns};
  hid_t space = H5Screate_simple(2, dims, max);
  hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  hid_t set = -1;
  if (space >= 0 && props >= 0 && H5Pset_chunk(props, 2, chunk) >= 0)
    set = H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, props, H5P_DEFAULT);
  if (props >= 0) H5Pclose(props);
  if (space >= 0) H5Sclose(space);
  return set;
}

static void free_h(hg_lheh5 *h) {
  if (h->own_claim && h->path != NULL) hg_output_release(h->path);
  free(h->path);
  free(h->temp_path);
  free(h->event_rows);
  free(h->particle_rows);
  free(h);
}

static char *copy(const char *text) {
  char *out = malloc(strlen(text) + 1);
  if (out != NULL) strcpy(out, text);
  return out;
}

int hg_lheh5_open(const char *path, const hg_lheh5_init *init, hg_lheh5 **out, char *message,
                  size_t message_size) {
  *out = NULL;
  const int own_claim = !hg_output_claimed(path);
  if (own_claim) {
    const int status = hg_output_claim("output", path, message, message_size);
    if (status != 0) return status;
  }
  hg_lheh5 *h = calloc(1, sizeof *h);
  const unsigned columns = 9 + init->n_weights;
  if (h == NULL || (h->path = copy(path)) == NULL ||
      (h->temp_path = copy(hg_output_claim_temp(path))) == NULL ||
      (h->event_rows = malloc(HG_LHEH5_CHUNK * columns * sizeof(double))) == NULL ||
      (h->particle_rows = malloc((size_t)HG_LHEH5_CHUNK * HEGETCL_EVENT_MAX_PARTICLES * 13 *
                                 sizeof(double))) == NULL) {
    if (h != NULL)
      free_h(h);
    else if (own_claim)
      hg_output_release(path);
    hg_put_message(message, message_size, "no memory for the LHEH5 output %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  h->own_claim = own_claim;
  h->columns = columns;
  h->file = h->events = h->particles = -1;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* failures come back as statuses, with our message */
  /* this run's own name, created exclusively (H5F_ACC_EXCL) */
  h->file = H5Fcreate(h->temp_path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (h->file < 0) {
    hg_put_message(message, message_size, "cannot create %s as an HDF5 file", h->temp_path);
    free_h(h);
    return HEGETCL_ERR_IO;
  }
  const int version[3] = {2, 0, 0};
  const hsize_t three[1] = {3}, ten[1] = {10}, proc[2] = {1, 6};
  hid_t space = H5Screate_simple(1, three, NULL);
  hid_t set = space < 0 ? -1
                        : H5Dcreate2(h->file, "version", H5T_STD_I32LE, space, H5P_DEFAULT,
                                     H5P_DEFAULT, H5P_DEFAULT);
  herr_t err = set < 0 ? -1 : H5Dwrite(set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, version);
  if (set >= 0) H5Dclose(set);
  if (space >= 0) H5Sclose(space);
  static const char *const init_names[] = {
      "beamA",     "beamB",   "energyA", "energyB",           "PDFgroupA",
      "PDFgroupB", "PDFsetA", "PDFsetB", "weightingStrategy", "numProcesses"};
  const double init_row[10] = {init->beam_pid[0],
                               init->beam_pid[1],
                               init->beam_energy_gev[0],
                               init->beam_energy_gev[1],
                               0,
                               0,
                               init->pdf_set[0],
                               init->pdf_set[1],
                               init->weight_strategy,
                               1};
  if (err >= 0) err = put_doubles(h->file, "init", 1, ten, init_row, init_names, 10);
  static const char *const proc_names[] = {"procId",   "npLO",  "npNLO",
                                           "xSection", "error", "unitWeight"};
  const double proc_row[6] = {
      1, init->n_particles_lo, 0, init->xsec_pb, init->xsec_error_pb, init->unit_weight_pb};
  if (err >= 0) err = put_doubles(h->file, "procInfo", 2, proc, proc_row, proc_names, 6);
  const char *event_names[9 + 512];
  static const char *const fixed[9] = {"pid",    "nparticles", "start", "trials", "scale",
                                       "fscale", "rscale",     "aqed",  "aqcd"};
  if (init->n_weights > 512) err = -1;
  for (unsigned k = 0; k < 9; ++k) event_names[k] = fixed[k];
  for (unsigned k = 0; k < init->n_weights && k < 512; ++k)
    event_names[9 + k] = init->weight_names[k];
  const hsize_t chunk = init->expected_events > 0 && init->expected_events < HG_LHEH5_CHUNK
                            ? (hsize_t)init->expected_events
                            : HG_LHEH5_CHUNK;
  const hsize_t per_event = init->n_particles_lo > 0 ? (hsize_t)init->n_particles_lo : 4;
  if (err >= 0) h->events = growing(h->file, "events", columns, chunk);
  if (h->events < 0) err = -1;
  if (err >= 0) err = put_names(h->events, "properties", event_names, columns);
  static const char *const particle_names[] = {"id",     "status",   "mother1", "mother2", "color1",
                                               "color2", "px",       "py",      "pz",      "e",
                                               "m",      "lifetime", "spin"};
  if (err >= 0) h->particles = growing(h->file, "particles", 13, chunk * per_event);
  if (h->particles < 0) err = -1;
  if (err >= 0) err = put_names(h->particles, "properties", particle_names, 13);
  if (err >= 0 && init->run_card != NULL) {
    const char *card[1] = {init->run_card};
    err = put_names(h->file, "hegetcl_run_card", card, 1);
  }
  if (err < 0) {
    hg_put_message(message, message_size, "cannot write the LHEH5 header of %s", h->temp_path);
    hg_lheh5_close(h, 0, NULL, 0);
    return HEGETCL_ERR_IO;
  }
  *out = h;
  return 0;
}

/* appends rows [0, n) of data to a growing dataset whose length is *written */
static herr_t append(hid_t set, const double *data, size_t n, hsize_t columns, uint64_t written) {
  if (n == 0) return 0;
  const hsize_t size[2] = {written + n, columns}, start[2] = {written, 0}, count[2] = {n, columns};
  if (H5Dset_extent(set, size) < 0) return -1;
  hid_t file_space = H5Dget_space(set);
  hid_t memory = H5Screate_simple(2, count, NULL);
  herr_t err = file_space < 0 || memory < 0
                   ? -1
                   : H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
  if (err >= 0) err = H5Dwrite(set, H5T_NATIVE_DOUBLE, memory, file_space, H5P_DEFAULT, data);
  if (memory >= 0) H5Sclose(memory);
  if (file_space >= 0) H5Sclose(file_space);
  return err;
}

static int flush_rows(hg_lheh5 *h) {
  if (h->status != 0) return h->status;
  if (append(h->events, h->event_rows, h->n_event_rows, h->columns, h->events_written) < 0 ||
      append(h->particles, h->particle_rows, h->n_particle_rows, 13, h->particles_written) < 0)
    return fail(h, HEGETCL_ERR_IO, "cannot append events");
  h->events_written += h->n_event_rows;
  h->particles_written += h->n_particle_rows;
  h->n_event_rows = h->n_particle_rows = 0;
  return 0;
}

int hg_lheh5_write(hg_lheh5 *h, const hegetcl_event *e, const double *weights) {
  if (h->status != 0) return h->status;
  const unsigned np = e->n_particles;
  if (np > HEGETCL_EVENT_MAX_PARTICLES) return fail(h, HEGETCL_ERR_INPUT, "too many particles");
  double *row = h->event_rows + h->n_event_rows * h->columns;
  row[0] = e->process_id;
  row[1] = np;
  row[2] = (double)(h->particles_written + h->n_particle_rows);
  row[3] = 1.0;
  row[4] = e->mu_f_gev;
  row[5] = e->mu_f_gev;
  row[6] = e->mu_r_gev;
  row[7] = e->alpha_qed;
  row[8] = e->alpha_s;
  memcpy(row + 9, weights, (h->columns - 9) * sizeof(double));
  for (unsigned i = 0; i < np; ++i) {
    double *p = h->particle_rows + (h->n_particle_rows + i) * 13;
    const int incoming = e->status[i] == -1;
    p[0] = e->pid[i];
    p[1] = e->status[i];
    p[2] = incoming ? 0 : 1;
    p[3] = incoming ? 0 : 2;
    p[4] = e->colour[i][0];
    p[5] = e->colour[i][1];
    p[6] = e->p[i][1];
    p[7] = e->p[i][2];
    p[8] = e->p[i][3];
    p[9] = e->p[i][0];
    p[10] = e->mass[i];
    p[11] = 0.0;
    p[12] = e->helicity[i] != 0 ? e->helicity[i] : 9.0;
  }
  h->n_event_rows++;
  h->n_particle_rows += np;
  return h->n_event_rows == HG_LHEH5_CHUNK ? flush_rows(h) : 0;
}

uint64_t hg_lheh5_events(const hg_lheh5 *h) { return h->events_written + h->n_event_rows; }

const char *hg_lheh5_message(const hg_lheh5 *h) { return h->message; }

int hg_lheh5_close(hg_lheh5 *h, int commit, char *message, size_t message_size) {
  hg_put_message(message, message_size, "%s", "");
  if (h == NULL) return 0;
  if (commit) flush_rows(h);
  if (h->events >= 0 && H5Dclose(h->events) < 0) fail(h, HEGETCL_ERR_IO, "cannot close events");
  if (h->particles >= 0 && H5Dclose(h->particles) < 0)
    fail(h, HEGETCL_ERR_IO, "cannot close particles");
  if (h->file >= 0 && H5Fclose(h->file) < 0) fail(h, HEGETCL_ERR_IO, "cannot close the file");
  if (commit && h->status == 0) {
    /* durable before it takes the final name */
    FILE *f = fopen(h->temp_path, "rb");
    if (f == NULL || fsync(fileno(f)) != 0) {
      if (errno != EINVAL) fail(h, HEGETCL_ERR_IO, "cannot sync the file");
    }
    if (f != NULL) fclose(f);
  }
  if (commit && h->status == 0 && rename(h->temp_path, h->path) != 0) {
    snprintf(h->message, sizeof h->message, "cannot rename %s to %s: %s", h->temp_path, h->path,
             strerror(errno));
    h->status = HEGETCL_ERR_IO;
  }
  int result = 0;
  if (commit && h->status == 0) hg_output_dead_temps(h->path, NULL, 1); /* killed runs' files */
  if (!commit || h->status != 0) {
    unlink(h->temp_path);
    result = commit ? h->status : 0;
    if (result != 0) hg_put_message(message, message_size, "%s", h->message);
  }
  free_h(h);
  return result;
}

#endif
