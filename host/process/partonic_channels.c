/* SPDX-License-Identifier: MIT */
/* Multiparticle labels expanded into partonic channels, kept when they have a tree diagram, and
 * grouped by relabelling with equivalent particles and swapping the incoming pair. */
#include "partonic_channels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams.h"
#include "model.h"

#define MAX_SPECIES 64 /* species of one label, and of the model (2 per particle) */
#define MAX_PERMUTATIONS 5040

/* MadGraph's default multiparticles (its input/multiparticles_default.txt), the particles kept
 * only where the model has them; the five-flavour option adds b b~ to p and j. */
typedef struct {
  const char *label;
  const char *names[12];
} label_row;
static const label_row label_rows[] = {
    {"p", {"g", "u", "c", "d", "s", "u~", "c~", "d~", "s~", NULL}},
    {"j", {"g", "u", "c", "d", "s", "u~", "c~", "d~", "s~", NULL}},
    {"l+", {"e+", "mu+", NULL}},
    {"l-", {"e-", "mu-", NULL}},
    {"vl", {"ve", "vm", "vt", NULL}},
    {"vl~", {"ve~", "vm~", "vt~", NULL}},
};
#define N_LABELS ((int)(sizeof label_rows / sizeof label_rows[0]))

/* The species of a label under options, in MadGraph's order ("g u c d s b u~ c~ d~ s~ b~" with
 * five flavours); 0 when the label is unknown or none of its particles is in the model. */
static int expand_label(const char *label, const hg_channel_options *options, int *species) {
  int n = 0;
  for (int r = 0; r < N_LABELS; ++r) {
    if (strcmp(label, label_rows[r].label) != 0) continue;
    const int partons = strcmp(label, "p") == 0 || strcmp(label, "j") == 0;
    for (int k = 0; label_rows[r].names[k] != NULL; ++k) {
      const char *name = label_rows[r].names[k];
      const int s = hg_species_from_name(name);
      if (s >= 0) species[n++] = s;
      /* b after s, b~ after s~ */
      if (partons && options->five_flavour && (strcmp(name, "s") == 0 || strcmp(name, "s~") == 0)) {
        const int b = hg_species_from_name(name[1] ? "b~" : "b");
        if (b >= 0) species[n++] = b;
      }
    }
  }
  return n;
}

void hg_partonic_labels(const hg_channel_options *options, char *text, size_t size) {
  size_t used = 0;
  text[0] = '\0';
  for (int r = 0; r < N_LABELS && used < size; ++r) {
    if (r > 0 && strcmp(label_rows[r].label, "j") == 0) continue; /* "p = j = ..." */
    int species[MAX_SPECIES];
    const int n = expand_label(label_rows[r].label, options, species);
    if (n == 0) continue;
    used += (size_t)snprintf(text + used, size - used, "%s%s%s =", used ? "; " : "",
                             label_rows[r].label, strcmp(label_rows[r].label, "p") ? "" : " = j");
    for (int k = 0; k < n && used < size; ++k)
      used += (size_t)snprintf(text + used, size - used, " %s", hg_species_name(species[k]));
  }
}

/* One token of the process: the species it stands for. */
typedef struct {
  char token[16];
  int n;
  int species[MAX_SPECIES];
} slot;

/* A channel found: species in its order (incoming, then the final state in canonical order). */
typedef struct {
  int species[HG_PROCESS_MAX_EXTERNAL];
  unsigned n_diagrams;
  int key[HG_PROCESS_MAX_EXTERNAL]; /* the smallest image under relabelling and swapping */
  char text[160];
} candidate;

static int fail(char *error, size_t size, const char *process, const char *why) {
  snprintf(error, size, "process \"%s\": %s", process, why);
  return -1;
}

static int compare_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Particles that may replace each other: same spin, colour, charge, mass and width parameter,
 * and both self-conjugate or neither (the SM fixes the weak quantum numbers by these). */
