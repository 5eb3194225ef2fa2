/* SPDX-License-Identifier: MIT */
/* hegetcl-bench --process "g g > t t~ g g": |M|^2 summed over helicities and colours per second
 * (kernel time from profiling events, end to end from the wall clock, median of the repeats after
 * a warm-up), program build time apart, at seeded RAMBO points of sqrt(s) = 1 TeV; or with
 * sampled colours and/or helicities (one uniformly drawn assignment or configuration per
 * event); the operations per event, TFLOP/s and share of the peak; table and JSON. */
#include "process_bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "bench_lists.h"
#include "commit.h"
#include "flops.h"
#include "hegetcl/hegetcl.h"
#include "io/json_writer.h"
#include "io/output_claim.h"
#include "io/output_file.h"
#include "process/colour_ordered.h"
#include "process/diagrams.h"
#include "process/flow_recursion.h"
#include "process/model.h"
#include "rambo.h"

#define MAX_PROCESSES 16
#define MAX_REPEATS 50
#define SQRT_S_GEV 1000.0
#define TARGET_KERNEL_SECONDS 0.2
#define POOL_EVENTS 4096u

typedef struct {
  const char *device, *json;
  const char *processes[MAX_PROCESSES];
  int n_processes;
  int precisions[3]; /* double, float, mixed (float amplitudes, colour sum in double) */
  int engines[2];    /* diagrams, recursive; none given: the process's default */
  int colours[2];    /* full, sampled (the recursive engine) */
  int per_helicity;  /* one configuration per event, drawn uniformly from those that can be
                        non-zero */
  double peak_fp32, peak_fp64; /* TFLOP/s, 0 when unknown */
  int repeats;
  double max_seconds;
  size_t max_events;
} bench_options;

typedef struct {
  const char *process;
  hegetcl_precision precision;
  int mixed;
  hegetcl_engine engine;
  int colour_sampled, per_helicity;
  const char *kernel; /* the recursive colour engine's exact colour sum: "group" (work-group
                         kernels, colour_group.cl) or "item" (one event per work-item); else "-" */
  double flops; /* per event, 0 when not counted (the diagrams engine) */
  size_t diagrams, flows, events;
  int repeats; /* timed repeats done (fewer than asked where the time budget ran out) */
  double build_s, kernel_s, e2e_s;
  int skipped;
  char reason[512];
} bench_result;

static int usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl-bench --process PROCESS [--process PROCESS ...] [OPTIONS]\n"
          "\n"
          "|M|^2 summed over helicities and colours per second for processes written as\n"
          "MadGraph users write them (\"g g > t t~ g g\"), at seeded RAMBO\n"
          "points of sqrt(s) = 1 TeV: kernel time from OpenCL profiling events, end to end\n"
          "(upload, kernels, download) from the wall clock, the median of the repeats after a\n"
          "warm-up; program build time apart, compiled from source (the disk cache of\n"
          "programs is off here unless HEGETCL_PROGRAM_CACHE is set in the environment).\n"
          "\n"
          "options:\n"
          "  --device SPEC      auto (default), gpu, cpu, P:D or part of a device name\n"
          "  --precision LIST   float,double,mixed (default float,double); mixed: the\n"
          "                     recursive engine's float amplitudes with the colour sum in\n"
          "                     double\n"
          "  --engines LIST     recursive,diagrams (default: the process's own, recursive\n"
          "                     where it takes the process)\n"
          "  --colour LIST      full,sampled (default full): the exact colour sum, or one\n"
          "                     uniformly drawn colour assignment per event (recursive\n"
          "                     engine; the only way beyond 720 orderings: g g > 7 g, 8 g)\n"
          "  --helicity MODE    summed (default) or sampled: one configuration per event,\n"
          "                     drawn from those that can be non-zero (recursive engine)\n"
          "  --peak-tflops F,D  the device's FP32 and FP64 peaks for the %% of peak column\n"
          "                     (default: known for H100 and H200)\n"
          "  --repeats R        timed repeats, 5 to %d (default 5)\n"
          "  --max-seconds S    time budget of one case, build excluded (default 60); a\n"
          "                     case over it keeps the repeats done, at least one\n"
          "  --max-events N     largest batch (default 4194304)\n"
          "  --json FILE        also write the results as JSON\n",
          MAX_REPEATS);
  return out == stderr ? 2 : 0;
}

