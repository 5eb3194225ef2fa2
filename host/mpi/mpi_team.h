/* SPDX-License-Identifier: MIT */
/* A hegetcl_team over MPI_COMM_WORLD (docs/user-guide.md, "Several GPUs and machines"): the rank,
 * the number of ranks, the rank among those of its node, and the sum over ranks with
 * MPI_Allreduce. */
#ifndef HG_MPI_TEAM_H
#define HG_MPI_TEAM_H

#include "hegetcl/xsec.h"

/* Fills team from MPI_COMM_WORLD (MPI initialised); returns non-zero with message on failure.
 * Free with hg_mpi_team_free. */
int hg_mpi_team_open(hegetcl_team *team, char *message, size_t message_size);
void hg_mpi_team_free(hegetcl_team *team);

#endif
