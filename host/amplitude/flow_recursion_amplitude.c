/* SPDX-License-Identifier: MIT */
/* The recursive engine's amplitude for two or more quark lines, or with leptons, photons, W, Z
 * or H: the tape of
 * host/process/flow_recursion.c as constant tables in a small generated header for
 * cl/amplitudes/flow_recursion.cl, and the colour matrix as a buffer (the kernels' last
 * argument, as for the gluon kernels). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "core/program.h"
#include "core/strbuf.h"
#include "process/colour_ordered.h"
#include "process/flow_recursion.h"
#include "process/model.h"

/* The kernel's code for a mass or width parameter (cl/amplitudes/flow_recursion.cl): 0 none, 1
 * top, 2 Z, 3 W, 4 H, 5 tau. */
static unsigned mass_code(hg_model_param m) {
  switch (m) {
  case HG_PARAM_TOP_MASS:
    return 1;
  case HG_PARAM_Z_MASS:
    return 2;
  case HG_PARAM_W_MASS:
    return 3;
  case HG_PARAM_H_MASS:
    return 4;
  case HG_PARAM_TAU_MASS:
    return 5;
  default:
    return 0;
  }
}

static const char *const mass_names[6] = {"(REAL)0", "pp.top_mass", "pp.mz",
                                          "pp.mw",   "pp.mh",       "pp.mta"};

/* External particle i's wavefunction, its helicity from the configuration's bits as the diagrams
 * engine lays them out (hg_diagrams_helicity_layout: a massive vector takes two bits, value 3 is
 * no configuration; a scalar none). */
static void external(hg_strbuf *b, const hg_process_spec *s, int i, int bit, int gauge_particle) {
  const hg_particle *p = hg_model_particle(hg_species_particle(s->species[i]));
  const int incoming = i < s->n_in;
  const char *mass = mass_names[mass_code(p->mass)];
  if (p->spin == HG_SPIN_SCALAR) {
    hg_strbuf_printf(b, "  W[%d] = sxxxxx(p[%d], %d);\n", i, i, incoming ? -1 : 1);
  } else if (p->spin == HG_SPIN_FERMION) {
    const int in_role = hg_colour_ordered_flows_in(s, i);
    hg_strbuf_printf(b, "  W[%d] = %s(p[%d], %s, HG_HELICITY_OF(config, %d), %d);\n", i,
                     in_role ? "ixxxxx" : "oxxxxx", i, mass, bit, incoming == in_role ? 1 : -1);
  } else if (i == gauge_particle) {
    hg_strbuf_printf(b, "  W[%d] = hg_polarisation_from_momentum(p[%d], %d);\n", i, i,
                     incoming ? -1 : 1);
  } else if (p->mass != HG_PARAM_ZERO) {
    hg_strbuf_printf(b,
                     "  {\n    const hg_u32 v = (config >> %du) & 3u;\n"
                     "    if (v == 3u) return 0;\n"
                     "    W[%d] = vxxxxx(p[%d], %s, v == 0u ? -1 : v == 1u ? 1 : 0, %d);\n  }\n",
                     bit, i, i, mass, incoming ? -1 : 1);
  } else {
    hg_strbuf_printf(b, "  W[%d] = vxxxxx(p[%d], (REAL)0, HG_HELICITY_OF(config, %d), %d);\n", i, i,
                     bit, incoming ? -1 : 1);
  }
}

/* Whether fermions a and b can be the two ends of one line: the same flavour, or doublet partners
 * (a W on the line). */
static int one_line(int species_a, int species_b) {
  const hg_particle *a = hg_model_particle(hg_species_particle(species_a));
  const hg_particle *b = hg_model_particle(hg_species_particle(species_b));
  return a == b || (a->partner != NULL && strcmp(a->partner, b->name) == 0);
}

/* Whether fermion particle p couples to the model's vectors with its left-handed part only: a
 * neutrino (W and Z; the Z's right-handed coupling ee Q sw/cw vanishes with Q). */
static int left_only(const hg_particle *p) { return p->colour == 1 && p->charge == 0; }

/* Whether helicity configuration config (the bits of hg_diagrams_helicity_layout; incoming
 * particles as MadGraph gives them) can be non-zero: no massive vector has the value 3, and some
 * pairing of the fermion ends (one flowing in, one flowing out, one line) has every massless line
 * of one chirality at both ends (chirality is kept along a massless line by every vector
 * vertex; the Yukawas, which flip it, are the massive top's and tau's), left-handed where the
 * line must pass a W (its ends of different flavours) or has a neutrino end. The chirality of
 * an end is HELAS's nhel * nsf (-1: left-handed; CONVENTIONS.md, "HELAS slots"). */
