/* SPDX-License-Identifier: MIT */
/* The run object's insides, shared by its stages (run.c: pilot and integration; events.c: the
 * unweighting). */
#ifndef HG_GENERATOR_RUN_INTERNAL_H
#define HG_GENERATOR_RUN_INTERNAL_H

#include "amplitude/amplitude_internal.h"
#include "generator/helicities.h"
#include "generator/multichannel.h"
#include "generator/params.h"
#include "generator/phase_space.h"
#include "generator/run.h"
#include "hegetcl/pdf.h"
#include "integrate/vegas.h"
#include "integrate/vegas_reducer.h"
#include "process/colour.h"
#include "process/diagrams.h"
#include "process/partonic_channels.h"
#include "process/process_spec.h"
#include "xsec/channels.h"

/* The Philox iteration word of the unweighting's batches (the integration's count from 0). */
#define GEN_UNWEIGHT_ITERATION 0x40000000u

/* PDG ids a run's PDF grid may hold: the gluon, five quarks and their antiquarks. */
#define GEN_MAX_PDF_PIDS 11

/* One partonic channel: the partons from beams 1 and 2, and whether it is its group's process
 * with the incoming pair swapped. */
typedef struct {
  char text[HEGETCL_PROCESS_TEXT_SIZE];
  int pid[2];
  int mirror;
  unsigned group;
  int pdg[HG_GEN_MAX_EXTERNAL];   /* its particles' PDG ids */
  int order[HG_GEN_MAX_EXTERNAL]; /* its particle i is the group's particle order[i] */
} gen_channel;

struct hg_gen_family_sampler;

typedef struct gen_group {
  hg_gen_run *run;
  unsigned index;
  /* a process family's own sampler (NULL: the sampler program and amplitude below, made from the
   * group's process): its state, and the VEGAS integration it adapts, kept for its unweighting */
  const struct hg_gen_family_sampler *family;
  void *family_state;
  hg_vegas *vegas;
  hg_process_spec spec;
  unsigned first_channel, n_channels;
  hegetcl_amplitude *amp;
  cl_program program;
  cl_kernel sample;
  size_t local;
  cl_mem params, factor, member_factor, bins;
  hg_vegas_reducer *reducer;
  hg_channels *channels;
  unsigned dims, n_jets;
  int has_system;
  double mass_a, mass_b, m_min, m_max; /* the system's daughters, its mass range */
  double object_pt[HG_GEN_MAX_EXTERNAL],
      object_eta[HG_GEN_MAX_EXTERNAL]; /* sampled objects' cuts */
  int cut_code[HG_GEN_MAX_EXTERNAL];   /* each particle's, in the sampler's order */
  /* the phase-space channels (generator/multichannel.h): their kind, entries and weights; the
   * weights adapt in the integration's adapting iterations when there are several */
  unsigned n_ps;
  int ps_kind;
  double ps_a[HG_GEN_MAX_CHANNELS], ps_b[HG_GEN_MAX_CHANNELS], alpha[HG_GEN_MAX_CHANNELS];
  /* the last n_chains of them are t-channel chains (kind HG_GEN_CHANNEL_CHAIN), their records */
  unsigned n_chains;
  double chain[HG_GEN_MAX_CHANNELS][HG_GEN_CHAIN_STRIDE];
  unsigned rows; /* the channel reduction's rows: the members, then the channels when several */
  int order[HG_GEN_MAX_EXTERNAL];
  uint32_t key_high;                /* Philox key's high word for the stage being run */
  char options[1024];               /* the sampler program's build options */
  int variation_sums;               /* the stage being run sums the variations' weights */
  int histogram_sums;               /* ... and fills the histograms */
  double pilot_sigma, pilot_spread; /* the pilot's estimate and per-event standard deviation */
  uint64_t pilot_nonzero;
  hegetcl_vegas_result result;
  hegetcl_vegas_progress progress;
  void *progress_user;
} gen_group;

/* A family's group sampler behind the run object's stages (the photon family's:
 * generator/photon_group.c): the run makes its VEGAS integration from g->program, g->dims and the
 * run's settings; the family gives the integration's work over its devices and its observer, what
 * the integration reports, and the unweighting with the integration's last grid and largest
 * weight. */
