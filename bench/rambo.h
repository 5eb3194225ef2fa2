/* SPDX-License-Identifier: MIT */
/* Seeded random massless phase-space points for the benchmark (RAMBO, not for physics results). */
#ifndef HG_BENCH_RAMBO_H
#define HG_BENCH_RAMBO_H

#include <stddef.h>
#include <stdint.h>

/* Fills momenta (4 * (n_photons + 2) * n_events doubles, the structure-of-arrays layout of
 * hegetcl_amplitude_evaluate) with points u(+z) ubar(-z) -> n_photons photons at sqrt(s) =
 * sqrt_s GeV: photons from RAMBO (Kleiss, Stirling, Ellis 1986) with a splitmix64 stream started
 * at seed, kept when every photon has pT > 0.1 sqrt_s / n and every photon pair an angle above
 * 0.1 rad, so no point sits next to a soft or collinear singularity. n_photons lies in 1..16. */
void hg_bench_rambo(unsigned n_photons, double sqrt_s, size_t n_events, uint64_t seed,
                    double *momenta);

/* The same for n_out outgoing particles of the given masses (GeV; the sum below sqrt_s) behind
 * two massless incoming ones: massless RAMBO points under the same cuts, then RAMBO's rescaling
 * to the masses (three-momenta scaled by one factor that keeps the energy sqrt_s). */
void hg_bench_rambo_massive(unsigned n_out, const double *masses, double sqrt_s, size_t n_events,
                            uint64_t seed, double *momenta);

#endif
