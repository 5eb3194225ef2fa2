/* SPDX-License-Identifier: MIT */
/* The hegetcl command's subcommands that live in their own files. */
#ifndef HG_CLI_COMMANDS_H
#define HG_CLI_COMMANDS_H

#include <stdio.h>

#include "hegetcl/device.h"
#include "hegetcl/xsec.h"

/* `hegetcl xsec`: returns the exit status (0, 1 for a failed run, 2 for a usage error). */
int hg_cli_xsec(int argc, char **argv);
/* The same, as one of a team's processes (hegetcl-mpi): rank 0 prints and writes the outputs,
 * every rank writes its share of the events, which rank 0 merges into the event file. */
int hg_cli_xsec_team(int argc, char **argv, const hegetcl_team *team);
int hg_cli_xsec_usage(FILE *out);

/* `hegetcl merge-lhe -o OUT IN...`: returns the exit status (0, 1 for a failed merge, 2 for a
 * usage error). */
int hg_cli_merge_lhe(int argc, char **argv);
int hg_cli_merge_lhe_usage(FILE *out);

/* `hegetcl me [OPTIONS] FILE...`: returns the exit status (0 when every value agrees with the
 * reference within the tolerance, 1 when one does not or a check fails, 2 for a usage error). */
int hg_cli_me(int argc, char **argv);
int hg_cli_me_usage(FILE *out);

/* Says on stderr that --device auto found no GPU and runs on info's device (a CPU). */
void hg_cli_note_auto_without_gpu(const hegetcl_device_info *info);

#endif
