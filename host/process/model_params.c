/* SPDX-License-Identifier: MIT */
/* MadGraph's sm parameters (restrict_default) by their param_card names, the tree-level
 * electroweak relations and the couplings in HELAS convention (CONVENTIONS.md, "Electroweak
 * parameters"). */
#include "model_params.h"

#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const double pi = 3.14159265358979323846;

/* A settable parameter: its param_card name, what it means, the field, the smallest value
 * allowed and whether that bound is included. aEWM1 is 1/alpha (the field holds alpha). */
typedef enum { KIND_PLAIN, KIND_INVERSE } param_kind;
typedef struct {
  const char *name, *meaning;
  size_t offset;
  param_kind kind;
  double lowest;
  int lowest_allowed;
  double highest; /* above it the value is refused */
} param_row;

#define FIELD(f) offsetof(hegetcl_process, f)
static const param_row params[] = {
    {"aEWM1", "inverse fine-structure constant 1/alpha(MZ)", FIELD(alpha), KIND_INVERSE, 1, 0, 1e6},
    {"Gf", "Fermi constant G_F in GeV^-2", FIELD(gf), KIND_PLAIN, 0, 0, 1},
    {"aS", "strong coupling alpha_s, fixed", FIELD(alpha_s), KIND_PLAIN, 0, 0, 4 * 3.14159265},
    {"MZ", "Z mass in GeV", FIELD(z_mass), KIND_PLAIN, 0, 0, 1e6},
    {"MT", "top mass in GeV", FIELD(top_mass), KIND_PLAIN, 0, 0, 1e6},
    {"MH", "Higgs mass in GeV", FIELD(h_mass), KIND_PLAIN, 0, 0, 1e6},
    {"MTA", "tau mass in GeV", FIELD(tau_mass), KIND_PLAIN, 0, 1, 1e6},
    {"WZ", "Z width in GeV", FIELD(z_width), KIND_PLAIN, 0, 1, 1e6},
    {"WW", "W width in GeV", FIELD(w_width), KIND_PLAIN, 0, 1, 1e6},
    {"WT", "top width in GeV", FIELD(top_width), KIND_PLAIN, 0, 1, 1e6},
    {"WH", "Higgs width in GeV", FIELD(h_width), KIND_PLAIN, 0, 1, 1e6},
    {"ymt", "top Yukawa mass in GeV (y_t = sqrt2 ymt / vev)", FIELD(top_yukawa_mass), KIND_PLAIN, 0,
     1, 1e6},
    {"ymtau", "tau Yukawa mass in GeV", FIELD(tau_yukawa_mass), KIND_PLAIN, 0, 1, 1e6},
};
#undef FIELD
#define N_PARAMS ((unsigned)(sizeof params / sizeof params[0]))

static const char *const derived_names[] = {"MW", "sw2", "ee", "vev", "yt", "G"};
#define N_DERIVED ((unsigned)(sizeof derived_names / sizeof derived_names[0]))

static void put(char *out, size_t size, const char *format, ...) {
  if (out == NULL || size == 0) return;
  va_list ap;
  va_start(ap, format);
  vsnprintf(out, size, format, ap);
  va_end(ap);
}

static const param_row *find(const char *name) {
  for (unsigned i = 0; i < N_PARAMS; ++i)
    if (name != NULL && strcmp(params[i].name, name) == 0) return &params[i];
  return NULL;
}

static double value_of(const hegetcl_process *p, const param_row *r) {
  const double v = *(const double *)((const char *)p + r->offset);
  return r->kind == KIND_INVERSE ? 1 / v : v;
}

static void list_names(char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < N_PARAMS && used < size; ++i)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", params[i].name);
}

static int in_range(const param_row *r, double v) {
  if (!isfinite(v)) return 0;
  if (r->lowest_allowed ? v < r->lowest : v <= r->lowest) return 0;
  return v <= r->highest;
}

static void range_text(const param_row *r, char *buf, size_t size) {
  snprintf(buf, size, "%s %g and at most %g", r->lowest_allowed ? "at least" : "above", r->lowest,
           r->highest);
}

const char *hegetcl_process_param_name(unsigned index) {
  return index < N_PARAMS ? params[index].name : NULL;
}
const char *hegetcl_process_derived_name(unsigned index) {
  return index < N_DERIVED ? derived_names[index] : NULL;
}

hegetcl_status hegetcl_process_get_param(const hegetcl_process *p, const char *name,
                                         double *value) {
  const param_row *r = find(name);
  if (p == NULL || r == NULL || value == NULL) return HEGETCL_ERR_INPUT;
  *value = value_of(p, r);
  return HEGETCL_OK;
}

