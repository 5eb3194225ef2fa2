/* SPDX-License-Identifier: MIT */
/* The layout of the recursive engine's work-group-shared helicity sum
 * (cl/amplitudes/recursive_shared.cl): where it applies, where its tables live (local memory, or
 * global memory where an event's currents do not fit), and the source text it is built with. */
#ifndef HG_RECURSIVE_SHARED_H
#define HG_RECURSIVE_SHARED_H

#include <stddef.h>

/* The fewest and most photons the shared kernel takes; outside, amplitude_summed of kernels.cl
 * runs one event per work-item. */
#define HG_RS_MIN_PHOTONS 2
#define HG_RS_MAX_PHOTONS 12

typedef struct {
  unsigned n_photons;
  unsigned cut;             /* K: photons on the quark's side of the cut */
  unsigned threads;         /* work-items per event, a power of two up to 2^n */
  unsigned events;          /* events per work-group */
  unsigned chunk;           /* level-K subsets per contraction step */
  int global_tables;        /* 1: the tabulated levels in a global buffer, the chunk in local
                               memory (an event's currents do not fit in local memory) */
  size_t currents;          /* currents per event in the tables (local memory, or global) */
  size_t chunk_area;        /* with global_tables, the chunk's currents per event (local memory) */
  size_t local_bytes;       /* the work-group's local memory */
  size_t global_bytes;      /* with global_tables, a work-group's tables in the global buffer */
} hg_rs_layout;

/* What the layout may be tuned by (HEGETCL_RS_THREADS, HEGETCL_RS_CHUNK_ITEMS, HEGETCL_RS_EVENTS
 * and HEGETCL_RS_GLOBAL_GROUPS, for speed studies; 0: the default): work-items per event (a power
 * of two, capped at 2^n), the chunk's items per work-item that the contraction step aims at,
 * events per work-group at most (default: as many as local memory and 64 work-items in float, 128
 * in double allow), and work-groups per compute unit launched with global tables. global_tables
 * (tests and benchmarks) puts the tables in global memory even where they fit in local memory. */
typedef struct {
  unsigned threads;
  unsigned chunk_items;
  unsigned events;
  unsigned groups_per_unit;
  int global_tables;
} hg_rs_tuning;

/* All 0: the defaults of hg_rs_layout_choose. */
void hg_rs_tuning_defaults(hg_rs_tuning *tuning);

/* Chooses the layout for n photons with REALs of real_size bytes and local_memory_bytes of local
 * memory per work-group: the tables in local memory where one event's fit, else in global memory;
 * 0 when the shared kernel does not apply (n out of range, or not even the chunk fits). */
int hg_rs_layout_choose(unsigned n_photons, size_t real_size, unsigned long long local_memory_bytes,
                        const hg_rs_tuning *tuning, hg_rs_layout *out);

/* The OpenCL C text that recursive_shared.cl expects ahead of it (macros and constant tables); a
 * new string, NULL when memory ran out. */
char *hg_rs_layout_source(const hg_rs_layout *layout);

/* Whether the layout's work-items hold more than 4 configurations each, whose contraction
 * recursive_shared.cl takes from hg_rs_contraction_source. */
int hg_rs_contraction_generated(const hg_rs_layout *layout);

/* The OpenCL C function hg_rs_contract, which a work-item's configurations' products at one
 * subset make with every J and R'' read once (a case per way the subset splits the configuration
 * bits above the work-item's); it goes after kernels.cl and ahead of recursive_shared.cl. A new
 * string, NULL when memory ran out. */
char *hg_rs_contraction_source(const hg_rs_layout *layout);

/* The work-group size of the layout (threads * events). */
size_t hg_rs_group_size(const hg_rs_layout *layout);

/* With global tables, how many work-groups to launch (each goes over the batch in steps of that
 * many, its tables in its own part of the buffer): groups_per_unit (default 8) per compute unit,
 * fewer where their tables would exceed max_bytes; at least 1. */
size_t hg_rs_global_groups(const hg_rs_layout *layout, unsigned compute_units,
                           unsigned groups_per_unit, unsigned long long max_bytes);

#endif
