/* SPDX-License-Identifier: MIT */
/* A cross-section run over a process: channels and groups, one amplitude and sampler per group,
 * the pilot and the integration stages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "core/parallel.h"
#include "core/program.h"
#include "generator/checkpoint.h"
#include "generator/multichannel.h"
#include "generator/params.h"
#include "generator/phase_space.h"
#include "generator/run.h"
#include "generator/run_internal.h"
#include "generator/share.h"
#include "generator/histograms.h"
#include "generator/variations.h"
#include "hegetcl/pdf.h"
#include "integrate/channel_weights.h"
#include "integrate/vegas.h"
#include "integrate/vegas_reducer.h"
#include "pdf/alpha_s.h"
#include "pdf/lhapdf6_grid.h"
#include "phasespace/mg_cuts.h"
#include "phasespace/scales.h"
#include "process/model.h"
#include "process/partonic_channels.h"
#include "process/process_spec.h"
#include "shared/kernel_names.h"
#include "xsec/channels.h"

_Static_assert(HG_CUT_COUNT <= HEGETCL_MAX_CUTS, "the config's cut array holds every cut");
_Static_assert(HG_GEN_MAX_EXTERNAL >= HG_PROCESS_MAX_EXTERNAL, "a point holds every particle");
_Static_assert(HG_GEN_MAX_CHANNELS == HEGETCL_PROCESS_MAX_PS_CHANNELS, "a result holds them all");
_Static_assert(HEGETCL_EVENT_MAX_PARTICLES >= HG_PROCESS_MAX_EXTERNAL, "a record holds them too");

static hegetcl_status make_buffer(hegetcl_context *ctx, cl_mem_flags flags, size_t bytes,
                                  const void *host, const char *what, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                        (void *)host, &err);
  return hg_cl_check(ctx, err, "clCreateBuffer", "allocating %s (%zu bytes)", what, bytes);
}

/* A PDG id's slot in the run's PDF grid, added when new. */
static int pdf_slot(hg_gen_run *run, int pid) {
  for (size_t i = 0; i < run->n_pdf_pids; ++i)
    if (run->pdf_pids[i] == pid) return (int)i;
  if (run->n_pdf_pids == GEN_MAX_PDF_PIDS) return -1;
  run->pdf_pids[run->n_pdf_pids] = pid;
  return (int)run->n_pdf_pids++;
}

/* Whether two cut codes are a same-flavour opposite-charge lepton pair (mmll's). */
static int same_flavour_pair(int a, int b) {
  const int pa = hg_mg_cut_code_pdg(a), pb = hg_mg_cut_code_pdg(b);
  return hg_mg_cut_code_class(a) == HG_CUT_CLASS_LEPTON &&
         hg_mg_cut_code_class(b) == HG_CUT_CLASS_LEPTON && pa != 0 && pa + pb == 0;
}

/* The partonic channels and groups of the process (host/process/partonic_channels.h). A member
 * whose incoming pair is the group's swapped is a mirror; any final-state reordering of a member
 * maps particles onto ones of the same cut class (checked), so the cuts, symmetric in particles
 * of one class, treat the member's events as the group's. */
static hegetcl_status build_channels(hg_gen_run *run) {
  hegetcl_context *ctx = run->ctx;
  hg_channel_list *list = malloc(sizeof *list);
  if (list == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the channels");
  const hg_channel_options options = {.five_flavour = run->config.five_flavour};
  char error[512];
  if (hg_partonic_channels(run->config.process_text, &options, list, error, sizeof error) != 0) {
    free(list);
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "--process \"%s\": %s", run->config.process_text, error);
  }
  run->channels = calloc(list->n_channels, sizeof *run->channels);
  run->groups = calloc(list->n_groups, sizeof *run->groups);
  if (run->channels == NULL || run->groups == NULL) {
    free(list);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the channels");
  }
  hegetcl_status status = HEGETCL_OK;
  for (unsigned i = 0; i < list->n_groups && status == HEGETCL_OK; ++i) {
    const hg_channel_group *lg = &list->groups[i];
    gen_group *g = &run->groups[i];
    if (hg_process_parse(lg->text, &g->spec, error, sizeof error) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "group %s: %s", lg->text, error);
    g->first_channel = lg->first;
    g->n_channels = lg->count;
    run->members_max = lg->count > run->members_max ? lg->count : run->members_max;
  }
  for (unsigned i = 0; i < list->n_channels && status == HEGETCL_OK; ++i) {
    const hg_partonic_channel *lc = &list->channels[i];
    gen_channel *c = &run->channels[i];
    snprintf(c->text, sizeof c->text, "%s", lc->text);
    c->pid[0] = lc->pdg[0];
    c->pid[1] = lc->pdg[1];
    c->mirror = lc->order[0] == 1;
    for (int k = 0; k < lc->n; ++k) {
      c->pdg[k] = lc->pdg[k];
      c->order[k] = lc->order[k];
    }
    c->group = lc->group;
    const hg_process_spec *group_spec = &run->groups[lc->group].spec;
    hegetcl_process gp;
    hegetcl_process_from_text(&gp, group_spec->text, NULL, 0);
    const int flavours = run->config.five_flavour ? 5 : 4;
    /* each particle of the class of the one it stands for, and the same pairs of one flavour and
     * opposite charges (mmll's): l+ vl's u d~ > mu+ vm joins u d~ > e+ ve */
    int mine[HG_GEN_MAX_EXTERNAL], theirs[HG_GEN_MAX_EXTERNAL];
    for (int k = 2; k < lc->n; ++k) {
      const int j = lc->order[k];
      const double mass = hegetcl_process_mass(&gp, (unsigned)j);
      mine[k] = hg_mg_cut_class(lc->pdg[k], mass, flavours);
      theirs[k] = hg_mg_cut_class(hg_species_pdg(group_spec->species[j]), mass, flavours);
      if (hg_mg_cut_code_class(mine[k]) != hg_mg_cut_code_class(theirs[k]))
        status = hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                         "%s: its particle %d is cut as another kind than %s's particle %d, which "
                         "stands for it; the group cannot take it",
                         lc->text, k, group_spec->text, j);
    }
    for (int k = 2; k < lc->n && status == HEGETCL_OK; ++k)
      for (int l = k + 1; l < lc->n; ++l)
        if (same_flavour_pair(mine[k], mine[l]) != same_flavour_pair(theirs[k], theirs[l]))
          status = hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                           "%s: its particles %d and %d are %s same-flavour pair and those of %s "
                           "that stand for them %s; the group cannot take it",
                           lc->text, k, l, same_flavour_pair(mine[k], mine[l]) ? "a" : "not a",
                           group_spec->text,
                           same_flavour_pair(theirs[k], theirs[l]) ? "are not" : "are");
  }
  run->n_channels = list->n_channels;
  run->n_groups = list->n_groups;
  free(list);
  return status;
}

/* A final-state particle's cut class and its pT and |eta| cuts from the run's cut values. */
static int cut_code(const hg_gen_run *run, int species, double mass, double *pt, double *eta) {
  const double *c = run->config.cuts;
  const int code = hg_mg_cut_class(hg_species_pdg(species), mass, run->config.five_flavour ? 5 : 4);
  const int cls = hg_mg_cut_code_class(code);
  *pt = cls == HG_CUT_CLASS_JET      ? c[HG_CUT_PTJ]
        : cls == HG_CUT_CLASS_B      ? c[HG_CUT_PTB]
        : cls == HG_CUT_CLASS_PHOTON ? c[HG_CUT_PTA]
        : cls == HG_CUT_CLASS_LEPTON ? c[HG_CUT_PTL]
                                     : 0.0;
  *eta = cls == HG_CUT_CLASS_JET      ? c[HG_CUT_ETAJ]
         : cls == HG_CUT_CLASS_B      ? c[HG_CUT_ETAB]
         : cls == HG_CUT_CLASS_PHOTON ? c[HG_CUT_ETAA]
         : cls == HG_CUT_CLASS_LEPTON ? c[HG_CUT_ETAL]
                                      : -1.0;
  return code;
}

