/* SPDX-License-Identifier: MIT */
/* Colour algebra of tree amplitudes: strings and traces of SU(3) generators, Fierz contraction. */
#include "colour.h"

#include <stdlib.h>
#include <string.h>

void hg_colour_free(hg_colour_expr *e) {
  free(e->terms);
  e->terms = NULL;
  e->n = e->capacity = 0;
}

static int push(hg_colour_expr *e, const hg_colour_term *t) {
  if (e->n == e->capacity) {
    const size_t capacity = e->capacity ? 2 * e->capacity : 4;
    hg_colour_term *terms = realloc(e->terms, capacity * sizeof *terms);
    if (terms == NULL) return -1;
    e->terms = terms;
    e->capacity = capacity;
  }
  e->terms[e->n++] = *t;
  return 0;
}

int hg_colour_copy(hg_colour_expr *out, const hg_colour_expr *in) {
  *out = (hg_colour_expr){NULL, 0, 0};
  for (size_t i = 0; i < in->n; ++i)
    if (push(out, &in->terms[i]) != 0) return -1;
  return 0;
}

static hg_colour_term unit_term(void) {
  hg_colour_term t;
  memset(&t, 0, sizeof t);
  t.re = 1;
  return t;
}

static int add_string(hg_colour_term *t, int start, int end, int length, const int *word) {
  if (t->n_strings == HG_COLOUR_MAX_STRINGS || length > HG_COLOUR_MAX_WORD) return -1;
  hg_colour_string *s = &t->s[t->n_strings++];
  memset(s, 0, sizeof *s);
  s->start = (unsigned char)start;
  s->end = (unsigned char)end;
  s->length = (unsigned char)length;
  for (int i = 0; i < length; ++i) s->word[i] = (unsigned char)word[i];
  return 0;
}

int hg_colour_gluon(hg_colour_expr *out, int gluon) {
  *out = (hg_colour_expr){NULL, 0, 0};
  hg_colour_term t = unit_term();
  if (add_string(&t, HG_COLOUR_LABEL_ROW, HG_COLOUR_LABEL_COL, 1, &gluon) != 0) return -1;
  return push(out, &t);
}

int hg_colour_fermion(hg_colour_expr *out, int quark, int i_type) {
  *out = (hg_colour_expr){NULL, 0, 0};
  hg_colour_term t = unit_term();
  if (add_string(&t, i_type ? HG_COLOUR_LABEL_OPEN : quark, i_type ? quark : HG_COLOUR_LABEL_OPEN,
                 0, NULL) != 0)
    return -1;
  return push(out, &t);
}

int hg_colour_one(hg_colour_expr *out) {
  *out = (hg_colour_expr){NULL, 0, 0};
  hg_colour_term t = unit_term();
  return push(out, &t);
}

static void rename_label(hg_colour_term *t, int from, int to) {
  for (int i = 0; i < t->n_strings; ++i) {
    if (t->s[i].start == from) t->s[i].start = (unsigned char)to;
    if (t->s[i].end == from) t->s[i].end = (unsigned char)to;
  }
}

static void remove_string(hg_colour_term *t, int i) {
  t->s[i] = t->s[--t->n_strings];
}

/* Sums over the index label: joins the string ending there to the one starting there (a string
 * that starts and ends there closes into a trace). -1 when a word outgrows its room. */
static int join_at(hg_colour_term *t, int label) {
  for (;;) {
    int a = -1, b = -1;
    for (int i = 0; i < t->n_strings; ++i) {
      if (t->s[i].end == label && a < 0) a = i;
      if (t->s[i].start == label && b < 0) b = i;
    }
    if (a < 0 && b < 0) return 0;
    if (a < 0 || b < 0) return -1; /* an index that appears once cannot be summed */
    if (a == b) {
      t->s[a].start = t->s[a].end = HG_COLOUR_LABEL_TRACE;
      continue;
    }
    hg_colour_string *sa = &t->s[a], *sb = &t->s[b];
    if (sa->length + sb->length > HG_COLOUR_MAX_WORD) return -1;
    memcpy(sa->word + sa->length, sb->word, sb->length);
    sa->length = (unsigned char)(sa->length + sb->length);
    sa->end = sb->end;
    remove_string(t, b);
  }
}

