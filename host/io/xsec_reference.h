/* SPDX-License-Identifier: MIT */
/* Another program's cross section to compare a run with (`hegetcl xsec --compare`): typed as
 * "SIGMA +- ERROR pb" (MadEvent's way of printing it), or read from the <init> block of a Les
 * Houches event file that MadEvent, Sherpa, Pepper or Whizard wrote (the sum of XSECUP over its
 * processes, their XERRUP added in quadrature, its beams and energies). */
#ifndef HG_IO_XSEC_REFERENCE_H
#define HG_IO_XSEC_REFERENCE_H

#include <stddef.h>

typedef struct {
  double sigma_pb, error_pb; /* error 0: none given */
  char source[512];          /* "typed" or the file's path */
  char generator[128];       /* the file's <generator> name and version, or "" */
  int beams_known;           /* a file gave its beams: */
  int beam_id[2];            /* IDBMUP (2212 proton, -2212 antiproton) */
  double sqrt_s_gev;         /* EBMUP1 + EBMUP2 (head-on beams) */
} hg_xsec_reference;

/* Reads text: a number with an optional error ("603.2", "603.2+-0.3", "603.2,0.3", "603.2 +- 0.3
 * pb", "6.032e5 fb") or, when text is not a number, the path of a Les Houches file (.lhe or
 * .lhe.gz). 0, or a negative hegetcl_status with message saying what is wrong and how to fix it
 * (no file, no <init>, a cross section that is not positive, an error that is negative), without
 * naming text (the caller does). */
int hg_xsec_reference_read(const char *text, hg_xsec_reference *ref, char *message,
                           size_t message_size);

/* Whether the reference fits a run of these beams (2212 2212 or 2212 -2212) and energy: 0, or -1
 * with message naming the difference and the flag that fixes it. */
int hg_xsec_reference_check(const hg_xsec_reference *ref, int beam_id_2, double sqrt_s_gev,
                            char *message, size_t message_size);

/* (sigma - reference) / sqrt(error^2 + reference error^2), both in pb; 0 when both errors are 0. */
double hg_xsec_reference_pull(const hg_xsec_reference *ref, double sigma_pb, double error_pb);

#endif
