/* SPDX-License-Identifier: MIT */
/* The histogram reduction's work-group size and per-bin sums, read by cl/analysis/histogram.cl
 * and host/analysis/histograms.c alike. */
#ifndef HG_ANALYSIS_HISTOGRAM_LAYOUT_H
#define HG_ANALYSIS_HISTOGRAM_LAYOUT_H

/* Work-items per group; item t owns bins t and t + HG_HIST_LOCAL of one histogram. */
#define HG_HIST_LOCAL 128
/* Per bin: sum w, sum w^2, sum w x, sum w x^2, fills with w != 0. */
#define HG_HIST_SUMS 5

#endif
