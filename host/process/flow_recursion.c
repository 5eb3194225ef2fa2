/* SPDX-License-Identifier: MIT */
/* The quark-line recursion's tape (flow_recursion.h). The vertices (vertices.h), couplings,
 * widths, colour factors and Fermi signs are those of the diagram engine (diagrams.c) applied to
 * one colour structure at a time; what differs is that a current is the SUM of every sub-diagram
 * with the same external particles, species, fermion pairing, coupling orders and colour structure,
 * so each vertex is evaluated once per pair (or triple) of such currents. */
#include "flow_recursion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "vertices.h"

/* The phases of the gluon vertices relative to HELAS's (diagrams.c, CONVENTIONS.md "Colour"). */
static const double three_gluon_im = -1, four_gluon_re = 1;

#define HG_FR_MAX_SLOTS 60000
#define HG_FR_MAX_OPS 2000000

typedef struct {
  unsigned mask;
  int species;
  hg_wf_role role;
  int open_fermion;
  int n_pairs;
  int pairs[HG_MAX_PAIRS][2]; /* (in-type, out-type) external fermions, sorted by the first */
  int qcd, qed;
  int width;
  int used;
  hg_colour_term colour; /* coefficient 1 */
} current;

typedef struct {
  hg_fr_op op;
  hg_colour_expr colour; /* the amplitude's colour at the last particle, Fermi sign included */
  int qcd, qed, weight;
} root_op;

typedef struct {
  hg_flow_recursion *fr;
  int width_all;
  current *cur;
  size_t n_cur, cap_cur;
  size_t block_start; /* the currents of the mask being made start here */
  hg_fr_op *ops;
  size_t n_ops, cap_ops;
  hg_fr_target *targets;
  size_t n_targets, cap_targets;
  root_op *roots;
  size_t n_roots, cap_roots;
  char *error;
  size_t error_size;
  int failed;
} builder;

static void fail(builder *b, const char *message) {
  if (!b->failed)
    snprintf(b->error, b->error_size, "process \"%s\": %s", b->fr->spec.text, message);
  b->failed = 1;
}

static const hg_particle *particle_of(int species) {
  return hg_model_particle(hg_species_particle(species));
}
static int is_gluon(int species) { return particle_of(species)->pdg == 21; }
static int spin_of(int species) { return particle_of(species)->spin; }
static int is_fermion_role(hg_wf_role r) { return r == HG_ROLE_IN || r == HG_ROLE_OUT; }

static hg_wf_role role_of(int species) {
  const int spin = spin_of(species);
  if (spin == HG_SPIN_FERMION) return hg_species_is_anti(species) ? HG_ROLE_IN : HG_ROLE_OUT;
  return spin == HG_SPIN_SCALAR ? HG_ROLE_SCALAR : HG_ROLE_VECTOR;
}

static int grow(builder *b, void **items, size_t n, size_t *capacity, size_t size) {
  if (n < *capacity) return 0;
  const size_t grown = *capacity ? 2 * *capacity : 256;
  void *bigger = realloc(*items, grown * size);
  if (bigger == NULL) {
    fail(b, "no memory for the recursion's currents");
    return -1;
  }
  *items = bigger;
  *capacity = grown;
  return 0;
}

static int popcount(unsigned m) {
  int c = 0;
  for (; m; m &= m - 1) ++c;
  return c;
}

/* The width flag of a propagator of species over mask, as the diagram engine sets it. */
static int carries_width(const builder *b, int species, unsigned mask) {
  const hg_particle *p = particle_of(species);
  if (p->width == HG_PARAM_ZERO) return 0;
  if (b->width_all) return 1;
  const unsigned incoming = mask & 3u;
  if (incoming == 1u || incoming == 2u) return 0;
  for (int i = 0; i < b->fr->spec.n; ++i)
    if ((mask >> i & 1u) &&
        hg_species_particle(b->fr->spec.species[i]) == hg_species_particle(species))
      return 0;
  return 1;
}

/* The single-term colour expression of current x (no allocation: points at a copy). */
static hg_colour_expr single(hg_colour_term *copy, const current *x) {
  *copy = x->colour;
  return (hg_colour_expr){copy, 1, 1};
}

/* The fields of a new current of species from inputs x, y (and z) through vertex v: all but
 * the open fermion and the colour. */
static current combined(const builder *b, const current *x, const current *y, const current *z,
                        int species, const hg_vertex *v) {
  current w;
  memset(&w, 0, sizeof w);
  w.mask = x->mask | y->mask | (z ? z->mask : 0u);
  w.species = species;
  w.role = role_of(species);
  w.open_fermion = -1;
  w.qcd = x->qcd + y->qcd + (z ? z->qcd : 0) + v->qcd;
  w.qed = x->qed + y->qed + (z ? z->qed : 0) + v->qed;
  w.width = carries_width(b, species, w.mask);
  const current *in[3] = {x, y, z};
  for (int k = 0; k < 3; ++k)
    for (int p = 0; in[k] != NULL && p < in[k]->n_pairs && w.n_pairs < HG_MAX_PAIRS; ++p) {
      w.pairs[w.n_pairs][0] = in[k]->pairs[p][0];
      w.pairs[w.n_pairs][1] = in[k]->pairs[p][1];
      ++w.n_pairs;
    }
  return w;
}

static void add_pair(current *w, int in, int out) {
  if (w->n_pairs == HG_MAX_PAIRS) return;
  int at = w->n_pairs++;
  for (; at > 0 && w->pairs[at - 1][0] > in; --at) {
    w->pairs[at][0] = w->pairs[at - 1][0];
    w->pairs[at][1] = w->pairs[at - 1][1];
  }
  w->pairs[at][0] = in;
  w->pairs[at][1] = out;
}

static void sort_pairs(current *w) {
  current copy = *w;
  w->n_pairs = 0;
  for (int p = 0; p < copy.n_pairs; ++p) add_pair(w, copy.pairs[p][0], copy.pairs[p][1]);
}