static int string_less(const hg_colour_string *a, const hg_colour_string *b) {
  if (a->start != b->start) return a->start < b->start;
  if (a->end != b->end) return a->end < b->end;
  if (a->length != b->length) return a->length < b->length;
  return memcmp(a->word, b->word, a->length) < 0;
}

/* Canonical form: traces rotated to their smallest generator first, Tr(1) = N taken out,
 * Tr(T^a) = 0 (the term vanishes: returns 0), strings sorted. Returns 1 for a non-zero term. */
static int canonical(hg_colour_term *t) {
  for (int i = 0; i < t->n_strings; ++i) {
    hg_colour_string *s = &t->s[i];
    if (s->start != HG_COLOUR_LABEL_TRACE) continue;
    if (s->length == 0) {
      t->re *= HG_COLOUR_N;
      t->im *= HG_COLOUR_N;
      remove_string(t, i--);
      continue;
    }
    if (s->length == 1) return 0;
    int min = 0;
    for (int k = 1; k < s->length; ++k)
      if (s->word[k] < s->word[min]) min = k;
    unsigned char rotated[HG_COLOUR_MAX_WORD];
    for (int k = 0; k < s->length; ++k) rotated[k] = s->word[(min + k) % s->length];
    memcpy(s->word, rotated, s->length);
    memset(s->word + s->length, 0, HG_COLOUR_MAX_WORD - s->length);
  }
  for (int i = 1; i < t->n_strings; ++i)
    for (int j = i; j > 0 && string_less(&t->s[j], &t->s[j - 1]); --j) {
      const hg_colour_string tmp = t->s[j];
      t->s[j] = t->s[j - 1];
      t->s[j - 1] = tmp;
    }
  return 1;
}

int hg_colour_same_structure(const hg_colour_term *a, const hg_colour_term *b) {
  if (a->n_strings != b->n_strings) return 0;
  for (int i = 0; i < a->n_strings; ++i) {
    const hg_colour_string *x = &a->s[i], *y = &b->s[i];
    if (x->start != y->start || x->end != y->end || x->length != y->length ||
        memcmp(x->word, y->word, x->length) != 0)
      return 0;
  }
  return 1;
}

int hg_colour_add_term(hg_colour_expr *e, const hg_colour_term *t, double re, double im) {
  hg_colour_term c = *t;
  c.re = t->re * re - t->im * im;
  c.im = t->re * im + t->im * re;
  if (!canonical(&c)) return 0;
  for (size_t i = 0; i < e->n; ++i)
    if (hg_colour_same_structure(&e->terms[i], &c)) {
      e->terms[i].re += c.re;
      e->terms[i].im += c.im;
      if (e->terms[i].re * e->terms[i].re + e->terms[i].im * e->terms[i].im < 1e-26)
        e->terms[i] = e->terms[--e->n];
      return 0;
    }
  if (c.re * c.re + c.im * c.im < 1e-26) return 0;
  return push(e, &c);
}

void hg_colour_scale(hg_colour_expr *e, double re, double im) {
  for (size_t i = 0; i < e->n; ++i) {
    const double a = e->terms[i].re, b = e->terms[i].im;
    e->terms[i].re = a * re - b * im;
    e->terms[i].im = a * im + b * re;
  }
}

/* How two terms are multiplied: a_from -> a_to in a and b_from -> b_to in b (-1: no rename),
 * then a_join in a and b_join in b become JOIN (-1: none) and are summed over. */
typedef struct {
  int a_join, b_join;  /* label of a, of b, summed together */
  int a_from, a_to;    /* a further rename in a (-1: none) */
  int b_from, b_to;    /* ... in b */
} join_plan;

/* a * b * (re + i im) with the plan's renames and join, added into out. */
static int multiply_into(hg_colour_expr *out, const hg_colour_term *a, const hg_colour_term *b,
                         join_plan plan, double re, double im) {
  hg_colour_term ta = *a, tb = *b;
  if (plan.a_from >= 0) rename_label(&ta, plan.a_from, plan.a_to);
  if (plan.b_from >= 0) rename_label(&tb, plan.b_from, plan.b_to);
  if (plan.a_join >= 0) rename_label(&ta, plan.a_join, HG_COLOUR_LABEL_JOIN);
  if (plan.b_join >= 0) rename_label(&tb, plan.b_join, HG_COLOUR_LABEL_JOIN);
  if (ta.n_strings + tb.n_strings > HG_COLOUR_MAX_STRINGS) return -1;
  for (int i = 0; i < tb.n_strings; ++i) ta.s[ta.n_strings++] = tb.s[i];
  ta.re = a->re * b->re - a->im * b->im;
  ta.im = a->re * b->im + a->im * b->re;
  if (join_at(&ta, HG_COLOUR_LABEL_JOIN) != 0) return -1;
  return hg_colour_add_term(out, &ta, re, im);
}