static int can_be_nonzero(const hg_process_spec *s, const int *bit_of, uint32_t config) {
  int in_end[HG_PROCESS_MAX_EXTERNAL], out_end[HG_PROCESS_MAX_EXTERNAL], n_in = 0, n_out = 0;
  int chirality[HG_PROCESS_MAX_EXTERNAL];
  for (int i = 0; i < s->n; ++i) {
    const hg_particle *p = hg_model_particle(hg_species_particle(s->species[i]));
    if (p->spin == HG_SPIN_VECTOR && p->mass != HG_PARAM_ZERO && (config >> bit_of[i] & 3u) == 3u)
      return 0;
    if (p->spin != HG_SPIN_FERMION) continue;
    const int in_role = hg_colour_ordered_flows_in(s, i), incoming = i < s->n_in;
    chirality[i] = ((config >> bit_of[i] & 1) ? 1 : -1) * (incoming == in_role ? 1 : -1);
    if (in_role)
      in_end[n_in++] = i;
    else
      out_end[n_out++] = i;
  }
  /* every permutation of the out-type ends against the in-type ones */
  unsigned char perm[HG_PROCESS_MAX_EXTERNAL];
  for (int k = 0; k < n_out; ++k) perm[k] = (unsigned char)k;
  for (;;) {
    int ok = n_in == n_out;
    for (int k = 0; k < n_in && ok; ++k) {
      const int i = in_end[k], o = out_end[perm[k]];
      const hg_particle *pi = hg_model_particle(hg_species_particle(s->species[i]));
      const hg_particle *po = hg_model_particle(hg_species_particle(s->species[o]));
      const int massless = pi->mass == HG_PARAM_ZERO && po->mass == HG_PARAM_ZERO;
      const int left = pi != po || left_only(pi) || left_only(po);
      ok = one_line(s->species[i], s->species[o]) &&
           (!massless || (chirality[i] == chirality[o] && (!left || chirality[i] < 0)));
    }
    if (ok) return 1;
    /* next permutation */
    int a = n_out - 2;
    while (a >= 0 && perm[a] >= perm[a + 1]) --a;
    if (a < 0) return 0;
    int c = n_out - 1;
    while (perm[c] <= perm[a]) --c;
    unsigned char t = perm[a];
    perm[a] = perm[c];
    perm[c] = t;
    for (int l = a + 1, r = n_out - 1; l < r; ++l, --r) {
      t = perm[l];
      perm[l] = perm[r];
      perm[r] = t;
    }
  }
}

/* The couplings the tape uses, each once: (kind, charge, slot); index 0 is g_s. */
typedef struct {
  hg_coupling_kind kind;
  double charge;
  int slot;
  int boson; /* a boson self-coupling: one complex number, in both chiral places */
} coupling_entry;

static int coupling_index(coupling_entry *table, int *n, const hg_fr_op *op) {
  const int kind = op->kind >= HG_FR_AMPLITUDE ? op->kind - HG_FR_AMPLITUDE : op->kind;
  const int fermion_vertex = op->kind >= HG_FR_AMPLITUDE
                                 ? kind == HG_AMP_IOV || kind == HG_AMP_IOS
                                 : kind == HG_WF_FVI || kind == HG_WF_FVO || kind == HG_WF_JIO ||
                                       kind == HG_WF_FSI || kind == HG_WF_FSO || kind == HG_WF_HIO;
  coupling_entry e = {op->coupling, op->coupling == HG_COUPLING_PHOTON ? op->charge : 0,
                      op->coupling == HG_COUPLING_EW ? op->coupling_slot : 0,
                      op->coupling == HG_COUPLING_EW && !fermion_vertex};
  if (e.kind == HG_COUPLING_STRONG) return 0;
  for (int k = 0; k < *n; ++k)
    if (table[k].kind == e.kind && table[k].charge == e.charge && table[k].slot == e.slot &&
        table[k].boson == e.boson)
      return k;
  if (*n == 127) return -1;
  table[*n] = e;
  return (*n)++;
}

/* The index of coefficient (re, im) in the table, added when new. */
static int coefficient(double *table, int *n, double re, double im) {
  for (int k = 0; k < *n; ++k)
    if (table[2 * k] == re && table[2 * k + 1] == im) return k;
  if (*n == 65535) return -1;
  table[2 * *n] = re;
  table[2 * *n + 1] = im;
  return (*n)++;
}

static const char *const kind_names[HG_FR_AMPLITUDE + 10] = {
    "EXTERNAL", "FVI",   "FVO", "JIO",  "JVV",   "JGGG", "FSI",  "FSO",  "HIO",
    "JVVC",     "JVVVC", "JVS", "HVV",  "JVSS",  "HVVS", "HSS",  "HSSS", "IOV",
    "VVV",      "GGGG",  "IOS", "VVVC", "VVVVC", "VVS",  "VVSS", "SSS",  "SSSS"};

