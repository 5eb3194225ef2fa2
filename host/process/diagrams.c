/* SPDX-License-Identifier: MIT */
/* Tree diagrams of a process from the model's vertices: off-shell currents over subsets of the
 * external particles (all but the last), each a separate sub-diagram as in MadGraph's generated
 * code, and diagrams where the last particle meets two or three currents. Colour factors follow
 * the currents as generator strings (colour.h): a gluon current X = C^a T^a, a fermion current a
 * string with an open index; f^{abc} enters through f^{abe} T^e = -i [T^a, T^b]. */
#include "diagrams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitudes/model_couplings.h"
#include "model.h"
#include "vertices.h"

/* The phases that join HELAS's gluon functions to the colour factors here (CONVENTIONS.md,
 * "Colour"): with the quark-gluon vertex as iovxxx with gal = g_s, a three-gluon vertex f^{abc}
 * vvvxxx(g_s) enters with -i and a four-gluon structure f^{abe} f^{cde} ggggxx(g_s) with +1.
 * These are the phases of the Feynman rules (i g_s T^a gamma^mu; g_s f^{abc} V^{mu nu rho};
 * -i g_s^2 f f (g g - g g)) relative to HELAS's, which absorb one i per vertex; gauge invariance
 * fixes them (qcd_symmetries) and MadGraph's values confirm them (qcd_agreement_with_madgraph). */
static const double three_gluon_re = 0, three_gluon_im = -1;
static const double four_gluon_re = 1, four_gluon_im = 0;

#define HG_MAX_DIAGRAMS 20000
#define HG_MAX_WAVEFUNCTIONS 20000

typedef struct {
  size_t start, end;
} wf_range;

typedef struct {
  hg_diagram_set *set;
  wf_range *ranges; /* by mask */
  char *error;
  size_t error_size;
  int failed;
} builder;

static void build_fail(builder *b, const char *message) {
  if (!b->failed)
    snprintf(b->error, b->error_size, "process \"%s\": %s", b->set->spec.text, message);
  b->failed = 1;
}

static int popcount(unsigned m) {
  int c = 0;
  for (; m; m &= m - 1) ++c;
  return c;
}

static const hg_particle *particle_of(int species) {
  return hg_model_particle(hg_species_particle(species));
}
static int is_gluon(int species) { return particle_of(species)->pdg == 21; }
static int spin_of(int species) { return particle_of(species)->spin; }

/* A new zeroed slot at the end of the table *items of *n entries of size bytes, grown by doubling;
 * NULL (failed with too_many or no memory) when it holds max entries already. */
static void *new_slot(builder *b, void **items, size_t *n, size_t *capacity, size_t size,
                      size_t max, const char *too_many) {
  if (*n == max) {
    build_fail(b, too_many);
    return NULL;
  }
  if (*n == *capacity) {
    const size_t grown = *capacity ? 2 * *capacity : 64;
    void *bigger = realloc(*items, grown * size);
    if (bigger == NULL) {
      build_fail(b, "no memory for the diagrams");
      return NULL;
    }
    *items = bigger;
    *capacity = grown;
  }
  void *slot = (char *)*items + (*n)++ * size;
  memset(slot, 0, size);
  return slot;
}

/* A new wavefunction slot, zeroed, or NULL (failed) when the table is full. */
static hg_wavefunction *new_wf(builder *b) {
  hg_diagram_set *s = b->set;
  void *items = s->wfs;
  hg_wavefunction *w =
      new_slot(b, &items, &s->n_wfs, &s->wfs_capacity, sizeof *w, HG_MAX_WAVEFUNCTIONS,
               "needs more than 20000 off-shell currents: too large for the "
               "diagram engine");
  s->wfs = items;
  if (w == NULL) return NULL;
  w->a = w->b = w->c = -1;
  w->open_fermion = -1;
  return w;
}

static int merge_pairs(int *n, int pairs[][2], const hg_wavefunction *x) {
  for (int k = 0; k < x->n_pairs; ++k) {
    if (*n == HG_MAX_PAIRS) return -1;
    pairs[*n][0] = x->pairs[k][0];
    pairs[*n][1] = x->pairs[k][1];
    ++*n;
  }
  return 0;
}

int hg_diagrams_helicity_layout(const hg_process_spec *spec, int *bit_of) {
  int bits = 0;
  for (int i = 0; i < spec->n; ++i) {
    const hg_particle *p = particle_of(spec->species[i]);
    if (bit_of != NULL) bit_of[i] = bits;
    bits += p->spin == HG_SPIN_SCALAR                               ? 0
            : p->spin == HG_SPIN_VECTOR && p->mass != HG_PARAM_ZERO ? 2
                                                                    : 1;
  }
  return bits;
}

