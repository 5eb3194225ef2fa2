/* SPDX-License-Identifier: MIT */
/* Hadronic cross sections of p p -> n photons through q qbar at leading order, integrated with
 * VEGAS on the OpenCL device. */
#ifndef HEGETCL_XSEC_H
#define HEGETCL_XSEC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "hegetcl/amplitude.h"
#include "hegetcl/device.h"
#include "hegetcl/events.h"
#include "hegetcl/histogram.h"
#include "hegetcl/status.h"
#include "hegetcl/variations.h"
#include "hegetcl/vegas.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the phase space is mapped onto the unit hypercube (README.md, "Cross sections"). */
typedef enum {
  HEGETCL_PHASE_SPACE_COLLIDER = 0, /* pT, eta, phi of n - 1 photons and the last one's rapidity */
  HEGETCL_PHASE_SPACE_RAMBO = 1,    /* log tau, pair rapidity, RAMBO in the parton frame; n <= 3
                                       (beyond, its errors are not honest: refused) */
  HEGETCL_PHASE_SPACE_MULTICHANNEL = 2, /* n collider channels, photon k balancing in channel k,
                                           Kleiss-Pittau channel weights (CONVENTIONS.md) */
  HEGETCL_PHASE_SPACE_AUTO = 3 /* the default: the collider map for n < HEGETCL_MULTICHANNEL_FROM,
                                  multichannel from there (hegetcl_phase_space_for) */
} hegetcl_phase_space;

/* The fewest photons for which HEGETCL_PHASE_SPACE_AUTO takes the multichannel map. Measured
 * (README.md, "Cross sections to n = 12"): with the collider map 20 seeds scatter 1.14 times their
 * errors at n = 5 but 12467 times at n = 8 (one run 37 % low); multichannel gives 0.85-1.02. Below
 * it the collider map keeps the HEGET paper's n = 2..4 runs bit for bit. */
#define HEGETCL_MULTICHANNEL_FROM 5

/* The map a run with phase space p and n photons uses: p itself, or for HEGETCL_PHASE_SPACE_AUTO
 * the collider map below HEGETCL_MULTICHANNEL_FROM photons and multichannel from there. */
hegetcl_phase_space hegetcl_phase_space_for(hegetcl_phase_space p, unsigned n_photons);

/* Which initial states count. */
typedef enum {
  HEGETCL_ORIENTATION_BOTH = 0,   /* the quark from either proton: the physical p p sum */
  HEGETCL_ORIENTATION_U_FIRST = 1 /* the quark from proton 1 only (the HEGET paper's table,
                                     MadGraph's `generate u u~ > n a`): half of BOTH */
} hegetcl_orientation;

typedef enum {
  HEGETCL_HELICITY_SUMMED = 0,  /* |M|^2 summed over helicities for every event */
  HEGETCL_HELICITY_SAMPLED = 1, /* one non-vanishing configuration per event, drawn uniformly */
  HEGETCL_HELICITY_ADAPTIVE = 2 /* one per event, drawn with probabilities learnt from each
                                   configuration's share of sigma while VEGAS adapts */
} hegetcl_helicity_mode;

/* The light quarks a run may sum (PDG ids 1..5, massless): flavour q is bit q - 1 of
 * hegetcl_xsec_config.flavours. */
#define HEGETCL_FLAVOUR_BIT(pid) ((1u << (pid)) >> 1)
#define HEGETCL_ALL_FLAVOURS 0x1fu
/* The largest n the cross section accepts (the recursive engine's). */
#define HEGETCL_MAX_XSEC_PHOTONS 12

/* The largest n for which RAMBO gives honest errors (CONVENTIONS.md, "Phase space"); beyond it
 * HEGETCL_PHASE_SPACE_RAMBO is refused. */
#define HEGETCL_RAMBO_MAX_PHOTONS 3
/* The most photons for which one helicity configuration per event (HEGETCL_HELICITY_SAMPLED or
 * _ADAPTIVE) gives an honest error; beyond, only the helicity sum (README.md, "Cross sections to
 * n = 12": at n = 10..12 on an H200 those runs came out 12 % to 4.7x low with 1-4 % errors). */
#define HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS 9

/* Channels of a run at most: q qbar and qbar q for each of the five flavours. */
#define HEGETCL_XSEC_MAX_CHANNELS 10

