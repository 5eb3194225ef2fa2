/* SPDX-License-Identifier: MIT */
/* Parton distributions from LHAPDF 6 grid sets (lhagrid1), read without LHAPDF itself. */
#ifndef HEGETCL_PDF_H
#define HEGETCL_PDF_H

#include <stddef.h>

#include "hegetcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One member of an LHAPDF 6 set, loaded into memory. */
typedef struct hegetcl_pdf hegetcl_pdf;

/* Loads member `member` of the set `set_name`: <dir>/<set>/<set>.info and
 * <dir>/<set>/<set>_<member, 4 digits>.dat, with <dir> the first folder that holds <set>/<set>.info
 * among LHAPDF_DATA_PATH (colon-separated), LHAPATH (likewise),
 * ${XDG_DATA_HOME:-$HOME/.local/share} /LHAPDF, /usr/local/share/LHAPDF and /usr/share/LHAPDF. A
 * set_name containing '/' is the set's folder itself. *out is NULL on failure, and message
 * (message_size bytes, may be 0) says why: HEGETCL_ERR_IO     the set or member is not there (every
 * folder searched is named) or cannot be read; HEGETCL_ERR_INPUT  a bad argument, or a file that is
 * not a valid lhagrid1 set (file:line and what is wrong); HEGETCL_ERR_NO_MEMORY. */
hegetcl_status hegetcl_pdf_open(const char *set_name, int member, hegetcl_pdf **out, char *message,
                                size_t message_size);

/* Frees the member; NULL is a no-op. */
void hegetcl_pdf_close(hegetcl_pdf *pdf);

/* x f(x, Q) for the flavour pid (PDG code; 0 and 21 are the gluon) at scale q in GeV, by LHAPDF's
 * log-bicubic interpolation (cl/pdf/lhapdf6_interp.h, the code the devices run). Outside the grid
 * the set's Extrapolator applies (continuation unless the .info says nearest or error; error gives
 * 0). A flavour the set lacks gives 0, as in LHAPDF. A cross section never extrapolates: its
 * sampler drops points outside the grid's knots, so hegetcl_xsec_run refuses (HEGETCL_ERR_INPUT) a
 * scale outside the Q knots and cuts that reach x below the first x knot. */
double hegetcl_pdf_xfxq(const hegetcl_pdf *pdf, int pid, double x, double q);

/* The set's LHAPDF ID (SetIndex in the .info), and the member's: SetIndex + member. */
int hegetcl_pdf_set_index(const hegetcl_pdf *pdf);
int hegetcl_pdf_lhapdf_id(const hegetcl_pdf *pdf);
/* alpha_s(q) at one loop with five flavours from the set's AlphaS_MZ and MZ (the value an event
 * record quotes; no alpha_s enters q qbar -> photons); -1 when the set gives neither. */
double hegetcl_pdf_alpha_s_one_loop(const hegetcl_pdf *pdf, double q);

/* The set's name, the member number, the folder it was read from, SetDesc ("" if none). */
const char *hegetcl_pdf_set_name(const hegetcl_pdf *pdf);
int hegetcl_pdf_member(const hegetcl_pdf *pdf);
const char *hegetcl_pdf_directory(const hegetcl_pdf *pdf);
const char *hegetcl_pdf_description(const hegetcl_pdf *pdf);

/* The flavours the set holds (PDG codes, in the .info's Flavors order); *count gets how many. */
const int *hegetcl_pdf_flavours(const hegetcl_pdf *pdf, size_t *count);

/* The validity range: XMin, XMax, QMin, QMax from the .info, else the grid's first and last knots
 * (Q in GeV). */
void hegetcl_pdf_x_range(const hegetcl_pdf *pdf, double *x_min, double *x_max);
void hegetcl_pdf_q_range(const hegetcl_pdf *pdf, double *q_min, double *q_max);

/* The extrapolator in use: "continuation", "nearest" or "error". */
const char *hegetcl_pdf_extrapolator(const hegetcl_pdf *pdf);

#ifdef __cplusplus
}
#endif
#endif
