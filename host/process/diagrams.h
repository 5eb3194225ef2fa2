/* SPDX-License-Identifier: MIT */
/* A process's tree diagrams, MadGraph style: every off-shell current (one sub-diagram) once,
 * each diagram's colour decomposed into a basis of colour flows, and the colour matrix. */
#ifndef HG_DIAGRAMS_H
#define HG_DIAGRAMS_H

#include <stddef.h>

#include "colour.h"
#include "process_spec.h"

/* How a wavefunction is made (cl/helas names). */
typedef enum {
  HG_WF_EXTERNAL, /* ixxxxx / oxxxxx / vxxxxx / sxxxxx */
  HG_WF_FVI,      /* fvixxx(a = fi, b = vector) */
  HG_WF_FVO,      /* fvoxxx(a = fo, b = vector) */
  HG_WF_JIO,      /* jioxxx(a = fi, b = fo) */
  HG_WF_JVV,      /* jvvxxx(a, b): the three-gluon current */
  HG_WF_JGGG,     /* jgggxx(a, b, c) */
  HG_WF_FSI,      /* fsixxx(a = fi, b = scalar) */
  HG_WF_FSO,      /* fsoxxx(a = fo, b = scalar) */
  HG_WF_HIO,      /* hioxxx(a = fi, b = fo) */
  HG_WF_JVVC,     /* jvvcxx(a, b): W W a, W W Z currents */
  HG_WF_JVVVC,    /* jvvvcx(a, b, c): electroweak four-vector currents */
  HG_WF_JVS,      /* jvsxxx(a = vector, b = scalar) */
  HG_WF_HVV,      /* hvvxxx(a, b) */
  HG_WF_JVSS,     /* jvssxx(a = vector, b, c = scalars) */
  HG_WF_HVVS,     /* hvvsxx(a, b = vectors, c = scalar) */
  HG_WF_HSS,      /* hssxxx(a, b) */
  HG_WF_HSSS      /* hsssxx(a, b, c) */
} hg_wf_kind;

/* How a diagram's amplitude is made at its root vertex. */
typedef enum {
  HG_AMP_IOV,   /* iovxxx(a = fi, b = fo, c = vector) */
  HG_AMP_VVV,   /* vvvxxx(a, b, c): gluons */
  HG_AMP_GGGG,  /* ggggxx(a, b, c, d) */
  HG_AMP_IOS,   /* iosxxx(a = fi, b = fo, c = scalar) */
  HG_AMP_VVVC,  /* vvvcxx(a, b, c): W+ W- V */
  HG_AMP_VVVVC, /* vvvvcx(a, b, c, d) */
  HG_AMP_VVS,   /* vvsxxx(a, b, c = scalar) */
  HG_AMP_VVSS,  /* vvssxx(a, b, c, d) */
  HG_AMP_SSS,   /* sssxxx(a, b, c) */
  HG_AMP_SSSS   /* ssssxx(a, b, c, d) */
} hg_amp_kind;

/* Which coupling a vertex takes: g_s (quark-gluon, three- and four-gluon), e times the fermion's
 * charge (photon), or an electroweak coupling of the params buffer (coupling_slot,
 * amplitudes/model_couplings.h). */
typedef enum { HG_COUPLING_STRONG, HG_COUPLING_PHOTON, HG_COUPLING_EW } hg_coupling_kind;

/* Fermion role of a wavefunction: flowing in (fi: HELAS i-type), flowing out (fo), a vector or a
 * scalar. */
typedef enum { HG_ROLE_VECTOR = 0, HG_ROLE_IN = 1, HG_ROLE_OUT = 2, HG_ROLE_SCALAR = 3 } hg_wf_role;

#define HG_MAX_PAIRS 5

/* Coupling-order limits written in the process ("QED<=2", "QCD=1", "WEIGHTED<=4"): -1 for none.
 * Without any, the diagrams of the lowest WEIGHTED = QCD + 2 QED are kept (MadGraph's default). */
typedef struct {
  hg_wf_kind kind;
  int a, b, c; /* arguments (wavefunction indices), -1 unused; external: particle index */
  int species; /* the current's species seen as an outgoing particle */
  hg_wf_role role;
  unsigned mask; /* external particles it contains */
  hg_coupling_kind coupling;
  double charge;     /* the fermion field's charge, for HG_COUPLING_PHOTON */
  int coupling_slot; /* HG_COUPLING_EW: the params buffer's slot */
  int width;         /* its propagator carries the particle's width */
  int open_fermion;  /* external index at the open end of a fermion current, -1 for vectors */
  int n_pairs;       /* fermion lines completed inside: (in-type external, out-type external) */
  int pairs[HG_MAX_PAIRS][2];
  int qcd, qed; /* coupling orders inside (the four-gluon vertex counts 2 in qcd) */
  int used;
  hg_colour_expr colour;
} hg_wavefunction;

typedef struct {
  hg_amp_kind kind;
  int a, b, c, d;
  hg_coupling_kind coupling;
  double charge;
  int coupling_slot;
  int qcd, qed; /* its coupling orders */
  int n_flows;  /* its colour in the basis: flow indices and coefficients */
  int *flows;
  double *coef_re, *coef_im;
} hg_diagram;

typedef struct {
  hg_process_spec spec;
  hg_wavefunction *wfs;
  size_t n_wfs, wfs_capacity;
  hg_diagram *diagrams;
  size_t n_diagrams, diagrams_capacity;
  hg_colour_term *flows; /* the colour basis */
  size_t n_flows, flows_capacity;
  double *colour_matrix; /* n_flows x n_flows, sum over colours of flow_i conj(flow_j) */
  double iden;           /* spins, colours of the initial state and identical particles */
  int width_all;         /* MadGraph's width treatment: every propagator of the particle */
  int helicity_bits;     /* bits of a helicity configuration (massive vectors take 2) */
} hg_diagram_set;

/* The helicity-configuration bits of external particle i (0 for a scalar, 2 for a massive
 * vector, 1 otherwise) and the first bit of each (bit_of, may be NULL); returns the total. */
int hg_diagrams_helicity_layout(const hg_process_spec *spec, int *bit_of);

/* Every tree diagram of spec at the lowest order in alpha_s^k alpha^l with weight k + 2l
 * (MadGraph's default), or those within the orders spec gives; width_all as hg_diagram_set. -1 with
 * a message in error when the process has no tree diagram or outgrows the colour algebra's room. */
int hg_diagrams_build(const hg_process_spec *spec, int width_all, hg_diagram_set *out, char *error,
                      size_t error_size);
void hg_diagrams_free(hg_diagram_set *set);

#endif
