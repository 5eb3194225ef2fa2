/* SPDX-License-Identifier: MIT */
/* Parsing "g g > t t~ g" into species, with the conservation checks a tree process must pass. */
#include "process_spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/amplitude.h"
#include "model.h"

/* text with what a terminal would not show written out: control characters as \r, \n, \t or
 * \xNN, every non-ASCII character as \uXXXX (the model's names are ASCII), so that a no-break
 * space or a carriage return in a process is seen in the message. */
static void escaped(const char *text, char *out, size_t size) {
  size_t used = 0;
  const unsigned char *p = (const unsigned char *)text;
  while (*p != '\0' && used + 12 < size) {
    unsigned code = *p++;
    int extra = code >= 0xf0 ? 3 : code >= 0xe0 ? 2 : code >= 0xc0 ? 1 : 0;
    if (code >= 0x80) code &= extra == 3 ? 0x07u : extra == 2 ? 0x0fu : 0x1fu;
    for (; extra > 0 && (*p & 0xc0) == 0x80; --extra) code = code << 6 | (*p++ & 0x3fu);
    int n = 0;
    if (code == '\r' || code == '\n' || code == '\t')
      n = snprintf(out + used, size - used, "\\%c", code == '\r' ? 'r' : code == '\n' ? 'n' : 't');
    else if (code < 0x20 || code == 0x7f)
      n = snprintf(out + used, size - used, "\\x%02x", code);
    else if (code >= 0x80)
      n = snprintf(out + used, size - used, code > 0xffff ? "\\U%08x" : "\\u%04x", code);
    else
      n = snprintf(out + used, size - used, "%c", (char)code);
    used += (size_t)n;
  }
  out[used < size ? used : size - 1] = '\0';
}

/* What the first character a terminal would not show in text is, with the fix; "" for none. */
static const char *invisible_note(const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; ++p) {
    if (*p == 0xc2 && p[1] == 0xa0)
      return " (\\u00a0 is a no-break space: write the particles apart with plain spaces)";
    if (*p == '\r' || *p == '\n')
      return " (\\r and \\n are line breaks: give the process on one line)";
    if (*p < 0x20 || *p == 0x7f)
      return " (a control character: write the process with plain characters and spaces)";
    if (*p >= 0x80)
      return " (a character outside ASCII: the model's names are ASCII, e.g. t~ for the top "
             "antiquark)";
  }
  return "";
}

static int fail(char *error, size_t size, const char *text, const char *why) {
  char shown[1024];
  escaped(text, shown, sizeof shown);
  snprintf(error, size, "process \"%s\": %s", shown, why);
  return -1;
}

/* A coupling order "QED<=2", "QCD=1", "QED==2", "WEIGHTED<=4": 1 when tok is one (stored), 0 when
 * it has no '=', -1 when it is malformed (why filled). */
static int parse_order(const char *tok, hg_process_spec *out, char *why, size_t why_size) {
  const char *eq = strchr(tok, '=');
  if (eq == NULL) return 0;
  size_t name_len = (size_t)(eq - tok);
  int exact = 0;
  const char *num = eq + 1;
  if (name_len > 0 && tok[name_len - 1] == '<')
    --name_len;
  else if (*num == '=') {
    exact = 1;
    ++num;
  }
  char *end = NULL;
  const long v = strtol(num, &end, 10);
  int *max = NULL, *ex = NULL;
  if (name_len == 3 && strncmp(tok, "QCD", 3) == 0) {
    max = &out->max_qcd;
    ex = &out->exact_qcd;
  } else if (name_len == 3 && strncmp(tok, "QED", 3) == 0) {
    max = &out->max_qed;
    ex = &out->exact_qed;
  } else if (name_len == 8 && strncmp(tok, "WEIGHTED", 8) == 0 && !exact) {
    max = &out->max_weighted;
  }
  if (max == NULL || end == num || *end != '\0' || v < 0 || v > 64) {
    char shown[256];
    escaped(tok, shown, sizeof shown);
    snprintf(why, why_size,
             "'%s' is not a coupling order: write QCD<=n, QED<=n (or QCD=n, the same), QCD==n, "
             "QED==n (exactly n) or WEIGHTED<=n after the particles, n >= 0, e.g. "
             "\"u u~ > e+ e- g QED<=2\"",
             shown);
    return -1;
  }
  *max = (int)v;
  if (ex != NULL) *ex = exact;
  return 1;
}

