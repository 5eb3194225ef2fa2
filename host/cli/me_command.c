/* SPDX-License-Identifier: MIT */
/* `hegetcl me [OPTIONS] FILE...`: |M|^2 at the points of MadGraph reference files with one or
 * every engine, checked against the reference: parse options, read points, check their momenta,
 * evaluate, compare, summarise. The exit status says whether every value agreed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "hegetcl/hegetcl.h"
#include "io/mg5_points.h"
#include "process/colour_ordered.h"
#include "process/flow_recursion.h"
#include "process/process_spec.h"

/* The defaults --tolerance states: a relative difference to the reference. Double precision
 * agrees with MadGraph to about 1e-13 on the shipped points; float to about 1e-6. */
#define HG_ME_TOLERANCE_DOUBLE 1e-10
#define HG_ME_TOLERANCE_FLOAT 1e-4
/* --momentum-tolerance: on-shell and conservation, relative to E^2 and sqrt(s) */
#define HG_ME_MOMENTUM_TOLERANCE 1e-9

typedef struct {
  const char *device;
  int all_engines;
  hegetcl_engine engine;
  hegetcl_precision precision;
  double alpha, charge;
  double tolerance; /* < 0: the precision's default */
  double momentum_tolerance;
  const char *process; /* NULL: q q~ > n photons, n from the file */
  double alpha_s, top_mass, top_width;
  hegetcl_width_scheme width_scheme;
  int n_params; /* --param NAME=VALUE, applied in order after the options above */
  const char *param_names[32];
  double param_values[32];
  int complex_mass;
} me_options;

/* The model parameters of a run: the options, then every --param in order. 0, or 1 after a
 * message. */
static int apply_params(const me_options *o, hegetcl_process *p) {
  p->alpha = o->alpha;
  p->alpha_s = o->alpha_s;
  p->top_mass = o->top_mass;
  p->top_width = o->top_width;
  p->width_scheme = o->width_scheme;
  p->complex_mass = o->complex_mass;
  for (int k = 0; k < o->n_params; ++k) {
    char message[512];
    if (hegetcl_process_set_param(p, o->param_names[k], o->param_values[k], message,
                                  sizeof message) != HEGETCL_OK) {
      fprintf(stderr, "hegetcl: error: --param %s=%g: %s\n", o->param_names[k], o->param_values[k],
              message);
      return 1;
    }
  }
  return 0;
}

int hg_cli_me_usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl me [OPTIONS] FILE...\n"
          "\n"
          "Evaluates |M|^2 at the points of MadGraph reference files ('POINT i sqrt_s', a\n"
          "line 'E px py pz' per particle in the process's order, 'ME value') with every\n"
          "engine that takes the process (or one) and compares each value with the file's.\n"
          "The process: any tree-level QCD/QED process --process names (\"g g > t t~ g\",\n"
          "\"u u~ > d d~ g\"; particles g a d u s c b t e- mu- and their antiparticles),\n"
          "or, without --process, u ubar -> n photons with n from the file.\n"
          "\n"
          "Exit status: 0 when every value is finite and within --tolerance of the reference\n"
          "and every point's momenta are physical; 1 when a value differs by more, is NaN or\n"
          "infinite, a point's momenta are not conserved, off the mass shell or have E <= 0,\n"
          "or a file cannot be read; 2 for a usage error.\n"
          "\n"
          "options (before the files):\n"
          "  --device SPEC            auto (default: a GPU, else the CPU), gpu, cpu, P:D, or a\n"
          "                           part of a device name; HEGETCL_DEVICE sets the default\n"
          "  --precision P            double (default) or float\n"
          "  --engine E               permutation, unrolled, diagrams, recursive or all (default)\n"
          "  --alpha A                fine-structure constant (default 1/132.507)\n"
          "  --charge Q               quark charge in units of e (default 2/3)\n"
          "  --process P              the process, as MadGraph users write it: \"g g > t t~ g\"\n"
          "                           (docs/user-guide.md, Processes); its particles in the\n"
          "                           file's order\n"
          "  --alpha-s A              strong coupling, fixed (default 0.118)\n"
          "  --top-mass M, --top-width W  GeV (default 173, 1.4915)\n"
          "  --param NAME=VALUE       a model parameter by its MadGraph param_card name\n"
          "                           (repeatable): aEWM1 Gf aS MZ MT MH MTA WZ WW WT WH ymt\n"
          "                           ymtau; defaults MadGraph's sm restrict_default; the\n"
          "                           parameters used are printed with the run\n"
          "  --complex-mass           complex-mass scheme for the Z and W (no value)\n"
          "  --width-scheme S         resonant (default: widths only in s-channel propagators\n"
          "                           that can resonate; gauge invariant) or all (MadGraph's\n"
          "                           standalone output: every propagator of the particle)\n"
          "  --tolerance X            largest relative difference |value/reference - 1| allowed\n"
          "                           (default %g in double, %g in float)\n"
          "  --momentum-tolerance X   relative tolerance of the momentum checks: |E^2 - p^2| <=\n"
          "                           X E^2 per particle, |sum in - sum out| <= X sqrt(s) per\n"
          "                           component (default %g)\n"
          "  -h, --help               this text\n",
          HG_ME_TOLERANCE_DOUBLE, HG_ME_TOLERANCE_FLOAT, HG_ME_MOMENTUM_TOLERANCE);
  return out == stderr ? 2 : 0;
}

