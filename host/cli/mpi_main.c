/* SPDX-License-Identifier: MIT */
/* hegetcl-mpi: `hegetcl xsec` shared by MPI ranks, e.g. `mpirun -np 8 hegetcl-mpi xsec --n 8
 * --device per-rank ...` (docs/user-guide.md, "Several GPUs and machines"). A rank that fails
 * aborts the job, so no rank waits for it. */
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "cli/commands.h"
#include "mpi/mpi_team.h"

int main(int argc, char **argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    fprintf(stderr, "hegetcl-mpi: error: MPI_Init failed: start it with mpirun or srun\n");
    return 1;
  }
  int skip = 1; /* `hegetcl-mpi xsec OPTIONS` or `hegetcl-mpi OPTIONS` */
  if (argc > 1 && strcmp(argv[1], "xsec") == 0) skip = 2;
  hegetcl_team team;
  char message[512];
  int rc = 0;
  if (hg_mpi_team_open(&team, message, sizeof message) != 0) {
    fprintf(stderr, "hegetcl-mpi: error: %s\n", message);
    rc = 1;
  } else {
    rc = hg_cli_xsec_team(argc - skip, argv + skip, &team);
    if (rc != 0 && team.size > 1) {
      fprintf(stderr, "hegetcl-mpi: rank %d of %d failed (exit status %d): ending every rank\n",
              team.rank, team.size, rc);
      fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, rc);
    }
    hg_mpi_team_free(&team);
  }
  MPI_Finalize();
  return rc;
}