hegetcl_status hegetcl_process_set_param(hegetcl_process *p, const char *name, double value,
                                         char *message, size_t message_size) {
  const param_row *r = find(name);
  if (p == NULL) return HEGETCL_ERR_INPUT;
  if (r == NULL) {
    char names[256];
    list_names(names, sizeof names);
    put(message, message_size,
        "unknown parameter '%s': the model's parameters are %s (MadGraph's param_card names)",
        name ? name : "(null)", names);
    return HEGETCL_ERR_INPUT;
  }
  if (!in_range(r, value)) {
    char range[96];
    range_text(r, range, sizeof range);
    put(message, message_size, "%s = %g is out of range: the %s must be %s", r->name, value,
        r->meaning, range);
    return HEGETCL_ERR_INPUT;
  }
  hegetcl_process trial = *p;
  double *field = (double *)((char *)&trial + r->offset);
  *field = r->kind == KIND_INVERSE ? 1 / value : value;
  hg_ew_derived d;
  char why[512];
  if (hg_model_derive(&trial, &d, why, sizeof why) != 0) {
    put(message, message_size, "%s = %g: %s", r->name, value, why);
    return HEGETCL_ERR_INPUT;
  }
  *p = trial;
  return HEGETCL_OK;
}

int hg_model_check(const hegetcl_process *p, char *error, size_t error_size) {
  for (unsigned i = 0; i < N_PARAMS; ++i) {
    const double v = value_of(p, &params[i]);
    if (!in_range(&params[i], v)) {
      char range[96];
      range_text(&params[i], range, sizeof range);
      put(error, error_size,
          "%s = %g is out of range: the %s must be %s (hegetcl_process_set_param, hegetcl me "
          "--param %s=VALUE)",
          params[i].name, v, params[i].meaning, range, params[i].name);
      return -1;
    }
  }
  if (p->complex_mass != 0 && p->complex_mass != 1) {
    put(error, error_size, "complex_mass = %d: use 0 (real masses) or 1 (complex-mass scheme)",
        p->complex_mass);
    return -1;
  }
  return 0;
}

int hg_model_derive(const hegetcl_process *p, hg_ew_derived *d, char *error, size_t error_size) {
  if (hg_model_check(p, error, error_size) != 0) return -1;
  const double aewm1 = 1 / p->alpha, mz = p->z_mass, gf = p->gf;
  const double disc = mz * mz * mz * mz / 4 - pi * mz * mz / (aewm1 * sqrt(2.0) * gf);
  if (!(disc >= 0)) {
    put(error, error_size,
        "the electroweak inputs aEWM1 = %g, Gf = %g GeV^-2, MZ = %g GeV give no real W mass "
        "(MZ^4/4 < pi MZ^2 / (aEWM1 sqrt2 Gf)): raise MZ or Gf, or lower alpha",
        aewm1, gf, mz);
    return -1;
  }
  d->ee = 2 * sqrt(pi / aewm1);
  d->gs = 2 * sqrt(pi * p->alpha_s);
  d->mw = sqrt(mz * mz / 2 + sqrt(disc));
  d->sw2 = 1 - d->mw * d->mw / (mz * mz);
  d->cw = sqrt(1 - d->sw2);
  d->sw = sqrt(d->sw2);
  d->vev = 2 * d->mw * d->sw / d->ee;
  d->yt = p->top_yukawa_mass * sqrt(2.0) / d->vev;
  d->ytau = p->tau_yukawa_mass * sqrt(2.0) / d->vev;
  if (!(d->sw2 > 0)) {
    put(error, error_size,
        "the electroweak inputs give sin^2 theta_W = %g (MW = MZ): choose Gf, MZ, aEWM1 with "
        "MZ^4/4 > pi MZ^2 / (aEWM1 sqrt2 Gf)",
        d->sw2);
    return -1;
  }
  return 0;
}

hegetcl_status hegetcl_process_get_derived(const hegetcl_process *p, const char *name,
                                           double *value) {
  hg_ew_derived d;
  if (p == NULL || name == NULL || value == NULL || hg_model_derive(p, &d, NULL, 0) != 0)
    return HEGETCL_ERR_INPUT;
  const double v[N_DERIVED] = {d.mw, d.sw2, d.ee, d.vev, d.yt, d.gs};
  for (unsigned i = 0; i < N_DERIVED; ++i)
    if (strcmp(name, derived_names[i]) == 0) {
      *value = v[i];
      return HEGETCL_OK;
    }
  return HEGETCL_ERR_INPUT;
}

size_t hegetcl_process_describe_params(const hegetcl_process *p, char *out, size_t size) {
  char line[160];
  size_t used = 0;
  if (out != NULL && size > 0) out[0] = '\0';
  for (unsigned i = 0; i < N_PARAMS + N_DERIVED; ++i) {
    double v = 0;
    const char *name = i < N_PARAMS ? params[i].name : derived_names[i - N_PARAMS];
    const hegetcl_status s = i < N_PARAMS ? hegetcl_process_get_param(p, name, &v)
                                          : hegetcl_process_get_derived(p, name, &v);
    if (s != HEGETCL_OK) continue;
    const int n =
        snprintf(line, sizeof line, "%s = %.12g%s\n", name, v, i < N_PARAMS ? "" : " (derived)");
    if (out != NULL && used + (size_t)n < size) memcpy(out + used, line, (size_t)n + 1);
    used += (size_t)n;
  }
  return used;
}

