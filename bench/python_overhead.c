/* SPDX-License-Identifier: MIT */
/* The C half of bench/python_overhead.py: times hegetcl_amplitude_evaluate_events, the public C
 * function the Python binding calls (bindings/python/_core.c), on one batch of seeded RAMBO points,
 * and writes the points and |M|^2 to files so that the Python half evaluates the same momenta and
 * compares the values bit for bit. Program build and the first call are timed apart from the
 * repeats. Links the static library, as the Python extension does. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commit.h"
#include "hegetcl/hegetcl.h"
#include "io/output_claim.h"
#include "io/output_file.h"
#include "layout.h"
#include "rambo.h"

#define MAX_REPEATS 100
#define MAX_PARTICLES 10

typedef struct {
  const char *device, *process, *engine, *precision, *momenta_path, *me_path, *json_path;
  size_t events;
  int repeats;
  double sqrt_s;
  uint64_t seed;
} options;

static int usage(FILE *out) {
  fprintf(out,
          "usage: python-overhead-c --process TEXT --momenta FILE --me FILE --json FILE "
          "[OPTIONS]\n"
          "\n"
          "Times hegetcl_amplitude_evaluate_events (the call bindings/python/_core.c makes)\n"
          "on one batch of seeded RAMBO points; writes the points (event-major doubles, numpy's (events,\n"
          "particles, 4)) to --momenta, |M|^2 to --me, and the timings to --json.\n"
          "\n"
          "options:\n"
          "  --device SPEC      auto (default), gpu, cpu, P:D or part of a device name\n"
          "  --engine E         recursive, diagrams, ... (default: the process's own, as\n"
          "                     hegetcl_process_from_text sets it)\n"
          "  --precision P      double (default) or float\n"
          "  --events N         batch size (default 1000000)\n"
          "  --repeats R        timed calls after the first, 1 to %d (default 20)\n"
          "  --sqrt-s GEV       collision energy of the points (default 1000)\n"
          "  --seed S           RAMBO seed (default 20261124)\n",
          MAX_REPEATS);
  return out == stderr ? 2 : 0;
}

static int parse(int argc, char **argv, options *o) {
  *o = (options){NULL, NULL, NULL, "double", NULL, NULL, NULL, 1000000, 20, 1000.0, 20261124};
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0) return usage(stdout) + 100;
    if (i + 1 >= argc) {
      fprintf(stderr, "python-overhead-c: error: %s needs a value\n", arg);
      return 2;
    }
    const char *value = argv[++i];
    char *end = NULL;
    errno = 0;
    if (strcmp(arg, "--device") == 0)
      o->device = value;
    else if (strcmp(arg, "--process") == 0)
      o->process = value;
    else if (strcmp(arg, "--engine") == 0)
      o->engine = value;
    else if (strcmp(arg, "--precision") == 0)
      o->precision = value;
    else if (strcmp(arg, "--momenta") == 0)
      o->momenta_path = value;
    else if (strcmp(arg, "--me") == 0)
      o->me_path = value;
    else if (strcmp(arg, "--json") == 0)
      o->json_path = value;
    else if (strcmp(arg, "--events") == 0) {
      const unsigned long long n = strtoull(value, &end, 10);
      if (errno || *end || n == 0 || n > 0xffffffffull) {
        fprintf(stderr, "python-overhead-c: error: --events %s: give 1 to 4294967295\n", value);
        return 2;
      }
      o->events = (size_t)n;
    } else if (strcmp(arg, "--repeats") == 0) {
      const long r = strtol(value, &end, 10);
      if (errno || *end || r < 1 || r > MAX_REPEATS) {
        fprintf(stderr, "python-overhead-c: error: --repeats %s: give 1 to %d\n", value,
                MAX_REPEATS);
        return 2;
      }
      o->repeats = (int)r;
    } else if (strcmp(arg, "--sqrt-s") == 0) {
      o->sqrt_s = strtod(value, &end);
      if (errno || *end || !(o->sqrt_s > 0)) {
        fprintf(stderr, "python-overhead-c: error: --sqrt-s %s: give a positive energy in GeV\n",
                value);
        return 2;
      }
    } else if (strcmp(arg, "--seed") == 0) {
      o->seed = strtoull(value, &end, 10);
      if (errno || *end) {
        fprintf(stderr, "python-overhead-c: error: --seed %s: give an unsigned integer\n", value);
        return 2;
      }
    } else {
      fprintf(stderr, "python-overhead-c: error: unknown option %s\n", arg);
      return usage(stderr);
    }
  }
  if (o->process == NULL || o->momenta_path == NULL || o->me_path == NULL || o->json_path == NULL) {
    fprintf(stderr, "python-overhead-c: error: --process, --momenta, --me and --json are needed\n");
    return usage(stderr);
  }
  return 0;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Writes count doubles as the whole of path (claimed at the start: io/output_file.h). */
