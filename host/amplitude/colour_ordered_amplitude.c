/* SPDX-License-Identifier: MIT */
/* The recursive colour engine's amplitude: the process's letters, helicity list and colour
 * matrix (host/process/colour_ordered.c) as a small generated header and a buffer for
 * cl/amplitudes/colour_ordered.cl, whose code does not grow with the number of diagrams. Beyond
 * HG_CO_MAX_ORDERINGS orderings only the sampled-colour kernel is built. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "core/program.h"
#include "core/strbuf.h"
#include "kernel_names.h"
#include "process/colour_ordered.h"
#include "process/model.h"

/* The work-group kernels' word table (colour_group.cl): the distinct words (ordered strings of
 * distinct letters) that the orderings hold as contiguous substrings, up to table_max letters,
 * numbered by length (the letters first, word j letter j), and for each word of two or more
 * letters and then each ordering the number of each of its substrings (i, m) at CO_SUB(i, m). */
typedef struct {
  size_t n_words, n_rows;
  int table_max, n_sub;
  int level_start[HG_PROCESS_MAX_EXTERNAL + 2];
  cl_ushort *rows;
} word_table;

enum { WORD_HASH_BITS = 16 };

/* A word of length letters (3 bits a letter, at most 7) as one number. */
static uint32_t word_key(const unsigned char *w, int length) {
  uint32_t key = (uint32_t)length << 24;
  for (int k = 0; k < length; ++k) key |= (uint32_t)w[k] << (3 * k);
  return key;
}

/* The slot of key in the open-addressed table keys (0: empty). */
static size_t word_slot(const uint32_t *keys, uint32_t key) {
  size_t h = (size_t)((key * 2654435761u) >> (32 - WORD_HASH_BITS));
  while (keys[h] != 0 && keys[h] != key) h = (h + 1) & ((1u << WORD_HASH_BITS) - 1);
  return h;
}

/* The substring (i, m) of a word of n letters (colour_ordered.cl's CO_SUB). */
static int co_sub(int n, int i, int m) { return (m - 1) * (n + 1) - (m - 1) * m / 2 + i; }

/* Builds t for co's orderings; -1 without memory or beyond the table's 65535 words. */
static int word_table_build(const hg_colour_ordered *co, word_table *t) {
  memset(t, 0, sizeof *t);
  const int L = co->n_letters, N = (int)co->n_orderings;
  t->n_sub = L * (L + 1) / 2;
  t->table_max = L > 1 ? L - 1 : 1;
  int letter_of[HG_PROCESS_MAX_EXTERNAL];
  for (int j = 0; j < L; ++j) letter_of[co->letter_particle[j]] = j;
  unsigned char *letters = malloc((size_t)N * (size_t)L);
  const size_t capacity = (size_t)L + (size_t)N * (size_t)t->n_sub;
  unsigned char *words = malloc(capacity * (size_t)L);
  uint32_t *keys = calloc((size_t)1 << WORD_HASH_BITS, sizeof *keys);
  uint32_t *ids = malloc(((size_t)1 << WORD_HASH_BITS) * sizeof *ids);
  int *lengths = malloc(capacity * sizeof *lengths);
  int status = letters && words && keys && ids && lengths && L <= 7 ? 0 : -1;
  for (int o = 0; o < N && status == 0; ++o)
    for (int j = 0; j < L; ++j)
      letters[(size_t)o * L + j] = (unsigned char)letter_of[co->orderings[(size_t)o * L + j]];
  size_t n = 0;
  for (int l = 1; l <= t->table_max && status == 0; ++l) {
    t->level_start[l] = (int)n;
    for (int o = 0; o < N; ++o)
      for (int i = 0; i + l <= L; ++i) {
        const unsigned char *w = letters + (size_t)o * L + i;
        const uint32_t key = word_key(w, l);
        const size_t slot = word_slot(keys, key);
        if (keys[slot] != 0) continue;
        keys[slot] = key;
        /* the letters keep their own numbers */
        const size_t id = l == 1 ? (size_t)w[0] : n;
        ids[slot] = (uint32_t)id;
        memcpy(words + id * (size_t)L, w, (size_t)l);
        lengths[id] = l;
        ++n;
      }
  }
  t->level_start[t->table_max + 1] = (int)n;
  t->n_words = n;
  t->n_rows = n - (size_t)L + (size_t)N;
  if (status == 0 && (n > 65535 || n > (size_t)1 << (WORD_HASH_BITS - 1))) status = -1;
  if (status == 0) t->rows = calloc(t->n_rows * (size_t)t->n_sub, sizeof *t->rows);
  if (t->rows == NULL) status = -1;
  for (size_t r = 0; r < t->n_rows && status == 0; ++r) {
    const int is_word = r < n - (size_t)L;
    const unsigned char *w = is_word ? words + (r + (size_t)L) * (size_t)L
                                     : letters + (r - (n - (size_t)L)) * (size_t)L;
    const int length = is_word ? lengths[r + (size_t)L] : L;
    for (int m = 1; m <= length; ++m)
      for (int i = 0; i + m <= length; ++i) {
        if (m == length && !(m == 1 && !is_word)) continue; /* the word itself */
        const size_t slot = word_slot(keys, word_key(w + i, m));
        if (keys[slot] == 0) {
          status = -1; /* cannot happen: every substring was entered above */
          break;
        }
        t->rows[r * (size_t)t->n_sub + (size_t)co_sub(L, i, m)] = (cl_ushort)ids[slot];
      }
  }
  free(letters);
  free(words);
  free(keys);
  free(ids);
  free(lengths);
  if (status != 0) {
    free(t->rows);
    t->rows = NULL;
  }
  return status;
}


