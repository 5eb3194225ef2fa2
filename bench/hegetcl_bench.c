/* SPDX-License-Identifier: MIT */
/* hegetcl-bench: matrix-element evaluations per second per engine, n, precision and mode. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "amplitude/diagrams_codegen.h"
#include "commit.h"
#include "flops.h"
#include "hegetcl/hegetcl.h"
#include "io/json_writer.h"
#include "layout.h"
#include "bench_lists.h"
#include "process_bench.h"
#include "rambo.h"
#include "write_rates.h"

#define MAX_PHOTONS 12
#define MAX_CASES_PER_LIST HG_BENCH_LIST_ITEMS
#define TARGET_SECONDS 0.2     /* end-to-end time a timed batch aims at */
#define MAX_EVENTS (1u << 24)  /* the largest batch, device memory permitting */
#define POOL_EVENTS (1u << 16) /* distinct random points, repeated to fill a batch */
/* |M|^2 scales as s^(2-n): at 50 GeV it stays a normal float up to n = 12; at 500 GeV (the
 * reference points' energy) float results turn denormal from n = 10 on, which is slow on CPUs. */
#define SQRT_S_GEV 50.0
#define SCAN_MIN_LOCAL 32
#define SCAN_MAX_LOCAL 1024
#define MAX_REGISTER_LIMITS 8
/* the full pipeline: events of the first, probing iteration, and what a timed iteration aims at */
#define PIPELINE_PROBE_EVENTS 16384
#define PIPELINE_TARGET_SECONDS 0.3
#define PIPELINE_MAX_EVENTS ((uint64_t)1 << 27)

static int usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl-bench [OPTIONS]\n"
          "\n"
          "Squared matrix elements of u ubar -> n photons per second: kernel time from OpenCL\n"
          "profiling events, end-to-end time (upload, kernels, download) from the wall clock,\n"
          "the median of the repeats after a warm-up; program build time is reported apart,\n"
          "compiled from source: the disk cache of programs is off here unless\n"
          "HEGETCL_PROGRAM_CACHE is set in the environment.\n"
          "\n"
          "options:\n"
          "  --device SPEC        auto (default), gpu, cpu, P:D or part of a device name\n"
          "  --engines LIST       comma list of permutation, unrolled, diagrams, recursive, or\n"
          "                       all (default)\n"
          "  --n LIST             photon counts, e.g. 5, 2-8 or 2-4,6 (default 2-12; n beyond\n"
          "                       an engine's limit is reported as skipped)\n"
          "  --precision LIST     float,double (default both)\n"
          "  --mode LIST          summed,helicity (default both): helicity-summed, or one\n"
          "                       random helicity configuration per event\n"
          "  --local-size N       work-group size, 0 = chosen from the kernel's limits (default)\n"
          "  --scan-local-size    run every case at local sizes %d, %d, ..., %d\n"
          "  --events N           batch size (default: chosen per case for ~%.1f s end to end)\n"
          "  --repeats R          timed repeats, at least 5 (default 5)\n"
          "  --max-seconds S      time budget of one case, build excluded (default 30): the\n"
          "                       batch is sized for the warm-up and repeats to fit; a case\n"
          "                       is reported as skipped only when a batch that fills the\n"
          "                       device would not fit (its cost per event, which grows with\n"
          "                       n, decides: a skipped case is never followed by a slower\n"
          "                       one measured)\n"
          "  --seed N             seed of the random points and helicities (default 1)\n"
          "  --pipeline LIST      me,full (default me): the matrix element alone, or the whole\n"
          "                       cross-section pipeline of the paper's set-up (Philox numbers,\n"
          "                       phase space, PDFs, cuts, |M|^2, VEGAS sums read back; needs the\n"
          "                       PDF set through LHAPDF_DATA_PATH), where float means mixed:\n"
          "                       double phase space and PDFs, float amplitudes\n"
          "  --summed-kernel LIST shared,private (default shared): the recursive engine's helicity\n"
          "                       sum shared by a work-group, or one event per work-item\n"
          "  --register-limit LIST  per-work-item register caps to build with, 0 = the compiler's\n"
          "                       choice (default 0); NVIDIA only (-cl-nv-maxrregcount)\n"
          "  --peak-tflops F,D    the device's FP32 and FP64 peaks for the %% of peak column\n"
          "                       (default: known for H100 and H200)\n"
          "  --json FILE          also write the results as JSON\n"
          "  --process PROCESS    benchmark a process written as MadGraph users write it,\n"
          "                       e.g. \"g g > t t~ g g\" (hegetcl-bench --process P --help)\n"
          "  --write-rates        how fast each event format is written, no device needed\n"
          "                       (hegetcl-bench --write-rates --help)\n",
          SCAN_MIN_LOCAL, 2 * SCAN_MIN_LOCAL, SCAN_MAX_LOCAL, TARGET_SECONDS);
  return out == stderr ? 2 : 0;
}

typedef struct {
  const char *device;
  int engines[HEGETCL_ENGINE_COUNT];
  int n_photons[MAX_PHOTONS + 1];
  int precisions[2]; /* indexed by hegetcl_precision */
  int modes[2];      /* 0: summed, 1: helicity */
  size_t local_size;
  int scan_local_size;
  size_t events;
  int repeats;
  double max_seconds;
  uint64_t seed;
  const char *json;
  int pipelines[2];      /* 0: the matrix element, 1: the full pipeline */
  int summed_kernels[2]; /* 0: shared, 1: private (the recursive engine's helicity sum) */
  unsigned register_limits[MAX_REGISTER_LIMITS];
  int n_register_limits;
  double peak_fp32, peak_fp64; /* TFLOP/s, 0 when unknown */
} options;

typedef struct {
  int pipeline; /* 0: the matrix element alone, 1: the full cross-section pipeline */
  hegetcl_engine engine;
  unsigned n;
  hegetcl_precision precision;
  int per_helicity;
  int shared_sum;          /* the recursive engine's work-group-shared helicity sum */
  unsigned register_limit; /* 0: the compiler's choice */
  double flops;            /* per event of the matrix element, 0 when not counted */
  size_t local_size, batch;
  int skipped, failed;
  char reason[1024];
  char build_options[512];
  unsigned diagram_parts;
  double build_s, first_run_s;
  int repeats;
  double *kernel_s, *e2e_s; /* repeats each */
  double kernel_median_s, e2e_median_s;
} result;

