/* SPDX-License-Identifier: MIT */
/* The recursive engine for processes with two or more quark lines, or with leptons, photons, W,
 * Z or H (any number of quark lines and gluons): a Berends-Giele recursion
 * whose off-shell currents are labelled by their external particles AND their colour structure
 * (one product of generator strings, colour.h), so that the currents of every diagram with the
 * same colour structure are summed once and reused (CONVENTIONS.md, "Quark lines in the
 * recursive engine"). The result is a tape of vertex operations, each evaluated once and added
 * with constant colour coefficients into the currents (or, at the last particle, the colour
 * flows) it feeds; its length grows with the distinct currents, not with the diagrams, and a
 * kernel interprets it (cl/amplitudes/flow_recursion.cl), so the program does not grow at all. */
#ifndef HG_FLOW_RECURSION_H
#define HG_FLOW_RECURSION_H

#include <stddef.h>

#include "colour.h"
#include "diagrams.h"
#include "model.h"
#include "process_spec.h"

/* One vertex operation: HELAS function kind (hg_wf_kind for currents, hg_amp_kind +
 * HG_FR_AMPLITUDE for the amplitude at the last particle), its argument slots, its coupling, the
 * mass and width of the current it makes, and the coefficients by which its result is added into
 * targets first_target .. first_target + n_targets - 1. */
typedef struct {
  int kind;
  int a, b, c, d;
  hg_coupling_kind coupling;
  double charge;       /* HG_COUPLING_PHOTON: the fermion's charge */
  int coupling_slot;   /* HG_COUPLING_EW: the params buffer's slot */
  hg_model_param mass; /* the new current's particle's mass (HG_PARAM_ZERO for amplitudes) */
  int width;           /* its propagator carries the particle's width */
  size_t first_target, n_targets;
} hg_fr_op;

typedef struct {
  int slot;  /* a current's slot, or for the amplitude ops the colour flow */
  int first; /* the current's first contribution: it replaces what the slot held (slots are
                reused once their current's last reader is done) */
  double re, im;
} hg_fr_target;

#define HG_FR_AMPLITUDE 17 /* op kinds from here on are amplitudes (hg_amp_kind + 17) */

typedef struct {
  hg_process_spec spec;
  int n_slots;    /* externals 0..n-1, then the off-shell currents, a slot shared by currents whose
                    lives on the tape do not overlap: the peak number of live currents */
  int n_currents; /* the off-shell currents (each had a slot of its own before the sharing) */
  hg_fr_op *ops;
  size_t n_ops;
  hg_fr_target *targets;
  size_t n_targets;
  hg_colour_term *flows; /* the colour basis: products of one string per quark line */
  size_t n_flows;
  double *colour_matrix; /* n_flows^2, sum over colours of flow_i conj(flow_j) */
  double iden;
  size_t n_diagram_currents; /* distinct currents before those unused were dropped (report) */
} hg_flow_recursion;

/* 1 when this recursion takes spec: two or more quark lines (with gluons), or any process with a
 * lepton, photon, W, Z or Higgs (not the photon family q q~ > n a, which has engines of its own);
 * coupling orders written in the process are applied as the diagrams engine applies them. Gluons
 * with at most one quark line and nothing else are the colour-ordered kernels'. */
int hg_flow_recursion_supports(const hg_process_spec *spec);

/* The tape for spec (width_all: MadGraph's width treatment, hg_diagram_set.width_all), or -1
 * with the reason and the fix in error. */
int hg_flow_recursion_build(const hg_process_spec *spec, int width_all, hg_flow_recursion *out,
                            char *error, size_t error_size);
void hg_flow_recursion_free(hg_flow_recursion *fr);

#endif
