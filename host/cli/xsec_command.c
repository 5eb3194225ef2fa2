/* SPDX-License-Identifier: MIT */
/* `hegetcl xsec`: per-iteration progress, the result line, the outputs (JSON record, YODA and
 * CSV histograms, Les Houches events), each carrying the run card, and long runs: checkpoints,
 * stopping on SIGINT or SIGTERM, resuming (docs/user-guide.md, "Long runs"). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/device_set.h"
#include "cli/process_report.h"
#include "cli/progress_bar.h"
#include "cli/xsec_options.h"
#include "commit.h"
#include "hegetcl/hegetcl.h"
#include "hegetcl/xsec.h"
#include "io/event_sink.h"
#include "io/histogram_writer.h"
#include "io/json_writer.h"
#include "io/lhe_events.h"
#include "io/lhe_merge.h"
#include "io/lhe_partial.h"
#include "io/lhef_writer.h"
#include "io/output_claim.h"
#include "io/output_file.h"

typedef struct {
  int quiet;
  hegetcl_vegas_iteration *its;
  size_t n_its, cap_its;
  hg_progress_bar bar;
  const hegetcl_xsec_config *config;
  uint64_t interrupt_iterations, interrupt_events; /* HEGETCL_TEST_INTERRUPT_AFTER (0: none) */
  uint64_t heard; /* iterations heard, restored ones too (a process run's over its groups) */
  int interrupt_signal;
  const hg_device_set *devices; /* the run's devices in this process */
  const hegetcl_team *team;     /* NULL: one process */
} progress_state;

/* The signal that asked the run to stop (0: none). The handler only sets it; the library looks at
 * it between batches. It is reset to the default action on delivery (SA_RESETHAND): a second
 * signal ends the process at once, leaving the latest checkpoint and the temporary event file. */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop_signal(int signo) {
  stop_signal = signo;
  static const char text[] = "\nhegetcl: stopping after this batch to save the checkpoint (a "
                             "second signal stops at once)\n";
  const ssize_t written = write(STDERR_FILENO, text, sizeof text - 1);
  (void)written;
}

static void catch_stop_signals(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART; /* no EINTR in the outputs' writes */
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
}

/* For tests: HEGETCL_TEST_INTERRUPT_AFTER=iterations:K raises SIGINT once K VEGAS iterations
 * (adapting ones included) are done, =events:N once N unweighted events are written, so that the
 * run stops at a point that does not depend on timing; a third field :TERM or :KILL raises that
 * signal instead (KILL: as a run killed outright). */
static int read_test_interrupt(progress_state *p) {
  const char *text = getenv("HEGETCL_TEST_INTERRUPT_AFTER");
  if (text == NULL || text[0] == '\0') return 0;
  unsigned long long k = 0;
  char what[16], name[8] = "INT";
  int consumed = 0;
  const int fields =
      sscanf(text, "%15[a-z]:%llu%n:%7[A-Z]%n", what, &k, &consumed, name, &consumed);
  const int signo = strcmp(name, "INT") == 0    ? SIGINT
                    : strcmp(name, "TERM") == 0 ? SIGTERM
                    : strcmp(name, "KILL") == 0 ? SIGKILL
                                                : 0;
  if (fields >= 2 && text[consumed] == '\0' && k > 0 && signo != 0) {
    p->interrupt_signal = signo;
    if (strcmp(what, "iterations") == 0) {
      p->interrupt_iterations = k;
      return 0;
    }
    if (strcmp(what, "events") == 0) {
      p->interrupt_events = k;
      return 0;
    }
  }
  fprintf(stderr,
          "hegetcl: error: HEGETCL_TEST_INTERRUPT_AFTER=%s: must be iterations:K or events:N with "
          "K, N > 0, optionally followed by :INT, :TERM or :KILL\n",
          text);
  return 2;
}

static void raise_once(int signo) {
  static int raised = 0;
  if (!raised) raise(signo);
  raised = 1;
}

/* Events the integration will take, as far as one can tell: the budget, or fewer where the
 * error so far scaled to the target says so. */
static double expected_events(const hegetcl_vegas_iteration *it, const hegetcl_xsec_config *c,
                              double done) {
  const hegetcl_vegas_settings *v = &c->vegas;
  double budget =
      fmin((double)v->max_events, (double)v->max_iterations * (double)v->events_per_iteration);
  /* a combined iteration's size (a loose target makes them smaller than --events) */
  const double per_iteration = it->adapting ? (double)v->events_per_iteration : (double)it->events;
  const double least = (double)v->min_iterations * per_iteration;
  if (!it->adapting && v->target_rel_error > 0 && it->combined != 0.0) {
    const double ratio = it->combined_error / fabs(it->combined) / v->target_rel_error;
    budget = fmin(budget, fmax(least, done * ratio * ratio));
  }
  return fmax(budget, done);
}

static void on_iteration(const hegetcl_vegas_iteration *it, void *user) {
  progress_state *p = user;
  if (p->n_its == p->cap_its) {
    const size_t cap = p->cap_its ? 2 * p->cap_its : 32;
    hegetcl_vegas_iteration *grown = realloc(p->its, cap * sizeof *grown);
    if (grown != NULL) {
      p->its = grown;
      p->cap_its = cap;
    }
  }
  if (p->n_its < p->cap_its) p->its[p->n_its++] = *it;
  ++p->heard;
  if (!it->restored && p->interrupt_iterations > 0 && p->heard >= p->interrupt_iterations)
    raise_once(p->interrupt_signal);
  if (p->quiet) return;
  hg_progress_bar_finish(&p->bar);
  const double passed = 100.0 * (double)it->events_nonzero / (double)it->events;
  const char *from = it->restored ? "  (checkpoint)" : "";
  if (it->adapting)
    printf("iteration %3u  adapting   %9llu events (%5.1f%% in cuts)  %.5e +- %.2e fb  %6.2f s%s\n",
           it->index, (unsigned long long)it->events, passed, it->estimate, it->error, it->seconds,
           from);
  else
    printf("iteration %3u  %9llu events (%5.1f%% in cuts)  %.5e +- %.2e fb   combined %.6e +- "
           "%.2e fb (%.3f%%)  chi2/dof %.2f  %6.2f s%s\n",
           it->index, (unsigned long long)it->events, passed, it->estimate, it->error, it->combined,
           it->combined_error, 100.0 * it->combined_error / fabs(it->combined), it->chi2_per_dof,
           it->seconds, from);
  fflush(stdout);
  double done = 0.0, all = 0.0;
  for (size_t i = 0; i < p->n_its; ++i) {
    all += (double)p->its[i].events;
    done += p->its[i].adapting ? 0.0 : (double)p->its[i].events;
  }
  hg_progress_bar_update(&p->bar, done, expected_events(it, p->config, done), all, "events");
}

static void on_events(uint64_t written, uint64_t requested, uint64_t tried, void *user) {
  progress_state *p = user;
  if (p->interrupt_events > 0 && written >= p->interrupt_events && written < requested)
    raise_once(p->interrupt_signal);
  hg_progress_bar_update(&p->bar, (double)written, (double)requested, (double)tried,
                         "weighted events");
}

