/* SPDX-License-Identifier: MIT */
/* The Standard Model's vertices as rules over the model's columns (vertices.h; CONVENTIONS.md,
 * "Processes given as text" and "Electroweak parameters"). */
#include "vertices.h"

#include <string.h>

#include "amplitudes/model_couplings.h"
#include "model.h"

static const hg_particle *particle_of(int species) {
  return hg_model_particle(hg_species_particle(species));
}
static int is_gluon(int species) { return particle_of(species)->pdg == 21; }
static int is_photon(int species) { return particle_of(species)->pdg == 22; }
static int is_z(int species) { return particle_of(species)->pdg == 23; }
static int is_w(int species) { return particle_of(species)->pdg == 24; }
static int is_higgs(int species) { return particle_of(species)->pdg == 25; }
static int is_scalar(int species) { return particle_of(species)->spin == HG_SPIN_SCALAR; }
/* W+ as an outgoing species (the particle, not the antiparticle) */
static int is_w_plus(int species) { return is_w(species) && !hg_species_is_anti(species); }

/* The Z's coupling pair of a fermion particle. */
static int z_slot(const hg_particle *f) {
  if (f->colour == 3) return f->t3 > 0 ? HG_C_Z_U : HG_C_Z_D;
  return f->charge == 0 ? HG_C_Z_NU : HG_C_Z_E;
}

int hg_vertex_ffx(int f, int fb, int b, hg_vertex *v) {
  if (hg_species_is_anti(f) || !hg_species_is_anti(fb)) return 0;
  const hg_particle *pf = particle_of(f), *pfb = particle_of(fb);
  const int same = hg_species_particle(f) == hg_species_particle(fb);
  memset(v, 0, sizeof *v);
  if (is_scalar(b)) {
    if (!same || !is_higgs(b) || pf->yukawa < 0) return 0;
    *v = (hg_vertex){HG_COUPLING_EW, pf->yukawa, 0, 0, 1};
    return 1;
  }
  if (is_gluon(b)) {
    if (!same || pf->colour != 3) return 0;
    *v = (hg_vertex){HG_COUPLING_STRONG, 0, 0, 1, 0};
    return 1;
  }
  if (is_photon(b)) {
    if (!same || pf->charge == 0) return 0;
    *v = (hg_vertex){HG_COUPLING_PHOTON, 0, pf->charge, 0, 1};
    return 1;
  }
  if (is_z(b)) {
    if (!same) return 0;
    *v = (hg_vertex){HG_COUPLING_EW, z_slot(pf), 0, 0, 1};
    return 1;
  }
  if (is_w(b)) {
    /* f fb W: doublet partners with the charge balanced */
    if (pf->partner == NULL || strcmp(pf->partner, pfb->name) != 0) return 0;
    const double q = pf->charge - pfb->charge + hg_species_charge(b);
    if (q > 1e-9 || q < -1e-9) return 0;
    *v = (hg_vertex){HG_COUPLING_EW, HG_C_W, 0, 0, 1};
    return 1;
  }
  return 0;
}

typedef struct {
  int vec, sca, wp, wm, z, a, g;
} leg_count;

static leg_count count_legs(const int *s, int n) {
  leg_count c = {0, 0, 0, 0, 0, 0, 0};
  for (int k = 0; k < n; ++k) {
    if (is_scalar(s[k]))
      ++c.sca;
    else
      ++c.vec;
    if (is_w(s[k])) {
      if (is_w_plus(s[k]))
        ++c.wp;
      else
        ++c.wm;
    }
    c.z += is_z(s[k]);
    c.a += is_photon(s[k]);
    c.g += is_gluon(s[k]);
  }
  return c;
}

int hg_vertex_bbb(const int s[3], hg_vertex *v) {
  const leg_count c = count_legs(s, 3);
  memset(v, 0, sizeof *v);
  if (c.g == 3) {
    *v = (hg_vertex){HG_COUPLING_STRONG, 0, 0, 1, 0};
    return 1;
  }
  if (c.vec == 3 && c.wp == 1 && c.wm == 1 && (c.z == 1 || c.a == 1)) {
    *v = (hg_vertex){HG_COUPLING_EW, c.z ? HG_C_WWZ : HG_C_WWA, 0, 0, 1};
    return 1;
  }
  if (c.vec == 2 && c.sca == 1 && ((c.wp == 1 && c.wm == 1) || c.z == 2)) {
    *v = (hg_vertex){HG_COUPLING_EW, c.z ? HG_C_HZZ : HG_C_HWW, 0, 0, 1};
    return 1;
  }
  if (c.sca == 3) {
    *v = (hg_vertex){HG_COUPLING_EW, HG_C_HHH, 0, 0, 1};
    return 1;
  }
  return 0;
}

int hg_vertex_bbbb(const int s[4], hg_vertex *v) {
  const leg_count c = count_legs(s, 4);
  memset(v, 0, sizeof *v);
  int slot = -1;
  if (c.vec == 4 && c.wp == 2 && c.wm == 2)
    slot = HG_C_WWWW;
  else if (c.vec == 4 && c.wp == 1 && c.wm == 1 && c.a == 2)
    slot = HG_C_WWAA;
  else if (c.vec == 4 && c.wp == 1 && c.wm == 1 && c.a == 1 && c.z == 1)
    slot = HG_C_WWAZ;
  else if (c.vec == 4 && c.wp == 1 && c.wm == 1 && c.z == 2)
    slot = HG_C_WWZZ;
  else if (c.vec == 2 && c.sca == 2 && c.wp == 1 && c.wm == 1)
    slot = HG_C_HHWW;
  else if (c.vec == 2 && c.sca == 2 && c.z == 2)
    slot = HG_C_HHZZ;
  else if (c.sca == 4)
    slot = HG_C_HHHH;
  if (slot < 0) return 0;
  *v = (hg_vertex){HG_COUPLING_EW, slot, 0, 0, 2};
  return 1;
}

