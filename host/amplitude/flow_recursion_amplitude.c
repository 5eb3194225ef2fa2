/* SPDX-License-Identifier: MIT */
/* The recursive engine's amplitude for two or more quark lines, or with leptons, photons, W, Z
 * or H: the tape of
 * host/process/flow_recursion.c as constant tables in a small generated header for
 * cl/amplitudes/flow_recursion.cl, and the colour matrix as a buffer (the kernels' last
 * argument, as for the gluon kernels). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "amplitudes/flow_recursion_tape.h"
#include "core/program.h"
#include "core/strbuf.h"
#include "kernel_names.h"
#include "process/colour_ordered.h"
#include "process/flow_recursion.h"
#include "process/model.h"

/* The kernel's code for a mass or width parameter (cl/amplitudes/flow_recursion.cl): 0 none, 1
 * top, 2 Z, 3 W, 4 H, 5 tau. */
static unsigned mass_code(hg_model_param m) {
  switch (m) {
  case HG_PARAM_TOP_MASS:
    return 1;
  case HG_PARAM_Z_MASS:
    return 2;
  case HG_PARAM_W_MASS:
    return 3;
  case HG_PARAM_H_MASS:
    return 4;
  case HG_PARAM_TAU_MASS:
    return 5;
  default:
    return 0;
  }
}

/* External particle i's descriptor (amplitudes/flow_recursion_tape.h), its helicity from the
 * configuration's bits as the diagrams engine lays them out (hg_diagrams_helicity_layout: a
 * massive vector takes two bits, value 3 is no configuration; a scalar none). */
static uint32_t external(const hg_process_spec *s, int i, int bit, int gauge_particle) {
  const hg_particle *p = hg_model_particle(hg_species_particle(s->species[i]));
  const int incoming = i < s->n_in;
  uint32_t kind = HG_FR_EXT_VECTOR;
  int negative = incoming; /* the wavefunction's last argument: -1 for an incoming boson */
  if (p->spin == HG_SPIN_SCALAR) {
    kind = HG_FR_EXT_SCALAR;
  } else if (p->spin == HG_SPIN_FERMION) {
    const int in_role = hg_colour_ordered_flows_in(s, i);
    kind = in_role ? HG_FR_EXT_FERMION_IN : HG_FR_EXT_FERMION_OUT;
    negative = incoming != in_role;
  } else if (i == gauge_particle) {
    kind = HG_FR_EXT_GAUGE;
  } else if (p->mass != HG_PARAM_ZERO) {
    kind = HG_FR_EXT_MASSIVE;
  }
  return kind | mass_code(p->mass) << 3 | (uint32_t)(bit > 0 ? bit : 0) << 8 |
         (uint32_t)negative << 16;
}

/* Whether fermions a and b can be the two ends of one line: the same flavour, or doublet partners
 * (a W on the line). */
static int one_line(int species_a, int species_b) {
  const hg_particle *a = hg_model_particle(hg_species_particle(species_a));
  const hg_particle *b = hg_model_particle(hg_species_particle(species_b));
  return a == b || (a->partner != NULL && strcmp(a->partner, b->name) == 0);
}

/* Whether fermion particle p couples to the model's vectors with its left-handed part only: a
 * neutrino (W and Z; the Z's right-handed coupling ee Q sw/cw vanishes with Q). */
static int left_only(const hg_particle *p) { return p->colour == 1 && p->charge == 0; }

/* Whether helicity configuration config (the bits of hg_diagrams_helicity_layout; incoming
 * particles as MadGraph gives them) can be non-zero: no massive vector has the value 3, and some
 * pairing of the fermion ends (one flowing in, one flowing out, one line) has every massless line
 * of one chirality at both ends (chirality is kept along a massless line by every vector
 * vertex; the Yukawas, which flip it, are the massive top's and tau's), left-handed where the
 * line must pass a W (its ends of different flavours) or has a neutrino end. The chirality of
 * an end is HELAS's nhel * nsf (-1: left-handed; CONVENTIONS.md, "HELAS slots"). */
static int can_be_nonzero(const hg_process_spec *s, const int *bit_of, uint32_t config) {
  int in_end[HG_PROCESS_MAX_EXTERNAL], out_end[HG_PROCESS_MAX_EXTERNAL], n_in = 0, n_out = 0;
  int chirality[HG_PROCESS_MAX_EXTERNAL];
  for (int i = 0; i < s->n; ++i) {
    const hg_particle *p = hg_model_particle(hg_species_particle(s->species[i]));
    if (p->spin == HG_SPIN_VECTOR && p->mass != HG_PARAM_ZERO && (config >> bit_of[i] & 3u) == 3u)
      return 0;
    if (p->spin != HG_SPIN_FERMION) continue;
    const int in_role = hg_colour_ordered_flows_in(s, i), incoming = i < s->n_in;
    chirality[i] = ((config >> bit_of[i] & 1) ? 1 : -1) * (incoming == in_role ? 1 : -1);
    if (in_role)
      in_end[n_in++] = i;
    else
      out_end[n_out++] = i;
  }
  /* every permutation of the out-type ends against the in-type ones */
  unsigned char perm[HG_PROCESS_MAX_EXTERNAL];
  for (int k = 0; k < n_out; ++k) perm[k] = (unsigned char)k;
  for (;;) {
    int ok = n_in == n_out;
    for (int k = 0; k < n_in && ok; ++k) {
      const int i = in_end[k], o = out_end[perm[k]];
      const hg_particle *pi = hg_model_particle(hg_species_particle(s->species[i]));
      const hg_particle *po = hg_model_particle(hg_species_particle(s->species[o]));
      const int massless = pi->mass == HG_PARAM_ZERO && po->mass == HG_PARAM_ZERO;
      const int left = pi != po || left_only(pi) || left_only(po);
      ok = one_line(s->species[i], s->species[o]) &&
           (!massless || (chirality[i] == chirality[o] && (!left || chirality[i] < 0)));
    }
    if (ok) return 1;
    /* next permutation */
    int a = n_out - 2;
    while (a >= 0 && perm[a] >= perm[a + 1]) --a;
    if (a < 0) return 0;
    int c = n_out - 1;
    while (perm[c] <= perm[a]) --c;
    unsigned char t = perm[a];
    perm[a] = perm[c];
    perm[c] = t;
    for (int l = a + 1, r = n_out - 1; l < r; ++l, --r) {
      t = perm[l];
      perm[l] = perm[r];
      perm[r] = t;
    }
  }
}