static int same_key(const current *a, const current *b) {
  if (a->mask != b->mask || a->species != b->species || a->role != b->role ||
      a->open_fermion != b->open_fermion || a->n_pairs != b->n_pairs || a->qcd != b->qcd ||
      a->qed != b->qed)
    return 0;
  for (int p = 0; p < a->n_pairs; ++p)
    if (a->pairs[p][0] != b->pairs[p][0] || a->pairs[p][1] != b->pairs[p][1]) return 0;
  return hg_colour_same_structure(&a->colour, &b->colour);
}

/* Adds the op and, for each term of colour, a target: the current of key proto with that term's
 * structure (made when new). */
static void emit(builder *b, const hg_fr_op *op, const current *proto, hg_colour_expr *colour,
                 int status) {
  if (status != 0) {
    fail(b, "its colour factors outgrow the colour algebra's room");
    return;
  }
  if (colour->n == 0) return; /* the colour vanishes */
  void *items = b->ops;
  if (b->n_ops == HG_FR_MAX_OPS) {
    fail(b, "needs more than 2000000 vertex operations: too large for the recursive engine; use "
            "the diagrams engine (--engine diagrams)");
    return;
  }
  if (grow(b, &items, b->n_ops, &b->cap_ops, sizeof *b->ops) != 0) return;
  b->ops = items;
  hg_fr_op *o = &b->ops[b->n_ops++];
  *o = *op;
  o->first_target = b->n_targets;
  o->n_targets = colour->n;
  for (size_t t = 0; t < colour->n; ++t) {
    current key = *proto;
    key.colour = colour->terms[t];
    key.colour.re = 1;
    key.colour.im = 0;
    size_t slot = b->block_start;
    while (slot < b->n_cur && !same_key(&b->cur[slot], &key)) ++slot;
    if (slot == b->n_cur) {
      if (b->n_cur == HG_FR_MAX_SLOTS) {
        fail(b, "needs more than 60000 off-shell currents: too large for the recursive engine; "
                "use the diagrams engine (--engine diagrams)");
        return;
      }
      items = b->cur;
      if (grow(b, &items, b->n_cur, &b->cap_cur, sizeof *b->cur) != 0) return;
      b->cur = items;
      b->cur[b->n_cur++] = key;
    }
    items = b->targets;
    if (grow(b, &items, b->n_targets, &b->cap_targets, sizeof *b->targets) != 0) return;
    b->targets = items;
    b->targets[b->n_targets++] =
        (hg_fr_target){(int)slot, 0, colour->terms[t].re, colour->terms[t].im};
  }
}

/* An operation of kind on arguments x, y (slots) with vertex v's coupling, making a current of
 * the given species and width flag (the propagator's mass and width). */
static hg_fr_op new_op(int kind, size_t x, size_t y, const hg_vertex *v, int species, int width) {
  hg_fr_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.a = (int)x;
  op.b = (int)y;
  op.c = op.d = -1;
  op.coupling = v->coupling;
  op.charge = v->charge;
  op.coupling_slot = v->slot;
  op.mass = species >= 0 ? particle_of(species)->mass : HG_PARAM_ZERO;
  op.width = width;
  return op;
}

/* The fermion currents after boson current bi joins fermion current fi: fvixxx / fvoxxx /
 * fsixxx / fsoxxx, one per vertex the model has (the W changes the flavour). */
static void fermion_boson(builder *b, size_t fi, size_t bi) {
  const current f = b->cur[fi], v = b->cur[bi];
  const int scalar = v.role == HG_ROLE_SCALAR;
  for (int s = 0; s < 2 * hg_model_particle_count() && !b->failed; ++s) {
    if (spin_of(s) != HG_SPIN_FERMION || role_of(s) != f.role) continue;
    const int other = hg_species_anti(s);
    hg_vertex vx;
    const int found = f.role == HG_ROLE_IN ? hg_vertex_ffx(other, f.species, v.species, &vx)
                                           : hg_vertex_ffx(f.species, other, v.species, &vx);
    if (!found) continue;
    const int kind =
        f.role == HG_ROLE_IN ? (scalar ? HG_WF_FSI : HG_WF_FVI) : (scalar ? HG_WF_FSO : HG_WF_FVO);
    current w = combined(b, &f, &v, NULL, s, &vx);
    w.open_fermion = f.open_fermion;
    sort_pairs(&w);
    hg_fr_op op = new_op(kind, fi, bi, &vx, s, w.width);
    hg_colour_term tf, tv;
    hg_colour_expr ef = single(&tf, &f), ev = single(&tv, &v), out = {NULL, 0, 0};
    const int status = vx.coupling != HG_COUPLING_STRONG ? hg_colour_times(&out, &ef, &ev)
                       : f.role == HG_ROLE_IN            ? hg_colour_apply_i(&out, &ev, &ef)
                                                         : hg_colour_apply_o(&out, &ef, &ev);
    emit(b, &op, &w, &out, status);
    hg_colour_free(&out);
  }
}

/* The boson currents of a fermion pair: jioxxx (gluon, photon, Z, W) and hioxxx (Higgs). */
static void fermion_pair(builder *b, size_t ii, size_t oi) {
  const current fi = b->cur[ii], fo = b->cur[oi];
  for (int s = 0; s < 2 * hg_model_particle_count() && !b->failed; ++s) {
    if (spin_of(s) == HG_SPIN_FERMION || (hg_species_is_anti(s) && hg_species_anti(s) == s))
      continue;
    hg_vertex v;
    if (!hg_vertex_ffx(fo.species, fi.species, hg_species_anti(s), &v)) continue;
    current w = combined(b, &fi, &fo, NULL, s, &v);
    add_pair(&w, fi.open_fermion, fo.open_fermion);
    sort_pairs(&w);
    hg_fr_op op =
        new_op(spin_of(s) == HG_SPIN_SCALAR ? HG_WF_HIO : HG_WF_JIO, ii, oi, &v, s, w.width);
    hg_colour_term ti, to;
    hg_colour_expr ei = single(&ti, &fi), eo = single(&to, &fo), out = {NULL, 0, 0};
    const int status = v.coupling == HG_COUPLING_STRONG ? hg_colour_pair_to_gluon(&out, &eo, &ei)
                                                        : hg_colour_join_fermions(&out, &eo, &ei);
    emit(b, &op, &w, &out, status);
    hg_colour_free(&out);
  }
}

