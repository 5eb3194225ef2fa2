/* SPDX-License-Identifier: MIT */
/* What the PDF tests share: their own minimal lhagrid1 reader, temporary sets, subgrid copies. */
#ifndef HG_PDF_TEST_SUPPORT_H
#define HG_PDF_TEST_SUPPORT_H

#include <stddef.h>

/* One single-block lhagrid1 grid as the file has it: values[(ix * nq + iq) * n_flavours + f]. */
typedef struct {
  size_t nx, nq, n_flavours;
  double *x, *q, *values;
  int *pids;
} pt_grid;

/* Reads the single block of an lhagrid1 .dat with sscanf/strtod, independently of the library;
 * 0 and a message on stderr when the file is not what it expects. */
int pt_grid_read(const char *path, pt_grid *out);
void pt_grid_free(pt_grid *g);

/* The first folder of LHAPDF_DATA_PATH (the tests set it to <shared_dir>/pdfsets) into buf; 0 with
 * a message on stderr when it is unset. */
int pt_pdfsets_dir(char *buf, size_t size);

/* A new empty folder under TMPDIR (or /tmp) written into buf; 0 on failure. */
int pt_make_temp_dir(char *buf, size_t size);

/* Removes a folder and the files and folders in it. */
void pt_remove_tree(const char *path);

/* Writes text into the file path; 0 on failure. */
int pt_write_text(const char *path, const char *text);

/* The whole file as a new string (NULL on failure). */
char *pt_read_text(const char *path);

/* Writes the set <dir>/<name>/ (<name>.info from info_text, <name>_0000.dat) with g's knots and
 * values split into Q subgrids at the Q knot indices cuts[0..n_cuts) (increasing, inside (0,
 * nq - 1)): block b runs from cut b - 1 to cut b, sharing its boundary knot with the block before.
 * The first row of every block after the first is multiplied by boundary_scale, so that a test can
 * tell which block served a Q on a boundary. Numbers are written with 17 digits (exact). */
int pt_write_split_set(const char *dir, const char *name, const char *info_text, const pt_grid *g,
                       const size_t *cuts, size_t n_cuts, double boundary_scale);

#endif