/* The generated header, or NULL with *too_large set when a table outgrows its field (slots,
 * coefficients, targets of one operation: 16 bits; couplings: 7), else out of memory. */
static char *source(const hg_flow_recursion *fr, int gauge_particle, int *n_configs,
                    int *helicity_bits, int *too_large) {
  *too_large = 0;
  hg_strbuf b = {0};
  const hg_process_spec *s = &fr->spec;
  /* no process text here: processes with the same tables (u and d quarks in QCD) then share
   * one program (hg_program_get keys programs by their source) */
  int bit_of[HG_PROCESS_MAX_EXTERNAL];
  *helicity_bits = hg_diagrams_helicity_layout(s, bit_of);
  hg_strbuf_printf(&b,
                   "/* generated by host/amplitude/flow_recursion_amplitude.c: %d current slots, "
                   "%zu vertex operations, %zu colour flows */\n",
                   fr->n_slots, fr->n_ops, fr->n_flows);
  hg_strbuf_printf(&b, "#define N_PARTICLES %d\n#define FR_SLOTS %d\n#define FR_OPS %zuu\n", s->n,
                   fr->n_slots, fr->n_ops);
  hg_strbuf_printf(&b, "#define FR_FLOWS %zuu\n", fr->n_flows);
  /* the operation kinds the tape holds: the interpreter compiles only those */
  int used[HG_FR_AMPLITUDE + 10] = {0}, ew = 0;
  for (size_t o = 0; o < fr->n_ops; ++o) {
    used[fr->ops[o].kind] = 1;
    ew |= fr->ops[o].coupling == HG_COUPLING_EW || mass_code(fr->ops[o].mass) > 1;
  }
  for (int i = 0; i < s->n; ++i)
    ew |= mass_code(hg_model_particle(hg_species_particle(s->species[i]))->mass) > 1;
  for (int k = 1; k < HG_FR_AMPLITUDE + 10; ++k)
    if (used[k]) hg_strbuf_printf(&b, "#define FR_USES_%s 1\n", kind_names[k]);
  if (ew) hg_strbuf_printf(&b, "#define HG_PROCESS_EW 1\n");
  *n_configs = 0;
  hg_strbuf_printf(&b, "__constant hg_u32 hg_fr_configs[] = {");
  for (uint32_t config = 0; config < 1u << *helicity_bits; ++config)
    if (can_be_nonzero(s, bit_of, config)) {
      hg_strbuf_printf(&b, "%s%uu,", *n_configs % 12 == 0 ? "\n  " : "", config);
      ++*n_configs;
    }
  hg_strbuf_printf(&b, "};\n#define FR_CONFIGS %du\n", *n_configs);
  double *table = malloc(2 * 65536 * sizeof *table);
  coupling_entry couplings[128];
  int n_coefs = 0, n_couplings = 1, failed = table == NULL;
  couplings[0] = (coupling_entry){HG_COUPLING_STRONG, 0, 0, 0};
  hg_strbuf_printf(&b, "__constant hg_u32 hg_fr_targets[] = {");
  for (size_t t = 0; t < fr->n_targets && !failed; ++t) {
    const int k = coefficient(table, &n_coefs, fr->targets[t].re, fr->targets[t].im);
    failed = k < 0 || fr->targets[t].slot > 0xffff;
    hg_strbuf_printf(&b, "%s%uu,", t % 10 == 0 ? "\n  " : "",
                     (unsigned)fr->targets[t].slot | (unsigned)k << 16);
  }
  hg_strbuf_printf(&b, "0u};\n__constant REAL hg_fr_coefs[] = {");
  for (int k = 0; k < n_coefs && !failed; ++k)
    hg_strbuf_printf(&b, "%s(REAL)%.17g, (REAL)%.17g,", k % 3 == 0 ? "\n  " : "", table[2 * k],
                     table[2 * k + 1]);
  hg_strbuf_printf(&b, "0};\n__constant hg_u32 hg_fr_ops[] = {");
  for (size_t o = 0; o < fr->n_ops && !failed; ++o) {
    const hg_fr_op *op = &fr->ops[o];
    const unsigned c = op->c >= 0 ? (unsigned)op->c : 0u, d = op->d >= 0 ? (unsigned)op->d : 0u;
    const int coupling = coupling_index(couplings, &n_couplings, op);
    /* the targets follow each other in the operations' order: first_target is a running sum */
    failed |= coupling < 0 || op->n_targets >= 1u << 16 || op->a > 0xffff || op->b > 0xffff ||
              c > 0xffff || d > 0xffff ||
              op->first_target != (o ? fr->ops[o - 1].first_target + fr->ops[o - 1].n_targets : 0);
    hg_strbuf_printf(&b, "\n  %uu,%uu,%uu,",
                     (unsigned)op->kind | mass_code(op->mass) << 5 | (unsigned)op->width << 8 |
                         (unsigned)coupling << 9 | (unsigned)op->n_targets << 16,
                     (unsigned)op->a | (unsigned)op->b << 16, c | d << 16);
  }
  hg_strbuf_printf(&b, "0u};\n\n#define FR_COUPLINGS %d\n", n_couplings);
  hg_strbuf_printf(&b,
                   "/* the vertices' couplings, HELAS convention (hg_coupling) */\n"
                   "HG_INLINE void hg_fr_couplings(const hg_process_params pp, hg_coupling *cpl) "
                   "{\n  cpl[0] = hg_coupling_both(pp.g_s);\n");
  for (int k = 1; k < n_couplings; ++k) {
    const coupling_entry *e = &couplings[k];
    if (e->kind == HG_COUPLING_PHOTON)
      hg_strbuf_printf(&b, "  cpl[%d] = hg_coupling_both(pp.e * (REAL)%.17g);\n", k, e->charge);
    else if (e->boson)
      hg_strbuf_printf(&b, "  cpl[%d].gal[0] = cpl[%d].gal[1] = pp.c[%d];\n", k, k, e->slot);
    else
      hg_strbuf_printf(&b, "  cpl[%d] = hg_coupling_pair(pp.c, %d);\n", k, e->slot);
  }
  hg_strbuf_printf(&b,
                   "}\n\n/* the external wavefunctions of configuration config; 0 when it is no "
                   "configuration (a massive vector's value 3) */\n"
                   "HG_INLINE int hg_fr_externals(const hg_fourvec *p, hg_u32 config,\n"
                   "                              const hg_process_params pp, hg_wave *W) {\n");
  for (int i = 0; i < s->n; ++i) external(&b, s, i, bit_of[i], gauge_particle);
  hg_strbuf_printf(&b, "  return 1;\n}\n");
  *too_large = failed && table != NULL;
  free(table);
  if (b.failed || failed) {
    hg_strbuf_free(&b);
    return NULL;
  }
  return b.data;
}

