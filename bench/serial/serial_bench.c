/* SPDX-License-Identifier: MIT */
/* hegetcl-serial-bench: matrix elements per second of the amplitude kernels' code on one CPU core.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/json_writer.h"
#include "io/output_claim.h"
#include "io/output_file.h"
#include "layout.h"
#include "bench_lists.h"
#include "rambo.h"
#include "serial_build_info.h"
#include "serial_cases.h"

#define MAX_PHOTONS 12
#define MAX_LIST_ITEMS HG_BENCH_LIST_ITEMS
#define TARGET_SECONDS 0.2     /* a timed run doubles its events until it takes this long */
#define RUNS 3                 /* timed runs per case, the median reported */
#define POOL_EVENTS (1u << 16) /* distinct random points; larger runs go over them again */
#define SQRT_S_GEV 50.0        /* as hegetcl-bench: float |M|^2 stays normal up to n = 12 */
#define SEED 1                 /* hegetcl-bench's default seed: the same points */

static const char *const mode_names[2] = {"summed", "helicity"};
static const char *const precision_names[2] = {"float", "double"};

static int usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl-serial-bench [OPTIONS]\n"
          "\n"
          "Squared matrix elements of u ubar -> n photons per second on one CPU core: the HELAS\n"
          "functions and engines of cl/ compiled as plain C (%s), in the loops of the\n"
          "amplitude kernels. A case doubles its events from 1 until a run takes %.1f s, then\n"
          "reports the median of %d runs; points are RAMBO's at sqrt(s) = %g GeV.\n"
          "\n"
          "options:\n"
          "  --engines LIST     comma list of permutation, unrolled, recursive, or all (default)\n"
          "  --n LIST           photon counts, e.g. 5, 2-8 or 2-4,6 (default 2-12; n beyond an\n"
          "                     engine's serial build, 8 or 12 for recursive, is skipped)\n"
          "  --precision LIST   float,double (default both)\n"
          "  --mode LIST        summed,helicity (default both): helicity-summed, or one random\n"
          "                     helicity configuration per event\n"
          "  --max-seconds S    time budget of one case (default 30); a case whose single event\n"
          "                     takes longer is skipped, and no run grows past the budget\n"
          "  --json FILE        also write the results as JSON\n"
          "  --help             this text\n",
          HG_SERIAL_FLAGS, TARGET_SECONDS, RUNS, SQRT_S_GEV);
  return out == stderr ? 2 : 0;
}

typedef struct {
  int engines[HG_SERIAL_ENGINE_COUNT];
  int n_photons[MAX_PHOTONS + 1];
  int precisions[2]; /* 0: float, 1: double */
  int modes[2];      /* 0: summed, 1: helicity */
  double max_seconds;
  const char *json;
} options;

typedef struct {
  int engine;
  unsigned n;
  int is_double, mode;
  int skipped;
  char reason[512]; /* why it was skipped, or a note on an ok case ("" when none) */
  size_t events;
  double seconds; /* median time of one run of events */
} result;

typedef struct {
  result *items;
  size_t count, capacity;
} result_list;

/* ---- options ---------------------------------------------------------------------------- */

static int usage_error(const char *option, const char *value, const char *fix) {
  fprintf(stderr, "hegetcl-serial-bench: error: %s%s%s: %s (hegetcl-serial-bench --help)\n", option,
          value ? " " : "", value ? value : "", fix);
  return 2;
}

