/* SPDX-License-Identifier: MIT */
/* Colour algebra of tree amplitudes: products of generator strings and traces, in double. */
#ifndef HG_COLOUR_H
#define HG_COLOUR_H

#include <stddef.h>

/* A colour factor is a sum of terms; a term is a complex coefficient times a product of strings
 * (T^a1 T^a2 ... T^ak)_{start end} between fundamental index labels and traces Tr(T^a1 ... T^ak).
 * Generator labels are external gluon positions; index labels are external quark positions
 * (0..HG_COLOUR_LABEL_OPEN - 1) or the open labels of an off-shell current. Tr(T^a T^b) =
 * delta^ab / 2, N = 3 (CONVENTIONS.md, "Colour"). */
#define HG_COLOUR_MAX_WORD 12
#define HG_COLOUR_MAX_STRINGS 8
#define HG_COLOUR_LABEL_OPEN 100     /* a fermion current's open index */
#define HG_COLOUR_LABEL_ROW 101      /* a gluon current X = C^a T^a: its row index */
#define HG_COLOUR_LABEL_COL 102      /* ... and its column index */
#define HG_COLOUR_LABEL_JOIN 103     /* an index being summed while joining two factors */
#define HG_COLOUR_LABEL_TRACE 127    /* start and end of a closed string (a trace) */
#define HG_COLOUR_N 3.0

typedef struct {
  unsigned char start, end, length;
  unsigned char word[HG_COLOUR_MAX_WORD];
} hg_colour_string;

typedef struct {
  double re, im;
  unsigned char n_strings;
  hg_colour_string s[HG_COLOUR_MAX_STRINGS];
} hg_colour_term;

typedef struct {
  hg_colour_term *terms;
  size_t n, capacity;
} hg_colour_expr;

void hg_colour_free(hg_colour_expr *e);
/* 0 on success, -1 when memory runs out or a term outgrows the fixed sizes above. */
int hg_colour_copy(hg_colour_expr *out, const hg_colour_expr *in);
/* The generator T^a of external gluon a as a gluon current (ROW -> COL). */
int hg_colour_gluon(hg_colour_expr *out, int gluon);
/* delta between an external quark label and a fermion current's open index: from OPEN to the
 * quark (i-type current: column index is the quark's) or from the quark to OPEN (o-type). */
int hg_colour_fermion(hg_colour_expr *out, int quark, int i_type);
/* The colourless factor 1 (photons, leptons). */
int hg_colour_one(hg_colour_expr *out);

/* The current of a three-gluon vertex: X = -i [X1, X2] (f^{a1 a2 e} C1^a1 C2^a2 T^e). */
int hg_colour_commutator(hg_colour_expr *out, const hg_colour_expr *x1, const hg_colour_expr *x2);
/* An i-type fermion current after emitting gluon current x: X . v; an o-type one: u . X. */
int hg_colour_apply_i(hg_colour_expr *out, const hg_colour_expr *x, const hg_colour_expr *v);
int hg_colour_apply_o(hg_colour_expr *out, const hg_colour_expr *u, const hg_colour_expr *x);
/* The gluon current of a fermion pair: sum_e (u T^e v) T^e, by the Fierz identity. */
int hg_colour_pair_to_gluon(hg_colour_expr *out, const hg_colour_expr *u,
                            const hg_colour_expr *v);
/* The amplitude's colour at a root vertex: u X v (quark-gluon), 2 Tr(X1 X2) (two gluon currents
 * meeting: -i[X1, X2] contracted with X3 is 2 Tr(-i[X1, X2] X3)), u v (colourless vector). */
int hg_colour_close_fermions(hg_colour_expr *out, const hg_colour_expr *u, const hg_colour_expr *x,
                             const hg_colour_expr *v);
int hg_colour_close_gluons(hg_colour_expr *out, const hg_colour_expr *x1,
                           const hg_colour_expr *x2);
/* u v for a colourless vector coupling to a quark line (a photon): joins the open indices. */
int hg_colour_join_fermions(hg_colour_expr *out, const hg_colour_expr *u,
                            const hg_colour_expr *v);
/* The plain product a b (no index shared): a colourless current times a coloured one. */
int hg_colour_times(hg_colour_expr *out, const hg_colour_expr *a, const hg_colour_expr *b);
/* out = scale * in (complex scale). */
void hg_colour_scale(hg_colour_expr *e, double re, double im);

/* sum over every colour index of a * conj(b) for two closed terms (no open labels left). */
double hg_colour_product(const hg_colour_term *a, const hg_colour_term *b);

/* Adds c * t into e, merging with an equal colour structure; drops it when it vanishes. */
int hg_colour_add_term(hg_colour_expr *e, const hg_colour_term *t, double re, double im);
/* 1 when a and b have the same strings and traces (canonical forms compared). */
int hg_colour_same_structure(const hg_colour_term *a, const hg_colour_term *b);

#endif
