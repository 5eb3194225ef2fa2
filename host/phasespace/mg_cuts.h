/* SPDX-License-Identifier: MIT */
/* The cuts of cl/phasespace/mg_cuts.h as a table: MadGraph's run_card names, meanings, units,
 * off values and valid ranges, so that options, run-card keys and outputs come from one place. */
#ifndef HG_HOST_MG_CUTS_H
#define HG_HOST_MG_CUTS_H

#include <stddef.h>

/* the device header of the same name: "phasespace/mg_cuts.h" would find this file */
#include "../../cl/phasespace/mg_cuts.h"

/* What a value means, which fixes its valid range. */
typedef enum {
  HG_CUT_KIND_MINIMUM,  /* a lower bound >= 0 (pT, Delta R, mass, HT); 0 is off */
  HG_CUT_KIND_RAPIDITY, /* an upper bound on |y| > 0; -1 is off */
  HG_CUT_KIND_MAXIMUM   /* an upper bound > 0 (mmllmax); -1 is off */
} hg_mg_cut_kind;

typedef struct {
  const char *name;    /* MadGraph's run_card name: "ptj" */
  int index;           /* HG_CUT_* */
  const char *meaning; /* one line, as for --help and the run card */
  const char *unit;    /* "GeV" or "" */
  double off;          /* the value that means no cut (0 or -1) */
  hg_mg_cut_kind kind;
} hg_mg_cut_info;

/* The index of a name (MadGraph's, or the alias "drja" for draj), -1 when unknown. */
int hg_mg_cut_index(const char *name);
/* Row i of the table (i = HG_CUT_*), NULL past HG_CUT_COUNT. */
const hg_mg_cut_info *hg_mg_cut_info_at(int i);
/* Every value off. */
void hg_mg_cuts_off(double cuts[HG_CUT_COUNT]);
/* 0 when value is valid for cut i; else -1 with a message naming the cut, the value and the fix
 * (a negative pT, an |y| bound of 0, which removes every particle of the class, ...). */
int hg_mg_cut_check(int i, double value, char *error, size_t error_size);
/* hg_mg_cut_check on every value, and mmllmax above mmll when both are on. */
int hg_mg_cuts_check(const double cuts[HG_CUT_COUNT], char *error, size_t error_size);
/* 1 when cut i is on (its value is not the off value). */
int hg_mg_cut_is_on(int i, double value);
/* The cuts in force as "ptj = 50 GeV, etaj = 5" ("none" when none), for the run's printout and
 * outputs; the length it needed (snprintf's convention). */
size_t hg_mg_cuts_print(const double cuts[HG_CUT_COUNT], char *out, size_t size);
/* The cut code of an outgoing particle (cl/phasespace/mg_cuts.h) from its PDG id and mass in
 * GeV, with MadGraph's rules: no cuts above 20 GeV (t, W, Z, H); gluons and quarks with |pdg| <=
 * maxjetflavor are jets (4: d u s c, MadGraph's default; 5 adds b); b beyond that is a b; 22 a
 * photon; 11, 13, 15 charged leptons (with their PDG id); 12, 14, 16 neutrinos. Incoming
 * particles take HG_CUT_CLASS_NONE. */
int hg_mg_cut_class(int pdg, double mass_gev, int maxjetflavor);
/* The cuts that are on but act on no particle of these codes (a ptb for a process without b):
 * their names, space separated, into out (empty when none), so the caller can say so. */
void hg_mg_cuts_unused(const double cuts[HG_CUT_COUNT], const int *cut_class, int n_in, int n,
                       char *out, size_t size);

#endif