static void write_json(FILE *f, const hegetcl_xsec_config *c, const hegetcl_device_info *info,
                       const hegetcl_xsec_result *r, const progress_state *p, const char *card,
                       const hg_xsec_reference *ref) {
  hg_json j;
  hg_json_begin(&j, f);
  hg_json_object(&j, NULL);
  hg_json_string(&j, "program", "hegetcl xsec");
  hg_json_string(&j, "commit", HG_COMMIT);
  hg_json_string(&j, "run_card", card);
  if (c->process_text[0] != '\0') {
    hg_cli_process_json(&j, c, r, info);
    if (ref != NULL) hg_cli_reference_json(&j, ref, r->vegas.estimate, r->vegas.error);
    hg_json_end_object(&j);
    return;
  }
  hg_json_object(&j, "process");
  char text[128], flavours[32];
  hegetcl_flavours_name(c->flavours, flavours, sizeof flavours);
  if (c->flavours != 0)
    snprintf(text, sizeof text, "p p -> %u a (q qbar, q = %s)", c->process.n_photons, flavours);
  else
    snprintf(text, sizeof text, "p p -> %u a (q qbar, q = PDG %d)", c->process.n_photons,
             c->quark_pid);
  hg_json_string(&j, "name", text);
  hg_json_uint(&j, "n_photons", c->process.n_photons);
  if (c->flavours != 0)
    hg_json_string(&j, "flavours", flavours);
  else
    hg_json_int(&j, "quark_pid", c->quark_pid);
  hg_json_string(&j, "orientation", hegetcl_orientation_name(c->orientation));
  hg_json_string(&j, "orientation_meaning",
                 c->orientation == HEGETCL_ORIENTATION_BOTH
                     ? "the quark from either proton (p p cross section)"
                     : "the quark from proton 1 and the antiquark from proton 2 only");
  hg_json_number(&j, "alpha", c->process.alpha);
  if (c->flavours == 0) hg_json_number(&j, "quark_charge", c->process.quark_charge);
  hg_json_end_object(&j);
  hg_json_object(&j, "setup");
  hg_json_number(&j, "sqrt_s_gev", c->sqrt_s_gev);
  hg_json_number(&j, "mu_f_gev", c->mu_f_gev);
  hg_json_string(&j, "pdf_set", c->pdf_set);
  hg_json_int(&j, "pdf_member", c->pdf_member);
  hg_json_int(&j, "pdf_lhapdf_id", r->pdf_lhapdf_id);
  hg_json_string(&j, "pdf_path", r->pdf_path);
  hg_json_number(&j, "pt_min_gev", c->pt_min_gev);
  hg_json_number(&j, "eta_max", c->eta_max);
  hg_json_number(&j, "delta_r_min", c->delta_r_min);
  hg_json_end_object(&j);
  hg_json_object(&j, "method");
  hg_json_string(&j, "engine", hegetcl_engine_name(c->process.engine));
  hg_json_string(&j, "precision", hegetcl_precision_name(c->process.precision));
  hg_json_string(&j, "helicity", hegetcl_helicity_mode_name(c->helicity));
  hg_json_string(&j, "phase_space", hegetcl_phase_space_name(c->phase_space));
  hg_json_uint(&j, "seed", c->vegas.seed);
  hg_json_number(&j, "target_rel_error", c->vegas.target_rel_error);
  hg_json_uint(&j, "max_events", c->vegas.max_events);
  hg_json_uint(&j, "events_per_iteration", c->vegas.events_per_iteration);
  hg_json_uint(&j, "min_iterations", c->vegas.min_iterations);
  hg_json_uint(&j, "max_iterations", c->vegas.max_iterations);
  hg_json_uint(&j, "adapt_iterations", c->vegas.adapt_iterations);
  hg_json_uint(&j, "adapt_events", c->vegas.adapt_events);
  hg_json_uint(&j, "vegas_bins", c->vegas.bins);
  hg_json_number(&j, "vegas_alpha", c->vegas.alpha);
  hg_json_string(&j, "iteration_events", c->vegas.fixed_iteration_events ? "fixed" : "auto");
  hg_json_uint(&j, "batch_size", c->vegas.batch_size);
  hg_json_string(&j, "amplitude_build_options", r->amplitude_options);
  hg_json_string(&j, "sampler_build_options", r->sampler_options);
  hg_json_end_object(&j);
  hg_json_object(&j, "device");
  hg_json_string(&j, "name", info->name);
  hg_json_string(&j, "platform", info->platform);
  hg_json_string(&j, "version", info->device_version);
  hg_json_string(&j, "driver", info->driver_version);
  hg_json_string(&j, "opencl_c", info->opencl_c_version);
  hg_json_end_object(&j);
  /* every device of this process (the first is "device") and the processes sharing the run */
  hg_json_array(&j, "devices");
  for (unsigned k = 0; p->devices != NULL && k < p->devices->count; ++k) {
    hegetcl_device_info more;
    hegetcl_context_device(p->devices->contexts[k], &more);
    hg_json_object(&j, NULL);
    hg_json_string(&j, "name", more.name);
    hg_json_string(&j, "platform", more.platform);
    hg_json_uint(&j, "platform_index", more.platform_index);
    hg_json_uint(&j, "device_index", more.device_index);
    hg_json_end_object(&j);
  }
  hg_json_end_array(&j);
  hg_json_uint(&j, "processes", p->team != NULL ? (unsigned)p->team->size : 1);
  hg_json_array(&j, "iterations");
  for (size_t i = 0; i < p->n_its; ++i) {
    const hegetcl_vegas_iteration *it = &p->its[i];
    hg_json_object(&j, NULL);
    hg_json_uint(&j, "index", it->index);
    hg_json_bool(&j, "adapting", it->adapting);
    hg_json_uint(&j, "events", it->events);
    hg_json_uint(&j, "events_nonzero", it->events_nonzero);
    hg_json_number(&j, "sigma_fb", it->estimate);
    hg_json_number(&j, "error_fb", it->error);
    hg_json_number(&j, "seconds", it->seconds);
    hg_json_end_object(&j);
  }
  hg_json_end_array(&j);
  hg_json_object(&j, "result");
  hg_json_number(&j, "sigma_fb", r->vegas.estimate);
  hg_json_number(&j, "error_fb", r->vegas.error);
  hg_json_number(&j, "rel_error", r->vegas.error / fabs(r->vegas.estimate));
  hg_json_number(&j, "chi2_per_dof", r->vegas.chi2_per_dof);
  /* the chance of so large a chi^2 with honest errors; below HEGETCL_VEGAS_CHI2_SUSPECT the
   * error is not to be trusted (error_trustworthy false, the terminal says what to do) */
  const double chi2_p = hegetcl_vegas_chi2_probability(r->vegas.chi2_per_dof, r->vegas.iterations);
  hg_json_number(&j, "chi2_probability", chi2_p);
  hg_json_bool(&j, "error_trustworthy", chi2_p >= HEGETCL_VEGAS_CHI2_SUSPECT);
  hg_json_uint(&j, "iterations", r->vegas.iterations);
  hg_json_uint(&j, "events", r->vegas.events);
  hg_json_uint(&j, "events_including_adaptation", r->vegas.events_total);
  hg_json_uint(&j, "events_nonzero", r->vegas.events_nonzero);
  hg_json_bool(&j, "reached_target", r->vegas.reached_target);
  hg_json_number(&j, "integration_seconds", r->vegas.wall_seconds);
  hg_json_number(&j, "build_seconds", r->build_seconds);
  hg_json_number(&j, "max_weight_fb", r->vegas.max_weight);
  hg_cli_variations_json(&j, r);
  if (r->n_channels > 0) {
    /* from the same events as sigma, combined with its weights: they add up to sigma */
    hg_json_array(&j, "channels");
    for (unsigned k = 0; k < r->n_channels; ++k) {
      const hegetcl_xsec_channel *ch = &r->channels[k];
      hg_json_object(&j, NULL);
      hg_json_string(&j, "name", ch->name);
      hg_json_int(&j, "pid_1", ch->pid[0]);
      hg_json_int(&j, "pid_2", ch->pid[1]);
      hg_json_number(&j, "quark_charge", ch->charge);
      hg_json_number(&j, "sigma_fb", ch->sigma_fb);
      hg_json_number(&j, "error_fb", ch->error_fb);
      hg_json_end_object(&j);
    }
    hg_json_end_array(&j);
  }
  hg_json_end_object(&j);
  if (r->n_helicity_probabilities > 0 || r->n_channel_weights > 0) {
    /* what the adapting iterations learnt, fixed for the combined ones (CONVENTIONS.md,
     * "Adaptive sampling") */
    hg_json_object(&j, "adaptive_sampling");
    if (r->n_helicity_probabilities > 0) {
      hg_json_string(&j, "helicity_meaning",
                     "probability of photon configuration c (bit i: photon i has helicity +), "
                     "c = 1 .. 2^n - 2; the quark pair (-+ or +-) is drawn with 1/2 each");
      hg_json_array(&j, "helicity_probabilities");
      for (size_t c = 0; c < r->n_helicity_probabilities; ++c)
        hg_json_number(&j, NULL, r->helicity_probabilities[c]);
      hg_json_end_array(&j);
    }
    if (r->n_channel_weights > 0) {
      hg_json_string(&j, "channel_meaning", "weight of phase-space channel k: photon k balances");
      hg_json_array(&j, "channel_weights");
      for (unsigned k = 0; k < r->n_channel_weights; ++k)
        hg_json_number(&j, NULL, r->channel_weights[k]);
      hg_json_end_array(&j);
    }
    hg_json_end_object(&j);
  }
  if (r->float_checked > 0) {
    hg_json_object(&j, "float_check");
    hg_json_uint(&j, "events", r->float_checked);
    hg_json_number(&j, "max_rel_deviation", r->float_max_deviation);
    hg_json_number(&j, "mean_rel_deviation", r->float_mean_deviation);
    hg_json_number(&j, "sigma_rel_deviation", r->float_sigma_deviation);
    hg_json_end_object(&j);
  }
  if (c->unweighted_events > 0) {
    const hegetcl_unweighting_result *u = &r->unweighting;
    hg_json_object(&j, "unweighting");
    hg_json_uint(&j, "requested", u->requested);
    hg_json_uint(&j, "written", u->written);
    hg_json_uint(&j, "tried", u->tried);
    hg_json_number(&j, "efficiency", u->efficiency);
    hg_json_number(&j, "max_weight_fb", u->max_weight_fb);
    hg_json_uint(&j, "overweight_events", u->overweight);
    hg_json_number(&j, "overweight_sigma_fraction", u->overweight_sigma_fraction);
    hg_json_uint(&j, "negative_weights", u->negative);
    hg_json_number(&j, "sigma_from_the_pass_fb", u->sigma_check_fb);
    hg_json_number(&j, "seconds", u->seconds);
    hg_json_number(&j, "events_written_per_second", u->seconds > 0 ? u->written / u->seconds : 0);
    hg_json_end_object(&j);
  }
  if (ref != NULL) hg_cli_reference_json(&j, ref, r->vegas.estimate, r->vegas.error);
  hg_json_end_object(&j);
}