typedef struct result_list_s {
  result *items;
  size_t count, capacity;
} result_list;

static const char *const mode_names[2] = {"summed", "helicity"};

/* ---- options ---------------------------------------------------------------------------- */

static int parse_size(const char *text, size_t *out) {
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || text[0] == '-') return 0;
  *out = (size_t)v;
  return 1;
}


static int parse_options(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  for (int e = 0; e < HEGETCL_ENGINE_COUNT; ++e) o->engines[e] = 1;
  for (int n = 2; n <= MAX_PHOTONS; ++n) o->n_photons[n] = 1;
  o->precisions[0] = o->precisions[1] = 1;
  o->modes[0] = o->modes[1] = 1;
  o->repeats = 5;
  o->max_seconds = 30;
  o->seed = 1;
  o->pipelines[0] = 1;
  o->summed_kernels[0] = 1;
  o->n_register_limits = 1;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) return usage(stdout) - 1;
    if (strcmp(arg, "--scan-local-size") == 0) {
      o->scan_local_size = 1;
      continue;
    }
    static const char *const with_value[] = {"--device", "--engines",     "--n",      "--precision",
                                             "--mode",   "--local-size",  "--events", "--repeats",
                                             "--seed",   "--max-seconds", "--json",
                                             "--pipeline", "--summed-kernel", "--register-limit",
                                             "--peak-tflops"};
    int known = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; ++k)
      known |= strcmp(arg, with_value[k]) == 0;
    if (!known) {
      fprintf(stderr, "hegetcl-bench: error: unknown option %s (hegetcl-bench --help)\n", arg);
      return 2;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "hegetcl-bench: error: %s needs a value (hegetcl-bench --help)\n", arg);
      return 2;
    }
    char *value = argv[++i];
    char *items[MAX_CASES_PER_LIST];
    size_t number = 0;
    if (strcmp(arg, "--device") == 0) {
      o->device = value;
    } else if (strcmp(arg, "--engines") == 0) {
      if (strcmp(value, "all") != 0) {
        memset(o->engines, 0, sizeof o->engines);
        const int count = hg_bench_split_list(value, items, MAX_CASES_PER_LIST);
        for (int k = 0; k < count; ++k) {
          hegetcl_engine engine;
          if (hegetcl_engine_parse(items[k], &engine) != HEGETCL_OK) {
            fprintf(stderr,
                    "hegetcl-bench: error: --engines: '%s' is not permutation, unrolled, "
                    "diagrams or recursive\n",
                    items[k]);
            return 2;
          }
          o->engines[engine] = 1;
        }
        if (count <= 0) {
          fprintf(stderr, "hegetcl-bench: error: --engines needs at most %d names\n",
                  MAX_CASES_PER_LIST);
          return 2;
        }
      }
    } else if (strcmp(arg, "--n") == 0) {
      char copy[256];
      snprintf(copy, sizeof copy, "%s", value);
      memset(o->n_photons, 0, sizeof o->n_photons);
      if (!hg_bench_parse_n_list(value, o->n_photons, MAX_PHOTONS)) {
        fprintf(stderr,
                "hegetcl-bench: error: --n %s: use numbers from 2 to %d, ranges a-b, commas\n",
                copy, MAX_PHOTONS);
        return 2;
      }
    } else if (strcmp(arg, "--precision") == 0 || strcmp(arg, "--mode") == 0) {
      const int is_precision = strcmp(arg, "--precision") == 0;
      int *selected = is_precision ? o->precisions : o->modes;
      selected[0] = selected[1] = 0;
      const int count = hg_bench_split_list(value, items, MAX_CASES_PER_LIST);
      for (int k = 0; k < count; ++k) {
        hegetcl_precision precision;
        if (is_precision && hegetcl_precision_parse(items[k], &precision) == HEGETCL_OK)
          selected[precision] = 1;
        else if (!is_precision && strcmp(items[k], "summed") == 0)
          selected[0] = 1;
        else if (!is_precision && strcmp(items[k], "helicity") == 0)
          selected[1] = 1;
        else {
          fprintf(stderr, "hegetcl-bench: error: %s: '%s' is not %s\n", arg, items[k],
                  is_precision ? "float or double" : "summed or helicity");
          return 2;
        }
      }
      if (count <= 0) {
        fprintf(stderr, "hegetcl-bench: error: %s needs a comma list\n", arg);
        return 2;
      }
    } else if (strcmp(arg, "--local-size") == 0 && parse_size(value, &number)) {
      o->local_size = number;
    } else if (strcmp(arg, "--events") == 0 && parse_size(value, &number) && number > 0 &&
               number <= 0xffffffffu) {
      o->events = number;
    } else if (strcmp(arg, "--repeats") == 0 && parse_size(value, &number) && number >= 5 &&
               number <= 1000) {
      o->repeats = (int)number;
    } else if (strcmp(arg, "--seed") == 0 && parse_size(value, &number)) {
      o->seed = number;
    } else if (strcmp(arg, "--max-seconds") == 0) {
      char *end = NULL;
      o->max_seconds = strtod(value, &end);
      if (end == value || *end != '\0' || !(o->max_seconds > 0)) {
        fprintf(stderr, "hegetcl-bench: error: --max-seconds %s: must be a positive number\n",
                value);
        return 2;
      }
    } else if (strcmp(arg, "--json") == 0) {
      o->json = value;
    } else if (strcmp(arg, "--pipeline") == 0 || strcmp(arg, "--summed-kernel") == 0) {
      const int is_pipeline = strcmp(arg, "--pipeline") == 0;
      int *selected = is_pipeline ? o->pipelines : o->summed_kernels;
      static const char *const names[2][2] = {{"shared", "private"}, {"me", "full"}};
      selected[0] = selected[1] = 0;
      const int count = hg_bench_split_list(value, items, MAX_CASES_PER_LIST);
      for (int k = 0; k < count; ++k) {
        const int which = strcmp(items[k], names[is_pipeline][0]) == 0   ? 0
                          : strcmp(items[k], names[is_pipeline][1]) == 0 ? 1
                                                                          : -1;
        if (which < 0) {
          fprintf(stderr, "hegetcl-bench: error: %s: '%s' is not %s or %s\n", arg, items[k],
                  names[is_pipeline][0], names[is_pipeline][1]);
          return 2;
        }
        selected[which] = 1;
      }
      if (count <= 0) {
        fprintf(stderr, "hegetcl-bench: error: %s needs a comma list\n", arg);
        return 2;
      }
    } else if (strcmp(arg, "--register-limit") == 0) {
      const int count = hg_bench_split_list(value, items, MAX_REGISTER_LIMITS);
      for (int k = 0; k < count; ++k)
        if (!parse_size(items[k], &number) || number > 255 || (number != 0 && number < 16)) {
          fprintf(stderr,
                  "hegetcl-bench: error: --register-limit: '%s' must be 0 (the compiler's choice) "
                  "or a register count from 16 to 255\n",
                  items[k]);
          return 2;
        } else {
          o->register_limits[k] = (unsigned)number;
        }
      if (count <= 0) {
        fprintf(stderr, "hegetcl-bench: error: --register-limit needs at most %d numbers\n",
                MAX_REGISTER_LIMITS);
        return 2;
      }
      o->n_register_limits = count;
    } else if (strcmp(arg, "--peak-tflops") == 0) {
      if (!hg_bench_parse_peaks(value, &o->peak_fp32, &o->peak_fp64)) {
        hg_bench_peaks_error(value);
        return 2;
      }
    } else if (strcmp(arg, "--local-size") == 0 || strcmp(arg, "--events") == 0 ||
               strcmp(arg, "--repeats") == 0 || strcmp(arg, "--seed") == 0) {
      fprintf(stderr, "hegetcl-bench: error: %s %s: %s\n", arg, value,
              strcmp(arg, "--repeats") == 0  ? "must be a whole number from 5 to 1000"
              : strcmp(arg, "--events") == 0 ? "must be a whole number from 1 to 4294967295"
                                             : "must be a whole number");
      return 2;
    } else {
      fprintf(stderr, "hegetcl-bench: error: unknown option %s (hegetcl-bench --help)\n", arg);
      return 2;
    }
  }
  return 0;
}

