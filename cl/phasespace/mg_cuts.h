/* SPDX-License-Identifier: MIT */
/* Parton-level cuts with MadGraph's run_card names and its cuts.f semantics (CONVENTIONS.md,
 * "Cuts in MadGraph's names"); every cut is off unless the user sets it. */
#ifndef HG_PS_MG_CUTS_H
#define HG_PS_MG_CUTS_H

#include "shared/portable.h"

/* p as the const array these functions take (also in phasespace/scales.h): C before C23 and
 * OpenCL C do not convert double (*)[4] to const double (*)[4] by themselves. */
#ifndef HG_MOMENTA
#define HG_MOMENTA(p) ((const double(*)[4])(p))
#endif

/* The class of an external particle (host/phasespace/mg_cuts.c: hg_mg_cut_class). */
#define HG_CUT_CLASS_NONE 0 /* incoming, tops, W, Z, H: no cuts */
#define HG_CUT_CLASS_JET                                                                           \
  1                      /* final gluons and quarks up to maxjetflavor (d u s c; b too with 5)     \
                          */
#define HG_CUT_CLASS_B 2 /* final b, b~ when b is not a jet (maxjetflavor 4) */
#define HG_CUT_CLASS_PHOTON 3
#define HG_CUT_CLASS_LEPTON 4   /* charged leptons e mu ta */
#define HG_CUT_CLASS_NEUTRINO 5 /* no cut in this set acts on them */

/* Indices into the cut values (doubles; the host table gives names, units and off values). */
#define HG_CUT_PTJ 0  /* jet pT >= ptj (GeV; off: 0) */
#define HG_CUT_ETAJ 1 /* jet |y| <= etaj (off: -1) */
#define HG_CUT_DRJJ 2 /* Delta R >= drjj for every jet pair (off: 0) */
#define HG_CUT_PTB 3  /* b pT >= ptb (GeV; off: 0) */
#define HG_CUT_ETAB 4 /* b |y| <= etab (off: -1) */
#define HG_CUT_PTA 5  /* photon pT >= pta (GeV; off: 0) */
#define HG_CUT_ETAA 6 /* photon |y| <= etaa (off: -1) */
#define HG_CUT_DRAA 7 /* Delta R >= draa for every photon pair (off: 0) */
#define HG_CUT_DRJA 8 /* Delta R >= draj for every photon-jet pair (MadGraph's draj; off: 0) */
#define HG_CUT_DRAJ HG_CUT_DRJA
#define HG_CUT_PTL 9   /* charged-lepton pT >= ptl (GeV; off: 0) */
#define HG_CUT_ETAL 10 /* charged-lepton |y| <= etal (off: -1) */
#define HG_CUT_DRLL 11 /* Delta R >= drll for every charged-lepton pair (off: 0) */
#define HG_CUT_MMLL 12 /* m >= mmll for same-flavour opposite-charge lepton pairs (GeV; off: 0) */
#define HG_CUT_MMLLMAX 13 /* m <= mmllmax for those pairs (GeV; off: -1) */
#define HG_CUT_XPTJ 14    /* the hardest jet's pT >= xptj, when there are jets (GeV; off: 0) */
#define HG_CUT_IHTMIN 15  /* sum of jet and b pT >= ihtmin (GeV; off: 0) */
#define HG_CUT_COUNT 16

#define HG_CUT_PI ((double)884279719003555 / 281474976710656) /* pi, exact in double */

/* Rapidity 1/2 ln((E + pz)/(E - pz)) (MadGraph's rap; the pseudorapidity for massless partons). */
HG_INLINE double hg_mg_cut_rapidity(const double *p) {
  return 0.5 * log((p[0] + p[3]) / (p[0] - p[3]));
}

/* Delta R^2 = Delta y^2 + Delta phi^2, Delta phi folded into [0, pi] (MadGraph's r2). */
HG_INLINE double hg_mg_cut_dr2(const double *a, const double *b) {
  double dphi = fabs(atan2(a[2], a[1]) - atan2(b[2], b[1]));
  dphi = dphi > HG_CUT_PI ? 2 * HG_CUT_PI - dphi : dphi;
  const double dy = hg_mg_cut_rapidity(a) - hg_mg_cut_rapidity(b);
  return dy * dy + dphi * dphi;
}

/* A particle's cut code: its class, plus for a charged lepton its signed PDG id times
 * HG_CUT_CODE_PDG (e- : HG_CUT_CLASS_LEPTON + 11 * HG_CUT_CODE_PDG), so that mmll can find the
 * same-flavour opposite-charge pairs. host/phasespace/mg_cuts.c's hg_mg_cut_class makes it from
 * the PDG id; a bare HG_CUT_CLASS_* value is a valid code (a lepton without its flavour is then
 * in no mmll pair). */
