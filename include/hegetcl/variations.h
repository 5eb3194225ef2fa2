/* SPDX-License-Identifier: MIT */
/* A run's list of weight variations: scale factors and PDF members whose weights every event
 * carries (hegetcl_event.variations, in this list's order), and how the event files name them.
 * The names follow MadGraph's systematics module (its default weight ids 1, 2, ...; the groups
 * "Central scale variation" with combine="envelope" and one group per PDF set, combined as the
 * set's ErrorType says), so tools written for MadGraph samples find them. */
#ifndef HEGETCL_VARIATIONS_H
#define HEGETCL_VARIATIONS_H

#include <stddef.h>

#include "hegetcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variations in one run at most (7 scales and a 100-member set fit). */
#define HEGETCL_MAX_VARIATIONS 256

/* One variation: the event weight with mu_R -> mu_r_factor * mu_R, mu_F -> mu_f_factor * mu_F and
 * the PDF member pdf_lhapdf_id (an LHAPDF ID: the set's ID plus the member). */
typedef struct {
  char id[32];      /* the weight's id in <weight id=...>/<wgt id=...> ("1", "2", ...) */
  char group[96];   /* its <weightgroup name=...>: "Central scale variation" or the set */
  char combine[16]; /* the group's combine=: "envelope", "hessian", "replicas", "symmhessian" */
  char description[128]; /* the text inside <weight>: "MUR=2.0 MUF=0.5", "PDF=10000 MemberID=3" */
  double mu_r_factor, mu_f_factor;
  int pdf_lhapdf_id;
  int pdf_member; /* the member within its set: the run's own for the scale group, 0 for an
                     alternative set */
} hegetcl_variation;

typedef struct {
  unsigned n;
  hegetcl_variation v[HEGETCL_MAX_VARIATIONS];
} hegetcl_variation_list;

/* Appends the scale variations mu_R, mu_F in {1/2, 1, 2} x {1/2, 1, 2} with the central PDF
 * member, the nominal first: 9 of them, or 7 when seven_point (the two where mu_R and mu_F go in
 * opposite directions left out). Ids continue from the list's length + 1. HEGETCL_ERR_INPUT when
 * the list would overflow. */
hegetcl_status hegetcl_variations_add_scales(hegetcl_variation_list *list, int lhapdf_id,
                                             int seven_point);

/* Appends members 0 .. n_members - 1 of a PDF set (set_lhapdf_id is member 0's ID) at the
 * nominal scales, grouped under set_name with the set's error type (combine). */
hegetcl_status hegetcl_variations_add_pdf_set(hegetcl_variation_list *list, const char *set_name,
                                              const char *combine, int set_lhapdf_id,
                                              unsigned n_members);

/* Appends the central member of another PDF set (an alternative central set, MadGraph's
 * `systematics --pdf SET@0`) at the nominal scales: a group of its own named set_name with
 * combine="none" and description "PDF=<id> MemberID=0". */
hegetcl_status hegetcl_variations_add_alt_set(hegetcl_variation_list *list, const char *set_name,
                                              int set_lhapdf_id);

/* Variation k's name in LHEH5 and HepMC3 files and as the suffix of its YODA histograms
 * ("/hegetcl/pt_1[NAME]", as Rivet names a multiweight histogram): "MUR<f>_MUF<f>_PDF<id>" (the
 * factors as %.1f, the member's LHAPDF ID), with "_<weight id>" appended when an earlier variation
 * of the list has the same settings. Written into out (size bytes; 64 hold any). */
void hegetcl_variation_weight_name(const hegetcl_variation_list *list, unsigned k, char *out,
                                   size_t size);

/* A run's variations with their cross sections (hegetcl_xsec_result.variations): list.v[k] has
 * sigma_fb[k] +- error_fb[k], summed over the integration's weighted events as sigma's are. The
 * first n_scales are the scale variations (the nominal first), then n_pdf members of the set
 * from first_pdf, then n_alt alternative central sets from first_alt (each its own set's member
 * 0 with its own alpha_s); envelope and PDF uncertainty as hegetcl_variations_summarise says.
 * The central value is sigma_fb[0] (with scale variations, the nominal itself). */
typedef struct {
  hegetcl_variation_list list;
  double sigma_fb[HEGETCL_MAX_VARIATIONS], error_fb[HEGETCL_MAX_VARIATIONS];
  unsigned n_scales, first_pdf, n_pdf;
  double scale_min_fb, scale_max_fb; /* the envelope of the scale variations' sigma */
  char pdf_error_type[16]; /* the set's ErrorType (hessian, ...); "none" for a set of 1 member */
  double pdf_error_fb;     /* the PDF uncertainty of sigma (symmetric) */
  unsigned first_alt, n_alt; /* the alternative central sets */
} hegetcl_variation_result;

/* The PDF uncertainty of a quantity from its values on members 0 .. n - 1 of a set (member 0 the
 * central) as the set's error type says: "hessian" (pairs 2k - 1, 2k): 1/2 sqrt(sum (s_2k-1 -
 * s_2k)^2); "symmhessian": sqrt(sum_k>0 (s_k - s_0)^2); "replicas": the standard deviation of
 * members 1 .. n - 1 (LHAPDF's, with n - 2 in the denominator). A type with "+as" appended
 * ("symmhessian+as"): the last two members vary alpha_s down and up; half their difference is
 * added in quadrature to the other members' uncertainty. HEGETCL_ERR_INPUT for another type, a
 * Hessian set with an odd number of error members or fewer than 3 replicas. */
hegetcl_status hegetcl_pdf_uncertainty(const char *error_type, const double *values, unsigned n,
                                       double *out);

/* Fills scale_min_fb, scale_max_fb and pdf_error_fb from sigma_fb. */
hegetcl_status hegetcl_variations_summarise(hegetcl_variation_result *r);

#ifdef __cplusplus
}
#endif

#endif