/* ---- measuring -------------------------------------------------------------------------- */

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const double *values, int count) {
  double sorted[1000];
  memcpy(sorted, values, (size_t)count * sizeof *sorted);
  qsort(sorted, (size_t)count, sizeof *sorted, compare_doubles);
  return count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
}

/* A batch's random points and helicities: a pool of distinct points per n, repeated to fill the
 * batch in the structure-of-arrays layout of its size. */
typedef struct {
  unsigned n;         /* the pool's photon count, 0 before the first */
  size_t pool_events; /* points in the pool */
  double *pool;
  size_t events, capacity; /* the batch laid out, and what its arrays hold */
  double *momenta, *me;
  uint32_t *helicity;
} batch_data;

/* Lays out a batch of events for n photons; 0 when memory ran out. */
static int batch_fill(batch_data *b, unsigned n, size_t events, uint64_t seed) {
  const size_t n_particles = n + 2;
  if (b->n != n) {
    free(b->pool);
    b->pool_events = POOL_EVENTS;
    b->pool = malloc(4 * n_particles * b->pool_events * sizeof *b->pool);
    b->n = b->pool != NULL ? n : 0;
    if (b->pool == NULL) return 0;
    hg_bench_rambo(n, SQRT_S_GEV, b->pool_events, seed, b->pool);
    b->events = 0;
  }
  if (b->events == events) return 1;
  if (events > b->capacity || b->momenta == NULL) {
    free(b->momenta);
    free(b->me);
    free(b->helicity);
    b->momenta = malloc(4 * (MAX_PHOTONS + 2) * events * sizeof *b->momenta);
    b->me = malloc(events * sizeof *b->me);
    b->helicity = malloc(events * sizeof *b->helicity);
    b->capacity = events;
    if (b->momenta == NULL || b->me == NULL || b->helicity == NULL) {
      b->capacity = b->events = 0;
      return 0;
    }
  }
  for (size_t row = 0; row < 4 * n_particles; ++row)
    for (size_t e = 0; e < events; ++e)
      b->momenta[row * events + e] = b->pool[row * b->pool_events + e % b->pool_events];
  /* helicity configurations uniform over all 2^(n+2), those with zero amplitude included */
  uint64_t state = seed ^ 0x5851f42d4c957f2dull;
  for (size_t e = 0; e < events; ++e) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    b->helicity[e] = (uint32_t)(state >> 32) & ((1u << (n + 2)) - 1);
  }
  b->events = events;
  return 1;
}

/* The most events whose buffers fit in a quarter of the device's memory, at most MAX_EVENTS. */
static size_t max_events(const hegetcl_device_info *info, unsigned n, hegetcl_precision p) {
  const size_t real = p == HEGETCL_PRECISION_DOUBLE ? 8 : 4;
  const size_t per_event = (4 * (n + 2) + 3) * real + 4;
  size_t cap = (size_t)(info->global_memory_bytes / 4 / per_event);
  const size_t host_cap = ((size_t)2 << 30) / (4 * (MAX_PHOTONS + 2) * sizeof(double));
  if (cap > host_cap) cap = host_cap;
  return cap < MAX_EVENTS ? cap : MAX_EVENTS;
}

static hegetcl_status timed_kernels(hegetcl_amplitude *amp, batch_data *b, size_t events,
                                    int per_helicity, double *seconds) {
  hegetcl_status status = hg_amplitude_upload(amp, events, b->momenta, b->helicity);
  if (status == HEGETCL_OK) status = hg_amplitude_run(amp, events, per_helicity, seconds);
  return status;
}

