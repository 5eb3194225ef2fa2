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
#define HG_XSEC_PARAM_COUNT 6

/* Philox draw blocks: the VEGAS dimensions use blocks 0 .. (dims + 1) / 2 - 1 (two uniforms each);
 * the sampled helicity configuration uses its own block. */
#define HG_BLOCK_HELICITY 0x10000u

#endif