/* The beams of a run over a process. */
typedef enum {
  HEGETCL_BEAMS_PP = 0,   /* proton on proton (the LHC) */
  HEGETCL_BEAMS_PPBAR = 1 /* proton on antiproton (the Tevatron): beam 2 has the antiquarks' PDFs */
} hegetcl_beams;

/* How alpha_s runs in a run over a process (CONVENTIONS.md, "alpha_s"). */
typedef enum {
  HEGETCL_ALPHA_S_PDF = 0,     /* the PDF set's own (the default, what LHAPDF gives) */
  HEGETCL_ALPHA_S_MADGRAPH = 1 /* MadGraph's for CTEQ6L1: alpha_s(MZ) = 0.130, one loop, nf = 5 */
} hegetcl_alpha_s_running;

/* The size of hegetcl_xsec_config.alt_pdf_sets (the list's text and its NUL). */
#define HEGETCL_ALT_PDF_TEXT_SIZE 512
/* Alternative central PDF sets a run takes at most. */
#define HEGETCL_MAX_ALT_PDF_SETS 8

/* MadGraph run_card cuts a run over a process may hold (hegetcl_xsec_config.cuts). */
#define HEGETCL_MAX_CUTS 32

/* Everything a cross section depends on. */
typedef struct {
  hegetcl_process process; /* n, engine, precision (of |M|^2), alpha, quark charge */
  int quark_pid;           /* PDG id of the quark, default 2 (u); the antiquark is -pid */
  double sqrt_s_gev;       /* default 14000 */
  double mu_f_gev;         /* factorisation scale, default 20 */
  double pt_min_gev;       /* photon pT cut, default 20 */
  double eta_max;          /* photon |eta| cut, default 2.5 */
  double delta_r_min;      /* photon pair Delta R cut, default 0.4 */
  char pdf_set[256];       /* LHAPDF set name or directory, default "cteq6l1" */
  int pdf_member;          /* default 0 */
  hegetcl_phase_space phase_space;
  hegetcl_orientation orientation;
  hegetcl_helicity_mode helicity;
  hegetcl_vegas_settings vegas;
  int histograms;                    /* 1: fill the histograms in the combined iterations */
  hegetcl_histogram_binning binning; /* default hegetcl_histogram_binning_defaults */
  uint64_t unweighted_events;        /* events to unweight after the integration (0: none) */
  uint64_t max_unweighting_tries;    /* weighted events the unweighting may try (default 1e12) */
  /* 0 (default): the quark quark_pid alone, with the charge process.quark_charge. Else a set of
   * flavours (HEGETCL_FLAVOUR_BIT), summed with their own charges (d s b -1/3, u c 2/3) and PDFs:
   * per flavour q the channel q qbar (q from proton 1) and, with orientation both, qbar q, each
   * estimated from the same events (CONVENTIONS.md, "Flavour channels"). process.quark_charge must
   * then stay 2/3: |M|^2 is evaluated once per event with the u charge and scaled per channel. */
  unsigned flavours;
  /* A run over a process (docs/generator.md): its text as MadGraph users write it, with the
   * multiparticle labels p and j ("p p > t t~ j"); "" (the default) for the photon family above,
   * whose runs do not read the fields below. */
  char process_text[HEGETCL_PROCESS_TEXT_SIZE];
  hegetcl_beams beams;
  double mu_r_gev; /* fixed renormalisation scale (mu_f_gev the factorisation one) */
  /* 0: the fixed scales mu_r_gev and mu_f_gev; else MadGraph's dynamical_scale_choice 1-4 (3,
   * the default: half the sum of the final state's transverse masses) or 10 (half the sum of
   * pT): docs/generator.md */
  int dynamical_scale_choice;
  double mu_r_factor, mu_f_factor; /* multiply either scale, default 1 */
  hegetcl_alpha_s_running alpha_s_running;
  int five_flavour; /* 1: p and j hold b and b~ too */
  int group_engine; /* -1 (default): each group's own engine (hegetcl_process_from_text); else
                       the hegetcl_engine of every group (a cross-check of |M|^2) */
  /* cut values by MadGraph's run_card names (ptj, etaj, ...): cuts[k] for cut k of the
   * generator's table; 0 means not applied */
  double cuts[HEGETCL_MAX_CUTS];
  /* Variation weights (CONVENTIONS.md, "Variation weights"), computed on the device with the
   * nominal, for photon and process runs: scale_variations 0 (none), 7 or 9 (mu_R, mu_F x {1/2,
   * 1, 2}; a photon run's alpha is fixed, so there mu_R changes nothing); pdf_variations 1: every
   * member of the PDF set; alt_pdf_sets: other LHAPDF sets, comma-separated ("" for none), whose
   * central member (with its own alpha_s in a process run) gives one variation each. Each gives
   * sigma per variation in the result and a weight per variation in every unweighted event. */
  int scale_variations;
  int pdf_variations;
  char alt_pdf_sets[HEGETCL_ALT_PDF_TEXT_SIZE];
} hegetcl_xsec_config;

