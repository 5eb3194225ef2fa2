/* SPDX-License-Identifier: MIT */
/* The comma lists the two benchmark programs take. */
#include "bench_lists.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_bench_split_list(char *text, char **items, int capacity) {
  int count = 0;
  for (char *item = strtok(text, ","); item != NULL; item = strtok(NULL, ",")) {
    if (count == capacity) return -1;
    items[count++] = item;
  }
  return count;
}

static int parse_count(const char *text, unsigned long *out) {
  char *end = NULL;
  errno = 0;
  *out = strtoul(text, &end, 10);
  return end != text && *end == '\0' && errno == 0 && text[0] != '-';
}

int hg_bench_parse_n_list(char *text, int *selected, unsigned max_photons) {
  char *items[HG_BENCH_LIST_ITEMS];
  const int count = hg_bench_split_list(text, items, HG_BENCH_LIST_ITEMS);
  if (count <= 0) return 0;
  for (int i = 0; i < count; ++i) {
    char *dash = strchr(items[i], '-');
    unsigned long lo = 0, hi = 0;
    if (dash != NULL) {
      *dash = '\0';
      if (!parse_count(items[i], &lo) || !parse_count(dash + 1, &hi)) return 0;
    } else if (!parse_count(items[i], &lo)) {
      return 0;
    } else {
      hi = lo;
    }
    if (lo < 2 || hi > max_photons || lo > hi) return 0;
    for (unsigned long n = lo; n <= hi; ++n) selected[n] = 1;
  }
  return 1;
}

int hg_bench_parse_peaks(const char *text, double *fp32, double *fp64) {
  char *end = NULL;
  *fp32 = strtod(text, &end);
  *fp64 = 0;
  if (end != text && *end == ',') *fp64 = strtod(end + 1, &end);
  return end != text && *end == '\0' && *fp32 > 0 && *fp64 > 0;
}

void hg_bench_peaks_error(const char *text) {
  fprintf(stderr,
          "hegetcl-bench: error: --peak-tflops %s: give the FP32 and FP64 peaks in TFLOP/s, "
          "e.g. 67,34\n",
          text);
}
