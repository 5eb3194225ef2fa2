/* SPDX-License-Identifier: MIT */
/* The model's particle table: the Standard Model (MadGraph's sm), MadGraph's names. */
#include "model.h"

#include "amplitudes/model_couplings.h"

#include <string.h>

/* Light quarks (b included: the five-flavour scheme of the photon runs and the PDFs; MadGraph's
 * restrict_default gives the b a mass, 4.7 GeV, and a Yukawa, which no process here needs yet),
 * the electron, muon and neutrinos are massless; the top, tau, Z, W and H take their mass and
 * width from the process's parameters (hegetcl_process, CONVENTIONS.md "Electroweak
 * parameters"). Columns: names, PDG id, spin, colour, charge, mass, width, T3, doublet partner,
 * Yukawa slot. The first ten rows keep their order (species numbers). */
#define ZERO HG_PARAM_ZERO
static const hg_particle particles[] = {
    {"g", "g", 21, HG_SPIN_VECTOR, 8, 0.0, ZERO, ZERO, 0, NULL, -1},
    {"a", "a", 22, HG_SPIN_VECTOR, 1, 0.0, ZERO, ZERO, 0, NULL, -1},
    {"d", "d~", 1, HG_SPIN_FERMION, 3, -1.0 / 3.0, ZERO, ZERO, -0.5, "u", -1},
    {"u", "u~", 2, HG_SPIN_FERMION, 3, 2.0 / 3.0, ZERO, ZERO, 0.5, "d", -1},
    {"s", "s~", 3, HG_SPIN_FERMION, 3, -1.0 / 3.0, ZERO, ZERO, -0.5, "c", -1},
    {"c", "c~", 4, HG_SPIN_FERMION, 3, 2.0 / 3.0, ZERO, ZERO, 0.5, "s", -1},
    {"b", "b~", 5, HG_SPIN_FERMION, 3, -1.0 / 3.0, ZERO, ZERO, -0.5, "t", -1},
    {"t", "t~", 6, HG_SPIN_FERMION, 3, 2.0 / 3.0, HG_PARAM_TOP_MASS, HG_PARAM_TOP_WIDTH, 0.5, "b",
     HG_C_H_T},
    {"e-", "e+", 11, HG_SPIN_FERMION, 1, -1.0, ZERO, ZERO, -0.5, "ve", -1},
    {"mu-", "mu+", 13, HG_SPIN_FERMION, 1, -1.0, ZERO, ZERO, -0.5, "vm", -1},
    {"ta-", "ta+", 15, HG_SPIN_FERMION, 1, -1.0, HG_PARAM_TAU_MASS, ZERO, -0.5, "vt", HG_C_H_TA},
    {"ve", "ve~", 12, HG_SPIN_FERMION, 1, 0.0, ZERO, ZERO, 0.5, "e-", -1},
    {"vm", "vm~", 14, HG_SPIN_FERMION, 1, 0.0, ZERO, ZERO, 0.5, "mu-", -1},
    {"vt", "vt~", 16, HG_SPIN_FERMION, 1, 0.0, ZERO, ZERO, 0.5, "ta-", -1},
    {"z", "z", 23, HG_SPIN_VECTOR, 1, 0.0, HG_PARAM_Z_MASS, HG_PARAM_Z_WIDTH, 0, NULL, -1},
    {"w+", "w-", 24, HG_SPIN_VECTOR, 1, 1.0, HG_PARAM_W_MASS, HG_PARAM_W_WIDTH, 0, NULL, -1},
    {"h", "h", 25, HG_SPIN_SCALAR, 1, 0.0, HG_PARAM_H_MASS, HG_PARAM_H_WIDTH, 0, NULL, -1},
};
#undef ZERO
#define N_PARTICLES ((int)(sizeof particles / sizeof particles[0]))

int hg_model_particle_count(void) { return N_PARTICLES; }
const hg_particle *hg_model_particle(int index) {
  return index >= 0 && index < N_PARTICLES ? &particles[index] : NULL;
}
int hg_species_particle(int species) { return species / 2; }
int hg_species_is_anti(int species) { return species % 2; }
static int self_conjugate(int particle) {
  return strcmp(particles[particle].name, particles[particle].antiname) == 0;
}
int hg_species_anti(int species) { return self_conjugate(species / 2) ? species : species ^ 1; }
const char *hg_species_name(int species) {
  const hg_particle *p = &particles[species / 2];
  return species % 2 ? p->antiname : p->name;
}
int hg_species_from_name(const char *name) {
  for (int i = 0; i < N_PARTICLES; ++i) {
    if (strcmp(name, particles[i].name) == 0) return 2 * i;
    if (!self_conjugate(i) && strcmp(name, particles[i].antiname) == 0) return 2 * i + 1;
  }
  return -1;
}
double hg_species_charge(int species) {
  const double q = particles[species / 2].charge;
  return species % 2 ? -q : q;
}
int hg_species_pdg(int species) {
  const int pdg = particles[species / 2].pdg;
  return species % 2 ? -pdg : pdg;
}
int hg_model_particle_of_pdg(int pdg) {
  for (int i = 0; i < N_PARTICLES; ++i)
    if (particles[i].pdg == pdg) return i;
  return -1;
}
const char *hg_model_names(void) {
  return "g a d d~ u u~ s s~ c c~ b b~ t t~ e- e+ mu- mu+ ta- ta+ ve ve~ vm vm~ vt vt~ z w+ w- h";
}