static int parse(int argc, char **argv, bench_options *o) {
  *o = (bench_options){NULL, NULL, {NULL}, 0, {1, 1, 0}, {0, 0},         {1, 0},
                       0,    0,    0,      5, 60,        (size_t)1 << 22};
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0) return usage(stdout) + 100;
    if (i + 1 >= argc) {
      fprintf(stderr, "hegetcl-bench: error: %s needs a value\n", arg);
      return 2;
    }
    const char *value = argv[++i];
    char *end = NULL;
    if (strcmp(arg, "--process") == 0) {
      if (o->n_processes == MAX_PROCESSES) {
        fprintf(stderr, "hegetcl-bench: error: at most %d --process per run\n", MAX_PROCESSES);
        return 2;
      }
      o->processes[o->n_processes++] = value;
    } else if (strcmp(arg, "--device") == 0) {
      o->device = value;
    } else if (strcmp(arg, "--json") == 0) {
      o->json = value;
    } else if (strcmp(arg, "--precision") == 0) {
      o->precisions[0] = strstr(value, "double") != NULL;
      o->precisions[1] = strstr(value, "float") != NULL;
      o->precisions[2] = strstr(value, "mixed") != NULL;
      if (!o->precisions[0] && !o->precisions[1] && !o->precisions[2]) {
        fprintf(stderr, "hegetcl-bench: error: --precision %s: give float, double and/or mixed\n",
                value);
        return 2;
      }
    } else if (strcmp(arg, "--engines") == 0) {
      o->engines[0] = strstr(value, "diagrams") != NULL;
      o->engines[1] = strstr(value, "recursive") != NULL;
      if (!o->engines[0] && !o->engines[1]) {
        fprintf(stderr, "hegetcl-bench: error: --engines %s: give recursive and/or diagrams\n",
                value);
        return 2;
      }
    } else if (strcmp(arg, "--colour") == 0) {
      o->colours[0] = strstr(value, "full") != NULL;
      o->colours[1] = strstr(value, "sampled") != NULL;
      if (!o->colours[0] && !o->colours[1]) {
        fprintf(stderr, "hegetcl-bench: error: --colour %s: give full and/or sampled\n", value);
        return 2;
      }
    } else if (strcmp(arg, "--helicity") == 0) {
      if (strcmp(value, "summed") != 0 && strcmp(value, "sampled") != 0) {
        fprintf(stderr, "hegetcl-bench: error: --helicity %s: give summed or sampled\n", value);
        return 2;
      }
      o->per_helicity = strcmp(value, "sampled") == 0;
    } else if (strcmp(arg, "--peak-tflops") == 0) {
      if (!hg_bench_parse_peaks(value, &o->peak_fp32, &o->peak_fp64)) {
        hg_bench_peaks_error(value);
        return 2;
      }
    } else if (strcmp(arg, "--repeats") == 0) {
      const long r = strtol(value, &end, 10);
      if (end == value || *end != '\0' || r < 5 || r > MAX_REPEATS) {
        fprintf(stderr, "hegetcl-bench: error: --repeats %s: a whole number from 5 to %d\n", value,
                MAX_REPEATS);
        return 2;
      }
      o->repeats = (int)r;
    } else if (strcmp(arg, "--max-seconds") == 0) {
      o->max_seconds = strtod(value, &end);
      if (end == value || *end != '\0' || !(o->max_seconds > 0)) {
        fprintf(stderr, "hegetcl-bench: error: --max-seconds %s: a positive number\n", value);
        return 2;
      }
    } else if (strcmp(arg, "--max-events") == 0) {
      const long long n = strtoll(value, &end, 10);
      if (end == value || *end != '\0' || n < 64) {
        fprintf(stderr, "hegetcl-bench: error: --max-events %s: a whole number >= 64\n", value);
        return 2;
      }
      o->max_events = (size_t)n;
    } else {
      fprintf(stderr,
              "hegetcl-bench: error: %s is not an option of the process benchmark "
              "(hegetcl-bench --process P --help lists them)\n",
              arg);
      return 2;
    }
  }
  /* every process parses before any device work */
  for (int k = 0; k < o->n_processes; ++k) {
    hegetcl_process p;
    char message[1024];
    if (hegetcl_process_from_text(&p, o->processes[k], message, sizeof message) != HEGETCL_OK) {
      fprintf(stderr, "hegetcl-bench: error: %s\n", message);
      return 2;
    }
  }
  return 0;
}

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, compare);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Random points of the process: outgoing masses from the model, repeated from a pool. */
static double *make_points(const hg_process_spec *spec, const hegetcl_process *process,
                           size_t events) {
  const unsigned n = (unsigned)spec->n, n_out = n - 2;
  double masses[HG_PROCESS_MAX_EXTERNAL];
  for (unsigned i = 0; i < n_out; ++i) masses[i] = hegetcl_process_mass(process, i + 2);
  const size_t pool_events = events < POOL_EVENTS ? events : POOL_EVENTS;
  double *pool = malloc(4 * n * pool_events * sizeof *pool);
  double *momenta = malloc(4 * n * events * sizeof *momenta);
  if (pool == NULL || momenta == NULL) {
    free(pool);
    free(momenta);
    return NULL;
  }
  hg_bench_rambo_massive(n_out, masses, SQRT_S_GEV, pool_events, 20261124, pool);
  for (size_t row = 0; row < 4 * n; ++row)
    for (size_t e = 0; e < events; ++e)
      momenta[row * events + e] = pool[row * pool_events + e % pool_events];
  free(pool);
  return momenta;
}

