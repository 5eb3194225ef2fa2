/* SPDX-License-Identifier: MIT */
/* `hegetcl merge-lhe -o OUT IN...`: the LHE files of one run (one per MPI rank) as one file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "io/lhe_merge.h"

int hg_cli_merge_lhe_usage(FILE *out) {
  fprintf(out, "usage: hegetcl merge-lhe -o OUT IN...\n"
               "\n"
               "Merges the LHE files of one run (events.lhe.rank0, events.lhe.rank1, ...; plain\n"
               "or gzip) into OUT (gzip when it ends in .gz): the first file's header and <init>\n"
               "with <xsecinfo neve> the total, then every file's events in the order given.\n"
               "Each input must be complete and have the first's <init> block (neve aside).\n"
               "\n"
               "options:\n"
               "  -o, --output OUT         the merged file (must not be one of the inputs)\n"
               "  -h, --help               this text\n");
  return out == stderr ? 2 : 0;
}

/* Reads -o OUT and the inputs (into inputs, room for argc) and merges; the exit status. */
static int parse_and_merge(int argc, char **argv, const char **inputs) {
  const char *out_path = NULL;
  size_t n_inputs = 0;
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return hg_cli_merge_lhe_usage(stdout);
    if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "hegetcl: error: merge-lhe: %s needs the output file's name\n", arg);
        return hg_cli_merge_lhe_usage(stderr);
      }
      if (out_path != NULL) {
        fprintf(stderr, "hegetcl: error: merge-lhe: -o is given twice (%s and %s): give one\n",
                out_path, argv[i + 1]);
        return hg_cli_merge_lhe_usage(stderr);
      }
      out_path = argv[++i];
    } else if (arg[0] == '-' && arg[1] != '\0') {
      fprintf(stderr, "hegetcl: error: merge-lhe: unknown option %s\n", arg);
      return hg_cli_merge_lhe_usage(stderr);
    } else {
      inputs[n_inputs++] = arg;
    }
  }
  if (out_path == NULL || n_inputs == 0) {
    fprintf(stderr, "hegetcl: error: merge-lhe: %s\n",
            out_path == NULL ? "no output file: give -o OUT"
                             : "no input files: give the LHE files to merge after -o OUT");
    return hg_cli_merge_lhe_usage(stderr);
  }
  char message[2048];
  if (hg_lhe_merge(out_path, inputs, n_inputs, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl: error: merge-lhe: %s\n", message);
    return 1;
  }
  printf("%s\n", message);
  return 0;
}

int hg_cli_merge_lhe(int argc, char **argv) {
  const char **inputs = malloc((argc > 0 ? (size_t)argc : 1) * sizeof *inputs);
  if (inputs == NULL) {
    fprintf(stderr, "hegetcl: error: merge-lhe: no memory for %d arguments\n", argc);
    return 1;
  }
  const int status = parse_and_merge(argc, argv, inputs);
  free(inputs);
  return status;
}