int hg_fr_configurations(const hg_process_spec *spec, uint32_t **configs, size_t *n) {
  int bit_of[HG_PROCESS_MAX_EXTERNAL];
  const size_t max_configs = (size_t)1 << hg_diagrams_helicity_layout(spec, bit_of);
  *n = 0;
  *configs = malloc(max_configs * sizeof **configs);
  if (*configs == NULL) return -1;
  for (uint32_t config = 0; config < max_configs; ++config)
    if (can_be_nonzero(spec, bit_of, config)) (*configs)[(*n)++] = config;
  return 0;
}

/* The couplings the tape uses, each once: (kind, charge, slot); index 0 is g_s. */
typedef struct {
  hg_coupling_kind kind;
  double charge;
  int slot;
  int boson; /* a boson self-coupling: one complex number, in both chiral places */
} coupling_entry;

static int coupling_index(coupling_entry *table, int *n, const hg_fr_op *op) {
  const int kind = op->kind >= HG_FR_AMPLITUDE ? op->kind - HG_FR_AMPLITUDE : op->kind;
  const int fermion_vertex = op->kind >= HG_FR_AMPLITUDE
                                 ? kind == HG_AMP_IOV || kind == HG_AMP_IOS
                                 : kind == HG_WF_FVI || kind == HG_WF_FVO || kind == HG_WF_JIO ||
                                       kind == HG_WF_FSI || kind == HG_WF_FSO || kind == HG_WF_HIO;
  coupling_entry e = {op->coupling, op->coupling == HG_COUPLING_PHOTON ? op->charge : 0,
                      op->coupling == HG_COUPLING_EW ? op->coupling_slot : 0,
                      op->coupling == HG_COUPLING_EW && !fermion_vertex};
  if (e.kind == HG_COUPLING_STRONG) return 0;
  for (int k = 0; k < *n; ++k)
    if (table[k].kind == e.kind && table[k].charge == e.charge && table[k].slot == e.slot &&
        table[k].boson == e.boson)
      return k;
  if (*n == 127) return -1;
  table[*n] = e;
  return (*n)++;
}

/* The index of coefficient (re, im) in the table, added when new. */
static int coefficient(double *table, int *n, double re, double im) {
  for (int k = 0; k < *n; ++k)
    if (table[2 * k] == re && table[2 * k + 1] == im) return k;
  if (*n == 65535) return -1;
  table[2 * *n] = re;
  table[2 * *n + 1] = im;
  return (*n)++;
}

static const char *const kind_names[HG_FR_AMPLITUDE + 10] = {
    "EXTERNAL", "FVI",   "FVO", "JIO",  "JVV",   "JGGG", "FSI",  "FSO",  "HIO",
    "JVVC",     "JVVVC", "JVS", "HVV",  "JVSS",  "HVVS", "HSS",  "HSSS", "IOV",
    "VVV",      "GGGG",  "IOS", "VVVC", "VVVVC", "VVS",  "VVSS", "SSS",  "SSSS"};

/* The words of the flows' strings (amplitudes/flow_recursion_tape.h, sampled colours). */
static size_t colour_table_words(const hg_flow_recursion *fr) {
  size_t n = fr->n_flows;
  for (size_t f = 0; f < fr->n_flows; ++f) {
    n += 1 + fr->flows[f].n_strings;
    for (int k = 0; k < fr->flows[f].n_strings; ++k) n += fr->flows[f].s[k].length;
  }
  return n;
}

/* Writes them at w: where each flow starts (from w on), then each flow's strings. Their labels
 * are external positions (colour.h): the quarks' at the ends, the gluons' in the word. */
static void colour_table(const hg_flow_recursion *fr, uint32_t *w) {
  size_t at = fr->n_flows;
  for (size_t f = 0; f < fr->n_flows; ++f) {
    const hg_colour_term *flow = &fr->flows[f];
    w[f] = (uint32_t)at;
    w[at++] = flow->n_strings;
    for (int k = 0; k < flow->n_strings; ++k) {
      const hg_colour_string *str = &flow->s[k];
      const int trace = str->start == HG_COLOUR_LABEL_TRACE;
      const uint32_t start = trace ? HG_FR_COLOUR_TRACE : str->start,
                     end = trace ? HG_FR_COLOUR_TRACE : str->end;
      w[at++] = start | end << 8 | (uint32_t)str->length << 16;
      for (int j = 0; j < str->length; ++j) w[at++] = str->word[j];
    }
  }
}

/* The tape's buffers (amplitudes/flow_recursion_tape.h) and the program shape of its own. */
typedef struct {
  uint32_t *words;
  size_t n_words;
  double *reals;
  size_t n_reals;
  hg_fr_shape shape;
  int helicity_bits;
} fr_tables;