/* The JSON through io/output_file (a temporary name, renamed when complete). */
static int save_json(const char *path, const hegetcl_xsec_config *c,
                     const hegetcl_device_info *info, const hegetcl_xsec_result *r,
                     const progress_state *p, const char *card, const hg_xsec_reference *ref) {
  char *text = NULL, message[2048];
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (f == NULL) {
    fprintf(stderr, "hegetcl: error: no memory for the JSON record\n");
    return 1;
  }
  write_json(f, c, info, r, p, card, ref);
  hg_output *out = NULL;
  int failed = fclose(f) != 0 || text == NULL;
  if (failed)
    snprintf(message, sizeof message, "no memory for the JSON record");
  else
    failed = hg_output_open(path, hg_output_path_is_gzip(path), &out, message, sizeof message);
  if (!failed) {
    const int written = hg_output_write(out, text, size) == 0;
    if (!written) snprintf(message, sizeof message, "%s", hg_output_message(out));
    failed = hg_output_close(out, written, message, sizeof message) != 0 || !written;
  }
  free(text);
  if (failed) fprintf(stderr, "hegetcl: error: writing %s: %s\n", path, message);
  return failed ? 1 : 0;
}

/* The header of the histogram files: the run card, then what the run gave. */
static char *histogram_header(const char *card, const hegetcl_xsec_config *c,
                              const hegetcl_device_info *info, const hegetcl_xsec_result *r) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (f == NULL) return NULL;
  fprintf(f, "%s", card);
  char process[HEGETCL_PROCESS_TEXT_SIZE + 32];
  if (c->process_text[0] != '\0')
    snprintf(process, sizeof process, "%s", c->process_text);
  else
    snprintf(process, sizeof process, "p p -> %u a, %s", c->process.n_photons,
             hegetcl_orientation_name(c->orientation));
  fprintf(f,
          "# hegetcl %s (commit %s) on %s (%s; driver %s)\n"
          "# sigma(%s) = %.10e +- %.3e fb; sumw is sigma per bin in fb, sumw2 its\n"
          "# squared Monte Carlo error, from %u combined iterations, %llu events in all\n",
          HEGETCL_VERSION, HG_COMMIT, info->name, info->platform, info->driver_version, process,
          r->vegas.estimate, r->vegas.error, r->vegas.iterations,
          (unsigned long long)r->vegas.events);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* One histogram file (YODA or CSV) under a temporary name, renamed when complete. */