/* A 64-bit mix of k (splitmix64): the seeded draws of the sampled colours and helicities. */
static uint64_t mix(uint64_t k) {
  k += 0x9e3779b97f4a7c15ull;
  k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ull;
  k = (k ^ (k >> 27)) * 0x94d049bb133111ebull;
  return k ^ (k >> 31);
}

/* Per event: a colour assignment drawn uniformly (every index of every particle) and a helicity
 * configuration drawn uniformly from those the engine can find non-zero (co's list times its
 * quark line's pairs). */
static void draw_samples(const hegetcl_amplitude *amp, const hg_colour_ordered *co,
                         const uint32_t *fr_configs, size_t n_fr_configs, size_t events,
                         uint32_t *colour, uint32_t *helicity) {
  for (size_t e = 0; e < events; ++e) {
    uint64_t bits = mix(e);
    colour[e] = 0;
    for (unsigned i = 0; i < amp->n_particles; ++i) {
      colour[e] |= (uint32_t)(bits % amp->colour_dims[i]) << (3 * i);
      bits /= amp->colour_dims[i];
    }
    const uint64_t h = mix(e + 0x5bd1e995ull);
    if (co == NULL) { /* the quark-line recursion: the configurations its tape sums */
      helicity[e] = fr_configs[h % n_fr_configs];
      continue;
    }
    helicity[e] = co->helicities[h % co->n_helicities];
    if (co->quark_line) helicity[e] |= co->fermion_pairs[(h >> 32) % (uint64_t)co->n_fermion_pairs];
  }
}

/* Uploads the events (with their helicities and colours where sampled) and times the kernels. */
static hegetcl_status timed_run(hegetcl_amplitude *amp, const bench_result *r, size_t events,
                                const double *momenta, const uint32_t *helicity,
                                const uint32_t *colour, double *kernel) {
  hegetcl_status status =
      hg_amplitude_upload(amp, events, momenta, r->per_helicity ? helicity : NULL);
  if (status == HEGETCL_OK && r->colour_sampled)
    status = hg_amplitude_upload_colours(amp, events, colour);
  if (status != HEGETCL_OK) return status;
  return r->colour_sampled ? hg_amplitude_run_colour(amp, events, r->per_helicity, kernel)
                           : hg_amplitude_run(amp, events, r->per_helicity, kernel);
}

/* The same through the public calls, end to end. */
static hegetcl_status evaluate(hegetcl_amplitude *amp, const bench_result *r, size_t events,
                               const double *momenta, const uint32_t *helicity,
                               const uint32_t *colour, double *me) {
  if (r->colour_sampled)
    return hegetcl_amplitude_evaluate_colour(amp, events, momenta,
                                             r->per_helicity ? helicity : NULL, colour, me);
  if (r->per_helicity)
    return hegetcl_amplitude_evaluate_helicity(amp, events, momenta, helicity, me);
  return hegetcl_amplitude_evaluate(amp, events, momenta, me);
}