/* The canonical slots of the four-vector vertex g (2 (w1.w2)(w3.w4) - (w1.w3)(w2.w4) -
 * (w1.w4)(w2.w3)): W W V V: 0 = W+, 1 = W-, 2 and 3 neutral; W W W W: 0, 1 = W+, 2, 3 = W-. */
static void four_vector_slots(const int legs[4], int slot, int slot_of[4]) {
  int used[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    int want0, want1;
    if (slot == HG_C_WWWW) {
      want0 = is_w_plus(legs[k]) ? 0 : 2;
      want1 = want0 + 1;
    } else if (is_w(legs[k])) {
      want0 = want1 = is_w_plus(legs[k]) ? 0 : 1;
    } else {
      want0 = 2;
      want1 = 3;
    }
    slot_of[k] = used[want0] ? want1 : want0;
    used[slot_of[k]] = 1;
  }
}

hg_wf_kind hg_vertex_boson_current(const int *legs, int n, int s, const hg_vertex *v,
                                   int order[3]) {
  for (int k = 0; k < 3; ++k) order[k] = k < n ? k : -1;
  if (n == 2) {
    if (is_scalar(s)) return is_scalar(legs[0]) ? HG_WF_HSS : HG_WF_HVV;
    if (is_scalar(legs[0]) || is_scalar(legs[1])) {
      if (is_scalar(legs[0])) { /* jvsxxx: the vector first */
        order[0] = 1;
        order[1] = 0;
      }
      return HG_WF_JVS;
    }
    /* jvvcxx: slots W+, W-, V of vvvcxx; the new leg (anti(s)) takes one, the others follow
     * cyclically */
    const int leg = hg_species_anti(s);
    const int x_is = is_w(legs[0]) ? (is_w_plus(legs[0]) ? 0 : 1) : 2;
    const int new_is = is_w(leg) ? (is_w_plus(leg) ? 0 : 1) : 2;
    if (x_is != (new_is + 1) % 3) {
      order[0] = 1;
      order[1] = 0;
    }
    return HG_WF_JVVC;
  }
  if (is_scalar(s)) {
    int n_scalar = 0;
    for (int k = 0; k < 3; ++k) n_scalar += is_scalar(legs[k]);
    if (n_scalar == 3) return HG_WF_HSSS;
    int at = 0; /* hvvsxx: vectors first, then the scalar */
    for (int k = 0; k < 3; ++k)
      if (!is_scalar(legs[k])) order[at++] = k;
    for (int k = 0; k < 3; ++k)
      if (is_scalar(legs[k])) order[2] = k;
    return HG_WF_HVVS;
  }
  if (v->slot == HG_C_HHWW || v->slot == HG_C_HHZZ) {
    int s_at = 1; /* jvssxx: the vector first */
    for (int k = 0; k < 3; ++k)
      if (!is_scalar(legs[k]))
        order[0] = k;
      else
        order[s_at++] = k;
    return HG_WF_JVSS;
  }
  /* jvvvcx(a, b, c): the new leg in the fourth slot; by the vertex's symmetries, new in slot 3:
   * (s0, s1, s2); 2: (s0, s1, s3); 1: (s2, s3, s0); 0: (s2, s3, s1) */
  const int all[4] = {legs[0], legs[1], legs[2], hg_species_anti(s)};
  int slot_of[4], at_slot[4] = {0, 0, 0, 0};
  four_vector_slots(all, v->slot, slot_of);
  for (int k = 0; k < 3; ++k) at_slot[slot_of[k]] = k;
  static const int pick[4][3] = {{2, 3, 1}, {2, 3, 0}, {0, 1, 3}, {0, 1, 2}};
  for (int k = 0; k < 3; ++k) order[k] = at_slot[pick[slot_of[3]][k]];
  return HG_WF_JVVVC;
}

hg_amp_kind hg_vertex_boson_amplitude(const int *legs, int n, const hg_vertex *v, int order[4]) {
  for (int k = 0; k < 4; ++k) order[k] = k < n ? k : -1;
  int n_scalar = 0;
  for (int k = 0; k < n; ++k) n_scalar += is_scalar(legs[k]);
  if (n_scalar == n) return n == 3 ? HG_AMP_SSS : HG_AMP_SSSS;
  if (n == 3) {
    if (n_scalar == 1) { /* vvsxxx: vectors first, the scalar third */
      int at = 0;
      for (int k = 0; k < 3; ++k)
        if (is_scalar(legs[k]))
          order[2] = k;
        else
          order[at++] = k;
      return HG_AMP_VVS;
    }
    for (int k = 0; k < 3; ++k) /* vvvcxx: W+, W-, V */
      order[is_w_plus(legs[k]) ? 0 : is_w(legs[k]) ? 1 : 2] = k;
    return HG_AMP_VVVC;
  }
  if (v->slot == HG_C_HHWW || v->slot == HG_C_HHZZ) {
    int at = 0; /* vvssxx: vectors first */
    for (int k = 0; k < 4; ++k)
      if (!is_scalar(legs[k])) order[at++] = k;
    for (int k = 0; k < 4; ++k)
      if (is_scalar(legs[k])) order[at++] = k;
    return HG_AMP_VVSS;
  }
  int slot_of[4];
  four_vector_slots(legs, v->slot, slot_of);
  for (int k = 0; k < 4; ++k) order[slot_of[k]] = k;
  return HG_AMP_VVVVC;
}
