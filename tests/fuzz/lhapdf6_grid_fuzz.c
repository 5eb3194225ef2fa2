/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the LHAPDF 6 reader (hegetcl_pdf_open) on any .info and .dat text, then the
 * grid it builds packed and interpolated inside and outside its range. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hegetcl/pdf.h"
#include "pdf/lhapdf6_grid.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reader only takes a set's folder, so each input is written into one: <tmp>/fuzz/fuzz.info
 * and <tmp>/fuzz/fuzz_0000.dat (member 0). */
static char tmp_dir[1024], set_dir[1100], info_path[1200], dat_path[1200];

static void remove_set(void) {
  unlink(info_path);
  unlink(dat_path);
  rmdir(set_dir);
  rmdir(tmp_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *tmp = getenv("TMPDIR");
  snprintf(tmp_dir, sizeof tmp_dir, "%s/lhapdf6_grid_fuzz.XXXXXX",
           tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(tmp_dir) == NULL) {
    perror("lhapdf6_grid_fuzz: mkdtemp");
    exit(1);
  }
  snprintf(set_dir, sizeof set_dir, "%s/fuzz", tmp_dir);
  snprintf(info_path, sizeof info_path, "%s/fuzz.info", set_dir);
  snprintf(dat_path, sizeof dat_path, "%s/fuzz_0000.dat", set_dir);
  if (mkdir(set_dir, 0700) != 0) {
    perror("lhapdf6_grid_fuzz: mkdir");
    exit(1);
  }
  atexit(remove_set);
  return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror(path);
    abort();
  }
}

/* Prints why the reader broke a promise of pdf.h and aborts: libFuzzer saves the input. */
static void broken(const char *what, const char *detail) {
  fprintf(stderr, "lhapdf6_grid_fuzz: %s: %s\n", what, detail);
  abort();
}

/* Where the .info ends and the .dat begins: a line holding only "%%" (in neither format). */
static size_t find_separator(const uint8_t *data, size_t size) {
  for (size_t i = 0; i + 3 <= size; ++i)
    if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, "%%\n", 3) == 0) return i;
  return size;
}

/* Every flavour at the grid's corners, inside and outside: the extrapolators' paths. */
static void interpolate_everywhere(const hegetcl_pdf *pdf) {
  double x_min, x_max, q_min, q_max;
  hegetcl_pdf_x_range(pdf, &x_min, &x_max);
  hegetcl_pdf_q_range(pdf, &q_min, &q_max);
  const double xs[] = {x_min, x_max, sqrt(x_min * x_max), x_min / 3, 1e-12, 1, 0.5, 0, -1, NAN};
  const double qs[] = {q_min, q_max, sqrt(q_min * q_max), q_min / 2, 2 * q_max, 1e6, 0, -1, NAN};
  size_t n_flavours = 0;
  const int *flavours = hegetcl_pdf_flavours(pdf, &n_flavours);
  volatile double sink = 0; /* keeps the calls that only feed it */
  for (size_t f = 0; f < n_flavours; ++f)
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i)
      for (size_t j = 0; j < sizeof qs / sizeof qs[0]; ++j)
        sink = sink + hegetcl_pdf_xfxq(pdf, flavours[f], xs[i], qs[j]);
  sink = sink + hegetcl_pdf_xfxq(pdf, 999999, 0.1, 10); /* a flavour the set lacks: 0 */
  sink = sink + hegetcl_pdf_alpha_s_one_loop(pdf, 91.1876);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const size_t separator = find_separator(data, size);
  write_file(info_path, data, separator);
  write_file(dat_path, data + separator + (separator < size ? 3 : 0),
             separator < size ? size - separator - 3 : 0);
  hegetcl_pdf *pdf = NULL;
  char message[1024];
  message[0] = '\0';
  const hegetcl_status status = hegetcl_pdf_open(set_dir, 0, &pdf, message, sizeof message);
  if (status != HEGETCL_OK) {
    if (pdf != NULL) broken("a failed open returned a set", message);
    if (message[0] == '\0') broken("a failed open wrote no message", "(empty)");
    return 0;
  }
  if (pdf == NULL) broken("a successful open returned no set", "");
  interpolate_everywhere(pdf);
  size_t n_flavours = 0;
  const int *flavours = hegetcl_pdf_flavours(pdf, &n_flavours);
  if (n_flavours == 0) broken("a set opened with no flavours", "");
  /* as the cross section packs u and ubar; 2 or -2 may be missing, an error with a message */
  const int pids[] = {flavours[0], flavours[n_flavours - 1], 2, -2};
  double *grid = NULL;
  size_t n_doubles = 0;
  const hegetcl_status packed = hg_pdf_pack(pdf, pids, sizeof pids / sizeof pids[0], &grid,
                                            &n_doubles, message, sizeof message);
  if (packed == HEGETCL_OK && (grid == NULL || n_doubles == 0))
    broken("hg_pdf_pack succeeded without a grid", "");
  if (packed != HEGETCL_OK && grid != NULL) broken("a failed hg_pdf_pack returned a grid", message);
  free(grid);
  hegetcl_pdf_close(pdf);
  return 0;
}