static int equivalent(int p, int q) {
  const hg_particle *a = hg_model_particle(p), *b = hg_model_particle(q);
  return a->spin == b->spin && a->colour == b->colour && a->charge == b->charge &&
         a->mass == b->mass && a->width == b->width &&
         (strcmp(a->name, a->antiname) == 0) == (strcmp(b->name, b->antiname) == 0);
}

/* Every permutation of the model's particles that maps each particle to an equivalent one. */
typedef struct {
  int n, n_particles;
  int (*perm)[MAX_SPECIES / 2];
} permutation_set;

static void permute_from(permutation_set *set, int *current, int *used, int particle) {
  if (set->n < 0) return;
  if (particle == set->n_particles) {
    if (set->n == MAX_PERMUTATIONS) {
      set->n = -1;
      return;
    }
    memcpy(set->perm[set->n++], current, sizeof(int) * (size_t)set->n_particles);
    return;
  }
  for (int q = 0; q < set->n_particles; ++q) {
    if (used[q] || !equivalent(particle, q)) continue;
    used[q] = 1;
    current[particle] = q;
    permute_from(set, current, used, particle + 1);
    used[q] = 0;
  }
}

static int map_species(const int *perm, int species) {
  return 2 * perm[hg_species_particle(species)] + hg_species_is_anti(species);
}

/* The image of channel c (n particles) under perm with the incoming pair swapped or not, final
 * state sorted: the form two channels of one group share. */
static void image(const int *perm, int swap, const int *c, int n, int *out) {
  out[0] = map_species(perm, c[swap ? 1 : 0]);
  out[1] = map_species(perm, c[swap ? 0 : 1]);
  for (int i = 2; i < n; ++i) out[i] = map_species(perm, c[i]);
  qsort(out + 2, (size_t)(n - 2), sizeof(int), compare_int);
}

/* Whether electric charge (in thirds) and colour triality balance: true in every model, so a
 * quick filter before the parser's full checks. */
static int charge_and_colour_balance(const int *species, int n) {
  long thirds = 0;
  int triality = 0;
  for (int i = 0; i < n; ++i) {
    const int sign = i < 2 ? 1 : -1, s = species[i];
    const double q = 3 * hg_species_charge(s);
    thirds += sign * (long)(q < 0 ? q - 0.5 : q + 0.5);
    if (hg_model_particle(hg_species_particle(s))->colour == 3)
      triality += sign * (hg_species_is_anti(s) ? -1 : 1);
  }
  return thirds == 0 && triality % 3 == 0;
}

static int species_text(const int *species, int n, char *text, size_t size) {
  size_t used = 0;
  for (int i = 0; i < n; ++i)
    used += (size_t)snprintf(text + used, size - used, "%s%s%s", i == 0 ? "" : " ",
                             i == 2 ? "> " : "", hg_species_name(species[i]));
  return used < size ? 0 : -1;
}

/* The final states: every assignment of species to the outgoing slots, each multiset once, in
 * its lexicographically first assignment (the user's order, labels in their own order). */
