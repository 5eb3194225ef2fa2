/* SPDX-License-Identifier: MIT */
/* The run's variation list (hegetcl/variations.h): MadGraph's names for scale and PDF variations.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/variations.h"

static hegetcl_status add(hegetcl_variation_list *list, const char *group, const char *combine,
                          double mu_r, double mu_f, int lhapdf_id, const char *description) {
  if (list->n >= HEGETCL_MAX_VARIATIONS) return HEGETCL_ERR_INPUT;
  hegetcl_variation *v = &list->v[list->n];
  memset(v, 0, sizeof *v);
  snprintf(v->id, sizeof v->id, "%u", list->n + 1);
  snprintf(v->group, sizeof v->group, "%s", group);
  snprintf(v->combine, sizeof v->combine, "%s", combine);
  snprintf(v->description, sizeof v->description, "%s", description);
  v->mu_r_factor = mu_r;
  v->mu_f_factor = mu_f;
  v->pdf_lhapdf_id = lhapdf_id;
  list->n++;
  return HEGETCL_OK;
}

hegetcl_status hegetcl_variations_add_scales(hegetcl_variation_list *list, int lhapdf_id,
                                             int seven_point) {
  /* the nominal first, then MadGraph's order: mu_R outer, mu_F inner over 1, 2, 1/2 */
  static const double factor[3] = {1.0, 2.0, 0.5};
  const unsigned need = seven_point ? 7u : 9u;
  if (list->n + need > HEGETCL_MAX_VARIATIONS) return HEGETCL_ERR_INPUT;
  for (int r = 0; r < 3; ++r)
    for (int f = 0; f < 3; ++f) {
      const double mu_r = factor[r], mu_f = factor[f];
      if (seven_point && mu_r * mu_f > 0.9 && mu_r * mu_f < 1.1 && mu_r != 1.0) continue;
      char description[64] = "";
      size_t used = 0;
      if (mu_r != 1.0)
        used += (size_t)snprintf(description + used, sizeof description - used, "MUR=%.1f ", mu_r);
      if (mu_f != 1.0) snprintf(description + used, sizeof description - used, "MUF=%.1f", mu_f);
      add(list, "Central scale variation", "envelope", mu_r, mu_f, lhapdf_id, description);
    }
  return HEGETCL_OK;
}

hegetcl_status hegetcl_variations_add_pdf_set(hegetcl_variation_list *list, const char *set_name,
                                              const char *combine, int set_lhapdf_id,
                                              unsigned n_members) {
  if (set_name == NULL || combine == NULL || n_members == 0 ||
      list->n + n_members > HEGETCL_MAX_VARIATIONS)
    return HEGETCL_ERR_INPUT;
  for (unsigned m = 0; m < n_members; ++m) {
    char description[64];
    snprintf(description, sizeof description, "PDF=%d MemberID=%u", set_lhapdf_id, m);
    add(list, set_name, combine, 1.0, 1.0, set_lhapdf_id + (int)m, description);
    list->v[list->n - 1].pdf_member = (int)m;
  }
  return HEGETCL_OK;
}

hegetcl_status hegetcl_variations_add_alt_set(hegetcl_variation_list *list, const char *set_name,
                                              int set_lhapdf_id) {
  if (set_name == NULL || list->n >= HEGETCL_MAX_VARIATIONS) return HEGETCL_ERR_INPUT;
  char description[64];
  snprintf(description, sizeof description, "PDF=%d MemberID=0", set_lhapdf_id);
  return add(list, set_name, "none", 1.0, 1.0, set_lhapdf_id, description);
}

hegetcl_status hegetcl_pdf_uncertainty(const char *error_type, const double *values, unsigned n,
                                       double *out) {
  *out = 0.0;
  if (error_type == NULL || values == NULL || n == 0) return HEGETCL_ERR_INPUT;
  const size_t length = strlen(error_type);
  if (length > 3 && strcmp(error_type + length - 3, "+as") == 0) {
    /* the last two members vary alpha_s(M_Z) down and up: half their difference, added in
     * quadrature to the PDF members' uncertainty */
    char type[32];
    if (n < 3 || length - 3 >= sizeof type) return HEGETCL_ERR_INPUT;
    memcpy(type, error_type, length - 3);
    type[length - 3] = '\0';
    double pdf = 0.0;
    const hegetcl_status status = hegetcl_pdf_uncertainty(type, values, n - 2, &pdf);
    if (status != HEGETCL_OK) return status;
    const double as = 0.5 * fabs(values[n - 1] - values[n - 2]);
    *out = sqrt(pdf * pdf + as * as);
    return HEGETCL_OK;
  }
  double sum = 0.0;
  if (strcmp(error_type, "hessian") == 0) {
    if ((n - 1) % 2 != 0) return HEGETCL_ERR_INPUT;
    for (unsigned k = 1; k + 1 < n; k += 2) {
      const double d = values[k] - values[k + 1];
      sum += d * d;
    }
    *out = 0.5 * sqrt(sum);
    return HEGETCL_OK;
  }
  if (strcmp(error_type, "symmhessian") == 0) {
    for (unsigned k = 1; k < n; ++k) sum += (values[k] - values[0]) * (values[k] - values[0]);
    *out = sqrt(sum);
    return HEGETCL_OK;
  }
  if (strcmp(error_type, "replicas") == 0) {
    if (n < 4) return HEGETCL_ERR_INPUT;
    const unsigned r = n - 1;
    double mean = 0.0;
    for (unsigned k = 1; k < n; ++k) mean += values[k];
    mean /= r;
    for (unsigned k = 1; k < n; ++k) sum += (values[k] - mean) * (values[k] - mean);
    *out = sqrt(sum / (double)(r - 1));
    return HEGETCL_OK;
  }
  return HEGETCL_ERR_INPUT;
}

hegetcl_status hegetcl_variations_summarise(hegetcl_variation_result *r) {
  r->scale_min_fb = r->scale_max_fb = r->n_scales > 0 ? r->sigma_fb[0] : 0.0;
  for (unsigned k = 1; k < r->n_scales; ++k) {
    r->scale_min_fb = fmin(r->scale_min_fb, r->sigma_fb[k]);
    r->scale_max_fb = fmax(r->scale_max_fb, r->sigma_fb[k]);
  }
  r->pdf_error_fb = 0.0;
  if (r->n_pdf < 2) return HEGETCL_OK;
  return hegetcl_pdf_uncertainty(r->pdf_error_type, r->sigma_fb + r->first_pdf, r->n_pdf,
                                 &r->pdf_error_fb);
}

static void plain_name(const hegetcl_variation *v, char *out, size_t size) {
  snprintf(out, size, "MUR%.1f_MUF%.1f_PDF%d", v->mu_r_factor, v->mu_f_factor, v->pdf_lhapdf_id);
}

void hegetcl_variation_weight_name(const hegetcl_variation_list *list, unsigned k, char *out,
                                   size_t size) {
  const hegetcl_variation *v = &list->v[k];
  char mine[64], other[64];
  plain_name(v, mine, sizeof mine);
  for (unsigned j = 0; j < k; ++j) { /* the same settings twice: the id tells them apart */
    plain_name(&list->v[j], other, sizeof other);
    if (strcmp(mine, other) == 0) {
      snprintf(out, size, "%s_%.8s", mine, v->id);
      return;
    }
  }
  snprintf(out, size, "%s", mine);
}
