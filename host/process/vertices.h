/* SPDX-License-Identifier: MIT */
/* The model's vertices as rules over species (all legs outgoing), and the HELAS function and
 * argument order that each takes: shared by the diagrams engine (diagrams.c) and the quark-line
 * recursion (flow_recursion.c), so that both evaluate the same Feynman rules. */
#ifndef HG_VERTICES_H
#define HG_VERTICES_H

#include "diagrams.h"

/* A vertex of the model: its coupling and its coupling orders. */
typedef struct {
  hg_coupling_kind coupling;
  int slot;      /* HG_COUPLING_EW: the params buffer's slot (amplitudes/model_couplings.h) */
  double charge; /* HG_COUPLING_PHOTON: the fermion's charge */
  int qcd, qed;
} hg_vertex;

/* Fermion f (outgoing particle species), antifermion fb (outgoing antiparticle species) and a
 * boson b, all outgoing: 1 and the vertex when the model has it. */
int hg_vertex_ffx(int f, int fb, int b, hg_vertex *v);
/* Three bosons, all outgoing, any order (three gluons: the QCD vertex). */
int hg_vertex_bbb(const int s[3], hg_vertex *v);
/* Four colourless bosons, all outgoing, any order (the four-gluon vertex is apart: three colour
 * structures). */
int hg_vertex_bbbb(const int s[4], hg_vertex *v);

/* The current of species s (seen outgoing) from the colourless bosons legs[0..n-1] (n = 2 or 3)
 * through vertex v (hg_vertex_bbb or _bbbb of legs and anti(s)): the HELAS function, and in
 * order[k] which leg is its k-th argument. */
hg_wf_kind hg_vertex_boson_current(const int *legs, int n, int s, const hg_vertex *v, int order[3]);
/* The amplitude of colourless bosons legs[0..n-1] (n = 3 or 4) meeting at vertex v: the HELAS
 * function and in order[k] which leg is its k-th argument. */
hg_amp_kind hg_vertex_boson_amplitude(const int *legs, int n, const hg_vertex *v, int order[4]);

#endif