static void two_gluons(builder *b, size_t x, size_t y) {
  const current a = b->cur[x], c = b->cur[y];
  const hg_vertex v = {HG_COUPLING_STRONG, 0, 0, 1, 0};
  current w = combined(b, &a, &c, NULL, a.species, &v);
  sort_pairs(&w);
  hg_fr_op op = new_op(HG_WF_JVV, x, y, &v, a.species, 0);
  hg_colour_term ta, tc;
  hg_colour_expr ea = single(&ta, &a), ec = single(&tc, &c), out = {NULL, 0, 0};
  const int status = hg_colour_commutator(&out, &ea, &ec);
  hg_colour_scale(&out, 0, three_gluon_im);
  emit(b, &op, &w, &out, status);
  hg_colour_free(&out);
}

static void three_gluons(builder *b, size_t x, size_t y, size_t z) {
  const current a = b->cur[x], c = b->cur[y], d = b->cur[z];
  const hg_vertex v = {HG_COUPLING_STRONG, 0, 0, 2, 0};
  current w = combined(b, &a, &c, &d, a.species, &v);
  sort_pairs(&w);
  hg_fr_op op = new_op(HG_WF_JGGG, x, y, &v, a.species, 0);
  op.c = (int)z;
  hg_colour_term ta, tc, td;
  hg_colour_expr ea = single(&ta, &a), ec = single(&tc, &c), ed = single(&td, &d);
  hg_colour_expr inner = {NULL, 0, 0}, out = {NULL, 0, 0};
  int status = hg_colour_commutator(&inner, &ea, &ec);
  if (status == 0) status = hg_colour_commutator(&out, &inner, &ed);
  hg_colour_free(&inner);
  hg_colour_scale(&out, four_gluon_re, 0);
  emit(b, &op, &w, &out, status);
  hg_colour_free(&out);
}

/* The product of the single colour terms of currents idx[0..n-1] (a colourless vertex). */
static int colour_product(const builder *b, const size_t *idx, int n, hg_colour_expr *out) {
  hg_colour_term t;
  hg_colour_expr acc = {NULL, 0, 0}, first = single(&t, &b->cur[idx[0]]);
  int status = hg_colour_copy(&acc, &first);
  for (int k = 1; k < n && status == 0; ++k) {
    hg_colour_term tk;
    hg_colour_expr next = {NULL, 0, 0}, ek = single(&tk, &b->cur[idx[k]]);
    status = hg_colour_times(&next, &acc, &ek);
    hg_colour_free(&acc);
    acc = next;
  }
  *out = acc;
  return status;
}

/* Colourless boson currents of two or three boson currents ws[0..n-1] (vertices.h: W W V, V V H,
 * H H H and the four-boson vertices). */
static void bosons(builder *b, const size_t *ws, int n) {
  for (int s = 0; s < 2 * hg_model_particle_count() && !b->failed; ++s) {
    if (spin_of(s) == HG_SPIN_FERMION || is_gluon(s) ||
        (hg_species_is_anti(s) && hg_species_anti(s) == s))
      continue;
    int legs[4];
    for (int k = 0; k < n; ++k) legs[k] = b->cur[ws[k]].species;
    legs[n] = hg_species_anti(s);
    hg_vertex v;
    if (n == 2 ? !hg_vertex_bbb(legs, &v) || v.coupling != HG_COUPLING_EW
               : !hg_vertex_bbbb(legs, &v))
      continue;
    int order[3];
    const int kind = hg_vertex_boson_current(legs, n, s, &v, order);
    current w = combined(b, &b->cur[ws[0]], &b->cur[ws[1]], n == 3 ? &b->cur[ws[2]] : NULL, s, &v);
    sort_pairs(&w);
    hg_fr_op op = new_op(kind, ws[order[0]], ws[order[1]], &v, s, w.width);
    if (n == 3) op.c = (int)ws[order[2]];
    hg_colour_expr out = {NULL, 0, 0};
    const int status = colour_product(b, ws, n, &out);
    emit(b, &op, &w, &out, status);
    hg_colour_free(&out);
  }
}

static void combine_two(builder *b, size_t x, size_t y) {
  const current *a = &b->cur[x], *c = &b->cur[y];
  const int a_fermion = is_fermion_role(a->role), c_fermion = is_fermion_role(c->role);
  if (a_fermion && !c_fermion)
    fermion_boson(b, x, y);
  else if (!a_fermion && c_fermion)
    fermion_boson(b, y, x);
  else if (a->role == HG_ROLE_IN && c->role == HG_ROLE_OUT)
    fermion_pair(b, x, y);
  else if (a->role == HG_ROLE_OUT && c->role == HG_ROLE_IN)
    fermion_pair(b, y, x);
  else if (!a_fermion && !c_fermion) {
    if (is_gluon(a->species) && is_gluon(c->species)) {
      two_gluons(b, x, y);
    } else {
      const size_t ws[2] = {x, y};
      bosons(b, ws, 2);
    }
  }
}

static int all_gluons(const builder *b, size_t x, size_t y, size_t z) {
  return is_gluon(b->cur[x].species) && is_gluon(b->cur[y].species) && is_gluon(b->cur[z].species);
}

static int all_bosons(const builder *b, size_t x, size_t y, size_t z) {
  return !is_fermion_role(b->cur[x].role) && !is_fermion_role(b->cur[y].role) &&
         !is_fermion_role(b->cur[z].role);
}

/* The parity of the pairing of in-type with out-type external fermions (diagrams.c). */
static int pairing_sign(int n, int pairs[][2]) {
  int inversions = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (pairs[i][0] < pairs[j][0] && pairs[i][1] > pairs[j][1]) ++inversions;
  return inversions % 2 ? -1 : 1;
}

