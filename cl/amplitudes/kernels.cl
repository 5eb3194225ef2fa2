/* SPDX-License-Identifier: MIT */
/* The amplitude kernels: one work-item per event, the engine chosen by the program's sources. */
#include "amplitudes/engine_common.cl"
#include "common/beam_frame.h"
#include "shared/layout.h"

HG_INLINE hg_fourvec hg_load_momentum(__global const REAL *momenta, hg_u32 n_events, size_t event,
                                      int particle) {
  return hg_fourvec_make(momenta[HG_SOA_INDEX(0, particle, N_PARTICLES, n_events, event)],
                         momenta[HG_SOA_INDEX(1, particle, N_PARTICLES, n_events, event)],
                         momenta[HG_SOA_INDEX(2, particle, N_PARTICLES, n_events, event)],
                         momenta[HG_SOA_INDEX(3, particle, N_PARTICLES, n_events, event)]);
}

/* Caller buffers of hegetcl_amplitude_evaluate_buffers: every event of in copied to out in the
 * beam frame (common/beam_frame.h), events already there unchanged. */
__kernel void amplitude_beam_frame(__global const REAL *restrict in, const hg_u32 n_events,
                                   __global REAL *restrict out) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  REAL p[4 * N_PARTICLES];
  for (int i = 0; i < N_PARTICLES; ++i)
    for (int c = 0; c < 4; ++c) p[4 * i + c] = in[HG_SOA_INDEX(c, i, N_PARTICLES, n_events, event)];
  hg_to_beam_frame(p, N_PARTICLES);
  for (int i = 0; i < N_PARTICLES; ++i)
    for (int c = 0; c < 4; ++c) out[HG_SOA_INDEX(c, i, N_PARTICLES, n_events, event)] = p[4 * i + c];
}

HG_INLINE hg_coupling hg_photon_coupling(REAL coupling) {
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(coupling, (REAL)0);
  gc.gal[1] = hg_cmplx(coupling, (REAL)0);
  return gc;
}

/* The external wavefunctions of one event in the helicity configuration config (bit i: particle
 * i has helicity +1): the quark (ixxxx1), the antiquark (oxxxx2) and the photons (vxxxx0). */
typedef struct {
  hg_wave fi, fo, photons[N_PHOTONS];
} hg_externals;

HG_INLINE hg_externals hg_load_externals(__global const REAL *momenta, hg_u32 n_events,
                                         size_t event, hg_u32 config) {
  hg_externals x;
  x.fi = ixxxx1(hg_load_momentum(momenta, n_events, event, 0), HG_HELICITY_OF(config, 0), 1);
  x.fo = oxxxx2(hg_load_momentum(momenta, n_events, event, 1), HG_HELICITY_OF(config, 1), -1);
  for (int k = 0; k < N_PHOTONS; ++k)
    x.photons[k] =
        vxxxx0(hg_load_momentum(momenta, n_events, event, 2 + k), HG_HELICITY_OF(config, 2 + k), 1);
  return x;
}

#if defined(HG_DIAGRAM_PARTS)
/* The diagram engine split over kernels (host/amplitude/diagrams_codegen.c defines the parts
 * hg_diagrams_part_<p> and the list HG_DIAGRAM_PARTS). For one helicity configuration the host
 * launches every part in order, each adding its diagrams' sum into partial (part 0 stores it, so
 * the buffer needs no clearing), then amplitude_accumulate; the in-order queue keeps them apart.
 * partial holds the real parts at [event] and the imaginary parts at [n_events + event]. */
HG_INLINE void hg_add_partial(__global REAL *partial, hg_u32 n_events, size_t event, int first,
                              hg_complex a) {
  const REAL re = first ? (REAL)0 : partial[event];
  const REAL im = first ? (REAL)0 : partial[n_events + event];
  partial[event] = re + a.re;
  partial[n_events + event] = im + a.im;
}

/* Part p's kernel, amplitude_diagrams_part_<p> (HG_KERNEL_AMPLITUDE_DIAGRAMS_PART and p): its
 * diagrams' amplitude in configuration config for every event (batch-uniform, the summed mode),
 * or helicity[event] when per_event is non-zero (the per-helicity mode). */
#define HG_DIAGRAMS_PART_KERNEL(part)                                                              \
  __kernel void amplitude_diagrams_part_##part(                                                    \
      __global const REAL *restrict momenta, const hg_u32 n_events, const REAL coupling,           \
      __global const hg_u32 *restrict helicity, const hg_u32 config, const hg_u32 per_event,       \
      __global REAL *restrict partial) {                                                           \
    const size_t event = get_global_id(0);                                                         \
    if (event >= n_events) return;                                                                 \
    const hg_externals x =                                                                         \
        hg_load_externals(momenta, n_events, event, per_event ? helicity[event] : config);         \
    hg_add_partial(partial, n_events, event, (part) == 0,                                          \
                   hg_diagrams_part_##part(x.fi, x.fo, x.photons, hg_photon_coupling(coupling)));  \
  }
HG_DIAGRAM_PARTS(HG_DIAGRAMS_PART_KERNEL)

/* me[event] (0 when first is non-zero) plus factor |partial[event]|^2: factor is me_factor for
 * one configuration per event, 2 me_factor for each configuration of the summed mode (the
 * flipped configuration's conjugate amplitude, as in amplitude_summed). */
__kernel void amplitude_accumulate(__global const REAL *restrict partial, const hg_u32 n_events,
                                   const REAL factor, const hg_u32 first,
                                   __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  const REAL re = partial[event], im = partial[n_events + event];
  me[event] = (first ? (REAL)0 : me[event]) + factor * (re * re + im * im);
}

#else
#if !defined(HG_RS_THREADS) /* else recursive_shared.cl's amplitude_summed */
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
#endif

/* |M|^2 of the helicity configuration helicity[event] (bit i: particle i has helicity +1), times
 * me_factor; summed over all configurations it gives amplitude_summed. */
__kernel void amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                                 const REAL coupling, const REAL me_factor,
                                 __global const hg_u32 *restrict helicity,
                                 __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  const hg_u32 config = helicity[event];
  const hg_externals x = hg_load_externals(momenta, n_events, event, config);
  me[event] = hg_cabs2(hg_engine_amplitude(x.fi, x.fo, x.photons, HG_HELICITY_OF(config, 0),
                                           hg_photon_coupling(coupling))) *
              me_factor;
}
#endif
