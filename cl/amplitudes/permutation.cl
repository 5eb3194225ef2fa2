/* SPDX-License-Identifier: MIT */
/* The permutation engine (HEGET's method): a next-permutation loop over the n! photon orderings. */
#ifndef HG_PERMUTATION_CL
#define HG_PERMUTATION_CL

#include "amplitudes/engine_common.cl"
#include "amplitudes/next_permutation.h"

/* Orderings come in lexicographic order; chain[k] is the quark line after its first k photons,
 * so a step that changes the ordering from position i on recomputes only chain[i+1..n-1]. */
HG_INLINE hg_complex hg_engine_amplitude(hg_wave fi, hg_wave fo, const hg_wave *photons,
                                         int quark_helicity, hg_coupling gc) {
  (void)quark_helicity;
  int order[N_PHOTONS];
  hg_wave chain[N_PHOTONS];
  for (int k = 0; k < N_PHOTONS; ++k) order[k] = k;
  chain[0] = fi;
  for (int k = 1; k < N_PHOTONS; ++k) chain[k] = fvixx0(chain[k - 1], photons[k - 1], gc);
  hg_complex amp = iovxxx(chain[N_PHOTONS - 1], fo, photons[N_PHOTONS - 1], gc);
  for (;;) {
    const int i = hg_next_permutation(order, N_PHOTONS);
    if (i < 0) break;
    for (int k = i + 1; k < N_PHOTONS; ++k)
      chain[k] = fvixx0(chain[k - 1], photons[order[k - 1]], gc);
    amp = hg_cadd(amp, iovxxx(chain[N_PHOTONS - 1], fo, photons[order[N_PHOTONS - 1]], gc));
  }
  return amp;
}

#endif