/* The work-group kernels' shape: events and work-items per group, and with the words and
 * amplitudes in global memory (global), the groups launched and the REALs of each's tables. */
typedef struct {
  size_t events, size;
  int global, amps_local;
  size_t groups, group_reals;
} group_shape_t;

/* The work-group kernels' defines and tables. */
static int group_source(hg_strbuf *b, const hg_colour_ordered *co, const word_table *t,
                        const group_shape_t *shape) {
  hg_strbuf_printf(b,
                   "/* the work-group kernels (colour_group.cl): %zu words up to %d letters */\n"
                   "#define CO_GROUP 1\n#define CO_WG_EVENTS %zu\n#define CO_WG_SIZE %zu\n"
                   "#define CO_WORDS %zu\n#define CO_TABLE_MAX %d\n#define CO_WG_GLOBAL %d\n"
                   "#define CO_WG_A_LOCAL %d\n",
                   t->n_words, t->table_max, shape->events, shape->size, t->n_words, t->table_max,
                   shape->global, shape->amps_local);
  hg_strbuf_printf(b, "__constant int hg_cg_level_start[%d] = {0,", t->table_max + 2);
  for (int l = 1; l <= t->table_max + 1; ++l) hg_strbuf_printf(b, "%d,", t->level_start[l]);
  /* the line's pairs, those whose flowing-out end has helicity -1 first */
  const int pairs = co->quark_line ? co->n_fermion_pairs : 1;
  hg_strbuf_printf(b, "};\n__constant hg_u32 hg_cg_pairs[%d] = {", pairs);
  for (int out = 0; out < 2; ++out)
    for (int f = 0; f < pairs; ++f) {
      const uint32_t mask = co->quark_line ? co->fermion_pairs[f] : 0u;
      const int bit = co->quark_line ? (int)(mask >> co->o_particle & 1u) : 0;
      if (bit == out) hg_strbuf_printf(b, "%uu,", mask);
    }
  hg_strbuf_printf(b, "};\n");
  return b->failed ? -1 : 0;
}

static void external(hg_strbuf *b, const hg_colour_ordered *co, int i, int gauge_particle) {
  const hg_process_spec *s = &co->spec;
  const hg_particle *p = hg_model_particle(hg_species_particle(s->species[i]));
  const int incoming = i < s->n_in;
  if (p->spin == HG_SPIN_FERMION) {
    const int in_role = hg_colour_ordered_flows_in(s, i);
    hg_strbuf_printf(b, "  ext[%d] = %s(p[%d], %s, HG_HELICITY_OF(config, %d), %d);\n", i,
                     in_role ? "ixxxxx" : "oxxxxx", i,
                     p->mass == HG_PARAM_TOP_MASS ? "pp.top_mass" : "(REAL)0", i,
                     incoming == in_role ? 1 : -1);
  } else if (i == gauge_particle) {
    hg_strbuf_printf(b, "  ext[%d] = hg_polarisation_from_momentum(p[%d], %d);\n", i, i,
                     incoming ? -1 : 1);
  } else {
    hg_strbuf_printf(b, "  ext[%d] = vxxxxx(p[%d], (REAL)0, HG_HELICITY_OF(config, %d), %d);\n", i,
                     i, i, incoming ? -1 : 1);
  }
}

