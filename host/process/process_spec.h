/* SPDX-License-Identifier: MIT */
/* A process written as MadGraph users write it ("g g > t t~ g"), parsed and checked. */
#ifndef HG_PROCESS_SPEC_H
#define HG_PROCESS_SPEC_H

#include <stddef.h>

#include "hegetcl/amplitude.h"

#define HG_PROCESS_MAX_EXTERNAL 10 /* 2 -> 8 */
/* The longest process text kept, coupling orders included ("u u~ > e+ e- g g QED<=2"). */
#define HG_PROCESS_TEXT_SIZE HEGETCL_PROCESS_TEXT_SIZE

typedef struct {
  int n;                                /* external particles, incoming first */
  int n_in;                             /* 2 */
  int species[HG_PROCESS_MAX_EXTERNAL]; /* model species as written (hg_species_*) */
  char text[HG_PROCESS_TEXT_SIZE];      /* the process, normalised: "g g > t t~ g" */
  /* coupling orders as MadGraph spells them after the particles: QCD, QED, WEIGHTED with <=
   * (or =, the same) or == (exactly); -1 where none is given */
  int max_qcd, max_qed, max_weighted;
  int exact_qcd, exact_qed;
} hg_process_spec;

/* Parses text into *out. On failure returns -1 with a message naming the problem and the fix in
 * error: no '>', an unknown particle or coupling order, not 2 incoming or fewer than 2 outgoing
 * particles, too many particles, charge, colour or lepton number not conserved. */
int hg_process_parse(const char *text, hg_process_spec *out, char *error, size_t error_size);

/* 1 when the process text gives coupling orders (which may add electroweak diagrams: the
 * diagrams engine and the quark-line recursion apply them, the colour-ordered kernels do not),
 * else 0. */
int hg_process_has_orders(const hg_process_spec *spec);

/* For q q~ > n photons (q = d u s c b, quark first): n and the quark's charge, and 1; else 0. */
int hg_process_is_photon_family(const hg_process_spec *spec, unsigned *n_photons, double *charge);

/* k! as a double (1 for k <= 1). */
double hg_factorial(int k);

/* MadGraph's IDEN: the initial state's spins (2 each) and colours times the factorial of every
 * set of identical final-state particles; |M|^2 is divided by it. */
double hg_process_iden(const hg_process_spec *spec);

#endif
