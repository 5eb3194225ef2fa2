/* SPDX-License-Identifier: MIT */
/* `hegetcl xsec`'s option table: parsing from flags and run cards, usage, and the card echo. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/observables.h"
#include "cli/xsec_options.h"
#include "phasespace/mg_cuts.h"
#include "phasespace/scales.h"
#include "config/run_card.h"

/* Where messages go: stderr (the command), or the calling thread's buffer
 * (hg_xsec_options_parse_into, the library's hegetcl_run_card_read), which keeps the first. */
static _Thread_local char *captured;
static _Thread_local size_t captured_size;
static _Thread_local int captured_any;

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void report(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (captured == NULL) {
    vfprintf(stderr, fmt, ap);
  } else if (!captured_any && captured_size > 0) {
    static const char prefix[] = "hegetcl: error: ";
    char text[HG_CLI_PATH + 1024];
    vsnprintf(text, sizeof text, fmt, ap);
    const char *start = strncmp(text, prefix, sizeof prefix - 1) == 0 ? text + sizeof prefix - 1
                                                                       : text;
    size_t n = strlen(start);
    while (n > 0 && start[n - 1] == '\n') --n;
    snprintf(captured, captured_size, "%.*s", (int)n, start);
    captured_any = 1;
  }
  va_end(ap);
}

typedef enum {
  O_CARD, O_N, O_ORIENTATION, O_FLAVOURS, O_ENGINE, O_PRECISION, O_HELICITY, O_PHASE_SPACE,
  O_DEVICE, O_SEED, O_TARGET_ERROR, O_MAX_EVENTS, O_EVENTS, O_MIN_ITERATIONS, O_MAX_ITERATIONS, O_ADAPT_ITERATIONS,
  O_ITERATION_EVENTS, O_ADAPT_EVENTS, O_VEGAS_BINS, O_VEGAS_ALPHA, O_BATCH, O_SQRT_S, O_SCALE, O_PT_MIN, O_ETA_MAX,
  O_DR_MIN, O_PDF, O_PDF_MEMBER, O_ALPHA, O_CHARGE, O_PT_BINS, O_ETA_BINS, O_DR_BINS, O_MASS_BINS,
  O_UNWEIGHTED_EVENTS, O_MAX_UNWEIGHTING_TRIES, O_JSON, O_YODA, O_CSV, O_LHE, O_EVENT_FILE,
  O_NO_VARIATION_WEIGHTS, O_CHECKPOINT, O_CHECKPOINT_EVERY, O_RESUME, O_KEEP_CHECKPOINT, O_QUIET,
  O_PROCESS, O_BEAMS, O_MAXJETFLAVOR, O_ALPHA_S_RUNNING, O_GROUP_ENGINE, O_DYNAMICAL_SCALE_CHOICE, O_MU_R_FACTOR,
  O_MU_F_FACTOR, O_CUT_FIRST, O_CUT_LAST = O_CUT_FIRST + HG_CUT_COUNT - 1, O_SCALE_VARIATIONS,
  O_PDF_VARIATIONS, O_ALT_PDF, O_COMPARE, O_COUNT
} option_id;

typedef struct {
  const char *name, *metavar, *help;
} option;

