/* SPDX-License-Identifier: MIT */
/* The diagram engine's code generator, MadGraph style: each wavefunction computed once per part.
 *
 * A diagram is an ordering of the photons along the quark line. Write it as t, read from the
 * antiquark: t[0] is the photon next to the antiquark, t[n-1] the one next to the quark. It is
 * cut at the vertex of photon t[n-1-k]: the quark line with t[n-1], t[n-2], ..., t[n-k] attached
 * (fvixx0 from fi, variable i_<t[n-1]..t[n-k]>) meets the antiquark line with t[0], ..., t[n-2-k]
 * attached (fvoxx0 from fo, variable o_<t[0]..t[n-2-k]>) at iovxxx with photon t[n-1-k]. Each
 * ordered sequence of photons names one wavefunction, computed once and shared by every diagram
 * of the part that contains it, as MadGraph's generated code does. Photons are named a, b, c, ...
 *
 * Diagrams are taken in lexicographic order of t and cut into parts of consecutive diagrams, so
 * a part's diagrams share the antiquark lines of their common first photons; each part picks the
 * cut k that needs the fewest wavefunctions, which for all n! diagrams is k = (n-1)/2. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "amplitudes/next_permutation.h"
#include "core/strbuf.h"
#include "diagrams_codegen.h"

#define HG_MAX_DIAGRAM_PHOTONS 12

/* A set of wavefunction keys (open addressing, linear probing); key 0 marks an empty slot. */
typedef struct {
  uint64_t *keys;
  size_t capacity, count; /* capacity: a power of two */
} name_set;

static int name_set_init(name_set *set, size_t max_count) {
  set->capacity = 16;
  while (set->capacity < 2 * max_count) set->capacity *= 2;
  set->count = 0;
  set->keys = calloc(set->capacity, sizeof *set->keys);
  return set->keys != NULL;
}

static void name_set_clear(name_set *set) {
  memset(set->keys, 0, set->capacity * sizeof *set->keys);
  set->count = 0;
}

/* Inserts key (non-zero); 1 if it was new, 0 if already present. The set never fills: it was
 * sized for twice the most keys a part can have. */
static int name_set_insert(name_set *set, uint64_t key) {
  size_t slot = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (set->capacity - 1);
  while (set->keys[slot] != 0) {
    if (set->keys[slot] == key) return 0;
    slot = (slot + 1) & (set->capacity - 1);
  }
  set->keys[slot] = key;
  ++set->count;
  return 1;
}

/* The key of a quark-side (side 0) or antiquark-side (side 1) line: the side, then 4 bits per
 * photon, so a line's key extends its parent's. */
static uint64_t extend_key(uint64_t parent, int photon) {
  return parent * 16 + (uint64_t)photon + 1;
}

static void name_of(char prefix, const int *seq, int length, char *name) {
  name[0] = prefix;
  name[1] = '_';
  for (int i = 0; i < length; ++i) name[2 + i] = (char)('a' + seq[i]);
  name[2 + length] = '\0';
}

/* The quark-side photons of ordering t, nearest the quark first: s[i] = t[n-1-i]. */
static void quark_side(const int *t, int n, int *s) {
  for (int i = 0; i < n; ++i) s[i] = t[n - 1 - i];
}

/* How many wavefunctions count diagrams from ordering t on need with the cut after k quark-side
 * photons. */
static size_t count_wavefunctions(const int *first, int n, size_t count, int k, name_set *set) {
  int t[HG_MAX_DIAGRAM_PHOTONS], s[HG_MAX_DIAGRAM_PHOTONS];
  memcpy(t, first, (size_t)n * sizeof *t);
  name_set_clear(set);
  for (size_t d = 0; d < count; ++d) {
    quark_side(t, n, s);
    uint64_t key = 2;
    for (int l = 0; l < k; ++l) name_set_insert(set, key = extend_key(key, s[l]));
    key = 3;
    for (int l = 0; l < n - 1 - k; ++l) name_set_insert(set, key = extend_key(key, t[l]));
    hg_next_permutation(t, n);
  }
  return set->count;
}

/* Emits the body of one part: count diagrams from ordering t on (t is advanced past them), each
 * wavefunction declared before the first diagram that uses it. */
static void emit_part_body(hg_strbuf *s_out, int n, int *t, size_t count, int k, name_set *set) {
  char name[HG_MAX_DIAGRAM_PHOTONS + 3], parent[HG_MAX_DIAGRAM_PHOTONS + 3];
  char in_name[HG_MAX_DIAGRAM_PHOTONS + 3], out_name[HG_MAX_DIAGRAM_PHOTONS + 3];
  int s[HG_MAX_DIAGRAM_PHOTONS];
  const int tail = n - 1 - k;
  name_set_clear(set);
  hg_strbuf_printf(s_out, "  hg_complex amp = hg_czero();\n");
  for (size_t d = 0; d < count; ++d) {
    quark_side(t, n, s);
    uint64_t key = 2;
    strcpy(in_name, "fi");
    for (int l = 1; l <= k; ++l) {
      strcpy(parent, in_name);
      name_of('i', s, l, in_name);
      if (name_set_insert(set, key = extend_key(key, s[l - 1])))
        hg_strbuf_printf(s_out, "  const hg_wave %s = fvixx0(%s, photons[%d], gc);\n", in_name,
                         parent, s[l - 1]);
    }
    key = 3;
    strcpy(out_name, "fo");
    for (int l = 1; l <= tail; ++l) {
      strcpy(name, out_name);
      name_of('o', t, l, out_name);
      if (name_set_insert(set, key = extend_key(key, t[l - 1])))
        hg_strbuf_printf(s_out, "  const hg_wave %s = fvoxx0(%s, photons[%d], gc);\n", out_name,
                         name, t[l - 1]);
    }
    hg_strbuf_printf(s_out, "  amp = hg_cadd(amp, iovxxx(%s, %s, photons[%d], gc));\n", in_name,
                     out_name, s[k]);
    hg_next_permutation(t, n);
  }
  hg_strbuf_printf(s_out, "  return amp;\n}\n");
}