/* The width flag of a propagator of species over mask (hg_diagram_set.width_all). */
static int carries_width(const builder *b, int species, unsigned mask) {
  const hg_particle *p = particle_of(species);
  if (p->width == HG_PARAM_ZERO) return 0;
  if (b->set->width_all) return 1;
  const unsigned incoming = mask & 3u;
  if (incoming == 1u || incoming == 2u) return 0; /* t-channel: never on its mass shell */
  for (int i = 0; i < b->set->spec.n; ++i)
    if ((mask >> i & 1u) &&
        hg_species_particle(b->set->spec.species[i]) == hg_species_particle(species))
      return 0; /* the line of an external particle of its own flavour: radiation, no resonance */
  return 1;
}

static void finish_wf(builder *b, hg_wavefunction *w, const hg_wavefunction *x,
                      const hg_wavefunction *y, const hg_wavefunction *z, const hg_vertex *v) {
  w->mask = x->mask | y->mask | (z ? z->mask : 0u);
  w->qcd = x->qcd + y->qcd + (z ? z->qcd : 0) + v->qcd;
  w->qed = x->qed + y->qed + (z ? z->qed : 0) + v->qed;
  w->coupling = v->coupling;
  w->coupling_slot = v->slot;
  w->width = carries_width(b, w->species, w->mask);
  if (merge_pairs(&w->n_pairs, w->pairs, x) != 0 || merge_pairs(&w->n_pairs, w->pairs, y) != 0 ||
      (z && merge_pairs(&w->n_pairs, w->pairs, z) != 0))
    build_fail(b, "more fermion lines than the diagram engine takes (5)");
}

static void colour_fail(builder *b, int status) {
  if (status != 0) build_fail(b, "its colour factors outgrow the colour algebra's room");
}

static hg_wf_role role_of(int species) {
  const int spin = spin_of(species);
  if (spin == HG_SPIN_FERMION) return hg_species_is_anti(species) ? HG_ROLE_IN : HG_ROLE_OUT;
  return spin == HG_SPIN_SCALAR ? HG_ROLE_SCALAR : HG_ROLE_VECTOR;
}

/* A new current of species from wavefunctions x, y (and z), the vertex v; NULL when the table is
 * full. Pointers into the table are stale after the call. */
static hg_wavefunction *new_current(builder *b, hg_wf_kind kind, int species, size_t x, size_t y,
                                    long z, const hg_vertex *v) {
  hg_wavefunction *w = new_wf(b);
  if (w == NULL) return NULL;
  const hg_wavefunction *wx = &b->set->wfs[x], *wy = &b->set->wfs[y];
  const hg_wavefunction *wz = z >= 0 ? &b->set->wfs[z] : NULL;
  w->kind = kind;
  w->a = (int)x;
  w->b = (int)y;
  w->c = (int)z;
  w->species = species;
  w->role = role_of(species);
  w->charge = v->charge;
  finish_wf(b, w, wx, wy, wz, v);
  return w;
}

/* A fermion current after the boson bi joins fermion fi: fvixxx / fvoxxx / fsixxx / fsoxxx, one
 * per vertex the model has (the W changes the flavour). */
static void add_fermion_boson(builder *b, size_t fi, size_t bi) {
  const int sf = b->set->wfs[fi].species, sb = b->set->wfs[bi].species;
  const hg_wf_role role = b->set->wfs[fi].role;
  const int scalar = spin_of(sb) == HG_SPIN_SCALAR;
  for (int s = 0; s < 2 * hg_model_particle_count() && !b->failed; ++s) {
    if (spin_of(s) != HG_SPIN_FERMION || role_of(s) != role) continue;
    /* the vertex (sf, sb, anti(s)) */
    const int other = hg_species_anti(s);
    hg_vertex v;
    const int found =
        role == HG_ROLE_IN ? hg_vertex_ffx(other, sf, sb, &v) : hg_vertex_ffx(sf, other, sb, &v);
    if (!found) continue;
    hg_wf_kind kind =
        role == HG_ROLE_IN ? (scalar ? HG_WF_FSI : HG_WF_FVI) : (scalar ? HG_WF_FSO : HG_WF_FVO);
    hg_wavefunction *w = new_current(b, kind, s, fi, bi, -1, &v);
    if (w == NULL) return;
    const hg_wavefunction *f = &b->set->wfs[fi], *vb = &b->set->wfs[bi];
    w->open_fermion = f->open_fermion;
    int status;
    if (v.coupling != HG_COUPLING_STRONG)
      status = hg_colour_times(&w->colour, &f->colour, &vb->colour);
    else if (role == HG_ROLE_IN)
      status = hg_colour_apply_i(&w->colour, &vb->colour, &f->colour);
    else
      status = hg_colour_apply_o(&w->colour, &f->colour, &vb->colour);
    colour_fail(b, status);
  }
}