/* 0 to run, -1 after --help, 2 after a usage error (reported). */
static int parse_options(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  for (int e = 0; e < HG_SERIAL_ENGINE_COUNT; ++e) o->engines[e] = 1;
  for (int n = 2; n <= MAX_PHOTONS; ++n) o->n_photons[n] = 1;
  o->precisions[0] = o->precisions[1] = 1;
  o->modes[0] = o->modes[1] = 1;
  o->max_seconds = 30;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      usage(stdout);
      return -1;
    }
    static const char *const with_value[] = {"--engines", "--n",           "--precision",
                                             "--mode",    "--max-seconds", "--json"};
    int known = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; ++k)
      known |= strcmp(arg, with_value[k]) == 0;
    if (!known)
      return usage_error(arg, NULL,
                         "unknown option; the options are --engines, --n, --precision, --mode, "
                         "--max-seconds, --json and --help");
    if (i + 1 >= argc) return usage_error(arg, NULL, "needs a value");
    char *value = argv[++i];
    char copy[256];
    snprintf(copy, sizeof copy, "%s", value); /* for messages: the list is split in place */
    char *items[MAX_LIST_ITEMS];
    if (strcmp(arg, "--engines") == 0) {
      if (strcmp(value, "all") == 0) continue;
      memset(o->engines, 0, sizeof o->engines);
      const int count = hg_bench_split_list(value, items, MAX_LIST_ITEMS);
      if (count <= 0)
        return usage_error(arg, copy, "give a comma list of permutation, unrolled, recursive");
      for (int k = 0; k < count; ++k) {
        const int engine = hg_serial_engine_parse(items[k]);
        if (engine < 0)
          return usage_error(arg, copy,
                             "use permutation, unrolled, recursive (comma list) or all; the "
                             "diagrams engine has no serial build");
        o->engines[engine] = 1;
      }
    } else if (strcmp(arg, "--n") == 0) {
      memset(o->n_photons, 0, sizeof o->n_photons);
      if (!hg_bench_parse_n_list(value, o->n_photons, MAX_PHOTONS))
        return usage_error(arg, copy, "use numbers from 2 to 12, ranges a-b, commas (2-4,6)");
    } else if (strcmp(arg, "--precision") == 0 || strcmp(arg, "--mode") == 0) {
      const int is_precision = strcmp(arg, "--precision") == 0;
      const char *const *names = is_precision ? precision_names : mode_names;
      int *selected = is_precision ? o->precisions : o->modes;
      selected[0] = selected[1] = 0;
      const int count = hg_bench_split_list(value, items, MAX_LIST_ITEMS);
      for (int k = 0; k < count; ++k) {
        if (strcmp(items[k], names[0]) == 0)
          selected[0] = 1;
        else if (strcmp(items[k], names[1]) == 0)
          selected[1] = 1;
        else
          return usage_error(arg, copy,
                             is_precision ? "use float, double or float,double"
                                          : "use summed, helicity or summed,helicity");
      }
      if (count <= 0)
        return usage_error(arg, copy,
                           is_precision ? "use float, double or float,double"
                                        : "use summed, helicity or summed,helicity");
    } else if (strcmp(arg, "--max-seconds") == 0) {
      char *end = NULL;
      o->max_seconds = strtod(value, &end);
      if (end == value || *end != '\0' || !(o->max_seconds > 0) || !(o->max_seconds < 1e9))
        return usage_error(arg, copy, "must be a positive number of seconds, e.g. 20");
    } else {
      o->json = value;
    }
  }
  return 0;
}

/* ---- measuring -------------------------------------------------------------------------- */

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The random points and helicities of one n: a pool of POOL_EVENTS points, and a batch of the
 * first events of it laid out for its own size (the structure-of-arrays stride is the batch's
 * size); a run of more than POOL_EVENTS events goes over the pool events / POOL_EVENTS times. */
typedef struct {
  unsigned n; /* the pool's photon count, 0 before the first */
  double *pool, *batch, *me;
  size_t batch_events;
  uint32_t *helicity;
} batch_data;

static void batch_free(batch_data *b) {
  free(b->pool);
  free(b->batch);
  free(b->me);
  free(b->helicity);
  memset(b, 0, sizeof *b);
}

/* Makes the pool for n photons; 0 when memory ran out. */
static int batch_pool(batch_data *b, unsigned n) {
  if (b->n == n) return 1;
  batch_free(b);
  const size_t values = 4 * (size_t)(n + 2) * POOL_EVENTS;
  b->pool = malloc(values * sizeof *b->pool);
  b->batch = malloc(values * sizeof *b->batch);
  b->me = calloc(POOL_EVENTS, sizeof *b->me); /* calloc: its pages are touched before timing */
  b->helicity = malloc(POOL_EVENTS * sizeof *b->helicity);
  if (b->pool == NULL || b->batch == NULL || b->me == NULL || b->helicity == NULL) {
    batch_free(b);
    return 0;
  }
  hg_bench_rambo(n, SQRT_S_GEV, POOL_EVENTS, SEED, b->pool);
  /* helicity configurations uniform over all 2^(n+2), as hegetcl-bench draws them */
  uint64_t state = SEED ^ 0x5851f42d4c957f2dull;
  for (size_t e = 0; e < POOL_EVENTS; ++e) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    b->helicity[e] = (uint32_t)(state >> 32) & ((1u << (n + 2)) - 1);
  }
  b->n = n;
  b->batch_events = 0;
  return 1;
}

/* Lays out the first events of the pool as a batch of that size (events <= POOL_EVENTS). */
static void batch_layout(batch_data *b, size_t events) {
  if (b->batch_events == events) return;
  const size_t rows = 4 * (size_t)(b->n + 2);
  for (size_t row = 0; row < rows; ++row)
    for (size_t e = 0; e < events; ++e) b->batch[row * events + e] = b->pool[row * POOL_EVENTS + e];
  b->batch_events = events;
}

