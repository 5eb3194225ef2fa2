/* SPDX-License-Identifier: MIT */
/* hegetcl-bench --write-rates: events per second and MB per second that each event format is
 * written at, through the same sink a run uses (io/event_sink.h), for made-up p p -> n photon
 * events whose numbers have full 17-digit mantissas as real ones do. Nothing runs on a device:
 * this is the cost of the output alone, which a run adds to the device's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commit.h"
#include "hegetcl/hegetcl.h"
#include "io/event_sink.h"
#include "write_rates.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of the whole process (every thread): rates per CPU second hold on a loaded
 * machine, where wall-clock rates do not */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t next(uint64_t *s) { /* xorshift64* */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}
static double uniform(uint64_t *s) { return (double)(next(s) >> 11) * 0x1.0p-53; }

/* n massless photons from two partons along the beams, momentum conserved */
static void make_event(hegetcl_event *e, unsigned n, uint64_t k, uint64_t *s) {
  memset(e, 0, sizeof *e);
  e->n_particles = n + 2;
  double sum[4] = {0, 0, 0, 0};
  for (unsigned i = 2; i < n + 1; ++i) {
    const double pt = 20.0 + 200.0 * uniform(s), eta = 5.0 * uniform(s) - 2.5;
    const double phi = 6.283185307179586 * uniform(s);
    e->p[i][1] = pt * cos(phi);
    e->p[i][2] = pt * sin(phi);
    e->p[i][3] = pt * sinh(eta);
    e->p[i][0] = pt * cosh(eta);
  }
  for (unsigned i = 2; i < n + 1; ++i)
    for (int m = 0; m < 4; ++m) sum[m] += e->p[i][m];
  /* the last photon balances pT, its pz free; the partons then carry E and pz */
  const unsigned last = n + 1;
  e->p[last][1] = -sum[1];
  e->p[last][2] = -sum[2];
  e->p[last][3] = 300.0 * uniform(s) - 150.0;
  e->p[last][0] = sqrt(sum[1] * sum[1] + sum[2] * sum[2] + e->p[last][3] * e->p[last][3]);
  const double energy = sum[0] + e->p[last][0], pz = sum[3] + e->p[last][3];
  e->p[0][0] = e->p[0][3] = 0.5 * (energy + pz);
  e->p[1][0] = 0.5 * (energy - pz);
  e->p[1][3] = -e->p[1][0];
  e->pid[0] = 2;
  e->pid[1] = -2;
  for (unsigned i = 2; i < n + 2; ++i) e->pid[i] = 22;
  for (unsigned i = 0; i < n + 2; ++i) e->status[i] = i < 2 ? -1 : 1;
  e->colour[0][0] = e->colour[1][1] = 501;
  e->x1 = e->p[0][0] / 7000.0;
  e->x2 = e->p[1][0] / 7000.0;
  e->mu_f_gev = e->mu_r_gev = 20.0;
  e->alpha_s = 0.1712019517416130;
  e->alpha_qed = 1.0 / 132.507;
  e->process_id = 1;
  e->number = k;
}

static int usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl-bench --write-rates [OPTIONS]\n"
          "  events written per second and MB/s per event format, through the sink a run uses\n"
          "  --events N       events per file (default 200000)\n"
          "  --n N            photons per event (default 5)\n"
          "  --formats LIST   endings, comma-separated (default lhe,lhe.gz,hdf5,hepmc,hepmc.gz)\n"
          "  --variations V   variation weights per event: 0 (default), or 9 scales + V-9 PDF\n"
          "                   members (V >= 9)\n"
          "  --dir DIR        where the files go (default .); they are removed afterwards\n"
          "  --json FILE      also write the results as JSON\n");
  return 2;
}

