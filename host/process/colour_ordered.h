/* SPDX-License-Identifier: MIT */
/* A process as the recursive colour engine sees it: colour-ordered amplitudes (one
 * Berends-Giele recursion per ordering of the gluons), the colour basis they multiply and its
 * matrix, and the helicity configurations that can be non-zero (CONVENTIONS.md, "Colour-ordered
 * amplitudes"). Two shapes are taken:
 *  - gluons only: M = sum over orderings tau of the inner gluons 1..n-2 of
 *    Tr(T^c [T^tau1, [..., [T^tau_{n-2}, T^0]]]) A(tau, 0), c = the last particle (the DDM
 *    basis, (n-2)! elements);
 *  - one quark line and k >= 1 gluons: M = sum over the k! orderings sigma of
 *    (T^sigma1 ... T^sigmak)_{o i} A(sigma), o and i the line's flowing-out and flowing-in ends. */
#ifndef HG_COLOUR_ORDERED_H
#define HG_COLOUR_ORDERED_H

#include <stddef.h>
#include <stdint.h>

#include "process_spec.h"

#define HG_CO_MAX_ORDERINGS                                                                        \
  720 /* 6!: g g > 6 g (DDM) and g g > t t~ g g g g; a dense colour                                \
        matrix beyond is too large to sum per event */
#define HG_CO_MAX_SAMPLED_ORDERINGS                                                                \
  40320 /* 8!: g g > 8 g with sampled colours (orderings^1 per                                     \
          configuration, no colour matrix) */

typedef struct {
  hg_process_spec spec;
  int quark_line; /* 1: one quark line; 0: gluons only */
  int n_letters;  /* gluons in an ordering (the closing gluon of gluons-only excluded) */
  int letter_particle[HG_PROCESS_MAX_EXTERNAL]; /* gluons only: inner ones, then particle 0 */
  int closing;                /* gluons only: the particle each ordering's current meets (n - 1) */
  int o_particle, i_particle; /* quark line: the flowing-out (oxxxxx) and flowing-in ends */
  int quark_top;              /* the quark line is a top line (mass and width parameters) */
  size_t n_orderings;
  unsigned char *orderings; /* n_orderings x n_letters particle indices, the string's order */
  double *colour;           /* n_orderings^2, symmetric and real; NULL beyond
                               HG_CO_MAX_ORDERINGS (sampled colours only) */
  uint32_t *helicities;     /* configurations that can be non-zero (bit i: particle i is +1);
                               for a quark line their gluon part, each once */
  size_t n_helicities;
  uint32_t fermion_pairs[4]; /* quark line: the ends' helicity masks the line allows */
  int n_fermion_pairs;
  double iden; /* hg_process_iden */
} hg_colour_ordered;

/* Fills *out for spec, or returns -1 with the reason and the fix in error (a process of another
 * shape: two quark lines, photons, leptons; more than HG_CO_MAX_SAMPLED_ORDERINGS orderings).
 * The colour matrix is made up to HG_CO_MAX_ORDERINGS orderings. */
int hg_colour_ordered_build(const hg_process_spec *spec, hg_colour_ordered *out, char *error,
                            size_t error_size);
void hg_colour_ordered_free(hg_colour_ordered *co);

/* 1 when the recursive engine takes the process (hg_colour_ordered_build would succeed; beyond
 * HG_CO_MAX_ORDERINGS orderings with sampled colours only). */
int hg_colour_ordered_supports(const hg_process_spec *spec);

/* The role of external fermion i: 1 flowing in (ixxxxx: an incoming quark or an outgoing
 * antiquark), 0 flowing out (oxxxxx). */
int hg_colour_ordered_flows_in(const hg_process_spec *spec, int i);

#endif
