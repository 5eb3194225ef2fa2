/* SPDX-License-Identifier: MIT */
/* A float run's |M|^2 against double on the same momenta: a float run reports how far its
 * amplitudes stray. */
#include "xsec/precision_check.h"

#include <math.h>
#include <stdlib.h>

#include "amplitude/amplitude_internal.h"
#include "core/context.h"

hegetcl_status hg_precision_check(hegetcl_context *ctx, hegetcl_amplitude *amp, cl_mem factor,
                                  size_t n_events, int per_helicity, size_t *checked,
                                  double *max_dev, double *mean_dev, double *sigma_dev) {
  *checked = 0;
  *max_dev = *mean_dev = *sigma_dev = 0.0;
  const unsigned n = amp->process.n_photons;
  const size_t values = 4 * (size_t)(n + 2) * n_events;
  float *momenta_f = malloc(values * sizeof *momenta_f);
  float *me_f = malloc(n_events * sizeof *me_f);
  double *momenta = malloc(values * sizeof *momenta), *me = malloc(n_events * sizeof *me);
  double *weight_factor = malloc(n_events * sizeof *weight_factor);
  uint32_t *helicity = per_helicity ? malloc(n_events * sizeof *helicity) : NULL;
  hegetcl_amplitude *twin = NULL;
  hegetcl_status status = HEGETCL_OK;
  if (momenta_f == NULL || me_f == NULL || momenta == NULL || me == NULL ||
      weight_factor == NULL || (per_helicity && helicity == NULL)) {
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the float check of %zu events",
                     n_events);
    goto done;
  }
  /* the float run's own numbers, read as they are (the events outside the cuts may be inf) */
  cl_int err = clEnqueueReadBuffer(ctx->queue, amp->momenta, CL_FALSE, 0,
                                   values * sizeof *momenta_f, momenta_f, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(ctx->queue, amp->me, CL_FALSE, 0, n_events * sizeof *me_f, me_f, 0,
                             NULL, NULL);
  err |= clEnqueueReadBuffer(ctx->queue, factor, CL_FALSE, 0, n_events * sizeof *weight_factor,
                             weight_factor, 0, NULL, NULL);
  if (per_helicity)
    err |= clEnqueueReadBuffer(ctx->queue, amp->helicities, CL_FALSE, 0,
                               n_events * sizeof *helicity, helicity, 0, NULL, NULL);
  err |= clFinish(ctx->queue);
  status = hg_cl_check(ctx, err, "clEnqueueReadBuffer",
                       "reading %zu events back for the float check", n_events);
  if (status != HEGETCL_OK) goto done;
  /* the events inside the cuts, packed in double with rows kept events apart */
  size_t kept = 0;
  for (size_t e = 0; e < n_events; ++e) kept += weight_factor[e] != 0.0;
  if (kept == 0) goto done;
  size_t at = 0;
  for (size_t e = 0; e < n_events; ++e) {
    if (weight_factor[e] == 0.0) continue;
    for (size_t row = 0; row < 4 * (size_t)(n + 2); ++row)
      momenta[row * kept + at] = (double)momenta_f[row * n_events + e];
    me_f[at] = me_f[e];
    weight_factor[at] = weight_factor[e];
    if (per_helicity) helicity[at] = helicity[e];
    ++at;
  }
  hegetcl_process process = amp->process;
  process.precision = HEGETCL_PRECISION_DOUBLE;
  status = hegetcl_amplitude_create(ctx, &process, &twin);
  if (status == HEGETCL_OK)
    status = per_helicity ? hegetcl_amplitude_evaluate_helicity(twin, kept, momenta, helicity, me)
                          : hegetcl_amplitude_evaluate(twin, kept, momenta, me);
  if (status != HEGETCL_OK) goto done;
  double sum = 0.0, sigma_f = 0.0, sigma_d = 0.0;
  for (size_t e = 0; e < kept; ++e) {
    const double dev = isfinite(me_f[e]) ? fabs((double)me_f[e] / me[e] - 1.0) : INFINITY;
    sum += dev;
    if (!(dev <= *max_dev)) *max_dev = dev;
    sigma_f += weight_factor[e] * (double)me_f[e];
    sigma_d += weight_factor[e] * me[e];
  }
  *checked = kept;
  *mean_dev = sum / (double)kept;
  *sigma_dev = fabs(sigma_f / sigma_d - 1.0);
done:
  hegetcl_amplitude_destroy(twin);
  free(momenta_f);
  free(me_f);
  free(momenta);
  free(me);
  free(weight_factor);
  free(helicity);
  return status;
}