static int fail(const char *what, hegetcl_status status, const char *message) {
  fprintf(stderr, "hegetcl: error: %s: %s (%s)\n", what,
          message[0] ? message : hegetcl_status_meaning(status), hegetcl_status_name(status));
  return 1;
}

/* A number > 0 for a tolerance, or > -inf for --alpha, --charge; 0 or 2 after a message. */
static int parse_number(const char *option, const char *value, int positive, double *out) {
  char *end = NULL;
  const double x = strtod(value, &end);
  if (end == value || *end != '\0' || !isfinite(x) || (positive && !(x > 0))) {
    fprintf(stderr, "hegetcl: error: me: %s %s: %s\n", option, value,
            positive ? "must be a finite number above 0" : "not a finite number");
    return 2;
  }
  *out = x;
  return 0;
}

/* Reads the options into o; *first_file the index of the first file. 0, or the exit status. */
static int parse_options(int argc, char **argv, me_options *o, int *first_file) {
  *first_file = argc;
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return hg_cli_me_usage(stdout) - 1;
    if (arg[0] != '-') {
      *first_file = i;
      break;
    }
    if (strcmp(arg, "--complex-mass") == 0) {
      o->complex_mass = 1;
      continue;
    }
    const char *value = i + 1 < argc ? argv[++i] : NULL;
    if (value == NULL) {
      fprintf(stderr, "hegetcl: error: me: %s needs a value (hegetcl me --help)\n", arg);
      return 2;
    }
    int rc = 0;
    if (strcmp(arg, "--device") == 0) {
      o->device = value;
    } else if (strcmp(arg, "--precision") == 0) {
      if (hegetcl_precision_parse(value, &o->precision) != HEGETCL_OK) {
        fprintf(stderr, "hegetcl: error: --precision %s: use double or float\n", value);
        rc = 2;
      }
    } else if (strcmp(arg, "--engine") == 0) {
      o->all_engines = strcmp(value, "all") == 0;
      if (!o->all_engines && hegetcl_engine_parse(value, &o->engine) != HEGETCL_OK) {
        fprintf(stderr,
                "hegetcl: error: --engine %s: use permutation, unrolled, diagrams, recursive or "
                "all\n",
                value);
        rc = 2;
      }
    } else if (strcmp(arg, "--alpha") == 0) {
      rc = parse_number(arg, value, 0, &o->alpha);
    } else if (strcmp(arg, "--charge") == 0) {
      rc = parse_number(arg, value, 0, &o->charge);
    } else if (strcmp(arg, "--process") == 0) {
      hegetcl_process check;
      char message[1024];
      if (hegetcl_process_from_text(&check, value, message, sizeof message) != HEGETCL_OK) {
        fprintf(stderr, "hegetcl: error: --process: %s\n", message);
        return 2;
      }
      o->process = value;
    } else if (strcmp(arg, "--alpha-s") == 0) {
      rc = parse_number(arg, value, 1, &o->alpha_s);
    } else if (strcmp(arg, "--top-mass") == 0) {
      rc = parse_number(arg, value, 1, &o->top_mass);
    } else if (strcmp(arg, "--top-width") == 0) {
      rc = parse_number(arg, value, 0, &o->top_width);
      if (rc == 0 && !(o->top_width >= 0)) {
        fprintf(stderr, "hegetcl: error: --top-width %s: must be >= 0 (GeV)\n", value);
        rc = 2;
      }
    } else if (strcmp(arg, "--width-scheme") == 0) {
      if (strcmp(value, "resonant") == 0) {
        o->width_scheme = HEGETCL_WIDTH_RESONANT;
      } else if (strcmp(value, "all") == 0) {
        o->width_scheme = HEGETCL_WIDTH_ALL;
      } else {
        fprintf(stderr, "hegetcl: error: --width-scheme %s: use resonant or all\n", value);
        rc = 2;
      }
    } else if (strcmp(arg, "--param") == 0) {
      const char *eq = strchr(value, '=');
      char name[64];
      char *end = NULL;
      const double v = eq ? strtod(eq + 1, &end) : 0;
      if (eq == NULL || eq == value || (size_t)(eq - value) >= sizeof name || end == eq + 1 ||
          *end != '\0') {
        fprintf(stderr,
                "hegetcl: error: --param %s: write NAME=VALUE with a param_card name and a "
                "number, e.g. --param MZ=91.2\n",
                value);
        return 2;
      }
      memcpy(name, value, (size_t)(eq - value));
      name[eq - value] = '\0';
      hegetcl_process check;
      hegetcl_process_defaults(&check, 2);
      char message[512];
      if (hegetcl_process_set_param(&check, name, v, message, sizeof message) != HEGETCL_OK) {
        fprintf(stderr, "hegetcl: error: --param %s: %s\n", value, message);
        return 2;
      }
      if (o->n_params == 32) {
        fprintf(stderr, "hegetcl: error: --param %s: at most 32 --param options\n", value);
        return 2;
      }
      /* the name as the table spells it, which outlives argv's copy */
      for (unsigned k = 0; hegetcl_process_param_name(k) != NULL; ++k)
        if (strcmp(hegetcl_process_param_name(k), name) == 0)
          o->param_names[o->n_params] = hegetcl_process_param_name(k);
      o->param_values[o->n_params++] = v;
    } else if (strcmp(arg, "--tolerance") == 0) {
      rc = parse_number(arg, value, 1, &o->tolerance);
    } else if (strcmp(arg, "--momentum-tolerance") == 0) {
      rc = parse_number(arg, value, 1, &o->momentum_tolerance);
    } else {
      fprintf(stderr, "hegetcl: error: me: unknown option %s (hegetcl me --help lists them)\n",
              arg);
      rc = 2;
    }
    if (rc != 0) return rc;
  }
  if (*first_file >= argc) {
    fprintf(stderr, "hegetcl: error: me needs at least one reference file (hegetcl me --help)\n");
    return 2;
  }
  for (int i = *first_file; i < argc; ++i)
    if (argv[i][0] == '-') {
      fprintf(stderr,
              "hegetcl: error: me: %s after the reference file %s: options come first (hegetcl "
              "me [OPTIONS] FILE...)\n",
              argv[i], argv[*first_file]);
      return 2;
    }
  if (o->tolerance < 0)
    o->tolerance =
        o->precision == HEGETCL_PRECISION_FLOAT ? HG_ME_TOLERANCE_FLOAT : HG_ME_TOLERANCE_DOUBLE;
  return 0;
}