static void tables_free(fr_tables *t) {
  free(t->words);
  free(t->reals);
  t->words = NULL;
  t->reals = NULL;
}

/* A capacity rounded up to 2^k or 3 * 2^(k - 1), so that processes of similar size share a
 * program (amplitudes of one process run share the run's largest, rounded alike). */
static int bucket(int n) {
  int b = 4;
  while (b < n) b = (b & (b - 1)) == 0 ? b + b / 2 : b / 3 * 4;
  return b;
}

/* the work-items that run in lockstep on GPUs (an NVIDIA warp) */
#define HG_FR_LANES 32

typedef struct {
  uint32_t *words;
  size_t n_words, n_steps, ops_at, entries_at, terms_at; /* offsets within words */
  int n_slots;
} group_tables;

/* The work-group kernels' schedule of fr's operations (amplitudes/flow_recursion_tape.h), from
 * the serial tape's words (op_words, 3 per operation; target_words): steps of at most width
 * lanes, each step the operations whose currents earlier steps completed, by kind in runs of at
 * most HG_FR_LANES lanes that start at a multiple of it (kinds in the order the tape first
 * names them among the ready operations, each kind's in the tape's order, until the step is
 * full; gaps are kind 0), the currents given slots anew by their lives over the steps (from the
 * first step adding into one to the last reading it: a slot read for the last time in a step
 * takes a current first made in that step's gather, after its barrier), and per step one entry
 * per target, its terms in the order of the step's lanes. Its words, the steps, operations,
 * entries and terms one after the other, into g; 0, -1 when a field overflows, -2 when out of
 * memory. */