static root_op *new_root(builder *b) {
  void *items = b->roots;
  if (grow(b, &items, b->n_roots, &b->cap_roots, sizeof *b->roots) != 0) return NULL;
  b->roots = items;
  root_op *r = &b->roots[b->n_roots++];
  memset(r, 0, sizeof *r);
  return r;
}

static int merge(int *n, int pairs[][2], const current *x) {
  for (int k = 0; k < x->n_pairs; ++k) {
    if (*n == HG_MAX_PAIRS) return -1;
    pairs[*n][0] = x->pairs[k][0];
    pairs[*n][1] = x->pairs[k][1];
    ++*n;
  }
  return 0;
}

/* Records the amplitude op with its colour (the Fermi sign of pairs applied) and the coupling
 * orders of its currents idx[0..n-1] and vertex v. */
static void add_root(builder *b, const hg_fr_op *op, hg_colour_expr *colour, int status,
                     int n_pairs, int pairs[][2], const size_t *idx, int n, const hg_vertex *v) {
  if (status == 0 && pairing_sign(n_pairs, pairs) < 0) hg_colour_scale(colour, -1, 0);
  root_op *r = status == 0 ? new_root(b) : NULL;
  if (r == NULL) {
    if (status != 0) fail(b, "its colour factors outgrow the colour algebra's room");
    hg_colour_free(colour);
    return;
  }
  r->op = *op;
  r->colour = *colour;
  r->qcd = v->qcd;
  r->qed = v->qed;
  for (int k = 0; k < n; ++k) {
    r->qcd += b->cur[idx[k]].qcd;
    r->qed += b->cur[idx[k]].qed;
  }
  r->weight = r->qcd + 2 * r->qed;
}

/* The fermion pairs of currents idx[0..n-1] merged into pairs; -1 (failed) beyond the room. */
static int merge_all(builder *b, const size_t *idx, int n, int *n_pairs, int pairs[][2]) {
  *n_pairs = 0;
  for (int k = 0; k < n; ++k)
    if (merge(n_pairs, pairs, &b->cur[idx[k]]) != 0) {
      fail(b, "more fermion lines than the recursive engine takes (5)");
      return -1;
    }
  return 0;
}

/* The amplitude where currents x, y meet the last particle z: a fermion pair and a boson
 * (iovxxx, iosxxx) or three bosons (vvvxxx for gluons, vvvcxx, vvsxxx, sssxxx). */
static void root_three(builder *b, size_t x, size_t y, size_t z) {
  const size_t w3[3] = {x, y, z};
  int in = -1, out = -1, n_bos = 0, n_pairs, pairs[HG_MAX_PAIRS + 1][2];
  size_t bos[3];
  for (int k = 0; k < 3; ++k) {
    const hg_wf_role r = b->cur[w3[k]].role;
    if (r == HG_ROLE_IN)
      in = (int)w3[k];
    else if (r == HG_ROLE_OUT)
      out = (int)w3[k];
    else
      bos[n_bos++] = w3[k];
  }
  if (merge_all(b, w3, 3, &n_pairs, pairs) != 0) return;
  hg_colour_expr colour = {NULL, 0, 0};
  hg_vertex v;
  hg_fr_op op;
  int status;
  if (n_bos == 1 && in >= 0 && out >= 0) {
    const current *fi = &b->cur[in], *fo = &b->cur[out], *vb = &b->cur[bos[0]];
    if (!hg_vertex_ffx(fo->species, fi->species, vb->species, &v)) return;
    const int scalar = vb->role == HG_ROLE_SCALAR;
    op = new_op(HG_FR_AMPLITUDE + (scalar ? HG_AMP_IOS : HG_AMP_IOV), (size_t)in, (size_t)out, &v,
                -1, 0);
    op.c = (int)bos[0];
    pairs[n_pairs][0] = fi->open_fermion;
    pairs[n_pairs][1] = fo->open_fermion;
    ++n_pairs;
    hg_colour_term ti, to, tv;
    hg_colour_expr ei = single(&ti, fi), eo = single(&to, fo), ev = single(&tv, vb);
    if (v.coupling == HG_COUPLING_STRONG) {
      status = hg_colour_close_fermions(&colour, &eo, &ev, &ei);
    } else {
      hg_colour_expr line = {NULL, 0, 0};
      status = hg_colour_join_fermions(&line, &eo, &ei);
      if (status == 0) status = hg_colour_times(&colour, &line, &ev);
      hg_colour_free(&line);
    }
  } else if (n_bos == 3) {
    const int legs[3] = {b->cur[x].species, b->cur[y].species, b->cur[z].species};
    if (!hg_vertex_bbb(legs, &v)) return;
    if (v.coupling == HG_COUPLING_STRONG) {
      op = new_op(HG_FR_AMPLITUDE + HG_AMP_VVV, x, y, &v, -1, 0);
      op.c = (int)z;
      hg_colour_term tx, ty, tz;
      hg_colour_expr ex = single(&tx, &b->cur[x]), ey = single(&ty, &b->cur[y]),
                     ez = single(&tz, &b->cur[z]), xy = {NULL, 0, 0};
      status = hg_colour_commutator(&xy, &ex, &ey);
      if (status == 0) status = hg_colour_close_gluons(&colour, &xy, &ez);
      hg_colour_free(&xy);
      hg_colour_scale(&colour, 0, three_gluon_im);
    } else {
      int order[4];
      const int kind = hg_vertex_boson_amplitude(legs, 3, &v, order);
      op = new_op(HG_FR_AMPLITUDE + kind, w3[order[0]], w3[order[1]], &v, -1, 0);
      op.c = (int)w3[order[2]];
      status = colour_product(b, w3, 3, &colour);
    }
  } else {
    return;
  }
  add_root(b, &op, &colour, status, n_pairs, pairs, w3, 3, &v);
}