static int multiply_all(hg_colour_expr *out, const hg_colour_expr *a, const hg_colour_expr *b,
                        join_plan plan, double re, double im) {
  for (size_t i = 0; i < a->n; ++i)
    for (size_t j = 0; j < b->n; ++j)
      if (multiply_into(out, &a->terms[i], &b->terms[j], plan, re, im) != 0) return -1;
  return 0;
}

int hg_colour_commutator(hg_colour_expr *out, const hg_colour_expr *x1, const hg_colour_expr *x2) {
  *out = (hg_colour_expr){NULL, 0, 0};
  /* X1 X2: X1's column meets X2's row */
  const join_plan forward = {HG_COLOUR_LABEL_COL, HG_COLOUR_LABEL_ROW, -1, -1, -1, -1};
  if (multiply_all(out, x1, x2, forward, 0, -1) != 0) return -1;
  /* X2 X1 */
  return multiply_all(out, x2, x1, forward, 0, 1);
}

/* Copies of e's terms with label from renamed to to (and from2 to to2 unless from2 < 0). */
static int renamed(hg_colour_expr *out, const hg_colour_expr *e, int from, int to, int from2,
                   int to2) {
  *out = (hg_colour_expr){NULL, 0, 0};
  for (size_t i = 0; i < e->n; ++i) {
    hg_colour_term t = e->terms[i];
    rename_label(&t, from, to);
    if (from2 >= 0) rename_label(&t, from2, to2);
    if (push(out, &t) != 0) return -1;
  }
  return 0;
}

static const join_plan no_renames = {-1, -1, -1, -1, -1, -1};

int hg_colour_apply_i(hg_colour_expr *out, const hg_colour_expr *x, const hg_colour_expr *v) {
  *out = (hg_colour_expr){NULL, 0, 0};
  /* (X v)_{OPEN q}: X's column meets v's open index, X's row becomes the new open index */
  hg_colour_expr xr = {NULL, 0, 0}, vr = {NULL, 0, 0};
  int status = renamed(&xr, x, HG_COLOUR_LABEL_COL, HG_COLOUR_LABEL_JOIN, HG_COLOUR_LABEL_ROW,
                       HG_COLOUR_LABEL_OPEN);
  if (status == 0)
    status = renamed(&vr, v, HG_COLOUR_LABEL_OPEN, HG_COLOUR_LABEL_JOIN, -1, -1);
  if (status == 0) status = multiply_all(out, &xr, &vr, no_renames, 1, 0);
  hg_colour_free(&xr);
  hg_colour_free(&vr);
  return status;
}

int hg_colour_apply_o(hg_colour_expr *out, const hg_colour_expr *u, const hg_colour_expr *x) {
  *out = (hg_colour_expr){NULL, 0, 0};
  /* (u X)_{q' OPEN}: u's open index meets X's row, X's column becomes the new open index */
  hg_colour_expr ur = {NULL, 0, 0}, xr = {NULL, 0, 0};
  int status = renamed(&ur, u, HG_COLOUR_LABEL_OPEN, HG_COLOUR_LABEL_JOIN, -1, -1);
  if (status == 0)
    status = renamed(&xr, x, HG_COLOUR_LABEL_ROW, HG_COLOUR_LABEL_JOIN, HG_COLOUR_LABEL_COL,
                     HG_COLOUR_LABEL_OPEN);
  if (status == 0) status = multiply_all(out, &ur, &xr, no_renames, 1, 0);
  hg_colour_free(&ur);
  hg_colour_free(&xr);
  return status;
}

int hg_colour_times(hg_colour_expr *out, const hg_colour_expr *a, const hg_colour_expr *b) {
  *out = (hg_colour_expr){NULL, 0, 0};
  return multiply_all(out, a, b, no_renames, 1, 0);
}

