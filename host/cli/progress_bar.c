/* SPDX-License-Identifier: MIT */
/* The progress bar. */
#include <stdio.h>
#include <unistd.h>

#include "cli/progress_bar.h"
#include "core/context.h"

void hg_progress_bar_start(hg_progress_bar *bar, const char *label, const char *unit, int quiet) {
  bar->enabled = !quiet && isatty(STDERR_FILENO);
  bar->start = hg_now_seconds();
  bar->last_draw = 0.0;
  bar->label = label;
  bar->unit = unit;
}

static void clock_text(double seconds, char *out, size_t size) {
  if (!(seconds >= 0.0) || seconds > 359999.0) {
    snprintf(out, size, "--:--:--");
    return;
  }
  const long s = (long)(seconds + 0.5);
  snprintf(out, size, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
}

void hg_progress_bar_update(hg_progress_bar *bar, double done, double total, double work,
                            const char *work_unit) {
  if (!bar->enabled) return;
  const double now = hg_now_seconds();
  if (now - bar->last_draw < 0.1 && done < total) return;
  bar->last_draw = now;
  const double elapsed = now - bar->start, fraction = total > 0 ? done / total : 0.0;
  const double left = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : -1.0;
  char bar_text[31], eta[32], spent[32];
  const int filled = (int)(30.0 * (fraction > 1.0 ? 1.0 : fraction));
  for (int i = 0; i < 30; ++i) bar_text[i] = i < filled ? '#' : '.';
  bar_text[30] = '\0';
  clock_text(left, eta, sizeof eta);
  clock_text(elapsed, spent, sizeof spent);
  fprintf(stderr, "\r%s [%s] %5.1f%%  %.3g/%.3g %s  %.3g %s/s  %s elapsed, %s left ", bar->label,
          bar_text, 100.0 * fraction, done, total, bar->unit,
          elapsed > 0 ? work / elapsed : 0.0, work_unit, spent, eta);
  fflush(stderr);
}

void hg_progress_bar_finish(hg_progress_bar *bar) {
  if (!bar->enabled) return;
  fprintf(stderr, "\r\033[K");
  fflush(stderr);
}
