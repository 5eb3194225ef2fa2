/* SPDX-License-Identifier: MIT */
/* The model: the Standard Model's particles (MadGraph's sm, restrict_default) as table rows, and
 * its vertices as rules over their quantum numbers (host/process/diagrams.c). */
#ifndef HG_MODEL_H
#define HG_MODEL_H

/* Spin as 2s + 1 (UFO's convention), colour as the representation's dimension. */
#define HG_SPIN_SCALAR 1
#define HG_SPIN_FERMION 2
#define HG_SPIN_VECTOR 3

/* Where a particle's mass and width come from: a model parameter (hg_model_param) or zero. */
typedef enum {
  HG_PARAM_ZERO = -1,
  HG_PARAM_TOP_MASS = 0,
  HG_PARAM_TOP_WIDTH = 1,
  HG_PARAM_Z_MASS,
  HG_PARAM_Z_WIDTH,
  HG_PARAM_W_MASS, /* derived from G_F, M_Z and alpha */
  HG_PARAM_W_WIDTH,
  HG_PARAM_H_MASS,
  HG_PARAM_H_WIDTH,
  HG_PARAM_TAU_MASS,
  HG_PARAM_COUNT
} hg_model_param;

typedef struct {
  const char *name, *antiname; /* MadGraph's names: "t", "t~"; self-conjugate: antiname = name */
  int pdg;
  int spin;      /* HG_SPIN_SCALAR, HG_SPIN_FERMION or HG_SPIN_VECTOR */
  int colour;    /* 1, 3 or 8 */
  double charge; /* electric charge of the particle (not the antiparticle), in units of e */
  hg_model_param mass, width;
  /* fermions: the weak isospin T3 of the left-handed particle, the name of its SU(2) doublet
   * partner (the W couples them, CKM = 1) and its Yukawa coupling's slot (-1: none; MadGraph's
   * restrict_default keeps the top's and the tau's) */
  double t3;
  const char *partner;
  int yukawa;
} hg_particle;

/* A species is a particle or its antiparticle: 2 * particle index + (1 for the antiparticle);
 * self-conjugate particles have only the even species. */
int hg_model_particle_count(void);
const hg_particle *hg_model_particle(int index);
int hg_species_particle(int species);
int hg_species_is_anti(int species);
int hg_species_anti(int species);
const char *hg_species_name(int species);
/* The particle with the PDG code (positive), -1 when the model has none. */
int hg_model_particle_of_pdg(int pdg);
/* The species of a MadGraph name ("t~"), -1 for an unknown one. */
int hg_species_from_name(const char *name);
/* Electric charge of a species in units of e; 3 * charge is a whole number. */
double hg_species_charge(int species);
/* PDG code with sign: antiparticles negative. */
int hg_species_pdg(int species);
/* Every name the model knows, space separated (for error messages). */
const char *hg_model_names(void);

#endif
