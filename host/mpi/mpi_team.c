/* SPDX-License-Identifier: MIT */
/* hegetcl_team through MPI: MPI_Allreduce(MPI_SUM) in place, node-local ranks by
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "mpi/mpi_team.h"

static void describe(int code, char *message, size_t size) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) snprintf(text, sizeof text, "?");
  snprintf(message, size, "MPI error %d: %s", code, text);
}

/* count doubles in chunks that fit MPI's int counts. */
static int allreduce_sum(void *user, double *values, size_t count, char *message, size_t size) {
  MPI_Comm comm = *(MPI_Comm *)user;
  for (size_t done = 0; done < count;) {
    const size_t chunk = count - done < (size_t)INT_MAX ? count - done : (size_t)INT_MAX;
    const int code =
        MPI_Allreduce(MPI_IN_PLACE, values + done, (int)chunk, MPI_DOUBLE, MPI_SUM, comm);
    if (code != MPI_SUCCESS) {
      describe(code, message, size);
      return 1;
    }
    done += chunk;
  }
  return 0;
}

int hg_mpi_team_open(hegetcl_team *team, char *message, size_t message_size) {
  MPI_Comm *world = malloc(sizeof *world);
  if (world == NULL) {
    snprintf(message, message_size, "no memory for the MPI team");
    return 1;
  }
  *world = MPI_COMM_WORLD;
  /* errors come back as codes, so the run can name them */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm node;
  int code = MPI_Comm_rank(MPI_COMM_WORLD, &team->rank);
  if (code == MPI_SUCCESS) code = MPI_Comm_size(MPI_COMM_WORLD, &team->size);
  if (code == MPI_SUCCESS)
    code = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, team->rank, MPI_INFO_NULL,
                               &node);
  if (code == MPI_SUCCESS) {
    code = MPI_Comm_rank(node, &team->local_rank);
    if (code == MPI_SUCCESS) code = MPI_Comm_size(node, &team->local_size);
    MPI_Comm_free(&node);
  }
  if (code != MPI_SUCCESS) {
    describe(code, message, message_size);
    free(world);
    return 1;
  }
  team->allreduce_sum = allreduce_sum;
  team->user = world;
  return 0;
}

void hg_mpi_team_free(hegetcl_team *team) {
  free(team->user);
  team->user = NULL;
}