static int group_schedule(const hg_flow_recursion *fr, const uint32_t *op_words,
                          const uint32_t *target_words, int width, group_tables *g) {
  memset(g, 0, sizeof *g);
  const int n = fr->spec.n;
  const size_t n_ops = fr->n_ops, n_targets = fr->n_targets;
  /* each current its own number (the serial tape's slots are shared): externals 0..n-1 */
  int n_cur = n;
  for (size_t t = 0; t < n_targets; ++t) n_cur += fr->targets[t].first != 0;
  int *in_slot = malloc(((size_t)fr->n_slots + 1) * sizeof *in_slot);
  int *args = malloc((4 * n_ops + 1) * sizeof *args);
  int *target_cur = malloc((n_targets + 1) * sizeof *target_cur);
  int *remaining = calloc((size_t)n_cur + 1, sizeof *remaining);
  int *first_write = malloc(((size_t)n_cur + 1) * sizeof *first_write);
  int *free_at = malloc(((size_t)n_cur + 1) * sizeof *free_at);
  int *slot_of = malloc(((size_t)n_cur + 1) * sizeof *slot_of);
  int *free_slots = malloc(((size_t)n_cur + 1) * sizeof *free_slots);
  long *step_of = malloc((n_ops + 1) * sizeof *step_of);
  /* each step's lanes: an operation, or -1 (a gap); at most HG_FR_LANES lanes an operation */
  long *order = malloc((HG_FR_LANES * n_ops + 1) * sizeof *order);
  size_t *ready_ops = malloc((n_ops + 1) * sizeof *ready_ops);
  size_t *step_start = malloc((n_ops + 2) * sizeof *step_start);
  /* a step's targets: (key, operation in the step, coefficient), and each key's entry */
  size_t *key_entry = malloc(((size_t)n_cur + fr->n_flows + 1) * sizeof *key_entry);
  int status = in_slot == NULL || args == NULL || target_cur == NULL || remaining == NULL ||
                       first_write == NULL || free_at == NULL || slot_of == NULL ||
                       free_slots == NULL || step_of == NULL || order == NULL ||
                       step_start == NULL || key_entry == NULL || ready_ops == NULL
                   ? -2
                   : 0;
  if (status == 0) {
    int next = n;
    for (int s = 0; s < fr->n_slots; ++s) in_slot[s] = s < n ? s : -1;
    for (size_t o = 0; o < n_ops; ++o) {
      const hg_fr_op *op = &fr->ops[o];
      const int slots[4] = {op->a, op->b, op->c, op->d};
      for (int k = 0; k < 4; ++k) args[4 * o + k] = slots[k] >= 0 ? in_slot[slots[k]] : -1;
      for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t) {
        if (op->kind >= HG_FR_AMPLITUDE) {
          target_cur[t] = -1; /* a colour flow */
          continue;
        }
        if (fr->targets[t].first) in_slot[fr->targets[t].slot] = next++;
        target_cur[t] = in_slot[fr->targets[t].slot];
        ++remaining[target_cur[t]];
      }
      step_of[o] = -1;
    }
    for (int c = 0; c < n_cur; ++c) first_write[c] = free_at[c] = -1;
  }
  /* the steps: the operations whose currents are complete, by kind in runs of at most
   * HG_FR_LANES that start at a multiple of it (a GPU's warp then evaluates one kind of vertex:
   * it would take every kind among its work-items in turn), the gaps no operation (kind 0) */
  size_t placed = 0, lanes = 0;
  while (status == 0 && placed < n_ops) {
    step_start[g->n_steps] = lanes;
    size_t n_ready = 0;
    for (size_t o = 0; o < n_ops; ++o) {
      if (step_of[o] >= 0) continue;
      int ready = 1;
      for (int k = 0; k < 4; ++k) ready &= args[4 * o + k] < 0 || remaining[args[4 * o + k]] == 0;
      if (ready) ready_ops[n_ready++] = o;
    }
    if (n_ready == 0) {
      status = -1; /* no operation is ready: not a tape of this recursion */
      break;
    }
    /* the kinds in the order they first come among the ready operations */
    for (size_t r = 0; r < n_ready && lanes - step_start[g->n_steps] < (size_t)width; ++r) {
      const int kind = fr->ops[ready_ops[r]].kind;
      if (step_of[ready_ops[r]] >= 0) continue;
      size_t run = 0;
      for (size_t q = r; q < n_ready && lanes - step_start[g->n_steps] < (size_t)width; ++q) {
        const size_t o = ready_ops[q];
        if (fr->ops[o].kind != kind || step_of[o] >= 0) continue;
        step_of[o] = (long)g->n_steps;
        order[lanes++] = (long)o;
        ++placed;
        if (++run % HG_FR_LANES == 0) run = 0;
      }
      /* the next kind starts a run of its own */
      while (run > 0 && run % HG_FR_LANES != 0 && lanes - step_start[g->n_steps] < (size_t)width) {
        order[lanes++] = -1;
        ++run;
      }
    }
    while (lanes > step_start[g->n_steps] && order[lanes - 1] < 0) --lanes; /* no trailing gap */
    const int step = (int)g->n_steps++;
    for (size_t q = step_start[step]; q < lanes; ++q) {
      if (order[q] < 0) continue;
      const hg_fr_op *op = &fr->ops[order[q]];
      for (int k = 0; k < 4; ++k) {
        const int c = args[4 * order[q] + k];
        if (c >= n && free_at[c] < step) free_at[c] = step;
      }
      for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t) {
        const int c = target_cur[t];
        if (c < 0) continue;
        --remaining[c];
        if (first_write[c] < 0) first_write[c] = step;
        if (free_at[c] < step + 1) free_at[c] = step + 1; /* written here, so live after */
      }
    }
  }
  step_start[g->n_steps] = lanes;
  /* the slots: externals keep 0..n-1; a slot freed in a step serves currents first made there */
  int peak = n, n_free = 0;
  for (int c = 0; c < n; ++c) slot_of[c] = c;
  for (size_t k = 0; status == 0 && k < g->n_steps; ++k) {
    for (int c = n; c < n_cur; ++c)
      if (free_at[c] == (int)k && first_write[c] >= 0 && first_write[c] < (int)k)
        free_slots[n_free++] = slot_of[c];
    for (int c = n; c < n_cur; ++c)
      if (first_write[c] == (int)k) slot_of[c] = n_free > 0 ? free_slots[--n_free] : peak++;
  }
  g->n_slots = peak;
  if (status == 0 && peak > 0x7fff) status = -1;
  /* the words: steps, operations, entries, terms (at most one entry and one term per target) */
  if (status == 0) {
    g->ops_at = 4 * g->n_steps;
    g->entries_at = g->ops_at + 3 * lanes;
    g->terms_at = g->entries_at + 3 * n_targets;
    g->words = malloc((g->terms_at + n_targets + 1) * sizeof *g->words);
    if (g->words == NULL) status = -2;
  }
  size_t n_entries = 0, n_terms = 0;
  for (size_t k = 0; status == 0 && k < g->n_steps; ++k) {
    uint32_t *step = g->words + 4 * k;
    step[0] = (uint32_t)step_start[k];
    step[1] = (uint32_t)(step_start[k + 1] - step_start[k]);
    step[2] = (uint32_t)n_entries;
    const size_t first_entry = n_entries;
    /* the entries in the order their keys first appear, then their terms entry by entry */
    for (size_t q = step_start[k]; q < step_start[k + 1]; ++q) {
      if (order[q] < 0) continue;
      const hg_fr_op *op = &fr->ops[order[q]];
      for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t)
        key_entry[target_cur[t] >= 0 ? (size_t)target_cur[t]
                                     : (size_t)n_cur + (size_t)fr->targets[t].slot] = (size_t)-1;
    }
    for (size_t q = step_start[k]; q < step_start[k + 1]; ++q) {
      uint32_t *w = g->words + g->ops_at + 3 * q;
      if (order[q] < 0) { /* a gap: kind 0, no operation */
        w[0] = w[1] = w[2] = 0;
        continue;
      }
      const size_t o = (size_t)order[q];
      const hg_fr_op *op = &fr->ops[o];
      int slots[4];
      for (int m = 0; m < 4; ++m) slots[m] = args[4 * o + m] >= 0 ? slot_of[args[4 * o + m]] : 0;
      w[0] = op_words[3 * o] & 0xffffu; /* kind, mass, width, coupling; no targets */
      w[1] = (uint32_t)slots[0] | (uint32_t)slots[1] << 16;
      w[2] = (uint32_t)slots[2] | (uint32_t)slots[3] << 16;
      for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t) {
        const int c = target_cur[t];
        const size_t key = c >= 0 ? (size_t)c : (size_t)n_cur + (size_t)fr->targets[t].slot;
        if (key_entry[key] != (size_t)-1) continue;
        key_entry[key] = n_entries;
        uint32_t *e = g->words + g->entries_at + 3 * n_entries++;
        e[0] = c >= 0 ? (uint32_t)slot_of[c] | (uint32_t)(first_write[c] == (int)k) << 15
                      : (uint32_t)fr->targets[t].slot | 1u << 16;
        e[2] = 0;
      }
    }
    for (size_t e = first_entry; e < n_entries; ++e) {
      uint32_t *entry = g->words + g->entries_at + 3 * e;
      entry[1] = (uint32_t)n_terms;
      for (size_t q = step_start[k]; q < step_start[k + 1]; ++q) {
        if (order[q] < 0) continue;
        const hg_fr_op *op = &fr->ops[order[q]];
        for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t) {
          const int c = target_cur[t];
          const size_t key = c >= 0 ? (size_t)c : (size_t)n_cur + (size_t)fr->targets[t].slot;
          if (key_entry[key] != e) continue;
          g->words[g->terms_at + n_terms++] =
              (uint32_t)(q - step_start[k]) | (target_words[t] >> 16) << 16;
          ++entry[2];
        }
      }
    }
    step[3] = (uint32_t)(n_entries - first_entry);
  }
  if (status == 0) {
    /* the entries and terms as many as they came to */
    memmove(g->words + g->entries_at + 3 * n_entries, g->words + g->terms_at,
            n_terms * sizeof *g->words);
    g->terms_at = g->entries_at + 3 * n_entries;
    g->n_words = g->terms_at + n_terms;
  }
  free(in_slot);
  free(args);
  free(target_cur);
  free(remaining);
  free(first_write);
  free(free_at);
  free(slot_of);
  free(free_slots);
  free(step_of);
  free(order);
  free(ready_ops);
  free(step_start);
  free(key_entry);
  if (status != 0) {
    free(g->words);
    g->words = NULL;
  }
  return status;
}

