/* SPDX-License-Identifier: MIT */
/* Writers of hegetcl_histogram: YODA's text format (Histo1D, format V2) and CSV. */
#ifndef HG_HISTOGRAM_WRITER_H
#define HG_HISTOGRAM_WRITER_H

#include <stddef.h>

#include "hegetcl/histogram.h"
#include "io/output_file.h"

/* Both writers check every histogram before writing any: name, title and x_label terminated
 * within their arrays and one line of UTF-8; name free of white space, '#' and '/'; bins >= 1;
 * lo < hi, both finite; the five arrays given; every value finite. A failure returns
 * HEGETCL_ERR_INPUT or HEGETCL_ERR_NONFINITE with the histogram, bin and field in
 * hg_output_message(o), sticky on o. Bin i (0-based) spans [lo + (hi - lo) i / bins,
 * lo + (hi - lo) (i + 1) / bins), the last upper edge hi itself. Numbers are %.17g: they read back
 * as the same doubles (entries, whole numbers, print as integers). */

/* YODA 1 text format, YODA_HISTO1D_V2 blocks as YODA 1.7 - 1.9's WriterYODA lays them out (YODA 2
 * and Rivet read this format too), path "/<prefix>/<name>" ("/<name>" when prefix is NULL or
 * empty; a leading '/' of prefix is ignored; it may hold '/' inside, not at its end, and no white
 * space or '#'). header_text (may be NULL) comes first, each line prefixed "# " ("#" alone for an
 * empty line), then an empty line; as YODA's reader takes any line holding "BEGIN" or "END" for a
 * block boundary, those words are written in lower case there. Title and XLabel are YAML values,
 * single quoted when YAML would misread them, left out when empty; a title or label holding
 * "BEGIN " or "END " is refused for the same reason. Total sums every bin, underflow and overflow
 * included; the comment lines "# Mean:" (Total sumwx / sumw, left out when sumw is 0) and
 * "# Area:" (Total sumw, as YODA 1's integral() includes the overflows) are informational. */
int hg_yoda_write(hg_output *o, const char *prefix, const hegetcl_histogram *h, size_t count,
                  const char *header_text);

/* CSV: header_text's lines prefixed "# " (as for YODA, BEGIN and END kept), then the line
 * "histogram,bin,xlow,xhigh,sumw_fb,error_fb,sumwx,sumwx2,entries", then per histogram the rows
 * underflow (bin "underflow", xlow -inf, xhigh lo), 0 .. bins - 1, overflow (bin "overflow",
 * xlow hi, xhigh inf); error_fb = sqrt(sumw2). */
int hg_histogram_csv_write(hg_output *o, const hegetcl_histogram *h, size_t count,
                           const char *header_text);

/* The same with the histograms of n_weights variations after each nominal one (YODA: variation
 * k's copy of histogram i, varied[k * count + i], at /prefix/name[weights[k]], as Rivet names a
 * multiweight histogram; CSV: rows named name[weights[k]] after the nominal's). A weight name
 * must be 1 to 80 characters without white space, '#', '/' or brackets (HEGETCL_ERR_INPUT). */
int hg_yoda_write_variations(hg_output *o, const char *prefix, const hegetcl_histogram *h,
                             size_t count, const char *header_text,
                             const hegetcl_histogram *varied, const char *const *weights,
                             size_t n_weights);
int hg_histogram_csv_write_variations(hg_output *o, const hegetcl_histogram *h, size_t count,
                                      const char *header_text, const hegetcl_histogram *varied,
                                      const char *const *weights, size_t n_weights);

#endif