static int save_histograms(const char *path, int yoda, const hegetcl_xsec_result *r,
                           const char *header) {
  hg_output *out = NULL;
  char message[2048];
  if (hg_output_open(path, hg_output_path_is_gzip(path), &out, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl: error: %s\n", message);
    return 1;
  }
  /* each variation's histograms beside the nominal's, named by its weight (Rivet's multiweight
   * paths, /hegetcl/pt_1[MUR2.0_MUF1.0_PDF10042]) */
  const unsigned n_var =
      r->variation_histograms != NULL && r->variations != NULL ? r->variations->list.n : 0;
  static char names[HEGETCL_MAX_VARIATIONS][64];
  const char *weights[HEGETCL_MAX_VARIATIONS];
  for (unsigned k = 0; k < n_var; ++k) {
    hegetcl_variation_weight_name(&r->variations->list, k, names[k], sizeof names[k]);
    weights[k] = names[k];
  }
  const int failed =
      yoda ? hg_yoda_write_variations(out, "hegetcl", r->histograms, r->n_histograms, header,
                                      r->variation_histograms, weights, n_var)
           : hg_histogram_csv_write_variations(out, r->histograms, r->n_histograms, header,
                                               r->variation_histograms, weights, n_var);
  if (hg_output_close(out, !failed, message, sizeof message) != 0 || failed) {
    fprintf(stderr, "hegetcl: error: writing %s: %s\n", path, message);
    return 1;
  }
  return 0;
}

/* The YODA and CSV files the options ask for (1 when one failed). */
static int save_histogram_files(const hg_xsec_options *o, const char *card,
                                const hegetcl_xsec_config *c, const hegetcl_device_info *info,
                                const hegetcl_xsec_result *r) {
  if (!o->yoda[0] && !o->csv[0]) return 0;
  char *header = histogram_header(card, c, info, r);
  if (header == NULL) {
    fprintf(stderr, "hegetcl: error: no memory for the histogram header\n");
    return 1;
  }
  int rc = 0;
  if (o->yoda[0]) rc |= save_histograms(o->yoda, 1, r, header);
  if (o->csv[0]) rc |= save_histograms(o->csv, 0, r, header);
  free(header);
  return rc;
}

/* The checkpoint file: --resume's, none, --checkpoint's, or the first output's name + ".ckpt". */
static void checkpoint_path(const hg_xsec_options *o, const hegetcl_team *team,
                            int events_resumable, char *out, size_t size) {
  out[0] = '\0';
  const int shared = team != NULL && team->size > 1;
  if (o->resuming) {
    snprintf(out, size, "%s", o->resume);
  } else if (strcmp(o->checkpoint, "none") == 0) {
    return;
  } else if (o->checkpoint[0] != '\0') {
    snprintf(out, size, "%s", o->checkpoint);
  } else if (!shared && events_resumable) {
    /* several processes, or an event file that cannot continue after a stop (LHEH5): none
     * unless asked for (and then refused) */
    const char *outputs[] = {o->lhe, o->json, o->yoda, o->csv};
    for (int i = 0; i < 4; ++i)
      if (outputs[i][0] != '\0') {
        snprintf(out, size, "%s.ckpt", outputs[i]);
        return;
      }
  }
}

/* A fresh run does not replace the checkpoint of an unfinished one (nor another file). */
static int check_checkpoint_free(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 && errno == ENOENT) return 0;
  hegetcl_xsec_checkpoint_info info;
  char message[2048];
  const hegetcl_status status = hegetcl_xsec_checkpoint_read(path, &info, message, sizeof message);
  int rc = 0;
  if (status != HEGETCL_OK) {
    fprintf(stderr,
            "hegetcl: error: checkpoint %s: the file exists and is not a finished run's "
            "checkpoint (%s): remove it, or give another --checkpoint FILE (or none)\n",
            path, message);
    rc = 2;
  } else if (info.phase != HEGETCL_XSEC_FINISHED) {
    char events[96] = "";
    if (info.phase == HEGETCL_XSEC_UNWEIGHTING)
      snprintf(events, sizeof events, ", %llu unweighted events written",
               (unsigned long long)info.events_written);
    fprintf(stderr,
            "hegetcl: error: checkpoint %s holds an unfinished run (%s after %u VEGAS "
            "iterations%s): continue it with `hegetcl xsec --resume %s`, or remove the file (or "
            "give another --checkpoint FILE, or none) to start afresh\n",
            path, hegetcl_xsec_phase_name(info.phase), (unsigned)info.iterations, events, path);
    rc = 2;
  }
  hegetcl_xsec_checkpoint_info_free(&info);
  return rc;
}

/* Resuming in the unweighting: the stopped (or killed) run's event stream must be at hand, its
 * temporary file FILE.tmp.<pid>.<x> (or an older version's FILE.partial); *source names it. */
static int find_event_stream(const hg_xsec_options *o, const char *events_path, char **source) {
  char message[2048];
  const int status =
      hg_output_find_stream(events_path, o->resumed.events_state, source, message, sizeof message);
  if (status == 0) return 0;
  if (strncmp(message, "the stopped run's event stream is not here", 42) == 0) {
    fprintf(stderr,
            "hegetcl: error: --resume %s: the run stopped in its unweighting with %llu events "
            "written to %s, but %s: run --resume in the folder the run started in\n",
            o->resume, (unsigned long long)o->resumed.events_written, events_path, message);
    return 2;
  }
  fprintf(stderr, "hegetcl: error: --resume %s: %s\n", o->resume, message);
  return 1;
}

/* A stopped or failed run's events: the stream kept under its temporary name for --resume (removed
 * when no checkpoint can continue it) and FILE.partial, a Les Houches file of its complete events
 * whose header and weights describe them alone (io/lhe_partial.h). *kept: how many. 0 or 1. */
