/* SPDX-License-Identifier: MIT */
/* Slots of the process sampler's parameter buffer (doubles), read by host C and OpenCL C. */
#ifndef HG_GENERATOR_PARAMS_H
#define HG_GENERATOR_PARAMS_H

#define HG_GEN_SQRT_S 0  /* collider energy, GeV */
#define HG_GEN_PT_MIN 1  /* the jets' pT cut (ptj), GeV: the map samples jets above it */
#define HG_GEN_ETA_MAX 2 /* the jets' |eta| cut (etaj), <= 0: none */
#define HG_GEN_MASS_A 3  /* the system's daughters' masses, GeV */
#define HG_GEN_MASS_B 4
#define HG_GEN_MU_F2 5 /* fixed factorisation scale squared, GeV^2 (factor applied) */
#define HG_GEN_NORMALISATION 6 /* GeV^-2 -> fb */
#define HG_GEN_MU_R2 7         /* fixed renormalisation scale squared, GeV^2 (factor applied) */
#define HG_GEN_ALPHA_S_AMP 8   /* the alpha_s the amplitude was built with */
#define HG_GEN_MU_R_FACTOR 9   /* multiply a dynamical mu_R and mu_F */
#define HG_GEN_MU_F_FACTOR 10
/* Member m of the group: the PDF grid slots of the parton from beam 1 and from beam 2 (beam 2's
 * slot already that of the charge conjugate for an antiproton beam), and 1 when the member is
 * the group's process with the incoming pair swapped (CONVENTIONS.md, "Partonic channels") */
#define HG_GEN_MEMBER_SLOT1(m) (12 + 3 * (m))
#define HG_GEN_MEMBER_SLOT2(m) (13 + 3 * (m))
#define HG_GEN_MEMBER_MIRROR(m) (14 + 3 * (m))
#define HG_GEN_PARAM_COUNT(members) (12 + 3 * (members))

/* Philox draw blocks beyond the VEGAS dimensions' (0 .. (dims + 1) / 2 - 1) */
#define HG_GEN_BLOCK_UNWEIGHT 0x20000u

#endif