/* The boson currents of a fermion pair: jioxxx (gluon, photon, Z, W) and hioxxx (Higgs). */
static void add_fermion_pair(builder *b, size_t ii, size_t oi) {
  for (int s = 0; s < 2 * hg_model_particle_count() && !b->failed; ++s) {
    if (spin_of(s) == HG_SPIN_FERMION || (hg_species_is_anti(s) && hg_species_anti(s) == s))
      continue;
    const int si = b->set->wfs[ii].species, so = b->set->wfs[oi].species;
    hg_vertex v;
    if (!hg_vertex_ffx(so, si, hg_species_anti(s), &v)) continue;
    const int scalar = spin_of(s) == HG_SPIN_SCALAR;
    hg_wavefunction *w = new_current(b, scalar ? HG_WF_HIO : HG_WF_JIO, s, ii, oi, -1, &v);
    if (w == NULL) return;
    const hg_wavefunction *fi = &b->set->wfs[ii], *fo = &b->set->wfs[oi];
    if (w->n_pairs < HG_MAX_PAIRS) {
      w->pairs[w->n_pairs][0] = fi->open_fermion;
      w->pairs[w->n_pairs][1] = fo->open_fermion;
      ++w->n_pairs;
    }
    colour_fail(b, v.coupling == HG_COUPLING_STRONG
                       ? hg_colour_pair_to_gluon(&w->colour, &fo->colour, &fi->colour)
                       : hg_colour_join_fermions(&w->colour, &fo->colour, &fi->colour));
  }
}

static void add_two_gluons(builder *b, size_t x, size_t y) {
  const hg_vertex v = {HG_COUPLING_STRONG, 0, 0, 1, 0};
  hg_wavefunction *w = new_current(b, HG_WF_JVV, b->set->wfs[x].species, x, y, -1, &v);
  if (w == NULL) return;
  const hg_wavefunction *a = &b->set->wfs[x], *c = &b->set->wfs[y];
  int status = hg_colour_commutator(&w->colour, &a->colour, &c->colour);
  hg_colour_scale(&w->colour, three_gluon_re, three_gluon_im);
  colour_fail(b, status);
}

static void add_three_gluons(builder *b, size_t x, size_t y, size_t z) {
  const hg_vertex v = {HG_COUPLING_STRONG, 0, 0, 2, 0};
  hg_wavefunction *w = new_current(b, HG_WF_JGGG, b->set->wfs[x].species, x, y, (long)z, &v);
  if (w == NULL) return;
  const hg_wavefunction *a = &b->set->wfs[x], *c = &b->set->wfs[y], *d = &b->set->wfs[z];
  /* f^{a b e} f^{c out e}: X = -i [-i [Xa, Xb], Xc] */
  hg_colour_expr inner = {NULL, 0, 0};
  int status = hg_colour_commutator(&inner, &a->colour, &c->colour);
  if (status == 0) status = hg_colour_commutator(&w->colour, &inner, &d->colour);
  hg_colour_free(&inner);
  hg_colour_scale(&w->colour, four_gluon_re, four_gluon_im);
  colour_fail(b, status);
}

/* The colour of a colourless vertex: the product of its legs' (a W or Z current carries the
 * quark line it came from). */
static int colour_product(hg_colour_expr *out, const hg_wavefunction *w, const size_t *idx, int n) {
  hg_colour_expr acc = {NULL, 0, 0};
  int status = hg_colour_copy(&acc, &w[idx[0]].colour);
  for (int k = 1; k < n && status == 0; ++k) {
    hg_colour_expr next = {NULL, 0, 0};
    status = hg_colour_times(&next, &acc, &w[idx[k]].colour);
    hg_colour_free(&acc);
    acc = next;
  }
  if (status == 0) {
    hg_colour_free(out);
    *out = acc;
  } else {
    hg_colour_free(&acc);
  }
  return status;
}

/* Colourless boson currents of two or three bosons: W W a / W W Z (jvvcxx), V V H (jvsxxx,
 * hvvxxx), H H H (hssxxx), and the four-boson vertices (jvvvcx, jvssxx, hvvsxx, hsssxx), their
 * arguments in the order vertices.h gives. */
static void add_bosons(builder *b, const size_t *ws, int n) {
  for (int s = 0; s < 2 * hg_model_particle_count() && !b->failed; ++s) {
    if (spin_of(s) == HG_SPIN_FERMION || is_gluon(s) ||
        (hg_species_is_anti(s) && hg_species_anti(s) == s))
      continue;
    int legs[4];
    for (int k = 0; k < n; ++k) legs[k] = b->set->wfs[ws[k]].species;
    legs[n] = hg_species_anti(s);
    hg_vertex v;
    if (n == 2 ? !hg_vertex_bbb(legs, &v) || v.coupling != HG_COUPLING_EW
               : !hg_vertex_bbbb(legs, &v))
      continue;
    int order[3];
    const hg_wf_kind kind = hg_vertex_boson_current(legs, n, s, &v, order);
    hg_wavefunction *w =
        new_current(b, kind, s, ws[order[0]], ws[order[1]], n == 3 ? (long)ws[order[2]] : -1, &v);
    if (w == NULL) return;
    colour_fail(b, colour_product(&w->colour, b->set->wfs, ws, n));
  }
}

