/* SPDX-License-Identifier: MIT */
/* The layout of the recursive engine's work-group-shared helicity sum: level sizes and offsets of
 * the tabulated currents, the chunk of the contraction, and the subsets' ranks. */
#include "recursive_shared.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/strbuf.h"

/* A work-group's work-items at most: groups of one or two events pack the local memory of an
 * NVIDIA SM tighter than larger ones (measured on the H200: 8 photons float, 64 work-items a
 * group 9.9e6 events/s, 128 9.7e6; double is best at 128). */
#define RS_MAX_GROUP_FLOAT 64
#define RS_MAX_GROUP_DOUBLE 128
/* With global tables (n >= 9 on NVIDIA): work-items per event at most, and work-groups launched
 * per compute unit (each goes over the batch; more than run at once cost only memory). */
#define RS_MAX_THREADS_GLOBAL 256
#define RS_GLOBAL_GROUPS_PER_UNIT 8

static size_t binomial(unsigned n, unsigned k) {
  size_t b = 1;
  for (unsigned i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

/* Currents of level l: C(n, l) subsets times 2^l helicities. */
static size_t level_size(unsigned n, unsigned l) { return binomial(n, l) << l; }

/* Currents the contraction step needs: a chunk of level-K J and level-(n - K) R'', and at least
 * the final sum's REALs (threads of them, two to a complex). */
static size_t chunk_area(const hg_rs_layout *a) {
  const unsigned k = a->cut, m = a->n_photons - k;
  size_t area = (size_t)a->chunk * (((size_t)1 << k) + ((size_t)1 << m));
  if (a->threads > 2 * area) area = (a->threads + 1) / 2;
  return area;
}

/* Offsets (in currents) of the tabulated levels: J's and R's top levels first, their lower levels
 * in the scratch after them; the scratch's size is returned in *scratch. In local memory the chunk
 * and the final sum reuse the scratch (the lower levels are spent by then); with global tables
 * they have local memory of their own (chunk_area), and the scratch holds the lower levels only. */
static void level_offsets(const hg_rs_layout *a, size_t *j_offset, size_t *r_offset,
                          size_t *scratch_at, size_t *scratch) {
  const unsigned n = a->n_photons, k = a->cut, m = n - k;
  for (unsigned l = 0; l <= n; ++l) j_offset[l] = r_offset[l] = 0;
  const size_t j_top = k >= 2 ? level_size(n, k - 1) : 0;
  const size_t r_top = m >= 2 ? level_size(n, m - 1) : 0;
  if (k >= 2) j_offset[k - 1] = 0;
  if (m >= 2) r_offset[m - 1] = j_top;
  *scratch_at = j_top + r_top;
  size_t lower = *scratch_at;
  for (unsigned l = 1; l + 1 < k; ++l) {
    j_offset[l] = lower;
    lower += level_size(n, l);
  }
  for (unsigned l = 1; l + 1 < m; ++l) {
    r_offset[l] = lower;
    lower += level_size(n, l);
  }
  size_t need = lower - *scratch_at;
  if (!a->global_tables) {
    const size_t area = chunk_area(a);
    if (area > need) need = area;
  }
  *scratch = need;
}

size_t hg_rs_group_size(const hg_rs_layout *layout) {
  return (size_t)layout->threads * layout->events;
}

void hg_rs_tuning_defaults(hg_rs_tuning *t) {
  t->threads = 0;
  t->chunk_items = 0;
  t->events = 0;
  t->groups_per_unit = 0;
  t->global_tables = 0;
}

/* Work-items per event: 2 configurations each in double and 4 in float, the fastest on the H200
 * at n = 6..8 (docs/performance.md, "Speed": a work-item then reads a J or R'' once for two or four
 * products, while double's registers favour fewer), between a warp and max (128 with local
 * tables, RS_MAX_THREADS_GLOBAL with global ones). */
static unsigned default_threads(unsigned n, size_t real_size, unsigned max) {
  const unsigned configs = 1u << n, per_item = real_size == sizeof(double) ? 2u : 4u;
  unsigned threads = configs / per_item;
  const unsigned least = configs < 32u ? configs : 32u;
  if (threads < least) threads = least;
  if (threads > max) threads = max;
  return threads;
}

/* The cut, work-items, chunk and table sizes for tables in local (global_tables = 0) or global
 * memory; local_bytes per event in *event_bytes. */
static void layout_sizes(unsigned n, size_t real_size, const hg_rs_tuning *tuning,
                         int global_tables, hg_rs_layout *a, size_t *event_bytes) {
  *a = (hg_rs_layout){0};
  a->n_photons = n;
  a->cut = n / 2;
  a->global_tables = global_tables;
  a->threads = tuning->threads != 0
                   ? tuning->threads
                   : default_threads(n, real_size, global_tables ? RS_MAX_THREADS_GLOBAL : 128u);
  if (a->threads > (1u << n)) a->threads = 1u << n;
  /* chunk items per work-item: 4, or 2 with 128 work-items and local tables (measured, n = 8
   * double); global tables leave the chunk all of local memory */
  const unsigned chunk_items = tuning->chunk_items != 0              ? tuning->chunk_items
                               : (a->threads >= 128u && !global_tables) ? 2u
                                                                        : 4u;
  const unsigned m = n - a->cut;
  const size_t per_subset = ((size_t)1 << a->cut) + ((size_t)1 << m);
  size_t chunk = (size_t)chunk_items * a->threads / per_subset;
  const size_t subsets = binomial(n, a->cut);
  if (chunk < 1) chunk = 1;
  if (chunk > subsets) chunk = subsets;
  a->chunk = (unsigned)chunk;
  size_t j_offset[HG_RS_MAX_PHOTONS + 1], r_offset[HG_RS_MAX_PHOTONS + 1], scratch_at, scratch;
  level_offsets(a, j_offset, r_offset, &scratch_at, &scratch);
  a->currents = scratch_at + scratch;
  a->chunk_area = global_tables ? chunk_area(a) : 0;
  /* two complex components per current; the event's vertices, momenta and spinors */
  const size_t complex_size = 2 * real_size;
  const size_t in_local = global_tables ? a->chunk_area : a->currents;
  *event_bytes =
      2 * in_local * complex_size + (8 * (size_t)n + 4) * complex_size + (4 * n + 8) * real_size;
  a->global_bytes = global_tables ? 2 * a->currents * complex_size : 0;
}

int hg_rs_layout_choose(unsigned n, size_t real_size, unsigned long long local_memory_bytes,
                        const hg_rs_tuning *tuning, hg_rs_layout *out) {
  if (n < HG_RS_MIN_PHOTONS || n > HG_RS_MAX_PHOTONS) return 0;
  const size_t reserve = 1024; /* what the compiler may add to a kernel's local memory */
  hg_rs_layout a;
  size_t event_bytes = 0;
  layout_sizes(n, real_size, tuning, 0, &a, &event_bytes);
  /* n = 2 tabulates nothing (both sides of the cut are one photon) */
  if (n >= 3 && (tuning->global_tables || local_memory_bytes < reserve + event_bytes))
    layout_sizes(n, real_size, tuning, 1, &a, &event_bytes);
  if (local_memory_bytes < reserve + event_bytes) return 0;
  size_t events = (size_t)((local_memory_bytes - reserve) / event_bytes);
  const unsigned max_group = real_size == sizeof(double) ? RS_MAX_GROUP_DOUBLE : RS_MAX_GROUP_FLOAT;
  if (events * a.threads > max_group) events = max_group / a.threads;
  if (tuning->events != 0 && events > tuning->events) events = tuning->events;
  if (events < 1) events = 1;
  a.events = (unsigned)events;
  a.local_bytes = events * event_bytes;
  a.global_bytes *= events;
  *out = a;
  return 1;
}

size_t hg_rs_global_groups(const hg_rs_layout *layout, unsigned compute_units,
                           unsigned groups_per_unit, unsigned long long max_bytes) {
  size_t groups = (size_t)(compute_units > 0 ? compute_units : 1) *
                  (groups_per_unit > 0 ? groups_per_unit : RS_GLOBAL_GROUPS_PER_UNIT);
  if (layout->global_bytes > 0 && groups > max_bytes / layout->global_bytes)
    groups = (size_t)(max_bytes / layout->global_bytes);
  return groups > 0 ? groups : 1;
}

/* A __constant table of ushort, or of uint where a value needs it (the offsets of n >= 11). */
static void append_table(hg_strbuf *b, const char *name, const size_t *values, size_t count) {
  size_t largest = 0;
  for (size_t i = 0; i < count; ++i)
    if (values[i] > largest) largest = values[i];
  hg_strbuf_printf(b, "__constant %s %s[%zu] = {", largest > 0xffff ? "uint" : "ushort", name,
                   count);
  for (size_t i = 0; i < count; ++i)
    hg_strbuf_printf(b, "%s%zu", i == 0 ? "" : (i % 16 == 0 ? ",\n  " : ", "), values[i]);
  hg_strbuf_printf(b, "};\n");
}

char *hg_rs_layout_source(const hg_rs_layout *a) {
  const unsigned n = a->n_photons;
  const size_t sets = (size_t)1 << n;
  size_t *subsets = malloc(sets * sizeof *subsets), *rank = malloc(sets * sizeof *rank);
  size_t start[HG_RS_MAX_PHOTONS + 2], sizes[HG_RS_MAX_PHOTONS + 1];
  size_t j_offset[HG_RS_MAX_PHOTONS + 1], r_offset[HG_RS_MAX_PHOTONS + 1], scratch_at, scratch;
  hg_strbuf b = {0};
  if (subsets == NULL || rank == NULL) goto fail;
  /* subsets by size, ascending within a size; rank[mask] is the position within its size */
  size_t at = 0;
  for (unsigned l = 0; l <= n; ++l) {
    start[l] = at;
    sizes[l] = level_size(n, l);
    for (size_t mask = 0; mask < sets; ++mask)
      if ((unsigned)__builtin_popcountll(mask) == l) {
        rank[mask] = at - start[l];
        subsets[at++] = mask;
      }
  }
  start[n + 1] = at;
  level_offsets(a, j_offset, r_offset, &scratch_at, &scratch);
  hg_strbuf_printf(&b,
                   "/* host/amplitude/recursive_shared.c: the layout for %u photons */\n"
                   "#define HG_RS_K %u\n#define HG_RS_THREADS %u\n#define HG_RS_LOG_THREADS %d\n"
                   "#define HG_RS_EVENTS %u\n"
                   "#define HG_RS_CHUNK %u\n#define HG_RS_CURRENTS %zu\n#define HG_RS_SCRATCH %zu\n"
                   "#define HG_RS_SUBSETS_K %zu\n#define HG_RS_GLOBAL %d\n",
                   n, a->cut, a->threads, __builtin_ctz(a->threads), a->events, a->chunk, a->currents, scratch_at,
                   binomial(n, a->cut), a->global_tables);
  if (hg_rs_contraction_generated(a)) hg_strbuf_printf(&b, "#define HG_RS_CONTRACT_GENERATED 1\n");
  if (a->global_tables) hg_strbuf_printf(&b, "#define HG_RS_CHUNK_AREA %zu\n", a->chunk_area);
  append_table(&b, "hg_rs_level_start", start, n + 2);
  append_table(&b, "hg_rs_level_size", sizes, n + 1);
  append_table(&b, "hg_rs_j_offset", j_offset, n + 1);
  append_table(&b, "hg_rs_r_offset", r_offset, n + 1);
  append_table(&b, "hg_rs_subsets", subsets, sets);
  append_table(&b, "hg_rs_rank", rank, sets);
  free(subsets);
  free(rank);
  if (b.failed) {
    hg_strbuf_free(&b);
    return NULL;
  }
  return b.data;
fail:
  free(subsets);
  free(rank);
  hg_strbuf_free(&b);
  return NULL;
}

/* The bits of value at the positions set in mask, packed in ascending order (as hg_rs_extract in
 * recursive_shared.cl). */
static unsigned extract_bits(unsigned value, unsigned mask) {
  unsigned out = 0, at = 0;
  for (unsigned b = 0; mask >> b != 0; ++b)
    if ((mask >> b) & 1u) out |= ((value >> b) & 1u) << at++;
  return out;
}

int hg_rs_contraction_generated(const hg_rs_layout *a) {
  return ((size_t)1 << a->n_photons) / a->threads > 4;
}

char *hg_rs_contraction_source(const hg_rs_layout *a) {
  const unsigned per_item = (unsigned)(((size_t)1 << a->n_photons) / a->threads);
  const unsigned high_mask = per_item - 1u;
  hg_strbuf b = {0};
  hg_strbuf_printf(
      &b,
      "/* generated by host/amplitude/recursive_shared.c (hg_rs_contraction_source) for %u photons,"
      "\n * %u work-items per event: do not edit. amp[i] += R''(i) . J(i) for a work-item's %u\n"
      " * configurations at one level-K subset, each J and R'' read once: case m is the subset\n"
      " * whose photons among the configuration bits above the work-item's are m. */\n"
      "HG_INLINE void hg_rs_contract(hg_complex *amp, __local const hg_complex *k0,\n"
      "                              __local const hg_complex *k1, int j_base, int r_base,\n"
      "                              int j_shift, int r_shift, hg_u32 cut_high) {\n"
      "  switch (cut_high) {\n",
      a->n_photons, a->threads, per_item);
  for (unsigned m = 0; m <= high_mask; ++m) {
    const unsigned in_cut = (unsigned)__builtin_popcount(m), rest = high_mask & ~m;
    hg_strbuf_printf(&b, "  case %uu: {\n", m);
    for (unsigned i = 0; i < (1u << in_cut); ++i)
      hg_strbuf_printf(&b,
                       "    const hg_complex j%u_0 = k0[j_base + (%u << j_shift)], "
                       "j%u_1 = k1[j_base + (%u << j_shift)];\n",
                       i, i, i, i);
    for (unsigned i = 0; i < (1u << (__builtin_popcount(rest))); ++i)
      hg_strbuf_printf(&b,
                       "    const hg_complex r%u_0 = k0[r_base + (%u << r_shift)], "
                       "r%u_1 = k1[r_base + (%u << r_shift)];\n",
                       i, i, i, i);
    for (unsigned i = 0; i < per_item; ++i) {
      const unsigned j = extract_bits(i, m), r = extract_bits(i, rest);
      hg_strbuf_printf(&b, "    amp[%u] = hg_cfma(r%u_0, j%u_0, hg_cfma(r%u_1, j%u_1, amp[%u]));\n",
                       i, r, j, r, j, i);
    }
    hg_strbuf_printf(&b, "  } break;\n");
  }
  hg_strbuf_printf(&b, "  }\n}\n");
  if (b.failed) {
    hg_strbuf_free(&b);
    return NULL;
  }
  return b.data;
}