/* Every point's momenta physical? Names each point that is not; the number of such points. */
static size_t check_momenta(const hg_mg5_points *points, const char *path, const double *masses,
                            double tolerance) {
  size_t bad = 0;
  for (size_t e = 0; e < points->n_points; ++e) {
    char message[512];
    if (hg_mg5_points_check_momenta(points, e, masses, tolerance, message, sizeof message) != 0) {
      fprintf(stderr, "hegetcl: error: %s: %s\n", path, message);
      ++bad;
    }
  }
  return bad;
}

/* One engine's values against the reference: the per-point lines and the summary line; the
 * number of points outside the tolerance or not finite. */
static size_t compare(const me_options *o, const hegetcl_process *process, const char *label,
                      const hg_mg5_points *points, const double *me) {
  double worst = 0;
  size_t worst_point = 0, nonfinite = 0, outside = 0;
  const char *engine = hegetcl_engine_name(process->engine);
  const char *precision = hegetcl_precision_name(process->precision);
  for (size_t e = 0; e < points->n_points; ++e) {
    const double ref = points->me[e];
    /* a zero reference: only zero agrees */
    const double rel = ref != 0 ? fabs(me[e] / ref - 1) : (me[e] == 0 ? 0 : INFINITY);
    const int finite = isfinite(me[e]);
    if (!finite) ++nonfinite;
    if (!finite || !(rel <= o->tolerance)) ++outside;
    if (finite && rel > worst) {
      worst = rel;
      worst_point = e + 1;
    }
    printf("%s %-11s %-6s point %zu  |M|^2 %.16e  MadGraph %.16e  rel.diff %.1e%s\n", label, engine,
           precision, e + 1, me[e], ref, rel,
           !finite               ? "  [NOT FINITE]"
           : rel <= o->tolerance ? ""
                                 : "  [ABOVE TOLERANCE]");
  }
  printf("%s %-11s %-6s largest relative difference to MadGraph: %.2e", label, engine, precision,
         worst);
  if (worst_point > 0) printf(" (point %zu)", worst_point);
  printf(" over %zu points, %zu not finite; tolerance %.1e: %s\n", points->n_points, nonfinite,
         o->tolerance, outside == 0 ? "ok" : "FAILED");
  if (outside > 0)
    fprintf(stderr,
            "hegetcl: error: %s %s %s: %zu of %zu values %s the reference by more than the "
            "tolerance %.1e%s\n",
            label, engine, precision, outside, points->n_points,
            nonfinite == outside ? "are not finite, unlike" : "differ from", o->tolerance,
            nonfinite > 0 && nonfinite < outside ? " or are not finite" : "");
  return outside;
}