/* The resonances that can make the final state's colourless fermion pair (i, j), as
 * Breit-Wigner mass channels into g (kind HG_GEN_CHANNEL_MASS): a W for a charged lepton and the
 * neutrino of its doublet, a Z for a fermion and its antiparticle. Returns 1 when a photon can
 * make the pair too (a charged fermion and its antiparticle: 1/m^2 at small mass). */
static int pair_resonances(const hegetcl_process *p, const hg_process_spec *spec, int i, int j,
                           gen_group *g) {
  const int si = spec->species[i], sj = spec->species[j];
  const hg_particle *a = hg_model_particle(hg_species_particle(si));
  const hg_particle *b = hg_model_particle(hg_species_particle(sj));
  if (a->colour != 1 || b->colour != 1 || a->spin != HG_SPIN_FERMION ||
      b->spin != HG_SPIN_FERMION || hg_species_is_anti(si) == hg_species_is_anti(sj))
    return 0;
  double mw = 0.0;
  if (a->partner != NULL && strcmp(a->partner, b->name) == 0 &&
      hegetcl_process_get_derived(p, "MW", &mw) == HEGETCL_OK && p->w_width > 0.0) {
    g->ps_a[g->n_ps] = mw;
    g->ps_b[g->n_ps++] = p->w_width;
  }
  if (a == b && p->z_width > 0.0) {
    g->ps_a[g->n_ps] = p->z_mass;
    g->ps_b[g->n_ps++] = p->z_width;
  }
  return a == b && a->charge != 0.0;
}

/* A score of the chain order[0 .. n) (sampler slots; massive[slot] for the pair's particles) for
 * picking chains when there are more than room: a light object at either end (an emission off
 * an incoming parton's line), the massive pair side by side (made by one heavy-quark exchange). */
static int chain_score(const int *order, int n, const int *massive) {
  int score = 2 * !massive[order[0]] + 2 * !massive[order[n - 1]];
  for (int i = 0; i + 1 < n; ++i) score += massive[order[i]] && massive[order[i + 1]];
  return score;
}

/* The t-channel chains (generator/tchannel.h) added after g's channels, while there is room
 * (HG_GEN_MAX_CHANNELS in all): the orders of the final state's n_final particles along the
 * chain, one of each order and its reverse, the best scored first (chain_score, then
 * lexicographic). Propagator i carries the heavy quark's mass when one of the pair was emitted
 * before it and the other after (t0 = m^2), else it is massless with the cut-off t0 = the least
 * pT cut squared; the systems with a massive particle have their mass's log map (s0 = 0), the
 * massless ones the same cut-off. */
static void add_chains(gen_group *g) {
  const int n = (int)g->n_jets + (g->has_system ? 2 : 0);
  int massive[HG_GEN_MAX_EXTERNAL] = {0};
  double pt_least = 0.0;
  for (unsigned k = 0; k < g->n_jets; ++k)
    if (k == 0 || g->object_pt[k] < pt_least) pt_least = g->object_pt[k];
  if (g->has_system) massive[2 + g->n_jets] = massive[3 + g->n_jets] = 1;
  const double cut_off = pt_least * pt_least, heavy = g->mass_a * g->mass_a;
  int order[HG_GEN_MAX_EXTERNAL], best[HG_GEN_MAX_CHANNELS][HG_GEN_MAX_EXTERNAL];
  int scores[HG_GEN_MAX_CHANNELS], room = HG_GEN_MAX_CHANNELS - (int)g->n_ps, kept = 0;
  for (int i = 0; i < n; ++i) order[i] = 2 + i;
  /* the orders in lexicographic order (next permutation), one of each pair of reverses */
  for (;;) {
    if (order[0] < order[n - 1]) {
      const int score = chain_score(order, n, massive);
      /* insert after those scored at least as high; drop the last when full */
      int at = kept;
      while (at > 0 && scores[at - 1] < score) --at;
      if (at < room) {
        const int last = kept < room ? kept : room - 1;
        for (int j = last; j > at; --j) {
          scores[j] = scores[j - 1];
          memcpy(best[j], best[j - 1], sizeof best[j]);
        }
        scores[at] = score;
        memcpy(best[at], order, sizeof best[at]);
        if (kept < room) ++kept;
      }
    }
    int i = n - 2;
    while (i >= 0 && order[i] >= order[i + 1]) --i;
    if (i < 0) break;
    int j = n - 1;
    while (order[j] <= order[i]) --j;
    const int swap = order[i];
    order[i] = order[j];
    order[j] = swap;
    for (int a = i + 1, b = n - 1; a < b; ++a, --b) {
      const int t = order[a];
      order[a] = order[b];
      order[b] = t;
    }
  }
  g->n_chains = (unsigned)kept;
  for (int c = 0; c < kept; ++c) {
    double *record = g->chain[g->n_ps];
    memset(record, 0, sizeof g->chain[0]);
    int heavy_before = 0;
    for (int i = 0; i < n; ++i) {
      record[HG_GEN_CHAIN_ORDER + i] = best[c][i];
      heavy_before += massive[best[c][i]];
      if (i + 1 < n) record[HG_GEN_CHAIN_T0 + i] = heavy_before == 1 ? heavy : cut_off;
      int heavy_after = 0;
      for (int j = i; j < n; ++j) heavy_after += massive[best[c][j]];
      if (i >= 1 && i + 1 < n) record[HG_GEN_CHAIN_S0 + i] = heavy_after ? 0.0 : cut_off;
    }
    g->ps_a[g->n_ps] = 0.0;
    g->ps_b[g->n_ps++] = 0.0;
  }
}

/* The group's kinematics: the objects sampled in (pT, eta, phi) (massless final-state particles
 * whose class has a pT cut), the system (the rest: none or a pair), the sampler slot of each
 * particle, the masses, the cut codes, the phase-space channels. A colourless fermion pair that a
 * W or Z can make is the system whatever its cuts (its mass then follows the resonance). A
 * massless coloured parton or a photon without a pT cut is refused: the cross section would be
 * infinite; so is a massless pair a photon can make without a mass cut. */
