/* SPDX-License-Identifier: MIT */
/* The model's particle table: the Standard Model's QCD and QED sectors, MadGraph's names. */
#include "model.h"

#include <string.h>

/* Light quarks (b included: the five-flavour scheme of the photon runs and the PDFs) and leptons
 * are massless; the top has the parameters HG_PARAM_TOP_MASS and _WIDTH (hegetcl_process). */
static const hg_particle particles[] = {
    {"g", "g", 21, HG_SPIN_VECTOR, 8, 0.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"a", "a", 22, HG_SPIN_VECTOR, 1, 0.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"d", "d~", 1, HG_SPIN_FERMION, 3, -1.0 / 3.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"u", "u~", 2, HG_SPIN_FERMION, 3, 2.0 / 3.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"s", "s~", 3, HG_SPIN_FERMION, 3, -1.0 / 3.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"c", "c~", 4, HG_SPIN_FERMION, 3, 2.0 / 3.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"b", "b~", 5, HG_SPIN_FERMION, 3, -1.0 / 3.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"t", "t~", 6, HG_SPIN_FERMION, 3, 2.0 / 3.0, HG_PARAM_TOP_MASS, HG_PARAM_TOP_WIDTH},
    {"e-", "e+", 11, HG_SPIN_FERMION, 1, -1.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
    {"mu-", "mu+", 13, HG_SPIN_FERMION, 1, -1.0, HG_PARAM_ZERO, HG_PARAM_ZERO},
};
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
int hg_species_anti(int species) {
  return self_conjugate(species / 2) ? species : species ^ 1;
}
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
const char *hg_model_names(void) { return "g a d d~ u u~ s s~ c c~ b b~ t t~ e- e+ mu- mu+"; }
