/* SPDX-License-Identifier: MIT */
/* `hegetcl xsec`: options, per-iteration progress, the result line and the JSON record. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "commit.h"
#include "hegetcl/hegetcl.h"
#include "hegetcl/xsec.h"
#include "io/json_writer.h"

int hg_cli_xsec_usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl xsec --n N [OPTIONS]\n"
          "  sigma(p p -> N photons) through q qbar at LO, integrated with VEGAS on the device.\n"
          "  Defaults: the HEGET paper's set-up (14 TeV, CTEQ6L1, mu_F = 20 GeV, pT > 20 GeV,\n"
          "  |eta| < 2.5, Delta R > 0.4, alpha = 1/132.507, u ubar).\n"
          "\n"
          "  --n N                   photons, 2..12 (recursive engine; 2..8 for the others)\n"
          "  --orientation O         both (default: the quark from either proton, the p p cross\n"
          "                          section) or u-first (the quark from proton 1 only, as the\n"
          "                          paper's table and MadGraph's `u u~ > n a`: half of both)\n"
          "  --engine E              recursive (default), permutation, unrolled, diagrams\n"
          "  --precision P           double (default) or float (|M|^2 only; phase space, PDFs\n"
          "                          and sums stay double)\n"
          "  --helicity H            summed (default) or sampled (one configuration per event)\n"
          "  --phase-space M         collider (default: pT, eta, phi per photon) or rambo\n"
          "  --device SPEC           auto (a GPU, else the CPU), gpu, cpu, P:D or a name part\n"
          "  --seed S                Philox key (default 1): the same seed gives the same events\n"
          "                          on every device and batch size\n"
          "  --target-error R        stop at this relative error (default 0.002)\n"
          "  --max-events N          combined events at most (default 1e9)\n"
          "  --events N              events per iteration (default 1e6)\n"
          "  --min-iterations N      combined iterations at least (default 3)\n"
          "  --max-iterations N      combined iterations at most (default 100)\n"
          "  --adapt-iterations N    grid-training iterations, discarded (default 5)\n"
          "  --adapt-events N        events per training iteration (default 2e5)\n"
          "  --vegas-bins N          VEGAS bins per dimension, 2..255 (default 64)\n"
          "  --vegas-alpha A         grid damping exponent (default 1.5; 0 keeps the grid\n"
          "                          uniform: plain Monte Carlo over the phase-space map)\n"
          "  --batch N               events per device launch (default 1048576)\n"
          "  --sqrt-s E              collider energy in GeV (default 14000)\n"
          "  --scale MU              factorisation scale in GeV (default 20)\n"
          "  --pt-min PT             photon pT cut in GeV (default 20)\n"
          "  --eta-max ETA           photon |eta| cut (default 2.5)\n"
          "  --dr-min DR             photon pair Delta R cut (default 0.4)\n"
          "  --pdf SET               LHAPDF set name or directory (default cteq6l1), found in\n"
          "                          LHAPDF_DATA_PATH (bash setup.sh installs it)\n"
          "  --pdf-member M          set member (default 0)\n"
          "  --alpha A               fine-structure constant (default 1/132.507)\n"
          "  --charge Q              quark charge in units of e (default 2/3)\n"
          "  --json FILE             write the inputs, device, iterations and result as JSON\n"
          "  --quiet                 print the result line only\n");
  return out == stderr ? 2 : 0;
}

/* A whole number >= min written as an integer or in e-notation ("1e6"). */
static int parse_count(const char *opt, const char *value, double min, double max, double *out) {
  char *end = NULL;
  errno = 0;
  const double x = strtod(value, &end);
  if (end == value || *end != '\0' || errno != 0 || !(x >= min) || !(x <= max) || x != floor(x)) {
    fprintf(stderr, "hegetcl: error: %s %s: must be a whole number from %.0f to %.0f\n", opt, value,
            min, max);
    return 0;
  }
  *out = x;
  return 1;
}

/* A seed: any 64-bit whole number in decimal digits, or e-notation ("1e6") up to 2^53. */
static int parse_seed(const char *value, uint64_t *out) {
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
  fprintf(stderr,
          "hegetcl: error: --seed %s: must be a whole number from 0 to 18446744073709551615 "
          "(in e-notation up to 2^53)\n",
          value);
  return 0;
}

