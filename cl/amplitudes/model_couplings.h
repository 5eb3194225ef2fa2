/* SPDX-License-Identifier: MIT */
/* The electroweak couplings of the model in the params buffer of a process's kernels, HELAS
 * convention (each the Feynman rule's vertex factor over i; CONVENTIONS.md, "Electroweak
 * parameters"). Host (host/process/model_params.c) and device (process_common.cl) share these
 * positions: the buffer holds HG_PARAMS_MASSES reals (g_s, e, masses and widths), then
 * HG_COUPLINGS complex couplings as (re, im) pairs. */
#ifndef HG_MODEL_COUPLINGS_H
#define HG_MODEL_COUPLINGS_H

/* the real parameters, in order */
#define HG_PARAM_SLOT_GS 0
#define HG_PARAM_SLOT_E 1
#define HG_PARAM_SLOT_MT 2
#define HG_PARAM_SLOT_WT 3
#define HG_PARAM_SLOT_MZ 4
#define HG_PARAM_SLOT_WZ 5
#define HG_PARAM_SLOT_MW 6
#define HG_PARAM_SLOT_WW 7
#define HG_PARAM_SLOT_MH 8
#define HG_PARAM_SLOT_WH 9
#define HG_PARAM_SLOT_MTA 10
#define HG_PARAMS_MASSES 11

/* fermion-fermion-vector and -scalar couplings: (left, right) pairs, HELAS's gal[0], gal[1] */
#define HG_C_Z_NU 0  /* Z to neutrinos */
#define HG_C_Z_E 2   /* Z to charged leptons */
#define HG_C_Z_U 4   /* Z to up-type quarks */
#define HG_C_Z_D 6   /* Z to down-type quarks */
#define HG_C_W 8     /* W to every doublet (CKM = 1): left only */
#define HG_C_H_T 10  /* Higgs to tops: -y_t / sqrt 2 both */
#define HG_C_H_TA 12 /* Higgs to taus */
/* boson self-couplings, one complex number each */
#define HG_C_WWA 14 /* vvv(W+, W-, a) */
#define HG_C_WWZ 15 /* vvv(W+, W-, Z) */
#define HG_C_WWAA                                                                                  \
  16 /* quartic W+ W- V1 V2: g (2 (w+.w-)(v1.v2) - (w+.v1)(w-.v2) - (w+.v2)(w-.v1)) */
#define HG_C_WWAZ 17
#define HG_C_WWZZ 18
#define HG_C_WWWW 19 /* W+ W+ W- W-: g (2 (w+.w+)(w-.w-) - ...) with the like pairs first */
#define HG_C_HWW 20  /* H W+ W-: g (w+.w-) s */
#define HG_C_HZZ 21
#define HG_C_HHWW 22
#define HG_C_HHZZ 23
#define HG_C_HHH 24
#define HG_C_HHHH 25
#define HG_COUPLINGS 26

#define HG_PARAMS_SIZE (HG_PARAMS_MASSES + 2 * HG_COUPLINGS)

#endif