/* Usage lines; the card's keys are these names. */
static const option options[O_COUNT] = {
    [O_PROCESS] = {"process", "TEXT",
                   "a process as MadGraph users write it, \"g g > t t~\" (instead of\n"
                   "--n: docs/generator.md)"},
    [O_BEAMS] = {"beams", "B", "p-p (default) or p-pbar, for --process"},
    [O_MAXJETFLAVOR] = {"maxjetflavor", "N",
                        "4 (default: p and j are g u c d s and their antiquarks) or 5\n"
                        "(the five-flavour scheme: p and j hold b b~, massless, and b is\n"
                        "a jet for the cuts), MadGraph's run_card name, for --process"},
    [O_ALPHA_S_RUNNING] = {"alpha-s-running", "R",
                           "pdf (default: the PDF set's own alpha_s) or madgraph\n"
                           "(MadGraph's for CTEQ6L1: 0.130 at MZ, one loop), for --process"},
    [O_DYNAMICAL_SCALE_CHOICE] = {"dynamical-scale-choice", "N",
                                  "MadGraph's numbering: 1 sum of E_T, 2 sum of m_T, 3 (default)\n"
                                  "half the sum of m_T, 4 sqrt(s-hat); 10 half the sum of pT\n"
                                  "(--scale fixes mu_R = mu_F instead), for --process"},
    [O_GROUP_ENGINE] = {"group-engine", "E",
                         "the engine of every channel group, diagrams or recursive\n"
                         "(default: each group's own), for --process"},
    [O_MU_R_FACTOR] = {"mu-r-factor", "F", "multiplies mu_R (default 1), for --process"},
    [O_MU_F_FACTOR] = {"mu-f-factor", "F", "multiplies mu_F (default 1), for --process"},
    /* MadGraph's run_card cuts (host/phasespace/mg_cuts.c has their meanings), for --process;
     * none is applied unless given */
    [O_CUT_FIRST + HG_CUT_PTJ] = {"ptj", "GEV", "jets' pT above (MadGraph's run_card cuts, for\n"
                                                "--process; none unless given: docs/generator.md)"},
    [O_CUT_FIRST + HG_CUT_ETAJ] = {"etaj", "Y", "jets' |rapidity| below"},
    [O_CUT_FIRST + HG_CUT_DRJJ] = {"drjj", "DR", "Delta R between jets above"},
    [O_CUT_FIRST + HG_CUT_PTB] = {"ptb", "GEV", "b quarks' pT above (4 flavours: b is no jet)"},
    [O_CUT_FIRST + HG_CUT_ETAB] = {"etab", "Y", "b quarks' |rapidity| below"},
    [O_CUT_FIRST + HG_CUT_PTA] = {"pta", "GEV", "photons' pT above"},
    [O_CUT_FIRST + HG_CUT_ETAA] = {"etaa", "Y", "photons' |rapidity| below"},
    [O_CUT_FIRST + HG_CUT_DRAA] = {"draa", "DR", "Delta R between photons above"},
    [O_CUT_FIRST + HG_CUT_DRJA] = {"draj", "DR", "Delta R between photons and jets above"},
    [O_CUT_FIRST + HG_CUT_PTL] = {"ptl", "GEV", "charged leptons' pT above"},
    [O_CUT_FIRST + HG_CUT_ETAL] = {"etal", "Y", "charged leptons' |rapidity| below"},
    [O_CUT_FIRST + HG_CUT_DRLL] = {"drll", "DR", "Delta R between charged leptons above"},
    [O_CUT_FIRST + HG_CUT_MMLL] = {"mmll", "GEV", "same-flavour lepton pairs' mass above"},
    [O_CUT_FIRST + HG_CUT_MMLLMAX] = {"mmllmax", "GEV", "... and below"},
    [O_CUT_FIRST + HG_CUT_XPTJ] = {"xptj", "GEV", "the hardest jet's pT above"},
    [O_CUT_FIRST + HG_CUT_IHTMIN] = {"ihtmin", "GEV", "scalar sum of the jets' and b's pT above"},
    [O_SCALE_VARIATIONS] = {"scale-variations", "P",
                            "7 (MadGraph's 7-point mu_R, mu_F x {1/2, 1, 2}), 9 or off: sigma\n"
                            "and a weight per event for each (default 7 when events are\n"
                            "written, else off; a photon run's alpha is fixed: mu_R\n"
                            "changes nothing there)"},
    [O_PDF_VARIATIONS] = {"pdf-variations", "S",
                          "on or off: sigma and a weight per event for every member of\n"
                          "the PDF set, with the set's uncertainty (default on when\n"
                          "events are written)"},
    [O_ALT_PDF] = {"alt-pdf", "SET[,SET]",
                   "other LHAPDF sets whose central member gives sigma and a weight\n"
                   "per event each, with its own alpha_s (MadGraph's\n"
                   "systematics --pdf SET@0); default none"},
    [O_CARD] = {"card", "FILE", "a YAML run card of these options (keys without the dashes);\n"
                                "flags given with it override it"},
    [O_N] = {"n", "N", "photons, 2..12 (recursive engine; 2..8 for the others)"},
    [O_ORIENTATION] = {"orientation", "O",
                       "both (default: the quark from either proton, the p p cross\n"
                       "section) or u-first (the quark from proton 1 only, as the\n"
                       "paper's table and MadGraph's `u u~ > n a`: half of both)"},
    [O_FLAVOURS] = {"flavours", "LIST",
                    "light quarks summed, each with its charge and PDFs, as the\n"
                    "channels q q~ (and q~ q with orientation both), sigma per\n"
                    "channel reported: a comma list of d, u, s, c, b, or all\n"
                    "(default: u alone with --charge, the paper's u u~)"},
    [O_ENGINE] = {"engine", "E", "recursive (default), permutation, unrolled, diagrams"},
    [O_PRECISION] = {"precision", "P", "double (default) or float (|M|^2 only; phase space, PDFs\n"
                                       "and sums stay double)"},
    [O_HELICITY] = {"helicity", "H", "summed (default), sampled (one configuration per event,\n"
                                     "uniformly; unweighted events then carry helicities) or\n"
                                     "adaptive (one per event, with probabilities learnt from\n"
                                     "each configuration's share of sigma while VEGAS adapts)"},
    [O_PHASE_SPACE] = {"phase-space", "M", "auto (default: collider for n <= 4, multichannel from\n"
                                           "n = 5), collider (pT, eta, phi per photon, the last\n"
                                           "balancing pT), multichannel (n collider channels, each\n"
                                           "photon balancing in turn, adaptive channel weights)\n"
                                           "or rambo (n <= 3)"},
    [O_DEVICE] = {"device", "SPEC",
                  "auto (a GPU, else the CPU), gpu, cpu, P:D or a name part; A,B,... several "
                  "devices; all-gpus; per-rank (hegetcl-mpi)"},
    [O_SEED] = {"seed", "S", "Philox key (default 1): the same seed gives the same events\n"
                             "on every device"},
    [O_TARGET_ERROR] = {"target-error", "R", "stop soon after this relative error (default\n"
                                             "0.002); a chi2/dof that says the error is not\n"
                                             "to be trusted is flagged"},
    [O_MAX_EVENTS] = {"max-events", "N", "combined events at most (default 1e9)"},
    [O_EVENTS] = {"events", "N", "weighted events per iteration, at most (default 1e6;\n"
                                 "fewer where --target-error needs fewer)"},
    [O_MIN_ITERATIONS] = {"min-iterations", "N", "combined iterations at least (default 3)"},
    [O_MAX_ITERATIONS] = {"max-iterations", "N", "combined iterations at most (default 100)"},
    [O_ADAPT_ITERATIONS] = {"adapt-iterations", "N", "grid-training iterations, discarded (default 5)"},
    [O_ADAPT_EVENTS] = {"adapt-events", "N", "events per training iteration (default 2e5)"},
    [O_VEGAS_BINS] = {"vegas-bins", "N", "VEGAS bins per dimension, 2..255 (default 64)"},
    [O_VEGAS_ALPHA] = {"vegas-alpha", "A", "grid damping exponent (default 1.5; 0 keeps the grid\n"
                                           "uniform: plain Monte Carlo over the phase-space map)"},
    [O_ITERATION_EVENTS] = {"iteration-events", "R",
                            "auto (default: combined iterations sized from --target-error, at\n"
                            "most --events each) or fixed (--events each, whatever the target:\n"
                            "repeats runs made before the sizing)"},
    [O_BATCH] = {"batch", "N", "events per device launch (default 1048576)"},
    [O_SQRT_S] = {"sqrt-s", "E", "collider energy in GeV (default 14000)"},
    [O_SCALE] = {"scale", "MU", "factorisation scale in GeV (default 20); with --process the\n"
                                "fixed mu_R = mu_F"},
    [O_PT_MIN] = {"pt-min", "PT", "photon pT cut in GeV (default 20)"},
    [O_ETA_MAX] = {"eta-max", "ETA", "photon |eta| cut (default 2.5)"},
    [O_DR_MIN] = {"dr-min", "DR", "photon pair Delta R cut (default 0.4)"},
    [O_PDF] = {"pdf", "SET", "LHAPDF set name or directory (default cteq6l1), found in\n"
                             "LHAPDF_DATA_PATH (bash setup.sh installs it)"},
    [O_PDF_MEMBER] = {"pdf-member", "M", "set member (default 0)"},
    [O_ALPHA] = {"alpha", "A", "fine-structure constant (default 1/132.507)"},
    [O_CHARGE] = {"charge", "Q", "quark charge in units of e (default 2/3)"},
    [O_PT_BINS] = {"pt-bins", "B:LO:HI", "histogram binning of photon pT in GeV, B = 1 to 254\n"
                                         "(default 50:0:500)"},
    [O_ETA_BINS] = {"eta-bins", "B:LO:HI", "of photon eta (default 50:-2.5:2.5)"},
    [O_DR_BINS] = {"dr-bins", "B:LO:HI", "of Delta R (default 50:0:6)"},
    [O_MASS_BINS] = {"mass-bins", "B:LO:HI", "of the photon-system mass in GeV (default 50:0:2000)"},
    [O_UNWEIGHTED_EVENTS] = {"unweighted-events", "N",
                             "after integrating, N unweighted events (hit-or-miss against\n"
                             "the last iteration's largest weight) for --lhe"},
    [O_MAX_UNWEIGHTING_TRIES] = {"max-unweighting-tries", "N",
                                 "weighted events the unweighting may try (default 1e12)"},
    [O_JSON] = {"json", "FILE", "write the inputs, device, iterations and result as JSON"},
    [O_YODA] = {"yoda", "FILE", "fill histograms (combined iterations) and write them as YODA"},
    [O_CSV] = {"csv", "FILE", "... and as CSV"},
    [O_LHE] = {"lhe", "FILE", "write the unweighted events, in the format FILE's ending\n"
                              "names: .lhe, .lhe.gz Les Houches 3.0; .hdf5, .h5 LHEH5;\n"
                              ".hepmc, .hepmc.gz HepMC3 ASCII (.gz: gzip)"},
    [O_EVENT_FILE] = {"event-file", "FILE", "the same as --lhe FILE (any of its formats)"},
    [O_NO_VARIATION_WEIGHTS] = {"no-variation-weights", NULL,
                                "write the nominal weight alone, without the run's scale\n"
                                "and PDF variation weights (MadGraph's use_syst = False)"},
    [O_CHECKPOINT] = {"checkpoint", "FILE",
                      "save the run's state in FILE at its start, after every\n"
                      "iteration, every --checkpoint-every events and on SIGINT or\n"
                      "SIGTERM, which stop the run at the next batch (default: the\n"
                      "first of --lhe, --json, --yoda, --csv given, with .ckpt\n"
                      "added; none: no checkpoint); a run that finishes removes it\n"
                      "(see --keep-checkpoint), one that stops keeps it for --resume"},
    [O_CHECKPOINT_EVERY] = {"checkpoint-every", "N",
                            "unweighted events between checkpoints, taken between\n"
                            "batches: at least --batch (default: --batch; 0: only when\n"
                            "stopped)"},
    [O_RESUME] = {"resume", "FILE",
                  "continue the run saved in the checkpoint FILE, with the\n"
                  "settings it started with (flags may repeat them; only\n"
                  "--device, --quiet, --keep-checkpoint may change): the same\n"
                  "sigma and events as a run never stopped"},
    [O_KEEP_CHECKPOINT] = {"keep-checkpoint", NULL,
                           "keep the checkpoint of a run that finishes (its record:\n"
                           "--resume of it says the run finished, with its sigma)"},
    [O_QUIET] = {"quiet", NULL, "print the result line only (no progress)"},
    [O_COMPARE] = {"compare", "REF",
                   "print sigma beside another program's with the pull: REF is\n"
                   "\"SIGMA +- ERROR\" in pb (\"603.17 +- 0.30\", as MadEvent prints\n"
                   "it; \"fb\" after it for fb) or a Les Houches file whose <init>\n"
                   "gives it (MadEvent's unweighted_events.lhe.gz); its beams and\n"
                   "energy must be this run's"},
};

