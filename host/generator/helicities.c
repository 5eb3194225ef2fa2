/* SPDX-License-Identifier: MIT */
/* Helicities of unweighted events (generator/helicities.h). */
#include "generator/helicities.h"

#include <stdlib.h>
#include <string.h>

#include "amplitude/amplitude_internal.h"
#include "generator/run_internal.h"
#include "integrate/weight.h"
#include "process/diagrams.h"
#include "process/process_spec.h"
#include "shared/philox.h"

/* Evaluations at once: a kept event's configurations times events, at most this. */
#define HG_HELICITY_EVENTS 65536u

hegetcl_status hg_gen_helicities_open(hegetcl_context *ctx, const hegetcl_process *process,
                                      const struct hg_fr_shape *shape, hg_gen_helicities *h) {
  memset(h, 0, sizeof *h);
  hegetcl_status status = shape != NULL && shape->n_particles > 0
                              ? hg_amplitude_create_shaped(ctx, process, shape, &h->amp)
                              : hegetcl_amplitude_create(ctx, process, &h->amp);
  if (status != HEGETCL_OK) return status;
  h->n_particles = h->amp->n_particles;
  hg_process_spec spec;
  char error[256];
  if (h->n_particles > 16 ||
      hg_process_parse(h->amp->process_text, &spec, error, sizeof error) != 0)
    return HEGETCL_OK; /* not drawn: SPINUP 9 */
  const int bits = hg_diagrams_helicity_layout(&spec, h->bit_of);
  const unsigned amp_bits = h->amp->helicity_bits ? h->amp->helicity_bits : h->n_particles;
  for (unsigned i = 0; i < h->n_particles; ++i) {
    h->bits_of[i] = (i + 1 < h->n_particles ? h->bit_of[i + 1] : bits) - h->bit_of[i];
    if (h->bits_of[i] > 1) return HEGETCL_OK; /* a massive vector: not drawn */
  }
  if (bits < 1 || bits > 16 || (unsigned)bits != amp_bits) return HEGETCL_OK;
  h->n_configs = 1u << bits;
  h->chunk = HG_HELICITY_EVENTS / h->n_configs > 0 ? HG_HELICITY_EVENTS / h->n_configs : 1;
  const size_t n = h->chunk * h->n_configs;
  h->momenta = malloc(4 * (size_t)h->n_particles * n * sizeof *h->momenta);
  h->configs = malloc(n * sizeof *h->configs);
  if (h->momenta == NULL || h->configs == NULL)
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the events' helicities");
  for (size_t e = 0; e < n; ++e) h->configs[e] = (uint32_t)(e % h->n_configs);
  return hg_amplitude_reserve(h->amp, n);
}

void hg_gen_helicities_close(hg_gen_helicities *h) {
  hegetcl_amplitude_destroy(h->amp);
  free(h->w);
  free(h->momenta);
  free(h->configs);
  memset(h, 0, sizeof *h);
}

hegetcl_status hg_gen_helicities_weights(hg_gen_helicities *h, size_t n, const double *momenta,
                                         double *w) {
  const size_t np = h->n_particles, nc = h->n_configs;
  for (size_t first = 0; first < n && nc > 0; first += h->chunk) {
    const size_t count = n - first < h->chunk ? n - first : h->chunk;
    /* every kept event once per configuration, event by event */
    for (size_t a = 0; a < count; ++a)
      for (size_t c = 0; c < nc; ++c)
        for (size_t i = 0; i < np; ++i)
          for (size_t k = 0; k < 4; ++k)
            h->momenta[((a * nc + c) * np + i) * 4 + k] = momenta[(k * np + i) * n + first + a];
    hegetcl_status status =
        hg_amplitude_upload_layout(h->amp, count * nc, h->momenta, 1, h->configs);
    if (status == HEGETCL_OK) status = hg_amplitude_run(h->amp, count * nc, 1, NULL);
    if (status == HEGETCL_OK) status = hg_amplitude_read(h->amp, count * nc, w + first * nc);
    if (status != HEGETCL_OK) return status;
  }
  return HEGETCL_OK;
}

int hg_gen_helicities_draw(const hg_gen_helicities *h, const double *w, size_t a, double u) {
  const double *x = w + a * h->n_configs;
  double total = 0.0;
  for (unsigned c = 0; c < h->n_configs; ++c) total += x[c];
  if (!(total > 0.0)) return -1;
  const double pick = u * total;
  double sum = 0.0;
  int last = -1;
  for (unsigned c = 0; c < h->n_configs; ++c) {
    if (x[c] <= 0.0) continue;
    sum += x[c];
    last = (int)c;
    if (pick < sum) return last;
  }
  return last;
}

hegetcl_status hg_gen_event_helicity_weights(hg_gen_helicities *h, size_t n,
                                             const double *momenta) {
  if (h->n_configs == 0 || n == 0) return HEGETCL_OK;
  if (n > h->w_events) {
    double *grown = realloc(h->w, n * h->n_configs * sizeof *grown);
    if (grown == NULL)
      return hg_fail(h->amp->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the helicities' weights");
    h->w = grown;
    h->w_events = n;
  }
  return hg_gen_helicities_weights(h, n, momenta, h->w);
}

void hg_gen_event_helicities(const hg_gen_run *run, const gen_group *g, unsigned m,
                             const hg_gen_helicities *h, size_t a, uint64_t number,
                             hegetcl_event *e) {
  if (h->n_configs == 0) return;
  const hg_philox_words r =
      hg_philox4x32_10(hg_philox_counter(number, GEN_UNWEIGHT_ITERATION, HG_GEN_BLOCK_UNWEIGHT + 2),
                       (hg_u32)run->config.vegas.seed, g->key_high);
  const int c = hg_gen_helicities_draw(h, h->w, a, hg_uniform_double(r.v[0], r.v[1]));
  if (c < 0) return;
  const gen_channel *ch = &run->channels[g->first_channel + m];
  for (int i = 0; i < g->spec.n; ++i) {
    const int j = ch->order[i]; /* member particle i is group particle j */
    e->helicity[i] = h->bits_of[j] == 0 ? 0 : (c >> h->bit_of[j]) & 1 ? 1 : -1;
  }
}
