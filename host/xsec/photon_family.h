/* SPDX-License-Identifier: MIT */
/* The photon family (p p -> n photons through q qbar, CONVENTIONS.md "Cross sections"): its
 * checks, its data (PDF grid of its flavours, the sampler's parameters, the flavour channels and
 * their (Q_q / Q_u)^(2n) factors) and its devices' programs, and the VEGAS callbacks that run its
 * kernels (cl/xsec/). The run object's photon group (host/generator/photon_group.c) drives it. */
#ifndef HG_XSEC_PHOTON_FAMILY_H
#define HG_XSEC_PHOTON_FAMILY_H

#include "hegetcl/xsec.h"
#include "integrate/vegas.h"
#include "xsec/sampling.h"
#include "xsec/unweight.h"
#include "xsec/xsec_device.h"

typedef struct {
  hegetcl_context *ctx;
  hegetcl_xsec_config config; /* with the phase space resolved (no HEGETCL_PHASE_SPACE_AUTO) */
  hg_xsec_device devices[HEGETCL_XSEC_MAX_DEVICES]; /* the context's first */
  hegetcl_context *contexts[HEGETCL_XSEC_MAX_DEVICES];
  unsigned n_devices;
  unsigned adapt_iterations;
  const hegetcl_team *team;       /* NULL: this process alone */
  hg_histograms *histograms;      /* the first device's, which holds the combination; NULL: none */
  hg_channels *channels;          /* likewise; NULL unless the run is over flavour channels */
  hg_xsec_variations *variations; /* likewise; NULL unless the run has variation weights */
  hg_sampling *sampling;          /* the adaptive helicity probabilities and channel weights */
  hegetcl_pdf *pdf;
  double *grid; /* the PDF grid of the family's partons */
  size_t n_grid;
  hg_xsec_var_setup var_setup;
  double params[HG_XSEC_PARAM_COUNT];
  hg_xsec_setup setup;
  unsigned n_flavours, n_channels;
  int doubled; /* one flavour in both orientations: twice the quark from proton 1 */
} hg_photon_family;

/* The configuration's phase space made concrete (auto -> the map it stands for). */
void hg_photon_family_resolve(const hegetcl_xsec_config *config, hegetcl_xsec_config *out);

/* The configuration's own checks on ctx and on every device of sharing (NULL: none), and the
 * sharing's shape: before anything is allocated. */
hegetcl_status hg_photon_family_check(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                      const hegetcl_xsec_sharing *sharing);

/* Opens the family's PDF set (checking its grid against the cuts), its data and every device's
 * programs (f zeroed here; close it whatever this returns); fills the result's PDF, alpha_s,
 * channel list, build time and program options. config: resolved. */
hegetcl_status hg_photon_family_open(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                     const hegetcl_xsec_sharing *sharing,
                                     hegetcl_xsec_result *result, hg_photon_family *f);
void hg_photon_family_close(hg_photon_family *f);

/* The VEGAS integration of the family with v (made from the first device's program, the
 * family's dimensions and the configuration's settings): its observer and its work over the
 * devices (and the team). */
void hg_photon_family_prepare(hg_photon_family *f, hg_vegas *v, hg_vegas_work *work);

/* VEGAS's dimensions of config's run. */
unsigned hg_photon_family_dims(const hegetcl_xsec_config *config);

/* After the integration: the channels', variations' and adaptive sampling's results, and the
 * learnt sampling table uploaded for the float check and the unweighting. */
hegetcl_status hg_photon_family_integrated(hg_photon_family *f, hegetcl_xsec_result *result);

/* With float precision, the float amplitudes against double on a sample of the final grid
 * (result->float_*); nothing otherwise. */
hegetcl_status hg_photon_family_float_check(hg_photon_family *f, hg_vegas *v,
                                            hegetcl_xsec_result *result);

/* The histograms (and the variations' histograms) into the result. */
hegetcl_status hg_photon_family_take_histograms(hg_photon_family *f, hegetcl_xsec_result *result);

/* The unweighting's and the float check's sampler on the first device (no histograms), and the
 * kept events' variation ratios with the first device's grid (hg_unweight_inputs' callbacks;
 * user: the family). */
hegetcl_status hg_photon_family_sample(void *user, uint32_t iteration, uint64_t first_event,
                                       size_t n_events, cl_mem grid);
hegetcl_status hg_photon_family_ratios(void *user, uint64_t first, const uint32_t *index, size_t n,
                                       double *ratios);

/* The unweighting's driver: the integration that gives the grid and largest weight, the hooks
 * with the sink, and the checkpoints' callback (as hg_unweight_inputs' fields). */
typedef struct {
  hg_vegas *vegas;
  const hegetcl_xsec_hooks *hooks;
  const hg_unweight_state *resume;
  uint64_t checkpoint_every;
  hg_unweight_checkpoint checkpoint;
  void *checkpoint_user;
  const volatile sig_atomic_t *stop;
} hg_photon_unweighting;

/* The unweighting (hit-or-miss against the integration's last largest weight) of this process's
 * share of config->unweighted_events (the first n % size ranks make one more; rank r's event
 * numbers start at r << 40) into the hooks' sink, when status is HEGETCL_OK; a shared run's ranks
 * then add up their statistics into result->unweighting, whatever status (none waits for a rank
 * that failed). */
hegetcl_status hg_photon_family_unweight(hg_photon_family *f, const hg_photon_unweighting *u,
                                         hegetcl_status status, hegetcl_xsec_result *result,
                                         int *stopped, hg_unweight_state *state);

#endif