static void add_two_bosons(builder *b, size_t x, size_t y) {
  const size_t ws[2] = {x, y};
  add_bosons(b, ws, 2);
}

static void add_three_bosons(builder *b, size_t x, size_t y, size_t z) {
  const size_t ws[3] = {x, y, z};
  add_bosons(b, ws, 3);
}

/* Every current made of two wavefunctions x and y (of disjoint masks). */
static void combine_two(builder *b, size_t x, size_t y) {
  const hg_wavefunction *a = &b->set->wfs[x], *c = &b->set->wfs[y];
  const int a_fermion = a->role == HG_ROLE_IN || a->role == HG_ROLE_OUT;
  const int c_fermion = c->role == HG_ROLE_IN || c->role == HG_ROLE_OUT;
  if (a_fermion && !c_fermion)
    add_fermion_boson(b, x, y);
  else if (!a_fermion && c_fermion)
    add_fermion_boson(b, y, x);
  else if (a->role == HG_ROLE_IN && c->role == HG_ROLE_OUT)
    add_fermion_pair(b, x, y);
  else if (a->role == HG_ROLE_OUT && c->role == HG_ROLE_IN)
    add_fermion_pair(b, y, x);
  else if (!a_fermion && !c_fermion) {
    if (is_gluon(a->species) && is_gluon(c->species))
      add_two_gluons(b, x, y);
    else
      add_two_bosons(b, x, y);
  }
}

static int all_gluons(const hg_diagram_set *s, size_t x, size_t y, size_t z) {
  return is_gluon(s->wfs[x].species) && is_gluon(s->wfs[y].species) && is_gluon(s->wfs[z].species);
}

static int all_bosons(const hg_diagram_set *s, size_t x, size_t y, size_t z) {
  return spin_of(s->wfs[x].species) != HG_SPIN_FERMION &&
         spin_of(s->wfs[y].species) != HG_SPIN_FERMION &&
         spin_of(s->wfs[z].species) != HG_SPIN_FERMION;
}

/* ---- diagrams ---- */

typedef struct {
  hg_diagram d;
  hg_colour_expr colour;
  int weight;
} candidate;

typedef struct {
  candidate *c;
  size_t n, capacity;
} candidate_list;

static candidate *new_candidate(builder *b, candidate_list *list) {
  void *items = list->c;
  candidate *c = new_slot(b, &items, &list->n, &list->capacity, sizeof *c, HG_MAX_DIAGRAMS,
                          "has more than 20000 diagrams: too large for the diagram engine");
  list->c = items;
  if (c == NULL) return NULL;
  c->d.a = c->d.b = c->d.c = c->d.d = -1;
  return c;
}

/* The sign of a diagram's fermion lines: the parity of the pairing of in-type with out-type
 * external fermions (relative between diagrams, as Fermi statistics asks). */
static int pairing_sign(int n, int pairs[][2]) {
  int order[HG_MAX_PAIRS + 1][2];
  for (int i = 0; i < n; ++i) {
    order[i][0] = pairs[i][0];
    order[i][1] = pairs[i][1];
  }
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && order[j][0] < order[j - 1][0]; --j) {
      int t0 = order[j][0], t1 = order[j][1];
      order[j][0] = order[j - 1][0];
      order[j][1] = order[j - 1][1];
      order[j - 1][0] = t0;
      order[j - 1][1] = t1;
    }
  int inversions = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (order[i][1] > order[j][1]) ++inversions;
  return inversions % 2 ? -1 : 1;
}

static int weight_of(const hg_wavefunction *w, int n, const size_t *idx, const hg_vertex *v,
                     int *qcd, int *qed) {
  *qcd = v->qcd;
  *qed = v->qed;
  for (int k = 0; k < n; ++k) {
    *qcd += w[idx[k]].qcd;
    *qed += w[idx[k]].qed;
  }
  return *qcd + 2 * *qed;
}

