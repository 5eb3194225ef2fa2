/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the reader of MadGraph reference points (`hegetcl me`, io/mg5_points.c) on
 * any text, then the momentum checks on every point it accepts. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/mg5_points.h"
#include "layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints why the reader broke a promise of mg5_points.h and aborts: libFuzzer saves the input. */
static void broken(const char *what) {
  fprintf(stderr, "mg5_points_fuzz: %s\n", what);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0; /* fmemopen refuses an empty buffer */
  FILE *f = fmemopen((void *)data, size, "r");
  if (f == NULL) return 0;
  hg_mg5_points points;
  char message[1024];
  message[0] = '\0';
  const hegetcl_status status = hg_mg5_points_parse(f, "fuzz.txt", &points, message, sizeof message);
  fclose(f);
  if (status != HEGETCL_OK) {
    if (message[0] == '\0') broken("a refusal without a message");
    if (points.momenta != NULL || points.me != NULL) broken("a refusal that keeps arrays");
    return 0;
  }
  const unsigned n = points.n_photons + 2;
  if (points.n_photons < 2 || n > HG_MG5_MAX_PARTICLES || points.n_points == 0)
    broken("accepted points of an impossible size");
  for (size_t e = 0; e < points.n_points; ++e) {
    if (!isfinite(points.me[e]) || points.me[e] < 0) broken("accepted a |M|^2 not finite or < 0");
    for (unsigned i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c)
        if (!isfinite(points.momenta[HG_SOA_INDEX(c, i, n, points.n_points, e)]))
          broken("accepted a momentum that is not finite");
    char why[512];
    why[0] = '\0';
    if (hg_mg5_points_check_momenta(&points, e, NULL, 1e-9, why, sizeof why) != 0 && why[0] == '\0')
      broken("a momentum check failed without a message");
  }
  hg_mg5_points_free(&points);
  return 0;
}