/* One file with every engine asked for: 0 when every value agreed, else 1. */
static int compare_file(hegetcl_context *ctx, const me_options *o, const char *path) {
  hg_mg5_points points;
  char message[1024];
  hegetcl_status status = hg_mg5_points_read(path, &points, message, sizeof message);
  if (status != HEGETCL_OK) return fail("reading reference points", status, message);
  double *me = malloc(points.n_points * sizeof *me);
  /* the first engine's values, to compare the next ones with (a general process: both engines) */
  double *first = malloc(points.n_points * sizeof *first);
  const char *first_engine = NULL;
  if (me == NULL || first == NULL) {
    free(first);
    hg_mg5_points_free(&points);
    return fail("evaluating", HEGETCL_ERR_NO_MEMORY, "no memory");
  }
  char label[200];
  hegetcl_process given;
  if (o->process != NULL) {
    hegetcl_process_from_text(&given, o->process, message, sizeof message);
    snprintf(label, sizeof label, "%s:", o->process);
    if (hegetcl_process_particles(&given) != points.n_particles) {
      fprintf(stderr,
              "hegetcl: error: %s holds points of %u particles, but --process \"%s\" has %u: "
              "give the process of the file (its header names it)\n",
              path, points.n_particles, o->process, hegetcl_process_particles(&given));
      free(me);
      free(first);
      hg_mg5_points_free(&points);
      return 1;
    }
  } else {
    hegetcl_process_defaults(&given, points.n_photons);
    snprintf(label, sizeof label, "n=%u", points.n_photons);
  }
  double masses[32] = {0};
  if (apply_params(o, &given) != 0) {
    free(me);
    free(first);
    hg_mg5_points_free(&points);
    return 1;
  }
  for (unsigned i = 0; i < points.n_particles && i < 32; ++i)
    masses[i] = hegetcl_process_mass(&given, i);
  int rc = check_momenta(&points, path, masses, o->momentum_tolerance) > 0;
  /* a process other than the photon family: "all" means the diagrams engine and, where it takes
   * the process, the recursive engine */
  int general = 0, recursive_too = 0;
  if (o->process != NULL) {
    hg_process_spec spec;
    char error[8];
    unsigned n_photons = 0;
    double charge = 0;
    general = hg_process_parse(o->process, &spec, error, sizeof error) == 0 &&
              !hg_process_is_photon_family(&spec, &n_photons, &charge);
    recursive_too =
        general && (hg_colour_ordered_supports(&spec) || hg_flow_recursion_supports(&spec));
  }
  for (int engine = 0; engine < HEGETCL_ENGINE_COUNT; ++engine) {
    if (!o->all_engines && engine != (int)o->engine) continue;
    if (o->all_engines && general && engine != HEGETCL_ENGINE_DIAGRAMS &&
        !(recursive_too && engine == HEGETCL_ENGINE_RECURSIVE))
      continue;
    hegetcl_process process = given;
    process.engine = (hegetcl_engine)engine;
    process.precision = o->precision;
    if (o->process == NULL) process.quark_charge = o->charge;
    hegetcl_amplitude *amp = NULL;
    status = hegetcl_amplitude_create(ctx, &process, &amp);
    if (status == HEGETCL_OK)
      status = hegetcl_amplitude_evaluate(amp, points.n_points, points.momenta, me);
    if (status != HEGETCL_OK) {
      fail("evaluating", status, hegetcl_last_error(ctx));
      rc = 1;
      /* the values were read back: the comparison counts those that are not finite */
      if (status == HEGETCL_ERR_NONFINITE) {
        compare(o, &process, label, &points, me);
        status = HEGETCL_OK; /* the next engine is still worth asking */
      }
    } else {
      if (compare(o, &process, label, &points, me) > 0) rc = 1;
      if (general && first_engine == NULL) {
        memcpy(first, me, points.n_points * sizeof *me);
        first_engine = hegetcl_engine_name(process.engine);
      } else if (general) {
        double worst = 0;
        for (size_t e = 0; e < points.n_points; ++e) {
          const double rel = first[e] != 0 ? fabs(me[e] / first[e] - 1) : fabs(me[e]);
          worst = rel > worst || !isfinite(rel) ? rel : worst;
        }
        printf("%s %s against %s, %s: largest relative difference %.2e over %zu points\n", label,
               hegetcl_engine_name(process.engine), first_engine,
               hegetcl_precision_name(process.precision), worst, points.n_points);
      }
    }
    hegetcl_amplitude_destroy(amp);
    if (status != HEGETCL_OK) break;
  }
  free(me);
  free(first);
  hg_mg5_points_free(&points);
  return rc;
}