static int write_doubles(const char *path, const double *values, size_t count) {
  char message[2048];
  if (hg_output_write_whole(path, values, count * sizeof *values, message, sizeof message) != 0) {
    fprintf(stderr, "python-overhead-c: error: %s\n", message);
    return 1;
  }
  return 0;
}

/* A JSON string: the characters a device name or a build option holds, quotes escaped. */
static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') fputc('\\', out);
    if ((unsigned char)*s >= 0x20) fputc(*s, out);
  }
  fputc('"', out);
}

/* The points: RAMBO (bench/rambo.c) in the structure-of-arrays layout, massive when the process
 * has a massive particle, turned into the event-major layout the Python binding passes. */
static double *event_major_points(const hegetcl_process *p, const options *o) {
  const unsigned n = hegetcl_process_particles(p);
  double masses[MAX_PARTICLES] = {0};
  int massive = 0;
  for (unsigned i = 2; i < n; ++i) {
    masses[i - 2] = hegetcl_process_mass(p, i);
    massive |= masses[i - 2] > 0;
  }
  double *soa = malloc(sizeof(double) * 4 * n * o->events);
  double *rows = malloc(sizeof(double) * 4 * n * o->events);
  if (soa == NULL || rows == NULL) {
    free(soa);
    free(rows);
    return NULL;
  }
  if (massive)
    hg_bench_rambo_massive(n - 2, masses, o->sqrt_s, o->events, o->seed, soa);
  else
    hg_bench_rambo(n - 2, o->sqrt_s, o->events, o->seed, soa);
  for (size_t e = 0; e < o->events; ++e)
    for (unsigned i = 0; i < n; ++i)
      for (unsigned c = 0; c < 4; ++c)
        rows[(e * n + i) * 4 + c] = soa[HG_SOA_INDEX(c, i, n, o->events, e)];
  free(soa);
  return rows;
}

