/* SPDX-License-Identifier: MIT */
/* The unrolled engine (HEGET's unrolled variant): the permutation loop with its innermost
 * levels written out, so the last photons' orderings share their off-shell quark lines. */
#ifndef HG_UNROLLED_CL
#define HG_UNROLLED_CL

#include "amplitudes/engine_common.cl"
#include "amplitudes/next_permutation.h"

#if N_PHOTONS >= 3
#define HG_UNROLL 3
#else
#define HG_UNROLL N_PHOTONS
#endif
#define HG_OUTER (N_PHOTONS - HG_UNROLL)

/* The sum over the orderings of the last three photons a, b, c after the quark line w. */
HG_INLINE hg_complex hg_unrolled_tail3(hg_wave w, hg_wave fo, hg_wave a, hg_wave b, hg_wave c,
                                       hg_coupling gc) {
  const hg_wave wa = fvixx0(w, a, gc), wb = fvixx0(w, b, gc), wc = fvixx0(w, c, gc);
  hg_complex amp = iovxxx(fvixx0(wa, b, gc), fo, c, gc);
  amp = hg_cadd(amp, iovxxx(fvixx0(wa, c, gc), fo, b, gc));
  amp = hg_cadd(amp, iovxxx(fvixx0(wb, a, gc), fo, c, gc));
  amp = hg_cadd(amp, iovxxx(fvixx0(wb, c, gc), fo, a, gc));
  amp = hg_cadd(amp, iovxxx(fvixx0(wc, a, gc), fo, b, gc));
  return hg_cadd(amp, iovxxx(fvixx0(wc, b, gc), fo, a, gc));
}

/* The same for the last two photons a, b. */
HG_INLINE hg_complex hg_unrolled_tail2(hg_wave w, hg_wave fo, hg_wave a, hg_wave b,
                                       hg_coupling gc) {
  return hg_cadd(iovxxx(fvixx0(w, a, gc), fo, b, gc), iovxxx(fvixx0(w, b, gc), fo, a, gc));
}

HG_INLINE hg_complex hg_engine_amplitude(hg_wave fi, hg_wave fo, const hg_wave *photons,
                                         int quark_helicity, hg_coupling gc) {
  (void)quark_helicity;
#if HG_UNROLL == 1
  return iovxxx(fi, fo, photons[0], gc);
#else
  int order[N_PHOTONS];
  hg_wave chain[HG_OUTER + 1];
  for (int k = 0; k < N_PHOTONS; ++k) order[k] = k;
  chain[0] = fi;
  for (int k = 1; k <= HG_OUTER; ++k) chain[k] = fvixx0(chain[k - 1], photons[k - 1], gc);
  hg_complex amp = hg_czero();
  for (;;) {
    const int *tail = order + HG_OUTER;
#if HG_UNROLL == 3
    amp = hg_cadd(amp, hg_unrolled_tail3(chain[HG_OUTER], fo, photons[tail[0]], photons[tail[1]],
                                         photons[tail[2]], gc));
#else
    amp = hg_cadd(amp, hg_unrolled_tail2(chain[HG_OUTER], fo, photons[tail[0]], photons[tail[1]],
                                         gc));
#endif
    /* Next ordered choice of the first HG_OUTER photons: with the (ascending) tail reversed, the
     * lexicographic successor changes a position before the tail and leaves the tail ascending. */
    hg_reverse(order, HG_OUTER, N_PHOTONS - 1);
    const int i = hg_next_permutation(order, N_PHOTONS);
    if (i < 0) break;
    for (int k = i + 1; k <= HG_OUTER; ++k)
      chain[k] = fvixx0(chain[k - 1], photons[order[k - 1]], gc);
  }
  return amp;
#endif
}

#endif
