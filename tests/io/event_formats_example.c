/* SPDX-License-Identifier: MIT */
/* Writes N made-up u ubar -> 3 photon events through the event sink (io/event_sink.h) to PATH, in
 * the format its ending names, with a run-level list of variations when asked: the 9 scale
 * variations and 3 members of a PDF set, each event's ratios 1 + 0.1 sin(k + event) (exactly 1
 * for the nominal settings). The events
 * (massless photons conserving momentum, from a fixed recurrence; helicities sampled) are the
 * same for every format, so that
 * tests/io/event_formats.py can read the files back and compare them with each other.
 * usage: event_formats_example PATH N [variations] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/hegetcl.h"
#include "io/event_sink.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: event_formats_example PATH N [variations]\n");
    return 2;
  }
  const char *path = argv[1];
  const unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
  const int with_variations = argc > 3 && strcmp(argv[3], "variations") == 0;
  static hegetcl_variation_list list;
  if (with_variations &&
      (hegetcl_variations_add_scales(&list, 10042, 0) != HEGETCL_OK ||
       hegetcl_variations_add_pdf_set(&list, "cteq6l1", "hessian", 10042, 3) != HEGETCL_OK)) {
    fprintf(stderr, "event_formats_example: the variation list overflows\n");
    return 1;
  }
  hegetcl_xsec_config c;
  hegetcl_xsec_defaults(&c, 3);
  c.unweighted_events = n;
  hegetcl_xsec_result r;
  memset(&r, 0, sizeof r);
  r.vegas.estimate = 12500.0; /* fb */
  r.vegas.error = 250.0;
  r.pdf_lhapdf_id = 10042;
  r.alpha_s = 0.118;
  char message[2048];
  hg_event_sink sink = {.lhe = {.config = &c,
                                .run_card = "process: u u~ > a a a\n",
                                .comment = "event_formats_example",
                                .variations = with_variations ? &list : NULL}};
  if (hg_event_format_of("PATH", path, &sink.format, message, sizeof message) != 0 ||
      hg_event_sink_open(&sink, path, message, sizeof message) != 0) {
    fprintf(stderr, "event_formats_example: %s\n", message);
    return 1;
  }
  hegetcl_status status = hg_event_sink_begin(&r, &sink);
  double ratios[HEGETCL_MAX_VARIATIONS];
  for (unsigned k = 0; k < n && status == HEGETCL_OK; ++k) {
    hegetcl_event e;
    memset(&e, 0, sizeof e);
    e.n_particles = 5;
    /* in the partonic rest frame: photons 3 and 4 at angles, photon 5 balancing them (massless,
     * momentum conserved to rounding), then all boosted along z by rapidity y */
    double q[5][4] = {{0}};
    for (int i = 2; i < 4; ++i) {
      const double energy = (i == 2 ? 100.0 : 80.0) * (1.0 + 0.5 * sin(k + i));
      const double th = 0.3 + 2.5 * fabs(sin(0.37 * k + i)), ph = 0.9 * k + 2.0 * i;
      q[i][0] = energy;
      q[i][1] = energy * sin(th) * cos(ph);
      q[i][2] = energy * sin(th) * sin(ph);
      q[i][3] = energy * cos(th);
    }
    for (int m = 1; m < 4; ++m) q[4][m] = -(q[2][m] + q[3][m]);
    q[4][0] = sqrt(q[4][1] * q[4][1] + q[4][2] * q[4][2] + q[4][3] * q[4][3]);
    const double shat = q[2][0] + q[3][0] + q[4][0];
    q[0][0] = q[0][3] = q[1][0] = 0.5 * shat;
    q[1][3] = -0.5 * shat;
    const double y = 0.5 * sin((double)k), ch = cosh(y), sh = sinh(y);
    for (int i = 0; i < 5; ++i) {
      e.p[i][0] = ch * q[i][0] + sh * q[i][3];
      e.p[i][1] = q[i][1];
      e.p[i][2] = q[i][2];
      e.p[i][3] = sh * q[i][0] + ch * q[i][3];
    }
    e.p[0][3] = e.p[0][0]; /* the partons exactly along the beams */
    e.p[1][3] = -e.p[1][0];
    const double x1 = e.p[0][0] / 7000.0, x2 = e.p[1][0] / 7000.0;
    e.pid[0] = 2;
    e.pid[1] = -2;
    for (int i = 2; i < 5; ++i) e.pid[i] = 22;
    for (int i = 0; i < 5; ++i) {
      e.status[i] = i < 2 ? -1 : 1;
      e.helicity[i] = ((k >> i) & 1u) ? 1 : -1;
    }
    e.colour[0][0] = 501;
    e.colour[1][1] = 501;
    e.x1 = x1;
    e.x2 = x2;
    e.mu_f_gev = e.mu_r_gev = 20.0 + k;
    e.alpha_s = 0.118;
    e.alpha_qed = 1.0 / 132.507;
    e.process_id = 1;
    e.number = 1000 + 7 * k;
    if (with_variations) {
      /* the nominal settings (mu factors 1, the central member) give the nominal weight */
      for (unsigned v = 0; v < list.n; ++v) {
        const hegetcl_variation *x = &list.v[v];
        const int nominal =
            x->mu_r_factor == 1.0 && x->mu_f_factor == 1.0 && x->pdf_lhapdf_id == 10042;
        ratios[v] = nominal ? 1.0 : 1.0 + 0.1 * sin(v + (double)k);
      }
      e.n_variations = list.n;
      e.variations = ratios;
    }
    status = hg_event_sink_write(&e, &sink);
  }
  if (status != HEGETCL_OK) {
    fprintf(stderr, "event_formats_example: %s\n", sink.lhe.message);
    hg_event_sink_close(&sink, 0, message, sizeof message);
    return 1;
  }
  if (hg_event_sink_close(&sink, 1, message, sizeof message) != 0) {
    fprintf(stderr, "event_formats_example: %s\n", message);
    return 1;
  }
  return 0;
}