int hg_colour_join_fermions(hg_colour_expr *out, const hg_colour_expr *u,
                            const hg_colour_expr *v) {
  *out = (hg_colour_expr){NULL, 0, 0};
  const join_plan plan = {HG_COLOUR_LABEL_OPEN, HG_COLOUR_LABEL_OPEN, -1, -1, -1, -1};
  return multiply_all(out, u, v, plan, 1, 0);
}

int hg_colour_pair_to_gluon(hg_colour_expr *out, const hg_colour_expr *u,
                            const hg_colour_expr *v) {
  *out = (hg_colour_expr){NULL, 0, 0};
  /* sum_e T^e_{st} T^e_{rc} = (delta_sc delta_rt - delta_st delta_rc / N) / 2: u_{q'c} v_{rq} / 2 */
  const join_plan apart = {-1, -1, HG_COLOUR_LABEL_OPEN, HG_COLOUR_LABEL_COL, HG_COLOUR_LABEL_OPEN,
                           HG_COLOUR_LABEL_ROW};
  if (multiply_all(out, u, v, apart, 0.5, 0) != 0) return -1;
  /* - (u v)_{q'q} delta_rc / (2N) */
  hg_colour_expr uv = {NULL, 0, 0};
  if (hg_colour_join_fermions(&uv, u, v) != 0) return -1;
  hg_colour_term delta = unit_term();
  int status = add_string(&delta, HG_COLOUR_LABEL_ROW, HG_COLOUR_LABEL_COL, 0, NULL);
  for (size_t i = 0; i < uv.n && status == 0; ++i)
    status = multiply_into(out, &uv.terms[i], &delta, no_renames, -0.5 / HG_COLOUR_N, 0);
  hg_colour_free(&uv);
  return status;
}

int hg_colour_close_fermions(hg_colour_expr *out, const hg_colour_expr *u, const hg_colour_expr *x,
                             const hg_colour_expr *v) {
  hg_colour_expr xv = {NULL, 0, 0};
  if (hg_colour_apply_i(&xv, x, v) != 0) return -1;
  const int status = hg_colour_join_fermions(out, u, &xv);
  hg_colour_free(&xv);
  return status;
}

int hg_colour_close_gluons(hg_colour_expr *out, const hg_colour_expr *x1,
                           const hg_colour_expr *x2) {
  *out = (hg_colour_expr){NULL, 0, 0};
  /* 2 Tr(X1 X2): X1's column meets X2's row, then X2's column meets X1's row */
  hg_colour_expr product = {NULL, 0, 0};
  const join_plan forward = {HG_COLOUR_LABEL_COL, HG_COLOUR_LABEL_ROW, -1, -1, -1, -1};
  if (multiply_all(&product, x1, x2, forward, 2, 0) != 0) return -1;
  int status = 0;
  for (size_t i = 0; i < product.n && status == 0; ++i) {
    hg_colour_term t = product.terms[i];
    rename_label(&t, HG_COLOUR_LABEL_ROW, HG_COLOUR_LABEL_JOIN);
    rename_label(&t, HG_COLOUR_LABEL_COL, HG_COLOUR_LABEL_JOIN);
    status = join_at(&t, HG_COLOUR_LABEL_JOIN);
    if (status == 0) status = hg_colour_add_term(out, &t, 1, 0);
  }
  hg_colour_free(&product);
  return status;
}

/* ---- sum over colours of a closed product: traces with each generator twice ---- */

#define HG_TRACES_MAX 16
#define HG_TRACE_WORD 32
typedef struct {
  int n;
  int length[HG_TRACES_MAX];
  unsigned char w[HG_TRACES_MAX][HG_TRACE_WORD];
} trace_list;

static void drop_trace(trace_list *t, int i) {
  t->length[i] = t->length[t->n - 1];
  memcpy(t->w[i], t->w[t->n - 1], HG_TRACE_WORD);
  --t->n;
}

/* Rotates trace i so that position p comes first. */
static void rotate(trace_list *t, int i, int p) {
  unsigned char r[HG_TRACE_WORD];
  for (int k = 0; k < t->length[i]; ++k) r[k] = t->w[i][(p + k) % t->length[i]];
  memcpy(t->w[i], r, (size_t)t->length[i]);
}