hegetcl_status hg_flow_recursion_amplitude_build(hegetcl_amplitude *amp,
                                                 const hg_process_spec *spec, int gauge_particle) {
  hegetcl_context *ctx = amp->ctx;
  const hegetcl_process *p = &amp->process;
  hg_flow_recursion fr;
  char error[1024];
  if (hg_flow_recursion_build(spec, p->width_scheme == HEGETCL_WIDTH_ALL, &fr, error,
                              sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  amp->me_factor = 1.0 / fr.iden;
  amp->n_orderings = fr.n_flows;
  int n_configs = 0, helicity_bits = 0, too_large = 0;
  char *generated = source(&fr, gauge_particle, &n_configs, &helicity_bits, &too_large);
  amp->helicity_bits = (unsigned)helicity_bits;
  if (generated == NULL) {
    hg_flow_recursion_free(&fr);
    if (too_large)
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "process \"%s\": its recursion (%d current slots, %zu vertex operations) "
                     "outgrows the recursive engine's tables; use the diagrams engine (--engine "
                     "diagrams)",
                     spec->text, fr.n_slots, fr.n_ops);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the recursive engine's tables");
  }
  if (getenv("HEGETCL_FR_DUMP") != NULL) fputs(generated, stderr);
  hegetcl_status status = hg_build_options(ctx, p->precision, 0, amp->options, sizeof amp->options);
  /* float amplitudes, colour sum in double: HEGETCL_CO_MIXED=1 (as the gluon kernels) */
  const char *mixed = getenv("HEGETCL_CO_MIXED");
  const int colour_double =
      p->precision == HEGETCL_PRECISION_DOUBLE || (mixed != NULL && strcmp(mixed, "1") == 0);
  if (status == HEGETCL_OK && colour_double && p->precision != HEGETCL_PRECISION_DOUBLE) {
    const size_t used = strlen(amp->options);
    snprintf(amp->options + used, sizeof amp->options - used, " -DHG_CO_COLOUR_DOUBLE");
  }
  if (status == HEGETCL_OK)
    status = hg_process_program(amp, generated, "amplitudes/flow_recursion.cl", 1);
  free(generated);
  if (status == HEGETCL_OK) {
    status =
        hg_amplitude_colour_matrix(amp, fr.colour_matrix, fr.n_flows, colour_double, spec->text);
  }
  hg_flow_recursion_free(&fr);
  return status;
}