/* The four-gluon amplitude: ggggxx(w1, w2, w3, w4) with f^{a1 a2 e} f^{a3 a4 e}. */
static void root_four(builder *b, size_t w1, size_t w2, size_t w3, size_t w4) {
  const current *c = b->cur;
  hg_colour_term t1, t2, t3, t4;
  hg_colour_expr e1 = single(&t1, &c[w1]), e2 = single(&t2, &c[w2]), e3 = single(&t3, &c[w3]),
                 e4 = single(&t4, &c[w4]);
  hg_colour_expr x12 = {NULL, 0, 0}, x34 = {NULL, 0, 0}, colour = {NULL, 0, 0};
  int status = hg_colour_commutator(&x12, &e1, &e2);
  if (status == 0) status = hg_colour_commutator(&x34, &e3, &e4);
  if (status == 0) status = hg_colour_close_gluons(&colour, &x12, &x34);
  hg_colour_free(&x12);
  hg_colour_free(&x34);
  hg_colour_scale(&colour, four_gluon_re, 0);
  int n_pairs, pairs[HG_MAX_PAIRS + 1][2];
  const size_t w[4] = {w1, w2, w3, w4};
  if (merge_all(b, w, 4, &n_pairs, pairs) != 0) {
    hg_colour_free(&colour);
    return;
  }
  const hg_vertex v = {HG_COUPLING_STRONG, 0, 0, 2, 0};
  hg_fr_op op = new_op(HG_FR_AMPLITUDE + HG_AMP_GGGG, w1, w2, &v, -1, 0);
  op.c = (int)w3;
  op.d = (int)w4;
  add_root(b, &op, &colour, status, n_pairs, pairs, w, 4, &v);
}

/* A colourless four-boson amplitude (vvvvcx, vvssxx, ssssxx). */
static void root_four_bosons(builder *b, size_t x, size_t y, size_t z, size_t l) {
  const size_t ws[4] = {x, y, z, l};
  int legs[4];
  for (int k = 0; k < 4; ++k) legs[k] = b->cur[ws[k]].species;
  hg_vertex v;
  if (!hg_vertex_bbbb(legs, &v)) return;
  int n_pairs, pairs[HG_MAX_PAIRS + 1][2];
  if (merge_all(b, ws, 4, &n_pairs, pairs) != 0) return;
  int order[4];
  const int kind = hg_vertex_boson_amplitude(legs, 4, &v, order);
  hg_fr_op op = new_op(HG_FR_AMPLITUDE + kind, ws[order[0]], ws[order[1]], &v, -1, 0);
  op.c = (int)ws[order[2]];
  op.d = (int)ws[order[3]];
  hg_colour_expr colour = {NULL, 0, 0};
  const int status = colour_product(b, ws, 4, &colour);
  add_root(b, &op, &colour, status, n_pairs, pairs, ws, 4, &v);
}

static void add_externals(builder *b) {
  const hg_process_spec *spec = &b->fr->spec;
  for (int i = 0; i < spec->n && !b->failed; ++i) {
    void *items = b->cur;
    if (grow(b, &items, b->n_cur, &b->cap_cur, sizeof *b->cur) != 0) return;
    b->cur = items;
    current *w = &b->cur[b->n_cur++];
    memset(w, 0, sizeof *w);
    const int incoming = i < spec->n_in;
    const int species = incoming ? hg_species_anti(spec->species[i]) : spec->species[i];
    const hg_particle *p = particle_of(species);
    w->species = species;
    w->mask = 1u << i;
    w->open_fermion = -1;
    hg_colour_expr e = {NULL, 0, 0};
    int status;
    w->role = role_of(species);
    if (p->spin == HG_SPIN_FERMION) {
      w->open_fermion = i;
      status = p->colour == 3 ? hg_colour_fermion(&e, i, w->role == HG_ROLE_IN) : hg_colour_one(&e);
    } else {
      status = p->colour == 8 ? hg_colour_gluon(&e, i) : hg_colour_one(&e);
    }
    if (status != 0 || e.n != 1)
      fail(b, "no memory for the colour algebra");
    else
      w->colour = e.terms[0];
    hg_colour_free(&e);
  }
}

static int flow_index(builder *b, const hg_colour_term *t) {
  hg_flow_recursion *fr = b->fr;
  for (size_t i = 0; i < fr->n_flows; ++i)
    if (hg_colour_same_structure(&fr->flows[i], t)) return (int)i;
  hg_colour_term *flows = realloc(fr->flows, (fr->n_flows + 1) * sizeof *flows);
  if (flows == NULL) {
    fail(b, "no memory for the colour basis");
    return -1;
  }
  fr->flows = flows;
  fr->flows[fr->n_flows] = *t;
  fr->flows[fr->n_flows].re = 1;
  fr->flows[fr->n_flows].im = 0;
  return (int)fr->n_flows++;
}

/* Moves each amplitude operation to just after the operations making the currents of the set of
 * particles whose last one it reads (it was at the tape's end), so that a current read by
 * amplitudes only (those of all but one particle, the most numerous) dies as soon as it is
 * complete; the targets follow the new order. The colour flows then receive their terms in
 * another order (the sum is the same up to rounding). After every set's operations rather than
 * right after the last one adding into the current: on CPUs (PoCL) the interpreter's switch
 * between kinds of operations is dearer the more often the kind changes. */
