/* SPDX-License-Identifier: MIT */
/* The PDF uncertainty of a cross section from its members' values, as the set's ErrorType says
 * (hegetcl_pdf_uncertainty), against hand computations on small sets of numbers, and the
 * bad input it refuses. Prints TAP. */
#include <math.h>
#include <stdio.h>

#include "hegetcl/variations.h"

static int count, failed;

static void check(int ok, const char *name, double got, double want) {
  ++count;
  failed += !ok;
  printf("%s %d - %s\n", ok ? "ok" : "not ok", count, name);
  if (!ok) printf("# got %.17g, want %.17g\n", got, want);
}

int main(void) {
  /* Hessian, 2 pairs: 1/2 sqrt((12 - 9)^2 + (10.5 - 10.1)^2) = 1/2 sqrt(9 + 0.16) */
  const double hessian[5] = {10.0, 12.0, 9.0, 10.5, 10.1};
  double u = 0.0;
  hegetcl_status s = hegetcl_pdf_uncertainty("hessian", hessian, 5, &u);
  check(s == HEGETCL_OK && fabs(u - 0.5 * sqrt(9.16)) < 1e-15, "hessian: 1/2 sqrt(9.16)", u,
        0.5 * sqrt(9.16));
  /* symmetric Hessian: sqrt(2^2 + 1^2 + 0.5^2) = sqrt(5.25) */
  const double symm[4] = {10.0, 12.0, 9.0, 10.5};
  s = hegetcl_pdf_uncertainty("symmhessian", symm, 4, &u);
  check(s == HEGETCL_OK && fabs(u - sqrt(5.25)) < 1e-15, "symmhessian: sqrt(5.25)", u, sqrt(5.25));
  /* replicas 1..4 = 1, 2, 3, 4 (member 0 not counted): mean 2.5, sum of squares 5, / 3 */
  const double replicas[5] = {100.0, 1.0, 2.0, 3.0, 4.0};
  s = hegetcl_pdf_uncertainty("replicas", replicas, 5, &u);
  check(s == HEGETCL_OK && fabs(u - sqrt(5.0 / 3.0)) < 1e-15, "replicas: sqrt(5/3)", u,
        sqrt(5.0 / 3.0));
  /* +as: the symmetric Hessian of members 0..3, then alpha_s members 4 and 5 (9.0, 10.0):
   * sqrt(5.25 + 0.5^2) */
  const double plus_as[6] = {10.0, 12.0, 9.0, 10.5, 9.0, 10.0};
  s = hegetcl_pdf_uncertainty("symmhessian+as", plus_as, 6, &u);
  check(s == HEGETCL_OK && fabs(u - sqrt(5.5)) < 1e-15, "symmhessian+as: sqrt(5.25 + 0.25)", u,
        sqrt(5.5));
  /* refused: an odd number of Hessian error members, too few replicas, an unknown type */
  check(hegetcl_pdf_uncertainty("hessian", hessian, 4, &u) == HEGETCL_ERR_INPUT,
        "hessian with 3 error members refused", 0, 0);
  check(hegetcl_pdf_uncertainty("replicas", replicas, 3, &u) == HEGETCL_ERR_INPUT,
        "2 replicas refused", 0, 0);
  check(hegetcl_pdf_uncertainty("gaussian", replicas, 5, &u) == HEGETCL_ERR_INPUT,
        "an unknown ErrorType refused", 0, 0);
  /* the summary: the 7-point envelope and the PDF part of a variation result */
  static hegetcl_variation_result r;
  hegetcl_variations_add_scales(&r.list, 10042, 1);
  hegetcl_variations_add_pdf_set(&r.list, "set", "hessian", 990000, 5);
  r.n_scales = 7;
  r.first_pdf = 7;
  r.n_pdf = 5;
  snprintf(r.pdf_error_type, sizeof r.pdf_error_type, "hessian");
  const double sigma[12] = {10, 11, 9.5, 8, 8.4, 13, 12.5, 10.0, 12.0, 9.0, 10.5, 10.1};
  for (int k = 0; k < 12; ++k) r.sigma_fb[k] = sigma[k];
  s = hegetcl_variations_summarise(&r);
  check(s == HEGETCL_OK && r.scale_min_fb == 8 && r.scale_max_fb == 13 &&
            fabs(r.pdf_error_fb - 0.5 * sqrt(9.16)) < 1e-15,
        "envelope 8 .. 13 over the 7 points, PDF part as the hessian case", r.pdf_error_fb,
        0.5 * sqrt(9.16));
  printf("1..%d\n", count);
  return failed != 0;
}
