/* SPDX-License-Identifier: MIT */
/* The hegetcl command's subcommands that live in their own files. */
#ifndef HG_CLI_COMMANDS_H
#define HG_CLI_COMMANDS_H

#include <stdio.h>

/* `hegetcl xsec`: returns the exit status (0, 1 for a failed run, 2 for a usage error). */
int hg_cli_xsec(int argc, char **argv);
int hg_cli_xsec_usage(FILE *out);

#endif