int hg_cli_xsec_usage(FILE *out) {
  fprintf(out, "usage: hegetcl xsec --n N [OPTIONS]\n"
               "  sigma(p p -> N photons) through q qbar at LO, integrated with VEGAS on the device;\n"
               "  histograms and unweighted Les Houches events on request. Defaults: the HEGET\n"
               "  paper's set-up (14 TeV, CTEQ6L1, mu_F = 20 GeV, pT > 20 GeV, |eta| < 2.5,\n"
               "  Delta R > 0.4, alpha = 1/132.507, u ubar; --flavours all sums d u s c b).\n"
               "  Every output carries the run card.\n\n");
  for (int i = 0; i < O_COUNT; ++i) {
    char flag[64];
    snprintf(flag, sizeof flag, "--%s%s%s", options[i].name, options[i].metavar ? " " : "",
             options[i].metavar ? options[i].metavar : "");
    fprintf(out, "  %-27s ", flag);
    for (const char *h = options[i].help; *h; ++h) {
      fputc(*h, out);
      if (*h == '\n') fprintf(out, "%30s", "");
    }
    fputc('\n', out);
  }
  return out == stderr ? 2 : 0;
}

/* Where a value came from, for messages: "--pt-min" or "run.yaml:7:9: pt-min". */
typedef struct {
  char text[HG_CLI_PATH + 96];
} origin;

static int bad(const origin *at, const char *value, const char *why) {
  report("hegetcl: error: %s %s: %s\n", at->text, value, why);
  return 0;
}

/* A whole number in [min, max] written as digits or in e-notation ("1e6"). */
static int parse_count(const origin *at, const char *value, double min, double max, double *out) {
  char *end = NULL;
  errno = 0;
  const double x = strtod(value, &end);
  if (end == value || *end != '\0' || errno != 0 || !(x >= min) || !(x <= max) || x != floor(x)) {
    char why[128];
    snprintf(why, sizeof why, "must be a whole number from %.0f to %.0f", min, max);
    return bad(at, value, why);
  }
  *out = x;
  return 1;
}

/* A seed: any 64-bit whole number in decimal digits, or e-notation up to 2^53. */
static int parse_seed(const origin *at, const char *value, uint64_t *out) {
  if (value[0] >= '0' && value[0] <= '9' && strspn(value, "0123456789") == strlen(value)) {
    errno = 0;
    const unsigned long long x = strtoull(value, NULL, 10);
    if (errno == 0) {
      *out = x;
      return 1;
    }
  }
  char *end = NULL;
  errno = 0;
  const double v = strtod(value, &end);
  if (end != value && *end == '\0' && errno == 0 && v >= 0 && v <= 9007199254740992.0 &&
      v == floor(v)) {
    *out = (uint64_t)v;
    return 1;
  }
  return bad(at, value,
             "must be a whole number from 0 to 18446744073709551615 (in e-notation up to 2^53)");
}

static int parse_real(const origin *at, const char *value, double *out) {
  char *end = NULL;
  errno = 0;
  const double x = strtod(value, &end);
  if (end == value || *end != '\0' || errno != 0 || !isfinite(x))
    return bad(at, value,
               "not a finite number: write a plain number such as 20 or 1.4e4 (no units)");
  *out = x;
  return 1;
}

/* What a real option must also be, beyond a finite number. */
typedef enum { REAL_POSITIVE, REAL_NON_NEGATIVE, REAL_NON_ZERO } real_rule;

/* A finite number that meets its option's rule; why names the rule and what the option means. */
static int parse_real_rule(const origin *at, const char *value, real_rule rule, const char *why,
                           double *out) {
  double x = 0.0;
  if (!parse_real(at, value, &x)) return 0;
  const int ok = rule == REAL_POSITIVE ? x > 0.0 : rule == REAL_NON_NEGATIVE ? x >= 0.0 : x != 0.0;
  if (!ok) return bad(at, value, why);
  *out = x;
  return 1;
}

/* BINS:LO:HI, e.g. 50:0:500. The ranges themselves are checked with the run. */
static int parse_bins(const origin *at, const char *value, hegetcl_bins *out) {
  char *end = NULL;
  errno = 0;
  const unsigned long bins = strtoul(value, &end, 10);
  double lo = 0, hi = 0;
  if (end != value && *end == ':' && value[0] != '-') {
    char *end2 = NULL;
    lo = strtod(end + 1, &end2);
    if (end2 != end + 1 && *end2 == ':') {
      char *end3 = NULL;
      hi = strtod(end2 + 1, &end3);
      if (end3 != end2 + 1 && *end3 == '\0' && errno == 0 && bins >= 1 &&
          bins <= HG_OBS_MAX_BINS &&
          isfinite(lo) && isfinite(hi)) {
        if (!(hi > lo)) return bad(at, value, "the upper edge HI must be above the lower LO");
        *out = (hegetcl_bins){(unsigned)bins, lo, hi};
        return 1;
      }
    }
  }
  /* the device reduction's limit (analysis/observables.h), checked before any device is chosen */
  char why[160];
  snprintf(why, sizeof why,
           "must be BINS:LO:HI, e.g. 50:0:500 (1 to %d bins, then the lower and upper edge)",
           HG_OBS_MAX_BINS);
  return bad(at, value, why);
}

static int copy_text(const origin *at, const char *value, char *out, size_t size) {
  if (strlen(value) >= size) return bad(at, "", "the text is too long");
  snprintf(out, size, "%s", value);
  return 1;
}

/* A MadGraph cut (its table's check: a negative pT, an |y| bound of 0, ...). */
static int apply_cut(hegetcl_xsec_config *c, int index, const char *v, const origin *at) {
  double value = 0.0;
  char error[512];
  if (!parse_real(at, v, &value)) return 0;
  if (hg_mg_cut_check(index, value, error, sizeof error) != 0) return bad(at, v, error);
  c->cuts[index] = value;
  return 1;
}

