/* SPDX-License-Identifier: MIT */
/* One device's part of a cross-section run: the sampler program and its buffers, the amplitude,
 * the VEGAS reducer, the histograms' and channels' reductions, and a batch's sums. A run on
 * several devices opens one per device, all from the same setup (host/xsec/photon_family.c). */
#ifndef HG_XSEC_DEVICE_H
#define HG_XSEC_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "amplitude/amplitude_internal.h"
#include "analysis/histograms.h"
#include "hegetcl/xsec.h"
#include "integrate/vegas_reducer.h"
#include "xsec/channels.h"
#include "xsec/params.h"
#include "xsec/variations.h"

/* What every device of a run is built from: the same on each. */
typedef struct {
  const hegetcl_xsec_config *config;
  const double *params; /* HG_XSEC_PARAM_COUNT */
  const double *pdf_grid;
  size_t n_grid;
  unsigned dims, n_flavours, n_channels;
  int per_helicity;
  uint64_t seed;
  const hg_xsec_var_setup *variations; /* NULL or an empty list: none */
} hg_xsec_setup;

typedef struct {
  hegetcl_context *ctx;
  const hg_xsec_setup *setup;
  hegetcl_amplitude *amp;
  cl_program program;
  cl_kernel sample;
  size_t local; /* xsec_sample's work-group size */
  cl_mem params, pdf, factor, bins, obs_value, obs_bin, channel_factor;
  /* the adaptive sampling: its tables, each event's phase-space channel, and when the run adapts
   * anything the sums it learns from (per group, then added; cl/xsec/sampling_sums.cl) */
  cl_mem sampling, ps_channel, sampling_partial, sampling_sums;
  cl_kernel sampling_reduce, sampling_accumulate;
  unsigned sampling_sums_count; /* HG_SAMPLING_SUMS(n) when the run adapts, else 0 */
  hg_vegas_reducer *reducer;
  hg_histograms *histograms; /* NULL unless the run fills them */
  hg_channels *channels;     /* NULL unless the run is over flavour channels */
  hg_xsec_variations *variations; /* NULL unless the run has variation weights */
  double build_seconds;
  char sampler_options[512];
} hg_xsec_device;

/* Builds the programs and buffers on ctx (d zeroed first; close it whatever this returns). */
hegetcl_status hg_xsec_device_open(hg_xsec_device *d, hegetcl_context *ctx,
                                   const hg_xsec_setup *setup);
void hg_xsec_device_close(hg_xsec_device *d);

/* Enqueues the sampler over events [first_event, first_event + n_events) of `iteration` with the
 * grid in `grid`, filling the histograms' values when fill != 0, then the amplitude. */
hegetcl_status hg_xsec_device_sample(hg_xsec_device *d, uint32_t iteration, uint64_t first_event,
                                     size_t n_events, cl_mem grid, int fill);

/* Uploads the adaptive sampling's table (HG_SAMPLING_TABLE_SIZE(n) doubles) for the next
 * batches. */
hegetcl_status hg_xsec_device_upload_sampling(hg_xsec_device *d, const double *table);

/* Doubles of a batch's sums beyond VEGAS's: the histograms', the channels', the adaptive
 * sampling's, then the variation weights'. */
size_t hg_xsec_device_extra_sums(const hg_xsec_device *d);

/* A batch of an integration iteration, sampled with the reducer's grid, into out: VEGAS's sums
 * (hg_vegas_batch_sums), then, in combined iterations (combined != 0), the histograms' and the
 * channels' (zeros otherwise), then, in adapting ones, the adaptive sampling's (zeros
 * otherwise), then in combined ones the variation weights' (zeros otherwise). */
hegetcl_status hg_xsec_device_batch(hg_xsec_device *d, uint32_t iteration, int combined,
                                    uint64_t first_event, size_t n_events, double *out);

#endif