/* The tables of fr, 0, or -1 when a table outgrows its field (slots and flows: 15 bits;
 * coefficients, targets of one operation: 16; couplings: 7), -2 when out of memory. */
static int make_tables(const hg_flow_recursion *fr, int gauge_particle, size_t real_size,
                       int group_width, fr_tables *t) {
  memset(t, 0, sizeof *t);
  const hg_process_spec *s = &fr->spec;
  int bit_of[HG_PROCESS_MAX_EXTERNAL];
  t->helicity_bits = hg_diagrams_helicity_layout(s, bit_of);
  /* the operation kinds the tape holds: the interpreter compiles only those */
  hg_fr_shape *shape = &t->shape;
  shape->n_particles = s->n;
  shape->slots = fr->n_slots;
  shape->flows = (int)fr->n_flows;
  for (size_t o = 0; o < fr->n_ops; ++o) {
    shape->uses |= 1u << fr->ops[o].kind;
    shape->ew |= fr->ops[o].coupling == HG_COUPLING_EW || mass_code(fr->ops[o].mass) > 1;
  }
  for (int i = 0; i < s->n; ++i)
    shape->ew |= mass_code(hg_model_particle(hg_species_particle(s->species[i]))->mass) > 1;
  size_t n_configs = 0;
  const size_t max_configs = (size_t)1 << t->helicity_bits;
  uint32_t *configs = malloc(max_configs * sizeof *configs);
  double *coefs = malloc(2 * 65536 * sizeof *coefs);
  coupling_entry couplings[128];
  int n_coefs = 0, n_couplings = 1;
  couplings[0] = (coupling_entry){HG_COUPLING_STRONG, 0, 0, 0};
  const size_t ops_at = HG_FR_HEADER, targets_at = ops_at + 3 * fr->n_ops,
               configs_at = targets_at + fr->n_targets;
  /* the words up to the configurations' end, then externals, couplings (at most 128) and the
   * flows' strings */
  const size_t colour_words = colour_table_words(fr);
  uint32_t *w = malloc((configs_at + max_configs + (size_t)s->n + 128 + colour_words) * sizeof *w);
  int status = configs == NULL || coefs == NULL || w == NULL ? -2 : 0;
  for (uint32_t config = 0; status == 0 && config < max_configs; ++config)
    if (can_be_nonzero(s, bit_of, config)) configs[n_configs++] = config;
  for (size_t o = 0; o < fr->n_ops && status == 0; ++o) {
    const hg_fr_op *op = &fr->ops[o];
    const unsigned c = op->c >= 0 ? (unsigned)op->c : 0u, d = op->d >= 0 ? (unsigned)op->d : 0u;
    const int coupling = coupling_index(couplings, &n_couplings, op);
    /* the targets follow each other in the operations' order: first_target is a running sum */
    if (coupling < 0 || op->n_targets >= 1u << 16 || op->a > 0xffff || op->b > 0xffff ||
        c > 0xffff || d > 0xffff ||
        op->first_target != (o ? fr->ops[o - 1].first_target + fr->ops[o - 1].n_targets : 0))
      status = -1;
    w[ops_at + 3 * o] = (unsigned)op->kind | mass_code(op->mass) << 5 | (unsigned)op->width << 8 |
                        (unsigned)(coupling & 127) << 9 | (unsigned)op->n_targets << 16;
    w[ops_at + 3 * o + 1] = (unsigned)op->a | (unsigned)op->b << 16;
    w[ops_at + 3 * o + 2] = c | d << 16;
  }
  for (size_t k = 0; k < fr->n_targets && status == 0; ++k) {
    const int coef = coefficient(coefs, &n_coefs, fr->targets[k].re, fr->targets[k].im);
    if (coef < 0 || fr->targets[k].slot > 0x7fff) status = -1;
    w[targets_at + k] = (unsigned)fr->targets[k].slot |
                        (unsigned)(fr->targets[k].first != 0) << 15 | (unsigned)coef << 16;
  }
  if (status == 0) {
    memcpy(w + configs_at, configs, n_configs * sizeof *configs);
    const size_t externals_at = configs_at + n_configs, couplings_at = externals_at + (size_t)s->n;
    for (int i = 0; i < s->n; ++i)
      w[externals_at + (size_t)i] = external(s, i, bit_of[i] & 31, gauge_particle);
    t->reals = malloc(((size_t)2 * n_coefs + (size_t)n_couplings) * sizeof *t->reals);
    if (t->reals == NULL) status = -2;
    for (int k = 0; k < n_couplings && status == 0; ++k) {
      const coupling_entry *e = &couplings[k];
      const uint32_t kind = e->kind == HG_COUPLING_STRONG   ? HG_FR_CPL_STRONG
                            : e->kind == HG_COUPLING_PHOTON ? HG_FR_CPL_PHOTON
                            : e->boson                      ? HG_FR_CPL_BOSON
                                                            : HG_FR_CPL_PAIR;
      w[couplings_at + (size_t)k] = kind | (uint32_t)e->slot << 8;
      t->reals[2 * (size_t)n_coefs + (size_t)k] = e->kind == HG_COUPLING_PHOTON ? e->charge : 0.0;
    }
    if (status == 0) memcpy(t->reals, coefs, 2 * (size_t)n_coefs * sizeof *coefs);
    w[HG_FR_N_OPS] = (uint32_t)fr->n_ops;
    w[HG_FR_N_FLOWS] = (uint32_t)fr->n_flows;
    w[HG_FR_N_CONFIGS] = (uint32_t)n_configs;
    w[HG_FR_N_COUPLINGS] = (uint32_t)n_couplings;
    w[HG_FR_N_SLOTS] = (uint32_t)fr->n_slots;
    w[HG_FR_OPS_AT] = (uint32_t)ops_at;
    w[HG_FR_TARGETS_AT] = (uint32_t)targets_at;
    w[HG_FR_CONFIGS_AT] = (uint32_t)configs_at;
    w[HG_FR_EXTERNALS_AT] = (uint32_t)externals_at;
    w[HG_FR_COUPLINGS_AT] = (uint32_t)couplings_at;
    w[HG_FR_CHARGES_AT] = (uint32_t)(2 * n_coefs);
    const size_t colours_at = couplings_at + (size_t)n_couplings;
    colour_table(fr, w + colours_at);
    w[HG_FR_COLOURS_AT] = (uint32_t)colours_at;
    t->n_words = colours_at + colour_words;
    for (int k = HG_FR_N_CHUNKS; k < HG_FR_HEADER; ++k) w[k] = 0;
    group_tables g = {0};
    if (group_width > 0) /* the work-group kernels' schedule after the rest */
      status = group_schedule(fr, w + ops_at, w + targets_at, group_width, &g);
    uint32_t *more =
        status == 0 && g.words != NULL ? realloc(w, (t->n_words + g.n_words) * sizeof *w) : NULL;
    if (status == 0 && g.words != NULL && more == NULL) status = -2;
    if (more != NULL) {
      w = more;
      memcpy(w + t->n_words, g.words, g.n_words * sizeof *w);
      w[HG_FR_N_CHUNKS] = (uint32_t)g.n_steps;
      w[HG_FR_CHUNKS_AT] = (uint32_t)t->n_words;
      w[HG_FR_GROUP_OPS_AT] = (uint32_t)(t->n_words + g.ops_at);
      w[HG_FR_ENTRIES_AT] = (uint32_t)(t->n_words + g.entries_at);
      w[HG_FR_TERMS_AT] = (uint32_t)(t->n_words + g.terms_at);
      t->n_words += g.n_words;
      shape->group_width = group_width;
      shape->group_slots = g.n_slots;
    }
    free(g.words);
    t->n_reals = 2 * (size_t)n_coefs + (size_t)n_couplings;
    /* word offsets are 32 bits wide */
    if (t->n_words >= (size_t)1 << 31) status = -1;
  }
  shape->couplings = n_couplings;
  shape->tape_bytes = t->n_words * sizeof(uint32_t) + t->n_reals * real_size;
  free(configs);
  free(coefs);
  t->words = w;
  if (status != 0) tables_free(t);
  return status;
}

