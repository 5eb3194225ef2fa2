/* SPDX-License-Identifier: MIT */
/* The packed PDF grid of cl/pdf/lhapdf6_interp.h, made from a loaded LHAPDF 6 member (internal). */
#ifndef HG_PDF_LHAPDF6_GRID_H
#define HG_PDF_LHAPDF6_GRID_H

#include <stddef.h>

#include "hegetcl/pdf.h"

/* A new grid in the layout of cl/pdf/lhapdf6_interp.h holding the flavours pids[0..n_pids) (0 is
 * the gluon), slot i for pids[i], for hg_pdf_xfxq2 on a device or the host; free() it. A pid the
 * set lacks is HEGETCL_ERR_INPUT with a message naming the set's flavours. */
hegetcl_status hg_pdf_pack(const hegetcl_pdf *pdf, const int *pids, size_t n_pids, double **grid,
                           size_t *n_doubles, char *message, size_t size);

/* The slot of pid (0 is the gluon) in the member's own grid, -1 if the set lacks it. */
int hg_pdf_slot(const hegetcl_pdf *pdf, int pid);

/* The grid's knots, the range inside which hg_pdf_xfxq2 interpolates rather than extrapolates
 * (the .info's XMin .. QMax of hegetcl_pdf_x_range and _q_range may differ): x from the first to
 * the last x knot, Q in GeV from the first to the last Q knot. */
void hg_pdf_grid_range(const hegetcl_pdf *pdf, double *x_min, double *x_max, double *q_min,
                       double *q_max);

/* 1 when hg_pdf_xfxq2 interpolates at (x, Q = q GeV), 0 when it would extrapolate (the test the
 * devices make, on the same Q^2 = q * q). */
int hg_pdf_grid_covers(const hegetcl_pdf *pdf, double x, double q);

/* The set's AlphaS_MZ (0 when its .info gives none). */
double hg_pdf_alpha_s_mz(const hegetcl_pdf *pdf);

/* The member's own grid: every flavour, slot i for hegetcl_pdf_flavours()[i]. */
const double *hg_pdf_grid(const hegetcl_pdf *pdf, size_t *n_doubles);

/* An LHAPDF .info file's entries ("Key: value", the YAML subset the reader takes), for metadata
 * other modules read (alpha_s): open, query, close. */
typedef struct hg_pdf_info hg_pdf_info;
hegetcl_status hg_pdf_info_open(const char *info_path, hg_pdf_info **out, char *message,
                                size_t size);
void hg_pdf_info_close(hg_pdf_info *info);
/* 1 when key is present (the value in *out), 0 when absent, -1 with a message naming the file,
 * line and key when its value is not a finite number / a string / a list of finite numbers
 * ("[1.3, 1.41, 2]", into a new array to free()). */
int hg_pdf_info_double(const hg_pdf_info *info, const char *key, double *out, char *message,
                       size_t size);
int hg_pdf_info_string(const hg_pdf_info *info, const char *key, char **out, char *message,
                       size_t size);
int hg_pdf_info_reals(const hg_pdf_info *info, const char *key, double **out, size_t *count,
                      char *message, size_t size);
/* Where key was read (file:line), for messages; "" when absent. */
void hg_pdf_info_where(const hg_pdf_info *info, const char *key, char *out, size_t size);

#endif