/* The paper's set-up for n photons (README.md): the defaults above, HEGETCL_PHASE_SPACE_AUTO (the
 * paper's collider map for n < HEGETCL_MULTICHANNEL_FROM, multichannel from there: name
 * HEGETCL_PHASE_SPACE_COLLIDER to repeat an earlier collider run at n >= 5), helicities summed,
 * both orientations. The runs resolve AUTO themselves, so n may be changed afterwards. */
void hegetcl_xsec_defaults(hegetcl_xsec_config *c, unsigned n_photons);

/* Names and parsers of the enums ("collider"/"rambo"/"multichannel"/"auto", "both"/"u-first",
 * "summed"/"sampled"/"adaptive"). */
const char *hegetcl_phase_space_name(hegetcl_phase_space p);
hegetcl_status hegetcl_phase_space_parse(const char *name, hegetcl_phase_space *out);
const char *hegetcl_orientation_name(hegetcl_orientation o);
hegetcl_status hegetcl_orientation_parse(const char *name, hegetcl_orientation *out);
const char *hegetcl_helicity_mode_name(hegetcl_helicity_mode h);
hegetcl_status hegetcl_helicity_mode_parse(const char *name, hegetcl_helicity_mode *out);

/* A set of flavours from a comma-separated list of d, u, s, c, b (each at most once, any order)
 * or "all"; HEGETCL_ERR_INPUT for anything else (*out unchanged). */
hegetcl_status hegetcl_flavours_parse(const char *list, unsigned *out);
/* The set as that list in PDG order ("d,u,s,c,b"; "none" for 0) into out (size bytes, >= 16). */
void hegetcl_flavours_name(unsigned flavours, char *out, size_t size);

/* One channel of a run over flavours: its partons and its share of sigma. */
typedef struct {
  char name[8];  /* "u u~": the parton from proton 1, then proton 2's (MadGraph's spelling) */
  int pid[2];    /* PDG ids of the partons from protons 1 and 2 */
  double charge; /* the quark's charge in units of e */
  double sigma_fb, error_fb; /* from the combined iterations, weighted as sigma's (they add up to
                                sigma to rounding); error_fb is this channel's own Monte Carlo
                                error (the channels of one event are correlated) */
} hegetcl_xsec_channel;

/* The most phase-space channels a group of a process run has. */
#define HEGETCL_PROCESS_MAX_PS_CHANNELS 8

/* A group of partonic channels that share one |M|^2 (MadGraph's subprocess), and a channel. */
typedef struct {
  char text[HEGETCL_PROCESS_TEXT_SIZE]; /* the group's process, "u u~ > t t~ g" */
  unsigned n_channels;
  double sigma_fb, error_fb, chi2_per_dof;
  uint64_t events; /* combined events of its integration */
  /* sigma over the largest weight of the last iteration: the share of trial events the
   * hit-or-miss unweighting keeps for this group */
  double unweighting_efficiency;
  /* the phase-space channels (CONVENTIONS.md, "Phase space of a process") and their weights
   * alpha as the adapting iterations left them */
  unsigned phase_space_channels;
  double channel_weights[HEGETCL_PROCESS_MAX_PS_CHANNELS];
  /* the unweighting: wall seconds of its kept events' colour-flow weights (its part of
   * hegetcl_xsec_result.flows_seconds, the helicities' weights left out) */
  double flows_seconds;
  /* the unweighting: its events, the trial events they took (up to its last kept event), the
   * events sampled on the device (its batches in full) and its batches, each sized from the
   * events it still needs (docs/generator.md, "Batch sizes of the unweighting") */
  uint64_t unweighted_events, unweighting_tried, unweighting_sampled;
  unsigned unweighting_batches;
} hegetcl_xsec_group;
typedef struct {
  char text[HEGETCL_PROCESS_TEXT_SIZE]; /* "c~ c > t t~ g" */
  unsigned group;                       /* index into hegetcl_xsec_result.groups */
  double sigma_fb, error_fb;            /* error_fb is the channel's own Monte Carlo error */
} hegetcl_xsec_process_channel;