void hg_fr_shape_merge(hg_fr_shape *into, const hg_fr_shape *shape) {
  if (into->n_particles == 0) {
    *into = *shape;
    return;
  }
  if (shape->slots > into->slots) into->slots = shape->slots;
  if (shape->flows > into->flows) into->flows = shape->flows;
  if (shape->couplings > into->couplings) into->couplings = shape->couplings;
  if (shape->tape_bytes > into->tape_bytes) into->tape_bytes = shape->tape_bytes;
  if (shape->n_particles > into->n_particles) into->n_particles = shape->n_particles;
  if (shape->group_slots > into->group_slots) into->group_slots = shape->group_slots;
  if (shape->group_width > into->group_width) into->group_width = shape->group_width;
  into->uses |= shape->uses;
  into->ew |= shape->ew;
}

/* The generated header: what the program fixes (shape, its capacities rounded to buckets), and
 * where the tape lives: in the constant address space where the largest tape of the shape fits
 * the device's constant buffer, else in global memory. */
static char *source(const hg_fr_shape *shape, int constant) {
  hg_strbuf b = {0};
  /* no process text here: every process of the same shape shares one program (hg_program_get
   * keys programs by their source) */
  hg_strbuf_printf(&b,
                   "/* generated by host/amplitude/flow_recursion_amplitude.c: the quark-line "
                   "recursion's capacities */\n#define N_PARTICLES %d\n#define FR_SLOTS %d\n"
                   "#define FR_FLOWS %d\n#define FR_COUPLINGS %d\n#define HG_FR_TAPE %s\n",
                   shape->n_particles, bucket(shape->slots), bucket(shape->flows),
                   bucket(shape->couplings) < 128 ? bucket(shape->couplings) : 128,
                   constant ? "__constant" : "const __global");
  for (int k = 1; k < HG_FR_AMPLITUDE + 10; ++k)
    if (shape->uses >> k & 1u) hg_strbuf_printf(&b, "#define FR_USES_%s 1\n", kind_names[k]);
  if (shape->ew) hg_strbuf_printf(&b, "#define HG_PROCESS_EW 1\n");
  if (shape->group_width > 0)
    hg_strbuf_printf(&b, "#define FR_GROUP 1\n#define FR_WG_SIZE %d\n#define FR_WG_SLOTS %d\n",
                     shape->group_width, bucket(shape->group_slots));
  if (b.failed) {
    hg_strbuf_free(&b);
    return NULL;
  }
  return b.data;
}