typedef struct hg_gen_family_sampler {
  /* before the integration: its work and observer, and a resumed run's state read back */
  hegetcl_status (*prepare)(struct gen_group *g, hg_vegas *v, hg_vegas_work *work);
  /* after the integration (status: its own): the group's result beyond VEGAS's (channels,
   * helicities, variations), and unless stopped, the float check and the histograms */
  hegetcl_status (*integrated)(struct gen_group *g, hegetcl_status status,
                               hegetcl_xsec_result *result);
  /* the hooks' events_begin (events_resume), then this process's share of the run's unweighted
   * events (result->stopped when a stop was heard) */
  hegetcl_status (*unweight)(struct gen_group *g, const hegetcl_xsec_hooks *hooks,
                             hegetcl_xsec_result *result);
  /* a run that was not stopped: its last checkpoint */
  hegetcl_status (*finish)(struct gen_group *g, hegetcl_xsec_result *result);
  void (*close)(struct gen_group *g);
} hg_gen_family_sampler;

struct hg_gen_run {
  hegetcl_context *ctx;
  /* a family's stage plan (the photon family's): no pilot, one group with the whole budget (the
   * configuration's VEGAS settings as they are); 0: a process's (pilot, then events per group in
   * proportion to its spread) */
  int family_plan;
  hegetcl_xsec_config config;
  hegetcl_pdf *pdf;
  int pdf_pids[GEN_MAX_PDF_PIDS];
  size_t n_pdf_pids;
  cl_mem pdf_buffer, alpha_s_buffer;
  double *alpha_s_table;
  size_t alpha_s_size;
  gen_channel *channels;
  unsigned n_channels;
  gen_group *groups;
  unsigned n_groups;
  /* the largest group's members: every group's sampler program is built for as many (GEN_MEMBERS,
   * CHANNELS), so the groups share one program where their other options agree */
  unsigned members_max;
  double alpha_s_mu_r;
  unsigned alpha_s_power;
  double build_seconds;
  hg_fr_shape fr_shape; /* the quark-line groups' shared program shape (n_particles 0: none) */
  struct hg_gen_variations *variations; /* NULL: none (generator/variations.h) */
  struct hg_gen_ckpt *ckpt;             /* NULL: no checkpoints (generator/checkpoint.h) */
  /* sharing (generator/share.c): the same run on this process's other devices, whose groups
   * make the batches of workers 1 .. n_replicas; the processes sharing the run; the first event
   * number of this process's unweighting stream */
  struct hg_gen_run **replicas;
  unsigned n_replicas;
  const hegetcl_team *team;
  uint64_t first_event;
  struct hg_gen_histograms *histograms; /* NULL: none (generator/histograms.h) */
};

/* Kept event a of the batch (its event number `number`, of member m of group g): its helicity
 * configuration drawn from h's weights with its own Philox stream (block
 * HG_GEN_BLOCK_UNWEIGHT + 2) into e->helicity (+1 / -1 in the member's particle order); left 0
 * (SPINUP 9) when h draws none. */
void hg_gen_event_helicities(const hg_gen_run *run, const gen_group *g, unsigned m,
                             const hg_gen_helicities *h, size_t a, uint64_t number,
                             hegetcl_event *e);

/* The arguments 0..9 that every kernel regenerating a group's events from their Philox counters
 * takes (generator/event.h: params, VEGAS grid, PDF and alpha_s tables, the seed's words with the
 * group's stage key, the iteration, the first event's words, the count). */
cl_int hg_gen_set_event_args(cl_kernel k, const gen_group *g, uint32_t iteration,
                             uint64_t first_event, size_t n_events);

/* Group g (its index) of worker w's run: the run's own for worker 0, else a replica's. */
gen_group *hg_gen_worker_group(gen_group *g, unsigned worker);

/* The Philox key's high word of a stage (0: pilot, 1: integration, 2: unweighting) of group g:
 * every group and stage draws its own stream. */
uint32_t hg_gen_stage_key(const hg_gen_run *run, unsigned g, unsigned stage);

/* Group g's phase-space channel weights (g->alpha) into its sampler's parameters, and its
 * replicas' (g a group of the run, not of a replica). */
hegetcl_status hg_gen_channel_weights_upload(gen_group *g);

/* Enqueues group g's sampler over events [first, first + n) of `iteration` (the key in
 * g->key_high) with the grid in its reducer, then its amplitude; with reduce, the VEGAS and
 * channel reductions into out. */
hegetcl_status hg_gen_group_sample(gen_group *g, uint32_t iteration, uint64_t first, size_t n,
                                   double *out);

