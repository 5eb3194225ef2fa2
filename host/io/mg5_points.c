/* SPDX-License-Identifier: MIT */
/* Reads MadGraph5_aMC@NLO reference points (the format of ../shared/refs/mg5/me_points_n*.txt). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "mg5_points.h"

#define HG_MG5_MAX_POINTS 4096
#define HG_MG5_LINE 1024

void hg_mg5_points_free(hg_mg5_points *points) {
  free(points->momenta);
  free(points->me);
  memset(points, 0, sizeof *points);
}

/* "name:line: text" into message; returns HEGETCL_ERR_INPUT. */
static hegetcl_status refuse(char *message, size_t message_size, const char *name, size_t line,
                             const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static hegetcl_status refuse(char *message, size_t message_size, const char *name, size_t line,
                             const char *format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  snprintf(message, message_size, "%s:%zu: %s", name, line, text);
  return HEGETCL_ERR_INPUT;
}

/* Reads count finite numbers from text, then only blanks; 0, or -1 (and *bad the field, 1-based,
 * 0 for a missing or extra field). */
static int read_numbers(const char *text, double *x, int count, int *bad) {
  const char *p = text;
  for (int i = 0; i < count; ++i) {
    char *end = NULL;
    x[i] = strtod(p, &end);
    if (end == p) {
      *bad = 0;
      return -1;
    }
    if (!isfinite(x[i])) {
      *bad = i + 1;
      return -1;
    }
    p = end;
  }
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') ++p;
  *bad = 0;
  return *p == '\0' ? 0 : -1;
}

hegetcl_status hg_mg5_points_parse(FILE *file, const char *name, hg_mg5_points *out, char *message,
                                   size_t message_size) {
  memset(out, 0, sizeof *out);
  /* points as read: [point][particle][component], transposed to the SoA layout at the end */
  double(*read)[HG_MG5_MAX_PARTICLES][4] = malloc(HG_MG5_MAX_POINTS * sizeof *read);
  double *me = malloc(HG_MG5_MAX_POINTS * sizeof *me);
  hegetcl_status status = HEGETCL_OK;
  char line[HG_MG5_LINE];
  size_t n_points = 0, line_number = 0, point_line = 0;
  int particle = -1, n_particles = 0;
  if (me == NULL || read == NULL) {
    snprintf(message, message_size, "%s: no memory", name);
    status = HEGETCL_ERR_NO_MEMORY;
    goto done;
  }
  while (status == HEGETCL_OK && fgets(line, sizeof line, file) != NULL) {
    ++line_number;
    const size_t length = strlen(line);
    if (length + 1 == sizeof line && line[length - 1] != '\n') {
      status = refuse(message, message_size, name, line_number,
                      "a line longer than %d characters: not a reference file", HG_MG5_LINE - 2);
      break;
    }
    if (line[0] == '#' || line[0] == '\n' || (line[0] == '\r' && line[1] == '\n')) continue;
    if (strncmp(line, "POINT", 5) == 0) {
      if (particle >= 0) {
        status = refuse(message, message_size, name, line_number,
                        "POINT before the 'ME' line of the point begun on line %zu", point_line);
      } else if (n_points == HG_MG5_MAX_POINTS) {
        status = refuse(message, message_size, name, line_number, "more than %d points",
                        HG_MG5_MAX_POINTS);
      }
      particle = 0;
      point_line = line_number;
      continue;
    }
    if (strncmp(line, "ME", 2) == 0) {
      const int want = n_particles ? n_particles : HG_MG5_MIN_PARTICLES;
      if (particle < HG_MG5_MIN_PARTICLES || (n_particles != 0 && particle != n_particles)) {
        status = refuse(message, message_size, name, line_number,
                        particle < 0 ? "'ME' outside a POINT block"
                                     : "'ME' after %d momentum lines, expected %s%d",
                        particle, n_particles ? "" : "at least ", want);
        break;
      }
      int bad = 0;
      if (read_numbers(line + 2, &me[n_points], 1, &bad) != 0 || !(me[n_points] >= 0)) {
        status = refuse(message, message_size, name, line_number,
                        "'ME' needs one finite number >= 0 (|M|^2), nothing after it");
        break;
      }
      n_particles = particle;
      ++n_points;
      particle = -1;
      continue;
    }
    if (particle < 0) {
      status = refuse(message, message_size, name, line_number,
                      "expected 'POINT i sqrt_s', 'ME value', a comment or a blank line");
      break;
    }
    if (particle >= HG_MG5_MAX_PARTICLES) {
      status = refuse(message, message_size, name, line_number,
                      "more than %d momentum lines in the point begun on line %zu",
                      HG_MG5_MAX_PARTICLES, point_line);
      break;
    }
    int bad = 0;
    if (read_numbers(line, read[n_points][particle], 4, &bad) != 0) {
      status = bad > 0 ? refuse(message, message_size, name, line_number,
                                "momentum component %d is not finite", bad)
                       : refuse(message, message_size, name, line_number,
                                "expected a momentum line 'E px py pz' (four numbers) inside "
                                "a POINT block");
      break;
    }
    ++particle;
  }
  if (status != HEGETCL_OK) goto done;
  if (ferror(file)) {
    snprintf(message, message_size, "%s: cannot read: %s", name, strerror(errno));
    status = HEGETCL_ERR_IO;
    goto done;
  }
  if (particle >= 0) {
    status = refuse(message, message_size, name, point_line,
                    "the file ends inside this POINT block: its 'ME' line is missing");
    goto done;
  }
  if (n_points == 0) {
    snprintf(message, message_size, "%s: no POINT block with an ME line", name);
    status = HEGETCL_ERR_INPUT;
    goto done;
  }
  out->momenta = malloc(4 * (size_t)n_particles * n_points * sizeof *out->momenta);
  if (out->momenta == NULL) {
    snprintf(message, message_size, "%s: no memory", name);
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
  return status;
}

hegetcl_status hg_mg5_points_read(const char *path, hg_mg5_points *out, char *message,
                                  size_t message_size) {
  memset(out, 0, sizeof *out);
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    snprintf(message, message_size, "%s: cannot open: %s", path, strerror(errno));
    return HEGETCL_ERR_IO;
  }
  const hegetcl_status status = hg_mg5_points_parse(file, path, out, message, message_size);
  fclose(file);
  return status;
}

int hg_mg5_points_check_momenta(const hg_mg5_points *points, size_t point, const double *masses,
                                double tolerance, char *message, size_t message_size) {
  const int n = (int)points->n_photons + 2;
  const size_t count = points->n_points;
  double p[HG_MG5_MAX_PARTICLES][4], total[4] = {0, 0, 0, 0}, scale = 0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 4; ++c) p[i][c] = points->momenta[HG_SOA_INDEX(c, i, n, count, point)];
  for (int i = 0; i < n; ++i) {
    if (!(p[i][0] > 0)) {
      snprintf(message, message_size,
               "point %zu, particle %d: energy %.17g is not positive (a physical particle has "
               "E > 0)",
               point + 1, i + 1, p[i][0]);
      return -1;
    }
    const double e2 = p[i][0] * p[i][0];
    const double p2 = p[i][1] * p[i][1] + p[i][2] * p[i][2] + p[i][3] * p[i][3];
    const double m = masses != NULL ? masses[i] : 0;
    if (fabs(e2 - p2 - m * m) > tolerance * e2) {
      snprintf(message, message_size,
               "point %zu, particle %d: off the mass shell: E^2 - |p|^2 = %.6g GeV^2 where the "
               "mass %g GeV gives %.6g (within a relative %.1e of E^2 expected)",
               point + 1, i + 1, e2 - p2, m, m * m, tolerance);
      return -1;
    }
    for (int c = 0; c < 4; ++c) total[c] += i < 2 ? p[i][c] : -p[i][c];
    if (i < 2) scale += p[i][0];
  }
  static const char *const names[4] = {"E", "px", "py", "pz"};
  for (int c = 0; c < 4; ++c)
    if (!(fabs(total[c]) <= tolerance * scale)) {
      snprintf(message, message_size,
               "point %zu: momentum not conserved: incoming minus outgoing %s = %.3e, %.2e of "
               "sqrt(s) = %.6g (a relative %.1e allowed)",
               point + 1, names[c], total[c], fabs(total[c]) / scale, scale, tolerance);
      return -1;
    }
  return 0;
}

void hg_mg5_points_momenta(const hg_mg5_points *points, size_t e, double (*p)[4]) {
  for (unsigned i = 0; i < points->n_particles; ++i)
    for (int c = 0; c < 4; ++c)
      p[i][c] = points->momenta[HG_SOA_INDEX(c, i, points->n_particles, points->n_points, e)];
}
