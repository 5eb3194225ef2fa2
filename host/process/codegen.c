/* SPDX-License-Identifier: MIT */
/* Writes a process's diagrams as OpenCL C: each used wavefunction once, each diagram's amplitude
 * added into the colour flows it belongs to, then sum_ij conj(J_i) C_ij J_j. */
#include "codegen.h"

#include <stdlib.h>

#include "core/strbuf.h"
#include "model.h"

static const char *mass_name(hg_model_param m) {
  switch (m) {
  case HG_PARAM_TOP_MASS:
    return "pp.top_mass";
  case HG_PARAM_Z_MASS:
    return "pp.mz";
  case HG_PARAM_W_MASS:
    return "pp.mw";
  case HG_PARAM_H_MASS:
    return "pp.mh";
  case HG_PARAM_TAU_MASS:
    return "pp.mta";
  default:
    return "(REAL)0";
  }
}

static const char *width_name(hg_model_param m) {
  switch (m) {
  case HG_PARAM_TOP_WIDTH:
    return "pp.top_width";
  case HG_PARAM_Z_WIDTH:
    return "pp.wz";
  case HG_PARAM_W_WIDTH:
    return "pp.ww";
  case HG_PARAM_H_WIDTH:
    return "pp.wh";
  default:
    return "(REAL)0";
  }
}

static void mass_of(hg_strbuf *b, int species) {
  hg_strbuf_printf(b, "%s", mass_name(hg_model_particle(hg_species_particle(species))->mass));
}

static void width_of(hg_strbuf *b, const hg_wavefunction *w) {
  const hg_particle *p = hg_model_particle(hg_species_particle(w->species));
  hg_strbuf_printf(b, "%s", w->width ? width_name(p->width) : "(REAL)0");
}

/* the mass and width arguments of a current: ", mass, width" */
static void propagator_of(hg_strbuf *b, const hg_wavefunction *w) {
  hg_strbuf_printf(b, ", ");
  mass_of(b, w->species);
  hg_strbuf_printf(b, ", ");
  width_of(b, w);
}

/* A fermion vertex's coupling pair (hg_coupling). */
static void coupling_of(hg_strbuf *b, hg_coupling_kind kind, double charge, int slot) {
  if (kind == HG_COUPLING_STRONG)
    hg_strbuf_printf(b, "gs");
  else if (kind == HG_COUPLING_PHOTON)
    hg_strbuf_printf(b, "hg_coupling_both(pp.e * (REAL)%.17g)", charge);
  else
    hg_strbuf_printf(b, "hg_coupling_pair(pp.c, %d)", slot);
}