static hegetcl_status timed_end_to_end(hegetcl_amplitude *amp, batch_data *b, size_t events,
                                       int per_helicity, double *seconds) {
  const double start = hg_now_seconds();
  const hegetcl_status status =
      per_helicity
          ? hegetcl_amplitude_evaluate_helicity(amp, events, b->momenta, b->helicity, b->me)
          : hegetcl_amplitude_evaluate(amp, events, b->momenta, b->me);
  *seconds = hg_now_seconds() - start;
  return status;
}

/* Lays out a batch, recording the failure in r; 0 when memory ran out. */
static int prepare_batch(batch_data *b, unsigned n, size_t events, uint64_t seed, result *r) {
  if (batch_fill(b, n, events, seed)) return 1;
  r->failed = 1;
  snprintf(r->reason, sizeof r->reason, "no host memory for a batch of %zu events", events);
  return 0;
}

/* Times one case on a built amplitude. A first run of one event (the device compiler's lazy work
 * included, reported apart); the probe, end to end from one event up by at most 64 times a step,
 * until a batch that fills the device takes a quarter of the target (each step costs at most
 * twice the last, so the budget check after it holds the cost in bounds); the batch scaled to the
 * target; a warm-up (the batch shrunk, not below the fill, when the repeats would not fit the
 * budget); then the repeats of kernels and of end-to-end. */
static void measure(const options *o, const hegetcl_device_info *info, hegetcl_amplitude *amp,
                    batch_data *b, result *r) {
  hegetcl_context *ctx = amp->ctx;
  const unsigned n = r->n;
  const double runs = 2.0 * o->repeats + 2; /* the warm-up and the repeats, both kinds */
  hegetcl_status status = hegetcl_amplitude_set_local_size(amp, r->local_size);
  size_t local = 0;
  if (status == HEGETCL_OK) status = hg_amplitude_launch_local_size(amp, r->per_helicity, &local);
  if (status != HEGETCL_OK) {
    /* a local size above the kernel's limit is a property of the device, not a failure */
    r->skipped = 1;
    snprintf(r->reason, sizeof r->reason, "%s", hegetcl_last_error(ctx));
    return;
  }
  r->local_size = local;
  const size_t cap = max_events(info, n, r->precision);
  /* at least one work-group per compute unit, so the device is filled */
  const size_t fill_events = local * (info->compute_units > 0 ? info->compute_units : 1);
  const size_t fill = fill_events < cap ? fill_events : cap;
  size_t events = 1;
  double seconds = 0;
  int shrunk = 0; /* the probe overshot and came back: no more growing */
  if (!prepare_batch(b, n, events, o->seed, r)) return;
  status = timed_end_to_end(amp, b, events, r->per_helicity, &r->first_run_s);
  if (o->events != 0) {
    events = o->events;
    if (!prepare_batch(b, n, events, o->seed, r)) return;
  }
  while (status == HEGETCL_OK && o->events == 0) {
    status = timed_end_to_end(amp, b, events, r->per_helicity, &seconds);
    if (status != HEGETCL_OK) break;
    if (runs * seconds > o->max_seconds && events > fill) {
      /* overshot (small batches cost more per event): back to the target, not below the fill */
      const size_t scaled = (size_t)((double)events * TARGET_SECONDS / seconds);
      const size_t smaller = (scaled + local - 1) / local * local;
      events = smaller > fill && smaller < events ? smaller : fill;
      if (!prepare_batch(b, n, events, o->seed, r)) return;
      shrunk = 1;
      continue;
    }
    if (runs * seconds > o->max_seconds) {
      snprintf(r->reason, sizeof r->reason,
               "a batch of %zu event(s) takes %.3g s end to end; the warm-up and %d repeats would "
               "exceed --max-seconds %g",
               events, seconds, o->repeats, o->max_seconds);
      r->skipped = 1;
      return;
    }
    if (shrunk || events >= cap || (events >= fill && seconds >= TARGET_SECONDS / 4)) break;
    double grow = seconds > 0 ? TARGET_SECONDS / seconds : 64;
    grow = grow < 2 ? 2 : grow > 64 ? 64 : grow;
    const double next = (double)events * grow;
    events = next > (double)cap ? cap : (size_t)next;
    if (events > local) events = (events + local - 1) / local * local;
    if (events > cap) events = cap;
    if (!prepare_batch(b, n, events, o->seed, r)) return;
  }
  if (status == HEGETCL_OK && o->events == 0 && !shrunk && seconds > 0 &&
      seconds < TARGET_SECONDS && events < cap) {
    const double scaled = (double)events * TARGET_SECONDS / seconds;
    events = scaled > (double)cap ? cap : ((size_t)scaled + local - 1) / local * local;
    if (events > cap) events = cap;
    if (!prepare_batch(b, n, events, o->seed, r)) return;
  }
  /* warm-up at the final size; when it says the repeats would not fit the budget (a first large
   * launch, a busy device), the batch shrinks to fit, never below the fill, and warms up again.
   * The case is not skipped here: whether it is was decided by the probe on its cost per event,
   * which grows with n, so a case is never skipped while a slower one is measured. */
  for (int attempt = 0; status == HEGETCL_OK; ++attempt) {
    double kernel_s = 0;
    status = timed_kernels(amp, b, events, r->per_helicity, &kernel_s);
    if (status == HEGETCL_OK) status = timed_end_to_end(amp, b, events, r->per_helicity, &seconds);
    const double repeats_s = o->repeats * (kernel_s + seconds);
    if (status != HEGETCL_OK || attempt > 0 || o->events != 0 || repeats_s <= o->max_seconds ||
        events <= fill)
      break;
    const size_t scaled = (size_t)((double)events * o->max_seconds / repeats_s);
    const size_t smaller = scaled / local * local;
    if (smaller >= events) break;
    events = smaller > fill ? smaller : fill;
    if (!prepare_batch(b, n, events, o->seed, r)) return;
  }
  r->batch = events;
  for (int k = 0; k < o->repeats && status == HEGETCL_OK; ++k) {
    status = timed_kernels(amp, b, events, r->per_helicity, &r->kernel_s[k]);
    if (status == HEGETCL_OK)
      status = timed_end_to_end(amp, b, events, r->per_helicity, &r->e2e_s[k]);
  }
  if (status != HEGETCL_OK) {
    r->failed = 1;
    snprintf(r->reason, sizeof r->reason, "%s: %s", hegetcl_status_name(status),
             hegetcl_last_error(ctx));
    return;
  }
  r->repeats = o->repeats;
  r->kernel_median_s = median(r->kernel_s, o->repeats);
  r->e2e_median_s = median(r->e2e_s, o->repeats);
}