/* Root vertex with three wavefunctions covering every particle. */
static void root_three(builder *b, candidate_list *list, size_t x, size_t y, size_t z) {
  const hg_diagram_set *s = b->set;
  const size_t w3[3] = {x, y, z};
  int in = -1, out = -1, n_fermion = 0;
  size_t bos[3];
  int n_bos = 0;
  for (int k = 0; k < 3; ++k) {
    const hg_wf_role r = s->wfs[w3[k]].role;
    if (r == HG_ROLE_IN) {
      in = (int)w3[k];
      ++n_fermion;
    } else if (r == HG_ROLE_OUT) {
      out = (int)w3[k];
      ++n_fermion;
    } else {
      bos[n_bos++] = w3[k];
    }
  }
  int n_pairs = 0, pairs[HG_MAX_PAIRS + 1][2];
  for (int k = 0; k < 3; ++k)
    if (merge_pairs(&n_pairs, pairs, &s->wfs[w3[k]]) != 0) {
      build_fail(b, "more fermion lines than the diagram engine takes (5)");
      return;
    }
  hg_vertex v;
  candidate *c = NULL;
  if (n_fermion == 2 && in >= 0 && out >= 0) {
    const int vec = (int)bos[0];
    if (!hg_vertex_ffx(s->wfs[out].species, s->wfs[in].species, s->wfs[vec].species, &v)) return;
    c = new_candidate(b, list);
    if (c == NULL) return;
    const hg_wavefunction *fi = &b->set->wfs[in], *fo = &b->set->wfs[out], *vb = &b->set->wfs[vec];
    const int scalar = vb->role == HG_ROLE_SCALAR;
    c->d.kind = scalar ? HG_AMP_IOS : HG_AMP_IOV;
    c->d.a = in;
    c->d.b = out;
    c->d.c = vec;
    pairs[n_pairs][0] = fi->open_fermion;
    pairs[n_pairs][1] = fo->open_fermion;
    ++n_pairs;
    int status;
    if (v.coupling == HG_COUPLING_STRONG) {
      status = hg_colour_close_fermions(&c->colour, &fo->colour, &vb->colour, &fi->colour);
    } else {
      hg_colour_expr line = {NULL, 0, 0};
      status = hg_colour_join_fermions(&line, &fo->colour, &fi->colour);
      if (status == 0) status = hg_colour_times(&c->colour, &line, &vb->colour);
      hg_colour_free(&line);
    }
    colour_fail(b, status);
  } else if (n_bos == 3) {
    const int legs[3] = {s->wfs[x].species, s->wfs[y].species, s->wfs[z].species};
    if (!hg_vertex_bbb(legs, &v)) return;
    c = new_candidate(b, list);
    if (c == NULL) return;
    c->d.a = (int)x;
    c->d.b = (int)y;
    c->d.c = (int)z;
    if (v.coupling == HG_COUPLING_STRONG) {
      c->d.kind = HG_AMP_VVV;
      hg_colour_expr xy = {NULL, 0, 0};
      int status = hg_colour_commutator(&xy, &b->set->wfs[x].colour, &b->set->wfs[y].colour);
      if (status == 0) status = hg_colour_close_gluons(&c->colour, &xy, &b->set->wfs[z].colour);
      hg_colour_free(&xy);
      hg_colour_scale(&c->colour, three_gluon_re, three_gluon_im);
      colour_fail(b, status);
    } else {
      int order[4];
      c->d.kind = hg_vertex_boson_amplitude(legs, 3, &v, order);
      c->d.a = (int)w3[order[0]];
      c->d.b = (int)w3[order[1]];
      c->d.c = (int)w3[order[2]];
      colour_fail(b, colour_product(&c->colour, b->set->wfs, w3, 3));
    }
  } else {
    return;
  }
  c->d.coupling = v.coupling;
  c->d.coupling_slot = v.slot;
  c->d.charge = v.charge;
  c->weight = weight_of(b->set->wfs, 3, w3, &v, &c->d.qcd, &c->d.qed);
  const int sign = pairing_sign(n_pairs, pairs);
  if (sign < 0) hg_colour_scale(&c->colour, -1, 0);
}

/* Root four-gluon vertex, one of its three colour structures: ggggxx(w1, w2, w3, w4) with
 * f^{a1 a2 e} f^{a3 a4 e}. */