static char *source(const hg_colour_ordered *co, int width_all, int gauge_particle,
                    int full_colour, const word_table *table, const group_shape_t *shape) {
  hg_strbuf b = {0};
  if (table != NULL && group_source(&b, co, table, shape) != 0) {
    hg_strbuf_free(&b);
    return NULL;
  }
  const hg_process_spec *s = &co->spec;
  /* no process text here: processes with the same tables share one program (hg_program_get keys
   * programs by their source) */
  hg_strbuf_printf(&b,
                   "/* generated by host/amplitude/colour_ordered_amplitude.c: %zu orderings of %d "
                   "gluons, %zu helicity configurations */\n",
                   co->n_orderings, co->n_letters, co->n_helicities);
  hg_strbuf_printf(&b, "#define N_PARTICLES %d\n#define CO_LETTERS %d\n", s->n, co->n_letters);
  hg_strbuf_printf(&b, "#define CO_ORDERINGS %zuu\n#define CO_HELICITIES %zuu\n", co->n_orderings,
                   co->n_helicities);
  hg_strbuf_printf(&b, "#define CO_PERMUTED %d\n#define CO_FULL_COLOUR %d\n",
                   co->quark_line ? co->n_letters : co->n_letters - 1, full_colour);
  hg_strbuf_printf(&b, "#define CO_QUARK_LINE %d\n#define CO_CLOSING %d\n", co->quark_line,
                   co->quark_line ? 0 : co->closing);
  hg_strbuf_printf(&b, "#define CO_O %d\n#define CO_I %d\n", co->quark_line ? co->o_particle : 0,
                   co->quark_line ? co->i_particle : 0);
  hg_strbuf_printf(&b, "#define CO_QUARK_MASS %s\n#define CO_QUARK_WIDTH %s\n",
                   co->quark_top ? "pp.top_mass" : "(REAL)0",
                   co->quark_top && width_all ? "pp.top_width" : "(REAL)0");
  hg_strbuf_printf(&b, "__constant int hg_co_letter_particle[%d] = {", co->n_letters);
  for (int j = 0; j < co->n_letters; ++j) hg_strbuf_printf(&b, "%d,", co->letter_particle[j]);
  hg_strbuf_printf(&b, "};\n__constant hg_u32 hg_co_helicities[%zu] = {", co->n_helicities);
  for (size_t k = 0; k < co->n_helicities; ++k)
    hg_strbuf_printf(&b, "%s%uu,", k % 12 == 0 ? "\n  " : "", co->helicities[k]);
  const int pairs = co->quark_line ? co->n_fermion_pairs : 1;
  hg_strbuf_printf(&b, "};\n#define CO_FERMION_PAIRS %d\n", pairs);
  hg_strbuf_printf(&b, "__constant hg_u32 hg_co_fermion_pairs[%d] = {", pairs);
  for (int f = 0; f < pairs; ++f)
    hg_strbuf_printf(&b, "%uu,", co->quark_line ? co->fermion_pairs[f] : 0u);
  hg_strbuf_printf(&b,
                   "};\n\n/* the external wavefunctions of configuration config */\n"
                   "HG_INLINE void hg_co_externals(const hg_fourvec *p, hg_u32 config,\n"
                   "                               const hg_process_params pp, hg_wave *ext) {\n");
  for (int i = 0; i < s->n; ++i) external(&b, co, i, gauge_particle);
  hg_strbuf_printf(&b, "}\n");
  if (b.failed) {
    hg_strbuf_free(&b);
    return NULL;
  }
  return b.data;
}

/* The colour matrix (dim x dim, double) as the summed and helicity kernels' last argument, in the
 * colour sum's precision (double, or float when colour_double is 0). */