/* ---- output ----------------------------------------------------------------------------- */

static void print_header(void) {
  printf("%-4s %-11s %3s %-6s %-8s %-7s %4s %6s %9s %12s %12s %9s %7s %7s %7s\n", "pipe",
         "engine", "n", "prec", "mode", "sum", "regs", "local", "batch", "ev/s kernel",
         "ev/s e2e", "flop/ev", "TFLOP/s", "% peak", "build s");
}

static const char *precision_label(const result *r) {
  return r->pipeline && r->precision == HEGETCL_PRECISION_FLOAT
             ? "mixed"
             : hegetcl_precision_name(r->precision);
}

static const char *sum_label(const result *r) {
  if (r->engine != HEGETCL_ENGINE_RECURSIVE || r->per_helicity) return "-";
  return r->shared_sum ? "shared" : "private";
}

/* The kernel's achieved rate [TFLOP/s] and its share of the precision's peak (0 when unknown). */
static double kernel_tflops(const result *r) {
  return r->flops > 0 && r->kernel_median_s > 0
             ? r->flops * (double)r->batch / r->kernel_median_s * 1e-12
             : 0;
}

static double peak_fraction(const result *r, const options *o) {
  const double peak = r->precision == HEGETCL_PRECISION_DOUBLE ? o->peak_fp64 : o->peak_fp32;
  return peak > 0 ? kernel_tflops(r) / peak : 0;
}

static int write_json(const char *path, const options *o, const hegetcl_device_info *info,
                      const result_list *list);
static void save_progress(void);

static void print_result(const result *r, const options *o) {
  save_progress();
  printf("%-4s %-11s %3u %-6s %-8s %-7s %4u ", r->pipeline ? "full" : "me",
         hegetcl_engine_name(r->engine), r->n, precision_label(r), mode_names[r->per_helicity],
         sum_label(r), r->register_limit);
  if (r->skipped || r->failed) {
    if (r->local_size != 0)
      printf("%6zu ", r->local_size);
    else
      printf("%6s ", "-");
    printf("%s: %s\n", r->skipped ? "skipped" : "FAILED", r->reason);
    return;
  }
  printf("%6zu %9zu ", r->local_size, r->batch);
  if (r->pipeline)
    printf("%12s ", "-");
  else
    printf("%12.4g ", (double)r->batch / r->kernel_median_s);
  printf("%12.4g ", (double)r->batch / r->e2e_median_s);
  if (r->flops > 0 && !r->pipeline) {
    printf("%9.3g %7.3g ", r->flops, kernel_tflops(r));
    if (peak_fraction(r, o) > 0)
      printf("%6.1f%% ", 100 * peak_fraction(r, o));
    else
      printf("%7s ", "-");
  } else {
    printf("%9s %7s %7s ", "-", "-", "-");
  }
  printf("%7.2f\n", r->build_s);
}

static void json_array(FILE *f, const double *values, int count) {
  fputc('[', f);
  for (int i = 0; i < count; ++i) fprintf(f, "%s%.9g", i ? ", " : "", values[i]);
  fputc(']', f);
}

/* Writes the results to path through a temporary name, renamed when complete. */
static int write_json(const char *path, const options *o, const hegetcl_device_info *info,
                      const result_list *list) {
  char temporary[4096];
  snprintf(temporary, sizeof temporary, "%s.tmp", path);
  FILE *f = fopen(temporary, "w");
  if (f == NULL) return 0;
  fprintf(f, "{\n  \"tool\": \"hegetcl-bench\",\n  \"version\": \"%s\",\n  \"commit\": ",
          HEGETCL_VERSION);
  hg_json_write_string(f, HG_BENCH_COMMIT);
  fprintf(f, ",\n  \"platform\": ");
  hg_json_write_string(f, info->platform);
  fprintf(f, ",\n  \"device\": ");
  hg_json_write_string(f, info->name);
  fprintf(f, ",\n  \"vendor\": ");
  hg_json_write_string(f, info->vendor);
  fprintf(f, ",\n  \"driver\": ");
  hg_json_write_string(f, info->driver_version);
  fprintf(f, ",\n  \"device_version\": ");
  hg_json_write_string(f, info->device_version);
  fprintf(f, ",\n  \"opencl_c_version\": ");
  hg_json_write_string(f, info->opencl_c_version);
  fprintf(f,
          ",\n  \"compute_units\": %u,\n  \"repeats\": %d,\n  \"max_seconds\": %g,\n"
          "  \"target_end_to_end_seconds\": %g,\n  \"seed\": %llu,\n  \"sqrt_s_gev\": %g,\n"
          "  \"diagrams_split_min_photons\": %d,\n  \"diagrams_per_part\": %d,\n",
          info->compute_units, o->repeats, o->max_seconds, TARGET_SECONDS,
          (unsigned long long)o->seed, SQRT_S_GEV, HG_DIAGRAMS_SPLIT_MIN_PHOTONS,
          HG_DIAGRAMS_PER_PART);
  fprintf(f, "  \"device_type\": \"%s\",\n  \"local_memory_bytes\": %llu,\n",
          info->is_gpu ? "gpu" : "other", info->local_memory_bytes);
  if (o->peak_fp32 > 0)
    fprintf(f, "  \"peak_tflops\": {\"float\": %g, \"double\": %g},\n", o->peak_fp32,
            o->peak_fp64);
  else
    fprintf(f, "  \"peak_tflops\": null,\n");
  fprintf(f, "  \"results\": [");
  for (size_t i = 0; i < list->count; ++i) {
    const result *r = &list->items[i];
    fprintf(f,
            "%s\n    {\"pipeline\": \"%s\", \"engine\": \"%s\", \"n\": %u, \"precision\": \"%s\", "
            "\"mode\": \"%s\", \"summed_kernel\": \"%s\", \"register_limit\": %u, ",
            i ? "," : "", r->pipeline ? "full" : "me", hegetcl_engine_name(r->engine), r->n,
            precision_label(r), mode_names[r->per_helicity], sum_label(r), r->register_limit);
    fprintf(f, "\"status\": \"%s\"", r->skipped ? "skipped" : r->failed ? "failed" : "ok");
    if (r->skipped || r->failed) {
      fprintf(f, ", \"reason\": ");
      hg_json_write_string(f, r->reason);
    }
    if (r->build_options[0]) {
      fprintf(f, ",\n     \"build_options\": ");
      hg_json_write_string(f, r->build_options);
      fprintf(f, ", \"build_s\": %.6g, \"diagram_parts\": %u", r->build_s, r->diagram_parts);
    }
    if (r->local_size != 0) fprintf(f, ", \"local_size\": %zu", r->local_size);
    if (!r->skipped && !r->failed) {
      fprintf(f, ",\n     \"batch\": %zu, \"first_run_s\": %.6g, \"repeats\": %d, ", r->batch,
              r->first_run_s, r->repeats);
      if (!r->pipeline) {
        fprintf(f, "\"kernel_median_s\": %.9g, \"kernel_events_per_s\": %.6g, \"kernel_s\": ",
                r->kernel_median_s, (double)r->batch / r->kernel_median_s);
        json_array(f, r->kernel_s, r->repeats);
        fprintf(f, ",\n     ");
      }
      fprintf(f, "\"end_to_end_median_s\": %.9g, \"end_to_end_events_per_s\": %.6g, ",
              r->e2e_median_s, (double)r->batch / r->e2e_median_s);
      fprintf(f, "\"end_to_end_s\": ");
      json_array(f, r->e2e_s, r->repeats);
      if (r->flops > 0 && !r->pipeline) {
        fprintf(f, ",\n     \"flops_per_event\": %.6g, \"kernel_tflops\": %.6g", r->flops,
                kernel_tflops(r));
        if (peak_fraction(r, o) > 0) fprintf(f, ", \"peak_fraction\": %.4g", peak_fraction(r, o));
      }
    }
    fputc('}', f);
  }
  fprintf(f, "\n  ]\n}\n");
  const int ok = !ferror(f);
  if (fclose(f) != 0 || !ok || rename(temporary, path) != 0) {
    remove(temporary);
    return 0;
  }
  return 1;
}

