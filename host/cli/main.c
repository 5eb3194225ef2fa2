/* SPDX-License-Identifier: MIT */
/* The hegetcl command: list devices, evaluate |M|^2 at reference points, show generated code,
 * integrate cross sections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude/diagrams_codegen.h"
#include "cli/commands.h"
#include "hegetcl/hegetcl.h"
#include "process/codegen.h"
#include "process/diagrams.h"

static int usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl COMMAND [OPTIONS]\n"
          "\n"
          "       hegetcl --version\n"
          "\n"
          "commands:\n"
          "  devices                  list the OpenCL platforms and devices\n"
          "  me FILE...               evaluate |M|^2 of any tree-level QCD/QED process\n"
          "                           (--process \"g g > t t~ g\"; default u ubar -> n photons)\n"
          "                           at the points of MadGraph reference files with every\n"
          "                           engine and check them against the reference\n"
          "  diagrams N               print the diagram engine's generated OpenCL C for N photons\n"
          "                           (from N = %d on, every part of the split form)\n"
          "  xsec --n N [OPTIONS]     sigma(p p -> N photons) with VEGAS on the device,\n"
          "                           histograms and unweighted events (hegetcl xsec --help\n"
          "                           lists its options)\n"
          "  merge-lhe -o OUT IN...   merge the LHE files of one run (one per MPI rank) into\n"
          "                           OUT (hegetcl merge-lhe --help says more)\n"
          "\n"
          "hegetcl COMMAND --help describes each command and its options; docs/user-guide.md\n"
          "describes them all.\n",
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
static int devices_usage(FILE *out) {
  fprintf(out, "usage: hegetcl devices\n"
               "\n"
               "Lists the OpenCL platforms and devices as P:D (for --device), with name, platform,\n"
               "versions, fp64 support, compute units and memory.\n");
  return out == stderr ? 2 : 0;
}

static int diagrams_usage(FILE *out) {
  fprintf(out,
          "usage: hegetcl diagrams N\n"
          "       hegetcl diagrams --process \"PROCESS\"\n"
          "\n"
          "Prints the OpenCL C that the diagrams engine generates for u ubar -> N photons,\n"
          "N = 2 to 8 (from N = %d on, every part of the split form), or for a process\n"
          "written as MadGraph users write it (\"u d~ > e+ ve g\", coupling orders such as\n"
          "QED<=2 after the particles), with its diagram and colour-flow counts.\n",
          HG_DIAGRAMS_SPLIT_MIN_PHOTONS);
  return out == stderr ? 2 : 0;
}

static int is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

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

static int cmd_diagrams_process(const char *text) {
  hg_process_spec spec;
  hg_diagram_set set;
  char error[1024];
  if (hg_process_parse(text, &spec, error, sizeof error) != 0 ||
      hg_diagrams_build(&spec, 0, &set, error, sizeof error) != 0) {
    fprintf(stderr, "hegetcl: error: diagrams --process: %s\n", error);
    return 2;
  }
  char *source = hg_process_source(&set);
  hg_diagrams_free(&set);
  if (source == NULL) return fail("generating diagram code", HEGETCL_ERR_NO_MEMORY, "");
  fputs(source, stdout);
  free(source);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return usage(stdout);
  if (strcmp(argv[1], "--version") == 0) {
    printf("hegetcl %s\n", hegetcl_version());
    return 0;
  }
  if (strcmp(argv[1], "devices") == 0) {
    if (argc == 2) return cmd_devices();
    return devices_usage(argc == 3 && is_help(argv[2]) ? stdout : stderr);
  }
  if (strcmp(argv[1], "me") == 0) return hg_cli_me(argc - 2, argv + 2);
  if (strcmp(argv[1], "diagrams") == 0) {
    if (argc == 3 && !is_help(argv[2])) return cmd_diagrams(argv[2]);
    if (argc == 4 && strcmp(argv[2], "--process") == 0) return cmd_diagrams_process(argv[3]);
    return diagrams_usage(argc == 3 ? stdout : stderr);
  }
  if (strcmp(argv[1], "xsec") == 0) return hg_cli_xsec(argc - 2, argv + 2);
  if (strcmp(argv[1], "merge-lhe") == 0) return hg_cli_merge_lhe(argc - 2, argv + 2);
  fprintf(stderr, "hegetcl: error: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