int main(int argc, char **argv) {
  options o;
  const int parsed = parse(argc, argv, &o);
  if (parsed != 0) return parsed >= 100 ? parsed - 100 : parsed;
  /* the outputs are claimed before any work (io/output_claim.h) */
  {
    char message[2048];
    const char *const what[] = {"--momenta", "--me", "--json"};
    const char *const paths[] = {o.momenta_path, o.me_path, o.json_path};
    for (int k = 0; k < 3; ++k)
      if (hg_output_claim(what[k], paths[k], message, sizeof message) != 0) {
        fprintf(stderr, "python-overhead-c: error: %s\n", message);
        hg_output_release_all();
        return 2;
      }
  }

  hegetcl_process process;
  char message[1024] = "";
  hegetcl_status status = hegetcl_process_from_text(&process, o.process, message, sizeof message);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "python-overhead-c: error: %s (%s)\n", message, hegetcl_status_name(status));
    return 2;
  }
  if (hegetcl_precision_parse(o.precision, &process.precision) != HEGETCL_OK) {
    fprintf(stderr, "python-overhead-c: error: --precision %s: use double or float\n", o.precision);
    return 2;
  }
  if (o.engine != NULL && hegetcl_engine_parse(o.engine, &process.engine) != HEGETCL_OK) {
    fprintf(stderr,
            "python-overhead-c: error: --engine %s: use permutation, unrolled, diagrams or "
            "recursive\n",
            o.engine);
    return 2;
  }
  const unsigned n = hegetcl_process_particles(&process);
  if (n > MAX_PARTICLES) {
    fprintf(stderr, "python-overhead-c: error: %s has %u particles; at most %d here\n", o.process,
            n, MAX_PARTICLES);
    return 2;
  }

  const double t_points = now_seconds();
  double *momenta = event_major_points(&process, &o);
  double *me = malloc(sizeof(double) * o.events);
  if (momenta == NULL || me == NULL) {
    fprintf(stderr, "python-overhead-c: error: no memory for %zu events\n", o.events);
    return 1;
  }
  const double points_s = now_seconds() - t_points;

  hegetcl_context *ctx = NULL;
  hegetcl_amplitude *amp = NULL;
  const double t_context = now_seconds();
  status = hegetcl_context_create(o.device, &ctx);
  const double context_s = now_seconds() - t_context;
  const double t_build = now_seconds();
  if (status == HEGETCL_OK) status = hegetcl_amplitude_create(ctx, &process, &amp);
  const double build_s = now_seconds() - t_build;
  /* the first call allocates the device buffers: timed apart, as the warm-up */
  const double t_first = now_seconds();
  if (status == HEGETCL_OK)
    status = hegetcl_amplitude_evaluate_events(amp, o.events, momenta, NULL, me);
  const double first_s = now_seconds() - t_first;
  double seconds[MAX_REPEATS];
  for (int r = 0; r < o.repeats && status == HEGETCL_OK; ++r) {
    const double t = now_seconds();
    status = hegetcl_amplitude_evaluate_events(amp, o.events, momenta, NULL, me);
    seconds[r] = now_seconds() - t;
  }
  if (status != HEGETCL_OK) {
    fprintf(stderr, "python-overhead-c: error: %s (%s)\n", hegetcl_last_error(ctx),
            hegetcl_status_name(status));
    hegetcl_amplitude_destroy(amp);
    hegetcl_context_destroy(ctx);
    return 1;
  }
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);

  int failed = write_doubles(o.momenta_path, momenta, (size_t)4 * n * o.events);
  failed |= write_doubles(o.me_path, me, o.events);
  char *json_text = NULL;
  size_t json_size = 0;
  FILE *json = open_memstream(&json_text, &json_size);
  if (json == NULL) {
    fprintf(stderr, "python-overhead-c: error: no memory for %s\n", o.json_path);
    failed = 1;
  } else {
    fprintf(json, "{\"commit\": ");
    json_string(json, HG_BENCH_COMMIT);
    fprintf(json, ", \"process\": ");
    json_string(json, o.process);
    fprintf(json, ", \"engine\": \"%s\", \"precision\": \"%s\", \"particles\": %u",
            hegetcl_engine_name(process.engine), hegetcl_precision_name(process.precision), n);
    fprintf(json, ", \"events\": %zu, \"sqrt_s_gev\": %.17g, \"seed\": %llu", o.events, o.sqrt_s,
            (unsigned long long)o.seed);
    fprintf(json, ", \"platform\": ");
    json_string(json, info.platform);
    fprintf(json, ", \"device\": ");
    json_string(json, info.name);
    fprintf(json, ", \"driver\": ");
    json_string(json, info.driver_version);
    fprintf(json, ", \"opencl_c_version\": ");
    json_string(json, info.opencl_c_version);
    fprintf(json, ", \"build_options\": ");
    json_string(json, hegetcl_amplitude_build_options(amp));
    fprintf(json,
            ", \"points_seconds\": %.9g, \"context_seconds\": %.9g, \"build_seconds\": %.9g"
            ", \"first_call_seconds\": %.9g, \"call_seconds\": [",
            points_s, context_s, build_s, first_s);
    for (int r = 0; r < o.repeats; ++r) fprintf(json, "%s%.9g", r ? ", " : "", seconds[r]);
    fprintf(json, "]}\n");
    if (fclose(json) != 0) failed = 1;
    char message[2048];
    if (!failed &&
        hg_output_write_whole(o.json_path, json_text, json_size, message, sizeof message) != 0) {
      fprintf(stderr, "python-overhead-c: error: %s\n", message);
      failed = 1;
    }
    free(json_text);
  }
  hg_output_release_all();
  printf("python-overhead-c: %s, %s, %zu events on %s: build %.3f s, first call %.4f s, %d "
         "calls\n",
         o.process, hegetcl_precision_name(process.precision), o.events, info.name, build_s,
         first_s, o.repeats);
  hegetcl_amplitude_destroy(amp);
  hegetcl_context_destroy(ctx);
  free(momenta);
  free(me);
  return failed;
}