/* A cross section's result. estimate and error are in fb. */
typedef struct {
  hegetcl_vegas_result vegas;
  double build_seconds; /* building the programs (0 when cached) */
  int pdf_lhapdf_id;    /* the set's SetIndex */
  double alpha_s;       /* the set's alpha_s at mu_F (one loop; -1 when it gives none) */
  char pdf_path[1024];  /* the directory the set was read from */
  char amplitude_options[512], sampler_options[512];
  hegetcl_histogram *histograms; /* config.histograms: the combined histograms (owned) */
  size_t n_histograms;
  hegetcl_unweighting_result unweighting; /* config.unweighted_events > 0 */
  /* Long runs (hegetcl_xsec_checkpointing): */
  int stopped;               /* 0: the run is complete; else a hegetcl_xsec_phase: it stopped
                                there on request, and the result holds what was done */
  int resumed;               /* 0: a fresh run; else the phase it was resumed in */
  uint32_t saved_iterations; /* iterations done that the checkpoint holds (when stopped) */
  /* A float run (process.precision float: double phase space, float amplitudes) evaluates up to
   * 4096 of its events inside the cuts again in double after the integration: how many, the
   * largest and mean |me_float / me_double - 1|, and that of the sample's sum of weights
   * (float_checked = 0: not a float run). */
  uint64_t float_checked;
  double float_max_deviation, float_mean_deviation, float_sigma_deviation;
  /* config.flavours != 0: the channels in order (flavours d u s c b; q qbar before qbar q) */
  unsigned n_channels;
  hegetcl_xsec_channel channels[HEGETCL_XSEC_MAX_CHANNELS];
  /* helicity adaptive: the probability of photon configuration c + 1 (bit i: photon i's helicity
   * is +; the quark pair is drawn with 1/2 each), as learnt (owned; NULL otherwise) */
  double *helicity_probabilities;
  size_t n_helicity_probabilities;
  /* phase space multichannel: the weight of channel k (photon k balancing) */
  unsigned n_channel_weights;
  double channel_weights[HEGETCL_MAX_XSEC_PHOTONS];
  /* a run over a process: its groups and channels (owned), alpha_s at the fixed mu_R (-1 with a
   * dynamical scale) and the power k of alpha_s in |M|^2 */
  hegetcl_xsec_group *groups;
  unsigned n_groups;
  hegetcl_xsec_process_channel *process_channels;
  unsigned n_process_channels;
  double alpha_s_mu_r;
  unsigned alpha_s_power;
  /* a run over a process: wall seconds per stage (docs/generator.md, "Benchmark"): the pilot, the
   * integration, and in the unweighting the device batches (sampling, PDFs, |M|^2), the
   * hit-or-miss on the device (with its counts read back), the kept events' compaction and
   * transfer, the colour-flow and helicity weights of the kept events, their variation weights, the host's records,
   * the sink (writing the file) and the rest on the host (the colour flows' diagrams and programs count in
   * build_seconds, which is wall time: programs are built several at once) */
  double pilot_seconds, integrate_seconds, unweight_device_seconds, unweight_host_seconds,
      flows_seconds, write_seconds, unweight_mark_seconds, unweight_transfer_seconds,
      record_seconds, variation_seconds;
  /* config.scale_variations or pdf_variations: sigma per variation (owned; NULL otherwise) */
  hegetcl_variation_result *variations;
  /* config.histograms with variations (a photon run): the histograms of every variation, filled
   * from the same events with the variation's weights, variation k's (variations->list.v[k])
   * histogram h at variation_histograms[k * n_histograms + h] (owned; NULL otherwise) */
  hegetcl_histogram *variation_histograms;
} hegetcl_xsec_result;