static hegetcl_status group_kinematics(hg_gen_run *run, gen_group *g) {
  hegetcl_context *ctx = run->ctx;
  const hg_process_spec *spec = &g->spec;
  const double *cuts = run->config.cuts;
  hegetcl_process p;
  hegetcl_process_from_text(&p, spec->text, NULL, 0);
  /* the final state's colourless fermions: two of them a resonance can make are the system */
  int fermions[HG_GEN_MAX_EXTERNAL], n_fermions = 0, forced = 0;
  for (int i = spec->n_in; i < spec->n; ++i) {
    const hg_particle *particle = hg_model_particle(hg_species_particle(spec->species[i]));
    if (particle->colour == 1 && particle->spin == HG_SPIN_FERMION) fermions[n_fermions++] = i;
  }
  g->n_ps = 0;
  int photon = 0;
  if (n_fermions == 2) {
    photon = pair_resonances(&p, spec, fermions[0], fermions[1], g);
    /* a photon's pair needs a mass cut; without one the pair keeps its old treatment (objects
     * with their pT cuts, or the refusal below) */
    forced = g->n_ps > 0 && (!photon || cuts[HG_CUT_MMLL] > 0.0);
    if (!forced) g->n_ps = 0;
  }
  int n_objects = 0, n_rest = 0, rest[HG_GEN_MAX_EXTERNAL], n_qcd = 0, n_colourless = 0;
  int code[HG_GEN_MAX_EXTERNAL], object[HG_GEN_MAX_EXTERNAL];
  double pt[HG_GEN_MAX_EXTERNAL], eta[HG_GEN_MAX_EXTERNAL];
  for (int i = spec->n_in; i < spec->n; ++i) {
    const double mass = hegetcl_process_mass(&p, (unsigned)i);
    code[i] = cut_code(run, spec->species[i], mass, &pt[i], &eta[i]);
    const int cls = hg_mg_cut_code_class(code[i]);
    const int coloured = hg_model_particle(hg_species_particle(spec->species[i]))->colour > 1;
    if (mass == 0.0 && (coloured || cls == HG_CUT_CLASS_PHOTON) && !(pt[i] > 0.0))
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "%s has a massless %s in the final state: its cross section is infinite "
                     "without a pT cut; give one, e.g. --%s 20",
                     spec->text, hg_species_name(spec->species[i]),
                     cls == HG_CUT_CLASS_PHOTON ? "pta"
                     : cls == HG_CUT_CLASS_B    ? "ptb"
                                                : "ptj");
    n_qcd += mass == 0.0 && coloured;
    n_colourless += !coloured;
    const int in_pair = forced && (i == fermions[0] || i == fermions[1]);
    object[i] = mass == 0.0 && pt[i] > 0.0 && !in_pair;
    if (object[i])
      ++n_objects;
    else
      rest[n_rest++] = i;
  }
  if (n_qcd >= 2 && !(cuts[HG_CUT_DRJJ] > 0.0))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%s has %d massless partons in the final state: two of them collinear make "
                   "the cross section infinite without a Delta R cut; give one, e.g. --drjj 0.4 "
                   "(MadGraph's default)",
                   spec->text, n_qcd);
  if (!(n_rest == 2 || (n_rest == 0 && n_objects >= 2)))
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "%s: the phase space takes jets (and other massless particles with a pT cut) "
                   "plus at most one pair of other particles; this final state has %d of the "
                   "first and %d others",
                   spec->text, n_objects, n_rest);
  g->n_jets = (unsigned)n_objects;
  g->has_system = n_rest == 2;
  g->order[0] = 0;
  g->order[1] = 1;
  g->cut_code[0] = g->cut_code[1] = HG_CUT_CLASS_NONE;
  int next = 2;
  for (int i = spec->n_in; i < spec->n; ++i)
    if (object[i]) {
      g->object_pt[next - 2] = pt[i];
      g->object_eta[next - 2] = eta[i];
      g->cut_code[next] = code[i];
      g->order[i] = next++;
    }
  g->m_max = run->config.sqrt_s_gev;
  if (g->has_system) {
    g->order[rest[0]] = 2 + n_objects;
    g->order[rest[1]] = 3 + n_objects;
    g->cut_code[2 + n_objects] = code[rest[0]];
    g->cut_code[3 + n_objects] = code[rest[1]];
    g->mass_a = hegetcl_process_mass(&p, (unsigned)rest[0]);
    g->mass_b = hegetcl_process_mass(&p, (unsigned)rest[1]);
    g->m_min = g->mass_a + g->mass_b;
    /* a lepton pair's mass window (mmll, mmllmax) bounds the system's mass */
    const int pair = hg_mg_cut_code_class(code[rest[0]]) == HG_CUT_CLASS_LEPTON &&
                     hg_mg_cut_code_class(code[rest[1]]) == HG_CUT_CLASS_LEPTON;
    if (pair && cuts[HG_CUT_MMLL] > g->m_min) g->m_min = cuts[HG_CUT_MMLL];
    if (pair && cuts[HG_CUT_MMLLMAX] > 0.0 && cuts[HG_CUT_MMLLMAX] < g->m_max)
      g->m_max = cuts[HG_CUT_MMLLMAX];
    /* only resonances need no lower bound: a photon's 1/m^2 (or the log map) does */
    if (!(g->m_min > 0.0) && (photon || g->n_ps == 0))
      return hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "%s: the pair %s %s is massless: its mass needs a lower bound, e.g. --mmll "
                     "50",
                     spec->text, hg_species_name(spec->species[rest[0]]),
                     hg_species_name(spec->species[rest[1]]));
    /* the mass channels: each resonance's Breit-Wigner, and the log map (1/m^2) where a photon
     * can make the pair or no resonance can */
    if (g->m_min > 0.0 && (photon || g->n_ps == 0)) {
      g->ps_a[g->n_ps] = 0.0;
      g->ps_b[g->n_ps++] = 0.0;
    }
    g->ps_kind = HG_GEN_CHANNEL_MASS;
  } else {
    /* every object balances in one channel (the last ones when there are more than channels) */
    g->ps_kind = HG_GEN_CHANNEL_BALANCE;
    g->n_ps = 0;
    const int first = n_objects > HG_GEN_MAX_CHANNELS ? n_objects - HG_GEN_MAX_CHANNELS : 0;
    for (int k = first; k < n_objects; ++k) {
      g->ps_a[g->n_ps] = k;
      g->ps_b[g->n_ps++] = 0.0;
    }
  }
  /* with three or more coloured particles alone in the final state and no resonance, the
   * t-channel chains join the channels when --phase-space multichannel asks for them: the
   * default (auto) leaves them out, since with the one VEGAS grid the channels share they cost
   * p p > t t~ j and p p > j j j error per event (docs/generator.md, "Not there yet") */
  g->n_chains = 0;
  int resonance = 0;
  for (unsigned c = 0; c < g->n_ps; ++c) resonance = resonance || g->ps_b[c] > 0.0;
  if (run->config.phase_space == HEGETCL_PHASE_SPACE_MULTICHANNEL && spec->n - spec->n_in >= 3 &&
      n_colourless == 0 && !resonance)
    add_chains(g);
  /* --phase-space collider: the one channel of the single map (the last object balances; the
   * log map where it applies) */
  if (run->config.phase_space == HEGETCL_PHASE_SPACE_COLLIDER && g->n_ps > 1) {
    g->ps_a[0] = g->ps_a[g->n_ps - 1];
    g->ps_b[0] = g->ps_b[g->n_ps - 1];
    g->n_ps = 1;
  }
  for (unsigned c = 0; c < g->n_ps; ++c) g->alpha[c] = 1.0 / g->n_ps;
  g->dims = (unsigned)hg_gen_dims(n_objects, g->has_system);
  return HEGETCL_OK;
}

/* The power k of alpha_s in |M|^2 at the lowest order in QCD: a tree with c coloured external
 * particles has c - 2 strong vertices (a four-gluon vertex counts twice), so |M|^2 goes as
 * alpha_s^(c - 2) (CONVENTIONS.md, "alpha_s"). */
static unsigned alpha_s_power(const hg_process_spec *spec) {
  int coloured = 0;
  for (int i = 0; i < spec->n; ++i)
    coloured += hg_model_particle(hg_species_particle(spec->species[i]))->colour > 1;
  return coloured >= 2 ? (unsigned)(coloured - 2) : 0u;
}