static int apply(hg_xsec_options *o, option_id id, const char *v, const origin *at) {
  hegetcl_xsec_config *c = &o->config;
  if (id >= O_CUT_FIRST && id <= O_CUT_LAST) return apply_cut(c, (int)(id - O_CUT_FIRST), v, at);
  double x = 0.0;
  int ok = 1;
  switch (id) {
  case O_CARD:
    return copy_text(at, v, o->card, sizeof o->card);
  case O_N:
    ok = parse_count(at, v, 2, HEGETCL_MAX_XSEC_PHOTONS, &x);
    c->process.n_photons = (unsigned)x;
    o->have_n = ok;
    return ok;
  case O_ORIENTATION:
    return hegetcl_orientation_parse(v, &c->orientation) == HEGETCL_OK ||
           bad(at, v, "use both or u-first");
  case O_FLAVOURS:
    return hegetcl_flavours_parse(v, &c->flavours) == HEGETCL_OK ||
           bad(at, v,
               "must be a comma-separated list of the quarks d, u, s, c, b (each at most once, "
               "no spaces), e.g. u,d, or all");
  case O_ENGINE:
    return hegetcl_engine_parse(v, &c->process.engine) == HEGETCL_OK ||
           bad(at, v, "use recursive, permutation, unrolled or diagrams");
  case O_PRECISION:
    return hegetcl_precision_parse(v, &c->process.precision) == HEGETCL_OK ||
           bad(at, v, "use double or float");
  case O_HELICITY:
    return hegetcl_helicity_mode_parse(v, &c->helicity) == HEGETCL_OK ||
           bad(at, v, "use summed, sampled or adaptive");
  case O_PHASE_SPACE:
    return hegetcl_phase_space_parse(v, &c->phase_space) == HEGETCL_OK ||
           bad(at, v, "use auto, collider, multichannel or rambo");
  case O_DEVICE:
    return copy_text(at, v, o->device, sizeof o->device);
  case O_SEED:
    return parse_seed(at, v, &c->vegas.seed);
  case O_TARGET_ERROR:
    return parse_real_rule(at, v, REAL_NON_NEGATIVE,
                           "must be >= 0 (a relative error such as 0.002; 0 runs until "
                           "--max-iterations or --max-events)",
                           &c->vegas.target_rel_error);
  case O_MAX_EVENTS:
    ok = parse_count(at, v, 2, 1e15, &x);
    c->vegas.max_events = (uint64_t)x;
    return ok;
  case O_EVENTS:
    ok = parse_count(at, v, 2, 1e13, &x);
    c->vegas.events_per_iteration = (uint64_t)x;
    return ok;
  case O_MIN_ITERATIONS:
    ok = parse_count(at, v, 1, 100000, &x);
    c->vegas.min_iterations = (unsigned)x;
    return ok;
  case O_MAX_ITERATIONS:
    ok = parse_count(at, v, 1, 100000, &x);
    c->vegas.max_iterations = (unsigned)x;
    return ok;
  case O_ADAPT_ITERATIONS:
    ok = parse_count(at, v, 0, 100000, &x);
    c->vegas.adapt_iterations = (unsigned)x;
    return ok;
  case O_ADAPT_EVENTS:
    ok = parse_count(at, v, 2, 1e13, &x);
    c->vegas.adapt_events = (uint64_t)x;
    return ok;
  case O_VEGAS_BINS:
    ok = parse_count(at, v, 2, 255, &x);
    c->vegas.bins = (unsigned)x;
    return ok;
  case O_VEGAS_ALPHA:
    if (!parse_real_rule(at, v, REAL_NON_NEGATIVE,
                         "must be >= 0 (the grid damping exponent; 0 keeps the grid uniform)",
                         &c->vegas.alpha))
      return 0;
    if (c->vegas.alpha > HEGETCL_VEGAS_ALPHA_MAX)
      return bad(at, v,
                 "must lie in 0 to 2 (the grid damping exponent; the usual range is 0.5 to 2): "
                 "larger values collapse the VEGAS grid onto a few bins (alpha 10 gave sigma 23 % "
                 "low with an error of 1 %)");
    return 1;
  case O_ITERATION_EVENTS:
    if (strcmp(v, "auto") == 0 || strcmp(v, "fixed") == 0) {
      c->vegas.fixed_iteration_events = strcmp(v, "fixed") == 0;
      return 1;
    }
    return bad(at, v, "use auto or fixed");
  case O_BATCH:
    ok = parse_count(at, v, 128, 2147483647.0, &x);
    c->vegas.batch_size = (size_t)x;
    return ok;
  case O_SQRT_S:
    return parse_real_rule(at, v, REAL_POSITIVE, "must be > 0 (the collider energy in GeV)",
                           &c->sqrt_s_gev);
  case O_SCALE:
    ok = parse_real_rule(at, v, REAL_POSITIVE, "must be > 0 (the factorisation scale in GeV)",
                         &c->mu_f_gev);
    c->mu_r_gev = c->mu_f_gev;
    c->dynamical_scale_choice = 0;
    return ok;
  case O_DYNAMICAL_SCALE_CHOICE: {
    const hg_scale_choice_info *info = hg_scale_choice_by_name(v);
    char *end = NULL;
    const long number = strtol(v, &end, 10);
    if (info == NULL && end != v && *end == '\0') info = hg_scale_choice_find((int)number);
    if ((info == NULL || info->choice == HG_SCALE_FIXED) && end != v && *end == '\0' &&
        (number == -1 || number == 0))
      return bad(at, v,
                 number == -1
                     ? "MadGraph's default (the transverse mass of the 2 > 2 system its kT "
                       "clustering leaves) is not implemented: use 1, 2, 3, 4 or 10 (3, half "
                       "the sum of m_T, is this program's default), or --scale X for a fixed "
                       "scale, and the same in MadGraph's run_card to compare"
                     : "MadGraph's user-defined scale (its setscales.f) has no counterpart here: "
                       "use 1, 2, 3, 4 or 10, or --scale X for a fixed scale");
    if (info == NULL || info->choice == HG_SCALE_FIXED)
      return bad(at, v, "use 1, 2, 3, 4 (MadGraph's dynamical_scale_choice) or 10; --scale X for "
                        "a fixed scale");
    c->dynamical_scale_choice = info->choice;
    return 1;
  }
  case O_GROUP_ENGINE: {
    hegetcl_engine engine;
    if ((hegetcl_engine_parse(v, &engine) == HEGETCL_OK &&
         (engine == HEGETCL_ENGINE_DIAGRAMS || engine == HEGETCL_ENGINE_RECURSIVE))) {
      c->group_engine = (int)engine;
      return 1;
    }
    return bad(at, v, "use diagrams or recursive");
  }
  case O_MU_R_FACTOR:
    return parse_real_rule(at, v, REAL_POSITIVE, "must be > 0 (a scale factor)", &c->mu_r_factor);
  case O_MU_F_FACTOR:
    return parse_real_rule(at, v, REAL_POSITIVE, "must be > 0 (a scale factor)", &c->mu_f_factor);
  case O_PROCESS:
    ok = copy_text(at, v, c->process_text, sizeof c->process_text);
    o->have_n = ok;
    return ok;
  case O_BEAMS:
    if (strcmp(v, "p-p") == 0 || strcmp(v, "p-pbar") == 0) {
      c->beams = strcmp(v, "p-p") == 0 ? HEGETCL_BEAMS_PP : HEGETCL_BEAMS_PPBAR;
      return 1;
    }
    return bad(at, v, "use p-p or p-pbar");
  case O_MAXJETFLAVOR:
    if (strcmp(v, "4") == 0 || strcmp(v, "5") == 0) {
      c->five_flavour = strcmp(v, "5") == 0;
      return 1;
    }
    return bad(at, v,
               "use 4 (p and j without b) or 5 (the five-flavour scheme: p and j hold b b~)");
  case O_ALPHA_S_RUNNING:
    if (strcmp(v, "pdf") == 0 || strcmp(v, "madgraph") == 0) {
      c->alpha_s_running = strcmp(v, "pdf") == 0 ? HEGETCL_ALPHA_S_PDF : HEGETCL_ALPHA_S_MADGRAPH;
      return 1;
    }
    return bad(at, v, "use pdf or madgraph");
  case O_SCALE_VARIATIONS:
    if (strcmp(v, "7") == 0 || strcmp(v, "9") == 0 || strcmp(v, "off") == 0) {
      o->scale_variations = strcmp(v, "off") == 0 ? 0 : atoi(v);
      return 1;
    }
    return bad(at, v, "use 7 (MadGraph's 7-point), 9 or off");
  case O_PDF_VARIATIONS:
    if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0) {
      o->pdf_variations = strcmp(v, "on") == 0;
      return 1;
    }
    return bad(at, v, "use on or off");
  case O_ALT_PDF:
    return copy_text(at, v, c->alt_pdf_sets, sizeof c->alt_pdf_sets);
  case O_CUT_FIRST:
  case O_CUT_LAST:
    break; /* apply_cut, before the switch */
  case O_PT_MIN:
    return parse_real_rule(at, v, REAL_POSITIVE,
                           "must be > 0 (GeV): the pT cut keeps the photons away from the soft "
                           "and collinear singularities, where sigma is infinite",
                           &c->pt_min_gev);
  case O_ETA_MAX:
    return parse_real_rule(at, v, REAL_POSITIVE, "must be > 0 (every photon has |eta| < eta-max)",
                           &c->eta_max);
  case O_DR_MIN:
    return parse_real_rule(at, v, REAL_NON_NEGATIVE,
                           "must be >= 0 (every photon pair has Delta R > dr-min; 0: no cut)",
                           &c->delta_r_min);
  case O_PDF:
    return copy_text(at, v, c->pdf_set, sizeof c->pdf_set);
  case O_PDF_MEMBER:
    ok = parse_count(at, v, 0, 100000, &x);
    c->pdf_member = (int)x;
    return ok;
  case O_ALPHA:
    return parse_real_rule(at, v, REAL_POSITIVE,
                           "must be > 0 (the fine-structure constant, default 1/132.507)",
                           &c->process.alpha);
  case O_CHARGE:
    return parse_real_rule(at, v, REAL_NON_ZERO,
                           "must not be 0 (the quark charge in units of e: 2/3 for u, -1/3 for d)",
                           &c->process.quark_charge);
  case O_PT_BINS:
    return parse_bins(at, v, &c->binning.pt_gev);
  case O_ETA_BINS:
    return parse_bins(at, v, &c->binning.eta);
  case O_DR_BINS:
    return parse_bins(at, v, &c->binning.delta_r);
  case O_MASS_BINS:
    return parse_bins(at, v, &c->binning.mass_gev);
  case O_UNWEIGHTED_EVENTS:
    ok = parse_count(at, v, 0, 1e12, &x);
    c->unweighted_events = (uint64_t)x;
    return ok;
  case O_MAX_UNWEIGHTING_TRIES:
    ok = parse_count(at, v, 1, 1e18, &x);
    c->max_unweighting_tries = (uint64_t)x;
    return ok;
  case O_JSON:
    return copy_text(at, v, o->json, sizeof o->json);
  case O_YODA:
    return copy_text(at, v, o->yoda, sizeof o->yoda);
  case O_CSV:
    return copy_text(at, v, o->csv, sizeof o->csv);
  case O_LHE:
  case O_EVENT_FILE:
    return copy_text(at, v, o->lhe, sizeof o->lhe);
  case O_CHECKPOINT:
    return copy_text(at, v, o->checkpoint, sizeof o->checkpoint);
  case O_CHECKPOINT_EVERY:
    ok = parse_count(at, v, 0, 1e15, &x);
    o->checkpoint_every = (uint64_t)x;
    return ok;
  case O_RESUME:
    return copy_text(at, v, o->resume, sizeof o->resume);
  case O_COMPARE: {
    char message[1024];
    if (!copy_text(at, v, o->compare, sizeof o->compare)) return 0;
    if (hg_xsec_reference_read(v, &o->reference, message, sizeof message) != 0)
      return bad(at, v, message);
    return 1;
  }
  case O_KEEP_CHECKPOINT:
  case O_QUIET:
  case O_NO_VARIATION_WEIGHTS:
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0) {
      *(id == O_QUIET              ? &o->quiet
        : id == O_KEEP_CHECKPOINT ? &o->keep_checkpoint
                                  : &o->no_variation_weights) = strcmp(v, "true") == 0;
      return 1;
    }
    return bad(at, v, "use true or false");
  case O_COUNT:
    break;
  }
  return 0;
}

