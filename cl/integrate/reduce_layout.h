/* SPDX-License-Identifier: MIT */
/* The VEGAS reduction's work-group size and per-group sums, read by cl/integrate/reduce.cl and
 * host/integrate/vegas.c alike. */
#ifndef HG_REDUCE_LAYOUT_H
#define HG_REDUCE_LAYOUT_H

/* Work-items per group (the kernel requires exactly this many). */
#define HG_REDUCE_LOCAL 128
/* Per group: sum w, sum w^2, events with w != 0, events with a non-finite w (added), then the
 * largest w (HG_REDUCE_MAX, the maximum over the group). */
#define HG_REDUCE_SUMS 5
#define HG_REDUCE_MAX 4

#endif
