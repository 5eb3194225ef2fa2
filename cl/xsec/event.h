/* SPDX-License-Identifier: MIT */
/* One event of the cross-section sampler, from its Philox counter: VEGAS map -> phase space ->
 * cuts -> PDFs -> helicity choice. The sampler and the unweighted-event gather share it, so an
 * event is the same wherever it is made. Build options: N_PHOTONS, VEGAS_DIMS, VEGAS_BINS,
 * PHASE_SPACE_RAMBO, PHASE_SPACE_MULTICHANNEL, HELICITY_SAMPLED, HELICITY_ADAPTIVE (with
 * HELICITY_SAMPLED: drawn from the adapted table, CONVENTIONS.md "Adaptive sampling"), FLAVOURS
 * and CHANNELS (0 and 0 for one quark flavour; else the run's flavours and FLAVOURS or 2 FLAVOURS
 * channels: CONVENTIONS.md, "Flavour channels"). */
#ifndef HG_XSEC_EVENT_H
#define HG_XSEC_EVENT_H

#include "integrate/table_draw.h"
#include "integrate/vegas_map.h"
#include "pdf/lhapdf6_interp.h"
#include "phasespace/collider.h"
#include "phasespace/cuts.h"
#include "phasespace/multichannel.h"
#include "phasespace/rambo.h"
#include "shared/philox.h"
#include "xsec/params.h"

#define HG_N_PARTICLES (N_PHOTONS + 2)
/* Non-vanishing helicity configurations: two quark pairs times 2^n - 2 photon configurations. */
#define HG_HELICITY_CHOICES (2u * ((1u << N_PHOTONS) - 2u))
#if CHANNELS
/* channels per flavour: q qbar, and qbar q when both orientations count */
#define HG_CHANNEL_ORIENTATIONS (CHANNELS / FLAVOURS)
#endif

typedef struct {
  hg_ps_point pt;
  double factor;    /* the weight is factor |M|^2 (|M|^2 of the momenta scaled by 1/sqrt(shat));
                       0 outside the cuts or the PDF grid */
  hg_u32 helicity;  /* the sampled configuration (CONVENTIONS.md), 0 when summed */
  hg_u32 ps_channel;   /* the phase-space channel the event was made in (0 with one map) */
  int bin[VEGAS_DIMS]; /* the VEGAS bin of every dimension */
#if CHANNELS
  /* each channel's factor (they add up to factor; 0 where it is): flavour slot k gives channel
   * HG_CHANNEL_ORIENTATIONS k (q from proton 1) and, with both orientations, the next (qbar from
   * proton 1) */
  double channel[CHANNELS];
#endif
} hg_xsec_event;

/* Event `event` of iteration `iteration` (Philox key seed_low, seed_high); sampling holds the
 * adapted tables (params.h, HG_SAMPLING_*), read only by the adaptive modes. */