static int find(const char *name) {
  for (int i = 0; i < O_COUNT; ++i)
    if (strcmp(options[i].name, name) == 0) return i;
  return -1;
}

/* The edit distance between a and b (insertions, deletions, substitutions), at most 64 each. */
static size_t edit_distance(const char *a, const char *b) {
  size_t row[65];
  const size_t na = strlen(a), nb = strlen(b);
  if (na > 64 || nb > 64) return 65;
  for (size_t j = 0; j <= nb; ++j) row[j] = j;
  for (size_t i = 1; i <= na; ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; ++j) {
      const size_t above = row[j];
      const size_t substitute = diagonal + (a[i - 1] != b[j - 1]);
      const size_t best = above + 1 < row[j - 1] + 1 ? above + 1 : row[j - 1] + 1;
      row[j] = substitute < best ? substitute : best;
      diagonal = above;
    }
  }
  return row[nb];
}

/* " (did you mean <prefix>pt-min?)" for the option nearest an unknown name, or "". */
static const char *suggestion(const char *name, const char *prefix, char *buf, size_t size) {
  int best = -1;
  size_t best_distance = 3; /* two edits at most: ptmin, pt_min, pt-mim */
  for (int i = 0; i < O_COUNT; ++i) {
    const size_t d = edit_distance(name, options[i].name);
    if (d < best_distance) {
      best = i;
      best_distance = d;
    }
  }
  if (best < 0) return "";
  snprintf(buf, size, " (did you mean %s%s?)", prefix, options[best].name);
  return buf;
}

/* Applies a run card's entries; where names the card in messages. */
static int apply_entries(hg_xsec_options *o, const hg_run_card *card, const char *where) {
  int rc = 0;
  for (size_t i = 0; i < card->count && rc == 0; ++i) {
    const hg_card_entry *e = &card->entries[i];
    const int id = find(e->key);
    origin at;
    snprintf(at.text, sizeof at.text, "%s:%d:%d: %s", where, e->line, e->column, e->key);
    if (id < 0 || id == O_CARD || id == O_RESUME) {
      char maybe[96];
      report(
              "hegetcl: error: %s:%d:%d: unknown key '%s'%s (the keys are the long options of "
              "`hegetcl xsec --help` without the dashes)\n",
              where, e->line, e->column, e->key,
              id == O_CARD     ? ": a card cannot name another card"
              : id == O_RESUME ? ": resuming is no setting of a run; give --resume FILE on the "
                                 "command line"
                               : suggestion(e->key, "", maybe, sizeof maybe));
      rc = 2;
    } else if (!apply(o, (option_id)id, e->value, &at)) {
      rc = 2;
    }
  }
  return rc;
}

static int apply_card(hg_xsec_options *o) {
  hg_run_card card;
  char message[2048];
  if (hg_run_card_read(o->card, &card, message, sizeof message) != 0) {
    report("hegetcl: error: %s\n", message);
    return 2;
  }
  const int rc = apply_entries(o, &card, o->card);
  hg_run_card_free(&card);
  return rc;
}

/* A run's outputs are named relative to the folder it started in, where its checkpoint is: a
 * resume from another folder would write its events there and leave the first folder's lock and
 * event stream behind. Refused (2), naming the folder to run from, when the checkpoint's folder
 * is not the current one and some output is a relative path. */
