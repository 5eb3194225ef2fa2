/* SPDX-License-Identifier: MIT */
/* Helicities of unweighted events (docs/generator.md, "Events"): for the kept events of a batch,
 * |M|^2 of every helicity configuration at their momenta (the group's amplitude in its
 * per-helicity mode, on a copy of its own so that the batch's buffers stay), and one configuration
 * per event drawn with probability |M_h|^2 / sum_h |M_h|^2, as the colour flow is drawn from the
 * flows' weights. The sum over configurations is the summed |M|^2. */
#ifndef HG_GENERATOR_HELICITIES_H
#define HG_GENERATOR_HELICITIES_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/amplitude.h"
#include "hegetcl/events.h"

struct hg_fr_shape; /* amplitude/amplitude_internal.h */

typedef struct {
  hegetcl_amplitude *amp;
  double *w;                       /* the kept events' weights (hg_gen_event_helicity_weights) */
  size_t w_events;                 /* events w holds */
  unsigned n_particles, n_configs; /* n_configs = 2^(helicity bits); 0: not drawn */
  int bit_of[16], bits_of[16]; /* particle i's first bit and its bits (0: a scalar, no helicity) */
  size_t chunk;                /* kept events per evaluation (chunk x n_configs at once) */
  double *momenta;             /* chunk x n_configs events, event by event */
  uint32_t *configs;
} hg_gen_helicities;

/* For the amplitude of process (its text's particles, any engine), h zeroed first; close it
 * whatever this returns. The configurations are the amplitude's (CONVENTIONS.md, "Helicities"):
 * a bit per fermion or massless vector, none for a scalar (its SPINUP stays 9). A process with
 * a massive vector in its external particles gets n_configs = 0 (its events keep SPINUP 9: the
 * event record has no value for helicity 0). shape, when not NULL, is the process run's
 * quark-line shape: the amplitude then takes the program its group already built
 * (hg_amplitude_create_shaped) instead of a program of its own. */
hegetcl_status hg_gen_helicities_open(hegetcl_context *ctx, const hegetcl_process *process,
                                      const struct hg_fr_shape *shape, hg_gen_helicities *h);
void hg_gen_helicities_close(hg_gen_helicities *h);

/* w[a * n_configs + c] = |M|^2 of configuration c (bit bit_of[i]: particle i's helicity,
 * 0 = -1, 1 = +1) for the n events of momenta (structure of arrays at stride n: component k of
 * particle i of event a at momenta[(k * n_particles + i) * n + a], GeV). */
hegetcl_status hg_gen_helicities_weights(hg_gen_helicities *h, size_t n, const double *momenta,
                                         double *w);

/* Configuration of event a drawn with the uniform u in [0, 1) from its weights w (as above):
 * the first c whose running sum passes u times the total; -1 when every weight is 0. */
int hg_gen_helicities_draw(const hg_gen_helicities *h, const double *w, size_t a, double u);

/* The unweighting's use (generator/events.c): the n kept events' weights into h->w (grown as
 * needed); hg_gen_event_helicities (generator/run_internal.h) draws from them. */
hegetcl_status hg_gen_event_helicity_weights(hg_gen_helicities *h, size_t n, const double *momenta);

#endif