/* external particle i's helicity expression, after hg_process_config's decoding */
static void write_wavefunction(hg_strbuf *b, const hg_diagram_set *s, size_t i,
                               int gauge_particle) {
  const hg_wavefunction *w = &s->wfs[i];
  hg_strbuf_printf(b, "  const hg_wave w%zu = ", i);
  switch (w->kind) {
  case HG_WF_EXTERNAL: {
    const int particle = w->a, incoming = particle < s->spec.n_in;
    const hg_particle *p = hg_model_particle(hg_species_particle(w->species));
    if (p->spin == HG_SPIN_SCALAR) {
      hg_strbuf_printf(b, "sxxxxx(p[%d], %d);\n", particle, incoming ? -1 : 1);
    } else if (p->spin == HG_SPIN_FERMION) {
      const int in_role = w->role == HG_ROLE_IN;
      hg_strbuf_printf(b, "%s(p[%d], ", in_role ? "ixxxxx" : "oxxxxx", particle);
      mass_of(b, w->species);
      hg_strbuf_printf(b, ", h%d, %d);\n", particle, incoming == in_role ? 1 : -1);
    } else if (particle == gauge_particle) {
      hg_strbuf_printf(b, "hg_polarisation_from_momentum(p[%d], %d);\n", particle,
                       incoming ? -1 : 1);
    } else if (p->mass != HG_PARAM_ZERO) {
      hg_strbuf_printf(b, "vxxxxx(p[%d], %s, h%d, %d);\n", particle, mass_name(p->mass), particle,
                       incoming ? -1 : 1);
    } else {
      hg_strbuf_printf(b, "vxxxxx(p[%d], (REAL)0, h%d, %d);\n", particle, particle,
                       incoming ? -1 : 1);
    }
    return;
  }
  case HG_WF_FVI:
  case HG_WF_FVO:
  case HG_WF_FSI:
  case HG_WF_FSO: {
    const char *name = w->kind == HG_WF_FVI   ? "fvixxx"
                       : w->kind == HG_WF_FVO ? "fvoxxx"
                       : w->kind == HG_WF_FSI ? "fsixxx"
                                              : "fsoxxx";
    hg_strbuf_printf(b, "%s(w%d, w%d, ", name, w->a, w->b);
    coupling_of(b, w->coupling, w->charge, w->coupling_slot);
    propagator_of(b, w);
    hg_strbuf_printf(b, ");\n");
    return;
  }
  case HG_WF_JIO:
  case HG_WF_HIO:
    hg_strbuf_printf(b, "%s(w%d, w%d, ", w->kind == HG_WF_JIO ? "jioxxx" : "hioxxx", w->a, w->b);
    coupling_of(b, w->coupling, w->charge, w->coupling_slot);
    if (w->coupling == HG_COUPLING_EW)
      propagator_of(b, w);
    else
      hg_strbuf_printf(b, ", (REAL)0, (REAL)0");
    hg_strbuf_printf(b, ");\n");
    return;
  case HG_WF_JVV:
    hg_strbuf_printf(b, "jvvxxx(w%d, w%d, pp.g_s, (REAL)0, (REAL)0);\n", w->a, w->b);
    return;
  case HG_WF_JGGG:
    hg_strbuf_printf(b, "jgggxx(w%d, w%d, w%d, pp.g_s);\n", w->a, w->b, w->c);
    return;
  case HG_WF_JVVC:
  case HG_WF_JVS:
  case HG_WF_HVV:
  case HG_WF_HSS: {
    const char *name = w->kind == HG_WF_JVVC  ? "jvvcxx"
                       : w->kind == HG_WF_JVS ? "jvsxxx"
                       : w->kind == HG_WF_HVV ? "hvvxxx"
                                              : "hssxxx";
    hg_strbuf_printf(b, "%s(w%d, w%d, pp.c[%d]", name, w->a, w->b, w->coupling_slot);
    propagator_of(b, w);
    hg_strbuf_printf(b, ");\n");
    return;
  }
  case HG_WF_JVVVC:
  case HG_WF_JVSS:
  case HG_WF_HVVS:
  case HG_WF_HSSS: {
    const char *name = w->kind == HG_WF_JVVVC  ? "jvvvcx"
                       : w->kind == HG_WF_JVSS ? "jvssxx"
                       : w->kind == HG_WF_HVVS ? "hvvsxx"
                                               : "hsssxx";
    hg_strbuf_printf(b, "%s(w%d, w%d, w%d, pp.c[%d]", name, w->a, w->b, w->c, w->coupling_slot);
    propagator_of(b, w);
    hg_strbuf_printf(b, ");\n");
    return;
  }
  }
}

