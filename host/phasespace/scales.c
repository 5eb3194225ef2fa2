/* SPDX-License-Identifier: MIT */
/* The scale choices' table and their validation. */
#include "scales.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const hg_scale_choice_info rows[] = {
    {HG_SCALE_FIXED, "fixed", "mu = the fixed scale"},
    {HG_SCALE_SUM_ET, "sum-et",
     "sum of the final-state transverse energies E pT/|p| (MadGraph's dynamical_scale_choice 1)"},
    {HG_SCALE_SUM_MT, "sum-mt",
     "sum of the final-state transverse masses sqrt(m^2 + pT^2) (MadGraph's 2)"},
    {HG_SCALE_HALF_SUM_MT, "half-sum-mt",
     "half the sum of the final-state transverse masses, H_T/2 (MadGraph's 3)"},
    {HG_SCALE_SQRT_SHAT, "sqrt-shat",
     "the partonic centre-of-mass energy sqrt(s-hat) (MadGraph's 4)"},
    {HG_SCALE_HALF_SUM_PT, "half-sum-pt",
     "half the sum of the final-state transverse momenta (H_T/2 as Pepper and Sherpa define it)"},
};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

const hg_scale_choice_info *hg_scale_choice_at(int index) {
  return index >= 0 && index < N_ROWS ? &rows[index] : NULL;
}

const hg_scale_choice_info *hg_scale_choice_find(int choice) {
  for (int i = 0; i < N_ROWS; ++i)
    if (rows[i].choice == choice) return &rows[i];
  return NULL;
}

const hg_scale_choice_info *hg_scale_choice_by_name(const char *name) {
  for (int i = 0; i < N_ROWS; ++i)
    if (strcmp(rows[i].name, name) == 0) return &rows[i];
  return NULL;
}

int hg_scale_choice_check(int choice, double fixed_gev, char *error, size_t error_size) {
  if (hg_scale_choice_find(choice) == NULL) {
    const char *madgraph = choice == -1  ? " (MadGraph's -1 clusters the event into a 2 -> 2 "
                                           "topology, which hegetcl does not do)"
                           : choice == 5 ? " (MadGraph's 5 is for decays; hegetcl computes 2 -> n)"
                                         : "";
    snprintf(error, error_size,
             "scale choice %d is unknown%s: take 0 (fixed), 1 (sum of E_T), 2 (sum of m_T), 3 "
             "(sum of m_T over 2), 4 (sqrt(s-hat)) or 10 (sum of pT over 2)",
             choice, madgraph);
    return -1;
  }
  if (choice == HG_SCALE_FIXED && !(fixed_gev > 0 && isfinite(fixed_gev))) {
    snprintf(error, error_size, "fixed scale %g GeV: a scale must be positive and finite",
             fixed_gev);
    return -1;
  }
  return 0;
}