static void root_four(builder *b, candidate_list *list, size_t w1, size_t w2, size_t w3,
                      size_t w4) {
  candidate *c = new_candidate(b, list);
  if (c == NULL) return;
  const hg_wavefunction *w = b->set->wfs;
  c->d.kind = HG_AMP_GGGG;
  c->d.a = (int)w1;
  c->d.b = (int)w2;
  c->d.c = (int)w3;
  c->d.d = (int)w4;
  c->d.coupling = HG_COUPLING_STRONG;
  hg_colour_expr x12 = {NULL, 0, 0}, x34 = {NULL, 0, 0};
  int status = hg_colour_commutator(&x12, &w[w1].colour, &w[w2].colour);
  if (status == 0) status = hg_colour_commutator(&x34, &w[w3].colour, &w[w4].colour);
  if (status == 0) status = hg_colour_close_gluons(&c->colour, &x12, &x34);
  hg_colour_free(&x12);
  hg_colour_free(&x34);
  hg_colour_scale(&c->colour, four_gluon_re, four_gluon_im);
  colour_fail(b, status);
  /* the Fermi sign of the quark lines inside the four gluon currents, as at the other roots */
  int n_pairs = 0, pairs[HG_MAX_PAIRS + 1][2];
  const size_t idx[4] = {w1, w2, w3, w4};
  for (int k = 0; k < 4; ++k)
    if (merge_pairs(&n_pairs, pairs, &w[idx[k]]) != 0)
      build_fail(b, "more fermion lines than the diagram engine takes (5)");
  if (pairing_sign(n_pairs, pairs) < 0) hg_colour_scale(&c->colour, -1, 0);
  const hg_vertex v = {HG_COUPLING_STRONG, 0, 0, 2, 0};
  c->weight = weight_of(w, 4, idx, &v, &c->d.qcd, &c->d.qed);
}

/* Root colourless four-boson vertex (vvvvcx, vvssxx, ssssxx). */
static void root_four_bosons(builder *b, candidate_list *list, size_t x, size_t y, size_t z,
                             size_t l) {
  const size_t ws[4] = {x, y, z, l};
  int legs[4];
  for (int k = 0; k < 4; ++k) legs[k] = b->set->wfs[ws[k]].species;
  hg_vertex v;
  if (!hg_vertex_bbbb(legs, &v)) return;
  candidate *c = new_candidate(b, list);
  if (c == NULL) return;
  int order[4];
  c->d.kind = hg_vertex_boson_amplitude(legs, 4, &v, order);
  int args[4];
  for (int k = 0; k < 4; ++k) args[k] = (int)ws[order[k]];
  c->d.a = args[0];
  c->d.b = args[1];
  c->d.c = args[2];
  c->d.d = args[3];
  c->d.coupling = v.coupling;
  c->d.coupling_slot = v.slot;
  colour_fail(b, colour_product(&c->colour, b->set->wfs, ws, 4));
  /* the Fermi sign of the fermion lines inside the four boson currents, as at the other roots */
  int n_pairs = 0, pairs[HG_MAX_PAIRS + 1][2];
  for (int k = 0; k < 4; ++k)
    if (merge_pairs(&n_pairs, pairs, &b->set->wfs[ws[k]]) != 0)
      build_fail(b, "more fermion lines than the diagram engine takes (5)");
  if (pairing_sign(n_pairs, pairs) < 0) hg_colour_scale(&c->colour, -1, 0);
  c->weight = weight_of(b->set->wfs, 4, ws, &v, &c->d.qcd, &c->d.qed);
}

static void mark_used(hg_diagram_set *s, int index) {
  if (index < 0 || s->wfs[index].used) return;
  s->wfs[index].used = 1;
  mark_used(s, s->wfs[index].a < 0 || s->wfs[index].kind == HG_WF_EXTERNAL ? -1 : s->wfs[index].a);
  if (s->wfs[index].kind != HG_WF_EXTERNAL) {
    mark_used(s, s->wfs[index].b);
    mark_used(s, s->wfs[index].c);
  }
}

/* The flow index of a colour structure, added to the basis when new. */
static int flow_index(builder *b, const hg_colour_term *t) {
  hg_diagram_set *s = b->set;
  for (size_t i = 0; i < s->n_flows; ++i)
    if (hg_colour_same_structure(&s->flows[i], t)) return (int)i;
  if (s->n_flows == s->flows_capacity) {
    const size_t capacity = s->flows_capacity ? 2 * s->flows_capacity : 16;
    hg_colour_term *flows = realloc(s->flows, capacity * sizeof *flows);
    if (flows == NULL) {
      build_fail(b, "no memory for the colour basis");
      return -1;
    }
    s->flows = flows;
    s->flows_capacity = capacity;
  }
  s->flows[s->n_flows] = *t;
  s->flows[s->n_flows].re = 1;
  s->flows[s->n_flows].im = 0;
  return (int)s->n_flows++;
}

static int keep_diagram(builder *b, candidate *c) {
  hg_diagram_set *s = b->set;
  hg_diagram *d = &c->d;
  d->flows = malloc((c->colour.n + 1) * sizeof *d->flows);
  d->coef_re = malloc((c->colour.n + 1) * sizeof *d->coef_re);
  d->coef_im = malloc((c->colour.n + 1) * sizeof *d->coef_im);
  if (d->flows == NULL || d->coef_re == NULL || d->coef_im == NULL) {
    build_fail(b, "no memory for the diagrams");
    return -1;
  }
  for (size_t k = 0; k < c->colour.n; ++k) {
    const int f = flow_index(b, &c->colour.terms[k]);
    if (f < 0) return -1;
    d->flows[d->n_flows] = f;
    d->coef_re[d->n_flows] = c->colour.terms[k].re;
    d->coef_im[d->n_flows] = c->colour.terms[k].im;
    ++d->n_flows;
  }
  s->diagrams[s->n_diagrams++] = *d;
  mark_used(s, d->a);
  mark_used(s, d->b);
  mark_used(s, d->c);
  mark_used(s, d->d);
  d->flows = NULL;
  d->coef_re = d->coef_im = NULL;
  return 0;
}

