/* SPDX-License-Identifier: MIT */
/* The unweighted-event record the gather kernel writes and the host reads (doubles), and the
 * per-group statistics of the hit-or-miss. */
#ifndef HG_EVENTS_RECORD_H
#define HG_EVENTS_RECORD_H

/* Work-items per group of events_mark and events_gather (a power of two). */
#define HG_EVENTS_LOCAL 128

/* A record: E, px, py, pz of the n + 2 particles in the lab frame (GeV; quark from proton 1 along
 * +z first), then the fields below. */
#define HG_EVENT_X1 0
#define HG_EVENT_X2 1
#define HG_EVENT_HELICITY 2    /* the sampled configuration (CONVENTIONS.md), 0 when summed */
#define HG_EVENT_MIRROR 3      /* 1: the quark comes from proton 2 (orientation both) */
#define HG_EVENT_WEIGHT_RATIO 4 /* w / max weight: above 1 for an overweight event */
#define HG_EVENT_NUMBER 5      /* the event's Philox counter (exact below 2^53) */
#define HG_EVENT_CHANNEL 6     /* the flavour channel it takes (0 when the run has none) */
#define HG_EVENT_FIELDS 7
#define HG_EVENT_RECORD(n) (4 * ((n) + 2) + HG_EVENT_FIELDS)

/* Per-group statistics of events_mark. */
#define HG_EVENT_STAT_KEPT 0
#define HG_EVENT_STAT_OVERWEIGHT 1 /* events with w > max weight */
#define HG_EVENT_STAT_EXCESS 2     /* sum of w - max weight over them */
#define HG_EVENT_STAT_SUM_W 3
#define HG_EVENT_STAT_NEGATIVE 4
#define HG_EVENT_STAT_NONFINITE 5
#define HG_EVENT_STATS 6

#endif
