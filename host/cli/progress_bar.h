/* SPDX-License-Identifier: MIT */
/* A one-line progress bar with rate and time left on stderr, drawn only when stderr is a
 * terminal (and at most ten times a second). */
#ifndef HG_CLI_PROGRESS_BAR_H
#define HG_CLI_PROGRESS_BAR_H

#include <stdint.h>

typedef struct {
  int enabled;
  double start, last_draw;
  const char *label, *unit;
} hg_progress_bar;

/* Starts a bar (disabled when quiet or when stderr is not a terminal). */
void hg_progress_bar_start(hg_progress_bar *bar, const char *label, const char *unit, int quiet);
/* done of total units; rate counts `work` (what the rate is quoted in, e.g. events tried). */
void hg_progress_bar_update(hg_progress_bar *bar, double done, double total, double work,
                            const char *work_unit);
/* Clears the line. */
void hg_progress_bar_finish(hg_progress_bar *bar);

#endif
