/* SPDX-License-Identifier: MIT */
/* The amplitude kernels: one work-item per event, the engine chosen by the program's sources. */
#include "amplitudes/engine_common.cl"
#include "shared/layout.h"

HG_INLINE hg_fourvec hg_load_momentum(__global const REAL *momenta, hg_u32 n_events, size_t event,
                                      int particle) {
  return hg_fourvec_make(momenta[HG_SOA_INDEX(0, particle, N_PARTICLES, n_events, event)],
                         momenta[HG_SOA_INDEX(1, particle, N_PARTICLES, n_events, event)],
                         momenta[HG_SOA_INDEX(2, particle, N_PARTICLES, n_events, event)],
                         momenta[HG_SOA_INDEX(3, particle, N_PARTICLES, n_events, event)]);
}

HG_INLINE hg_coupling hg_photon_coupling(REAL coupling) {
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(coupling, (REAL)0);
  gc.gal[1] = hg_cmplx(coupling, (REAL)0);
  return gc;
}

/* The helicity-summed, spin- and colour-averaged |M|^2 times me_factor = 1/(12 n!) (host's
 * hg_me_factor()). Only the quark-line chirality with h_q = -1, h_qbar = +1 is evaluated and
 * doubled: flipping every helicity conjugates the amplitude (CONVENTIONS.md, "helicity sum"); the
 * configurations with h_q = h_qbar or all photons alike vanish identically and are skipped. */
__kernel void amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                               const REAL coupling, const REAL me_factor,
                               __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return; /* the global size is rounded up to a multiple of the local size */
  const hg_coupling gc = hg_photon_coupling(coupling);
  const hg_wave fi = ixxxx1(hg_load_momentum(momenta, n_events, event, 0), -1, 1);
  const hg_wave fo = oxxxx2(hg_load_momentum(momenta, n_events, event, 1), 1, -1);
  hg_wave plus[N_PHOTONS], minus[N_PHOTONS];
  for (int k = 0; k < N_PHOTONS; ++k) {
    const hg_fourvec p = hg_load_momentum(momenta, n_events, event, 2 + k);
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
  me[event] = (REAL)2 * sum * me_factor;
}

/* |M|^2 of the helicity configuration helicity[event] (bit i: particle i has helicity +1), times
 * me_factor; summed over all configurations it gives amplitude_summed. */
__kernel void amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                                 const REAL coupling, const REAL me_factor,
                                 __global const hg_u32 *restrict helicity,
                                 __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  const hg_coupling gc = hg_photon_coupling(coupling);
  const hg_u32 config = helicity[event];
  const int quark_helicity = HG_HELICITY_OF(config, 0);
  const hg_wave fi = ixxxx1(hg_load_momentum(momenta, n_events, event, 0), quark_helicity, 1);
  const hg_wave fo =
      oxxxx2(hg_load_momentum(momenta, n_events, event, 1), HG_HELICITY_OF(config, 1), -1);
  hg_wave photons[N_PHOTONS];
  for (int k = 0; k < N_PHOTONS; ++k)
    photons[k] = vxxxx0(hg_load_momentum(momenta, n_events, event, 2 + k),
                        HG_HELICITY_OF(config, 2 + k), 1);
  me[event] = hg_cabs2(hg_engine_amplitude(fi, fo, photons, quark_helicity, gc)) * me_factor;
}
