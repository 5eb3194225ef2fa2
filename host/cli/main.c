/* SPDX-License-Identifier: MIT */
/* The hegetcl command: list devices, evaluate |M|^2 at reference points, show generated code,
 * integrate cross sections. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/diagrams_codegen.h"
#include "cli/commands.h"
#include "hegetcl/hegetcl.h"
#include "io/mg5_points.h"

static int usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl COMMAND [OPTIONS]\n"
          "\n"
          "       hegetcl --version\n"
          "\n"
          "commands:\n"
          "  devices                  list the OpenCL platforms and devices\n"
          "  me FILE...               evaluate u ubar -> n photons |M|^2 at the points of\n"
          "                           MadGraph reference files (../shared/refs/mg5 format) with\n"
          "                           every engine and compare\n"
          "  diagrams N               print the diagram engine's generated OpenCL C for N photons\n"
          "                           (from N = %d on, every part of the split form)\n"
          "  xsec --n N [OPTIONS]     sigma(p p -> N photons) with VEGAS on the device\n"
          "                           (hegetcl xsec --help lists its options)\n"
          "  merge-lhe -o OUT IN...   merge the LHE files of one run (one per MPI rank) into\n"
          "                           OUT (hegetcl merge-lhe --help says more)\n"
          "\n"
          "options (me):\n"
          "  --device SPEC            auto (default: a GPU, else the CPU), gpu, cpu, P:D, or a\n"
          "                           part of a device name; HEGETCL_DEVICE sets the default\n"
          "  --precision P            double (default) or float\n"
          "  --engine E               permutation, unrolled, diagrams, recursive or all (default)\n"
          "  --alpha A                fine-structure constant (default 1/132.507)\n"
          "  --charge Q               quark charge in units of e (default 2/3)\n",
          HG_DIAGRAMS_SPLIT_MIN_PHOTONS);
  return out == stderr ? 2 : 0;
}

static int fail(const char *what, hegetcl_status status, const char *message) {
  fprintf(stderr, "hegetcl: error: %s: %s (%s)\n", what,
          message[0] ? message : hegetcl_status_meaning(status), hegetcl_status_name(status));
  return 1;
}

/* "auto" fell back to a device that is not a GPU: said on stderr, so that a slow run on the CPU
 * is never a surprise. */
static int cmd_devices(void) {
  hegetcl_device_info infos[64];
  size_t count = 0;
  char message[1024];
  const hegetcl_status status = hegetcl_device_list(infos, 64, &count, message, sizeof message);
  if (status != HEGETCL_OK) return fail("listing devices", status, message);
  for (size_t i = 0; i < count && i < 64; ++i)
    printf("%u:%u  %s  [%s; %s; %s; fp64 %s; %u compute units; %.1f GiB, buffers up to %.1f "
           "GiB; %s]\n",
           infos[i].platform_index, infos[i].device_index, infos[i].name, infos[i].platform,
           infos[i].device_version, infos[i].opencl_c_version, infos[i].has_fp64 ? "yes" : "no",
           infos[i].compute_units, (double)infos[i].global_memory_bytes / 1073741824.0,
           (double)infos[i].max_buffer_bytes / 1073741824.0, infos[i].is_gpu ? "GPU" : "not a GPU");
  return 0;
}

static int cmd_diagrams(const char *arg) {
  char *end = NULL;
  const long n = strtol(arg, &end, 10);
  if (end == arg || *end != '\0' || n < 2 || n > 8) {
    fprintf(stderr, "hegetcl: error: diagrams N: N = '%s' must be a whole number from 2 to 8\n",
            arg);
    return 2;
  }
  char *source = NULL;
  const hegetcl_status status = hg_diagrams_source((unsigned)n, &source);
  if (status != HEGETCL_OK) return fail("generating diagram code", status, "");
  fputs(source, stdout);
  free(source);
  return 0;
}

typedef struct {
  const char *device;
  int all_engines;
  hegetcl_engine engine;
  hegetcl_precision precision;
  double alpha, charge;
} me_options;

