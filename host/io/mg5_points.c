/* SPDX-License-Identifier: MIT */
/* Reads MadGraph5_aMC@NLO reference points (the format of ../shared/refs/mg5 and mg5-qcd). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "mg5_points.h"

#define HG_MG5_MAX_PARTICLES 16
#define HG_MG5_MAX_POINTS 4096

void hg_mg5_points_free(hg_mg5_points *points) {
  free(points->momenta);
  free(points->me);
  memset(points, 0, sizeof *points);
}

void hg_mg5_points_momenta(const hg_mg5_points *points, size_t e, double (*p)[4]) {
  for (unsigned i = 0; i < points->n_particles; ++i)
    for (int c = 0; c < 4; ++c)
      p[i][c] = points->momenta[HG_SOA_INDEX(c, i, points->n_particles, points->n_points, e)];
}

hegetcl_status hg_mg5_points_read(const char *path, hg_mg5_points *out, char *message,
                                  size_t message_size) {
  memset(out, 0, sizeof *out);
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    snprintf(message, message_size, "%s: cannot open: %s", path, strerror(errno));
    return HEGETCL_ERR_IO;
  }
  /* points as read: [point][particle][component], transposed to the SoA layout at the end */
  double(*read)[HG_MG5_MAX_PARTICLES][4] = malloc(HG_MG5_MAX_POINTS * sizeof *read);
  double *me = malloc(HG_MG5_MAX_POINTS * sizeof *me);
  hegetcl_status status = HEGETCL_OK;
  char line[1024];
  size_t n_points = 0, line_number = 0;
  int particle = -1, n_particles = 0;
  if (me == NULL || read == NULL) {
    snprintf(message, message_size, "%s: no memory", path);
    status = HEGETCL_ERR_NO_MEMORY;
    goto done;
  }
  while (fgets(line, sizeof line, file) != NULL) {
    ++line_number;
    if (line[0] == '#' || line[0] == '\n') continue;
    if (strncmp(line, "POINT", 5) == 0) {
      if (n_points == HG_MG5_MAX_POINTS) {
        snprintf(message, message_size, "%s:%zu: more than %d points", path, line_number,
                 HG_MG5_MAX_POINTS);
        status = HEGETCL_ERR_INPUT;
        goto done;
      }
      particle = 0;
      continue;
    }
    if (strncmp(line, "ME", 2) == 0) {
      if (particle < 3 || (n_particles != 0 && particle != n_particles)) {
        snprintf(message, message_size, "%s:%zu: 'ME' after %d momentum lines, expected %d",
                 path, line_number, particle, n_particles ? n_particles : 4);
        status = HEGETCL_ERR_INPUT;
        goto done;
      }
      n_particles = particle;
      char *end = NULL;
      me[n_points] = strtod(line + 2, &end);
      if (end == line + 2) {
        snprintf(message, message_size, "%s:%zu: 'ME' without a number", path, line_number);
        status = HEGETCL_ERR_INPUT;
        goto done;
      }
      ++n_points;
      particle = -1;
      continue;
    }
    if (particle >= HG_MG5_MAX_PARTICLES) {
      snprintf(message, message_size, "%s:%zu: more than %d particles in a point", path,
               line_number, HG_MG5_MAX_PARTICLES);
      status = HEGETCL_ERR_INPUT;
      goto done;
    }
    double *p = particle >= 0 ? read[n_points][particle] : NULL;
    if (p == NULL || sscanf(line, "%lf %lf %lf %lf", &p[0], &p[1], &p[2], &p[3]) != 4) {
      snprintf(message, message_size,
               "%s:%zu: expected a momentum line 'E px py pz' inside a POINT block", path,
               line_number);
      status = HEGETCL_ERR_INPUT;
      goto done;
    }
    ++particle;
  }
  if (n_points == 0) {
    snprintf(message, message_size, "%s: no POINT block with an ME line", path);
    status = HEGETCL_ERR_INPUT;
    goto done;
  }
  out->momenta = malloc(4 * (size_t)n_particles * n_points * sizeof *out->momenta);
  if (out->momenta == NULL) {
    snprintf(message, message_size, "%s: no memory", path);
    status = HEGETCL_ERR_NO_MEMORY;
    goto done;
  }
  for (size_t e = 0; e < n_points; ++e)
    for (int i = 0; i < n_particles; ++i)
      for (int c = 0; c < 4; ++c)
        out->momenta[HG_SOA_INDEX(c, i, n_particles, n_points, e)] = read[e][i][c];
  out->n_photons = (unsigned)n_particles - 2;
  out->n_particles = (unsigned)n_particles;
  out->n_points = n_points;
  out->me = me;
  me = NULL;
done:
  free(read);
  free(me);
  fclose(file);
  return status;
}