static int check_resume_folder(const hg_xsec_options *o) {
  const char *slash = strrchr(o->resume, '/');
  if (slash == NULL) return 0;
  char folder[HG_CLI_PATH];
  snprintf(folder, sizeof folder, "%.*s", slash == o->resume ? 1 : (int)(slash - o->resume),
           o->resume);
  struct stat here, there;
  if (stat(".", &here) != 0 || stat(folder, &there) != 0 ||
      (here.st_dev == there.st_dev && here.st_ino == there.st_ino))
    return 0;
  const char *const names[] = {"--lhe", "--json", "--yoda", "--csv", "--checkpoint"};
  const char *const paths[] = {o->lhe, o->json, o->yoda, o->csv, o->checkpoint};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; ++i) {
    const char *path = paths[i];
    if (path[0] == '\0' || path[0] == '/' || (i == 4 && strcmp(path, "none") == 0)) continue;
    report("hegetcl: error: --resume %s: the run started in %s, where its checkpoint is, and "
           "names its outputs relative to that folder (%s %s); resuming here would write them "
           "in this folder and leave the started run's lock and event stream behind: run "
           "`cd %s && hegetcl xsec --resume %s` instead\n",
           o->resume, folder, names[i], path, folder, slash + 1);
    return 2;
  }
  return 0;
}

/* --checkpoint-every: unset, one batch; else 0 or at least the batch. The unweighting writes a
 * batch's kept events together and saves its state between batches (a checkpoint inside a batch
 * could not say where to go on), and one batch of --batch tries can write up to --batch events:
 * a smaller N could not be kept. A resumed run keeps its checkpoint's value. */
static int check_checkpoint_every(hg_xsec_options *o) {
  const uint64_t batch = o->config.vegas.batch_size;
  if (o->checkpoint_every == UINT64_MAX) {
    o->checkpoint_every = batch;
    return 1;
  }
  if (o->resuming || o->checkpoint_every == 0 || o->checkpoint_every >= batch) return 1;
  report("hegetcl: error: --checkpoint-every %llu: below one batch (--batch %llu): the "
         "unweighting saves its checkpoint between batches, and one batch can write up to %llu "
         "events, so checkpoints cannot be closer; give at least %llu, a smaller --batch, or 0 "
         "(a checkpoint only when the run stops)\n",
         (unsigned long long)o->checkpoint_every, (unsigned long long)batch,
         (unsigned long long)batch, (unsigned long long)batch);
  return 0;
}

/* --resume FILE: the checkpoint read, refused when the run finished, and its run card applied. */
static int apply_checkpoint(hg_xsec_options *o) {
  char message[2048];
  hegetcl_xsec_checkpoint_info *info = &o->resumed;
  if (hegetcl_xsec_checkpoint_read(o->resume, info, message, sizeof message) != HEGETCL_OK) {
    report("hegetcl: error: --resume: %s\n", message);
    return 2;
  }
  o->resuming = 1;
  if (info->phase == HEGETCL_XSEC_FINISHED) {
    char events[96] = "";
    if (info->events_written > 0)
      snprintf(events, sizeof events, ", %llu unweighted events written",
               (unsigned long long)info->events_written);
    report(
            "hegetcl: error: --resume %s: the run finished (sigma = %.6e +- %.2e fb after %u VEGAS "
            "iterations%s): there is nothing to resume\n",
            o->resume, info->sigma_fb, info->error_fb, info->iterations, events);
    return 2;
  }
  if (info->run_card[0] == '\0') {
    report(
            "hegetcl: error: --resume %s: the checkpoint holds no run card: it was not written by "
            "`hegetcl xsec`\n",
            o->resume);
    return 2;
  }
  hg_run_card card;
  char where[HG_CLI_PATH + 32];
  snprintf(where, sizeof where, "%s (its run card)", o->resume);
  if (hg_run_card_parse(info->run_card, strlen(info->run_card), where, &card, message,
                        sizeof message) != 0) {
    report("hegetcl: error: --resume: %s\n", message);
    return 2;
  }
  int rc = apply_entries(o, &card, where);
  hg_run_card_free(&card);
  if (rc == 0) rc = check_resume_folder(o);
  return rc;
}

/* "key: value" of a card line, split in place; NULL key for comments and blank lines. */
static const char *card_key(char *line, char **value) {
  if (line[0] == '#' || line[0] == '\0') return NULL;
  char *colon = strstr(line, ": ");
  if (colon == NULL) return NULL;
  *colon = '\0';
  *value = colon + 2;
  return line;
}

/* The settings of a resumed run are those of its checkpoint: the first that differs is named. */
static int check_resumed_card(const hg_xsec_options *o) {
  char *mine = hg_xsec_options_card_text(o), *theirs = malloc(strlen(o->resumed.run_card) + 1);
  if (mine == NULL || theirs == NULL) {
    free(mine);
    free(theirs);
    report("hegetcl: error: no memory for the run card\n");
    return 2;
  }
  strcpy(theirs, o->resumed.run_card);
  int rc = 0;
  /* both cards are written by hg_xsec_options_write_card: one key per line, in one order */
  for (int pass = 0; pass < 2 && rc == 0; ++pass) {
    char *a = pass == 0 ? theirs : mine, *b_text = pass == 0 ? mine : theirs;
    for (char *line = a; line != NULL && *line != '\0' && rc == 0;) {
      char *next = strchr(line, '\n');
      if (next != NULL) *next = '\0';
      char *value = NULL;
      const char *key = card_key(line, &value);
      if (key != NULL && strcmp(key, "device") != 0 && strcmp(key, "quiet") != 0 &&
          strcmp(key, "keep-checkpoint") != 0 && strcmp(key, "compare") != 0) {
        /* the same key in the other card */
        const char *other = NULL;
        const size_t key_length = strlen(key);
        for (const char *p = b_text; p != NULL && *p != '\0';) {
          if (strncmp(p, key, key_length) == 0 && p[key_length] == ':' &&
              p[key_length + 1] == ' ') {
            other = p + key_length + 2;
            break;
          }
          p = strchr(p, '\n');
          if (p != NULL) ++p;
        }
        const size_t other_length = other ? strcspn(other, "\n") : 0;
        if (other == NULL || strlen(value) != other_length ||
            strncmp(value, other, other_length) != 0) {
          char theirs_text[HG_CLI_PATH + 64], mine_text[HG_CLI_PATH + 64];
          const char *t = pass == 0 ? value : other, *m = pass == 0 ? other : value;
          const size_t t_length = pass == 0 ? strlen(value) : other_length;
          const size_t m_length = pass == 0 ? other_length : strlen(value);
          if (t != NULL)
            snprintf(theirs_text, sizeof theirs_text, "has %s: %.*s", key, (int)t_length, t);
          else
            snprintf(theirs_text, sizeof theirs_text, "has no %s", key);
          if (m != NULL)
            snprintf(mine_text, sizeof mine_text, "this command gives %s: %.*s", key, (int)m_length,
                     m);
          else
            snprintf(mine_text, sizeof mine_text, "this command gives no %s", key);
          report(
                  "hegetcl: error: --resume %s: the checkpoint's run %s, %s: a resumed run keeps "
                  "the settings it started with (leave the flag out: --resume takes them all from "
                  "the checkpoint; only --device, --quiet and --keep-checkpoint may change)\n",
                  o->resume, theirs_text, mine_text);
          rc = 2;
        }
      }
      if (value != NULL) value[-2] = ':';
      if (next != NULL) *next = '\n';
      line = next != NULL ? next + 1 : NULL;
    }
  }
  free(mine);
  free(theirs);
  return rc;
}

/* An output's folder must exist and be writable before the run starts, not after it (the file is
 * written as FILE.tmp beside it, then renamed). */
static int output_folder_ok(const char *flag, const char *path) {
  if (path[0] == '\0') return 1;
  char folder[HG_CLI_PATH];
  const char *slash = strrchr(path, '/');
  if (slash == NULL)
    snprintf(folder, sizeof folder, ".");
  else if (slash == path)
    snprintf(folder, sizeof folder, "/");
  else
    snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
  struct stat st;
  const char *why = NULL;
  if (stat(folder, &st) != 0)
    why = "does not exist; create it or give another path";
  else if (!S_ISDIR(st.st_mode))
    why = "is not a folder; give another path";
  else if (access(folder, W_OK | X_OK) != 0)
    why = "cannot be written to; give another path";
  if (why == NULL) return 1;
  report("hegetcl: error: %s %s: the folder %s %s\n", flag, path, folder, why);
  return 0;
}