int hg_bench_write_rates(int argc, char **argv) {
  uint64_t n_events = 200000;
  unsigned n = 5, n_variations = 0;
  const char *formats = "lhe,lhe.gz,hdf5,hepmc,hepmc.gz", *dir = ".", *json = NULL;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--write-rates") == 0) continue;
    if (strcmp(a, "--help") == 0) return usage(stdout) - 2;
    if (i + 1 >= argc) return usage(stderr);
    const char *v = argv[++i];
    if (strcmp(a, "--events") == 0)
      n_events = (uint64_t)strtod(v, NULL);
    else if (strcmp(a, "--n") == 0)
      n = (unsigned)strtoul(v, NULL, 10);
    else if (strcmp(a, "--formats") == 0)
      formats = v;
    else if (strcmp(a, "--variations") == 0)
      n_variations = (unsigned)strtoul(v, NULL, 10);
    else if (strcmp(a, "--dir") == 0)
      dir = v;
    else if (strcmp(a, "--json") == 0)
      json = v;
    else
      return usage(stderr);
  }
  if (n < 2 || n + 2 > HEGETCL_EVENT_MAX_PARTICLES || n_events == 0 ||
      (n_variations > 0 && (n_variations < 9 || n_variations > HEGETCL_MAX_VARIATIONS))) {
    fprintf(stderr, "hegetcl-bench: error: --n 2..%d, --events > 0, --variations 0 or 9..%d\n",
            HEGETCL_EVENT_MAX_PARTICLES - 2, HEGETCL_MAX_VARIATIONS);
    return 2;
  }
  static hegetcl_variation_list list;
  if (n_variations > 0) {
    hegetcl_variations_add_scales(&list, 10042, 0);
    if (n_variations > 9)
      hegetcl_variations_add_pdf_set(&list, "cteq6l1", "hessian", 10042, n_variations - 9);
  }
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, n);
  c.unweighted_events = n_events;
  hegetcl_xsec_result r;
  memset(&r, 0, sizeof r);
  r.vegas.estimate = 13.438349961952584;
  r.vegas.error = 0.20340004014409842;
  r.pdf_lhapdf_id = 10042;
  r.alpha_s = 0.1712019517416130;
  char hostname[256] = "";
  gethostname(hostname, sizeof hostname - 1);
  FILE *js = json != NULL ? fopen(json, "w") : NULL;
  if (json != NULL && js == NULL) {
    fprintf(stderr, "hegetcl-bench: error: cannot write %s\n", json);
    return 1;
  }
  if (js != NULL)
    fprintf(js,
            "{\n  \"commit\": \"%s\",\n  \"host\": \"%s\",\n  \"cpus\": %ld,\n  \"photons\": %u,\n"
            "  \"events\": %llu,\n  \"variations\": %u,\n  \"results\": [",
            HG_BENCH_COMMIT, hostname, sysconf(_SC_NPROCESSORS_ONLN), n,
            (unsigned long long)n_events, n_variations);
  printf("hegetcl-bench --write-rates: %llu events of p p -> %u photons, %u variation weights, "
         "commit %s, %s (%ld CPUs)\n",
         (unsigned long long)n_events, n, n_variations, HG_BENCH_COMMIT, hostname,
         sysconf(_SC_NPROCESSORS_ONLN));
  printf("%-10s %12s %10s %10s %12s %14s\n", "format", "events/s", "MB/s", "MB", "bytes/event",
         "events/CPU-s");
  double *ratios = calloc(HEGETCL_MAX_VARIATIONS, sizeof *ratios);
  int rc = 0, first = 1;
  char list_copy[256];
  snprintf(list_copy, sizeof list_copy, "%s", formats);
  for (char *save = NULL, *f = strtok_r(list_copy, ",", &save); f != NULL && rc == 0;
       f = strtok_r(NULL, ",", &save)) {
    char path[4096], message[2048];
    snprintf(path, sizeof path, "%s/hegetcl-write-rates.%s", dir, f);
    hg_event_sink sink = {.lhe = {.config = &c,
                                  .run_card = "n: 5\n",
                                  .comment = "hegetcl-bench --write-rates",
                                  .variations = n_variations > 0 ? &list : NULL}};
    if (hg_event_format_of("--formats", path, &sink.format, message, sizeof message) != 0) {
      fprintf(stderr, "hegetcl-bench: error: %s\n", message);
      rc = 2;
      break;
    }
    /* the events are made before the clock starts: only writing is timed */
    const uint64_t pool = 4096;
    hegetcl_event *events = malloc(pool * sizeof *events);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (uint64_t k = 0; k < pool; ++k) make_event(&events[k], n, k, &seed);
    const double start = now(), cpu_start = cpu_now();
    hegetcl_status status = hg_event_sink_open(&sink, path, message, sizeof message) == 0
                                ? hg_event_sink_begin(&r, &sink)
                                : HEGETCL_ERR_IO;
    for (uint64_t k = 0; k < n_events && status == HEGETCL_OK; ++k) {
      hegetcl_event *e = &events[k % pool];
      e->number = k;
      if (n_variations > 0) {
        for (unsigned v = 0; v < list.n; ++v) ratios[v] = 0.9 + 0.2 * uniform(&seed);
        e->n_variations = list.n;
        e->variations = ratios;
      }
      status = hg_event_sink_write(e, &sink);
    }
    const int closed = hg_event_sink_close(&sink, status == HEGETCL_OK, message, sizeof message);
    const double seconds = now() - start, cpu_seconds = cpu_now() - cpu_start;
    free(events);
    if (status != HEGETCL_OK || closed != 0) {
      fprintf(stderr, "hegetcl-bench: error: writing %s: %s\n", path,
              status != HEGETCL_OK ? sink.lhe.message : message);
      rc = 1;
      break;
    }
    struct stat st;
    const double bytes = stat(path, &st) == 0 ? (double)st.st_size : 0.0;
    remove(path);
    const double rate = (double)n_events / seconds, mb = bytes / 1e6;
    printf("%-10s %12.4g %10.4g %10.4g %12.4g %14.4g\n", f, rate, mb / seconds, mb,
           bytes / (double)n_events, (double)n_events / cpu_seconds);
    if (js != NULL)
      fprintf(js,
              "%s\n    {\"format\": \"%s\", \"events_per_second\": %.6g, \"mb_per_second\": %.6g, "
              "\"megabytes\": %.6g, \"seconds\": %.6g, \"cpu_seconds\": %.6g}",
              first ? "" : ",", f, rate, mb / seconds, mb, seconds, cpu_seconds);
    first = 0;
    fflush(stdout);
  }
  free(ratios);
  if (js != NULL) {
    fprintf(js, "\n  ]\n}\n");
    fclose(js);
  }
  return rc;
}