/* Where a run stands, as a checkpoint says. */
typedef enum {
  HEGETCL_XSEC_INTEGRATING = 1, /* VEGAS iterations */
  HEGETCL_XSEC_UNWEIGHTING = 2, /* sigma known, events being written */
  HEGETCL_XSEC_FINISHED = 3     /* nothing left to do */
} hegetcl_xsec_phase;
const char *hegetcl_xsec_phase_name(hegetcl_xsec_phase phase);

/* Long runs (docs/user-guide.md, "Long runs"): the run's state is saved in a checkpoint file,
 * written under path + ".tmp" and renamed, at its start, after every VEGAS iteration, when the
 * integration is complete, every every_events events of the unweighting, when it stops on request
 * and when it finishes. A run resumed from it gives the same numbers and events, bit for bit, as
 * one that was never stopped, on the same device; the combined iterations' histogram sums are saved
 * with them. */
typedef struct {
  const char *path;      /* the checkpoint file; NULL: none (stop still works) */
  int resume;            /* 1: continue the run saved in path (HEGETCL_ERR_INPUT naming the file
                            and the problem when it is missing, corrupt, of another format version,
                            of another configuration, naming the setting and both values, or
                            finished); 0: a fresh run, which refuses to replace a checkpoint of an
                            unfinished run */
  uint64_t every_events; /* unweighting: checkpoint after the batch whose events pass a multiple
                            of this (0: only when stopping); a setting of the run, as it fixes
                            where a gzip event file is flushed */
  const volatile sig_atomic_t *stop; /* non-zero (set e.g. by a signal handler): stop at the next
                                        batch boundary after saving the checkpoint; the call
                                        returns HEGETCL_OK with result->stopped set */
  const char *run_card;              /* text kept in the checkpoint for the caller (may be NULL) */
  const char *writer; /* program, version and commit, kept for people reading the file */
} hegetcl_xsec_checkpointing;

/* What a checkpoint says, read without a device (e.g. to check a command line before resuming). */
typedef struct {
  hegetcl_xsec_phase phase;
  char *run_card, *writer, *device; /* malloc'ed; "" when absent */
  uint32_t iterations;              /* VEGAS iterations done, adapting included */
  unsigned combined_iterations;
  double sigma_fb, error_fb; /* so far */
  uint64_t events_written;   /* unweighted events written so far */
  char *events_state;        /* the event sink's state ("" when none) */
} hegetcl_xsec_checkpoint_info;

/* Reads path's checkpoint: HEGETCL_ERR_IO when it cannot be read, HEGETCL_ERR_INPUT when it is no
 * hegetcl xsec checkpoint, of another format version, cut short or corrupt, with message naming
 * the file and the problem. Free info with hegetcl_xsec_checkpoint_info_free either way. */
hegetcl_status hegetcl_xsec_checkpoint_read(const char *path, hegetcl_xsec_checkpoint_info *info,
                                            char *message, size_t message_size);
void hegetcl_xsec_checkpoint_info_free(hegetcl_xsec_checkpoint_info *info);

/* Frees what a result owns (its histograms); the result itself is the caller's. */
void hegetcl_xsec_result_free(hegetcl_xsec_result *result);

/* Processes that share a run, e.g. MPI ranks (docs/user-guide.md, "Several GPUs and machines"; the
 * hegetcl-mpi command makes one from MPI_COMM_WORLD). Batch b of an iteration is rank
 * b % size's; after every round of batches, allreduce_sum adds count doubles element by element
 * over the processes, in place (every process calls it with the same count, like
 * MPI_Allreduce with MPI_SUM). A batch's sums are non-zero on one process only, so that sum is
 * exact and the result does not depend on how many processes share the run. It returns 0, or
 * non-zero with a message. local_rank and local_size: the process among those of its node. */
typedef struct {
  int rank, size, local_rank, local_size;
  int (*allreduce_sum)(void *user, double *values, size_t count, char *message,
                       size_t message_size);
  void *user;
} hegetcl_team;

/* The most devices one process runs on. */
#define HEGETCL_XSEC_MAX_DEVICES 16

/* How a run is shared: more devices of this process beside the context's (each takes the next
 * batch when it is free; a run's numbers do not depend on how many), and processes. The
 * integration is shared; the unweighting runs on the context's device, in every process, each
 * making its share of the events from a stream of its own (event numbers from rank x 2^40). */
typedef struct {
  hegetcl_context *const *devices; /* n_devices more contexts (not the run's own) */
  unsigned n_devices;
  const hegetcl_team *team; /* NULL: this process alone */
} hegetcl_xsec_sharing;