hegetcl_status hg_amplitude_colour_matrix(hegetcl_amplitude *amp, const double *matrix, size_t dim,
                                          int colour_double, const char *process_text) {
  hegetcl_context *ctx = amp->ctx;
  const size_t n = dim * dim;
  void *values = colour_double ? (void *)matrix : malloc(n * sizeof(float) + 1);
  if (values == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the colour matrix");
  if (!colour_double)
    for (size_t k = 0; k < n; ++k) ((float *)values)[k] = (float)matrix[k];
  cl_int err = CL_SUCCESS;
  amp->colour = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               n * (colour_double ? sizeof(double) : sizeof(float)), values, &err);
  if (!colour_double) free(values);
  if (err == CL_SUCCESS) err |= clSetKernelArg(amp->summed, 5, sizeof(cl_mem), &amp->colour);
  if (err == CL_SUCCESS) err |= clSetKernelArg(amp->helicity, 6, sizeof(cl_mem), &amp->colour);
  return hg_cl_check(ctx, err, "clCreateBuffer", "making the colour matrix of %s", process_text);
}

/* Whether the work-group kernels are wanted: not for HG_SUMMED_PRIVATE, and HEGETCL_CO_KERNEL
 * (item or group, studies) in the environment decides over that. */
static int want_group(const hegetcl_amplitude *amp) {
  const char *kernel = getenv("HEGETCL_CO_KERNEL");
  if (kernel != NULL && strcmp(kernel, "item") == 0) return 0;
  if (kernel != NULL && strcmp(kernel, "group") == 0) return 1;
  return !amp->colour_item;
}

/* The work-group kernels' shape: about 128 work-items (at most 256), as many events as fill them
 * and fit in local memory (HEGETCL_CO_GROUP="EVENTS[,SIZE]" in the environment overrides, for
 * studies); where one event's words and amplitudes do not fit (or HG_SUMMED_SHARED_GLOBAL or
 * HEGETCL_CO_GLOBAL_TABLES=1 asks), those in global memory, two groups per compute unit. */
static void group_shape(const hegetcl_amplitude *amp, const hg_colour_ordered *co,
                        const word_table *t, int colour_double, group_shape_t *shape) {
  const hegetcl_context *ctx = amp->ctx;
  const size_t real = amp->process.precision == HEGETCL_PRECISION_DOUBLE ? 8 : 4;
  const size_t sum = colour_double ? 8 : real, wave = 12 * real;
  const size_t pairs = co->quark_line ? (size_t)co->n_fermion_pairs : 1, n = co->n_orderings;
  const size_t tables = t->n_words * wave + pairs * n * 2 * real;
  const size_t local = 2 * (size_t)co->spec.n * wave + n * sum + sizeof(cl_uint);
  const size_t budget = (size_t)ctx->info.local_memory_bytes;
  memset(shape, 0, sizeof *shape);
  const char *global = getenv("HEGETCL_CO_GLOBAL_TABLES");
  shape->global = amp->colour_global || (global != NULL && strcmp(global, "1") == 0) ||
                  local + tables > budget;
  const size_t per_event = shape->global ? local : local + tables;
  size_t e = n < 128 ? 128 / n : 1, g = 0;
  const char *given = getenv("HEGETCL_CO_GROUP");
  if (given != NULL) {
    unsigned long a = 0, b = 0;
    const int got = sscanf(given, "%lu,%lu", &a, &b);
    if (got >= 1 && a > 0) e = (size_t)a;
    if (got == 2) g = (size_t)b;
  }
  while (e > 1 && e * per_event > budget) --e;
  if (g == 0) {
    g = (e * n + 31) / 32 * 32;
    if (g > 256) g = 256;
  }
  shape->events = e;
  shape->size = g;
  /* with the words in global memory, the amplitudes in local memory where they fit beside the
   * externals (the colour sum's terms then in the global buffer); HEGETCL_CO_A_LOCAL=0 (studies)
   * keeps them global */
  const char *amps = getenv("HEGETCL_CO_A_LOCAL");
  shape->amps_local = shape->global && !(amps != NULL && strcmp(amps, "0") == 0) &&
                      e * (2 * (size_t)co->spec.n * wave + pairs * n * 2 * real +
                           sizeof(cl_uint)) <= budget;
  if (shape->global) {
    shape->groups = 2 * (size_t)(ctx->info.compute_units > 0 ? ctx->info.compute_units : 1);
    shape->group_reals = e * tables / real;
  }
}