/* ---- cases ------------------------------------------------------------------------------ */

/* The JSON is rewritten after every case, so that a run cut short keeps what it measured. */
static struct {
  const options *o;
  const hegetcl_device_info *info;
  const struct result_list_s *list;
} json_progress;

static result *add_result(result_list *list, const options *o) {
  if (list->count == list->capacity) {
    const size_t capacity = list->capacity ? 2 * list->capacity : 64;
    result *grown = realloc(list->items, capacity * sizeof *grown);
    if (grown == NULL) return NULL;
    list->items = grown;
    list->capacity = capacity;
  }
  result *r = &list->items[list->count];
  memset(r, 0, sizeof *r);
  r->kernel_s = calloc((size_t)o->repeats, sizeof *r->kernel_s);
  r->e2e_s = calloc((size_t)o->repeats, sizeof *r->e2e_s);
  if (r->kernel_s == NULL || r->e2e_s == NULL) {
    free(r->kernel_s);
    free(r->e2e_s);
    return NULL;
  }
  ++list->count;
  return r;
}

static void save_progress(void) {
  if (json_progress.o != NULL && json_progress.o->json != NULL)
    write_json(json_progress.o->json, json_progress.o, json_progress.info, json_progress.list);
}

/* Builds the programs with the register cap (0: none) through HEGETCL_CL_OPTIONS, after the
 * options the user set there (kept from the first call). */
static void set_register_limit(unsigned limit) {
  static char base[512];
  static int have_base = 0;
  if (!have_base) {
    const char *user = getenv("HEGETCL_CL_OPTIONS");
    snprintf(base, sizeof base, "%s", user != NULL ? user : "");
    have_base = 1;
  }
  char text[600];
  if (limit == 0)
    snprintf(text, sizeof text, "%s", base);
  else
    snprintf(text, sizeof text, "%s%s-cl-nv-maxrregcount=%u", base, base[0] ? " " : "", limit);
  if (text[0] == '\0')
    unsetenv("HEGETCL_CL_OPTIONS");
  else
    setenv("HEGETCL_CL_OPTIONS", text, 1);
}

/* Why a case cannot run on this device, or "" . */
static int case_unsupported(const hegetcl_device_info *info, hegetcl_engine engine, unsigned n,
                            hegetcl_precision precision, unsigned register_limit, char *reason,
                            size_t size) {
  if (n > hegetcl_engine_max_photons(engine))
    snprintf(reason, size, "n = %u is beyond the %s engine's limit of %u", n,
             hegetcl_engine_name(engine), hegetcl_engine_max_photons(engine));
  else if (precision == HEGETCL_PRECISION_DOUBLE && !info->has_fp64)
    snprintf(reason, size, "%s does not offer cl_khr_fp64", info->name);
  else if (register_limit != 0 && strstr(info->platform, "NVIDIA") == NULL)
    snprintf(reason, size, "a register cap is an NVIDIA OpenCL option; %s is %s", info->name,
             info->platform);
  else
    return 0;
  return 1;
}

/* Runs every mode and local size of one (engine, n, precision, register cap, summed kernel);
 * returns 0 when memory ran out. */
