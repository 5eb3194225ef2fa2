/* SPDX-License-Identifier: MIT */
/* The layout of the recursive engine's work-group-shared helicity sum
 * (cl/amplitudes/recursive_shared.cl): where it applies, and the source text it is built with. */
#ifndef HG_RECURSIVE_SHARED_H
#define HG_RECURSIVE_SHARED_H

#include <stddef.h>

/* The fewest and most photons the shared kernel takes; outside, and where an event's currents do
 * not fit in the device's local memory, amplitude_summed of kernels.cl runs one event per
 * work-item. */
#define HG_RS_MIN_PHOTONS 2
#define HG_RS_MAX_PHOTONS 10

typedef struct {
  unsigned n_photons;
  unsigned cut;             /* K: photons on the quark's side of the cut */
  unsigned threads;         /* work-items per event, a power of two up to 2^n */
  unsigned events;          /* events per work-group */
  unsigned chunk;           /* level-K subsets per contraction step */
  size_t currents;          /* currents per event in local memory */
  size_t local_bytes;       /* the work-group's local memory */
} hg_rs_layout;

/* What the layout may be tuned by (HEGETCL_RS_THREADS, HEGETCL_RS_CHUNK_ITEMS and
 * HEGETCL_RS_EVENTS, for speed studies; 0: the default): work-items per event (a power of two,
 * capped at 2^n), the chunk's items per work-item that the contraction step aims at, and events
 * per work-group at most (default: as many as local memory and 64 work-items in float, 128 in
 * double allow). */
typedef struct {
  unsigned threads;
  unsigned chunk_items;
  unsigned events;
} hg_rs_tuning;

/* All 0: the defaults of hg_rs_layout_choose. */
void hg_rs_tuning_defaults(hg_rs_tuning *tuning);

/* Chooses the layout for n photons with REALs of real_size bytes and local_memory_bytes of local
 * memory per work-group; 0 when the shared kernel does not apply (n out of range, or one event's
 * currents do not fit). */
int hg_rs_layout_choose(unsigned n_photons, size_t real_size, unsigned long long local_memory_bytes,
                        const hg_rs_tuning *tuning, hg_rs_layout *out);

/* The OpenCL C text that recursive_shared.cl expects ahead of it (macros and constant tables); a
 * new string, NULL when memory ran out. */
char *hg_rs_layout_source(const hg_rs_layout *layout);

/* The work-group size of the layout (threads * events). */
size_t hg_rs_group_size(const hg_rs_layout *layout);

#endif