static int compare_file(hegetcl_context *ctx, const me_options *o, const char *path) {
  hg_mg5_points points;
  char message[1024];
  hegetcl_status status = hg_mg5_points_read(path, &points, message, sizeof message);
  if (status != HEGETCL_OK) return fail("reading reference points", status, message);
  int rc = 0;
  double *me = malloc(points.n_points * sizeof *me);
  if (me == NULL) {
    hg_mg5_points_free(&points);
    return fail("evaluating", HEGETCL_ERR_NO_MEMORY, "no memory");
  }
  for (int engine = 0; engine < HEGETCL_ENGINE_COUNT && rc == 0; ++engine) {
    if (!o->all_engines && engine != (int)o->engine) continue;
    hegetcl_process process;
    hegetcl_process_defaults(&process, points.n_photons);
    process.engine = (hegetcl_engine)engine;
    process.precision = o->precision;
    process.alpha = o->alpha;
    process.quark_charge = o->charge;
    hegetcl_amplitude *amp = NULL;
    status = hegetcl_amplitude_create(ctx, &process, &amp);
    if (status == HEGETCL_OK)
      status = hegetcl_amplitude_evaluate(amp, points.n_points, points.momenta, me);
    if (status != HEGETCL_OK) {
      rc = fail("evaluating", status, hegetcl_last_error(ctx));
    } else {
      double worst = 0;
      for (size_t e = 0; e < points.n_points; ++e) {
        const double rel = fabs(me[e] / points.me[e] - 1);
        if (rel > worst) worst = rel;
        printf("n=%u %-11s %-6s point %zu  |M|^2 %.16e  MadGraph %.16e  rel.diff %.1e\n",
               points.n_photons, hegetcl_engine_name(process.engine),
               hegetcl_precision_name(process.precision), e + 1, me[e], points.me[e], rel);
      }
      printf("n=%u %-11s %-6s largest relative difference to MadGraph: %.2e over %zu points\n",
             points.n_photons, hegetcl_engine_name(process.engine),
             hegetcl_precision_name(process.precision), worst, points.n_points);
    }
    hegetcl_amplitude_destroy(amp);
  }
  free(me);
  hg_mg5_points_free(&points);
  return rc;
}

static int cmd_me(int argc, char **argv) {
  me_options o = {NULL, 1, HEGETCL_ENGINE_RECURSIVE, HEGETCL_PRECISION_DOUBLE, 1.0 / 132.507,
                  2.0 / 3.0};
  int first_file = argc;
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (arg[0] != '-') {
      first_file = i;
      break;
    }
    if (value == NULL) {
      fprintf(stderr, "hegetcl: error: %s needs a value\n", arg);
      return 2;
    }
    ++i;
    char *end = NULL;
    if (strcmp(arg, "--device") == 0) {
      o.device = value;
    } else if (strcmp(arg, "--precision") == 0) {
      if (hegetcl_precision_parse(value, &o.precision) != HEGETCL_OK) {
        fprintf(stderr, "hegetcl: error: --precision %s: use double or float\n", value);
        return 2;
      }
    } else if (strcmp(arg, "--engine") == 0) {
      o.all_engines = strcmp(value, "all") == 0;
      if (!o.all_engines && hegetcl_engine_parse(value, &o.engine) != HEGETCL_OK) {
        fprintf(stderr,
                "hegetcl: error: --engine %s: use permutation, unrolled, diagrams, recursive or "
                "all\n",
                value);
        return 2;
      }
    } else if (strcmp(arg, "--alpha") == 0 || strcmp(arg, "--charge") == 0) {
      const double x = strtod(value, &end);
      if (end == value || *end != '\0') {
        fprintf(stderr, "hegetcl: error: %s %s: not a number\n", arg, value);
        return 2;
      }
      *(strcmp(arg, "--alpha") == 0 ? &o.alpha : &o.charge) = x;
    } else {
      fprintf(stderr, "hegetcl: error: unknown option %s (hegetcl --help lists them)\n", arg);
      return 2;
    }
  }
  if (first_file >= argc) {
    fprintf(stderr, "hegetcl: error: me needs at least one reference file\n");
    return 2;
  }
  for (int i = first_file; i < argc; ++i)
    if (argv[i][0] == '-') {
      fprintf(stderr,
              "hegetcl: error: me: %s after the reference file %s: options come first (hegetcl "
              "me [OPTIONS] FILE...)\n",
              argv[i], argv[first_file]);
      return 2;
    }
  hegetcl_context *ctx = NULL;
  hegetcl_status status = hegetcl_context_create(o.device, &ctx);
  if (status != HEGETCL_OK) {
    const int rc = fail("choosing the OpenCL device", status, hegetcl_last_error(ctx));
    hegetcl_context_destroy(ctx);
    return rc;
  }
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  if (info.auto_without_gpu) hg_cli_note_auto_without_gpu(&info);
  printf("device: %s (%s; %s; driver %s)\n", info.name, info.platform, info.device_version,
         info.driver_version);
  int rc = 0;
  for (int i = first_file; i < argc && rc == 0; ++i) rc = compare_file(ctx, &o, argv[i]);
  hegetcl_context_destroy(ctx);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return usage(stdout);
  if (strcmp(argv[1], "--version") == 0) {
    printf("hegetcl %s\n", hegetcl_version());
    return 0;
  }
  if (strcmp(argv[1], "devices") == 0) return cmd_devices();
  if (strcmp(argv[1], "me") == 0) return cmd_me(argc - 2, argv + 2);
  if (strcmp(argv[1], "diagrams") == 0 && argc == 3) return cmd_diagrams(argv[2]);
  if (strcmp(argv[1], "xsec") == 0) return hg_cli_xsec(argc - 2, argv + 2);
  if (strcmp(argv[1], "merge-lhe") == 0) return hg_cli_merge_lhe(argc - 2, argv + 2);
  fprintf(stderr, "hegetcl: error: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