/* The work-group kernels' work-items (flow_recursion_group.cl), 0 for the kernels of one event
 * per work-item: those unless HEGETCL_FR_KERNEL=group is in the environment (on an H200 the
 * work-group kernels were 0.6 to 0.7 times as fast: docs/performance.md, "Quark lines in
 * work-groups"); HEGETCL_FR_GROUP=SIZE (a power of two from 32 to 256) sets their size, 64 by
 * default. */
static int group_width(void) {
  const char *kernel = getenv("HEGETCL_FR_KERNEL");
  if (kernel == NULL || strcmp(kernel, "group") != 0) return 0;
  const char *size = getenv("HEGETCL_FR_GROUP");
  const int given = size != NULL ? atoi(size) : 0;
  return given >= 32 && given <= 256 && (given & (given - 1)) == 0 ? given : 64;
}

/* The lanes of the work-group schedule's steps together (gaps included), for HEGETCL_FR_DUMP. */
static unsigned group_lanes(const fr_tables *t) {
  unsigned lanes = 0;
  for (uint32_t k = 0; k < t->words[HG_FR_N_CHUNKS]; ++k)
    lanes += t->words[t->words[HG_FR_CHUNKS_AT] + 4 * k + 1];
  return lanes;
}

/* Whether the work-group kernels' local arrays (flow_recursion_group.cl) for shape fit the
 * device's local memory. */
static int group_fits(const hegetcl_context *ctx, const hg_fr_shape *shape, size_t real,
                      size_t sum) {
  const size_t wave = 12 * real, width = (size_t)shape->group_width;
  const size_t bytes = ((size_t)bucket(shape->group_slots) + width) * wave +
                       (size_t)bucket(shape->flows) * 2 * real + width * sum;
  return width > 0 && bytes <= (size_t)ctx->info.local_memory_bytes;
}

static hegetcl_status too_large(hegetcl_context *ctx, const hg_process_spec *spec,
                                const hg_flow_recursion *fr) {
  return hg_fail(ctx, HEGETCL_ERR_INPUT,
                 "process \"%s\": its recursion (%d current slots, %zu vertex operations) "
                 "outgrows the recursive engine's tables; use the diagrams engine (--engine "
                 "diagrams)",
                 spec->text, fr->n_slots, fr->n_ops);
}

int hg_fr_shape_of(hegetcl_context *ctx, const hegetcl_process *process, hg_fr_shape *out) {
  memset(out, 0, sizeof *out);
  hg_process_spec spec;
  char error[1024];
  if (process->text == NULL || process->engine != HEGETCL_ENGINE_RECURSIVE ||
      hg_process_parse(process->text, &spec, error, sizeof error) != 0 ||
      !hg_recursive_uses_flows(&spec))
    return 0; /* not the quark-line recursion's (or an error the amplitude itself reports) */
  hg_flow_recursion fr;
  if (hg_flow_recursion_build(&spec, process->width_scheme == HEGETCL_WIDTH_ALL, &fr, error,
                              sizeof error) != 0)
    return 0; /* the amplitude reports it */
  fr_tables t;
  const size_t real_size =
      process->precision == HEGETCL_PRECISION_DOUBLE ? sizeof(double) : sizeof(float);
  const int status = make_tables(&fr, -1, real_size, group_width(), &t);
  hg_flow_recursion_free(&fr);
  if (status == -2) {
    hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine's tables");
    return -1;
  }
  if (status != 0) return 0;
  *out = t.shape;
  tables_free(&t);
  return 1;
}

/* A buffer holding bytes from data. */
static hegetcl_status tape_buffer(hegetcl_context *ctx, const void *data, size_t bytes,
                                  const char *text, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)data,
                        &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "making the recursion tape of %s", text);
}