static int parse_real(const char *opt, const char *value, double *out) {
  char *end = NULL;
  errno = 0;
  const double x = strtod(value, &end);
  if (end == value || *end != '\0' || errno != 0 || !isfinite(x)) {
    fprintf(stderr, "hegetcl: error: %s %s: not a finite number\n", opt, value);
    return 0;
  }
  *out = x;
  return 1;
}

typedef struct {
  int quiet;
  hegetcl_vegas_iteration *its;
  size_t n_its, cap_its;
} progress_state;

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
  if (p->quiet) return;
  const double passed = 100.0 * (double)it->events_nonzero / (double)it->events;
  if (it->adapting)
    printf("iteration %3u  adapting   %9llu events (%5.1f%% in cuts)  %.5e +- %.2e fb  %6.2f s\n",
           it->index, (unsigned long long)it->events, passed, it->estimate, it->error, it->seconds);
  else
    printf("iteration %3u  %9llu events (%5.1f%% in cuts)  %.5e +- %.2e fb   combined %.6e +- "
           "%.2e fb (%.3f%%)  chi2/dof %.2f  %6.2f s\n",
           it->index, (unsigned long long)it->events, passed, it->estimate, it->error, it->combined,
           it->combined_error, 100.0 * it->combined_error / fabs(it->combined), it->chi2_per_dof,
           it->seconds);
  fflush(stdout);
}

static void write_json(FILE *f, const hegetcl_xsec_config *c, const hegetcl_device_info *info,
                       const hegetcl_xsec_result *r, const progress_state *p) {
  hg_json j;
  hg_json_begin(&j, f);
  hg_json_object(&j, NULL);
  hg_json_string(&j, "program", "hegetcl xsec");
  hg_json_string(&j, "commit", HG_COMMIT);
  hg_json_object(&j, "process");
  char text[128];
  snprintf(text, sizeof text, "p p -> %u a (q qbar, q = PDG %d)", c->process.n_photons,
           c->quark_pid);
  hg_json_string(&j, "name", text);
  hg_json_uint(&j, "n_photons", c->process.n_photons);
  hg_json_int(&j, "quark_pid", c->quark_pid);
  hg_json_string(&j, "orientation", hegetcl_orientation_name(c->orientation));
  hg_json_string(&j, "orientation_meaning",
                 c->orientation == HEGETCL_ORIENTATION_BOTH
                     ? "the quark from either proton (p p cross section)"
                     : "the quark from proton 1 and the antiquark from proton 2 only");
  hg_json_number(&j, "alpha", c->process.alpha);
  hg_json_number(&j, "quark_charge", c->process.quark_charge);
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
  hg_json_uint(&j, "iterations", r->vegas.iterations);
  hg_json_uint(&j, "events", r->vegas.events);
  hg_json_uint(&j, "events_including_adaptation", r->vegas.events_total);
  hg_json_uint(&j, "events_nonzero", r->vegas.events_nonzero);
  hg_json_bool(&j, "reached_target", r->vegas.reached_target);
  hg_json_number(&j, "integration_seconds", r->vegas.wall_seconds);
  hg_json_number(&j, "build_seconds", r->build_seconds);
  hg_json_end_object(&j);
  hg_json_end_object(&j);
}

/* Writes the JSON under a temporary name and renames it when complete. */
static int save_json(const char *path, const hegetcl_xsec_config *c,
                     const hegetcl_device_info *info, const hegetcl_xsec_result *r,
                     const progress_state *p) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (f == NULL) {
    fprintf(stderr, "hegetcl: error: cannot write %s: %s\n", tmp, strerror(errno));
    return 1;
  }
  write_json(f, c, info, r, p);
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "hegetcl: error: cannot write %s: %s\n", path, strerror(errno));
    remove(tmp);
    return 1;
  }
  return 0;
}

