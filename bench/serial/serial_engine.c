/* SPDX-License-Identifier: MIT */
/* One serial case: cl/amplitudes/kernels.cl's amplitude_summed and amplitude_helicity as host C
 * loops over a batch, for the engine HG_SERIAL_ENGINE, N_PHOTONS and REAL of this compilation. */
#include "serial_cases.h"

#ifndef HG_SERIAL_ENGINE
#error                                                                                             \
    "HG_SERIAL_ENGINE is undefined: build with -D HG_SERIAL_ENGINE=0, 1 or 2 (bench/serial/meson.build does)"
#elif HG_SERIAL_ENGINE == HG_SERIAL_PERMUTATION
#include "amplitudes/permutation.cl"
#define HG_SERIAL_ENGINE_TOKEN permutation
#elif HG_SERIAL_ENGINE == HG_SERIAL_UNROLLED
#include "amplitudes/unrolled.cl"
#define HG_SERIAL_ENGINE_TOKEN unrolled
#elif HG_SERIAL_ENGINE == HG_SERIAL_RECURSIVE
#include "amplitudes/recursive.cl"
#define HG_SERIAL_ENGINE_TOKEN recursive
#else
#error "HG_SERIAL_ENGINE must be 0 (permutation), 1 (unrolled) or 2 (recursive)"
#endif
#include "shared/layout.h"

#define HG_SERIAL_FUNCTION(mode) HG_SERIAL_NAME(HG_SERIAL_ENGINE_TOKEN, N_PHOTONS, REAL, mode)

/* hg_load_momentum of kernels.cl, reading the caller's doubles. */
static hg_fourvec load_momentum(const double *momenta, size_t n_events, size_t event,
                                int particle) {
  return hg_fourvec_make((REAL)momenta[HG_SOA_INDEX(0, particle, N_PARTICLES, n_events, event)],
                         (REAL)momenta[HG_SOA_INDEX(1, particle, N_PARTICLES, n_events, event)],
                         (REAL)momenta[HG_SOA_INDEX(2, particle, N_PARTICLES, n_events, event)],
                         (REAL)momenta[HG_SOA_INDEX(3, particle, N_PARTICLES, n_events, event)]);
}

static hg_coupling photon_coupling(REAL coupling) {
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(coupling, (REAL)0);
  gc.gal[1] = hg_cmplx(coupling, (REAL)0);
  return gc;
}

/* amplitude_summed: only h_q = -1, h_qbar = +1 is evaluated and doubled (flipping every helicity
 * conjugates the amplitude, CONVENTIONS.md "helicity sum"); the configurations with all photons
 * alike vanish and are skipped. */
void HG_SERIAL_FUNCTION(summed)(size_t n_events, const double *momenta, double coupling,
                                double me_factor, double *me) {
  const hg_coupling gc = photon_coupling((REAL)coupling);
  const REAL factor = (REAL)me_factor;
  for (size_t event = 0; event < n_events; ++event) {
    const hg_wave fi = ixxxx1(load_momentum(momenta, n_events, event, 0), -1, 1);
    const hg_wave fo = oxxxx2(load_momentum(momenta, n_events, event, 1), 1, -1);
    hg_wave plus[N_PHOTONS], minus[N_PHOTONS];
    for (int k = 0; k < N_PHOTONS; ++k) {
      const hg_fourvec p = load_momentum(momenta, n_events, event, 2 + k);
      plus[k] = vxxxx0(p, 1, 1);
      minus[k] = vxxxx0(p, -1, 1);
    }
    REAL sum = (REAL)0;
    for (hg_u32 photon_config = 1; photon_config + 1 < (1u << N_PHOTONS); ++photon_config) {
      hg_wave photons[N_PHOTONS];
      for (int k = 0; k < N_PHOTONS; ++k)
        photons[k] = ((photon_config >> k) & 1u) ? plus[k] : minus[k];
      sum += hg_cabs2(hg_engine_amplitude(fi, fo, photons, -1, gc));
    }
    me[event] = (double)((REAL)2 * sum * factor);
  }
}

/* amplitude_helicity: the external wavefunctions of configuration helicity[event] (ixxxx1 for the
 * quark, oxxxx2 for the antiquark, vxxxx0 for the photons) and its |M|^2. */
void HG_SERIAL_FUNCTION(helicity)(size_t n_events, const double *momenta, double coupling,
                                  double me_factor, const uint32_t *helicity, double *me) {
  const hg_coupling gc = photon_coupling((REAL)coupling);
  const REAL factor = (REAL)me_factor;
  for (size_t event = 0; event < n_events; ++event) {
    const hg_u32 config = helicity[event];
    const hg_wave fi =
        ixxxx1(load_momentum(momenta, n_events, event, 0), HG_HELICITY_OF(config, 0), 1);
    const hg_wave fo =
        oxxxx2(load_momentum(momenta, n_events, event, 1), HG_HELICITY_OF(config, 1), -1);
    hg_wave photons[N_PHOTONS];
    for (int k = 0; k < N_PHOTONS; ++k)
      photons[k] =
          vxxxx0(load_momentum(momenta, n_events, event, 2 + k), HG_HELICITY_OF(config, 2 + k), 1);
    me[event] =
        (double)(hg_cabs2(hg_engine_amplitude(fi, fo, photons, HG_HELICITY_OF(config, 0), gc)) *
                 factor);
  }
}