int hg_cli_me(int argc, char **argv) {
  me_options o = {NULL,
                  1,
                  HEGETCL_ENGINE_RECURSIVE,
                  HEGETCL_PRECISION_DOUBLE,
                  1.0 / 132.507,
                  2.0 / 3.0,
                  -1,
                  HG_ME_MOMENTUM_TOLERANCE,
                  NULL,
                  0.118,
                  173.0,
                  1.4915,
                  HEGETCL_WIDTH_RESONANT,
                  0,
                  {NULL},
                  {0},
                  0};
  int first_file = 0;
  const int parsed = parse_options(argc, argv, &o, &first_file);
  if (parsed != 0) return parsed < 0 ? 0 : parsed;
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
  {
    /* the model parameters every file is evaluated with, on one line */
    hegetcl_process used;
    hegetcl_process_defaults(&used, 2);
    if (apply_params(&o, &used) != 0) {
      hegetcl_context_destroy(ctx);
      return 1;
    }
    char text[2048];
    hegetcl_process_describe_params(&used, text, sizeof text);
    printf("parameters:");
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"))
      printf(" %s;", line);
    printf("%s\n", o.complex_mass ? " complex-mass scheme" : "");
  }
  int rc = 0, failed_files = 0;
  for (int i = first_file; i < argc; ++i) {
    const int one = compare_file(ctx, &o, argv[i]);
    failed_files += one != 0;
    rc |= one;
  }
  if (argc - first_file > 1)
    printf("%d of %d files agreed with their reference within the tolerance %.1e\n",
           argc - first_file - failed_files, argc - first_file, o.tolerance);
  hegetcl_context_destroy(ctx);
  return rc;
}
