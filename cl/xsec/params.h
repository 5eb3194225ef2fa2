/* SPDX-License-Identifier: MIT */
/* Slots of the cross-section sampler's parameter buffer (doubles), read by host C and OpenCL C. */
#ifndef HG_XSEC_PARAMS_H
#define HG_XSEC_PARAMS_H

#define HG_XSEC_SQRT_S 0        /* collider energy, GeV */
#define HG_XSEC_PT_MIN 1        /* photon pT cut, GeV */
#define HG_XSEC_ETA_MAX 2       /* photon |eta| cut */
#define HG_XSEC_DR_MIN 3        /* photon pair Delta R cut */
#define HG_XSEC_MU_F2 4         /* factorisation scale squared, GeV^2 */
#define HG_XSEC_NORMALISATION 5 /* GeV^-2 -> fb times the beam-orientation factor */
/* 1 when the quark comes from either proton (orientation both): the histograms then take each
 * event mirrored (eta -> -eta) when its orientation draw says so, as its unweighted event does */
#define HG_XSEC_MIRROR 6
/* Histogram binning per observable family f (cl/analysis/observables.h): bins, lo, hi */
#define HG_XSEC_HIST_BINNING 7
#define HG_XSEC_HIST_BINS(f) (HG_XSEC_HIST_BINNING + 3 * (f))
#define HG_XSEC_HIST_LO(f) (HG_XSEC_HIST_BINNING + 3 * (f) + 1)
#define HG_XSEC_HIST_HI(f) (HG_XSEC_HIST_BINNING + 3 * (f) + 2)
/* Runs over flavour channels (CHANNELS > 0): for flavour slot k (the k-th flavour of the run in
 * the order d u s c b) GeV^-2 -> fb times (Q_q / Q_u)^(2n), as |M|^2 comes with the u charge
 * (CONVENTIONS.md, "Flavour channels") */
#define HG_XSEC_CHANNEL_NORM(k) (HG_XSEC_HIST_BINNING + 3 * 4 + (k))
#define HG_XSEC_PARAM_COUNT (HG_XSEC_HIST_BINNING + 3 * 4 + 5)

/* The flavour channels' reduction (xsec/channels.cl): work-items per group (exactly), events per
 * group. */
#define HG_CHANNEL_LOCAL 128
#define HG_CHANNEL_PER_GROUP 2048

/* The adaptive sampling tables (one buffer of doubles, uploaded at the start of every iteration;
 * CONVENTIONS.md, "Adaptive sampling"): the cumulative probabilities of the 2^n - 2 photon
 * helicity configurations 1 .. 2^n - 2 (--helicity adaptive), then those of the n phase-space
 * channels (--phase-space multichannel); each part ends in exactly 1. */
#define HG_PHOTON_CONFIGS(n) ((1u << (n)) - 2u)
#define HG_SAMPLING_HELICITY_TABLE 0
#define HG_SAMPLING_CHANNEL_TABLE(n) HG_PHOTON_CONFIGS(n)
#define HG_SAMPLING_TABLE_SIZE(n) (HG_PHOTON_CONFIGS(n) + (n))
/* What the adaptation learns from a batch (xsec/sampling_sums.cl): per photon configuration c,
 * the sum of the weights of the events drawn with it (slot c - 1), then per phase-space channel k
 * the sum of the squared weights of the events made in it (slot 2^n - 2 + 2k) and their count
 * (the next slot). */
#define HG_SAMPLING_SUMS(n) (HG_PHOTON_CONFIGS(n) + 2u * (n))
#define HG_SAMPLING_LOCAL 128
#define HG_SAMPLING_PER_GROUP 4096

/* Philox draw blocks: the VEGAS dimensions use blocks 0 .. (dims + 1) / 2 - 1 (two uniforms each);
 * the sampled helicity configuration uses its own block. */
#define HG_BLOCK_HELICITY 0x10000u
/* Unweighting: the hit-or-miss uniform, and the choice of which proton gives the quark. */
#define HG_BLOCK_UNWEIGHT 0x10001u
#define HG_BLOCK_ORIENTATION 0x10002u
/* ... and, in a run over flavour channels, which channel an unweighted event takes */
#define HG_BLOCK_CHANNEL 0x10003u
/* The phase-space channel of an event (--phase-space multichannel). */
#define HG_BLOCK_PS_CHANNEL 0x10004u
/* The iteration number of the counter for unweighted-event generation (VEGAS iterations count
 * from 0 and never reach it). */
#define HG_ITERATION_EVENTS 0x80000000u
/* ... and of the events a float run checks against double (xsec/precision_check.c) */
#define HG_ITERATION_PRECISION_CHECK 0x80000001u

#endif