/* Who hears about a run: progress after every iteration; with unweighted events, events_begin
 * once after the integration (result holds sigma and the histograms; a status other than
 * HEGETCL_OK stops), sink for every event, events_progress after every batch. Any may be NULL
 * (unweighted events need a sink). With checkpointing and unweighted events: events_checkpoint at
 * every checkpoint of the unweighting, which makes the events given to sink so far durable and
 * describes them in one line of text (malloc'ed into *state; the checkpoint keeps it; stopping is
 * 1 when the run stops after it), and, resuming in the unweighting, events_resume instead of
 * events_begin, with that text, to continue the events where they were. */
typedef struct {
  hegetcl_vegas_progress progress;
  void *progress_user;
  hegetcl_status (*events_begin)(const hegetcl_xsec_result *result, void *user);
  hegetcl_event_sink sink;
  void *sink_user; /* passed to events_begin, sink, events_checkpoint and events_resume */
  hegetcl_events_progress events_progress;
  void *events_progress_user;
  const hegetcl_xsec_checkpointing *checkpointing; /* NULL: no checkpoints, no stopping */
  hegetcl_status (*events_checkpoint)(void *user, int stopping, char **state);
  hegetcl_status (*events_resume)(const hegetcl_xsec_result *result, const char *state, void *user);
  const hegetcl_xsec_sharing *sharing; /* NULL: the context's device alone */
} hegetcl_xsec_hooks;

/* hegetcl_xsec_run with histograms and unweighted events (config.histograms,
 * config.unweighted_events) delivered through hooks. */
hegetcl_status hegetcl_xsec_generate(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                     const hegetcl_xsec_hooks *hooks, hegetcl_xsec_result *result);

/* Checks the configuration (HEGETCL_ERR_INPUT naming the bad value and the fix), opens the PDF
 * set, builds the programs and integrates; progress (may be NULL) hears every iteration. */
hegetcl_status hegetcl_xsec_run(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                hegetcl_vegas_progress progress, void *progress_user,
                                hegetcl_xsec_result *result);

/* What a YAML run card (README.md, "Run cards"; the options of `hegetcl xsec`, without dashes)
 * sets: the configuration, the device ("device:", else HEGETCL_DEVICE, else "auto") and the
 * Les Houches path ("lhe:", "" without). Output keys the command writes (json, yoda, csv,
 * checkpoint) are read and checked but are not the library's business. */
typedef struct {
  hegetcl_xsec_config config;
  char device[256];
  char lhe[4096];
} hegetcl_run_card;

/* Reads the run card at path onto hegetcl_xsec_defaults, exactly as `hegetcl xsec --card path`
 * does (so a run from it gives the command's numbers bit for bit on the same device). n is
 * required; unweighted-events needs lhe. Errors, with message (message_size bytes, may be 0)
 * naming file:line:column, the option and the fix: HEGETCL_ERR_IO (the file cannot be read),
 * HEGETCL_ERR_INPUT (anything else); *out is then unchanged. Thread-safe. */
hegetcl_status hegetcl_run_card_read(const char *path, hegetcl_run_card *out, char *message,
                                     size_t message_size);

/* hegetcl_xsec_generate writing config->unweighted_events (> 0) unweighted events to the event
 * file at path in the format its ending names, as `hegetcl xsec --lhe` does: .lhe or .lhe.gz Les
 * Houches, .hdf5 or .h5 LHEH5, .hepmc or .hepmc.gz HepMC3 ASCII (.gz: gzip; another ending is
 * refused with HEGETCL_ERR_INPUT, LHEH5 without libhdf5 with HEGETCL_ERR_UNSUPPORTED): the file is
 * written under a temporary name and renamed when complete, so a failed run leaves none. result
 * as hegetcl_xsec_run's, with result->unweighting; free it with hegetcl_xsec_result_free.
 * Errors: those of hegetcl_xsec_run, HEGETCL_ERR_IO naming the file. */
hegetcl_status hegetcl_xsec_write_lhe(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                      const char *path, hegetcl_xsec_result *result);

/* GeV^-2 in fb: (hbar c)^2 = 0.3893793721 mb GeV^2 (PDG). */
#define HEGETCL_GEV2_TO_FB 3.893793721e11

#ifdef __cplusplus
}
#endif

#endif
