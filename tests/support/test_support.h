/* SPDX-License-Identifier: MIT */
/* What the tests share: the device under test, random phase-space points, reference paths. */
#ifndef HG_TEST_SUPPORT_H
#define HG_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hegetcl/hegetcl.h"

/* The context for device tests: HEGETCL_TEST_DEVICE, else HEGETCL_DEVICE, else "auto". Fails the
 * calling test with the library's message when no device can be had. */
hegetcl_context *ts_context_create(void);

/* A one-line description of the context's device, for failure messages. */
const char *ts_device_name(hegetcl_context *ctx);

/* n_events massless points u(+z) ubar(-z) -> n photons at sqrt(s) = sqrt_s (GeV) from RAMBO with a
 * seeded splitmix64 stream, written in the structure-of-arrays layout; each photon is kept with
 * pT > pt_min_frac * sqrt_s and every photon pair with an angle above 0.1 rad (rejection), so no
 * point sits on a collinear or soft singularity. */
void ts_random_points(unsigned n_photons, double sqrt_s, size_t n_events, uint64_t seed,
                      double pt_min_frac, double *momenta);

/* Path of the MadGraph reference file for n photons (HEGETCL_REFS_DIR/me_points_n<n>.txt). */
const char *ts_refs_path(unsigned n_photons, char *buf, size_t size);

/* |a/b - 1|, and |a| where b is 0. */
double ts_rel_diff(double a, double b);

/* Whether the context's device can run double precision. */
int ts_has_fp64(hegetcl_context *ctx);

/* Asserts status is HEGETCL_OK, printing the context's message otherwise. */
#define TS_ASSERT_OK(ctx, status)                                                                   \
  do {                                                                                              \
    const hegetcl_status ts_status_ = (status);                                                     \
    if (ts_status_ != HEGETCL_OK)                                                                   \
      fail_msg("%s: %s", hegetcl_status_name(ts_status_), hegetcl_last_error(ctx));                \
  } while (0)

#endif