static void place_amplitudes(builder *b, const unsigned *mask_of) {
  hg_flow_recursion *fr = b->fr;
  size_t n_ops = fr->n_ops;
  long *last_write = malloc(((size_t)fr->n_slots + 1) * sizeof *last_write);
  long *after = malloc((n_ops + 1) * sizeof *after); /* the op an amplitude follows, -1: first */
  size_t *order = malloc((n_ops + 1) * sizeof *order);
  hg_fr_op *ops = malloc((n_ops + 1) * sizeof *ops);
  hg_fr_target *targets = malloc((fr->n_targets + 1) * sizeof *targets);
  if (last_write == NULL || after == NULL || order == NULL || ops == NULL || targets == NULL) {
    free(last_write);
    free(after);
    free(order);
    free(ops);
    free(targets);
    fail(b, "no memory for the recursion's tape");
    return;
  }
  for (int c = 0; c < fr->n_slots; ++c) last_write[c] = -1;
  for (size_t o = 0; o < n_ops; ++o) {
    const hg_fr_op *op = &fr->ops[o];
    if (op->kind >= HG_FR_AMPLITUDE) {
      const int args[4] = {op->a, op->b, op->c, op->d};
      after[o] = -1;
      for (int k = 0; k < 4; ++k)
        if (args[k] >= 0 && last_write[args[k]] > after[o]) after[o] = last_write[args[k]];
      continue;
    }
    for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t)
      last_write[fr->targets[t].slot] = (long)o;
  }
  /* not within the operations making the currents of one set of particles, though: after the
   * last of them (the kernel then switches between kinds of operations less often) */
  for (size_t a = 0; a < n_ops; ++a) {
    if (fr->ops[a].kind < HG_FR_AMPLITUDE || after[a] < 0) continue;
    const unsigned mask = mask_of[fr->targets[fr->ops[after[a]].first_target].slot];
    size_t o = (size_t)after[a];
    while (o + 1 < n_ops && fr->ops[o + 1].kind < HG_FR_AMPLITUDE &&
           mask_of[fr->targets[fr->ops[o + 1].first_target].slot] == mask)
      ++o;
    after[a] = (long)o;
  }
  /* the currents' operations keep their order; each amplitude comes after the one it follows,
   * the amplitudes after one operation in their order */
  size_t *first = calloc(n_ops + 2, sizeof *first), *sorted = malloc((n_ops + 1) * sizeof *sorted);
  if (first == NULL || sorted == NULL) {
    fail(b, "no memory for the recursion's tape");
    n_ops = 0;
  }
  /* the amplitudes sorted by the op they follow (stable: counts, then places) */
  for (size_t a = 0; a < n_ops; ++a)
    if (fr->ops[a].kind >= HG_FR_AMPLITUDE) ++first[after[a] + 2];
  for (size_t o = 1; o < n_ops + 2; ++o) first[o] += first[o - 1];
  for (size_t a = 0; a < n_ops; ++a)
    if (fr->ops[a].kind >= HG_FR_AMPLITUDE) sorted[first[after[a] + 1]++] = a;
  /* first[o + 1] is now the end of those following o, first[o] their start */
  size_t n = 0, next = 0;
  while (next < first[0]) order[n++] = sorted[next++];
  for (size_t o = 0; o < n_ops; ++o) {
    if (fr->ops[o].kind >= HG_FR_AMPLITUDE) continue;
    order[n++] = o;
    while (next < first[o + 1]) order[n++] = sorted[next++];
  }
  free(first);
  free(sorted);
  size_t n_targets = 0;
  for (size_t k = 0; k < n; ++k) {
    hg_fr_op op = fr->ops[order[k]];
    memcpy(targets + n_targets, fr->targets + op.first_target, op.n_targets * sizeof *targets);
    op.first_target = n_targets;
    n_targets += op.n_targets;
    ops[k] = op;
  }
  memcpy(fr->ops, ops, n * sizeof *ops);
  memcpy(fr->targets, targets, n_targets * sizeof *targets);
  free(last_write);
  free(after);
  free(order);
  free(ops);
  free(targets);
}

/* Gives currents whose lives on the tape do not overlap one slot: a current lives from the first
 * operation adding into it to the last one reading it, and its slot is free for the currents
 * first made after that operation; the externals keep slots 0..n-1. The first contribution to a
 * current is marked (hg_fr_target.first), so that it replaces what its slot held. */
static void share_slots(builder *b) {
  hg_flow_recursion *fr = b->fr;
  const int n = fr->spec.n, total = fr->n_slots;
  fr->n_currents = total - n;
  size_t *last_read = calloc((size_t)total + 1, sizeof *last_read);
  int *slot_of = malloc(((size_t)total + 1) * sizeof *slot_of),
      *free_slots = malloc(((size_t)total + 1) * sizeof *free_slots);
  if (last_read == NULL || slot_of == NULL || free_slots == NULL) {
    free(last_read);
    free(slot_of);
    free(free_slots);
    fail(b, "no memory for the recursion's slots");
    return;
  }
  for (size_t o = 0; o < fr->n_ops; ++o) {
    const hg_fr_op *op = &fr->ops[o];
    const int args[4] = {op->a, op->b, op->c, op->d};
    for (int k = 0; k < 4; ++k)
      if (args[k] >= 0) last_read[args[k]] = o;
  }
  for (int c = 0; c < total; ++c) slot_of[c] = c < n ? c : -1;
  int n_free = 0, peak = n;
  for (size_t o = 0; o < fr->n_ops; ++o) {
    hg_fr_op *op = &fr->ops[o];
    const int args[4] = {op->a, op->b, op->c, op->d}; /* currents */
    op->a = slot_of[op->a];
    op->b = slot_of[op->b];
    op->c = op->c >= 0 ? slot_of[op->c] : -1;
    op->d = op->d >= 0 ? slot_of[op->d] : -1;
    if (op->kind < HG_FR_AMPLITUDE)
      for (size_t t = op->first_target; t < op->first_target + op->n_targets; ++t) {
        hg_fr_target *target = &fr->targets[t];
        const int c = target->slot;
        target->first = slot_of[c] < 0;
        if (target->first) slot_of[c] = n_free > 0 ? free_slots[--n_free] : peak++;
        target->slot = slot_of[c];
      }
    /* the currents read for the last time here: their slots serve currents made later (every
     * contribution to a current comes before its first reader: a set of particles' currents are
     * made before those of the sets that contain it) */
    for (int k = 0; k < 4; ++k)
      if (args[k] >= n && last_read[args[k]] == o) {
        free_slots[n_free++] = slot_of[args[k]];
        last_read[args[k]] = (size_t)-1;
      }
  }
  fr->n_slots = peak;
  free(last_read);
  free(slot_of);
  free(free_slots);
}