/* Checks between options, once all are known: iteration counts, output folders. */
static int check_together(const hg_xsec_options *o) {
  const hegetcl_vegas_settings *v = &o->config.vegas;
  if (v->min_iterations > v->max_iterations) {
    report(
            "hegetcl: error: min-iterations %u is above max-iterations %u: give "
            "--max-iterations %u or more, or fewer --min-iterations\n",
            v->min_iterations, v->max_iterations, v->min_iterations);
    return 0;
  }
  const unsigned n = o->config.process.n_photons;
  if (o->config.phase_space == HEGETCL_PHASE_SPACE_RAMBO && n > HEGETCL_RAMBO_MAX_PHOTONS) {
    report("hegetcl: error: --phase-space rambo with --n %u: RAMBO's quoted error is no honest "
           "error beyond %d photons (its points seldom reach the cuts' soft and collinear edges, "
           "which carry most of sigma: 20 seeds scatter 2 to 4000 times their errors); use "
           "--phase-space multichannel (or collider)\n",
           n, HEGETCL_RAMBO_MAX_PHOTONS);
    return 0;
  }
  if (o->config.helicity != HEGETCL_HELICITY_SUMMED && n > HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS) {
    report("hegetcl: error: --helicity %s with --n %u: one helicity configuration per event gives "
           "no honest error beyond %d photons (10^8 events came out 12%% to 4.7 times low with "
           "1-4%% errors at n = 10..12); use --helicity summed (the work-group-shared sum runs to "
           "n = 12)\n",
           hegetcl_helicity_mode_name(o->config.helicity), n, HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS);
    return 0;
  }
  const char *flags[] = {"--json", "--yoda", "--csv", "--lhe", "--checkpoint"};
  const char *paths[] = {o->json, o->yoda, o->csv, o->lhe,
                         strcmp(o->checkpoint, "none") == 0 ? "" : o->checkpoint};
  for (int i = 0; i < 5; ++i)
    if (!output_folder_ok(flags[i], paths[i])) return 0;
  return 1;
}

void hg_xsec_options_free(hg_xsec_options *o) { hegetcl_xsec_checkpoint_info_free(&o->resumed); }

int hg_xsec_options_parse(int argc, char **argv, hg_xsec_options *o) {
  memset(o, 0, sizeof *o);
  hegetcl_xsec_defaults(&o->config, 0);
  /* HEGETCL_DEVICE is the default device (docs/user-guide.md); --device or the card override it */
  const char *device = getenv("HEGETCL_DEVICE");
  if (device == NULL || device[0] == '\0') device = "auto";
  if (strlen(device) >= sizeof o->device) {
    report("hegetcl: error: HEGETCL_DEVICE is %zu characters long: give at most %zu\n",
            strlen(device), sizeof o->device - 1);
    return 2;
  }
  snprintf(o->device, sizeof o->device, "%s", device);
  o->checkpoint_every = UINT64_MAX; /* unset: one batch (check_checkpoint_every) */
  o->scale_variations = -1;
  o->pdf_variations = -1;
  /* a resumed run's settings, or the card, first, whatever its place among the flags */
  for (int i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0) {
      hg_cli_xsec_usage(stdout);
      return 1;
    }
    if (strcmp(argv[i], "--resume") == 0) {
      if (i + 1 >= argc) {
        report("hegetcl: error: --resume needs a checkpoint file\n");
        return 2;
      }
      const origin at = {"--resume"};
      if (!apply(o, O_RESUME, argv[i + 1], &at)) return 2;
    }
  }
  for (int i = 0; i < argc && o->resume[0] != '\0'; ++i)
    if (strcmp(argv[i], "--card") == 0) {
      report("hegetcl: error: --card with --resume: a resumed run's settings are those "
                      "in its checkpoint (leave --card out)\n");
      return 2;
    }
  if (o->resume[0] != '\0') {
    const int rc = apply_checkpoint(o);
    if (rc != 0) return rc;
  }
  for (int i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "--card") == 0) {
      if (i + 1 >= argc) {
        report("hegetcl: error: --card needs a file\n");
        return 2;
      }
      const origin at = {"--card"};
      if (!apply(o, O_CARD, argv[i + 1], &at)) return 2;
      const int rc = apply_card(o);
      if (rc != 0) return rc;
    }
  }
  for (int i = 0; i < argc; ++i) {
    const char *opt = argv[i];
    const int id = strncmp(opt, "--", 2) == 0 ? find(opt + 2) : -1;
    if (id < 0) {
      char maybe[96] = "";
      if (opt[0] == '-') suggestion(opt + (opt[1] == '-' ? 2 : 1), "--", maybe, sizeof maybe);
      report("hegetcl: error: unknown option %s%s (hegetcl xsec --help lists them)\n",
              opt, maybe);
      return 2;
    }
    if (id == O_QUIET || id == O_KEEP_CHECKPOINT || id == O_NO_VARIATION_WEIGHTS) {
      /* flags without a value */
      *(id == O_QUIET              ? &o->quiet
        : id == O_KEEP_CHECKPOINT ? &o->keep_checkpoint
                                  : &o->no_variation_weights) = 1;
      continue;
    }
    if (i + 1 >= argc) {
      report("hegetcl: error: %s needs a value (hegetcl xsec --help lists options)\n",
              opt);
      return 2;
    }
    const char *value = argv[++i];
    if (id == O_CARD || id == O_RESUME) continue;
    origin at;
    snprintf(at.text, sizeof at.text, "%s", opt);
    if (!apply(o, (option_id)id, value, &at)) return 2;
  }
  if (!o->have_n) {
    report("hegetcl: error: xsec needs --n N (or n: N in the run card), the number of photons "
           "(2..%d), or --process TEXT (process: in the card), e.g. --process \"p p > t t~\"\n",
            HEGETCL_MAX_XSEC_PHOTONS);
    return 2;
  }
  if ((o->config.unweighted_events > 0) != (o->lhe[0] != '\0')) {
    report("hegetcl: error: %s: unweighted events are written to an event file; "
                    "give both --unweighted-events N and --lhe FILE (or --event-file FILE)\n",
            o->lhe[0] ? "--lhe without --unweighted-events" : "--unweighted-events without --lhe");
    return 2;
  }
  if (!check_together(o) || !check_checkpoint_every(o)) return 2;
  if (o->compare[0] != '\0') {
    char message[1024];
    if (hg_xsec_reference_check(&o->reference,
                                o->config.beams == HEGETCL_BEAMS_PPBAR ? -2212 : 2212,
                                o->config.sqrt_s_gev, message, sizeof message) != 0) {
      report("hegetcl: error: %s\n", message);
      return 2;
    }
  }
  /* variation weights: on by default when events are written (the nominal weights and the
   * events do not change: the variations are computed beside them) */
  const int by_default = o->lhe[0] != '\0' && !o->no_variation_weights;
  o->config.scale_variations =
      o->no_variation_weights ? 0 : o->scale_variations >= 0 ? o->scale_variations : 7 * by_default;
  o->config.pdf_variations =
      o->no_variation_weights ? 0 : o->pdf_variations >= 0 ? o->pdf_variations : by_default;
  if (o->no_variation_weights) o->config.alt_pdf_sets[0] = '\0';
  /* auto names its map from here on: the header, JSON, written card and checkpoint say which
   * (a process run keeps it: auto is its multichannel map, generator/run.c) */
  if (o->config.process_text[0] == '\0')
    o->config.phase_space =
        hegetcl_phase_space_for(o->config.phase_space, o->config.process.n_photons);
  o->config.histograms = o->yoda[0] != '\0' || o->csv[0] != '\0';
  if (o->resuming) return check_resumed_card(o);
  return 0;
}