static void add_externals(builder *b) {
  const hg_process_spec *spec = &b->set->spec;
  for (int i = 0; i < spec->n; ++i) {
    hg_wavefunction *w = new_wf(b);
    if (w == NULL) return;
    w->coupling = HG_COUPLING_EW; /* none: an external wavefunction */
    const int incoming = i < spec->n_in;
    const int species = incoming ? hg_species_anti(spec->species[i]) : spec->species[i];
    const hg_particle *p = particle_of(species);
    w->kind = HG_WF_EXTERNAL;
    w->a = i;
    w->species = species;
    w->mask = 1u << i;
    int status = 0;
    if (p->spin == HG_SPIN_SCALAR) {
      w->role = HG_ROLE_SCALAR;
      status = hg_colour_one(&w->colour);
    } else if (p->spin == HG_SPIN_FERMION) {
      w->role = hg_species_is_anti(species) ? HG_ROLE_IN : HG_ROLE_OUT;
      w->open_fermion = i;
      status = p->colour == 3 ? hg_colour_fermion(&w->colour, i, w->role == HG_ROLE_IN)
                              : hg_colour_one(&w->colour);
    } else {
      w->role = HG_ROLE_VECTOR;
      status = p->colour == 8 ? hg_colour_gluon(&w->colour, i) : hg_colour_one(&w->colour);
    }
    colour_fail(b, status);
  }
}

