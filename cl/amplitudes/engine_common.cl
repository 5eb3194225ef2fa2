/* SPDX-License-Identifier: MIT */
/* What every q qbar -> n photons engine sees: the HELAS library and the process size. */
#ifndef HG_ENGINE_COMMON_CL
#define HG_ENGINE_COMMON_CL

#include "helas/external.cl"
#include "helas/ffv.cl"

#ifndef N_PHOTONS
#error "N_PHOTONS is undefined: build with -D N_PHOTONS=n (hg_build_options() does)"
#endif
#if N_PHOTONS < 1 || N_PHOTONS > 16
#error "N_PHOTONS must lie in 1..16"
#endif
#define N_PARTICLES (N_PHOTONS + 2)

/* Every engine defines
 *   hg_complex hg_engine_amplitude(hg_wave fi, hg_wave fo, const hg_wave *photons,
 *                                  int quark_helicity, hg_coupling gc);
 * the amplitude of one helicity configuration, summed over the n! photon orderings, for the
 * incoming quark fi (ixxxx1), the incoming antiquark fo (oxxxx2) and the photons (vxxxx0). */

#endif