/* ICOLUP tags (501, ...) of flow (a basis element of the group's diagram set) for the group's
 * particles, incoming ones with colour and anticolour swapped (Les Houches): 0, or -1 when the
 * flow does not fit the particles. */
int hg_gen_flow_colours(const hg_process_spec *spec, const hg_colour_term *flow, int colour[][2]);

/* A group's colour flows and their leading-colour weights (CONVENTIONS.md, "Events of a
 * process"). The flows are the diagrams engine's colour basis, built on the host (milliseconds,
 * no program): it fixes their order in the draw and their ICOLUP, flow k = set.flows[k]. The
 * weights come from the group's own amplitude program when its engine is recursive (its
 * amplitude_flow_weights kernel, each of the engine's flows mapped onto the basis element of the
 * same colour structure), else from a program of their own (cl/generator/flows.cl, the diagrams
 * engine's code). */
typedef struct {
  hg_diagram_set set;
  int have_set, n_particles;
  unsigned char *valid; /* per basis flow: its ICOLUP is a colour flow of the particles (no gluon
                           colour-connected to itself); the others weigh 0 */
  hegetcl_amplitude *amp; /* the recursive engine's amplitude (not owned), or NULL */
  size_t n_engine;        /* ... its flows, engine flow k being basis flow basis_of[k] */
  size_t *basis_of;
  double *engine_w; /* their weights as read back, n_engine x capacity */
  cl_program program; /* the flows' own program (diagrams engine), or NULL */
  cl_kernel kernel;   /* generator_flows of that program or amplitude_flow_weights of amp's */
  cl_mem momenta, weights;
  size_t capacity;
  double build_seconds; /* the own program's build (0 when it was built or cached before) */
} hg_gen_flows;

/* The flows of spec with room for capacity events at once, grown when a call needs more (f
 * zeroed first; close it whatever this returns); amp: the group's amplitude (its particles those
 * of spec), whose program gives the weights when its engine is recursive; NULL or another engine:
 * the diagrams engine's program, built here. */
hegetcl_status hg_gen_flows_open(hegetcl_context *ctx, const hg_process_spec *spec,
                                 hegetcl_amplitude *amp, size_t capacity, hg_gen_flows *f);
void hg_gen_flows_close(hg_gen_flows *f);
/* w[k * n + e] = |J_k|^2 summed over helicities (basis flow k, 0 for a flow that is not valid)
 * for the n events of momenta (the amplitudes' structure of arrays, GeV, double); params: the
 * process's model parameters (an amplitude's; the recursive engine's own amplitude uses its
 * own). */
hegetcl_status hg_gen_flows_weights(hegetcl_context *ctx, hg_gen_flows *f, cl_mem params, size_t n,
                                    const double *momenta, double *w);

/* The trial events of a group's next unweighting batch (docs/generator.md, "Batch sizes of the
 * unweighting"): enough that the `needed` events it still lacks come with three standard
 * deviations to spare at its acceptance p = (kept + 1) / (tried + 1 / efficiency) (the
 * integration's sigma over its largest weight, `efficiency`, until the group's own batches
 * tell), rounded up to a multiple of granule, at least least (so that a device stays busy;
 * the unweighting gives 512 per compute unit, at most batch / 16) and at most batch (the
 * buffers' size); batch when
 * efficiency is not positive. The events do not depend on it: trial k of a group is always
 * Philox counter first_event + k. */
size_t hg_gen_unweight_batch_size(uint64_t needed, uint64_t kept, uint64_t tried, double efficiency,
                                  size_t least, size_t batch, size_t granule);

/* The unweighting stage: n_events events over the groups in proportion to their sigma, to sink. */
hegetcl_status hg_gen_run_unweight(hg_gen_run *run, uint64_t n_events, hegetcl_event_sink sink,
                                   void *sink_user, hegetcl_events_progress progress,
                                   void *progress_user, hegetcl_unweighting_result *out,
                                   hegetcl_xsec_result *times);

/* The photon family's run (config->process_text empty; generator/photon_group.c): its checks on
 * ctx, the sharing's devices and the checkpointing, its checkpoint opened (a fresh run's path
 * checked, a resumed run's checkpoint read and compared), then one group whose sampler is the
 * photon family's programs on every device (host/xsec/photon_family.h) with the family's stage
 * plan. Fills the result's PDF, alpha_s, flavour channels, build time and resumed phase. */
hegetcl_status hg_gen_photon_run_create(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                        const hegetcl_xsec_hooks *hooks,
                                        hegetcl_xsec_result *result, hg_gen_run **out);

#endif