static void write_diagram(hg_strbuf *b, const hg_diagram *d) {
  switch (d->kind) {
  case HG_AMP_IOV:
  case HG_AMP_IOS:
    hg_strbuf_printf(b, "  amp = %s(w%d, w%d, w%d, ", d->kind == HG_AMP_IOV ? "iovxxx" : "iosxxx",
                     d->a, d->b, d->c);
    coupling_of(b, d->coupling, d->charge, d->coupling_slot);
    hg_strbuf_printf(b, ");\n");
    break;
  case HG_AMP_VVV:
    hg_strbuf_printf(b, "  amp = vvvxxx(w%d, w%d, w%d, pp.g_s);\n", d->a, d->b, d->c);
    break;
  case HG_AMP_GGGG:
    hg_strbuf_printf(b, "  amp = ggggxx(w%d, w%d, w%d, w%d, pp.g_s);\n", d->a, d->b, d->c, d->d);
    break;
  case HG_AMP_VVVC:
  case HG_AMP_VVS:
  case HG_AMP_SSS:
    hg_strbuf_printf(b, "  amp = %s(w%d, w%d, w%d, pp.c[%d]);\n",
                     d->kind == HG_AMP_VVVC  ? "vvvcxx"
                     : d->kind == HG_AMP_VVS ? "vvsxxx"
                                             : "sssxxx",
                     d->a, d->b, d->c, d->coupling_slot);
    break;
  case HG_AMP_VVVVC:
  case HG_AMP_VVSS:
  case HG_AMP_SSSS:
    hg_strbuf_printf(b, "  amp = %s(w%d, w%d, w%d, w%d, pp.c[%d]);\n",
                     d->kind == HG_AMP_VVVVC  ? "vvvvcx"
                     : d->kind == HG_AMP_VVSS ? "vvssxx"
                                              : "ssssxx",
                     d->a, d->b, d->c, d->d, d->coupling_slot);
    break;
  }
  for (int k = 0; k < d->n_flows; ++k) {
    const double re = d->coef_re[k], im = d->coef_im[k];
    const int f = d->flows[k];
    if (im == 0)
      hg_strbuf_printf(b, "  j%d = hg_cadd(j%d, hg_cscale((REAL)%.17g, amp));\n", f, f, re);
    else if (re == 0)
      hg_strbuf_printf(b, "  j%d = hg_cadd(j%d, hg_cscale((REAL)%.17g, hg_cmuli(amp)));\n", f, f,
                       im);
    else
      hg_strbuf_printf(b, "  j%d = hg_cfma(hg_cmplx((REAL)%.17g, (REAL)%.17g), amp, j%d);\n", f, re,
                       im, f);
  }
}

/* The helicities of the external particles from the configuration's bits: one bit for a fermion
 * or a massless vector (HG_HELICITY_OF), two for a massive vector (0: -1, 1: +1, 2: 0, 3: no
 * configuration, which returns at once), none for a scalar. */
static void write_helicities(hg_strbuf *b, const hg_diagram_set *s, int returns_void) {
  int bit_of[HG_PROCESS_MAX_EXTERNAL];
  hg_diagrams_helicity_layout(&s->spec, bit_of);
  for (int i = 0; i < s->spec.n; ++i) {
    const hg_particle *p = hg_model_particle(hg_species_particle(s->spec.species[i]));
    if (p->spin == HG_SPIN_SCALAR) continue;
    if (p->spin == HG_SPIN_VECTOR && p->mass != HG_PARAM_ZERO) {
      hg_strbuf_printf(b,
                       "  const hg_u32 v%d = (config >> %du) & 3u;\n"
                       "  if (v%d == 3u) return%s;\n"
                       "  const int h%d = v%d == 0u ? -1 : v%d == 1u ? 1 : 0;\n",
                       i, bit_of[i], i, returns_void ? "" : " (REAL)0", i, i, i);
    } else {
      hg_strbuf_printf(b, "  const int h%d = HG_HELICITY_OF(config, %d);\n", i, bit_of[i]);
    }
  }
}

/* Whether the code reads the electroweak parameters: a Z, W, H or tau, or an electroweak
 * coupling, anywhere in it. */
static int uses_ew(const hg_diagram_set *s) {
  for (size_t i = 0; i < s->n_wfs; ++i) {
    const hg_wavefunction *w = &s->wfs[i];
    const int pdg = hg_model_particle(hg_species_particle(w->species))->pdg;
    if (w->used && (pdg == 15 || pdg == 23 || pdg == 24 || pdg == 25 ||
                    (w->kind != HG_WF_EXTERNAL && w->coupling == HG_COUPLING_EW)))
      return 1;
  }
  for (size_t i = 0; i < s->n_diagrams; ++i)
    if (s->diagrams[i].coupling == HG_COUPLING_EW) return 1;
  return 0;
}

/* flows = 0: hg_process_config (the colour sum); 1: hg_process_flow_weights (each flow's
 * |J_k|^2 added into w[k]). */
