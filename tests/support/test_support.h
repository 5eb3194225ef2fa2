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

/* How far float |M|^2 of u ubar -> n photons may lie from the exact value at event e of a batch
 * (structure of arrays): the momenta rounded to 24 bits give a quark propagator 1/(p_q - K_S)^2
 * a relative error of about u s-hat / |(p_q - K_S)^2| (its parts are of size s-hat and cancel to
 * (p_q - K_S)^2; u = 2^-24), an ordering has n - 1 propagators and |M|^2 doubles the amplitude's
 * error: 2 n u s-hat / min_S |(p_q - K_S)^2| over the photon subsets S. Measured on PoCL
 * (tests/amplitudes/float_matches_double.c): at most 0.6 u n s-hat / min_S, n = 6..12, soft photons
 * too; the difference of two float sums stays within it as well. */
double ts_float_tolerance(unsigned n_photons, const double *momenta, size_t n_events, size_t e);

/* Path of the MadGraph reference file for n photons (HEGETCL_REFS_DIR/me_points_n<n>.txt). */
const char *ts_refs_path(unsigned n_photons, char *buf, size_t size);

/* |a/b - 1|, and |a| where b is 0. */
double ts_rel_diff(double a, double b);

/* Whether helicity configuration config of n photons vanishes identically (bit i is particle i's
 * helicity; CONVENTIONS.md "Helicity configurations"): equal quark helicities, or every photon
 * alike. */
int ts_configuration_vanishes(uint32_t config, unsigned n);

/* How far a is from b, one configuration's |M|^2 at a point whose configurations sum to scale.
 * Rounding acts on the amplitude, whose error is a fraction of the point's amplitude scale
 * sqrt(scale), so |M|^2 = |A|^2 is off by about 2 sqrt(b) sqrt(scale) times that fraction: the
 * difference is measured in units of sqrt(b * scale), which is the relative difference for the
 * leading configurations and does not blow up for configurations 1e-8 of the sum (plain ratios
 * reach 1e-13 in double and 1e-4 in float there). A configuration that vanishes is measured
 * against scale. */
double ts_configuration_difference(double a, double b, double scale, int vanishing);

/* Whether the context's device can run double precision. */
int ts_has_fp64(hegetcl_context *ctx);

/* The next value of a splitmix64 stream, and a uniform draw in (0, 1) from its top 53 bits. */
uint64_t ts_splitmix64(uint64_t *state);
double ts_uniform(uint64_t *state);

/* Skips the calling test, saying why, when precision is double and the device has no fp64. */
void ts_skip_without_fp64(hegetcl_context *ctx, hegetcl_precision precision);

/* 1 when HEGETCL_TEST_EXHAUSTIVE=1 (the suite exhaustive sets it): a test then checks its
 * properties on every point and engine it knows, else on fewer points where a property is
 * already shown (the default run, meant for under 5 minutes on 2 cores). */
int ts_exhaustive(void);

/* The largest photon count an amplitude set holds. */
#define TS_AMPLITUDE_SET_N_MAX 12

/* Which (engine, n, precision) an amplitude set creates; NULL creates every one. */
typedef int (*ts_amplitude_wanted)(unsigned engine, unsigned n, hegetcl_precision precision);

/* One amplitude per engine, n and precision, with each creation's status and message, so that a
 * failed creation fails only the tests that use it. */
typedef struct {
  hegetcl_amplitude *amps[HEGETCL_ENGINE_COUNT][TS_AMPLITUDE_SET_N_MAX + 1][2];
  hegetcl_status status[HEGETCL_ENGINE_COUNT][TS_AMPLITUDE_SET_N_MAX + 1][2];
  char message[HEGETCL_ENGINE_COUNT][TS_AMPLITUDE_SET_N_MAX + 1][2][1024];
} ts_amplitude_set;

/* Creates the wanted amplitudes for n_min <= n <= n_max (at most TS_AMPLITUDE_SET_N_MAX), double
 * ones only where the device has fp64, recording each status and the library's message. */
void ts_amplitude_set_create(hegetcl_context *ctx, unsigned n_min, unsigned n_max,
                             ts_amplitude_wanted wanted, ts_amplitude_set *set);

/* The amplitude for (engine, n, precision); fails the calling test with the recorded message when
 * its creation failed. */
hegetcl_amplitude *ts_amplitude_set_get(const ts_amplitude_set *set, unsigned engine, unsigned n,
                                        hegetcl_precision precision);

/* Destroys every amplitude of the set (not the context). */
void ts_amplitude_set_destroy(ts_amplitude_set *set);

/* Asserts status is HEGETCL_OK, printing the context's message otherwise. */
#define TS_ASSERT_OK(ctx, status)                                                                  \
  do {                                                                                             \
    const hegetcl_status ts_status_ = (status);                                                    \
    if (ts_status_ != HEGETCL_OK)                                                                  \
      fail_msg("%s: %s", hegetcl_status_name(ts_status_), hegetcl_last_error(ctx));                \
  } while (0)

#endif