int hg_process_has_orders(const hg_process_spec *spec) {
  return spec->max_qcd >= 0 || spec->max_qed >= 0 || spec->max_weighted >= 0;
}

int hg_process_parse(const char *text, hg_process_spec *out, char *error, size_t error_size) {
  memset(out, 0, sizeof *out);
  out->max_qcd = out->max_qed = out->max_weighted = -1;
  if (text == NULL) text = "";
  char buf[256], why[512];
  if (strlen(text) >= sizeof buf)
    return fail(error, error_size, "...", "too long: a process has at most 10 particles");
  strcpy(buf, text);
  int seen_arrow = 0, n_out = 0;
  for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok != NULL;
       tok = strtok_r(NULL, " \t", &save)) {
    if (strcmp(tok, ">") == 0) {
      if (seen_arrow)
        return fail(error, error_size, text,
                    "more than one '>': write incoming > outgoing, e.g. \"g g > t t~ g\"");
      seen_arrow = 1;
      continue;
    }
    const int order = parse_order(tok, out, why, sizeof why);
    if (order < 0) return fail(error, error_size, text, why);
    if (order > 0) {
      if (!seen_arrow)
        return fail(error, error_size, text,
                    "a coupling order before '>': write the orders after the particles, e.g. "
                    "\"u u~ > e+ e- g QED<=2\"");
      continue;
    }
    if (seen_arrow && (out->max_qcd >= 0 || out->max_qed >= 0 || out->max_weighted >= 0))
      return fail(error, error_size, text,
                  "a particle after a coupling order: write every particle first, then the "
                  "orders, e.g. \"u u~ > e+ e- g QED<=2\"");
    const int species = hg_species_from_name(tok);
    if (species < 0) {
      char shown[256];
      escaped(tok, shown, sizeof shown);
      snprintf(why, sizeof why,
               "unknown particle '%s'%s; the model (the Standard Model, MadGraph's sm) knows: %s "
               "(MadGraph's names; write particles apart, e.g. \"g g > t t~\")",
               shown, invisible_note(tok), hg_model_names());
      return fail(error, error_size, text, why);
    }
    if (out->n == HG_PROCESS_MAX_EXTERNAL) {
      /* q q~ > a a ... so far: the photon family, whose engines take more photons by count */
      unsigned photons = 0;
      double charge = 0;
      const int family = seen_arrow && hg_process_is_photon_family(out, &photons, &charge);
      snprintf(why, sizeof why,
               "more than %d particles: a process given as text goes up to 2 -> %d%s",
               HG_PROCESS_MAX_EXTERNAL, HG_PROCESS_MAX_EXTERNAL - 2,
               family ? "; the photon family q q~ > n a goes further by its photon count" : "");
      if (family)
        snprintf(why + strlen(why), sizeof why - strlen(why),
                 ", up to %u photons with the permutation, unrolled and diagrams engines and %u "
                 "with the recursive engine (hegetcl_process.n_photons; hegetcl xsec/me --n N)",
                 hegetcl_engine_max_photons(HEGETCL_ENGINE_PERMUTATION),
                 hegetcl_engine_max_photons(HEGETCL_ENGINE_RECURSIVE));
      return fail(error, error_size, text, why);
    }
    out->species[out->n++] = species;
    if (seen_arrow)
      ++n_out;
    else
      ++out->n_in;
  }
  if (!seen_arrow)
    return fail(error, error_size, text,
                "no '>' between the incoming and the outgoing particles; write it as MadGraph "
                "does, e.g. \"g g > t t~ g\"");
  if (out->n_in != 2) {
    snprintf(why, sizeof why,
             "%d incoming particles: hegetcl computes 2 -> n scattering, so give exactly two "
             "before '>'",
             out->n_in);
    return fail(error, error_size, text, why);
  }
  /* conservation: charge, colour triality, and each doublet's fermion number (the W keeps the
   * generation: CKM = 1) */
  double charge = 0;
  int triality = 0, family[32] = {0};
  for (int i = 0; i < out->n; ++i) {
    const int s = out->species[i], incoming = i < out->n_in;
    const hg_particle *p = hg_model_particle(hg_species_particle(s));
    const int sign = incoming ? 1 : -1;
    charge += sign * hg_species_charge(s);
    if (p->colour == 3) triality += sign * (hg_species_is_anti(s) ? -1 : 1);
    if (p->spin == HG_SPIN_FERMION) {
      const int partner = hg_species_particle(hg_species_from_name(p->partner));
      const int self = hg_species_particle(s);
      family[self < partner ? self : partner] += sign * (hg_species_is_anti(s) ? -1 : 1);
    }
  }
  if (fabs(charge) > 1e-9) {
    snprintf(why, sizeof why,
             "electric charge is not conserved (incoming minus outgoing: %+.3g e); check the "
             "particles and their '~'",
             charge);
    return fail(error, error_size, text, why);
  }
  if (n_out < 2)
    return fail(error, error_size, text,
                "fewer than two outgoing particles: give at least two after '>'");
  if (triality % 3 != 0)
    return fail(error, error_size, text,
                "colour is not conserved: the quarks and antiquarks cannot form a colour "
                "singlet with the other side; check the particles and their '~'");
  for (int k = 0; k < hg_model_particle_count(); ++k)
    if (family[k] != 0) {
      const hg_particle *p = hg_model_particle(k);
      snprintf(why, sizeof why,
               "the number of (%s, %s) fermions is not conserved, and every vertex of the model "
               "keeps it (the W turns %s into %s only: CKM = 1): a tree-level process has no "
               "diagram; check the particles and their '~'",
               p->name, p->partner, p->name, p->partner);
      return fail(error, error_size, text, why);
    }
  /* the normalised text */
  size_t used = 0;
  for (int i = 0; i < out->n; ++i) {
    used += (size_t)snprintf(out->text + used, sizeof out->text - used, "%s%s%s", i == 0 ? "" : " ",
                             i == out->n_in ? "> " : "", hg_species_name(out->species[i]));
  }
  const struct {
    const char *name;
    int max, exact;
  } orders[3] = {{"QCD", out->max_qcd, out->exact_qcd},
                 {"QED", out->max_qed, out->exact_qed},
                 {"WEIGHTED", out->max_weighted, 0}};
  for (int k = 0; k < 3; ++k)
    if (orders[k].max >= 0 && used < sizeof out->text)
      used += (size_t)snprintf(out->text + used, sizeof out->text - used, " %s%s%d", orders[k].name,
                               orders[k].exact ? "==" : "<=", orders[k].max);
  return 0;
}