static void write_entry(FILE *out, option_id id, const char *value) {
  fprintf(out, "%s: ", options[id].name);
  hg_yaml_write_scalar(out, value);
  fputc('\n', out);
}

/* The shortest of %.15g .. %.17g that reads back as value. */
static void write_number(FILE *out, option_id id, double value) {
  char text[64];
  for (int digits = 15; digits <= 17; ++digits) {
    snprintf(text, sizeof text, "%.*g", digits, value);
    if (strtod(text, NULL) == value) break;
  }
  write_entry(out, id, text);
}

static void write_bins(FILE *out, option_id id, const hegetcl_bins *b) {
  char text[128];
  snprintf(text, sizeof text, "%u:%.15g:%.15g", b->bins, b->lo, b->hi);
  char check[128];
  snprintf(check, sizeof check, "%u:%.17g:%.17g", b->bins, b->lo, b->hi);
  if (strtod(strchr(text, ':') + 1, NULL) != b->lo || strtod(strrchr(text, ':') + 1, NULL) != b->hi)
    snprintf(text, sizeof text, "%s", check);
  write_entry(out, id, text);
}

void hg_xsec_options_write_card(FILE *out, const hg_xsec_options *o) {
  const hegetcl_xsec_config *c = &o->config;
  fprintf(out, "# hegetcl xsec run card: `hegetcl xsec --card FILE` repeats this run\n");
  if (c->process_text[0] != '\0') {
    write_entry(out, O_PROCESS, c->process_text);
    write_entry(out, O_BEAMS, c->beams == HEGETCL_BEAMS_PP ? "p-p" : "p-pbar");
    write_entry(out, O_MAXJETFLAVOR, c->five_flavour ? "5" : "4");
    write_entry(out, O_ALPHA_S_RUNNING,
                c->alpha_s_running == HEGETCL_ALPHA_S_PDF ? "pdf" : "madgraph");
    if (c->group_engine >= 0)
      write_entry(out, O_GROUP_ENGINE, hegetcl_engine_name((hegetcl_engine)c->group_engine));
    write_number(out, O_MU_R_FACTOR, c->mu_r_factor);
    write_number(out, O_MU_F_FACTOR, c->mu_f_factor);
    for (int k = 0; k < HG_CUT_COUNT; ++k)
      if (hg_mg_cut_is_on(k, c->cuts[k]))
        write_number(out, (option_id)(O_CUT_FIRST + k), c->cuts[k]);
  } else {
    write_number(out, O_N, c->process.n_photons);
  }
  if (o->scale_variations >= 0)
    write_entry(out, O_SCALE_VARIATIONS, o->scale_variations == 9   ? "9"
                                         : o->scale_variations == 7 ? "7"
                                                                    : "off");
  if (o->pdf_variations >= 0) write_entry(out, O_PDF_VARIATIONS, o->pdf_variations ? "on" : "off");
  if (c->alt_pdf_sets[0] != '\0') write_entry(out, O_ALT_PDF, c->alt_pdf_sets);
  write_entry(out, O_ORIENTATION, hegetcl_orientation_name(c->orientation));
  if (c->flavours != 0) {
    char flavours[32];
    hegetcl_flavours_name(c->flavours, flavours, sizeof flavours);
    write_entry(out, O_FLAVOURS, flavours);
  }
  write_entry(out, O_ENGINE, hegetcl_engine_name(c->process.engine));
  write_entry(out, O_PRECISION, hegetcl_precision_name(c->process.precision));
  write_entry(out, O_HELICITY, hegetcl_helicity_mode_name(c->helicity));
  write_entry(out, O_PHASE_SPACE, hegetcl_phase_space_name(c->phase_space));
  write_entry(out, O_DEVICE, o->device);
  char seed[32];
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->vegas.seed);
  write_entry(out, O_SEED, seed);
  write_number(out, O_TARGET_ERROR, c->vegas.target_rel_error);
  write_number(out, O_MAX_EVENTS, (double)c->vegas.max_events);
  write_number(out, O_EVENTS, (double)c->vegas.events_per_iteration);
  write_number(out, O_MIN_ITERATIONS, c->vegas.min_iterations);
  write_number(out, O_MAX_ITERATIONS, c->vegas.max_iterations);
  write_number(out, O_ADAPT_ITERATIONS, c->vegas.adapt_iterations);
  write_number(out, O_ADAPT_EVENTS, (double)c->vegas.adapt_events);
  write_number(out, O_VEGAS_BINS, c->vegas.bins);
  write_number(out, O_VEGAS_ALPHA, c->vegas.alpha);
  write_entry(out, O_ITERATION_EVENTS, c->vegas.fixed_iteration_events ? "fixed" : "auto");
  write_number(out, O_BATCH, (double)c->vegas.batch_size);
  write_number(out, O_SQRT_S, c->sqrt_s_gev);
  write_number(out, O_SCALE, c->mu_f_gev);
  /* after scale, which fixes the scales when read */
  if (c->process_text[0] != '\0' && c->dynamical_scale_choice != 0)
    write_number(out, O_DYNAMICAL_SCALE_CHOICE, c->dynamical_scale_choice);
  write_number(out, O_PT_MIN, c->pt_min_gev);
  write_number(out, O_ETA_MAX, c->eta_max);
  write_number(out, O_DR_MIN, c->delta_r_min);
  write_entry(out, O_PDF, c->pdf_set);
  write_number(out, O_PDF_MEMBER, c->pdf_member);
  write_number(out, O_ALPHA, c->process.alpha);
  write_number(out, O_CHARGE, c->process.quark_charge);
  write_bins(out, O_PT_BINS, &c->binning.pt_gev);
  write_bins(out, O_ETA_BINS, &c->binning.eta);
  write_bins(out, O_DR_BINS, &c->binning.delta_r);
  write_bins(out, O_MASS_BINS, &c->binning.mass_gev);
  write_number(out, O_UNWEIGHTED_EVENTS, (double)c->unweighted_events);
  write_number(out, O_MAX_UNWEIGHTING_TRIES, (double)c->max_unweighting_tries);
  const option_id paths[] = {O_JSON, O_YODA, O_CSV, O_LHE, O_CHECKPOINT};
  const char *values[] = {o->json, o->yoda, o->csv, o->lhe, o->checkpoint};
  for (int i = 0; i < 5; ++i)
    if (values[i][0]) write_entry(out, paths[i], values[i]);
  write_number(out, O_CHECKPOINT_EVERY, (double)o->checkpoint_every);
  /* written only when set: the cards of runs from before the option read the same */
  if (o->keep_checkpoint) fprintf(out, "%s: true\n", options[O_KEEP_CHECKPOINT].name);
  if (o->no_variation_weights)
    fprintf(out, "%s: true\n", options[O_NO_VARIATION_WEIGHTS].name);
  fprintf(out, "%s: %s\n", options[O_QUIET].name, o->quiet ? "true" : "false");
  if (o->compare[0] != '\0') write_entry(out, O_COMPARE, o->compare);
}

char *hg_xsec_options_card_text(const hg_xsec_options *o) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (f == NULL) return NULL;
  hg_xsec_options_write_card(f, o);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

int hg_xsec_options_parse_into(int argc, char **argv, hg_xsec_options *o, char *message,
                               size_t message_size) {
  if (message_size > 0) message[0] = '\0';
  captured = message;
  captured_size = message_size;
  captured_any = 0;
  const int rc = hg_xsec_options_parse(argc, argv, o);
  captured = NULL;
  captured_size = 0;
  return rc;
}