/* Keeps the ops that feed a kept amplitude and the currents they make, renumbered. */
static void finish(builder *b, int min_weight) {
  hg_flow_recursion *fr = b->fr;
  const int n = fr->spec.n;
  for (int i = 0; i < n; ++i) b->cur[i].used = 1;
  size_t kept_roots = 0, root_targets = 0;
  /* an amplitude whose colour vanishes (a U(1) gluon term meeting gluons: [1, X] = 0, Tr(X) = 0)
   * adds into no flow: it is not kept, nor what feeds only it */
  for (size_t r = 0; r < b->n_roots; ++r)
    if (b->roots[r].weight == min_weight && b->roots[r].colour.n > 0) {
      const hg_fr_op *o = &b->roots[r].op;
      const int args[4] = {o->a, o->b, o->c, o->d};
      for (int k = 0; k < 4; ++k)
        if (args[k] >= 0) b->cur[args[k]].used = 1;
      ++kept_roots;
      root_targets += b->roots[r].colour.n;
    }
  char *needed = calloc(b->n_ops + 1, 1);
  int *slot_of = malloc((b->n_cur + 1) * sizeof *slot_of);
  fr->ops = malloc((b->n_ops + kept_roots + 1) * sizeof *fr->ops);
  fr->targets = malloc((b->n_targets + root_targets + 1) * sizeof *fr->targets);
  if (needed == NULL || slot_of == NULL || fr->ops == NULL || fr->targets == NULL) {
    free(needed);
    free(slot_of);
    fail(b, "no memory for the recursion's tape");
    return;
  }
  for (size_t o = b->n_ops; o-- > 0;) {
    const hg_fr_op *op = &b->ops[o];
    for (size_t t = 0; t < op->n_targets; ++t)
      needed[o] |= b->cur[b->targets[op->first_target + t].slot].used;
    if (!needed[o]) continue;
    const int args[4] = {op->a, op->b, op->c, op->d};
    for (int k = 0; k < 4; ++k)
      if (args[k] >= 0) b->cur[args[k]].used = 1;
  }
  int slots = 0;
  for (size_t c = 0; c < b->n_cur; ++c) slot_of[c] = b->cur[c].used ? slots++ : -1;
  fr->n_slots = slots;
  fr->n_diagram_currents = b->n_cur - (size_t)n;
  for (size_t o = 0; o < b->n_ops; ++o) {
    if (!needed[o]) continue;
    hg_fr_op op = b->ops[o];
    const size_t first = fr->n_targets;
    for (size_t t = 0; t < op.n_targets; ++t) {
      hg_fr_target target = b->targets[op.first_target + t];
      if (slot_of[target.slot] < 0) continue;
      target.slot = slot_of[target.slot];
      fr->targets[fr->n_targets++] = target;
    }
    op.first_target = first;
    op.n_targets = fr->n_targets - first;
    op.a = slot_of[op.a];
    op.b = slot_of[op.b];
    op.c = op.c >= 0 ? slot_of[op.c] : -1;
    fr->ops[fr->n_ops++] = op;
  }
  for (size_t r = 0; r < b->n_roots && !b->failed; ++r) {
    if (b->roots[r].weight != min_weight || b->roots[r].colour.n == 0) continue;
    hg_fr_op op = b->roots[r].op;
    op.first_target = fr->n_targets;
    for (size_t t = 0; t < b->roots[r].colour.n; ++t) {
      const hg_colour_term *term = &b->roots[r].colour.terms[t];
      const int f = flow_index(b, term);
      if (f < 0) break;
      fr->targets[fr->n_targets++] = (hg_fr_target){f, 0, term->re, term->im};
    }
    op.n_targets = fr->n_targets - op.first_target;
    op.a = slot_of[op.a];
    op.b = slot_of[op.b];
    op.c = op.c >= 0 ? slot_of[op.c] : -1;
    op.d = op.d >= 0 ? slot_of[op.d] : -1;
    fr->ops[fr->n_ops++] = op;
  }
  free(needed);
  /* each kept current's particles, for place_amplitudes */
  unsigned *mask_of = malloc(((size_t)fr->n_slots + 1) * sizeof *mask_of);
  if (mask_of == NULL) fail(b, "no memory for the recursion's tape");
  for (size_t c = 0; c < b->n_cur && mask_of != NULL; ++c)
    if (slot_of[c] >= 0) mask_of[slot_of[c]] = b->cur[c].mask;
  free(slot_of);
  if (!b->failed) place_amplitudes(b, mask_of);
  free(mask_of);
  if (!b->failed) share_slots(b);
}

int hg_flow_recursion_supports(const hg_process_spec *spec) {
  unsigned n_photons = 0;
  double charge = 0;
  if (hg_process_is_photon_family(spec, &n_photons, &charge)) return 0;
  int quarks = 0, fermions = 0, colourless = 0;
  for (int i = 0; i < spec->n; ++i) {
    const hg_particle *p = particle_of(spec->species[i]);
    fermions += p->spin == HG_SPIN_FERMION;
    quarks += p->spin == HG_SPIN_FERMION && p->colour == 3;
    colourless += p->colour == 1;
  }
  if (fermions > 2 * HG_MAX_PAIRS) return 0;
  return colourless > 0 || quarks >= 4 || hg_process_has_orders(spec);
}