#define HG_CUT_CODE_PDG 256
HG_INLINE int hg_mg_cut_code_pdg(int code) {
  return (code >= 0 ? code : code - (HG_CUT_CODE_PDG - 1)) / HG_CUT_CODE_PDG; /* floor */
}
HG_INLINE int hg_mg_cut_code_class(int code) {
  return code - HG_CUT_CODE_PDG * hg_mg_cut_code_pdg(code);
}

/* 1 when the event passes every cut: p the external momenta (E px py pz, lab frame, the n_in
 * incoming first, n in all), cut_class each particle's cut code, cuts the HG_CUT_COUNT values.
 * MadGraph's cuts.f: pT >= the minimum, |y| <= the maximum when it is >= 0, Delta R >= the
 * minimum, m_ll within [mmll, mmllmax] for same-flavour opposite-charge pairs, the hardest
 * jet's pT >= xptj when the event has jets, the scalar sum of jet and b pT >= ihtmin. Written
 * without early exits so work-items do not diverge. */
HG_INLINE int hg_passes_mg_cuts(const double p[][4], const int *cut_class, int n_in, int n,
                                HG_GLOBAL const double *cuts) {
  int pass = 1, n_jets = 0;
  double max_jet_pt = 0, inclusive_ht = 0;
  for (int i = n_in; i < n; ++i) {
    const int c = hg_mg_cut_code_class(cut_class[i]);
    const double pt = sqrt(p[i][1] * p[i][1] + p[i][2] * p[i][2]);
    const double abs_y = fabs(hg_mg_cut_rapidity(p[i]));
    const int jet = c == HG_CUT_CLASS_JET, b = c == HG_CUT_CLASS_B, a = c == HG_CUT_CLASS_PHOTON,
              l = c == HG_CUT_CLASS_LEPTON;
    const double pt_min = jet ? cuts[HG_CUT_PTJ]
                          : b ? cuts[HG_CUT_PTB]
                          : a ? cuts[HG_CUT_PTA]
                          : l ? cuts[HG_CUT_PTL]
                              : 0;
    const double y_max = jet ? cuts[HG_CUT_ETAJ]
                         : b ? cuts[HG_CUT_ETAB]
                         : a ? cuts[HG_CUT_ETAA]
                         : l ? cuts[HG_CUT_ETAL]
                             : -1;
    pass &= pt >= pt_min;
    pass &= (y_max < 0) | (abs_y <= y_max);
    n_jets += jet;
    max_jet_pt = jet ? fmax(max_jet_pt, pt) : max_jet_pt;
    inclusive_ht += (jet | b) ? pt : 0;
  }
  for (int i = n_in; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const int ci = hg_mg_cut_code_class(cut_class[i]), cj = hg_mg_cut_code_class(cut_class[j]);
      const int jj = (ci == HG_CUT_CLASS_JET) & (cj == HG_CUT_CLASS_JET);
      const int aa = (ci == HG_CUT_CLASS_PHOTON) & (cj == HG_CUT_CLASS_PHOTON);
      const int ja = ((ci == HG_CUT_CLASS_JET) & (cj == HG_CUT_CLASS_PHOTON)) |
                     ((ci == HG_CUT_CLASS_PHOTON) & (cj == HG_CUT_CLASS_JET));
      const int ll = (ci == HG_CUT_CLASS_LEPTON) & (cj == HG_CUT_CLASS_LEPTON);
      const double dr_min = jj   ? cuts[HG_CUT_DRJJ]
                            : aa ? cuts[HG_CUT_DRAA]
                            : ja ? cuts[HG_CUT_DRJA]
                            : ll ? cuts[HG_CUT_DRLL]
                                 : 0;
      pass &= (dr_min <= 0) | (hg_mg_cut_dr2(p[i], p[j]) >= dr_min * dr_min);
      /* same flavour, opposite charge: PDG ids that add to zero */
      const int pdg_i = hg_mg_cut_code_pdg(cut_class[i]), pdg_j = hg_mg_cut_code_pdg(cut_class[j]);
      const int sfos = ll & (pdg_i != 0) & (pdg_i + pdg_j == 0);
      const double e = p[i][0] + p[j][0], px = p[i][1] + p[j][1], py = p[i][2] + p[j][2],
                   pz = p[i][3] + p[j][3];
      const double m2 = e * e - px * px - py * py - pz * pz;
      const double lo = cuts[HG_CUT_MMLL], hi = cuts[HG_CUT_MMLLMAX];
      pass &= (sfos == 0) | ((m2 >= lo * fabs(lo)) & ((hi < 0) | (m2 <= hi * hi)));
    }
  pass &= (n_jets == 0) | (max_jet_pt >= cuts[HG_CUT_XPTJ]);
  pass &= inclusive_ht >= cuts[HG_CUT_IHTMIN];
  return pass;
}

#endif