/* Group g's process as its amplitude computes it. */
static hegetcl_status group_process(const hg_gen_run *run, const gen_group *g, hegetcl_process *p) {
  char message[512];
  const hegetcl_status status =
      hegetcl_process_from_text(p, g->spec.text, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(run->ctx, status, "%s", message);
  p->precision = run->config.process.precision;
  p->alpha_s = run->alpha_s_mu_r;
  if (run->config.group_engine >= 0) p->engine = (hegetcl_engine)run->config.group_engine;
  return HEGETCL_OK;
}

/* Group i's quark-line program shape (an empty one when another engine computes it), into the
 * run's array of them (hg_parallel_for). */
typedef struct {
  hg_gen_run *run;
  hg_fr_shape *shapes;
} shapes_job;

static hegetcl_status group_shape(size_t i, void *user) {
  shapes_job *job = user;
  hegetcl_process p;
  hegetcl_status status = group_process(job->run, &job->run->groups[i], &p);
  if (status == HEGETCL_OK && hg_fr_shape_of(job->run->ctx, &p, &job->shapes[i]) < 0)
    status = HEGETCL_ERR_NO_MEMORY;
  return status;
}

/* The program shape every quark-line group's amplitude is made with: the largest of theirs, so
 * that they share one program (one compile instead of one per group). */
static hegetcl_status group_shapes(hg_gen_run *run) {
  memset(&run->fr_shape, 0, sizeof run->fr_shape);
  shapes_job job = {run, calloc(run->n_groups, sizeof *job.shapes)};
  if (job.shapes == NULL) return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for shapes");
  const hegetcl_status status = hg_parallel_for(run->n_groups, group_shape, &job);
  for (unsigned g = 0; g < run->n_groups && status == HEGETCL_OK; ++g)
    if (job.shapes[g].n_particles > 0) hg_fr_shape_merge(&run->fr_shape, &job.shapes[g]);
  free(job.shapes);
  return status;
}

/* Group i's amplitude and sampler program (group_kinematics done): the builds, which
 * hg_parallel_for runs for several groups at once; they touch the group alone. */
static hegetcl_status group_programs(size_t i, void *user) {
  hg_gen_run *run = user;
  gen_group *g = &run->groups[i];
  hegetcl_context *ctx = run->ctx;
  const hegetcl_xsec_config *config = &run->config;
  const size_t batch = config->vegas.batch_size;
  hegetcl_status status = HEGETCL_OK;
  /* the member rows of the program (the largest group's count), then with several phase-space
   * channels one row each for their adaptation */
  g->rows = run->members_max + (g->n_ps > 1 ? g->n_ps : 0);
  hegetcl_process p;
  status = group_process(run, g, &p);
  if (status != HEGETCL_OK) return status;
  /* the quark-line groups share one program made for the largest of them (group_shapes) */
  status = run->fr_shape.n_particles > 0
               ? hg_amplitude_create_shaped(ctx, &p, &run->fr_shape, &g->amp)
               : hegetcl_amplitude_create(ctx, &p, &g->amp);
  if (status == HEGETCL_OK) status = hg_amplitude_reserve(g->amp, batch);
  if (status != HEGETCL_OK) return status;
  char options[1024];
  status = hg_build_options(ctx, HEGETCL_PRECISION_DOUBLE, 2, options, sizeof options);
  if (status != HEGETCL_OK) return status;
  size_t used = strlen(options);
  used += (size_t)snprintf(options + used, sizeof options - used,
                           " -D VEGAS_DIMS=%u -D VEGAS_BINS=%u -D AMP_REAL=%s -D GEN_N_JETS=%u "
                           "-D GEN_SYSTEM=%d -D GEN_MEMBERS=%u -D CHANNELS=%u "
                           "-D GEN_ALPHA_S_POWER=%u -D GEN_SCALE_CHOICE=%d -D GEN_PS_CHANNELS=%u "
                           "-D GEN_ORDER=",
                           g->dims, config->vegas.bins,
                           p.precision == HEGETCL_PRECISION_DOUBLE ? "double" : "float", g->n_jets,
                           g->has_system, run->members_max, g->rows, run->alpha_s_power,
                           config->dynamical_scale_choice, g->n_ps);
  for (int i = 0; i < g->spec.n; ++i)
    used +=
        (size_t)snprintf(options + used, sizeof options - used, "%s%d", i ? "," : "", g->order[i]);
  if (g->n_chains > 0)
    used += (size_t)snprintf(options + used, sizeof options - used, " -D GEN_PS_CHAINS=%u",
                             g->n_chains);
  snprintf(g->options, sizeof g->options, "%s", options);
  const hg_source_part part = {"generator/kernels.cl", NULL};
  return hg_program_get(ctx, &part, 1, options, &g->program, NULL);
}

/* The group's kernels, parameters, buffers and reducers (its programs built). */
static hegetcl_status open_group(hg_gen_run *run, gen_group *g) {
  hegetcl_context *ctx = run->ctx;
  const hegetcl_xsec_config *config = &run->config;
  const size_t batch = config->vegas.batch_size;
  hegetcl_status status = hg_kernel_create(ctx, g->program, HG_KERNEL_GENERATOR_SAMPLE, &g->sample);
  if (status != HEGETCL_OK) return status;
  /* the parameters */
  double params[HG_GEN_PARAM_TOTAL(64, HG_GEN_MAX_CHANNELS)];
  if (g->n_channels > 64)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED, "%s: %u channels in one group, at most 64",
                   g->spec.text, g->n_channels);
  memset(params, 0, sizeof params);
  params[HG_GEN_SQRT_S] = config->sqrt_s_gev;
  params[HG_GEN_M_MIN] = g->m_min;
  params[HG_GEN_M_MAX] = g->m_max;
  for (unsigned k = 0; k < g->n_jets; ++k) {
    params[HG_GEN_OBJECT_PT(k)] = g->object_pt[k];
    params[HG_GEN_OBJECT_ETA(k)] = g->object_eta[k];
  }
  for (int k = 0; k < HG_CUT_COUNT; ++k) params[HG_GEN_CUTS + k] = config->cuts[k];
  for (int i = 0; i < g->spec.n; ++i) params[HG_GEN_CUT_CODES + i] = g->cut_code[i];
  params[HG_GEN_MASS_A] = g->mass_a;
  params[HG_GEN_MASS_B] = g->mass_b;
  const double mu_f = config->mu_f_gev * config->mu_f_factor;
  params[HG_GEN_MU_F2] = mu_f * mu_f;
  params[HG_GEN_NORMALISATION] = HEGETCL_GEV2_TO_FB;
  const double mu_r = config->mu_r_gev * config->mu_r_factor;
  params[HG_GEN_MU_R2] = mu_r * mu_r;
  params[HG_GEN_ALPHA_S_AMP] = run->alpha_s_mu_r;
  params[HG_GEN_MU_R_FACTOR] = config->mu_r_factor;
  params[HG_GEN_MU_F_FACTOR] = config->mu_f_factor;
  params[HG_GEN_N_MEMBERS] = g->n_channels;
  for (unsigned m = 0; m < g->n_channels; ++m) {
    const gen_channel *c = &run->channels[g->first_channel + m];
    /* an antiproton's parton q has the proton's PDF of q's antiparticle (the gluon its own) */
    const int conjugate = config->beams == HEGETCL_BEAMS_PPBAR && c->pid[1] != 21;
    const int pid2 = conjugate ? -c->pid[1] : c->pid[1];
    const int slot1 = pdf_slot(run, c->pid[0]), slot2 = pdf_slot(run, pid2);
    if (slot1 < 0 || slot2 < 0)
      return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s: more parton flavours than the PDF grid holds",
                     c->text);
    params[HG_GEN_MEMBER_SLOT1(m)] = slot1;
    params[HG_GEN_MEMBER_SLOT2(m)] = slot2;
    params[HG_GEN_MEMBER_MIRROR(m)] = c->mirror;
  }
  for (unsigned c = 0; c < g->n_ps; ++c) {
    const int chain = c + g->n_chains >= g->n_ps;
    params[HG_GEN_CHANNEL_KIND(run->members_max, g->n_ps, c)] =
        chain ? HG_GEN_CHANNEL_CHAIN : g->ps_kind;
    if (chain)
      memcpy(params + HG_GEN_CHANNEL_CHAIN_RECORD(run->members_max, g->n_ps, c), g->chain[c],
             sizeof g->chain[c]);
    params[HG_GEN_CHANNEL_A(run->members_max, g->n_ps, c)] = g->ps_a[c];
    params[HG_GEN_CHANNEL_B(run->members_max, g->n_ps, c)] = g->ps_b[c];
  }
  hg_channel_weights_table(g->alpha, g->n_ps, params + HG_GEN_CHANNEL_TABLE(run->members_max));
  /* room for the program's members (GEN_MEMBERS): those past the group's read 0 */
  status = make_buffer(ctx, CL_MEM_READ_ONLY,
                       HG_GEN_PARAM_TOTAL(run->members_max, g->n_ps) * sizeof(double), params,
                       "the sampler's parameters", &g->params);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, batch * sizeof(double), NULL, "weight factors",
                         &g->factor);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_WRITE, g->rows * batch * sizeof(double), NULL,
                         "the channels' weight factors", &g->member_factor);
  if (status == HEGETCL_OK)
    status =
        make_buffer(ctx, CL_MEM_READ_WRITE, batch * g->dims, NULL, "VEGAS bin indices", &g->bins);
  if (status == HEGETCL_OK)
    status =
        hg_vegas_reducer_create(ctx, g->program, g->dims, config->vegas.bins, batch, &g->reducer);
  if (status == HEGETCL_OK) {
    const hg_vegas_buffers buffers = {g->factor, g->amp->me, g->bins};
    status = hg_vegas_reducer_set_buffers(g->reducer, &buffers);
  }
  if (status == HEGETCL_OK)
    status = hg_channels_create(ctx, g->program, g->rows, batch, g->member_factor, &g->channels);
  if (status != HEGETCL_OK) return status;
  size_t limit = 0;
  const cl_int err = clGetKernelWorkGroupInfo(g->sample, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                              sizeof limit, &limit, NULL);
  g->local = limit >= 128 ? 128 : limit;
  return hg_cl_check(ctx, err, "clGetKernelWorkGroupInfo", "asking %s's work-group limit",
                     HG_KERNEL_GENERATOR_SAMPLE);
}

