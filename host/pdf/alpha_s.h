/* SPDX-License-Identifier: MIT */
/* The alpha_s table of cl/pdf/alpha_s.h, from a PDF set's .info or from alpha_s(M_Z). */
#ifndef HG_PDF_ALPHA_S_HOST_H
#define HG_PDF_ALPHA_S_HOST_H

#include <stddef.h>

/* the device header of the same name: "pdf/alpha_s.h" would find this file through -I host */
#include "../../cl/pdf/alpha_s.h"

/* MadGraph's thresholds for the one-loop running (the sm model's b mass; alfas_functions.f's
 * charm mass), in GeV. */
#define HG_ALPHA_S_MADGRAPH_MB 4.7
#define HG_ALPHA_S_MADGRAPH_MC 1.42

/* Builds the table into *table (malloc'ed, *size doubles; free() it):
 *  - HG_ALPHA_S_INTERPOLATED: from the .info at pdf_info_path: AlphaS_Qs / AlphaS_Vals when it
 *    gives them (AlphaS_Type ipol), else the analytic formula from AlphaS_Lambda3..6, the quark
 *    masses (AlphaS_MCharm or MCharm, ...) and AlphaS_OrderQCD (the table's mode is then
 *    HG_ALPHA_S_ANALYTIC); alpha_s_mz, mz and nloop are not read.
 *  - HG_ALPHA_S_ONE_LOOP: MadGraph's running from alpha_s_mz at mz (both > 0), nloop must be 1,
 *    pdf_info_path is not read (may be NULL).
 * 0, or -1 with a message naming the file, the key or the value and the fix. */
int hg_alpha_s_table(int mode, const char *pdf_info_path, double alpha_s_mz, double mz, int nloop,
                     double **table, size_t *size, char *error, size_t error_size);

/* The table for an open PDF set: mode HG_ALPHA_S_INTERPOLATED reads the set's own .info
 * (<directory>/<set>.info); HG_ALPHA_S_ONE_LOOP runs alpha_s_mz from mz (as above). */
struct hegetcl_pdf;
int hg_alpha_s_table_for_pdf(int mode, const struct hegetcl_pdf *pdf, double alpha_s_mz, double mz,
                             int nloop, double **table, size_t *size, char *error,
                             size_t error_size);

/* The mode's name for messages and outputs: "pdf-grid", "madgraph-1loop", "pdf-analytic". */
const char *hg_alpha_s_mode_name(int mode);

#endif
