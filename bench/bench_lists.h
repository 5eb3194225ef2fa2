/* SPDX-License-Identifier: MIT */
/* The comma lists the two benchmark programs take: --engines a,b, --n 2-8,10 and
 * --peak-tflops F,D. */
#ifndef HG_BENCH_LISTS_H
#define HG_BENCH_LISTS_H

/* The most items one list holds. */
#define HG_BENCH_LIST_ITEMS 16

/* Splits a comma list into its items (modifies text); -1 when there are more than capacity. */
int hg_bench_split_list(char *text, char **items, int capacity);

/* Marks selected[n] = 1 for every n of a list such as "5", "2-8" or "2-4,6" (modifies text);
 * 0 when an item is not a whole number or range within 2..max_photons. */
int hg_bench_parse_n_list(char *text, int *selected, unsigned max_photons);

/* Reads "F,D", the device's FP32 and FP64 peaks in TFLOP/s, into *fp32 and *fp64; 0 unless both
 * are positive numbers. */
int hg_bench_parse_peaks(const char *text, double *fp32, double *fp64);

/* The message for a --peak-tflops value hg_bench_parse_peaks refuses, on stderr. */
void hg_bench_peaks_error(const char *text);

#endif