static double evaluate(trace_list t) {
  double factor = 1;
  for (int i = 0; i < t.n; ++i) {
    if (t.length[i] == 1) return 0;
    if (t.length[i] == 0) {
      factor *= HG_COLOUR_N;
      drop_trace(&t, i--);
    }
  }
  if (t.n == 0) return factor;
  /* generator a = first of trace 0, and its partner */
  const unsigned char a = t.w[0][0];
  for (int p = 1; p < t.length[0]; ++p)
    if (t.w[0][p] == a) {
      /* Tr(T^a B T^a C) = (Tr B Tr C - Tr(B C) / N) / 2 */
      trace_list split = t, joined = t;
      const int lb = p - 1, lc = t.length[0] - p - 1;
      split.length[0] = lb;
      memcpy(split.w[0], t.w[0] + 1, (size_t)lb);
      if (split.n == HG_TRACES_MAX) return 0;
      split.length[split.n] = lc;
      memcpy(split.w[split.n], t.w[0] + p + 1, (size_t)lc);
      ++split.n;
      joined.length[0] = lb + lc;
      memcpy(joined.w[0], t.w[0] + 1, (size_t)lb);
      memcpy(joined.w[0] + lb, t.w[0] + p + 1, (size_t)lc);
      return factor * 0.5 * (evaluate(split) - evaluate(joined) / HG_COLOUR_N);
    }
  for (int k = 1; k < t.n; ++k)
    for (int p = 0; p < t.length[k]; ++p)
      if (t.w[k][p] == a) {
        /* Tr(T^a X) Tr(T^a Y) = (Tr(X Y) - Tr X Tr Y / N) / 2 */
        rotate(&t, k, p);
        const int lx = t.length[0] - 1, ly = t.length[k] - 1;
        trace_list merged = t, apart = t;
        merged.length[0] = lx + ly;
        memcpy(merged.w[0], t.w[0] + 1, (size_t)lx);
        memcpy(merged.w[0] + lx, t.w[k] + 1, (size_t)ly);
        drop_trace(&merged, k);
        apart.length[0] = lx;
        memmove(apart.w[0], t.w[0] + 1, (size_t)lx);
        apart.length[k] = ly;
        memmove(apart.w[k], t.w[k] + 1, (size_t)ly);
        return factor * 0.5 * (evaluate(merged) - evaluate(apart) / HG_COLOUR_N);
      }
  return 0; /* a generator that appears once: its sum vanishes */
}

double hg_colour_product(const hg_colour_term *a, const hg_colour_term *b) {
  /* a conj(b): conj((W)_{se}) = (reversed W)_{es}, conj(Tr W) = Tr(reversed W) */
  hg_colour_string s[2 * HG_COLOUR_MAX_STRINGS];
  int n = 0;
  for (int i = 0; i < a->n_strings; ++i) s[n++] = a->s[i];
  for (int i = 0; i < b->n_strings; ++i) {
    hg_colour_string c = b->s[i];
    for (int k = 0; k < c.length; ++k) c.word[k] = b->s[i].word[c.length - 1 - k];
    if (c.start != HG_COLOUR_LABEL_TRACE) {
      c.start = b->s[i].end;
      c.end = b->s[i].start;
    }
    s[n++] = c;
  }
  trace_list t;
  t.n = 0;
  int used[2 * HG_COLOUR_MAX_STRINGS] = {0};
  for (int i = 0; i < n; ++i) {
    if (used[i]) continue;
    used[i] = 1;
    int length = 0;
    unsigned char word[HG_TRACE_WORD];
    memcpy(word, s[i].word, s[i].length);
    length = s[i].length;
    if (s[i].start != HG_COLOUR_LABEL_TRACE) {
      int end = s[i].end;
      while (end != s[i].start) {
        int next = -1;
        for (int k = 0; k < n; ++k)
          if (!used[k] && s[k].start == end) next = k;
        if (next < 0 || length + s[next].length > HG_TRACE_WORD) return 0;
        used[next] = 1;
        memcpy(word + length, s[next].word, s[next].length);
        length += s[next].length;
        end = s[next].end;
      }
    }
    if (t.n == HG_TRACES_MAX) return 0;
    t.length[t.n] = length;
    memcpy(t.w[t.n], word, (size_t)length);
    ++t.n;
  }
  return evaluate(t);
}