int hg_process_is_photon_family(const hg_process_spec *spec, unsigned *n_photons, double *charge) {
  const int quark = spec->species[0];
  const hg_particle *p = hg_model_particle(hg_species_particle(quark));
  if (spec->n_in != 2 || hg_species_is_anti(quark) || p->spin != HG_SPIN_FERMION ||
      p->colour != 3 || p->mass != HG_PARAM_ZERO || spec->species[1] != hg_species_anti(quark))
    return 0;
  const int photon = hg_species_from_name("a");
  for (int i = 2; i < spec->n; ++i)
    if (spec->species[i] != photon) return 0;
  *n_photons = (unsigned)(spec->n - 2);
  *charge = p->charge;
  return 1;
}

double hg_factorial(int k) {
  double f = 1;
  for (int i = 2; i <= k; ++i) f *= i;
  return f;
}

double hg_process_iden(const hg_process_spec *spec) {
  double iden = 1;
  for (int i = 0; i < spec->n_in; ++i) {
    const hg_particle *p = hg_model_particle(hg_species_particle(spec->species[i]));
    /* spin states: two of a massless vector or a fermion, three of a massive vector, one of a
     * scalar */
    const int spins = p->spin == HG_SPIN_SCALAR                               ? 1
                      : p->spin == HG_SPIN_VECTOR && p->mass != HG_PARAM_ZERO ? 3
                                                                              : 2;
    iden *= spins * p->colour;
  }
  for (int i = spec->n_in; i < spec->n; ++i) {
    int same = 0, first = 1;
    for (int k = spec->n_in; k < spec->n; ++k) {
      if (spec->species[k] == spec->species[i]) ++same;
      if (k < i && spec->species[k] == spec->species[i]) first = 0;
    }
    if (first) iden *= hg_factorial(same);
  }
  return iden;
}