int hg_cli_xsec(int argc, char **argv) {
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 0);
  const char *device = NULL, *json = NULL;
  progress_state p = {0};
  double v = 0.0;
  int have_n = 0;
  for (int i = 0; i < argc; ++i) {
    const char *opt = argv[i];
    if (strcmp(opt, "--quiet") == 0) {
      p.quiet = 1;
      continue;
    }
    if (strcmp(opt, "--help") == 0) return hg_cli_xsec_usage(stdout);
    if (i + 1 >= argc) {
      fprintf(stderr, "hegetcl: error: %s needs a value (hegetcl xsec --help lists options)\n",
              opt);
      return 2;
    }
    const char *val = argv[++i];
    int ok = 1;
    if (strcmp(opt, "--n") == 0) {
      ok = parse_count(opt, val, 2, HEGETCL_MAX_XSEC_PHOTONS, &v);
      c.process.n_photons = (unsigned)v;
      have_n = ok;
    } else if (strcmp(opt, "--engine") == 0) {
      ok = hegetcl_engine_parse(val, &c.process.engine) == HEGETCL_OK;
      if (!ok)
        fprintf(stderr,
                "hegetcl: error: --engine %s: use recursive, permutation, unrolled or diagrams\n",
                val);
    } else if (strcmp(opt, "--precision") == 0) {
      ok = hegetcl_precision_parse(val, &c.process.precision) == HEGETCL_OK;
      if (!ok) fprintf(stderr, "hegetcl: error: --precision %s: use double or float\n", val);
    } else if (strcmp(opt, "--helicity") == 0) {
      ok = hegetcl_helicity_mode_parse(val, &c.helicity) == HEGETCL_OK;
      if (!ok) fprintf(stderr, "hegetcl: error: --helicity %s: use summed or sampled\n", val);
    } else if (strcmp(opt, "--phase-space") == 0) {
      ok = hegetcl_phase_space_parse(val, &c.phase_space) == HEGETCL_OK;
      if (!ok) fprintf(stderr, "hegetcl: error: --phase-space %s: use collider or rambo\n", val);
    } else if (strcmp(opt, "--orientation") == 0) {
      ok = hegetcl_orientation_parse(val, &c.orientation) == HEGETCL_OK;
      if (!ok) fprintf(stderr, "hegetcl: error: --orientation %s: use both or u-first\n", val);
    } else if (strcmp(opt, "--device") == 0) {
      device = val;
    } else if (strcmp(opt, "--json") == 0) {
      json = val;
    } else if (strcmp(opt, "--pdf") == 0) {
      ok = strlen(val) < sizeof c.pdf_set;
      if (ok)
        snprintf(c.pdf_set, sizeof c.pdf_set, "%s", val);
      else
        fprintf(stderr, "hegetcl: error: --pdf: the name is longer than %zu characters\n",
                sizeof c.pdf_set - 1);
    } else if (strcmp(opt, "--pdf-member") == 0) {
      ok = parse_count(opt, val, 0, 100000, &v);
      c.pdf_member = (int)v;
    } else if (strcmp(opt, "--seed") == 0) {
      ok = parse_seed(val, &c.vegas.seed);
    } else if (strcmp(opt, "--target-error") == 0) {
      ok = parse_real(opt, val, &c.vegas.target_rel_error);
    } else if (strcmp(opt, "--max-events") == 0) {
      ok = parse_count(opt, val, 2, 1e15, &v);
      c.vegas.max_events = (uint64_t)v;
    } else if (strcmp(opt, "--events") == 0) {
      ok = parse_count(opt, val, 2, 1e13, &v);
      c.vegas.events_per_iteration = (uint64_t)v;
    } else if (strcmp(opt, "--max-iterations") == 0) {
      ok = parse_count(opt, val, 1, 100000, &v);
      c.vegas.max_iterations = (unsigned)v;
    } else if (strcmp(opt, "--min-iterations") == 0) {
      ok = parse_count(opt, val, 1, 100000, &v);
      c.vegas.min_iterations = (unsigned)v;
    } else if (strcmp(opt, "--adapt-iterations") == 0) {
      ok = parse_count(opt, val, 0, 100000, &v);
      c.vegas.adapt_iterations = (unsigned)v;
    } else if (strcmp(opt, "--adapt-events") == 0) {
      ok = parse_count(opt, val, 2, 1e13, &v);
      c.vegas.adapt_events = (uint64_t)v;
    } else if (strcmp(opt, "--vegas-bins") == 0) {
      ok = parse_count(opt, val, 2, 255, &v);
      c.vegas.bins = (unsigned)v;
    } else if (strcmp(opt, "--vegas-alpha") == 0) {
      ok = parse_real(opt, val, &c.vegas.alpha);
    } else if (strcmp(opt, "--batch") == 0) {
      ok = parse_count(opt, val, 128, 2147483647.0, &v);
      c.vegas.batch_size = (size_t)v;
    } else if (strcmp(opt, "--sqrt-s") == 0) {
      ok = parse_real(opt, val, &c.sqrt_s_gev);
    } else if (strcmp(opt, "--scale") == 0) {
      ok = parse_real(opt, val, &c.mu_f_gev);
    } else if (strcmp(opt, "--pt-min") == 0) {
      ok = parse_real(opt, val, &c.pt_min_gev);
    } else if (strcmp(opt, "--eta-max") == 0) {
      ok = parse_real(opt, val, &c.eta_max);
    } else if (strcmp(opt, "--dr-min") == 0) {
      ok = parse_real(opt, val, &c.delta_r_min);
    } else if (strcmp(opt, "--alpha") == 0) {
      ok = parse_real(opt, val, &c.process.alpha);
    } else if (strcmp(opt, "--charge") == 0) {
      ok = parse_real(opt, val, &c.process.quark_charge);
    } else {
      fprintf(stderr, "hegetcl: error: unknown option %s (hegetcl xsec --help lists them)\n", opt);
      return 2;
    }
    if (!ok) return 2;
  }
  if (!have_n) {
    fprintf(stderr, "hegetcl: error: xsec needs --n N, the number of photons (2..%d)\n",
            HEGETCL_MAX_XSEC_PHOTONS);
    return 2;
  }
  hegetcl_context *ctx = NULL;
  hegetcl_status status = hegetcl_context_create(device, &ctx);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "hegetcl: error: choosing the OpenCL device: %s\n", hegetcl_last_error(ctx));
    hegetcl_context_destroy(ctx);
    return 1;
  }
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  if (!p.quiet)
    printf("hegetcl xsec: p p -> %u photons via u ubar (%s), sqrt(s) = %g GeV, %s, mu_F = %g GeV,\n"
           "  cuts pT > %g GeV, |eta| < %g, dR > %g; %s engine, %s, helicities %s, %s phase "
           "space, seed %llu\n  device: %s (%s; driver %s)\n",
           c.process.n_photons,
           c.orientation == HEGETCL_ORIENTATION_BOTH ? "quark from either proton"
                                                     : "quark from proton 1 only",
           c.sqrt_s_gev, c.pdf_set, c.mu_f_gev, c.pt_min_gev, c.eta_max, c.delta_r_min,
           hegetcl_engine_name(c.process.engine), hegetcl_precision_name(c.process.precision),
           hegetcl_helicity_mode_name(c.helicity), hegetcl_phase_space_name(c.phase_space),
           (unsigned long long)c.vegas.seed, info.name, info.platform, info.driver_version);
  fflush(stdout);
  hegetcl_xsec_result r;
  status = hegetcl_xsec_run(ctx, &c, on_iteration, &p, &r);
  int rc = 0;
  if (status != HEGETCL_OK) {
    fprintf(stderr, "hegetcl: error: %s (%s)\n", hegetcl_last_error(ctx),
            hegetcl_status_name(status));
    rc = 1;
  } else {
    printf("sigma(p p -> %u a, %s) = %.6e +- %.2e fb  (%.3f%%, chi2/dof %.2f, %u iterations, "
           "%llu events + %llu adapting, %.2f s integrating, %.2f s building, %s)%s\n",
           c.process.n_photons, hegetcl_orientation_name(c.orientation), r.vegas.estimate,
           r.vegas.error, 100.0 * r.vegas.error / fabs(r.vegas.estimate), r.vegas.chi2_per_dof,
           r.vegas.iterations, (unsigned long long)r.vegas.events,
           (unsigned long long)(r.vegas.events_total - r.vegas.events), r.vegas.wall_seconds,
           r.build_seconds, info.name,
           r.vegas.reached_target ? "" : "  [target error NOT reached: raise --max-events]");
    if (json != NULL) rc = save_json(json, &c, &info, &r, &p);
  }
  free(p.its);
  hegetcl_context_destroy(ctx);
  return rc;
}
