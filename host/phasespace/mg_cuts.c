/* SPDX-License-Identifier: MIT */
/* The cut table: names as in MadGraph's run_card, meanings, off values and validation. */
#include "mg_cuts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const hg_mg_cut_info rows[HG_CUT_COUNT] = {
    {"ptj", HG_CUT_PTJ, "minimum pT of the jets", "GeV", 0, HG_CUT_KIND_MINIMUM},
    {"etaj", HG_CUT_ETAJ, "maximum |rapidity| of the jets", "", -1, HG_CUT_KIND_RAPIDITY},
    {"drjj", HG_CUT_DRJJ, "minimum Delta R between jets", "", 0, HG_CUT_KIND_MINIMUM},
    {"ptb", HG_CUT_PTB, "minimum pT of the b quarks", "GeV", 0, HG_CUT_KIND_MINIMUM},
    {"etab", HG_CUT_ETAB, "maximum |rapidity| of the b quarks", "", -1, HG_CUT_KIND_RAPIDITY},
    {"pta", HG_CUT_PTA, "minimum pT of the photons", "GeV", 0, HG_CUT_KIND_MINIMUM},
    {"etaa", HG_CUT_ETAA, "maximum |rapidity| of the photons", "", -1, HG_CUT_KIND_RAPIDITY},
    {"draa", HG_CUT_DRAA, "minimum Delta R between photons", "", 0, HG_CUT_KIND_MINIMUM},
    {"draj", HG_CUT_DRJA, "minimum Delta R between photons and jets", "", 0, HG_CUT_KIND_MINIMUM},
    {"ptl", HG_CUT_PTL, "minimum pT of the charged leptons", "GeV", 0, HG_CUT_KIND_MINIMUM},
    {"etal", HG_CUT_ETAL, "maximum |rapidity| of the charged leptons", "", -1,
     HG_CUT_KIND_RAPIDITY},
    {"drll", HG_CUT_DRLL, "minimum Delta R between charged leptons", "", 0, HG_CUT_KIND_MINIMUM},
    {"mmll", HG_CUT_MMLL, "minimum invariant mass of same-flavour opposite-charge lepton pairs",
     "GeV", 0, HG_CUT_KIND_MINIMUM},
    {"mmllmax", HG_CUT_MMLLMAX,
     "maximum invariant mass of same-flavour opposite-charge lepton pairs", "GeV", -1,
     HG_CUT_KIND_MAXIMUM},
    {"xptj", HG_CUT_XPTJ, "minimum pT of the hardest jet (at least one jet above it)", "GeV", 0,
     HG_CUT_KIND_MINIMUM},
    {"ihtmin", HG_CUT_IHTMIN, "minimum scalar sum of the pT of the jets and b quarks", "GeV", 0,
     HG_CUT_KIND_MINIMUM},
};

int hg_mg_cut_index(const char *name) {
  if (name == NULL) return -1;
  if (strcmp(name, "drja") == 0) return HG_CUT_DRJA;
  for (int i = 0; i < HG_CUT_COUNT; ++i)
    if (strcmp(rows[i].name, name) == 0) return i;
  return -1;
}

const hg_mg_cut_info *hg_mg_cut_info_at(int i) {
  return i >= 0 && i < HG_CUT_COUNT ? &rows[i] : NULL;
}

void hg_mg_cuts_off(double cuts[HG_CUT_COUNT]) {
  for (int i = 0; i < HG_CUT_COUNT; ++i) cuts[i] = rows[i].off;
}

int hg_mg_cut_is_on(int i, double value) { return value != rows[i].off; }

int hg_mg_cut_check(int i, double value, char *error, size_t error_size) {
  if (i < 0 || i >= HG_CUT_COUNT) {
    snprintf(error, error_size, "cut index %d: there are %d cuts", i, HG_CUT_COUNT);
    return -1;
  }
  const hg_mg_cut_info *r = &rows[i];
  if (!isfinite(value)) {
    snprintf(error, error_size, "%s = %g: give a finite number (%s; %g for no cut)", r->name, value,
             r->meaning, r->off);
    return -1;
  }
  switch (r->kind) {
  case HG_CUT_KIND_MINIMUM:
    if (value < 0) {
      snprintf(error, error_size, "%s = %g: a %s cannot be negative; give %s >= 0 (0 for no cut)",
               r->name, value, r->meaning, r->name);
      return -1;
    }
    return 0;
  case HG_CUT_KIND_RAPIDITY:
    if (value == 0) {
      snprintf(
          error, error_size,
          "%s = 0 keeps only particles at rapidity exactly 0, which removes them all; give the "
          "%s (e.g. 5) or -1 for no cut",
          r->name, r->meaning);
      return -1;
    }
    if (value < 0 && value != -1) {
      snprintf(error, error_size, "%s = %g: give the %s (> 0) or -1 for no cut", r->name, value,
               r->meaning);
      return -1;
    }
    return 0;
  case HG_CUT_KIND_MAXIMUM:
    if (value <= 0 && value != -1) {
      snprintf(error, error_size, "%s = %g: give the %s (> 0, in GeV) or -1 for no cut", r->name,
               value, r->meaning);
      return -1;
    }
    return 0;
  }
  return 0;
}