static void close_group(gen_group *g) {
  if (g->family != NULL) g->family->close(g);
  hg_vegas_destroy(g->vegas);
  hg_vegas_reducer_destroy(g->reducer);
  hg_channels_destroy(g->channels);
  if (g->sample) clReleaseKernel(g->sample);
  cl_mem buffers[] = {g->params, g->factor, g->member_factor, g->bins};
  for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  hegetcl_amplitude_destroy(g->amp);
}

/* MadGraph's Z mass (its sm model), from which its one-loop alpha_s runs. */
#define GEN_MADGRAPH_MZ 91.188

/* The alpha_s table of the configuration's running and alpha_s at the fixed mu_R. */
static hegetcl_status alpha_s_setup(hg_gen_run *run) {
  const hegetcl_xsec_config *c = &run->config;
  char info[2048], error[512];
  snprintf(info, sizeof info, "%s/%s.info", hegetcl_pdf_directory(run->pdf),
           hegetcl_pdf_set_name(run->pdf));
  const int mode = c->alpha_s_running == HEGETCL_ALPHA_S_MADGRAPH ? HG_ALPHA_S_ONE_LOOP
                                                                  : HG_ALPHA_S_INTERPOLATED;
  if (hg_alpha_s_table(mode, info, hg_pdf_alpha_s_mz(run->pdf), GEN_MADGRAPH_MZ, 1,
                       &run->alpha_s_table, &run->alpha_s_size, error, sizeof error) != 0)
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "alpha_s (%s): %s", hg_alpha_s_mode_name(mode),
                   error);
  /* a member that gives its own alpha_s (its .dat header) runs with it, as in LHAPDF */
  double *own = NULL;
  size_t own_size = 0;
  const hegetcl_status status = hg_gen_member_alpha_s_table(run, c->pdf_member, &own, &own_size);
  if (status != HEGETCL_OK) return status;
  if (own != NULL) {
    free(run->alpha_s_table);
    run->alpha_s_table = own;
    run->alpha_s_size = own_size;
  }
  const double mu_r = c->mu_r_gev * c->mu_r_factor;
  run->alpha_s_mu_r = hg_alpha_s(run->alpha_s_table, mu_r * mu_r);
  if (!(run->alpha_s_mu_r > 0.0))
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT, "alpha_s(%g GeV) = %g from %s: not a coupling",
                   mu_r, run->alpha_s_mu_r, c->pdf_set);
  return HEGETCL_OK;
}