static int keep_stopped_events(hg_output *out, hg_event_format format, int resumable,
                               const char *resumed_from, long long *kept, char *stream_name,
                               size_t stream_name_size) {
  *kept = 0;
  stream_name[0] = '\0';
  char message[2048], partial[HG_CLI_PATH + 32];
  snprintf(partial, sizeof partial, "%s%s", hg_output_path(out), HG_OUTPUT_PARTIAL_SUFFIX);
  const int gzip = hg_output_path_is_gzip(hg_output_path(out));
  char *stream = NULL;
  if (hg_output_keep_temp(out, &stream, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl: error: %s\n", message);
    return 1;
  }
  int rc = 0;
  /* FILE.partial is a Les Houches file; a HepMC3 run's stream serves --resume alone */
  if (format == HG_EVENTS_LHE &&
      hg_lhe_partial_write(stream, partial, gzip, kept, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl: error: writing %s: %s\n", partial, message);
    rc = 1;
  }
  /* the stream this run resumed from is a prefix of its own, which supersedes it */
  if (resumed_from != NULL && strcmp(resumed_from, stream) != 0 &&
      strstr(resumed_from, HG_OUTPUT_TEMP_SUFFIX ".") != NULL)
    remove(resumed_from);
  if (!resumable)
    remove(stream);
  else
    snprintf(stream_name, stream_name_size, "%s", stream);
  free(stream);
  return rc;
}

/* What a stopped run says: where it stopped, what is kept, how to go on. */
static void report_stop(const hegetcl_xsec_result *r, const hegetcl_xsec_config *c,
                        const progress_state *p, const char *checkpoint, const char *lhe,
                        int events_kept, const char *events_stream) {
  const char *signal_name = stop_signal == SIGTERM ? "SIGTERM" : "SIGINT";
  if (r->stopped == HEGETCL_XSEC_INTEGRATING) {
    fprintf(stderr,
            "hegetcl: stopped by %s in the integration after %zu VEGAS iterations (the unfinished "
            "one is dropped)",
            signal_name, p->n_its);
    if (checkpoint[0] != '\0' && r->saved_iterations < p->n_its)
      fprintf(stderr, "; the checkpoint holds the first %u", (unsigned)r->saved_iterations);
    fprintf(stderr, "\n");
  } else {
    fprintf(stderr, "hegetcl: stopped by %s in the unweighting after %llu of %llu events",
            signal_name, (unsigned long long)r->unweighting.written,
            (unsigned long long)c->unweighted_events);
    if (events_kept)
      fprintf(stderr,
              "; they are in %s%s, a Les Houches file of those events alone (neve and weights "
              "adding up to sigma)",
              lhe, HG_OUTPUT_PARTIAL_SUFFIX);
    fprintf(stderr, "\n");
  }
  if (checkpoint[0] != '\0')
    fprintf(stderr,
            "hegetcl: checkpoint saved in %s: `hegetcl xsec --resume %s` (in this folder) "
            "continues the run and gives what it would have given%s%s%s\n",
            checkpoint, checkpoint, events_stream[0] ? " (its events from the stream kept as " : "",
            events_stream, events_stream[0] ? ", until the run is complete)" : "");
  else
    fprintf(stderr, "hegetcl: no checkpoint was written (--checkpoint none, or no output file to "
                    "name it after): the run cannot be continued\n");
}

int hg_cli_xsec(int argc, char **argv) { return hg_cli_xsec_team(argc, argv, NULL); }

/* The name of a rank's own event file: the final name with ".rankR" (merged into the final name
 * at the end); the final name itself in one process. */
static void rank_events_path(const char *lhe, const hegetcl_team *team, char *out, size_t size) {
  if (team != NULL && team->size > 1)
    snprintf(out, size, "%s.rank%d", lhe, team->rank);
  else
    snprintf(out, size, "%s", lhe);
}

/* The ranks' event files into the final one (rank 0, once every rank has closed its file). */
static int merge_rank_events(const char *lhe, const hegetcl_team *team, int quiet) {
  const int ranks = team->size;
  char(*names)[HG_CLI_PATH + 16] = calloc((size_t)ranks, sizeof *names);
  const char **inputs = calloc((size_t)ranks, sizeof *inputs);
  int rc = names == NULL || inputs == NULL;
  if (rc) fprintf(stderr, "hegetcl: error: no memory to merge %d event files\n", ranks);
  for (int k = 0; k < ranks && rc == 0; ++k) {
    const hegetcl_team one = {.rank = k, .size = ranks};
    rank_events_path(lhe, &one, names[k], sizeof names[k]);
    inputs[k] = names[k];
  }
  char message[2048];
  if (rc == 0 && hg_lhe_merge(lhe, inputs, (size_t)ranks, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl: error: merging the ranks' event files into %s: %s\n", lhe, message);
    rc = 1;
  }
  for (int k = 0; k < ranks && rc == 0; ++k) remove(names[k]);
  if (rc == 0 && !quiet) printf("merged the %d ranks' event files into %s\n", ranks, lhe);
  free(names);
  free(inputs);
  return rc;
}

/* Every rank's exit status added up: non-zero when any rank failed (a barrier, too). */
static int team_failed(const hegetcl_team *team, int rc) {
  double flag = rc != 0 ? 1.0 : 0.0;
  char message[512];
  if (team->allreduce_sum(team->user, &flag, 1, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl: error: combining the ranks' exit status: %s\n", message);
    return 1;
  }
  return flag != 0.0;
}

/* Every output this process writes, claimed before any work (io/output_claim.h): each a new path
 * or a writable regular file, no two naming one file (derived names included), each locked
 * against another run. On failure nothing is claimed and the message is printed. */
static int claim_outputs(const hg_xsec_options *o, const hegetcl_team *team, const char *checkpoint,
                         const char *events_path) {
  const int rank0 = team == NULL || team->rank == 0;
  const int shared = team != NULL && team->size > 1;
  const char *checkpoint_what = o->resuming               ? "--resume"
                                : o->checkpoint[0] != '\0' ? "--checkpoint"
                                                           : "the checkpoint (named after the "
                                                             "first output)";
  const hg_output_name names[] = {
      {"--lhe", rank0 ? o->lhe : "", 1},
      {"--lhe (this rank's file)", shared ? events_path : "", 1},
      {"--json", rank0 ? o->json : "", 0},
      {"--yoda", rank0 ? o->yoda : "", 0},
      {"--csv", rank0 ? o->csv : "", 0},
      {checkpoint_what, rank0 ? checkpoint : "", 0},
  };
  const size_t count = sizeof names / sizeof *names;
  char message[2048];
  int status = hg_output_check_distinct(names, count, message, sizeof message);
  for (size_t i = 0; i < count && status == 0; ++i)
    if (names[i].path[0] != '\0')
      status = hg_output_claim(names[i].what, names[i].path, message, sizeof message);
  /* the event file's PATH.partial too: a resumed run's own, else it must not be there */
  for (size_t i = 0; i < count && status == 0; ++i)
    if (names[i].path[0] != '\0' && names[i].has_partial)
      status = hg_output_claim_stopped_part(names[i].what, names[i].path, o->resuming, message,
                                            sizeof message);
  if (status != 0) {
    hg_output_release_all();
    fprintf(stderr, "hegetcl: error: %s\n", message);
    return 2;
  }
  return 0;
}

int hg_cli_xsec_team(int argc, char **argv, const hegetcl_team *team) {
  hg_xsec_options o;
  const int parsed = hg_xsec_options_parse(argc, argv, &o);
  if (parsed != 0) {
    hg_xsec_options_free(&o);
    return parsed == 1 ? 0 : 2;
  }
  const hegetcl_xsec_config *c = &o.config;
  const int other_rank = team != NULL && team->rank != 0; /* rank 0 speaks and writes */
  if (other_rank) o.quiet = 1;
  progress_state p = {.quiet = o.quiet, .config = c, .team = team};
  /* the event file's format from its name (an unknown one is refused once the outputs are
   * checked, which may refuse the path for what it is) */
  hg_event_format format = HG_EVENTS_LHE;
  int rc = 0;
  char format_message[HG_CLI_PATH + 512] = "";
  const int format_status =
      o.lhe[0] ? hg_event_format_of("--lhe", o.lhe, &format, format_message, sizeof format_message)
               : 0;
  const int shared_run = team != NULL && team->size > 1;
  if (format_status == 0 && o.lhe[0] && format != HG_EVENTS_LHE && shared_run) {
    if (!other_rank)
      fprintf(stderr,
              "hegetcl: error: --lhe %s: a run shared by %d processes merges its ranks' event "
              "files, which it does for Les Houches files alone: name a .lhe or .lhe.gz file, or "
              "run in one process (which may use several GPUs: --device all-gpus)\n",
              o.lhe, team->size);
    rc = 2;
  }
  const int events_resumable = !o.lhe[0] || hg_event_format_resumable(format);
  if (rc == 0 && format_status == 0 && !events_resumable &&
      (o.resuming || o.checkpoint[0] != '\0') && strcmp(o.checkpoint, "none") != 0) {
    fprintf(stderr,
            "hegetcl: error: --lhe %s: an LHEH5 file cannot be continued after a stop, so its "
            "run takes no checkpoint: leave out --checkpoint (or give --checkpoint none), or "
            "write .lhe, .lhe.gz, .hepmc or .hepmc.gz, which --resume continues\n",
            o.lhe);
    rc = 2;
  }
  if (rc != 0) {
    hg_xsec_options_free(&o);
    return rc;
  }
  char checkpoint[HG_CLI_PATH + 8];
  checkpoint_path(&o, team, events_resumable, checkpoint, sizeof checkpoint);
  char events_path[HG_CLI_PATH + 16] = "";
  if (o.lhe[0]) rank_events_path(o.lhe, team, events_path, sizeof events_path);
  rc = read_test_interrupt(&p);
  /* outputs first: a run that writes them now is named before anything else is said */
  if (rc == 0) rc = claim_outputs(&o, team, checkpoint, events_path);
  if (rc == 0 && format_status != 0) {
    fprintf(stderr, "hegetcl: error: %s\n", format_message);
    rc = 2;
  }
  if (rc == 0 && !o.resuming && checkpoint[0] != '\0') rc = check_checkpoint_free(checkpoint);
  const int events_go_on = o.resuming && o.resumed.phase == HEGETCL_XSEC_UNWEIGHTING &&
                           o.resumed.events_state[0] != '\0';
  char *resume_from = NULL;
  if (rc == 0 && events_go_on) rc = find_event_stream(&o, events_path, &resume_from);
  if (rc != 0) {
    hg_output_release_all();
    hg_xsec_options_free(&o);
    return rc;
  }
  /* a resumed run's outputs carry the card it started with */
  char *card = NULL;
  if (o.resuming) {
    card = malloc(strlen(o.resumed.run_card) + 1);
    if (card != NULL) strcpy(card, o.resumed.run_card);
  } else {
    card = hg_xsec_options_card_text(&o);
  }
  if (card == NULL) {
    fprintf(stderr, "hegetcl: error: no memory for the run card\n");
    hg_output_release_all();
    free(resume_from);
    hg_xsec_options_free(&o);
    return 1;
  }
  hg_device_set devices;
  char device_message[2048];
  if (hg_device_set_open(&devices, o.device[0] ? o.device : "auto", team, device_message,
                         sizeof device_message) != 0) {
    fprintf(stderr, "hegetcl: error: choosing the OpenCL device: %s\n", device_message);
    hg_output_release_all();
    free(card);
    free(resume_from);
    hg_xsec_options_free(&o);
    return 1;
  }
  hegetcl_context *ctx = devices.contexts[0];
  p.devices = &devices;
  hegetcl_status status = HEGETCL_OK;
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  if (info.auto_without_gpu) hg_cli_note_auto_without_gpu(&info);
  char via[64] = "u ubar";
  if (c->flavours != 0) {
    char flavours[32];
    hegetcl_flavours_name(c->flavours, flavours, sizeof flavours);
    snprintf(via, sizeof via, "q qbar, q = %s", flavours);
  } else if (c->quark_pid != 2) {
    snprintf(via, sizeof via, "q qbar, q = PDG %d", c->quark_pid);
  }
  if (!o.quiet && c->process_text[0] != '\0')
    printf("hegetcl xsec: %s (%s beams%s), sqrt(s) = %g GeV, %s, %s, alpha_s %s,\n  cuts: %s; "
           "%s, seed %llu\n  device: %s (%s; driver %s)\n",
           c->process_text, c->beams == HEGETCL_BEAMS_PP ? "p p" : "p p~",
           c->five_flavour ? ", 5 flavours: p and j hold b b~" : "", c->sqrt_s_gev,
           c->pdf_set, hg_cli_scales_text(c),
           c->alpha_s_running == HEGETCL_ALPHA_S_PDF ? "of the PDF set"
                                                     : "MadGraph's (0.130, 1 loop)",
           hg_cli_cuts_text(c), hegetcl_precision_name(c->process.precision),
           (unsigned long long)c->vegas.seed, info.name, info.platform, info.driver_version);
  else if (!o.quiet)
    printf("hegetcl xsec: p p -> %u photons via %s (%s), sqrt(s) = %g GeV, %s, mu_F = %g GeV,\n"
           "  cuts pT > %g GeV, |eta| < %g, dR > %g; %s engine, %s, helicities %s, %s phase "
           "space, seed %llu\n  device: %s (%s; driver %s)\n",
           c->process.n_photons, via,
           c->orientation == HEGETCL_ORIENTATION_BOTH ? "quark from either proton"
                                                      : "quark from proton 1 only",
           c->sqrt_s_gev, c->pdf_set, c->mu_f_gev, c->pt_min_gev, c->eta_max, c->delta_r_min,
           hegetcl_engine_name(c->process.engine), hegetcl_precision_name(c->process.precision),
           hegetcl_helicity_mode_name(c->helicity), hegetcl_phase_space_name(c->phase_space),
           (unsigned long long)c->vegas.seed, info.name, info.platform, info.driver_version);
  /* measured (docs/validation.md, "Cross sections to n = 12"): the runs agree with each other, so
   * nothing else would show it */
  if (c->phase_space == HEGETCL_PHASE_SPACE_COLLIDER &&
      c->process.n_photons >= HEGETCL_MULTICHANNEL_FROM && (team == NULL || team->rank == 0))
    fprintf(stderr,
            "hegetcl: note: --phase-space collider with --n %u: from %d photons the collider "
            "map's sigma comes out low, with an error that does not show it, unless the run "
            "spends 10^8 events or more (20 seeds at n = 5 with 1.5e5 events each: 3.9%% low; "
            "at n = 8 with the default events one run was 37%% low); the default map, auto, "
            "takes multichannel there\n",
            c->process.n_photons, HEGETCL_MULTICHANNEL_FROM);
  /* measured on an H100 (docs/validation.md, "Cross sections to n = 12"): 20 seeds of u-first runs at
   * n = 10 scattered 1.46 times their errors with 3e5 events per iteration, 1.02 times with 1e6 */
  if (c->process.n_photons >= 10 && c->vegas.events_per_iteration < 1000000 &&
      (team == NULL || team->rank == 0))
    fprintf(stderr,
            "hegetcl: note: --events %llu with --n %u: from 10 photons iterations of fewer than "
            "10^6 events underestimate their errors (20 seeds at n = 10 with 3e5 events each "
            "scattered 1.46 times their errors, with 1e6 1.02 times); keep --events at 1e6 or "
            "more\n",
            (unsigned long long)c->vegas.events_per_iteration, c->process.n_photons);
  if (!o.quiet && (devices.count > 1 || team != NULL)) {
    printf("  shared by %d process%s", team ? team->size : 1, team && team->size > 1 ? "es" : "");
    printf(", this one's %u device%s:", devices.count, devices.count > 1 ? "s" : "");
    for (unsigned k = 0; k < devices.count; ++k) {
      hegetcl_device_info more;
      hegetcl_context_device(devices.contexts[k], &more);
      printf("%s %u:%u %s", k ? "," : "", more.platform_index, more.device_index, more.name);
    }
    printf("\n");
  }
  if (o.resuming) {
    if (!o.quiet) {
      printf("  resuming %s: %s after %u VEGAS iterations", o.resume,
             hegetcl_xsec_phase_name(o.resumed.phase), (unsigned)o.resumed.iterations);
      if (o.resumed.phase == HEGETCL_XSEC_UNWEIGHTING)
        printf(", %llu of %llu events written", (unsigned long long)o.resumed.events_written,
               (unsigned long long)c->unweighted_events);
      printf(" (written by %s)\n", o.resumed.writer);
    }
    if (strcmp(o.resumed.device, info.name) != 0)
      fprintf(stderr,
              "hegetcl: note: the checkpoint was written on %s, this run is on %s: sigma and the "
              "events agree with an uninterrupted run to rounding (about 1e-14), not bit for "
              "bit\n",
              o.resumed.device, info.name);
  }
  fflush(stdout);
  hg_progress_bar_start(&p.bar, "integrating", "events", o.quiet);

  /* the event file is open from the start, under its temporary name */
  char message[2048], comment[1024], writer[256], what[256];
  if (c->process_text[0] != '\0')
    snprintf(what, sizeof what, "%s at LO", c->process_text);
  else
    snprintf(what, sizeof what, "p p -> %u photons via q qbar at LO", c->process.n_photons);
  snprintf(comment, sizeof comment,
           "hegetcl %s (commit %s): %s, unweighted events; device %s (%s; driver %s)",
           HEGETCL_VERSION, HG_COMMIT, what, info.name, info.platform, info.driver_version);
  snprintf(writer, sizeof writer, "hegetcl %s (commit %s)", HEGETCL_VERSION, HG_COMMIT);
  hg_event_sink sink = {.format = format,
                        .lhe = {.config = c,
                                .run_card = card,
                                .comment = comment,
                                .resume_from = resume_from,
                                .skip_variations = o.no_variation_weights}};
  hg_lhe_events *lhe = &sink.lhe;
  if (team != NULL && team->size > 1) { /* this rank's share of the events (xsec.c, share_of) */
    const uint64_t ranks = (uint64_t)team->size, rank = (uint64_t)team->rank;
    lhe->share = 1;
    lhe->file_events = c->unweighted_events / ranks + (rank < c->unweighted_events % ranks);
  }
  if (!o.quiet && o.lhe[0] && !events_resumable && !o.resuming)
    printf("  events: %s as %s; no checkpoint (an LHEH5 file cannot be continued after a stop)\n",
           o.lhe, hg_event_format_name(format));
  catch_stop_signals(); /* from here on a signal stops the run at a batch boundary */
  if (o.lhe[0] && hg_event_sink_open(&sink, events_path, message, sizeof message)) {
    fprintf(stderr, "hegetcl: error: %s\n", message);
    rc = 1;
  }
  hegetcl_xsec_result r;
  memset(&r, 0, sizeof r);
  if (rc == 0) {
    const hegetcl_xsec_checkpointing cp = {.path = checkpoint[0] ? checkpoint : NULL,
                                           .resume = o.resuming,
                                           .every_events = o.checkpoint_every,
                                           .stop = &stop_signal,
                                           .run_card = card,
                                           .writer = writer};
    const hegetcl_xsec_sharing sharing = {
        .devices = devices.contexts + 1, .n_devices = devices.count - 1, .team = team};
    const hegetcl_xsec_hooks hooks = {.progress = on_iteration,
                                      .progress_user = &p,
                                      .events_begin = hg_event_sink_begin,
                                      .sink = hg_event_sink_write,
                                      .sink_user = &sink,
                                      .events_progress = on_events,
                                      .events_progress_user = &p,
                                      .checkpointing = &cp,
                                      .events_checkpoint = hg_event_sink_checkpoint,
                                      .events_resume = hg_event_sink_resume,
                                      .sharing = &sharing};
    status = hegetcl_xsec_generate(ctx, c, &hooks, &r);
    hg_progress_bar_finish(&p.bar);
    if (status != HEGETCL_OK) {
      fprintf(stderr, "hegetcl: error: %s (%s)\n",
              (status == HEGETCL_ERR_IO || status == HEGETCL_ERR_UNSUPPORTED) && lhe->message[0]
                  ? lhe->message
                  : hegetcl_last_error(ctx),
              hegetcl_status_name(status));
      rc = 1;
      /* a fresh run's checkpoint is worth keeping only with finished work in it; an empty one
       * would make the corrected command refuse to start */
      if (!o.resuming && checkpoint[0] != '\0') {
        if (r.saved_iterations == 0 && r.unweighting.written == 0)
          remove(checkpoint);
        else
          fprintf(stderr,
                  "hegetcl: the checkpoint %s holds %u finished VEGAS iterations: `hegetcl xsec "
                  "--resume %s` continues from them (--device may change), or remove it to start "
                  "afresh\n",
                  checkpoint, (unsigned)r.saved_iterations, checkpoint);
      }
    }
  }
  const int stopped = rc == 0 && r.stopped != 0;
  int events_kept = 0;
  char events_stream[HG_CLI_PATH + 64] = ""; /* a stopped run's, for --resume */
  if (sink.format == HG_EVENTS_LHEH5 && o.lhe[0]) {
    /* complete, or removed: an LHEH5 file is never continued */
    const int commit = rc == 0 && !stopped;
    if (hg_event_sink_close(&sink, commit, message, sizeof message) != 0) {
      fprintf(stderr, "hegetcl: error: %s\n", message);
      rc = 1;
    } else if (!commit && r.unweighting.written > 0) {
      fprintf(stderr,
              "hegetcl: the LHEH5 file of a run that did not finish is removed (%llu events "
              "were written): an LHEH5 run is repeated, not resumed\n",
              (unsigned long long)r.unweighting.written);
    }
  } else if (lhe->out != NULL) {
    /* a stopped or failed run keeps the events it completed, as FILE.partial (Les Houches) and
     * as the stream --resume continues (Les Houches and HepMC3) */
    const int has_events =
        hg_output_status(lhe->out) == 0 && r.unweighting.written > 0 && (stopped || rc != 0);
    if (rc == 0 && !stopped) {
      if (hg_event_sink_close(&sink, 1, message, sizeof message) != 0) {
        fprintf(stderr, "hegetcl: error: %s\n", message);
        rc = 1;
      }
    } else if (has_events || (stopped && hg_output_bytes(lhe->out) > 0)) {
      /* --resume continues the stream while its checkpoint is there */
      struct stat st;
      const int resumable = checkpoint[0] != '\0' && stat(checkpoint, &st) == 0;
      long long kept = 0;
      hg_output *out = hg_event_sink_take_output(&sink);
      if (keep_stopped_events(out, sink.format, resumable, resume_from, &kept, events_stream,
                              sizeof events_stream) != 0) {
        rc = 1;
      } else if (kept > 0) {
        events_kept = 1;
        if (!stopped)
          fprintf(stderr, "hegetcl: the %lld events written before the error are in %s%s\n", kept,
                  o.lhe, HG_OUTPUT_PARTIAL_SUFFIX);
      } else if (sink.format == HG_EVENTS_HEPMC3 && !resumable && r.unweighting.written > 0) {
        fprintf(stderr,
                "hegetcl: the HepMC3 events of a run that did not finish are removed without a "
                "checkpoint to continue them (a .partial file is made for Les Houches files "
                "alone)\n");
      }
    } else if (hg_event_sink_close(&sink, 0, message, sizeof message) != 0) {
      fprintf(stderr, "hegetcl: error: %s\n", message);
      rc = 1;
    }
  }
  if (team != NULL && team->size > 1 && o.lhe[0] && !stopped) {
    /* every rank has closed its file (or failed): rank 0 merges them */
    const int any_failed = team_failed(team, rc);
    if (any_failed && rc == 0) {
      if (!other_rank)
        fprintf(stderr, "hegetcl: error: another rank failed: no merged event file (the ranks' "
                        "complete files, if any, stay as %s.rankR)\n", o.lhe);
      rc = 1;
    }
    if (rc == 0 && !other_rank) rc = merge_rank_events(o.lhe, team, o.quiet);
  }
  if (other_rank) goto done; /* rank 0 reports and writes the outputs */
  if (stopped) {
    report_stop(&r, c, &p, checkpoint, o.lhe, events_kept, events_stream);
    rc = 128 + (stop_signal != 0 ? stop_signal : SIGINT);
  }
  const hg_xsec_reference *reference = o.compare[0] != '\0' ? &o.reference : NULL;
  if (rc == 0 && c->process_text[0] != '\0') {
    hg_cli_print_process_result(c, &r, info.name, o.quiet);
    if (reference != NULL) hg_cli_print_reference(reference, r.vegas.estimate, r.vegas.error);
    if (o.json[0]) rc |= save_json(o.json, c, &info, &r, &p, card, reference);
    rc |= save_histogram_files(&o, card, c, &info, &r);
  } else if (rc == 0) {
    printf("sigma(p p -> %u a, %s) = %.6e +- %.2e fb  (%.3f%%, chi2/dof %.2f, %u iterations, "
           "%llu events + %llu adapting, %.2f s integrating, %.2f s building, %s)%s\n",
           c->process.n_photons, hegetcl_orientation_name(c->orientation), r.vegas.estimate,
           r.vegas.error, 100.0 * r.vegas.error / fabs(r.vegas.estimate), r.vegas.chi2_per_dof,
           r.vegas.iterations, (unsigned long long)r.vegas.events,
           (unsigned long long)(r.vegas.events_total - r.vegas.events), r.vegas.wall_seconds,
           r.build_seconds, info.name,
           r.vegas.reached_target || !(c->vegas.target_rel_error > 0)
               ? ""
               : "  [target error NOT reached: raise --max-events]");
    hg_cli_print_variations(&r);
    const double chi2_p = hegetcl_vegas_chi2_probability(r.vegas.chi2_per_dof, r.vegas.iterations);
    if (chi2_p < HEGETCL_VEGAS_CHI2_SUSPECT)
      printf("  [error NOT trustworthy: chi2/dof %.2f over %u iterations has probability %.3f "
             "with honest errors; rerun with more --events per iteration or more "
             "--adapt-iterations, or compare another --seed]\n",
             r.vegas.chi2_per_dof, r.vegas.iterations, chi2_p);
    for (unsigned k = 0; k < r.n_channels; ++k)
      printf("  channel %-5s %.6e +- %.2e fb  (%6.3f%% of sigma)\n", r.channels[k].name,
             r.channels[k].sigma_fb, r.channels[k].error_fb,
             100.0 * r.channels[k].sigma_fb / r.vegas.estimate);
    if (r.float_checked > 0)
      printf("float |M|^2 against double on %llu events inside the cuts: largest deviation %.2e, "
             "mean %.2e, of their sum %.2e%s\n",
             (unsigned long long)r.float_checked, r.float_max_deviation, r.float_mean_deviation,
             r.float_sigma_deviation,
             r.float_sigma_deviation > 1e-4 ? "  [large for sigma: use --precision double]" : "");
    if (c->unweighted_events > 0) {
      const hegetcl_unweighting_result *u = &r.unweighting;
      printf("unweighted: %llu events to %s from %llu weighted (efficiency %.3e) in %.2f s, "
             "%.3g events/s written; max weight %.4e fb; %llu overweight events (%.2e of sigma "
             "truncated)%s\n",
             (unsigned long long)u->written, o.lhe, (unsigned long long)u->tried, u->efficiency,
             u->seconds, u->seconds > 0 ? (double)u->written / u->seconds : 0.0, u->max_weight_fb,
             (unsigned long long)u->overweight, u->overweight_sigma_fraction,
             u->overweight_sigma_fraction > 1e-3
                 ? "  [more than 0.1% of sigma above the maximum: adapt with more events]"
                 : "");
    }
    if (reference != NULL) hg_cli_print_reference(reference, r.vegas.estimate, r.vegas.error);
    if (o.json[0]) rc |= save_json(o.json, c, &info, &r, &p, card, reference);
    rc |= save_histogram_files(&o, card, c, &info, &r);
  }
  /* a finished run leaves nothing to resume: its checkpoint goes unless --keep-checkpoint */
  if (rc == 0 && !stopped && checkpoint[0] != '\0' && !o.keep_checkpoint &&
      remove(checkpoint) != 0 && errno != ENOENT)
    fprintf(stderr, "hegetcl: warning: the finished run's checkpoint %s stays: %s\n", checkpoint,
            strerror(errno));
done:
  hg_output_release_all();
  free(resume_from);
  hegetcl_xsec_result_free(&r);
  free(p.its);
  free(card);
  hg_device_set_close(&devices);
  hg_xsec_options_free(&o);
  return rc;
}