/* The wall-clock time of one run of events (a power of two) through the case's mode. */
static double timed_run(const hg_serial_case *c, int mode, batch_data *b, size_t events,
                        double coupling, double me_factor) {
  const size_t chunk = events < POOL_EVENTS ? events : POOL_EVENTS;
  const double *momenta = events < POOL_EVENTS ? b->batch : b->pool;
  if (events < POOL_EVENTS) batch_layout(b, events);
  const double start = now_seconds();
  for (size_t done = 0; done < events; done += chunk) {
    if (mode == 0)
      c->summed(chunk, momenta, coupling, me_factor, b->me);
    else
      c->helicity(chunk, momenta, coupling, me_factor, b->helicity, b->me);
  }
  return now_seconds() - start;
}

/* Times one case: events double from 1 while a run takes under TARGET_SECONDS and the doubled run
 * with the repeats after it fits in the budget; the last such run is the first of RUNS, the
 * others follow while the budget lasts; the median is kept. */
static void measure(const options *o, const hg_serial_case *c, batch_data *b, result *r) {
  double coupling = 0, me_factor = 0;
  hg_serial_constants(r->n, &coupling, &me_factor);
  size_t events = 1;
  double seconds = timed_run(c, r->mode, b, events, coupling, me_factor);
  double spent = seconds;
  if (seconds > o->max_seconds) {
    r->skipped = 1;
    snprintf(r->reason, sizeof r->reason, "one event takes %.3g s, more than --max-seconds %g",
             seconds, o->max_seconds);
    return;
  }
  while (seconds < TARGET_SECONDS && spent + RUNS * 2 * seconds <= o->max_seconds &&
         events < ((size_t)1 << 40)) {
    events *= 2;
    seconds = timed_run(c, r->mode, b, events, coupling, me_factor);
    spent += seconds;
  }
  double runs[RUNS] = {seconds};
  int count = 1;
  for (; count < RUNS && spent + seconds <= o->max_seconds; ++count) {
    runs[count] = timed_run(c, r->mode, b, events, coupling, me_factor);
    spent += runs[count];
  }
  qsort(runs, (size_t)count, sizeof *runs, compare_doubles);
  r->events = events;
  r->seconds = count % 2 ? runs[count / 2] : 0.5 * (runs[count / 2 - 1] + runs[count / 2]);
  if (count < RUNS || seconds < TARGET_SECONDS)
    snprintf(r->reason, sizeof r->reason,
             "--max-seconds %g allowed %d run(s) of %zu event(s), %.3g s each", o->max_seconds,
             count, events, seconds);
}

/* ---- output ----------------------------------------------------------------------------- */

static void cpu_model(char *out, size_t size) {
  snprintf(out, size, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return;
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    const char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) != 0 || colon == NULL) continue;
    ++colon;
    while (*colon == ' ' || *colon == '\t') ++colon;
    snprintf(out, size, "%s", colon);
    out[strcspn(out, "\n")] = '\0';
    break;
  }
  fclose(f);
}

static void print_header(void) {
  printf("%-11s %3s %-6s %-8s %12s %9s %12s %13s\n", "engine", "n", "prec", "mode", "events",
         "seconds", "events/s", "ns per event");
}

static void print_result(const result *r) {
  printf("%-11s %3u %-6s %-8s ", hg_serial_engine_name(r->engine), r->n,
         precision_names[r->is_double], mode_names[r->mode]);
  if (r->skipped) {
    printf("skipped: %s\n", r->reason);
    return;
  }
  printf("%12zu %9.4f %12.4g %13.4g%s%s\n", r->events, r->seconds, (double)r->events / r->seconds,
         1e9 * r->seconds / (double)r->events, r->reason[0] ? "  " : "", r->reason);
}

/* Writes the results to path (claimed at the start, io/output_claim.h) under this run's temporary
 * name, renamed when complete; 0 with the reason in message when it cannot. */