static void store(double *out, int slot, double complex c) {
  out[HG_PARAMS_MASSES + 2 * slot] = creal(c);
  out[HG_PARAMS_MASSES + 2 * slot + 1] = cimag(c);
}

int hg_model_params(const hegetcl_process *p, double *out, char *error, size_t error_size) {
  hg_ew_derived d;
  if (hg_model_derive(p, &d, error, error_size) != 0) return -1;
  /* the first four exactly as before the electroweak sector: g_s, e from alpha_s, alpha */
  out[HG_PARAM_SLOT_GS] = sqrt(4 * pi * p->alpha_s);
  out[HG_PARAM_SLOT_E] = sqrt(4 * pi * p->alpha);
  out[HG_PARAM_SLOT_MT] = p->top_mass;
  out[HG_PARAM_SLOT_WT] = p->top_width;
  out[HG_PARAM_SLOT_MZ] = p->z_mass;
  out[HG_PARAM_SLOT_WZ] = p->z_width;
  out[HG_PARAM_SLOT_MW] = d.mw;
  out[HG_PARAM_SLOT_WW] = p->w_width;
  out[HG_PARAM_SLOT_MH] = p->h_mass;
  out[HG_PARAM_SLOT_WH] = p->h_width;
  out[HG_PARAM_SLOT_MTA] = p->tau_mass;
  const double ee = d.ee;
  double complex sw2 = d.sw2, cw = d.cw, sw = d.sw, vev = d.vev;
  if (p->complex_mass) {
    /* mu_V^2 = M_V^2 - i M_V Gamma_V; cos^2 theta_W = mu_W^2 / mu_Z^2 */
    const double complex mw2 = d.mw * d.mw - I * d.mw * p->w_width;
    const double complex mz2 = p->z_mass * p->z_mass - I * p->z_mass * p->z_width;
    const double complex cw2 = mw2 / mz2;
    sw2 = 1 - cw2;
    cw = csqrt(cw2);
    sw = csqrt(sw2);
    vev = 2 * csqrt(mw2) * sw / ee;
  }
  const double complex gz = ee / (sw * cw);
  const struct {
    int slot;
    double t3, q;
  } z_rows[] = {{HG_C_Z_NU, 0.5, 0},
                {HG_C_Z_E, -0.5, -1},
                {HG_C_Z_U, 0.5, 2.0 / 3.0},
                {HG_C_Z_D, -0.5, -1.0 / 3.0}};
  for (int k = 0; k < 4; ++k) {
    store(out, z_rows[k].slot, gz * (z_rows[k].t3 - z_rows[k].q * sw2));
    store(out, z_rows[k].slot + 1, -gz * z_rows[k].q * sw2);
  }
  store(out, HG_C_W, ee / (sw * sqrt(2.0)));
  store(out, HG_C_W + 1, 0);
  const double complex yt = p->top_yukawa_mass * sqrt(2.0) / vev;
  const double complex ytau = p->tau_yukawa_mass * sqrt(2.0) / vev;
  store(out, HG_C_H_T, -yt / sqrt(2.0));
  store(out, HG_C_H_T + 1, -yt / sqrt(2.0));
  store(out, HG_C_H_TA, -ytau / sqrt(2.0));
  store(out, HG_C_H_TA + 1, -ytau / sqrt(2.0));
  /* vvvxxx(W+, W-, V) couplings, and the quartic ones as their products */
  const double complex g_a = ee, g_z = ee * cw / sw;
  store(out, HG_C_WWA, g_a);
  store(out, HG_C_WWZ, g_z);
  store(out, HG_C_WWAA, -g_a * g_a);
  store(out, HG_C_WWAZ, -g_a * g_z);
  store(out, HG_C_WWZZ, -g_z * g_z);
  store(out, HG_C_WWWW, g_a * g_a + g_z * g_z);
  const double mh2 = p->h_mass * p->h_mass;
  store(out, HG_C_HWW, ee * ee * vev / (2 * sw2));
  store(out, HG_C_HZZ, ee * ee * vev / (2 * sw2 * cw * cw));
  store(out, HG_C_HHWW, ee * ee / (2 * sw2));
  store(out, HG_C_HHZZ, ee * ee / (2 * sw2 * cw * cw));
  store(out, HG_C_HHH, -3 * mh2 / vev);
  store(out, HG_C_HHHH, -3 * mh2 / (vev * vev));
  return 0;
}
