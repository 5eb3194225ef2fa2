/* SPDX-License-Identifier: MIT */
/* The cross-section sampler: random numbers -> VEGAS map -> phase space -> cuts -> PDFs, writing
 * each event's momenta (scaled by 1/sqrt(shat), in the amplitude's precision), its helicity
 * configuration when sampled, and the weight factor that multiplies |M|^2 (0 outside the cuts).
 * Build options: N_PHOTONS, VEGAS_DIMS, VEGAS_BINS, AMP_REAL, PHASE_SPACE_RAMBO (0 or 1),
 * HELICITY_SAMPLED (0 or 1). */
#include "integrate/reduce.cl"
#include "integrate/vegas_map.h"
#include "pdf/lhapdf6_interp.h"
#include "phasespace/collider.h"
#include "phasespace/cuts.h"
#include "phasespace/rambo.h"
#include "shared/layout.h"
#include "shared/philox.h"
#include "xsec/params.h"

#define HG_N_PARTICLES (N_PHOTONS + 2)
/* Non-vanishing helicity configurations: two quark pairs times 2^n - 2 photon configurations. */
#define HG_HELICITY_CHOICES (2u * ((1u << N_PHOTONS) - 2u))

/* Event first_event + get_global_id(0) of iteration `iteration`; momenta, helicity, factor and
 * bins are indexed by the batch position (n_events per batch). pdf holds the quark (slot 0) and
 * antiquark (slot 1) grids. */
__kernel void xsec_sample(__global const double *restrict params,
                          __global const double *restrict grid, __global const double *restrict pdf,
                          const hg_u32 seed_low, const hg_u32 seed_high, const hg_u32 iteration,
                          const hg_u32 first_low, const hg_u32 first_high, const hg_u32 n_events,
                          __global AMP_REAL *restrict momenta, __global hg_u32 *restrict helicity,
                          __global double *restrict factor, __global uchar *restrict bins) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  const hg_u64 event = (((hg_u64)first_high << 32) | (hg_u64)first_low) + (hg_u64)e;
  double u[VEGAS_DIMS + 1];
  for (int b = 0; b < (VEGAS_DIMS + 1) / 2; ++b) {
    const hg_philox_words r =
        hg_philox4x32_10(hg_philox_counter(event, iteration, (hg_u32)b), seed_low, seed_high);
    u[2 * b] = hg_uniform_double(r.v[0], r.v[1]);
    u[2 * b + 1] = hg_uniform_double(r.v[2], r.v[3]);
  }
  double x[VEGAS_DIMS];
  double jacobian = 1.0;
  for (int j = 0; j < VEGAS_DIMS; ++j) {
    int bin;
    x[j] = hg_vegas_map(grid, j, VEGAS_BINS, u[j], &jacobian, &bin);
    bins[(size_t)j * n_events + e] = (uchar)bin;
  }
  const double sqrt_s = params[HG_XSEC_SQRT_S], pt_min = params[HG_XSEC_PT_MIN];
  const double eta_max = params[HG_XSEC_ETA_MAX];
#if PHASE_SPACE_RAMBO
  const hg_ps_point pt = hg_rambo_point(x, N_PHOTONS, sqrt_s, pt_min);
#else
  const hg_ps_point pt = hg_collider_point(x, N_PHOTONS, sqrt_s, pt_min, eta_max);
#endif
  const int pass =
      pt.physical && hg_passes_cuts(&pt, N_PHOTONS, pt_min, eta_max, params[HG_XSEC_DR_MIN]);
  int outside = 0;
  const double mu_f2 = params[HG_XSEC_MU_F2];
  /* x f(x) from the grid; a point outside it (never inside the cuts) is dropped */
  const double x1 = pass ? pt.x1 : 0.5, x2 = pass ? pt.x2 : 0.5;
  const double f1 = hg_pdf_xfxq2(pdf, 0, x1, mu_f2, &outside) / x1;
  const double f2 = hg_pdf_xfxq2(pdf, 1, x2, mu_f2, &outside) / x2;
  /* |M|^2 of the momenta scaled by 1/sqrt(shat) times shat^(2 - n) is |M|^2 (mass dimension
   * 4 - 2n); the scaling keeps float amplitudes in range at every n */
  const double inv_sqrt_shat = 1.0 / sqrt(pt.shat);
  double scale = 1.0;
  for (int k = 2; k < N_PHOTONS; ++k) scale /= pt.shat;
#if HELICITY_SAMPLED
  const hg_philox_words r =
      hg_philox4x32_10(hg_philox_counter(event, iteration, HG_BLOCK_HELICITY), seed_low, seed_high);
  const hg_u32 choice = hg_uniform_index(r.v[0], HG_HELICITY_CHOICES);
  /* (h_quark, h_antiquark) = (-, +) or (+, -); photon configuration 1 .. 2^n - 2 */
  const hg_u32 photons = 1u + choice / 2u;
  helicity[e] = (photons << 2) | ((choice & 1u) ? 1u : 2u);
  scale *= (double)HG_HELICITY_CHOICES;
#endif
  const double w =
      jacobian * pt.weight * f1 * f2 / (2.0 * pt.shat) * scale * params[HG_XSEC_NORMALISATION];
  factor[e] = (pass && !outside) ? w : 0.0;
  for (int i = 0; i < HG_N_PARTICLES; ++i)
    for (int c = 0; c < 4; ++c)
      momenta[HG_SOA_INDEX(c, i, HG_N_PARTICLES, n_events, e)] =
          (AMP_REAL)(pt.p[i][c] * inv_sqrt_shat);
}