int hg_flow_recursion_build(const hg_process_spec *spec, int width_all, hg_flow_recursion *out,
                            char *error, size_t error_size) {
  memset(out, 0, sizeof *out);
  out->spec = *spec;
  out->iden = hg_process_iden(spec);
  if (!hg_flow_recursion_supports(spec)) {
    snprintf(error, error_size,
             "process \"%s\": the quark-line recursion takes two or more quark lines, or "
             "processes with leptons, photons, W, Z or H, with at most %d fermion lines; the "
             "colour-ordered kernels take gluons with at most one quark line, the photon family "
             "its own engines, and the diagrams engine (--engine diagrams) everything",
             spec->text, HG_MAX_PAIRS);
    return -1;
  }
  builder b;
  memset(&b, 0, sizeof b);
  b.fr = out;
  b.width_all = width_all;
  b.error = error;
  b.error_size = error_size;
  const int n = spec->n, last = n - 1;
  const unsigned full = (1u << last) - 1u;
  size_t *start = calloc((size_t)full + 2, sizeof *start),
         *end = calloc((size_t)full + 2, sizeof *end);
  if (start == NULL || end == NULL) fail(&b, "no memory for the recursion");
  if (!b.failed) add_externals(&b);
  for (int i = 0; i < last && !b.failed; ++i) {
    start[1u << i] = (size_t)i;
    end[1u << i] = (size_t)i + 1;
  }
  /* the subsets in increasing order as numbers: a subset's own subsets come before it, and a
   * current is complete, and read, sooner than by size (fewer live at once: share_slots) */
  for (unsigned m = 1; m <= full && !b.failed; ++m) {
    if (popcount(m) < 2 || popcount(m) >= last) continue;
    b.block_start = b.n_cur;
    const unsigned low = m & -m;
    for (unsigned s1 = (m - 1) & m; s1 && !b.failed; s1 = (s1 - 1) & m) {
      if (!(s1 & low)) continue;
      const unsigned rest = m ^ s1;
      for (size_t x = start[s1]; x < end[s1]; ++x)
        for (size_t y = start[rest]; y < end[rest] && !b.failed; ++y) combine_two(&b, x, y);
      const unsigned low2 = rest & -rest;
      for (unsigned s2 = (rest - 1) & rest; s2 && !b.failed; s2 = (s2 - 1) & rest) {
        if (!(s2 & low2)) continue;
        const unsigned s3 = rest ^ s2;
        for (size_t x = start[s1]; x < end[s1]; ++x)
          for (size_t y = start[s2]; y < end[s2]; ++y)
            for (size_t z = start[s3]; z < end[s3] && !b.failed; ++z)
              if (all_gluons(&b, x, y, z)) {
                three_gluons(&b, x, y, z);
                three_gluons(&b, x, z, y);
                three_gluons(&b, y, z, x);
              } else if (all_bosons(&b, x, y, z)) {
                const size_t ws[3] = {x, y, z};
                bosons(&b, ws, 3);
              }
      }
    }
    start[m] = b.block_start;
    end[m] = b.n_cur;
  }
  const size_t wl = (size_t)last;
  const unsigned low = full & -full;
  for (unsigned s1 = full; s1 && !b.failed; s1 = (s1 - 1) & full) {
    if (!(s1 & low) || s1 == full) continue;
    const unsigned rest = full ^ s1;
    for (size_t x = start[s1]; x < end[s1]; ++x)
      for (size_t y = start[rest]; y < end[rest] && !b.failed; ++y) root_three(&b, x, y, wl);
    const unsigned low2 = rest & -rest;
    for (unsigned s2 = (rest - 1) & rest; s2 && !b.failed; s2 = (s2 - 1) & rest) {
      if (!(s2 & low2)) continue;
      const unsigned s3 = rest ^ s2;
      for (size_t x = start[s1]; x < end[s1]; ++x)
        for (size_t y = start[s2]; y < end[s2]; ++y)
          for (size_t z = start[s3]; z < end[s3] && !b.failed; ++z)
            if (all_gluons(&b, x, y, z) && is_gluon(b.cur[wl].species)) {
              root_four(&b, x, y, z, wl);
              root_four(&b, x, z, y, wl);
              root_four(&b, x, wl, y, z);
            } else if (all_bosons(&b, x, y, z) && spin_of(b.cur[wl].species) != HG_SPIN_FERMION) {
              root_four_bosons(&b, x, y, z, wl);
            }
    }
  }
  if (!b.failed && b.n_roots == 0)
    fail(&b, "has no tree-level diagram with the model's vertices (the Standard Model: QCD, the "
             "photon, Z, W and Higgs couplings); check the particles");
  if (!b.failed) {
    /* the lowest order (weight = powers of g_s + 2 powers of e), or every amplitude within the
     * orders the process gives, as the diagrams engine keeps its diagrams */
    const int explicit_orders = hg_process_has_orders(spec);
    int min_weight = -1;
    for (size_t r = 0; r < b.n_roots; ++r) {
      root_op *o = &b.roots[r];
      int keep = 1;
      if (spec->max_qcd >= 0)
        keep &= spec->exact_qcd ? o->qcd == spec->max_qcd : o->qcd <= spec->max_qcd;
      if (spec->max_qed >= 0)
        keep &= spec->exact_qed ? o->qed == spec->max_qed : o->qed <= spec->max_qed;
      if (spec->max_weighted >= 0) keep &= o->weight <= spec->max_weighted;
      if (!keep)
        o->weight = -1;
      else if (min_weight < 0 || o->weight < min_weight)
        min_weight = o->weight;
    }
    if (min_weight < 0)
      fail(&b, "has no tree-level diagram within the coupling orders given; loosen them (e.g. "
               "QED<=4) or leave them out for the lowest order");
    for (size_t r = 0; r < b.n_roots; ++r) {
      root_op *o = &b.roots[r];
      o->weight = o->weight >= 0 && (explicit_orders || o->weight == min_weight) ? 0 : -1;
    }
    if (!b.failed) finish(&b, 0);
  }
  if (!b.failed) {
    out->colour_matrix = malloc((out->n_flows * out->n_flows + 1) * sizeof *out->colour_matrix);
    if (out->colour_matrix == NULL) fail(&b, "no memory for the colour matrix");
    for (size_t i = 0; i < out->n_flows && !b.failed; ++i)
      for (size_t j = 0; j <= i; ++j)
        out->colour_matrix[i * out->n_flows + j] = out->colour_matrix[j * out->n_flows + i] =
            hg_colour_product(&out->flows[i], &out->flows[j]);
  }
  for (size_t r = 0; r < b.n_roots; ++r) hg_colour_free(&b.roots[r].colour);
  free(b.roots);
  free(b.cur);
  free(b.ops);
  free(b.targets);
  free(start);
  free(end);
  if (b.failed) {
    hg_flow_recursion_free(out);
    return -1;
  }
  return 0;
}

void hg_flow_recursion_free(hg_flow_recursion *fr) {
  free(fr->ops);
  free(fr->targets);
  free(fr->flows);
  free(fr->colour_matrix);
  fr->ops = NULL;
  fr->targets = NULL;
  fr->flows = NULL;
  fr->colour_matrix = NULL;
}