hegetcl_status hg_colour_ordered_amplitude_build(hegetcl_amplitude *amp,
                                                 const hg_process_spec *spec, int gauge_particle) {
  hegetcl_context *ctx = amp->ctx;
  const hegetcl_process *p = &amp->process;
  hg_colour_ordered co;
  char error[1024];
  if (hg_colour_ordered_build(spec, &co, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  amp->me_factor = 1.0 / co.iden;
  amp->n_orderings = co.n_orderings;
  for (int i = 0; i < spec->n; ++i)
    amp->colour_dims[i] =
        hg_model_particle(hg_species_particle(spec->species[i]))->pdg == 21 ? 8 : 3;
  const int full_colour = co.colour != NULL;
  /* float amplitudes, colour sum in double: HEGETCL_CO_MIXED in the environment (studies) */
  const char *mixed = getenv("HEGETCL_CO_MIXED");
  const int colour_double =
      p->precision == HEGETCL_PRECISION_DOUBLE || (mixed != NULL && strcmp(mixed, "1") == 0);
  /* the work-group kernels where an event's tables fit in local memory */
  word_table table = {0};
  group_shape_t shape = {0};
  const int use_group = full_colour && want_group(amp) && word_table_build(&co, &table) == 0;
  if (use_group) group_shape(amp, &co, &table, colour_double, &shape);
  char *generated = source(&co, p->width_scheme == HEGETCL_WIDTH_ALL, gauge_particle, full_colour,
                           use_group ? &table : NULL, &shape);
  if (generated == NULL) {
    free(table.rows);
    hg_colour_ordered_free(&co);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine's tables");
  }
  hegetcl_status status = hg_build_options(ctx, p->precision, 0, amp->options, sizeof amp->options);
  if (status == HEGETCL_OK && colour_double && p->precision != HEGETCL_PRECISION_DOUBLE) {
    const size_t used = strlen(amp->options);
    snprintf(amp->options + used, sizeof amp->options - used, " -DHG_CO_COLOUR_DOUBLE");
  }
  if (status == HEGETCL_OK)
    status = hg_process_program(amp, generated, "amplitudes/colour_ordered.cl", full_colour);
  free(generated);
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, amp->program, HG_KERNEL_AMPLITUDE_COLOUR, &amp->colour_kernel);
  if (status == HEGETCL_OK && full_colour) {
    /* the colour matrix in the colour sum's precision, the kernels' last argument */
    status = hg_amplitude_colour_matrix(amp, co.colour, co.n_orderings, colour_double, spec->text);
  }
  if (status == HEGETCL_OK && use_group) {
    /* the word table, the kernels' argument after the colour matrix */
    cl_int err = CL_SUCCESS;
    amp->words = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                table.n_rows * (size_t)table.n_sub * sizeof(cl_ushort), table.rows,
                                &err);
    if (err == CL_SUCCESS) err |= clSetKernelArg(amp->summed, 6, sizeof(cl_mem), &amp->words);
    if (err == CL_SUCCESS) err |= clSetKernelArg(amp->helicity, 7, sizeof(cl_mem), &amp->words);
    status = hg_cl_check(ctx, err, "clCreateBuffer", "making the word table of %s", spec->text);
    amp->summed_group = shape.size;
    amp->summed_group_events = shape.events;
  }
  if (status == HEGETCL_OK && use_group && shape.global) {
    /* each launched group's words and amplitudes, the kernels' argument after the word table */
    const size_t bytes =
        shape.groups * shape.group_reals * (p->precision == HEGETCL_PRECISION_DOUBLE ? 8 : 4);
    cl_int err = CL_SUCCESS;
    amp->summed_tables = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
      err |= clSetKernelArg(amp->summed, 7, sizeof(cl_mem), &amp->summed_tables);
    if (err == CL_SUCCESS)
      err |= clSetKernelArg(amp->helicity, 8, sizeof(cl_mem), &amp->summed_tables);
    status = hg_cl_check(ctx, err, "clCreateBuffer",
                         "making %.1f MB of word tables for %zu work-groups of %s",
                         (double)bytes / 1048576.0, shape.groups, spec->text);
    amp->summed_groups = shape.groups;
  }
  free(table.rows);
  hg_colour_ordered_free(&co);
  return status;
}