int hg_diagrams_build(const hg_process_spec *spec, int width_all, hg_diagram_set *out, char *error,
                      size_t error_size) {
  memset(out, 0, sizeof *out);
  out->spec = *spec;
  out->width_all = width_all;
  out->iden = hg_process_iden(spec);
  out->helicity_bits = hg_diagrams_helicity_layout(spec, NULL);
  const int n = spec->n, last = n - 1;
  const unsigned full = (1u << last) - 1u;
  builder b = {out, calloc((size_t)full + 1, sizeof(wf_range)), error, error_size, 0};
  candidate_list list = {NULL, 0, 0};
  if (b.ranges == NULL) {
    build_fail(&b, "no memory for the diagrams");
    goto done;
  }
  add_externals(&b);
  for (int i = 0; i < last; ++i) b.ranges[1u << i] = (wf_range){(size_t)i, (size_t)i + 1};
  for (int size = 2; size < last && !b.failed; ++size)
    for (unsigned m = 1; m <= full && !b.failed; ++m) {
      if (popcount(m) != size) continue;
      const size_t start = out->n_wfs;
      const unsigned low = m & -m;
      for (unsigned s1 = (m - 1) & m; s1 && !b.failed; s1 = (s1 - 1) & m) {
        if (!(s1 & low)) continue;
        const unsigned rest = m ^ s1;
        const wf_range r1 = b.ranges[s1], r2 = b.ranges[rest];
        for (size_t x = r1.start; x < r1.end; ++x)
          for (size_t y = r2.start; y < r2.end && !b.failed; ++y) combine_two(&b, x, y);
        /* three currents into a four-gluon vertex: s1, s2 (with rest's lowest bit), s3 */
        const unsigned low2 = rest & -rest;
        for (unsigned s2 = (rest - 1) & rest; s2 && !b.failed; s2 = (s2 - 1) & rest) {
          if (!(s2 & low2)) continue;
          const wf_range q2 = b.ranges[s2], q3 = b.ranges[rest ^ s2];
          for (size_t x = r1.start; x < r1.end; ++x)
            for (size_t y = q2.start; y < q2.end; ++y)
              for (size_t z = q3.start; z < q3.end && !b.failed; ++z)
                if (all_gluons(out, x, y, z)) {
                  add_three_gluons(&b, x, y, z);
                  add_three_gluons(&b, x, z, y);
                  add_three_gluons(&b, y, z, x);
                } else if (all_bosons(out, x, y, z)) {
                  add_three_bosons(&b, x, y, z);
                }
        }
      }
      b.ranges[m] = (wf_range){start, out->n_wfs};
    }
  /* diagrams: the last particle meets two or three currents covering the others */
  const size_t wl = (size_t)last;
  const unsigned low = full & -full;
  for (unsigned s1 = full; s1 && !b.failed; s1 = (s1 - 1) & full) {
    if (!(s1 & low) || s1 == full) continue;
    const unsigned rest = full ^ s1;
    const wf_range r1 = b.ranges[s1], r2 = b.ranges[rest];
    for (size_t x = r1.start; x < r1.end; ++x)
      for (size_t y = r2.start; y < r2.end && !b.failed; ++y) root_three(&b, &list, x, y, wl);
    const unsigned low2 = rest & -rest;
    for (unsigned s2 = (rest - 1) & rest; s2 && !b.failed; s2 = (s2 - 1) & rest) {
      if (!(s2 & low2)) continue;
      const wf_range q2 = b.ranges[s2], q3 = b.ranges[rest ^ s2];
      for (size_t x = r1.start; x < r1.end; ++x)
        for (size_t y = q2.start; y < q2.end; ++y)
          for (size_t z = q3.start; z < q3.end && !b.failed; ++z)
            if (all_gluons(out, x, y, z) && is_gluon(out->wfs[wl].species)) {
              root_four(&b, &list, x, y, z, wl);
              root_four(&b, &list, x, z, y, wl);
              root_four(&b, &list, x, wl, y, z);
            } else if (all_bosons(out, x, y, z) &&
                       spin_of(out->wfs[wl].species) != HG_SPIN_FERMION) {
              root_four_bosons(&b, &list, x, y, z, wl);
            }
    }
  }
  if (!b.failed && list.n == 0)
    build_fail(&b, "has no tree-level diagram with the model's vertices (the Standard Model: "
                   "QCD, the photon, Z, W and Higgs couplings); check the particles");
  if (b.failed) goto done;
  /* keep the lowest order, as MadGraph does (weight = powers of g_s + 2 powers of e), or the
   * diagrams within the orders the process gives */
  const hg_process_spec *sp = &out->spec;
  const int explicit_orders = sp->max_qcd >= 0 || sp->max_qed >= 0 || sp->max_weighted >= 0;
  int min_weight = -1;
  for (size_t i = 0; i < list.n; ++i) {
    candidate *c = &list.c[i];
    int keep = 1;
    if (sp->max_qcd >= 0) keep &= sp->exact_qcd ? c->d.qcd == sp->max_qcd : c->d.qcd <= sp->max_qcd;
    if (sp->max_qed >= 0) keep &= sp->exact_qed ? c->d.qed == sp->max_qed : c->d.qed <= sp->max_qed;
    if (sp->max_weighted >= 0) keep &= c->weight <= sp->max_weighted;
    if (!keep)
      c->weight = -1; /* left out */
    else if (min_weight < 0 || c->weight < min_weight)
      min_weight = c->weight;
  }
  if (min_weight < 0) {
    build_fail(&b, "has no tree-level diagram within the coupling orders given; loosen them "
                   "(e.g. QED<=4) or leave them out for the lowest order");
    goto done;
  }
  out->diagrams = calloc(list.n, sizeof *out->diagrams);
  if (out->diagrams == NULL) {
    build_fail(&b, "no memory for the diagrams");
    goto done;
  }
  for (size_t i = 0; i < list.n && !b.failed; ++i)
    if (explicit_orders ? list.c[i].weight >= 0 : list.c[i].weight == min_weight)
      keep_diagram(&b, &list.c[i]);
  if (b.failed) goto done;
  out->colour_matrix = malloc(out->n_flows * out->n_flows * sizeof *out->colour_matrix);
  if (out->colour_matrix == NULL) {
    build_fail(&b, "no memory for the colour matrix");
    goto done;
  }
  for (size_t i = 0; i < out->n_flows; ++i)
    for (size_t j = 0; j <= i; ++j)
      out->colour_matrix[i * out->n_flows + j] = out->colour_matrix[j * out->n_flows + i] =
          hg_colour_product(&out->flows[i], &out->flows[j]);
done:
  for (size_t i = 0; i < list.n; ++i) {
    hg_colour_free(&list.c[i].colour);
    free(list.c[i].d.flows);
    free(list.c[i].d.coef_re);
    free(list.c[i].d.coef_im);
  }
  free(list.c);
  free(b.ranges);
  if (b.failed) {
    hg_diagrams_free(out);
    return -1;
  }
  return 0;
}

void hg_diagrams_free(hg_diagram_set *set) {
  for (size_t i = 0; i < set->n_wfs; ++i) hg_colour_free(&set->wfs[i].colour);
  free(set->wfs);
  for (size_t i = 0; i < set->n_diagrams; ++i) {
    free(set->diagrams[i].flows);
    free(set->diagrams[i].coef_re);
    free(set->diagrams[i].coef_im);
  }
  free(set->diagrams);
  free(set->flows);
  free(set->colour_matrix);
  memset(set, 0, sizeof *set);
}