hegetcl_status hg_flow_recursion_amplitude_build(hegetcl_amplitude *amp,
                                                 const hg_process_spec *spec, int gauge_particle) {
  hegetcl_context *ctx = amp->ctx;
  const hegetcl_process *p = &amp->process;
  hg_flow_recursion fr;
  char error[1024];
  if (hg_flow_recursion_build(spec, p->width_scheme == HEGETCL_WIDTH_ALL, &fr, error,
                              sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  amp->me_factor = 1.0 / fr.iden;
  amp->n_orderings = fr.n_flows;
  const int is_double = p->precision == HEGETCL_PRECISION_DOUBLE;
  fr_tables t;
  const int made = make_tables(&fr, gauge_particle, is_double ? sizeof(double) : sizeof(float),
                               group_width(), &t);
  if (made != 0) {
    const hegetcl_status status =
        made == -1
            ? too_large(ctx, spec, &fr)
            : hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine's tables");
    hg_flow_recursion_free(&fr);
    return status;
  }
  amp->helicity_bits = (unsigned)t.helicity_bits;
  /* the program's shape: the caller's (a process run's groups, which then share one program)
   * where it holds this tape, else the tape's own */
  hg_fr_shape shape = t.shape;
  if (amp->fr_shape != NULL && amp->fr_shape->n_particles == shape.n_particles)
    hg_fr_shape_merge(&shape, amp->fr_shape);
  /* float amplitudes, colour sum in double: HEGETCL_CO_MIXED=1 (as the gluon kernels) */
  const char *mixed = getenv("HEGETCL_CO_MIXED");
  const int colour_double = is_double || (mixed != NULL && strcmp(mixed, "1") == 0);
  /* the work-group kernels where asked for and their local arrays fit */
  const size_t real = is_double ? sizeof(double) : sizeof(float);
  const int use_group = group_fits(ctx, &shape, real, colour_double ? sizeof(double) : real);
  if (!use_group) shape.group_width = 0;
  cl_ulong constant_size = 0;
  cl_int err = clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                               sizeof constant_size, &constant_size, NULL);
  /* room left for the program's own constants; HEGETCL_FR_TAPE=global (tests) takes global
   * memory where the tape would fit; the work-group kernels read it in global memory (their
   * work-items read different operations at once, which the constant cache serialises) */
  const char *where = getenv("HEGETCL_FR_TAPE");
  const int constant = err == CL_SUCCESS && shape.tape_bytes <= constant_size / 8 * 7 &&
                       !(where != NULL && strcmp(where, "global") == 0) && !use_group;
  char *generated = source(&shape, constant);
  hegetcl_status status =
      generated == NULL ? hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine")
                        : hg_build_options(ctx, p->precision, 0, amp->options, sizeof amp->options);
  if (generated != NULL && getenv("HEGETCL_FR_DUMP") != NULL)
    fprintf(stderr,
            "/* %s: %zu vertex operations, %zu targets, %zu colour flows, %d current slots for %d "
            "off-shell currents, %zu tape bytes; work-group kernels: %s (%u steps, %u lanes, %d "
            "slots) */\n%s",
            spec->text, fr.n_ops, fr.n_targets, fr.n_flows, fr.n_slots, fr.n_currents,
            t.shape.tape_bytes, use_group ? "yes" : "no", (unsigned)t.words[HG_FR_N_CHUNKS],
            group_lanes(&t), t.shape.group_slots, generated);
  if (status == HEGETCL_OK && colour_double && !is_double) {
    const size_t used = strlen(amp->options);
    snprintf(amp->options + used, sizeof amp->options - used, " -DHG_CO_COLOUR_DOUBLE");
  }
  if (status == HEGETCL_OK)
    status = hg_process_program(amp, generated, "amplitudes/flow_recursion.cl", 1);
  free(generated);
  if (status == HEGETCL_OK)
    status =
        hg_amplitude_colour_matrix(amp, fr.colour_matrix, fr.n_flows, colour_double, spec->text);
  /* the tape: its words, and its reals in the program's precision */
  void *reals = is_double ? (void *)t.reals : malloc(t.n_reals * sizeof(float));
  if (status == HEGETCL_OK && reals == NULL)
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursion tape");
  if (status == HEGETCL_OK && !is_double)
    for (size_t k = 0; k < t.n_reals; ++k) ((float *)reals)[k] = (float)t.reals[k];
  if (status == HEGETCL_OK)
    status = tape_buffer(ctx, t.words, t.n_words * sizeof(uint32_t), spec->text, &amp->tape);
  if (status == HEGETCL_OK)
    status = tape_buffer(ctx, reals, t.n_reals * (is_double ? sizeof(double) : sizeof(float)),
                         spec->text, &amp->tape_reals);
  if (!is_double) free(reals);
  if (status == HEGETCL_OK) {
    /* after the colour matrix (arguments 5 and 6) */
    err = clSetKernelArg(amp->summed, 6, sizeof(cl_mem), &amp->tape);
    err |= clSetKernelArg(amp->summed, 7, sizeof(cl_mem), &amp->tape_reals);
    err |= clSetKernelArg(amp->helicity, 7, sizeof(cl_mem), &amp->tape);
    err |= clSetKernelArg(amp->helicity, 8, sizeof(cl_mem), &amp->tape_reals);
    status =
        hg_cl_check(ctx, err, "clSetKernelArg", "setting the recursion tape of %s", spec->text);
    /* the work-group kernels: one event a group (hg_amplitude_local_size, launch) */
    amp->summed_group = use_group ? (size_t)shape.group_width : 0;
    amp->summed_group_events = use_group ? 1 : 0;
  }
  /* sampled colours: the same tape after the colour kernel's own arguments (8 of them) */
  if (status == HEGETCL_OK)
    status = hg_kernel_create(ctx, amp->program, HG_KERNEL_AMPLITUDE_COLOUR, &amp->colour_kernel);
  if (status == HEGETCL_OK) {
    err = clSetKernelArg(amp->colour_kernel, 8, sizeof(cl_mem), &amp->tape);
    err |= clSetKernelArg(amp->colour_kernel, 9, sizeof(cl_mem), &amp->tape_reals);
    status = hg_cl_check(ctx, err, "clSetKernelArg", "setting the recursion tape of %s's %s",
                         spec->text, HG_KERNEL_AMPLITUDE_COLOUR);
  }
  for (int i = 0; i < spec->n; ++i) {
    const hg_particle *particle = hg_model_particle(hg_species_particle(spec->species[i]));
    amp->colour_dims[i] = particle->pdg == 21 ? 8 : particle->colour == 3 ? 3 : 1;
  }
  tables_free(&t);
  hg_flow_recursion_free(&fr);
  return status;
}
