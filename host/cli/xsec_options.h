/* SPDX-License-Identifier: MIT */
/* `hegetcl xsec`'s options: one table read from the command line and from YAML run cards (the
 * card first, flags after it), and written back as the run card every output carries. */
#ifndef HG_CLI_XSEC_OPTIONS_H
#define HG_CLI_XSEC_OPTIONS_H

#include <stdio.h>

#include "hegetcl/xsec.h"
#include "io/xsec_reference.h"

#define HG_CLI_PATH 4096

typedef struct {
  hegetcl_xsec_config config;
  char device[256];
  char json[HG_CLI_PATH], yoda[HG_CLI_PATH], csv[HG_CLI_PATH], lhe[HG_CLI_PATH];
  char card[HG_CLI_PATH];       /* the run card read, "" for none */
  char checkpoint[HG_CLI_PATH]; /* as given: "" for the default, "none" for no checkpoint */
  uint64_t checkpoint_every;    /* unweighted events between checkpoints */
  char resume[HG_CLI_PATH];     /* the checkpoint resumed, "" for a fresh run */
  int resuming;                 /* resumed holds what the checkpoint says */
  hegetcl_xsec_checkpoint_info resumed;
  int keep_checkpoint;           /* a finished run keeps its checkpoint */
  int no_variation_weights;      /* the event file carries the nominal weight alone */
  /* --scale-variations (0, 7, 9) and --pdf-variations (0, 1) of a process run; -1: the default
   * (7 and on when events are written, else none; config.scale_variations and pdf_variations
   * hold the outcome) */
  int scale_variations, pdf_variations;
  int quiet, have_n;
  char compare[HG_CLI_PATH];   /* --compare as given, "" for none */
  hg_xsec_reference reference; /* what it says, read before the run */
} hg_xsec_options;

/* Defaults, then the run card named by --card or, with --resume FILE, the card the checkpoint
 * holds, then every other flag. Returns 0, 1 for --help (usage printed), or 2 after printing a
 * message naming the option (and the card's file and line) and the fix; a resumed run whose
 * flags change a setting of the checkpoint's card (any but device, quiet and keep-checkpoint), or whose
 * checkpoint cannot be read or is finished, is refused so. Free o with hg_xsec_options_free
 * whatever the return. */
int hg_xsec_options_parse(int argc, char **argv, hg_xsec_options *o);
void hg_xsec_options_free(hg_xsec_options *o);
/* The same, with the message of a failure written into message (message_size bytes, without the
 * "hegetcl: error: " prefix) instead of stderr; --help is not for this one. Thread-safe. */
int hg_xsec_options_parse_into(int argc, char **argv, hg_xsec_options *o, char *message,
                               size_t message_size);

/* The effective options as a YAML run card: `hegetcl xsec --card FILE` repeats the run. */
void hg_xsec_options_write_card(FILE *out, const hg_xsec_options *o);
/* The same into a string (malloc'ed; NULL without memory). */
char *hg_xsec_options_card_text(const hg_xsec_options *o);

int hg_cli_xsec_usage(FILE *out);

#endif