static hegetcl_status check_config(hegetcl_context *ctx, const hegetcl_xsec_config *c) {
  char error[512];
  if (hg_scale_choice_check(c->dynamical_scale_choice, c->mu_r_gev, error, sizeof error) != 0 ||
      hg_scale_choice_check(c->dynamical_scale_choice, c->mu_f_gev, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  const double scales[4] = {c->mu_r_gev, c->mu_f_gev, c->mu_r_factor, c->mu_f_factor};
  const char *names[4] = {"mu_R", "mu_F", "the mu_R factor", "the mu_F factor"};
  for (int i = 0; i < 4; ++i)
    if (!(scales[i] > 0.0 && isfinite(scales[i])))
      return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s = %g: a scale must be positive (--scale X GeV)",
                     names[i], scales[i]);
  if (c->phase_space == HEGETCL_PHASE_SPACE_RAMBO)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "--phase-space rambo is for photon runs; a process run takes auto or "
                   "multichannel (its channels) or collider (its single map)");
  if (!(c->sqrt_s_gev > 0.0))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "sqrt(s) = %g GeV: must be positive", c->sqrt_s_gev);
  if (hg_mg_cuts_check(c->cuts, error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  return HEGETCL_OK;
}

hegetcl_status hg_gen_run_create(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                 hg_gen_run **out) {
  *out = NULL;
  hegetcl_status status = check_config(ctx, config);
  if (status != HEGETCL_OK) return status;
  hg_gen_run *run = calloc(1, sizeof *run);
  if (run == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the run");
  run->ctx = ctx;
  run->config = *config;
  *out = run;
  char message[512];
  status = build_channels(run);
  if (status != HEGETCL_OK) return status;
  status =
      hegetcl_pdf_open(config->pdf_set, config->pdf_member, &run->pdf, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", message);
  status = alpha_s_setup(run);
  for (unsigned g = 0; g < run->n_groups && status == HEGETCL_OK; ++g) {
    run->groups[g].run = run;
    run->groups[g].index = g;
    const unsigned k = alpha_s_power(&run->groups[g].spec);
    if (g > 0 && k != run->alpha_s_power)
      return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                     "%s: groups of one process with different powers of alpha_s",
                     config->process_text);
    run->alpha_s_power = k;
    status = group_kinematics(run, &run->groups[g]);
  }
  /* every group's input checked, then their programs built side by side (the builds are most of
   * a cold start: NVIDIA's compiler takes seconds per program) */
  const double start = hg_now_seconds();
  if (status == HEGETCL_OK) status = group_shapes(run);
  if (status == HEGETCL_OK) status = hg_parallel_for(run->n_groups, group_programs, run);
  run->build_seconds += hg_now_seconds() - start; /* wall seconds: the builds overlap */
  for (unsigned g = 0; g < run->n_groups && status == HEGETCL_OK; ++g)
    status = open_group(run, &run->groups[g]);
  if (status != HEGETCL_OK) return status;
  double *grid = NULL;
  size_t n_grid = 0;
  status = hg_pdf_pack(run->pdf, run->pdf_pids, run->n_pdf_pids, &grid, &n_grid, message,
                       sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", message);
  status = make_buffer(ctx, CL_MEM_READ_ONLY, n_grid * sizeof(double), grid, "the PDF grid",
                       &run->pdf_buffer);
  free(grid);
  if (status == HEGETCL_OK)
    status = make_buffer(ctx, CL_MEM_READ_ONLY, run->alpha_s_size * sizeof(double),
                         run->alpha_s_table, "the alpha_s table", &run->alpha_s_buffer);
  if (status == HEGETCL_OK) status = hg_gen_variations_create(run, &run->variations);
  if (status == HEGETCL_OK) status = hg_gen_histograms_create(run, &run->histograms);
  return status;
}

void hg_gen_run_destroy(hg_gen_run *run) {
  if (run == NULL) return;
  hg_gen_share_close(run);
  hg_gen_histograms_destroy(run->histograms);
  hg_gen_variations_destroy(run->variations);
  for (unsigned g = 0; g < run->n_groups; ++g) close_group(&run->groups[g]);
  if (run->pdf_buffer) clReleaseMemObject(run->pdf_buffer);
  if (run->alpha_s_buffer) clReleaseMemObject(run->alpha_s_buffer);
  free(run->alpha_s_table);
  hegetcl_pdf_close(run->pdf);
  free(run->groups);
  free(run->channels);
  free(run);
}

/* hg_vegas_work's callbacks for one group. */
static hegetcl_status group_grid(void *user, unsigned worker, const double *edges) {
  gen_group *g = hg_gen_worker_group(user, worker);
  return hg_vegas_reducer_upload(g->reducer, edges);
}

cl_int hg_gen_set_event_args(cl_kernel k, const gen_group *g, uint32_t iteration,
                             uint64_t first_event, size_t n_events) {
  const hg_gen_run *run = g->run;
  const cl_uint seed_low = (cl_uint)run->config.vegas.seed, seed_high = g->key_high;
  const cl_uint first_low = (cl_uint)first_event, first_high = (cl_uint)(first_event >> 32);
  const cl_uint n = (cl_uint)n_events;
  cl_mem grid = hg_vegas_reducer_grid(g->reducer);
  cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &g->params);
  err |= clSetKernelArg(k, 1, sizeof(cl_mem), &grid);
  err |= clSetKernelArg(k, 2, sizeof(cl_mem), &run->pdf_buffer);
  err |= clSetKernelArg(k, 3, sizeof(cl_mem), &run->alpha_s_buffer);
  err |= clSetKernelArg(k, 4, sizeof(cl_uint), &seed_low);
  err |= clSetKernelArg(k, 5, sizeof(cl_uint), &seed_high);
  err |= clSetKernelArg(k, 6, sizeof(cl_uint), &iteration);
  err |= clSetKernelArg(k, 7, sizeof(cl_uint), &first_low);
  err |= clSetKernelArg(k, 8, sizeof(cl_uint), &first_high);
  err |= clSetKernelArg(k, 9, sizeof(cl_uint), &n);
  return err;
}

hegetcl_status hg_gen_group_sample(gen_group *g, uint32_t iteration, uint64_t first_event,
                                   size_t n_events, double *out) {
  hegetcl_context *ctx = g->run->ctx;
  cl_int err = hg_gen_set_event_args(g->sample, g, iteration, first_event, n_events);
  err |= clSetKernelArg(g->sample, 10, sizeof(cl_mem), &g->amp->momenta);
  err |= clSetKernelArg(g->sample, 11, sizeof(cl_mem), &g->factor);
  err |= clSetKernelArg(g->sample, 12, sizeof(cl_mem), &g->member_factor);
  err |= clSetKernelArg(g->sample, 13, sizeof(cl_mem), &g->bins);
  hegetcl_status status =
      hg_cl_check(ctx, err, "clSetKernelArg", "setting %s's arguments", HG_KERNEL_GENERATOR_SAMPLE);
  if (status != HEGETCL_OK) return status;
  const size_t local = g->local, global = (n_events + local - 1) / local * local;
  err = clEnqueueNDRangeKernel(ctx->queue, g->sample, 1, NULL, &global, &local, 0, NULL, NULL);
  status = hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s over %zu events of %s",
                       HG_KERNEL_GENERATOR_SAMPLE, n_events, g->spec.text);
  if (status == HEGETCL_OK) status = hg_amplitude_run(g->amp, n_events, 0, NULL);
  if (status != HEGETCL_OK || out == NULL) return status;
  status = hg_vegas_reducer_run(g->reducer, n_events, out);
  if (status == HEGETCL_OK)
    status = hg_channels_add_batch(g->channels, g->amp->me, n_events,
                                   out + hg_vegas_batch_sums(g->dims, g->run->config.vegas.bins));
  return status;
}

static hegetcl_status group_batch(void *user, unsigned worker, uint32_t iteration,
                                  uint64_t first_event, size_t n_events, double *out) {
  gen_group *g = hg_gen_worker_group(user, worker);
  hegetcl_status status = hg_gen_group_sample(g, iteration, first_event, n_events, out);
  /* the integration's (not the pilot's) sums per variation follow the channels', then the
   * histograms' (generator/histograms.h); the adapting iterations' are not combined, so not
   * computed */
  if (status != HEGETCL_OK || (!g->variation_sums && !g->histogram_sums)) return status;
  double *sums = out + hg_vegas_batch_sums(g->dims, g->run->config.vegas.bins) +
                 hg_channels_batch_sums(g->channels);
  const size_t n_var = g->variation_sums ? hg_gen_variations_batch_sums(g->run->variations) : 0;
  double *histogram_sums = g->histogram_sums ? sums + n_var : NULL;
  if (iteration < g->run->config.vegas.adapt_iterations) {
    memset(sums, 0, (n_var + hg_gen_histograms_batch_sums(g->run->histograms)) * sizeof *sums);
    return HEGETCL_OK;
  }
  if (histogram_sums != NULL)
    status = hg_gen_histograms_add_batch(g->run->histograms, g->index, iteration, first_event,
                                         n_events, histogram_sums);
  if (status == HEGETCL_OK && g->variation_sums)
    status = hg_gen_variations_add_batch(g->run->variations, g->index, iteration, first_event,
                                         n_events, sums, histogram_sums);
  return status;
}

hegetcl_status hg_gen_channel_weights_upload(gen_group *g) {
  double table[HG_GEN_MAX_CHANNELS];
  hg_channel_weights_table(g->alpha, g->n_ps, table);
  hegetcl_status status = HEGETCL_OK;
  for (unsigned w = 0; w <= g->run->n_replicas && status == HEGETCL_OK; ++w) {
    gen_group *r = hg_gen_worker_group(g, w);
    memcpy(r->alpha, g->alpha, sizeof r->alpha);
    const cl_int err = clEnqueueWriteBuffer(r->run->ctx->queue, r->params, CL_TRUE,
                                            HG_GEN_CHANNEL_TABLE(r->run->members_max) * sizeof(double),
                                            r->n_ps * sizeof(double), table, 0, NULL, NULL);
    status = hg_cl_check(r->run->ctx, err, "clEnqueueWriteBuffer", "uploading %s's channel weights",
                         r->spec.text);
  }
  return status;
}

/* The combined iterations' channel sums join the channels' combination. */
static hegetcl_status group_iteration_end(void *user, uint32_t index, int adapting,
                                          uint64_t n_events, double estimate, double variance,
                                          const double *extra) {
  (void)index;
  (void)estimate;
  gen_group *g = user;
  /* the adapting iterations teach the phase-space channels' weights (Kleiss-Pittau, as the photon
   * runs' multichannel): W_c = the sum of w^2 over channel c's events / their expected number */
  if (adapting && g->n_ps > 1) {
    double w2[HG_GEN_MAX_CHANNELS], events[HG_GEN_MAX_CHANNELS];
    for (unsigned c = 0; c < g->n_ps; ++c) {
      w2[c] = extra[2 * (g->run->members_max + c) + 1];
      events[c] = (double)n_events * g->alpha[c];
    }
    hg_channel_weights_update(g->alpha, w2, events, g->n_ps, HG_CHANNEL_FLOOR);
    const hegetcl_status status = hg_gen_channel_weights_upload(g);
    if (status != HEGETCL_OK) return status;
  }
  if (!adapting && variance > 0.0) {
    hg_channels_end_iteration(g->channels, n_events, variance, extra);
    hg_gen_variations_end_iteration(g->run->variations, g->index, n_events, variance,
                                    extra + hg_channels_batch_sums(g->channels));
    if (g->histogram_sums)
      hg_gen_histograms_end_iteration(
          g->run->histograms, g->index, n_events, variance,
          extra + hg_channels_batch_sums(g->channels) +
              (g->variation_sums ? hg_gen_variations_batch_sums(g->run->variations) : 0));
  }
  return HEGETCL_OK;
}

/* One VEGAS integration of group g with settings s and the Philox key's high word key_high;
 * channel_sums: its combined iterations join the channels' combination. */
static hegetcl_status integrate_group(gen_group *g, const hegetcl_vegas_settings *s,
                                      uint32_t key_high, int channel_sums,
                                      hegetcl_vegas_progress progress, void *progress_user,
                                      hegetcl_vegas_result *result) {
  hegetcl_context *ctx = g->run->ctx;
  hg_vegas *v = NULL;
  hegetcl_status status = hg_vegas_create(ctx, g->program, g->dims, s, &v);
  if (status != HEGETCL_OK) return status;
  g->key_high = key_high;
  g->variation_sums = channel_sums && g->run->variations != NULL;
  g->histogram_sums = channel_sums && g->run->histograms != NULL;
  /* the channels learn from the integration alone, not from the pilot */
  if (channel_sums) hg_vegas_set_observer(v, group_iteration_end, g);
  if (channel_sums) status = hg_gen_ckpt_attach(g->run->ckpt, g->index, v);
  hegetcl_context *contexts[1 + HEGETCL_XSEC_MAX_DEVICES] = {ctx};
  for (unsigned w = 1; w <= g->run->n_replicas; ++w) {
    gen_group *r = hg_gen_worker_group(g, w);
    contexts[w] = r->run->ctx;
    r->key_high = key_high;
    r->variation_sums = g->variation_sums;
    r->histogram_sums = g->histogram_sums;
  }
  const hg_vegas_work work = {
      .workers = 1 + g->run->n_replicas,
      .team = g->run->team,
      .contexts = contexts,
      .extra = hg_channels_batch_sums(g->channels) +
               (g->variation_sums ? hg_gen_variations_batch_sums(g->run->variations) : 0) +
               (g->histogram_sums ? hg_gen_histograms_batch_sums(g->run->histograms) : 0),
      .grid = group_grid,
      .batch = group_batch,
      .user = g};
  if (status == HEGETCL_OK) status = hg_vegas_run(v, &work, progress, progress_user, result);
  if (status == HEGETCL_OK && channel_sums) status = hg_gen_ckpt_detach(g->run->ckpt, g->index, v);
  hg_vegas_destroy(v);
  return status;
}

uint32_t hg_gen_stage_key(const hg_gen_run *run, unsigned g, unsigned stage) {
  return (uint32_t)(run->config.vegas.seed >> 32) ^ (0x10000u * (2u * g + stage + 1u));
}

hegetcl_status hg_gen_run_pilot(hg_gen_run *run) {
  const hegetcl_vegas_settings *base = &run->config.vegas;
  hegetcl_vegas_settings s = *base;
  s.adapt_iterations = 0;
  s.events_per_iteration = base->adapt_events > 4 ? base->adapt_events / 4 : 1;
  s.min_iterations = 1;
  s.max_iterations = 1;
  s.max_events = s.events_per_iteration;
  s.target_rel_error = 0.0;
  uint64_t accepted = 0;
  for (unsigned i = 0; i < run->n_groups; ++i) {
    gen_group *g = &run->groups[i];
    hegetcl_vegas_result r;
    hegetcl_status status = integrate_group(g, &s, hg_gen_stage_key(run, i, 0), 0, NULL, NULL, &r);
    if (status != HEGETCL_OK) return status;
    g->pilot_sigma = r.estimate;
    g->pilot_spread = r.error * sqrt((double)r.events);
    g->pilot_nonzero = r.events_nonzero;
    accepted += r.events_nonzero;
  }
  if (accepted == 0)
    return hg_fail(run->ctx, HEGETCL_ERR_INPUT,
                   "%s: none of %llu trial events per group passes the cuts (or lies inside the "
                   "beams' energy): loosen the cuts or raise --sqrt-s",
                   run->config.process_text, (unsigned long long)s.events_per_iteration);
  return HEGETCL_OK;
}

/* A family's plan: its one group's VEGAS with the configuration's settings as they are (the whole
 * budget, the target error sigma's), the family's work and observer; the run keeps the
 * integration for the group's unweighting. */
static hegetcl_status integrate_family(hg_gen_run *run, hegetcl_vegas_progress progress,
                                       void *progress_user, hegetcl_xsec_result *result) {
  gen_group *g = &run->groups[0];
  hegetcl_status status =
      hg_vegas_create(run->ctx, g->program, g->dims, &run->config.vegas, &g->vegas);
  if (status != HEGETCL_OK) return status;
  hg_vegas_work work;
  status = g->family->prepare(g, g->vegas, &work);
  if (status != HEGETCL_OK) return g->family->integrated(g, status, result);
  status = hg_vegas_run(g->vegas, &work, progress, progress_user, &result->vegas);
  return g->family->integrated(g, status, result);
}

hegetcl_status hg_gen_run_integrate(hg_gen_run *run, hegetcl_vegas_progress progress,
                                    void *progress_user, hegetcl_xsec_result *result) {
  if (run->family_plan) return integrate_family(run, progress, progress_user, result);
  const hegetcl_vegas_settings *base = &run->config.vegas;
  /* events in proportion to each group's spread (the variance-optimal split), at least 5 % of
   * an equal share; each group's target error its share of the total's */
  double spread_sum = 0.0, sigma_sum = 0.0;
  for (unsigned i = 0; i < run->n_groups; ++i) {
    spread_sum += run->groups[i].pilot_spread;
    sigma_sum += run->groups[i].pilot_sigma;
  }
  const double floor_share = 0.05 / run->n_groups;
  hegetcl_status status = HEGETCL_OK;
  double sigma = 0.0, variance = 0.0, chi2_weighted = 0.0;
  uint64_t events = 0, events_total = 0, nonzero = 0;
  unsigned iterations = 0;
  int reached = 1;
  double wall = 0.0, max_weight = 0.0;
  result->groups = calloc(run->n_groups, sizeof *result->groups);
  result->process_channels = calloc(run->n_channels, sizeof *result->process_channels);
  if (result->groups == NULL || result->process_channels == NULL)
    return hg_fail(run->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the groups' results");
  result->n_groups = run->n_groups;
  result->n_process_channels = run->n_channels;
  for (unsigned i = 0; i < run->n_groups && status == HEGETCL_OK; ++i) {
    gen_group *g = &run->groups[i];
    double share = spread_sum > 0.0 ? g->pilot_spread / spread_sum : 1.0 / run->n_groups;
    share = share > floor_share ? share : floor_share;
    hegetcl_vegas_settings s = *base;
    const double n_iter = (double)base->events_per_iteration * share;
    const double n_adapt = (double)base->adapt_events * share;
    /* at least 1000 events an iteration, 2000 per phase-space channel with several: with fewer
     * a small group's rare large weights go missing (p p > j j j's 3-channel groups at 1000 came
     * out 4.5 % low, docs/validation.md) */
    double least = g->n_ps > 1 ? 2000.0 * g->n_ps : 1000.0;
    /* and 4 times that per final-state particle beyond three: with 1000 events an iteration the
     * VEGAS grid of p p > t t~ j j j's g u > t t~ u c c~ (13 dimensions) collapsed onto a
     * corner, its iterations 10^-3 to 4 fb against the pilot's 54, and its combination settled
     * at 8e-6 fb with chi2/dof 2.5 */
    for (int k = g->spec.n - 2; k > 3; --k) least *= 4.0;
    s.events_per_iteration = (uint64_t)(n_iter > least ? n_iter : least);
    s.adapt_events = (uint64_t)(n_adapt > least ? n_adapt : least);
    s.max_events = (uint64_t)((double)base->max_events * share) + s.events_per_iteration;
    /* error_g = target sigma sqrt(spread_g / sum of spreads), as a fraction of sigma_g */
    s.target_rel_error = 0.0;
    if (base->target_rel_error > 0.0 && g->pilot_sigma > 0.0 && spread_sum > 0.0)
      s.target_rel_error =
          base->target_rel_error * sigma_sum * sqrt(g->pilot_spread / spread_sum) / g->pilot_sigma;
    hegetcl_vegas_result *r = &g->result;
    int restored = 0;
    status = hg_gen_ckpt_restore_group(run->ckpt, i, &restored);
    if (status == HEGETCL_OK && !restored)
      status = integrate_group(g, &s, hg_gen_stage_key(run, i, 1), 1, progress, progress_user, r);
    if (status != HEGETCL_OK) break;
    sigma += r->estimate;
    variance += r->error * r->error;
    chi2_weighted += r->chi2_per_dof * (double)r->events;
    events += r->events;
    events_total += r->events_total;
    nonzero += r->events_nonzero;
    iterations = r->iterations > iterations ? r->iterations : iterations;
    reached = reached && (r->reached_target || s.target_rel_error == 0.0);
    wall += r->wall_seconds;
    max_weight = r->max_weight > max_weight ? r->max_weight : max_weight;
    hegetcl_xsec_group *out = &result->groups[i];
    snprintf(out->text, sizeof out->text, "%s", g->spec.text);
    out->n_channels = g->n_channels;
    out->sigma_fb = r->estimate;
    out->error_fb = r->error;
    out->chi2_per_dof = r->chi2_per_dof;
    out->events = r->events;
    out->unweighting_efficiency = r->max_weight > 0.0 ? r->estimate / r->max_weight : 0.0;
    out->phase_space_channels = g->n_ps;
    for (unsigned c = 0; c < g->n_ps; ++c) out->channel_weights[c] = g->alpha[c];
    hegetcl_xsec_channel per[HG_CHANNELS_MAX];
    hg_channels_result(g->channels, per);
    for (unsigned m = 0; m < g->n_channels; ++m) {
      hegetcl_xsec_process_channel *c = &result->process_channels[g->first_channel + m];
      snprintf(c->text, sizeof c->text, "%s", run->channels[g->first_channel + m].text);
      c->group = i;
      c->sigma_fb = per[m].sigma_fb;
      c->error_fb = per[m].error_fb;
    }
    if (hg_gen_ckpt_stopped(run->ckpt)) break;
  }
  hegetcl_vegas_result *v = &result->vegas;
  v->estimate = sigma;
  v->error = sqrt(variance);
  v->chi2_per_dof = events > 0 ? chi2_weighted / (double)events : 0.0;
  v->iterations = iterations;
  v->events = events;
  v->events_total = events_total;
  v->events_nonzero = nonzero;
  v->reached_target = reached;
  v->wall_seconds = wall;
  v->max_weight = max_weight;
  result->build_seconds = run->build_seconds;
  result->pdf_lhapdf_id = hegetcl_pdf_lhapdf_id(run->pdf);
  result->alpha_s = run->alpha_s_mu_r;
  result->alpha_s_mu_r = run->config.dynamical_scale_choice == 0 ? run->alpha_s_mu_r : -1.0;
  result->alpha_s_power = run->alpha_s_power;
  snprintf(result->pdf_path, sizeof result->pdf_path, "%s", hegetcl_pdf_directory(run->pdf));
  if (status == HEGETCL_OK) status = hg_gen_variations_result(run->variations, result);
  if (status == HEGETCL_OK) status = hg_gen_histograms_result(run->histograms, result);
  return status;
}

/* hg_gen_generate for a family's run (the photon family's): no pilot, the integration, the
 * events, the last checkpoint; a stop heard ends the stages where it was heard. */
static hegetcl_status generate_family(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                      const hegetcl_xsec_hooks *hooks,
                                      hegetcl_xsec_result *result) {
  hg_gen_run *run = NULL;
  hegetcl_status status = hg_gen_photon_run_create(ctx, config, hooks, result, &run);
  if (status == HEGETCL_OK)
    status = hg_gen_run_integrate(run, hooks->progress, hooks->progress_user, result);
  gen_group *g = run != NULL ? &run->groups[0] : NULL;
  if (status == HEGETCL_OK && !result->stopped && config->unweighted_events > 0)
    status = g->family->unweight(g, hooks, result);
  if (status == HEGETCL_OK && !result->stopped) status = g->family->finish(g, result);
  hg_gen_run_destroy(run);
  return status;
}

hegetcl_status hg_gen_generate(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                               const hegetcl_xsec_hooks *hooks, hegetcl_xsec_result *result) {
  const hegetcl_xsec_hooks none = {0};
  if (hooks == NULL) hooks = &none;
  if (config->process_text[0] == '\0') return generate_family(ctx, config, hooks, result);
  if (config->unweighted_events > 0 && hooks->sink == NULL)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%llu unweighted events asked for but no event sink",
                   (unsigned long long)config->unweighted_events);
  hg_gen_run *run = NULL;
  hegetcl_status status = hg_gen_run_create(ctx, config, &run);
  if (status == HEGETCL_OK) status = hg_gen_share_open(run, hooks);
  if (status == HEGETCL_OK) status = hg_gen_ckpt_open(run, hooks, result, &run->ckpt);
  double t0 = hg_now_seconds();
  if (status == HEGETCL_OK && !hg_gen_ckpt_pilot_restored(run->ckpt)) {
    status = hg_gen_run_pilot(run);
    if (status == HEGETCL_OK) status = hg_gen_ckpt_save(run->ckpt, HEGETCL_XSEC_INTEGRATING);
  }
  const double t1 = hg_now_seconds();
  if (status == HEGETCL_OK)
    status = hg_gen_run_integrate(run, hooks->progress, hooks->progress_user, result);
  result->pilot_seconds = t1 - t0;
  result->integrate_seconds = hg_now_seconds() - t1;
  if (hg_gen_ckpt_stopped(run != NULL ? run->ckpt : NULL))
    result->stopped = HEGETCL_XSEC_INTEGRATING; /* the checkpoint holds the last saved iteration */
  const int events = status == HEGETCL_OK && !result->stopped && config->unweighted_events > 0;
  if (status == HEGETCL_OK && !result->stopped)
    status = hg_gen_ckpt_save(run->ckpt, events ? HEGETCL_XSEC_UNWEIGHTING : HEGETCL_XSEC_FINISHED);
  t0 = hg_now_seconds();
  if (events && run->ckpt != NULL) {
    status = hg_gen_ckpt_unweight(run->ckpt, hooks, result);
    if (status == HEGETCL_OK && !result->stopped)
      status = hg_gen_ckpt_save(run->ckpt, HEGETCL_XSEC_FINISHED);
  } else if (events) {
    if (hooks->events_begin != NULL) status = hooks->events_begin(result, hooks->sink_user);
    if (status == HEGETCL_OK)
      status = hg_gen_run_unweight(run, hg_gen_share_events(run, config->unweighted_events),
                                   hooks->sink, hooks->sink_user, hooks->events_progress,
                                   hooks->events_progress_user, &result->unweighting, result);
    status = hg_gen_share_combine_unweighting(run, status, config->unweighted_events,
                                              result);
  }
  if (run != NULL) hg_gen_ckpt_close(run->ckpt);
  hg_gen_run_destroy(run);
  return status;
}