static int write_json(const char *path, const char *cpu, const result_list *list, char *message,
                      size_t message_size) {
  char *text = NULL;
  size_t text_size = 0;
  FILE *f = open_memstream(&text, &text_size);
  if (f == NULL) {
    snprintf(message, message_size, "no memory for the JSON document");
    return 0;
  }
  fprintf(f, "{\n  \"tool\": \"hegetcl-serial-bench\",\n  \"cpu\": ");
  hg_json_write_string(f, cpu);
  fprintf(f, ",\n  \"compiler\": ");
  hg_json_write_string(f, HG_SERIAL_COMPILER);
  fprintf(f, ",\n  \"flags\": ");
  hg_json_write_string(f, HG_SERIAL_FLAGS);
  fprintf(f, ",\n  \"sqrt_s_gev\": %g,\n  \"results\": [", SQRT_S_GEV);
  for (size_t i = 0; i < list->count; ++i) {
    const result *r = &list->items[i];
    fprintf(f,
            "%s\n    {\"engine\": \"%s\", \"n\": %u, \"precision\": \"%s\", \"mode\": \"%s\", "
            "\"status\": \"%s\", \"reason\": ",
            i ? "," : "", hg_serial_engine_name(r->engine), r->n, precision_names[r->is_double],
            mode_names[r->mode], r->skipped ? "skipped" : "ok");
    hg_json_write_string(f, r->reason);
    if (r->skipped)
      fprintf(f, ", \"events\": 0, \"seconds\": null, \"events_per_s\": null}");
    else
      fprintf(f, ", \"events\": %zu, \"seconds\": %.9g, \"events_per_s\": %.9g}", r->events,
              r->seconds, (double)r->events / r->seconds);
  }
  fprintf(f, "\n  ]\n}\n");
  int ok = !ferror(f);
  if (fclose(f) != 0 || !ok) {
    snprintf(message, message_size, "no memory for the JSON document");
    ok = 0;
  }
  if (ok) ok = hg_output_write_whole(path, text, text_size, message, message_size) == 0;
  free(text);
  return ok;
}

static result *add_result(result_list *list) {
  if (list->count == list->capacity) {
    const size_t capacity = list->capacity ? 2 * list->capacity : 64;
    result *grown = realloc(list->items, capacity * sizeof *grown);
    if (grown == NULL) return NULL;
    list->items = grown;
    list->capacity = capacity;
  }
  result *r = &list->items[list->count++];
  memset(r, 0, sizeof *r);
  return r;
}

int main(int argc, char **argv) {
  options o;
  const int parsed = parse_options(argc, argv, &o);
  if (parsed != 0) return parsed < 0 ? 0 : parsed;
  char json_message[2048] = "";
  if (o.json != NULL && hg_output_claim("--json", o.json, json_message, sizeof json_message) != 0) {
    fprintf(stderr, "hegetcl-serial-bench: error: %s\n", json_message);
    return 2;
  }
  char cpu[256];
  cpu_model(cpu, sizeof cpu);
  printf(
      "hegetcl-serial-bench: one thread on %s; %s, %s; sqrt(s) = %g GeV\n"
      "events double until a run takes %.1f s (--max-seconds %g per case); median of %d runs\n\n",
      cpu, HG_SERIAL_COMPILER, HG_SERIAL_FLAGS, SQRT_S_GEV, TARGET_SECONDS, o.max_seconds, RUNS);
  print_header();
  result_list list = {0};
  batch_data b = {0};
  int rc = 0;
  for (int engine = 0; engine < HG_SERIAL_ENGINE_COUNT && rc == 0; ++engine)
    for (unsigned n = 2; n <= MAX_PHOTONS && rc == 0 && o.engines[engine]; ++n)
      for (int p = 0; p < 2 && rc == 0 && o.n_photons[n]; ++p)
        for (int mode = 0; mode < 2 && rc == 0 && o.precisions[p]; ++mode) {
          if (!o.modes[mode]) continue;
          result *r = add_result(&list);
          if (r == NULL) {
            fprintf(stderr, "hegetcl-serial-bench: error: no memory for the results\n");
            rc = 1;
            break;
          }
          r->engine = engine;
          r->n = n;
          r->is_double = p;
          r->mode = mode;
          const hg_serial_case *c = hg_serial_find(engine, n, p);
          if (c == NULL) {
            r->skipped = 1;
            snprintf(r->reason, sizeof r->reason,
                     "n = %u is beyond the %s engine's serial build (n = 2 to %u)", n,
                     hg_serial_engine_name(engine), hg_serial_max_photons(engine));
          } else if (!batch_pool(&b, n)) {
            fprintf(stderr,
                    "hegetcl-serial-bench: error: no memory for %u random points of n = %u\n",
                    POOL_EVENTS, n);
            rc = 1;
            break;
          } else {
            measure(&o, c, &b, r);
          }
          print_result(r);
          fflush(stdout);
        }
  if (o.json != NULL && !write_json(o.json, cpu, &list, json_message, sizeof json_message)) {
    fprintf(stderr, "hegetcl-serial-bench: error: writing --json: %s\n", json_message);
    rc = 1;
  }
  size_t measured = 0;
  for (size_t i = 0; i < list.count; ++i) measured += !list.items[i].skipped;
  if (rc == 0 && measured == 0) {
    fprintf(stderr,
            "hegetcl-serial-bench: error: nothing was measured: %s; change --engines, "
            "--n, --precision or --mode\n",
            list.count == 0 ? "no case matches these options"
                            : "every case was skipped, for the reasons in the table above");
    rc = 1;
  }
  hg_output_release_all();
  batch_free(&b);
  free(list.items);
  return rc;
}