static char *source(const hg_diagram_set *s, int gauge_particle, int flow_weights) {
  hg_strbuf b = {0};
  const size_t flows = s->n_flows;
  /* no process text here: processes with the same diagrams (u and d quarks in QCD) then share one
   * program (hg_program_get keys programs by their source) */
  hg_strbuf_printf(&b,
                   "/* generated by host/process/codegen.c (%zu diagrams, %zu colour flows): do not "
                   "edit */\n",
                   s->n_diagrams, flows);
  hg_strbuf_printf(&b, "#define N_PARTICLES %d\n#define HG_PROCESS_CONFIGS %uu\n", s->spec.n,
                   1u << s->helicity_bits);
  hg_strbuf_printf(&b, "#define HG_PROCESS_FLOWS %zu\n", flows);
  if (uses_ew(s)) hg_strbuf_printf(&b, "#define HG_PROCESS_EW 1\n");
  hg_strbuf_printf(&b, "\n");
  if (flow_weights)
    hg_strbuf_printf(&b, "/* |J_k|^2 of helicity configuration config added into w[k] */\n"
                         "HG_INLINE void hg_process_flow_weights(const hg_fourvec *p,\n"
                         "                                       const hg_u32 config,\n"
                         "                                       const hg_process_params pp,\n"
                         "                                       REAL *w) {\n"
                         "  const hg_coupling gs = hg_coupling_both(pp.g_s);\n"
                         "  hg_complex amp;\n");
  else
    hg_strbuf_printf(&b,
                     "/* |M|^2 of helicity configuration config, summed over colours */\n"
                     "HG_INLINE REAL hg_process_config(const hg_fourvec *p, const hg_u32 config,\n"
                     "                                 const hg_process_params pp) {\n"
                     "  const hg_coupling gs = hg_coupling_both(pp.g_s);\n"
                     "  hg_complex amp;\n");
  /* each colour flow's amplitude in a variable of its own: no private array indexed at run time
   * (which compilers put in memory) */
  write_helicities(&b, s, flow_weights);
  for (size_t k = 0; k < flows; ++k) hg_strbuf_printf(&b, "  hg_complex j%zu = hg_czero();\n", k);
  for (size_t i = 0; i < s->n_wfs; ++i)
    if (s->wfs[i].used) write_wavefunction(&b, s, i, gauge_particle);
  for (size_t i = 0; i < s->n_diagrams; ++i) write_diagram(&b, &s->diagrams[i]);
  if (flow_weights) {
    for (size_t k = 0; k < flows; ++k)
      hg_strbuf_printf(&b, "  w[%zu] += j%zu.re * j%zu.re + j%zu.im * j%zu.im;\n", k, k, k, k, k);
    hg_strbuf_printf(&b, "}\n");
    if (b.failed) {
      hg_strbuf_free(&b);
      return NULL;
    }
    return b.data;
  }
  /* the colour sum sum_ij Re(J_i* C_ij J_j) = sum_i J_i* (C_ii J_i + 2 sum_{j<i} C_ij J_j), the
   * symmetric matrix's entries as constants, zeros left out */
  hg_strbuf_printf(&b, "  REAL sum = (REAL)0;\n");
  for (size_t i = 0; i < flows; ++i) {
    hg_strbuf_printf(&b, "  {\n    hg_complex z = hg_cscale((REAL)%.17g, j%zu);\n",
                     s->colour_matrix[i * flows + i], i);
    for (size_t j = 0; j < i; ++j) {
      const double c = s->colour_matrix[i * flows + j];
      if (c != 0)
        hg_strbuf_printf(&b, "    z = hg_cadd(z, hg_cscale((REAL)%.17g, j%zu));\n", 2 * c, j);
    }
    hg_strbuf_printf(&b, "    sum += j%zu.re * z.re + j%zu.im * z.im;\n  }\n", i, i);
  }
  hg_strbuf_printf(&b, "  return sum;\n}\n");
  if (b.failed) {
    hg_strbuf_free(&b);
    return NULL;
  }
  return b.data;
}

char *hg_process_source(const hg_diagram_set *set) { return source(set, -1, 0); }

char *hg_process_source_gauge_check(const hg_diagram_set *set, int gauge_particle) {
  return source(set, gauge_particle, 0);
}

char *hg_process_source_flow_weights(const hg_diagram_set *set) { return source(set, -1, 1); }
