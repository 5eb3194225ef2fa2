/* SPDX-License-Identifier: MIT */
/* The recursive colour engine's view of a process (colour_ordered.h): which particles make the
 * orderings, the orderings, the colour matrix of their basis and the helicity configurations
 * that can be non-zero. */
#include "colour_ordered.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colour_loops.h"
#include "model.h"

static const hg_particle *particle_of(int species) {
  return hg_model_particle(hg_species_particle(species));
}

int hg_colour_ordered_flows_in(const hg_process_spec *spec, int i) {
  const int incoming = i < spec->n_in, anti = hg_species_is_anti(spec->species[i]);
  return incoming != anti;
}

/* Next permutation of a[0..n-1] in lexicographic order; 0 after the last. */
static int next_permutation(unsigned char *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) --i;
  if (i < 0) return 0;
  int j = n - 1;
  while (a[j] <= a[i]) --j;
  unsigned char t = a[i];
  a[i] = a[j];
  a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; ++l, --r) {
    t = a[l];
    a[l] = a[r];
    a[r] = t;
  }
  return 1;
}

/* The rank of a permutation of 0..n-1 (Lehmer code), 0 .. n! - 1. */
static size_t rank_of(const unsigned char *perm, int n) {
  size_t rank = 0;
  for (int i = 0; i < n; ++i) {
    int smaller = 0;
    for (int j = i + 1; j < n; ++j) smaller += perm[j] < perm[i];
    rank = rank * (size_t)(n - i) + (size_t)smaller;
  }
  return rank;
}

/* Quark line: sum over colours of (T^s)_{oi} conj((T^t)_{oi}) = Tr(T^s1..T^sk T^tk..T^t1). */
static double quark_line_entry(const unsigned char *s, const unsigned char *t, int k) {
  unsigned char word[HG_COLOUR_LOOPS_MAX_SLOTS];
  for (int j = 0; j < k; ++j) {
    word[j] = s[j];
    word[k + j] = t[k - 1 - j];
  }
  const int length = 2 * k;
  return hg_colour_loops(word, &length, 1, 1);
}

/* The DDM coefficient of ordering tau (letters tau[0..k-1] then letter k, the fixed last one;
 * label k + 1 the closing gluon) as traces: Tr(T^c [T^tau1, [..., [T^tauk, T^last]]]) is
 * sum over subsets S of (-1)^|S| Tr(T^c L_S T^last rev(S)), L_S the letters not in S in order.
 * Fills word (length k + 2) for subset mask and returns the sign. */
static int ddm_word(const unsigned char *tau, int k, unsigned mask, unsigned char *word) {
  int at = 0, sign = 1;
  word[at++] = (unsigned char)(k + 1);
  for (int j = 0; j < k; ++j)
    if (!(mask >> j & 1)) word[at++] = tau[j];
  word[at++] = (unsigned char)k;
  for (int j = k - 1; j >= 0; --j)
    if (mask >> j & 1) {
      word[at++] = tau[j];
      sign = -sign;
    }
  return sign;
}

/* Gluons only: sum over colours of c_tau conj(c_upsilon), exact with U(N) generators because
 * the nested commutators vanish for the U(1) gluon. The second trace is conjugated: its word
 * reversed. Labels of the second trace are those of the first (each label twice). */
static double gluon_entry(const unsigned char *tau, const unsigned char *ups, int k) {
  double sum = 0;
  const int length[2] = {k + 2, k + 2};
  for (unsigned s = 0; s < 1u << k; ++s)
    for (unsigned t = 0; t < 1u << k; ++t) {
      unsigned char word[2 * (HG_PROCESS_MAX_EXTERNAL + 2)], second[HG_PROCESS_MAX_EXTERNAL + 2];
      const int sign = ddm_word(tau, k, s, word) * ddm_word(ups, k, t, second);
      for (int j = 0; j < k + 2; ++j) word[k + 2 + j] = second[k + 1 - j];
      sum += sign * hg_colour_loops(word, length, 2, 0);
    }
  return sum;
}

/* The colour matrix: an entry depends only on the second ordering relabelled so that the first
 * becomes 0, 1, ..., k - 1 (relabelling the summed gluons changes nothing), so k! values are
 * computed once each. Orderings hold letters 0..k-1 here. */