static void run_case(const bench_options *o, hegetcl_context *ctx, bench_result *r) {
  hegetcl_process process;
  char message[1024];
  hegetcl_process_from_text(&process, r->process, message, sizeof message);
  process.precision = r->precision;
  process.engine = r->engine;
  hg_process_spec spec;
  hg_diagram_set set;
  hg_colour_ordered co;
  int have_co = 0, have_fr = 0;
  uint32_t *fr_configs = NULL; /* the quark-line recursion's configurations (drawn per event) */
  size_t n_fr_configs = 0;
  hg_process_parse(r->process, &spec, message, sizeof message);
  if (r->engine == HEGETCL_ENGINE_DIAGRAMS &&
      hg_diagrams_build(&spec, 0, &set, message, sizeof message) == 0) {
    r->diagrams = set.n_diagrams;
    r->flows = set.n_flows;
    hg_diagrams_free(&set);
  } else if (r->engine == HEGETCL_ENGINE_RECURSIVE && !hg_recursive_uses_flows(&spec) &&
             hg_colour_ordered_build(&spec, &co, message, sizeof message) == 0) {
    r->flows = co.n_orderings; /* the colour basis: one ordering per element */
    r->flops = hg_bench_flops_colour_ordered(&co, r->per_helicity, r->colour_sampled);
    have_co = 1;
  } else if (r->engine == HEGETCL_ENGINE_RECURSIVE && hg_recursive_uses_flows(&spec)) {
    hg_flow_recursion fr; /* the quark-line recursion: the quark-line basis */
    if (hg_flow_recursion_build(&spec, process.width_scheme == HEGETCL_WIDTH_ALL, &fr, message,
                                sizeof message) == 0) {
      if (hg_fr_configurations(&spec, &fr_configs, &n_fr_configs) == 0 && n_fr_configs > 0) {
        r->flows = fr.n_flows;
        r->flops =
            hg_bench_flops_flow_recursion(&fr, n_fr_configs, r->per_helicity, r->colour_sampled);
        have_fr = 1;
      }
      hg_flow_recursion_free(&fr);
    }
  }
  hegetcl_amplitude *amp = NULL;
  /* mixed: a float program whose colour sum runs in double (colour_ordered_amplitude.c) */
  if (r->mixed) setenv("HEGETCL_CO_MIXED", "1", 1);
  const double t0 = hg_now_seconds();
  hegetcl_status status = hegetcl_amplitude_create(ctx, &process, &amp);
  r->build_s = hg_now_seconds() - t0;
  if (r->mixed) unsetenv("HEGETCL_CO_MIXED");
  if (status == HEGETCL_OK && (r->colour_sampled || r->per_helicity) && !have_co && !have_fr) {
    status = HEGETCL_ERR_UNSUPPORTED;
    snprintf(r->reason, sizeof r->reason,
             "sampled colours and helicities are benchmarked for the recursive engine (the "
             "recursive colour engine and the quark-line recursion)");
  } else if (status != HEGETCL_OK) {
    snprintf(r->reason, sizeof r->reason, "%s", hegetcl_last_error(ctx));
  }
  if (status == HEGETCL_OK && have_co && !r->colour_sampled) {
    r->kernel = amp->summed_group != 0 ? "group" : "item";
    if (amp->summed_group != 0) r->flops = hg_bench_flops_colour_group(&co, r->per_helicity);
  }
  if (status != HEGETCL_OK) {
    r->skipped = 1;
    if (have_co) hg_colour_ordered_free(&co);
    free(fr_configs);
    hegetcl_amplitude_destroy(amp);
    return;
  }
  const double budget_start = hg_now_seconds();
  /* start from a batch that fills the device (512 work-items per compute unit): a slow process
   * whose first small batch already takes the target time would else be timed on a few warps */
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  size_t events = (size_t)info.compute_units * 512;
  if (events < 256) events = 256;
  if (events > o->max_events) events = o->max_events;
  double *momenta = NULL, *me = NULL;
  uint32_t *helicity = NULL, *colour = NULL;
  double kernel = 0;
  /* the batch grows until its kernels take the target time or it reaches the cap */
  for (;;) {
    free(momenta);
    free(me);
    free(helicity);
    free(colour);
    momenta = make_points(&spec, &process, events);
    me = malloc(events * sizeof *me);
    helicity = malloc(events * sizeof *helicity);
    colour = malloc(events * sizeof *colour);
    if (momenta == NULL || me == NULL || helicity == NULL || colour == NULL) {
      r->skipped = 1;
      snprintf(r->reason, sizeof r->reason, "no host memory for %zu events", events);
      break;
    }
    if (have_co || have_fr)
      draw_samples(amp, have_co ? &co : NULL, fr_configs, n_fr_configs, events, colour, helicity);
    status = timed_run(amp, r, events, momenta, helicity, colour, &kernel);
    if (status != HEGETCL_OK) {
      r->skipped = 1;
      snprintf(r->reason, sizeof r->reason, "%s", hegetcl_last_error(ctx));
      break;
    }
    if (kernel >= TARGET_KERNEL_SECONDS || events * 4 > o->max_events) break;
    if (hg_now_seconds() - budget_start > o->max_seconds / 4) break;
    const double scale = kernel > 0 ? TARGET_KERNEL_SECONDS / kernel : 16;
    events = (size_t)((double)events * (scale > 16 ? 16 : scale < 2 ? 2 : scale));
    if (events > o->max_events) events = o->max_events;
  }
  double kernel_s[MAX_REPEATS], e2e_s[MAX_REPEATS];
  int done = 0;
  for (int k = 0; k < o->repeats && !r->skipped; ++k) {
    /* a slow process keeps the repeats that fit, at least one after the batch-sizing run that
     * warmed it up, and says how many */
    if (k > 0 && hg_now_seconds() - budget_start > o->max_seconds) break;
    status = timed_run(amp, r, events, momenta, helicity, colour, &kernel_s[k]);
    const double start = hg_now_seconds();
    if (status == HEGETCL_OK) status = evaluate(amp, r, events, momenta, helicity, colour, me);
    e2e_s[k] = hg_now_seconds() - start;
    if (status != HEGETCL_OK) {
      r->skipped = 1;
      snprintf(r->reason, sizeof r->reason, "%s", hegetcl_last_error(ctx));
      break;
    }
    ++done;
  }
  if (!r->skipped) {
    r->events = events;
    r->repeats = done;
    r->kernel_s = median(kernel_s, done);
    r->e2e_s = median(e2e_s, done);
  }
  free(momenta);
  free(me);
  free(helicity);
  free(colour);
  if (have_co) hg_colour_ordered_free(&co);
  free(fr_configs);
  hegetcl_amplitude_destroy(amp);
}

