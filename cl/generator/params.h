/* SPDX-License-Identifier: MIT */
/* Slots of the process sampler's parameter buffer (doubles), read by host C and OpenCL C. */
#ifndef HG_GENERATOR_PARAMS_H
#define HG_GENERATOR_PARAMS_H

#include "generator/phase_space.h"
#include "generator/tchannel.h"
#include "phasespace/mg_cuts.h"

#define HG_GEN_SQRT_S 0 /* collider energy, GeV */
#define HG_GEN_M_MIN 1  /* the system's mass range, GeV: its daughters' masses' sum, or mmll */
#define HG_GEN_M_MAX 2  /* sqrt(s), or mmllmax */
#define HG_GEN_MASS_A 3 /* the system's daughters' masses, GeV */
#define HG_GEN_MASS_B 4
#define HG_GEN_MU_F2 5         /* fixed factorisation scale squared, GeV^2 (factor applied) */
#define HG_GEN_NORMALISATION 6 /* GeV^-2 -> fb */
#define HG_GEN_MU_R2 7         /* fixed renormalisation scale squared, GeV^2 (factor applied) */
#define HG_GEN_ALPHA_S_AMP 8   /* the alpha_s the amplitude was built with */
#define HG_GEN_MU_R_FACTOR 9   /* multiply a dynamical mu_R and mu_F */
#define HG_GEN_MU_F_FACTOR 10
/* The group's members: the program's GEN_MEMBERS is the largest group's count (one program for
 * all), members from this count on are none (factor 0) */
#define HG_GEN_N_MEMBERS 11
/* Member m of the group: the PDF grid slots of the parton from beam 1 and from beam 2 (beam 2's
 * slot already that of the charge conjugate for an antiproton beam), and 1 when the member is
 * the group's process with the incoming pair swapped (CONVENTIONS.md, "Partonic channels") */
/* Sampled object k (a final-state particle in (pT, eta, phi)): its pT cut and |eta| bound (<= 0:
 * none), its class's cuts */
#define HG_GEN_OBJECT_PT(k) (12 + 2 * (k))
#define HG_GEN_OBJECT_ETA(k) (13 + 2 * (k))
/* The cut values (HG_CUT_COUNT, phasespace/mg_cuts.h) and each particle's cut code in the
 * sampler's order (HG_GEN_MAX_EXTERNAL) */
#define HG_GEN_CUTS (12 + 2 * HG_GEN_MAX_EXTERNAL)
#define HG_GEN_CUT_CODES (HG_GEN_CUTS + HG_CUT_COUNT)
#define HG_GEN_MEMBERS_FIRST (HG_GEN_CUT_CODES + HG_GEN_MAX_EXTERNAL)
#define HG_GEN_MEMBER_SLOT1(m) (HG_GEN_MEMBERS_FIRST + 3 * (m))
#define HG_GEN_MEMBER_SLOT2(m) (HG_GEN_MEMBERS_FIRST + 1 + 3 * (m))
#define HG_GEN_MEMBER_MIRROR(m) (HG_GEN_MEMBERS_FIRST + 2 + 3 * (m))
#define HG_GEN_PARAM_COUNT(members) (HG_GEN_MEMBERS_FIRST + 3 * (members))
/* After the members, the phase-space channels (generator/multichannel.h): the cumulative table
 * of their weights alpha (the last exactly 1), then each channel's kind, a and b */
#define HG_GEN_CHANNEL_TABLE(members) HG_GEN_PARAM_COUNT(members)
#define HG_GEN_CHANNEL_KIND(members, channels, c)                                                  \
  (HG_GEN_PARAM_COUNT(members) + (channels) + 3 * (c))
#define HG_GEN_CHANNEL_A(members, channels, c) (HG_GEN_CHANNEL_KIND(members, channels, c) + 1)
#define HG_GEN_CHANNEL_B(members, channels, c) (HG_GEN_CHANNEL_KIND(members, channels, c) + 2)
/* then each channel's chain record (generator/tchannel.h; zeros for the other kinds) */
#define HG_GEN_CHANNEL_CHAIN_RECORD(members, channels, c)                                          \
  (HG_GEN_PARAM_COUNT(members) + 4 * (channels) + HG_GEN_CHAIN_STRIDE * (c))
#define HG_GEN_PARAM_TOTAL(members, channels)                                                      \
  (HG_GEN_PARAM_COUNT(members) + (4 + HG_GEN_CHAIN_STRIDE) * (channels))

/* Philox draw blocks beyond the VEGAS dimensions' (0 .. (dims + 1) / 2 - 1) */
#define HG_GEN_BLOCK_UNWEIGHT 0x20000u
/* the draw of the phase-space channel (groups of more than one) */
#define HG_GEN_BLOCK_CHANNEL 0x20010u
/* the Philox block of a histogram fill's orientation draw (cl/generator/histograms.cl) */
#define HG_GEN_BLOCK_HISTOGRAM 0x20001u

#endif