static int colour_matrix(hg_colour_ordered *co, const unsigned char *letters) {
  const int k = co->quark_line ? co->n_letters : co->n_letters - 1;
  const size_t n = co->n_orderings, values = (size_t)hg_factorial(k);
  double *memo = malloc(values * sizeof *memo);
  co->colour = malloc(n * n * sizeof *co->colour);
  if (memo == NULL || co->colour == NULL) {
    free(memo);
    return -1;
  }
  for (size_t v = 0; v < values; ++v) memo[v] = NAN;
  unsigned char identity[HG_PROCESS_MAX_EXTERNAL];
  for (int j = 0; j < k; ++j) identity[j] = (unsigned char)j;
  for (size_t a = 0; a < n; ++a) {
    const unsigned char *s = letters + a * (size_t)co->n_letters;
    unsigned char position[HG_PROCESS_MAX_EXTERNAL];
    for (int j = 0; j < k; ++j) position[s[j]] = (unsigned char)j;
    for (size_t b = 0; b < n; ++b) {
      const unsigned char *t = letters + b * (size_t)co->n_letters;
      unsigned char relabelled[HG_PROCESS_MAX_EXTERNAL];
      for (int j = 0; j < k; ++j) relabelled[j] = position[t[j]];
      const size_t r = rank_of(relabelled, k);
      if (isnan(memo[r]))
        memo[r] = co->quark_line ? quark_line_entry(identity, relabelled, k)
                                 : gluon_entry(identity, relabelled, k);
      co->colour[a * n + b] = memo[r];
    }
  }
  free(memo);
  return 0;
}

/* Helicity configurations (bit i: particle i has helicity +1, incoming ones as MadGraph gives
 * them) that can be non-zero: with all particles crossed to outgoing (an incoming particle's
 * helicity flips), a massless quark line has opposite helicities at its ends, and a tree
 * amplitude of massless particles vanishes with fewer than two of either helicity (n >= 4). A
 * top line keeps every configuration. For a quark line the list holds the gluons' part of those
 * configurations once each, and fermion_pairs the ends' helicity pairs the line allows (the
 * kernel makes the gluon currents once for all pairs). */
static int helicities(hg_colour_ordered *co) {
  const hg_process_spec *s = &co->spec;
  const uint32_t all = 1u << s->n;
  uint32_t ends = 0;
  if (co->quark_line) ends = 1u << co->o_particle | 1u << co->i_particle;
  co->helicities = malloc(all * sizeof *co->helicities);
  if (co->helicities == NULL) return -1;
  co->n_helicities = 0;
  co->n_fermion_pairs = 0;
  for (uint32_t config = 0; config < all; ++config) {
    int plus = 0, minus = 0, h[HG_PROCESS_MAX_EXTERNAL] = {0};
    for (int i = 0; i < s->n; ++i) {
      h[i] = (config >> i & 1) ? 1 : -1;
      if (i < s->n_in) h[i] = -h[i];
      plus += h[i] > 0;
      minus += h[i] < 0;
    }
    const int line_zero =
        co->quark_line && !co->quark_top && h[co->o_particle] == h[co->i_particle];
    const int zero = line_zero || (!co->quark_top && s->n >= 4 && (plus < 2 || minus < 2));
    if (co->quark_line && !line_zero) {
      int seen = 0;
      for (int f = 0; f < co->n_fermion_pairs; ++f) seen |= co->fermion_pairs[f] == (config & ends);
      if (!seen) co->fermion_pairs[co->n_fermion_pairs++] = config & ends;
    }
    if (zero) continue;
    const uint32_t kept = co->quark_line ? config & ~ends : config;
    int seen = 0;
    for (size_t k = 0; k < co->n_helicities && co->quark_line; ++k)
      seen |= co->helicities[k] == kept;
    if (!seen) co->helicities[co->n_helicities++] = kept;
  }
  return 0;
}

static int fail(char *error, size_t size, const hg_process_spec *spec, const char *message) {
  snprintf(error, size, "process \"%s\": %s", spec->text, message);
  return -1;
}

/* Which particles make the orderings: fills the shape fields of out (and n_orderings), or -1
 * with the reason in error. */