static int final_states(const slot *slots, int n_out, int **out, size_t *count, char *error,
                        size_t error_size, const char *process) {
  const size_t row = sizeof(int) * (size_t)n_out;
  size_t capacity = 64, n = 0;
  int *states = malloc(capacity * row), *sorted_states = malloc(capacity * row);
  int index[HG_PROCESS_MAX_EXTERNAL] = {0};
  int status = -1;
  if (states == NULL || sorted_states == NULL) {
    fail(error, error_size, process, "no memory for the final states");
    goto done;
  }
  for (;;) {
    /* slots with the same token take non-decreasing indices: each multiset of one label once */
    int ordered = 1;
    for (int i = 1; i < n_out && ordered; ++i)
      for (int k = 0; k < i; ++k)
        if (strcmp(slots[k].token, slots[i].token) == 0 && index[k] > index[i]) ordered = 0;
    if (ordered) {
      int state[HG_PROCESS_MAX_EXTERNAL], sorted[HG_PROCESS_MAX_EXTERNAL];
      for (int i = 0; i < n_out; ++i) state[i] = sorted[i] = slots[i].species[index[i]];
      qsort(sorted, (size_t)n_out, sizeof(int), compare_int);
      int seen = 0;
      for (size_t k = 0; k < n && !seen; ++k)
        seen = memcmp(sorted_states + k * (size_t)n_out, sorted, row) == 0;
      if (!seen) {
        if (n == capacity) {
          int *grown = realloc(states, 2 * capacity * row);
          if (grown != NULL) states = grown;
          int *grown_sorted = grown ? realloc(sorted_states, 2 * capacity * row) : NULL;
          if (grown_sorted == NULL) {
            fail(error, error_size, process, "no memory for the final states");
            goto done;
          }
          sorted_states = grown_sorted;
          capacity *= 2;
        }
        memcpy(states + n * (size_t)n_out, state, row);
        memcpy(sorted_states + n * (size_t)n_out, sorted, row);
        ++n;
      }
    }
    int i = n_out - 1; /* odometer, the last slot fastest */
    while (i >= 0 && ++index[i] == slots[i].n) --i;
    if (i < 0) break;
    /* the slots after i restart at the lowest index that keeps one label's indices
     * non-decreasing, so that only ordered assignments are visited */
    for (int k = i + 1; k < n_out; ++k) {
      index[k] = 0;
      for (int j = 0; j < k; ++j)
        if (strcmp(slots[j].token, slots[k].token) == 0 && index[j] > index[k]) index[k] = index[j];
    }
  }
  *out = states;
  states = NULL;
  *count = n;
  status = 0;
done:
  free(states);
  free(sorted_states);
  return status;
}