HG_INLINE hg_xsec_event hg_xsec_make_event(HG_GLOBAL const double *params,
                                           HG_GLOBAL const double *grid,
                                           HG_GLOBAL const double *pdf,
                                           HG_GLOBAL const double *sampling, hg_u32 seed_low,
                                           hg_u32 seed_high, hg_u32 iteration, hg_u64 event) {
  hg_xsec_event ev;
  double u[VEGAS_DIMS + 1];
  for (int b = 0; b < (VEGAS_DIMS + 1) / 2; ++b) {
    const hg_philox_words r =
        hg_philox4x32_10(hg_philox_counter(event, iteration, (hg_u32)b), seed_low, seed_high);
    u[2 * b] = hg_uniform_double(r.v[0], r.v[1]);
    u[2 * b + 1] = hg_uniform_double(r.v[2], r.v[3]);
  }
  double x[VEGAS_DIMS];
  double jacobian = 1.0;
  for (int j = 0; j < VEGAS_DIMS; ++j) x[j] = hg_vegas_map(grid, j, VEGAS_BINS, u[j], &jacobian, &ev.bin[j]);
  const double sqrt_s = params[HG_XSEC_SQRT_S], pt_min = params[HG_XSEC_PT_MIN];
  const double eta_max = params[HG_XSEC_ETA_MAX];
  ev.ps_channel = 0u;
#if PHASE_SPACE_RAMBO
  ev.pt = hg_rambo_point(x, N_PHOTONS, sqrt_s, pt_min);
#elif PHASE_SPACE_MULTICHANNEL
  /* channel k with probability alpha_k, its point from the shared grid in its coordinates */
  const hg_philox_words rc = hg_philox4x32_10(
      hg_philox_counter(event, iteration, HG_BLOCK_PS_CHANNEL), seed_low, seed_high);
  double alpha_k = 1.0;
  ev.ps_channel = hg_table_draw(sampling + HG_SAMPLING_CHANNEL_TABLE(N_PHOTONS), N_PHOTONS,
                                hg_uniform_double(rc.v[0], rc.v[1]), &alpha_k);
  ev.pt = hg_multichannel_point(x, N_PHOTONS, (int)ev.ps_channel, sqrt_s, pt_min, eta_max);
#else
  ev.pt = hg_collider_point(x, N_PHOTONS, sqrt_s, pt_min, eta_max);
#endif
  const int pass = ev.pt.physical &&
                   hg_passes_cuts(&ev.pt, N_PHOTONS, pt_min, eta_max, params[HG_XSEC_DR_MIN]);
#if PHASE_SPACE_MULTICHANNEL
  /* 1 / (sum_k alpha_k g_k) replaces the one channel's Jacobian times weight (1 outside the
   * cuts, where the factor is 0 anyway) */
  (void)jacobian;
  const double jw = pass ? hg_multichannel_weight(&ev.pt, N_PHOTONS, grid, VEGAS_BINS,
                                                  sampling + HG_SAMPLING_CHANNEL_TABLE(N_PHOTONS),
                                                  sqrt_s, pt_min, eta_max)
                         : 1.0;
#else
  const double jw = jacobian * ev.pt.weight;
#endif
  int outside = 0;
  const double mu_f2 = params[HG_XSEC_MU_F2];
  /* x f(x) from the grid; a point outside it (never inside the cuts) is dropped */
  const double x1 = pass ? ev.pt.x1 : 0.5, x2 = pass ? ev.pt.x2 : 0.5;
#if !CHANNELS
  const double f1 = hg_pdf_xfxq2(pdf, 0, x1, mu_f2, &outside) / x1;
  const double f2 = hg_pdf_xfxq2(pdf, 1, x2, mu_f2, &outside) / x2;
#endif
  /* |M|^2 of the momenta scaled by 1/sqrt(shat) times shat^(2 - n) is |M|^2 (mass dimension
   * 4 - 2n); the scaling keeps float amplitudes in range at every n */
  double scale = 1.0;
  for (int k = 2; k < N_PHOTONS; ++k) scale /= ev.pt.shat;
  ev.helicity = 0u;
#if HELICITY_SAMPLED
  const hg_philox_words r =
      hg_philox4x32_10(hg_philox_counter(event, iteration, HG_BLOCK_HELICITY), seed_low, seed_high);
#if HELICITY_ADAPTIVE
  /* photon configuration c + 1 with the table's probability p_c, the quark pair (-, +) or (+, -)
   * with 1/2 each (parity partners: |M|^2 is the same) */
  double probability = 1.0;
  const hg_u32 photons =
      1u + hg_table_draw(sampling + HG_SAMPLING_HELICITY_TABLE, HG_PHOTON_CONFIGS(N_PHOTONS),
                         hg_uniform_double(r.v[0], r.v[1]), &probability);
  ev.helicity = (photons << 2) | ((r.v[2] & 1u) ? 1u : 2u);
  scale *= 2.0 / probability;
#else
  const hg_u32 choice = hg_uniform_index(r.v[0], HG_HELICITY_CHOICES);
  /* (h_quark, h_antiquark) = (-, +) or (+, -); photon configuration 1 .. 2^n - 2 */
  const hg_u32 photons = 1u + choice / 2u;
  ev.helicity = (photons << 2) | ((choice & 1u) ? 1u : 2u);
  scale *= (double)HG_HELICITY_CHOICES;
#endif
#endif
#if CHANNELS
  /* one |M|^2 for every channel: flavour slot k holds q (grid slot 2k) and qbar (2k + 1); each
   * channel's weight is formed as the one-flavour weight below is, so a run of u alone from
   * proton 1 gives the same numbers bit for bit */
  for (int k = 0; k < FLAVOURS; ++k) {
    const double norm = params[HG_XSEC_CHANNEL_NORM(k)];
    const double q1 = hg_pdf_xfxq2(pdf, 2 * k, x1, mu_f2, &outside) / x1;
    const double qbar2 = hg_pdf_xfxq2(pdf, 2 * k + 1, x2, mu_f2, &outside) / x2;
    ev.channel[HG_CHANNEL_ORIENTATIONS * k] = jw * q1 * qbar2 / (2.0 * ev.pt.shat) * scale * norm;
#if HG_CHANNEL_ORIENTATIONS == 2
    const double qbar1 = hg_pdf_xfxq2(pdf, 2 * k + 1, x1, mu_f2, &outside) / x1;
    const double q2 = hg_pdf_xfxq2(pdf, 2 * k, x2, mu_f2, &outside) / x2;
    ev.channel[2 * k + 1] = jw * qbar1 * q2 / (2.0 * ev.pt.shat) * scale * norm;
#endif
  }
  const int keep = pass && !outside;
  double w = 0.0;
  for (int c = 0; c < CHANNELS; ++c) {
    ev.channel[c] = keep ? ev.channel[c] : 0.0;
    w = c == 0 ? ev.channel[0] : w + ev.channel[c];
  }
  ev.factor = w;
#else
  const double w = jw * f1 * f2 / (2.0 * ev.pt.shat) * scale * params[HG_XSEC_NORMALISATION];
  ev.factor = (pass && !outside) ? w : 0.0;
#endif
  return ev;
}

#endif