static size_t factorial(unsigned n) {
  size_t f = 1;
  for (unsigned i = 2; i <= n; ++i) f *= i;
  return f;
}

unsigned hg_diagrams_part_count(unsigned n_photons) {
  if (n_photons < 1 || n_photons > HG_MAX_DIAGRAM_PHOTONS) return 0;
  if (n_photons < HG_DIAGRAMS_SPLIT_MIN_PHOTONS) return 1;
  return (unsigned)((factorial(n_photons) + HG_DIAGRAMS_PER_PART - 1) / HG_DIAGRAMS_PER_PART);
}

hegetcl_status hg_diagrams_source_parts(unsigned n_photons, unsigned diagrams_per_part, char **out,
                                        unsigned *n_parts) {
  *out = NULL;
  if (n_parts != NULL) *n_parts = 0;
  if (n_photons < 1 || n_photons > HG_MAX_DIAGRAM_PHOTONS) return HEGETCL_ERR_INPUT;
  const int n = (int)n_photons;
  const size_t total = factorial(n_photons);
  const size_t per_part =
      diagrams_per_part == 0 || diagrams_per_part > total ? total : diagrams_per_part;
  const size_t parts = (total + per_part - 1) / per_part;
  name_set set;
  if (!name_set_init(&set, per_part * (size_t)n)) return HEGETCL_ERR_NO_MEMORY;
  hg_strbuf s = {0};
  hg_strbuf_printf(&s,
                   "/* generated by host/amplitude/diagrams_codegen.c for %d photons, %zu "
                   "part%s: do not edit */\n#line 1 \"generated/diagrams_n%d.cl\"\n",
                   n, parts, parts == 1 ? "" : "s", n);
  int t[HG_MAX_DIAGRAM_PHOTONS];
  for (int i = 0; i < n; ++i) t[i] = i;
  for (size_t part = 0; part < parts; ++part) {
    const size_t count = part + 1 < parts ? per_part : total - part * per_part;
    int best_k = 0;
    size_t best = (size_t)-1;
    for (int k = 0; k < n; ++k) {
      const size_t needed = count_wavefunctions(t, n, count, k, &set);
      if (needed < best) {
        best = needed;
        best_k = k;
      }
    }
    if (parts == 1)
      hg_strbuf_printf(&s,
                       "/* all %zu diagrams, %zu off-shell quark lines, %d photon(s) on the quark "
                       "side */\nHG_INLINE hg_complex hg_engine_amplitude(hg_wave fi, hg_wave "
                       "fo, const hg_wave *photons,\n                                         "
                       "int quark_helicity, hg_coupling gc) {\n  (void)quark_helicity;\n",
                       count, best, best_k);
    else
      hg_strbuf_printf(&s,
                       "\n/* part %zu: diagrams %zu..%zu of %zu, %zu off-shell quark lines, %d "
                       "photon(s) on the quark side */\nHG_INLINE hg_complex "
                       "hg_diagrams_part_%zu(hg_wave fi, hg_wave fo, const hg_wave *photons,\n"
                       "                                         hg_coupling gc) {\n",
                       part, part * per_part, part * per_part + count - 1, total, best, best_k,
                       part);
    emit_part_body(&s, n, t, count, best_k, &set);
  }
  if (parts > 1) {
    hg_strbuf_printf(&s, "\n/* the parts, for kernels.cl to make one kernel each */\n"
                         "#define HG_DIAGRAM_PARTS(X) \\\n ");
    for (size_t part = 0; part < parts; ++part)
      hg_strbuf_printf(&s, " X(%zu)%s", part,
                       part + 1 == parts      ? "\n"
                       : (part + 1) % 10 == 0 ? " \\\n "
                                              : "");
  }
  free(set.keys);
  if (s.failed) {
    hg_strbuf_free(&s);
    return HEGETCL_ERR_NO_MEMORY;
  }
  *out = s.data;
  if (n_parts != NULL) *n_parts = (unsigned)parts;
  return HEGETCL_OK;
}

hegetcl_status hg_diagrams_source(unsigned n_photons, char **out) {
  const unsigned parts = hg_diagrams_part_count(n_photons);
  if (parts == 0) {
    *out = NULL;
    return HEGETCL_ERR_INPUT;
  }
  return hg_diagrams_source_parts(n_photons, parts == 1 ? 0 : HG_DIAGRAMS_PER_PART, out, NULL);
}
