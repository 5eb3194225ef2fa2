/* SPDX-License-Identifier: MIT */
/* A run's adaptive sampling: helicity probabilities and channel weights, learnt while VEGAS
 * adapts, the sampler's table, the checkpoint and the report. */
#include <stdlib.h>
#include <string.h>

#include "integrate/channel_weights.h"
#include "integrate/helicity_adapt.h"
#include "xsec/params.h"
#include "xsec/sampling.h"

struct hg_sampling {
  unsigned n, configs;
  int helicity, channels; /* what adapts */
  unsigned learnt;        /* adapting iterations learnt from */
  double *shares;         /* per photon configuration: the sum over learnt iterations of the
                             mean of w 1[drawn with it], an estimate of its share of sigma */
  double alpha[HEGETCL_MAX_XSEC_PHOTONS];
  double *table;
};

static void make_table(hg_sampling *s) {
  hg_helicity_table(s->shares, s->configs, HG_HELICITY_FLOOR,
                    s->table + HG_SAMPLING_HELICITY_TABLE);
  hg_channel_weights_table(s->alpha, s->n, s->table + HG_SAMPLING_CHANNEL_TABLE(s->n));
}

hg_sampling *hg_sampling_create(const hegetcl_xsec_config *config) {
  hg_sampling *s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->n = config->process.n_photons;
  s->configs = HG_PHOTON_CONFIGS(s->n);
  s->helicity = config->helicity == HEGETCL_HELICITY_ADAPTIVE;
  s->channels = config->phase_space == HEGETCL_PHASE_SPACE_MULTICHANNEL;
  s->shares = calloc(s->configs, sizeof *s->shares);
  s->table = calloc(HG_SAMPLING_TABLE_SIZE(s->n), sizeof *s->table);
  if (s->shares == NULL || s->table == NULL) {
    hg_sampling_destroy(s);
    return NULL;
  }
  for (unsigned k = 0; k < s->n; ++k) s->alpha[k] = 1.0 / s->n;
  make_table(s);
  return s;
}

void hg_sampling_destroy(hg_sampling *s) {
  if (s == NULL) return;
  free(s->shares);
  free(s->table);
  free(s);
}

int hg_sampling_adapts(const hg_sampling *s) { return s->helicity || s->channels; }

const double *hg_sampling_table(const hg_sampling *s) { return s->table; }

void hg_sampling_learn(hg_sampling *s, uint64_t n_events, const double *sums) {
  const double n = (double)n_events;
  if (s->helicity)
    for (unsigned c = 0; c < s->configs; ++c) s->shares[c] += sums[c] / n;
  if (s->channels) {
    double w2[HEGETCL_MAX_XSEC_PHOTONS], events[HEGETCL_MAX_XSEC_PHOTONS];
    for (unsigned k = 0; k < s->n; ++k) {
      w2[k] = sums[s->configs + 2 * k];
      events[k] = sums[s->configs + 2 * k + 1];
    }
    hg_channel_weights_update(s->alpha, w2, events, s->n, HG_CHANNEL_FLOOR);
  }
  ++s->learnt;
  make_table(s);
}

void hg_sampling_save(const hg_sampling *s, hg_ckpt_writer *w) {
  if (!hg_sampling_adapts(s)) return;
  hg_ckpt_put(w, "sampling.learnt", "%u", s->learnt);
  hg_ckpt_put_reals(w, "sampling.shares", s->shares, s->configs);
  hg_ckpt_put_reals(w, "sampling.alpha", s->alpha, s->n);
}

int hg_sampling_load(hg_sampling *s, hg_ckpt *c) {
  if (!hg_sampling_adapts(s)) return 0;
  uint64_t learnt = 0;
  int status = hg_ckpt_scan(c, "sampling.learnt", 0, "u", &learnt);
  if (status == 0) status = hg_ckpt_get_reals(c, "sampling.shares", 0, s->shares, s->configs);
  if (status == 0) status = hg_ckpt_get_reals(c, "sampling.alpha", 0, s->alpha, s->n);
  if (status != 0) return status;
  s->learnt = (unsigned)learnt;
  make_table(s);
  return 0;
}

void hg_sampling_report(const hg_sampling *s, hegetcl_xsec_result *result) {
  result->helicity_probabilities = NULL;
  result->n_helicity_probabilities = 0;
  if (s->helicity) {
    result->helicity_probabilities = malloc(s->configs * sizeof(double));
    if (result->helicity_probabilities != NULL) {
      for (unsigned c = 0; c < s->configs; ++c)
        result->helicity_probabilities[c] = hg_table_probability(s->table, c);
      result->n_helicity_probabilities = s->configs;
    }
  }
  result->n_channel_weights = s->channels ? s->n : 0;
  for (unsigned k = 0; k < result->n_channel_weights; ++k)
    result->channel_weights[k] =
        hg_table_probability(s->table + HG_SAMPLING_CHANNEL_TABLE(s->n), k);
}