int hg_partonic_channels(const char *process, const hg_channel_options *options,
                         hg_channel_list *out, char *error, size_t error_size) {
  static const hg_channel_options defaults = {0};
  if (options == NULL) options = &defaults;
  if (process == NULL) process = "";
  out->n_channels = out->n_groups = 0;
  char buf[256], why[1024], labels[512];
  hg_partonic_labels(options, labels, sizeof labels);
  if (strlen(process) >= sizeof buf)
    return fail(error, error_size, "...", "too long: a process has at most 10 particles");
  strcpy(buf, process);

  slot slots[HG_PROCESS_MAX_EXTERNAL];
  int n = 0, n_in = -1;
  for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok != NULL;
       tok = strtok_r(NULL, " \t", &save)) {
    if (strcmp(tok, ">") == 0) {
      if (n_in >= 0)
        return fail(error, error_size, process,
                    "more than one '>': write incoming > outgoing, e.g. \"p p > t t~ j\"");
      n_in = n;
      continue;
    }
    if (n == HG_PROCESS_MAX_EXTERNAL) {
      snprintf(why, sizeof why, "more than %d particles: hegetcl takes processes up to 2 -> %d",
               HG_PROCESS_MAX_EXTERNAL, HG_PROCESS_MAX_EXTERNAL - 2);
      return fail(error, error_size, process, why);
    }
    slot *s = &slots[n];
    snprintf(s->token, sizeof s->token, "%s", tok);
    s->n = expand_label(tok, options, s->species);
    if (s->n == 0) {
      const int species = hg_species_from_name(tok);
      if (species < 0) {
        snprintf(why, sizeof why,
                 "unknown particle or label '%s'; the model knows the particles %s and the "
                 "labels %s (MadGraph's names, written apart: \"p p > t t~ j\")%s",
                 tok, hg_model_names(), labels,
                 strcmp(tok, "q") == 0 || strcmp(tok, "q~") == 0
                     ? "; MadGraph has no label q by default: write the quarks or use j"
                     : "");
        return fail(error, error_size, process, why);
      }
      s->n = 1;
      s->species[0] = species;
    }
    ++n;
  }
  if (n_in < 0)
    return fail(error, error_size, process,
                "no '>' between the incoming and the outgoing particles; write it as MadGraph "
                "does, e.g. \"p p > t t~ j\"");
  if (n_in != 2) {
    snprintf(why, sizeof why,
             "%d incoming particles: hegetcl computes 2 -> n scattering, so give exactly two "
             "before '>'",
             n_in);
    return fail(error, error_size, process, why);
  }
  if (n - n_in < 2)
    return fail(error, error_size, process,
                "fewer than two outgoing particles: give at least two after '>'");
  const int n_out = n - 2;

  int *finals = NULL;
  size_t n_finals = 0;
  if (final_states(slots + 2, n_out, &finals, &n_finals, error, error_size, process) != 0)
    return -1;

  /* channels that conserve charge, colour and flavour (hg_process_parse's checks) */
  candidate *cands = malloc(sizeof(candidate) * HG_MAX_PARTONIC_CHANNELS);
  int status = -1;
  size_t n_cands = 0, n_conserving = 0;
  permutation_set perms = {0, hg_model_particle_count(), NULL};
  perms.perm = malloc(sizeof *perms.perm * MAX_PERMUTATIONS);
  if (cands == NULL || perms.perm == NULL) {
    fail(error, error_size, process, "no memory for the channels");
    goto done;
  }
  for (int a = 0; a < slots[0].n; ++a)
    for (int b = 0; b < slots[1].n; ++b)
      for (size_t f = 0; f < n_finals; ++f) {
        int species[HG_PROCESS_MAX_EXTERNAL];
        species[0] = slots[0].species[a];
        species[1] = slots[1].species[b];
        memcpy(species + 2, finals + f * (size_t)n_out, sizeof(int) * (size_t)n_out);
        if (!charge_and_colour_balance(species, n)) continue; /* a quick look first */
        char text[160], parse_error[512];
        hg_process_spec spec;
        if (species_text(species, n, text, sizeof text) != 0 ||
            hg_process_parse(text, &spec, parse_error, sizeof parse_error) != 0)
          continue;
        if (n_conserving++ < HG_MAX_PARTONIC_CHANNELS) {
          candidate *c = &cands[n_conserving - 1];
          memcpy(c->species, species, sizeof species);
          snprintf(c->text, sizeof c->text, "%s", spec.text);
        }
      }
  if (n_conserving > HG_MAX_PARTONIC_CHANNELS) {
    snprintf(why, sizeof why,
             "%zu partonic channels conserve charge, colour and flavour, and hegetcl takes at "
             "most %d: write fewer labels (e.g. some partons explicitly, or fewer jets)",
             n_conserving, HG_MAX_PARTONIC_CHANNELS);
    fail(error, error_size, process, why);
    goto done;
  }
  /* keep those with a tree diagram */
  for (size_t i = 0; i < n_conserving; ++i) {
    hg_process_spec spec;
    hg_diagram_set set;
    char diagram_error[1024];
    if (hg_process_parse(cands[i].text, &spec, diagram_error, sizeof diagram_error) != 0) {
      fail(error, error_size, process, diagram_error);
      goto done;
    }
    if (hg_diagrams_build(&spec, 0, &set, diagram_error, sizeof diagram_error) != 0) {
      if (strstr(diagram_error, "no tree-level diagram") != NULL) continue;
      fail(error, error_size, process, diagram_error);
      goto done;
    }
    cands[i].n_diagrams = (unsigned)set.n_diagrams;
    hg_diagrams_free(&set);
    cands[n_cands++] = cands[i];
  }
  if (n_cands == 0) {
    snprintf(why, sizeof why,
             "no partonic channel: none of its %zu assignments of partons conserves charge, "
             "colour and flavour with a tree diagram (%zu conserve them); check the particles "
             "and their '~' (labels: %s)",
             (size_t)slots[0].n * (size_t)slots[1].n * n_finals, n_conserving, labels);
    fail(error, error_size, process, why);
    goto done;
  }

  /* the group key: the smallest image under every equivalence-preserving relabelling and both
   * orders of the incoming pair */
  {
    int current[MAX_SPECIES / 2], used[MAX_SPECIES / 2] = {0};
    permute_from(&perms, current, used, 0);
  }
  if (perms.n < 0) {
    fail(error, error_size, process,
         "the model has too many equivalent particles to group the channels");
    goto done;
  }
  for (size_t i = 0; i < n_cands; ++i) {
    int best[HG_PROCESS_MAX_EXTERNAL] = {0}, img[HG_PROCESS_MAX_EXTERNAL];
    image(perms.perm[0], 0, cands[i].species, n, best); /* the identity is among them */
    for (int p = 0; p < perms.n; ++p)
      for (int swap = 0; swap < 2; ++swap) {
        image(perms.perm[p], swap, cands[i].species, n, img);
        if (memcmp(img, best, sizeof(int) * (size_t)n) < 0)
          memcpy(best, img, sizeof(int) * (size_t)n);
      }
    memcpy(cands[i].key, best, sizeof best);
  }

  /* groups in the order of their first channel; members contiguous */
  {
    unsigned *group_of = malloc(sizeof(unsigned) * n_cands);
    if (group_of == NULL) {
      fail(error, error_size, process, "no memory for the groups");
      goto done;
    }
    size_t representative[HG_MAX_CHANNEL_GROUPS];
    unsigned n_groups = 0;
    for (size_t i = 0; i < n_cands; ++i) {
      unsigned g = 0;
      while (g < n_groups &&
             !(memcmp(cands[representative[g]].key, cands[i].key, sizeof(int) * (size_t)n) == 0 &&
               cands[representative[g]].n_diagrams == cands[i].n_diagrams))
        ++g;
      if (g == n_groups) {
        if (n_groups == HG_MAX_CHANNEL_GROUPS) {
          free(group_of);
          snprintf(why, sizeof why,
                   "more than %d groups of partonic channels with different |M|^2: write fewer "
                   "labels (e.g. some partons explicitly, or fewer jets)",
                   HG_MAX_CHANNEL_GROUPS);
          fail(error, error_size, process, why);
          goto done;
        }
        representative[n_groups++] = i;
      }
      group_of[i] = g;
    }
    for (unsigned g = 0; g < n_groups; ++g) {
      hg_channel_group *group = &out->groups[g];
      const candidate *r = &cands[representative[g]];
      snprintf(group->text, sizeof group->text, "%s", r->text);
      group->first = out->n_channels;
      group->count = 0;
      group->n_diagrams = r->n_diagrams;
      for (size_t i = 0; i < n_cands; ++i) {
        if (group_of[i] != g) continue;
        const candidate *m = &cands[i];
        hg_partonic_channel *c = &out->channels[out->n_channels++];
        ++group->count;
        snprintf(c->text, sizeof c->text, "%s", m->text);
        c->n = n;
        c->group = g;
        for (int k = 0; k < n; ++k) c->pdg[k] = hg_species_pdg(m->species[k]);
        /* the relabelling that maps the group's process onto this member */
        int found = 0;
        for (int p = 0; p < perms.n && !found; ++p)
          for (int swap = 0; swap < 2 && !found; ++swap) {
            const int *perm = perms.perm[p];
            if (map_species(perm, r->species[swap]) != m->species[0] ||
                map_species(perm, r->species[1 - swap]) != m->species[1])
              continue;
            int taken[HG_PROCESS_MAX_EXTERNAL] = {0}, ok = 1;
            c->order[0] = swap;
            c->order[1] = 1 - swap;
            for (int j = 2; j < n && ok; ++j) {
              int k = 2;
              while (k < n && (taken[k] || map_species(perm, r->species[k]) != m->species[j])) ++k;
              if (k == n) {
                ok = 0;
              } else {
                taken[k] = 1;
                c->order[j] = k;
              }
            }
            found = ok;
          }
        if (!found) { /* cannot happen: equal keys mean such a relabelling exists */
          free(group_of);
          fail(error, error_size, process, "internal error: a channel's group map is missing");
          goto done;
        }
      }
    }
    out->n_groups = n_groups;
    free(group_of);
  }
  status = 0;
done:
  if (status != 0) out->n_channels = out->n_groups = 0;
  free(perms.perm);
  free(cands);
  free(finals);
  return status;
}