int hg_mg_cuts_check(const double cuts[HG_CUT_COUNT], char *error, size_t error_size) {
  for (int i = 0; i < HG_CUT_COUNT; ++i)
    if (hg_mg_cut_check(i, cuts[i], error, error_size) != 0) return -1;
  if (cuts[HG_CUT_MMLLMAX] > 0 && !(cuts[HG_CUT_MMLLMAX] > cuts[HG_CUT_MMLL])) {
    snprintf(error, error_size,
             "mmllmax = %g GeV is not above mmll = %g GeV: no lepton pair would pass; give "
             "mmll < mmllmax (hegetcl has no veto window)",
             cuts[HG_CUT_MMLLMAX], cuts[HG_CUT_MMLL]);
    return -1;
  }
  return 0;
}

size_t hg_mg_cuts_print(const double cuts[HG_CUT_COUNT], char *out, size_t size) {
  size_t used = 0;
  int any = 0;
  if (size > 0) out[0] = '\0';
  for (int i = 0; i < HG_CUT_COUNT; ++i) {
    if (!hg_mg_cut_is_on(i, cuts[i])) continue;
    const int n =
        snprintf(used < size ? out + used : NULL, used < size ? size - used : 0, "%s%s = %.10g%s%s",
                 any ? ", " : "", rows[i].name, cuts[i], rows[i].unit[0] ? " " : "", rows[i].unit);
    used += (size_t)(n > 0 ? n : 0);
    any = 1;
  }
  if (!any) used = (size_t)snprintf(out, size, "none");
  return used;
}

int hg_mg_cut_class(int pdg, double mass_gev, int maxjetflavor) {
  const int a = pdg < 0 ? -pdg : pdg;
  if (mass_gev > 20) return HG_CUT_CLASS_NONE;
  if (a == 21 || (a >= 1 && a <= maxjetflavor && a <= 6)) return HG_CUT_CLASS_JET;
  if (a == 5) return HG_CUT_CLASS_B;
  if (a == 22) return HG_CUT_CLASS_PHOTON;
  if (a == 11 || a == 13 || a == 15) return HG_CUT_CLASS_LEPTON + HG_CUT_CODE_PDG * pdg;
  if (a == 12 || a == 14 || a == 16) return HG_CUT_CLASS_NEUTRINO;
  return HG_CUT_CLASS_NONE;
}

void hg_mg_cuts_unused(const double cuts[HG_CUT_COUNT], const int *cut_class, int n_in, int n,
                       char *out, size_t size) {
  int count[6] = {0};
  for (int i = n_in; i < n; ++i) {
    const int c = hg_mg_cut_code_class(cut_class[i]);
    if (c >= 0 && c < 6) ++count[c];
  }
  const int jets = count[HG_CUT_CLASS_JET], bs = count[HG_CUT_CLASS_B],
            photons = count[HG_CUT_CLASS_PHOTON], leptons = count[HG_CUT_CLASS_LEPTON];
  /* whether each cut has something to act on */
  const int acts[HG_CUT_COUNT] = {
      [HG_CUT_PTJ] = jets > 0,
      [HG_CUT_ETAJ] = jets > 0,
      [HG_CUT_DRJJ] = jets > 1,
      [HG_CUT_PTB] = bs > 0,
      [HG_CUT_ETAB] = bs > 0,
      [HG_CUT_PTA] = photons > 0,
      [HG_CUT_ETAA] = photons > 0,
      [HG_CUT_DRAA] = photons > 1,
      [HG_CUT_DRJA] = photons > 0 && jets > 0,
      [HG_CUT_PTL] = leptons > 0,
      [HG_CUT_ETAL] = leptons > 0,
      [HG_CUT_DRLL] = leptons > 1,
      [HG_CUT_MMLL] = leptons > 1,
      [HG_CUT_MMLLMAX] = leptons > 1,
      [HG_CUT_XPTJ] = jets > 0,
      [HG_CUT_IHTMIN] = 1, /* with no jet or b it removes all */
  };
  size_t used = 0;
  if (size > 0) out[0] = '\0';
  for (int i = 0; i < HG_CUT_COUNT; ++i)
    if (hg_mg_cut_is_on(i, cuts[i]) && !acts[i] && used < size)
      used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "", rows[i].name);
}