static int classify(const hg_process_spec *spec, hg_colour_ordered *out, char *error,
                    size_t error_size) {
  memset(out, 0, sizeof *out);
  out->spec = *spec;
  out->o_particle = out->i_particle = out->closing = -1;
  int gluons[HG_PROCESS_MAX_EXTERNAL], n_gluons = 0, fermions[2], n_fermions = 0, other = 0;
  for (int i = 0; i < spec->n; ++i) {
    const hg_particle *p = particle_of(spec->species[i]);
    if (p->pdg == 21)
      gluons[n_gluons++] = i;
    else if (p->spin == HG_SPIN_FERMION && p->colour == 3 && n_fermions < 2)
      fermions[n_fermions++] = i;
    else
      other = 1;
  }
  if (other || (n_fermions != 0 && n_fermions != 2) ||
      (n_fermions == 2 && hg_species_particle(spec->species[fermions[0]]) !=
                              hg_species_particle(spec->species[fermions[1]])))
    return fail(error, error_size, spec,
                "the recursive engine takes quarks and gluons only (g g > t t~ g g, "
                "u u~ > d d~ g, any number of quark lines); use the diagrams engine "
                "(--engine diagrams) for processes with photons, leptons or electroweak bosons");
  out->quark_line = n_fermions == 2;
  if (out->quark_line) {
    const int first_in = hg_colour_ordered_flows_in(spec, fermions[0]);
    out->i_particle = first_in ? fermions[0] : fermions[1];
    out->o_particle = first_in ? fermions[1] : fermions[0];
    out->quark_top = particle_of(spec->species[fermions[0]])->mass == HG_PARAM_TOP_MASS;
    out->n_letters = n_gluons;
  } else {
    out->closing = spec->n - 1;
    out->n_letters = n_gluons - 1;
  }
  const int k = out->quark_line ? out->n_letters : out->n_letters - 1;
  if (k < 1)
    return fail(error, error_size, spec,
                "the recursive engine needs at least one gluon on a quark line; use the diagrams "
                "engine (--engine diagrams)");
  out->n_orderings = (size_t)hg_factorial(k);
  if (out->n_orderings > HG_CO_MAX_SAMPLED_ORDERINGS) {
    char message[400];
    snprintf(message, sizeof message,
             "%zu colour orderings; the recursive engine takes at most %d (g g > 8 g, with "
             "sampled colours): fewer gluons",
             out->n_orderings, HG_CO_MAX_SAMPLED_ORDERINGS);
    return fail(error, error_size, spec, message);
  }
  for (int j = 0; j < out->n_letters; ++j)
    out->letter_particle[j] = out->quark_line ? gluons[j] : (j < k ? gluons[j + 1] : gluons[0]);
  return 0;
}

int hg_colour_ordered_supports(const hg_process_spec *spec) {
  hg_colour_ordered co;
  char error[8];
  return classify(spec, &co, error, sizeof error) == 0;
}

int hg_colour_ordered_build(const hg_process_spec *spec, hg_colour_ordered *out, char *error,
                            size_t error_size) {
  if (classify(spec, out, error, error_size) != 0) return -1;
  const int k = out->quark_line ? out->n_letters : out->n_letters - 1;
  out->iden = hg_process_iden(spec);
  /* orderings of letters 0..n_letters-1, lexicographic; gluons only: letter n_letters - 1 (the
   * particle 0) stays last */
  const int L = out->n_letters;
  unsigned char *letters = malloc(out->n_orderings * (size_t)L);
  out->orderings = malloc(out->n_orderings * (size_t)L);
  if (letters == NULL || out->orderings == NULL) {
    free(letters);
    hg_colour_ordered_free(out);
    return fail(error, error_size, spec, "no memory for the colour orderings");
  }
  unsigned char perm[HG_PROCESS_MAX_EXTERNAL];
  for (int j = 0; j < L; ++j) perm[j] = (unsigned char)j;
  size_t o = 0;
  do {
    memcpy(letters + o * (size_t)L, perm, (size_t)L);
    for (int j = 0; j < L; ++j)
      out->orderings[o * (size_t)L + j] = (unsigned char)out->letter_particle[perm[j]];
    ++o;
  } while (next_permutation(perm, k));
  if ((out->n_orderings <= HG_CO_MAX_ORDERINGS && colour_matrix(out, letters) != 0) ||
      helicities(out) != 0) {
    free(letters);
    hg_colour_ordered_free(out);
    return fail(error, error_size, spec, "no memory for the colour matrix");
  }
  free(letters);
  return 0;
}

void hg_colour_ordered_free(hg_colour_ordered *co) {
  free(co->orderings);
  free(co->colour);
  free(co->helicities);
  co->orderings = NULL;
  co->colour = NULL;
  co->helicities = NULL;
}
