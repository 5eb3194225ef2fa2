/* SPDX-License-Identifier: MIT */
/* A float run's |M|^2 checked against double on a sample of its own events. */
#ifndef HG_XSEC_PRECISION_CHECK_H
#define HG_XSEC_PRECISION_CHECK_H

#include <stddef.h>

#include <CL/cl.h>

#include "hegetcl/amplitude.h"

/* Events a float run checks (fewer when the batch is smaller). */
#define HG_PRECISION_CHECK_EVENTS 4096

/* The float amplitude amp has just evaluated n_events events whose momenta (and, with
 * per_helicity, helicity configurations) sit in its device buffers, and factor holds their
 * weight factors. Evaluates the same events in double and gives the largest and the mean
 * |me_float / me_double - 1| over the events inside the cuts (factor != 0) in *max_dev and
 * *mean_dev, their count in *checked, and in *sigma_dev that of the sample's weight sums (what
 * float does to sigma: a single configuration's small |M|^2 may stray far without moving it). A
 * non-finite float |M|^2 inside the cuts counts as an infinite deviation. */
hegetcl_status hg_precision_check(hegetcl_context *ctx, hegetcl_amplitude *amp, cl_mem factor,
                                  size_t n_events, int per_helicity, size_t *checked,
                                  double *max_dev, double *mean_dev, double *sigma_dev);

#endif
