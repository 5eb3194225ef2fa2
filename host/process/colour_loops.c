/* SPDX-License-Identifier: MIT */
/* Colour sums by counting index loops (colour_loops.h). Each generator slot s has a row index
 * node 2s and a column index node 2s + 1; a trace joins the column of a slot to the row of the
 * next; a summed pair of slots u, v joins row u to column v and row v to column u (U(N) part) or,
 * in SU(N)'s 1/N term, row u to column u and row v to column v. Every connected set of index
 * nodes is one closed loop, a factor N. */
#include "colour_loops.h"

#include <math.h>

#include "colour.h"

static int find(int *parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

static int join(int *parent, int a, int b) {
  a = find(parent, a);
  b = find(parent, b);
  if (a == b) return 0;
  parent[a] = b;
  return 1;
}

double hg_colour_loops(const unsigned char *letters, const int *length, int n_cycles, int su) {
  int slots = 0;
  for (int k = 0; k < n_cycles; ++k) slots += length[k];
  if (slots > HG_COLOUR_LOOPS_MAX_SLOTS || slots % 2 != 0) return NAN;
  /* the partner of every slot */
  int partner[HG_COLOUR_LOOPS_MAX_SLOTS];
  for (int s = 0; s < slots; ++s) {
    partner[s] = -1;
    for (int t = 0; t < slots; ++t)
      if (t != s && letters[t] == letters[s]) {
        if (partner[s] >= 0) return NAN; /* a label three times */
        partner[s] = t;
      }
    if (partner[s] < 0) return NAN;
  }
  int first[HG_COLOUR_LOOPS_MAX_SLOTS / 2], n_pairs = 0;
  for (int s = 0; s < slots; ++s)
    if (partner[s] > s) first[n_pairs++] = s;
  const double n = HG_COLOUR_N;
  double sum = 0;
  const unsigned long subsets = su ? 1ul << n_pairs : 1ul;
  for (unsigned long deleted = 0; deleted < subsets; ++deleted) {
    int parent[2 * HG_COLOUR_LOOPS_MAX_SLOTS];
    for (int x = 0; x < 2 * slots; ++x) parent[x] = x;
    int components = 2 * slots, start = 0, n_deleted = 0;
    for (int k = 0; k < n_cycles; ++k) {
      for (int j = 0; j < length[k]; ++j) {
        const int s = start + j, next = start + (j + 1) % length[k];
        components -= join(parent, 2 * s + 1, 2 * next);
      }
      start += length[k];
    }
    for (int p = 0; p < n_pairs; ++p) {
      const int u = first[p], v = partner[u];
      if (deleted >> p & 1) {
        ++n_deleted;
        components -= join(parent, 2 * u, 2 * u + 1);
        components -= join(parent, 2 * v, 2 * v + 1);
      } else {
        components -= join(parent, 2 * u, 2 * v + 1);
        components -= join(parent, 2 * v, 2 * u + 1);
      }
    }
    sum += pow(-1.0 / n, n_deleted) * pow(n, components);
  }
  return sum * pow(0.5, n_pairs);
}