static int run_program_cases(const options *o, hegetcl_context *ctx,
                             const hegetcl_device_info *info, hegetcl_engine engine, unsigned n,
                             hegetcl_precision precision, unsigned register_limit,
                             int shared_sum, const int *modes, batch_data *b,
                             result_list *list) {
  hegetcl_amplitude *amp = NULL;
  char reason[1024] = "";
  int skipped = case_unsupported(info, engine, n, precision, register_limit, reason,
                                 sizeof reason),
      failed = 0;
  double build_s = 0;
  if (!skipped) {
    hegetcl_process process;
    hegetcl_process_defaults(&process, n);
    process.engine = engine;
    process.precision = precision;
    fprintf(stderr, "hegetcl-bench: building %s n = %u %s ...\n", hegetcl_engine_name(engine), n,
            hegetcl_precision_name(precision));
    set_register_limit(register_limit);
    const double start = hg_now_seconds();
    const hegetcl_status status = hg_amplitude_create_variant(ctx, &process, shared_sum, &amp);
    build_s = hg_now_seconds() - start;
    set_register_limit(0);
    if (status != HEGETCL_OK) {
      skipped = status == HEGETCL_ERR_UNSUPPORTED;
      failed = !skipped;
      snprintf(reason, sizeof reason, "%s: %s", hegetcl_status_name(status),
               hegetcl_last_error(ctx));
    }
  }
  for (int mode = 0; mode < 2; ++mode) {
    if (!modes[mode]) continue;
    for (size_t local = o->scan_local_size ? SCAN_MIN_LOCAL : o->local_size;; local = 2 * local) {
      result *r = add_result(list, o);
      if (r == NULL) {
        hegetcl_amplitude_destroy(amp);
        return 0;
      }
      r->engine = engine;
      r->n = n;
      r->precision = precision;
      r->per_helicity = mode;
      r->shared_sum = shared_sum;
      r->register_limit = register_limit;
      r->local_size = local;
      r->skipped = skipped;
      r->failed = failed;
      snprintf(r->reason, sizeof r->reason, "%s", reason);
      if (amp != NULL) {
        snprintf(r->build_options, sizeof r->build_options, "%s",
                 hegetcl_amplitude_build_options(amp));
        r->build_s = build_s;
        r->diagram_parts = amp->n_parts;
        r->flops = hg_bench_flops_per_event(engine, n, mode, amp->summed_group != 0);
        measure(o, info, amp, b, r);
      }
      print_result(r, o);
      fflush(stdout);
      if (!o->scan_local_size || local >= SCAN_MAX_LOCAL) break;
    }
  }
  hegetcl_amplitude_destroy(amp);
  return 1;
}

/* The full pipeline's iterations, heard through the progress callback. */
typedef struct {
  double seconds[1000];
  int count;
} iteration_times;

static void record_iteration(const hegetcl_vegas_iteration *it, void *user) {
  iteration_times *t = user;
  if (!it->adapting && t->count < 1000) t->seconds[t->count++] = it->seconds;
}

/* One cross section of the paper's set-up (u from proton 1, the collider phase space, named
 * because the default takes multichannel from n = 5: the published pipeline figures are the
 * collider map's) with iterations of `events` events: 1 adapting, `iterations` timed. */
static hegetcl_status pipeline_run(hegetcl_context *ctx, const result *r, uint64_t seed,
                                   uint64_t events, unsigned iterations, iteration_times *times,
                                   double *build_s) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, r->n);
  c.process.engine = r->engine;
  c.process.precision = r->precision;
  c.orientation = HEGETCL_ORIENTATION_U_FIRST;
  c.phase_space = HEGETCL_PHASE_SPACE_COLLIDER;
  c.helicity = r->per_helicity ? HEGETCL_HELICITY_SAMPLED : HEGETCL_HELICITY_SUMMED;
  c.vegas.adapt_iterations = 1;
  c.vegas.adapt_events = events;
  c.vegas.events_per_iteration = events;
  c.vegas.min_iterations = c.vegas.max_iterations = iterations;
  c.vegas.max_events = events * (uint64_t)iterations;
  c.vegas.target_rel_error = 0;
  c.vegas.seed = seed;
  times->count = 0;
  hegetcl_xsec_result x;
  memset(&x, 0, sizeof x);
  const hegetcl_status status = hegetcl_xsec_run(ctx, &c, record_iteration, times, &x);
  *build_s = x.build_seconds;
  hegetcl_xsec_result_free(&x);
  return status;
}

/* Times the full cross-section pipeline per event: a probe of PIPELINE_PROBE_EVENTS, then
 * iterations sized for PIPELINE_TARGET_SECONDS, the median of the repeats. */
static void measure_pipeline(const options *o, hegetcl_context *ctx, result *r) {
  iteration_times *times = calloc(1, sizeof *times);
  if (times == NULL) {
    r->failed = 1;
    snprintf(r->reason, sizeof r->reason, "no memory");
    return;
  }
  uint64_t events = PIPELINE_PROBE_EVENTS;
  double build_s = 0;
  hegetcl_status status = pipeline_run(ctx, r, o->seed, events, 1, times, &build_s);
  r->build_s = build_s;
  if (status == HEGETCL_OK && times->count == 1) {
    const double probe = times->seconds[0];
    if (probe * (o->repeats + 1) > o->max_seconds) {
      r->skipped = 1;
      snprintf(r->reason, sizeof r->reason,
               "an iteration of %llu events takes %.3g s; the %d repeats would exceed "
               "--max-seconds %g",
               (unsigned long long)events, probe, o->repeats, o->max_seconds);
      free(times);
      return;
    }
    double scaled = (double)events * PIPELINE_TARGET_SECONDS / (probe > 0 ? probe : 1e-9);
    if (scaled * (o->repeats + 1) * probe / (double)events > o->max_seconds)
      scaled = (double)events * o->max_seconds / ((o->repeats + 1) * probe);
    if (scaled > (double)PIPELINE_MAX_EVENTS) scaled = (double)PIPELINE_MAX_EVENTS;
    if (scaled > (double)events) events = (uint64_t)scaled;
    status = pipeline_run(ctx, r, o->seed, events, (unsigned)o->repeats, times, &build_s);
  }
  if (status != HEGETCL_OK || times->count != o->repeats) {
    r->failed = status != HEGETCL_OK;
    r->skipped = !r->failed;
    snprintf(r->reason, sizeof r->reason, "%s: %s", hegetcl_status_name(status),
             status != HEGETCL_OK ? hegetcl_last_error(ctx) : "too few iterations timed");
    free(times);
    return;
  }
  r->batch = events;
  r->repeats = o->repeats;
  for (int k = 0; k < o->repeats; ++k) r->e2e_s[k] = r->kernel_s[k] = times->seconds[k];
  r->e2e_median_s = r->kernel_median_s = median(times->seconds, o->repeats);
  free(times);
}