/* The kernel's rate [TFLOP/s] and its share of the precision's peak (0 when unknown). */
static double kernel_tflops(const bench_result *r) {
  return r->flops > 0 && r->kernel_s > 0 ? r->flops * (double)r->events / r->kernel_s * 1e-12 : 0;
}

static double peak_percent(const bench_result *r, const bench_options *o) {
  const double peak = r->precision == HEGETCL_PRECISION_DOUBLE ? o->peak_fp64 : o->peak_fp32;
  return peak > 0 ? 100 * kernel_tflops(r) / peak : 0;
}

/* Writes the results to path (claimed at the start) through io/output_file.h: a temporary name,
 * renamed when complete. 0 with the reason in message when it cannot. */
static int write_json(const char *path, const hegetcl_device_info *info, const bench_options *o,
                      const bench_result *rs, int n, char *message, size_t message_size) {
  char *text = NULL;
  size_t text_size = 0;
  FILE *f = open_memstream(&text, &text_size);
  if (f == NULL) {
    snprintf(message, message_size, "no memory for the JSON document");
    return 0;
  }
  fprintf(f, "{\n  \"benchmark\": \"processes\",\n  \"commit\": ");
  hg_json_write_string(f, HG_BENCH_COMMIT);
  fprintf(f, ",\n  \"device\": ");
  hg_json_write_string(f, info->name);
  fprintf(f, ",\n  \"platform\": ");
  hg_json_write_string(f, info->platform);
  fprintf(f, ",\n  \"driver\": ");
  hg_json_write_string(f, info->driver_version);
  fprintf(f, ",\n  \"sqrt_s_gev\": %g,\n  \"results\": [\n", SQRT_S_GEV);
  for (int k = 0; k < n; ++k) {
    const bench_result *r = &rs[k];
    fprintf(f, "    {\"process\": ");
    hg_json_write_string(f, r->process);
    fprintf(
        f,
        ", \"engine\": \"%s\", \"kernel\": \"%s\", \"precision\": \"%s\", \"mode\": \"%s\", "
        "\"helicity\": \"%s\", \"colour\": \"%s\", "
        "\"diagrams\": %zu, \"%s\": %zu, \"build_s\": %.6g, ",
        hegetcl_engine_name(r->engine), r->kernel != NULL ? r->kernel : "-",
        r->mixed ? "mixed" : hegetcl_precision_name(r->precision),
        r->per_helicity || r->colour_sampled ? "sampled" : "summed",
        r->per_helicity ? "sampled" : "summed", r->colour_sampled ? "sampled" : "full", r->diagrams,
        r->engine == HEGETCL_ENGINE_RECURSIVE ? "orderings" : "flows", r->flows, r->build_s);
    if (r->skipped) {
      fprintf(f, "\"skipped\": ");
      hg_json_write_string(f, r->reason);
    } else {
      fprintf(f, "\"repeats\": %d, ", r->repeats);
      fprintf(f,
              "\"events\": %zu, \"kernel_s\": %.6g, \"e2e_s\": %.6g, \"kernel_per_s\": %.6g, "
              "\"e2e_per_s\": %.6g",
              r->events, r->kernel_s, r->e2e_s, (double)r->events / r->kernel_s,
              (double)r->events / r->e2e_s);
      if (r->flops > 0)
        fprintf(f, ", \"flops_per_event\": %.6g, \"tflops\": %.6g, \"percent_of_peak\": %.4g",
                r->flops, kernel_tflops(r), peak_percent(r, o));
    }
    fprintf(f, "}%s\n", k + 1 < n ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  int ok = fclose(f) == 0;
  if (!ok) snprintf(message, message_size, "no memory for the JSON document");
  if (ok) ok = hg_output_write_whole(path, text, text_size, message, message_size) == 0;
  free(text);
  return ok;
}

int hg_bench_processes(int argc, char **argv) {
  bench_options o;
  const int rc = parse(argc, argv, &o);
  if (rc == 100) return 0;
  if (rc != 0) return rc;
  /* the output is claimed before any work, as hegetcl xsec claims its own */
  char json_message[2048] = "";
  if (o.json != NULL && hg_output_claim("--json", o.json, json_message, sizeof json_message) != 0) {
    fprintf(stderr, "hegetcl-bench: error: %s\n", json_message);
    return 2;
  }
  hegetcl_context *ctx = NULL;
  if (hegetcl_context_create(o.device, &ctx) != HEGETCL_OK) {
    hg_output_release_all();
    fprintf(stderr, "hegetcl-bench: error: %s\n", hegetcl_last_error(ctx));
    hegetcl_context_destroy(ctx);
    return 1;
  }
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  if (!(o.peak_fp32 > 0)) hg_bench_peak_tflops(info.name, &o.peak_fp32, &o.peak_fp64);
  printf("hegetcl-bench --process (commit %s)\ndevice: %s (%s; %s; driver %s)\n"
         "|M|^2 summed over helicities and colours, sqrt(s) = %g GeV, median of "
         "%d repeats\n\n",
         HG_BENCH_COMMIT, info.name, info.platform, info.device_version, info.driver_version,
         SQRT_S_GEV, o.repeats);
  printf("%-24s %-9s %-6s %-6s %-8s %8s %9s %9s %9s %12s %12s %9s %7s %6s\n", "process",
         "engine", "kernel", "prec", "col/hel", "diagrams", "flows/ord", "events", "build s", "kernel ev/s", "e2e ev/s",
         "flop/ev", "TFLOP/s", "% peak");
  bench_result results[12 * MAX_PROCESSES];
  int n = 0, failed = 0, measured = 0;
  for (int k = 0; k < o.n_processes; ++k)
    for (int e = 0; e < 2; ++e) {
      hegetcl_process given;
      char message[1024];
      hegetcl_process_from_text(&given, o.processes[k], message, sizeof message);
      const hegetcl_engine engine = e == 0 ? HEGETCL_ENGINE_DIAGRAMS : HEGETCL_ENGINE_RECURSIVE;
      if (o.engines[0] || o.engines[1] ? !o.engines[e] : given.engine != engine) continue;
      for (int c = 0; c < 2; ++c)
        for (int p = 0; p < 3; ++p) {
          if (!o.precisions[p] || !o.colours[c]) continue;
          if (c == 1 && p == 2) continue; /* mixed changes only the exact colour sum */
          bench_result *r = &results[n++];
          memset(r, 0, sizeof *r);
          /* combinations no engine runs are listed as skipped, with the reason: a run of only
           * those measures nothing and says so */
          const char *why =
              p == 2 && engine != HEGETCL_ENGINE_RECURSIVE
                  ? "--precision mixed (the colour sum in double) is for the recursive colour "
                    "engine: --engines recursive, for gluons with at most one quark line"
              : c == 1 && engine != HEGETCL_ENGINE_RECURSIVE
                  ? "--colour sampled is for the recursive engine (the recursive colour "
                    "engine and the quark-line recursion): --engines recursive, or --colour full"
                  : NULL;
          r->process = o.processes[k];
          r->precision = p == 0 ? HEGETCL_PRECISION_DOUBLE : HEGETCL_PRECISION_FLOAT;
          r->mixed = p == 2;
          r->engine = engine;
          r->colour_sampled = c == 1;
          r->per_helicity = o.per_helicity;
          if (why != NULL) {
            r->skipped = 1;
            snprintf(r->reason, sizeof r->reason, "%s", why);
          } else {
            run_case(&o, ctx, r);
          }
          measured += !r->skipped;
          const char *prec = r->mixed ? "mixed" : hegetcl_precision_name(r->precision);
          const char *kernel = r->kernel != NULL ? r->kernel : "-";
          char mode[12];
          snprintf(mode, sizeof mode, "%s/%s", r->colour_sampled ? "smp" : "full",
                   r->per_helicity ? "smp" : "sum");
          if (r->skipped)
            printf("%-24s %-9s %-6s %-6s %-8s %8zu %9zu  skipped: %s\n", r->process,
                   hegetcl_engine_name(engine), kernel, prec, mode, r->diagrams, r->flows, r->reason);
          else if (r->flops > 0)
            printf("%-24s %-9s %-6s %-6s %-8s %8zu %9zu %9zu %9.2f %12.3e %12.3e %9.3g %7.3g "
                   "%6.2g\n",
                   r->process, hegetcl_engine_name(engine), kernel, prec, mode, r->diagrams, r->flows,
                   r->events, r->build_s, (double)r->events / r->kernel_s,
                   (double)r->events / r->e2e_s, r->flops, kernel_tflops(r), peak_percent(r, &o));
          else
            printf("%-24s %-9s %-6s %-6s %-8s %8zu %9zu %9zu %9.2f %12.3e %12.3e\n", r->process,
                   hegetcl_engine_name(engine), kernel, prec, mode, r->diagrams, r->flows, r->events,
                   r->build_s, (double)r->events / r->kernel_s, (double)r->events / r->e2e_s);
          fflush(stdout);
          if (o.json != NULL &&
              !write_json(o.json, &info, &o, results, n, json_message, sizeof json_message))
            failed = 1;
        }
    }
  if (o.json != NULL && n == 0 &&
      !write_json(o.json, &info, &o, results, n, json_message, sizeof json_message))
    failed = 1;
  if (failed) fprintf(stderr, "hegetcl-bench: error: writing --json: %s\n", json_message);
  if (measured == 0) {
    fprintf(stderr,
            "hegetcl-bench: error: nothing was measured: %s; change --engines, --colour or "
            "--precision\n",
            n == 0 ? "no case matches these options"
                   : "every case was skipped, for the reasons in the table above");
    failed = 1;
  }
  hegetcl_context_destroy(ctx);
  hg_output_release_all();
  return failed;
}