static int run_pipeline_case(const options *o, hegetcl_context *ctx,
                             const hegetcl_device_info *info, hegetcl_engine engine, unsigned n,
                             hegetcl_precision precision, int mode, result_list *list) {
  result *r = add_result(list, o);
  if (r == NULL) return 0;
  r->pipeline = 1;
  r->engine = engine;
  r->n = n;
  r->precision = precision;
  r->per_helicity = mode;
  r->shared_sum = 1;
  if (case_unsupported(info, engine, n, precision, 0, r->reason, sizeof r->reason))
    r->skipped = 1;
  else if (n > HEGETCL_MAX_XSEC_PHOTONS) {
    r->skipped = 1;
    snprintf(r->reason, sizeof r->reason, "the cross section takes at most %d photons",
             HEGETCL_MAX_XSEC_PHOTONS);
  } else {
    fprintf(stderr, "hegetcl-bench: full pipeline %s n = %u %s %s ...\n",
            hegetcl_engine_name(engine), n, precision_label(r), mode_names[mode]);
    measure_pipeline(o, ctx, r);
  }
  print_result(r, o);
  fflush(stdout);
  return 1;
}

int main(int argc, char **argv) {
  /* build times are compile times: no program comes from the disk cache (program_cache.c),
   * unless the user's own HEGETCL_PROGRAM_CACHE says otherwise */
  setenv("HEGETCL_PROGRAM_CACHE", "off", 0);
  /* processes given as text have their own benchmark (process_bench.c) */
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--process") == 0) return hg_bench_processes(argc - 1, argv + 1);
  /* the event formats' write rates need no device (write_rates.c) */
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--write-rates") == 0) return hg_bench_write_rates(argc, argv);
  options o;
  const int parsed = parse_options(argc, argv, &o);
  if (parsed != 0) return parsed < 0 ? 0 : parsed;
  hegetcl_context *ctx = NULL;
  hegetcl_status status = hegetcl_context_create(o.device, &ctx);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "hegetcl-bench: error: choosing the OpenCL device: %s (%s)\n",
            hegetcl_last_error(ctx), hegetcl_status_name(status));
    hegetcl_context_destroy(ctx);
    return 1;
  }
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  if (o.peak_fp32 == 0) hg_bench_peak_tflops(info.name, &o.peak_fp32, &o.peak_fp64);
  printf("hegetcl-bench %s (commit %s)\ndevice: %s (%s; %s; driver %s; %s; %u compute units)\n",
         HEGETCL_VERSION, HG_BENCH_COMMIT, info.name, info.platform, info.device_version,
         info.driver_version, info.opencl_c_version, info.compute_units);
  printf(
      "diagram engine split from n = %d, %d diagrams per part; repeats %d, median shown;\n"
      "build s: hegetcl_amplitude_create; 1st s: a first run of one event, which holds what the\n"
      "device compiles at first launch (PoCL compiles its kernels there); neither is in ev/s\n\n",
      HG_DIAGRAMS_SPLIT_MIN_PHOTONS, HG_DIAGRAMS_PER_PART, o.repeats);
  print_header();
  result_list list = {0};
  batch_data b = {0};
  json_progress.o = &o;
  json_progress.info = &info;
  json_progress.list = &list;
  int ok = 1;
  for (int engine = 0; engine < HEGETCL_ENGINE_COUNT && ok && o.pipelines[0]; ++engine)
    for (unsigned n = 2; n <= MAX_PHOTONS && ok && o.engines[engine]; ++n)
      for (int p = 0; p < 2 && ok && o.n_photons[n]; ++p)
        for (int k = 0; k < o.n_register_limits && ok && o.precisions[p]; ++k)
          for (int variant = 0; variant < 2 && ok; ++variant) {
            /* the private helicity sum is a second program of the recursive engine only */
            int modes[2] = {o.modes[0], variant == 0 ? o.modes[1] : 0};
            if (variant == 1 && (engine != HEGETCL_ENGINE_RECURSIVE || !o.modes[0])) continue;
            if (!o.summed_kernels[variant] && engine == HEGETCL_ENGINE_RECURSIVE) {
              if (variant == 1 || !o.modes[1]) continue;
              modes[0] = 0; /* shared not asked for: its program still serves the helicity mode */
            }
            ok = run_program_cases(&o, ctx, &info, (hegetcl_engine)engine, n, (hegetcl_precision)p,
                                   o.register_limits[k], variant == 0, modes, &b, &list);
          }
  for (int engine = 0; engine < HEGETCL_ENGINE_COUNT && ok && o.pipelines[1]; ++engine)
    for (unsigned n = 2; n <= MAX_PHOTONS && ok && o.engines[engine]; ++n)
      for (int p = 0; p < 2 && ok && o.n_photons[n]; ++p)
        for (int mode = 0; mode < 2 && ok && o.precisions[p]; ++mode)
          if (o.modes[mode])
            ok = run_pipeline_case(&o, ctx, &info, (hegetcl_engine)engine, n, (hegetcl_precision)p,
                                   mode, &list);
  int rc = ok ? 0 : 1;
  if (!ok) fprintf(stderr, "hegetcl-bench: error: no memory for the results\n");
  for (size_t i = 0; i < list.count; ++i) rc |= list.items[i].failed;
  if (o.json != NULL && !write_json(o.json, &o, &info, &list)) {
    fprintf(stderr, "hegetcl-bench: error: cannot write %s\n", o.json);
    rc = 1;
  }
  for (size_t i = 0; i < list.count; ++i) {
    free(list.items[i].kernel_s);
    free(list.items[i].e2e_s);
  }
  free(list.items);
  free(b.pool);
  free(b.momenta);
  free(b.me);
  free(b.helicity);
  hegetcl_context_destroy(ctx);
  return rc;
}
