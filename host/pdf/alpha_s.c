/* SPDX-License-Identifier: MIT */
/* alpha_s tables: the PDF set's grid with LHAPDF's ipol slopes, its Lambda values, or MadGraph's
 * one-loop running from alpha_s(M_Z). */
#include "alpha_s.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/pdf.h"
#include "lhapdf6_grid.h"

const char *hg_alpha_s_mode_name(int mode) {
  switch (mode) {
  case HG_ALPHA_S_INTERPOLATED:
    return "pdf-grid";
  case HG_ALPHA_S_ONE_LOOP:
    return "madgraph-1loop";
  case HG_ALPHA_S_ANALYTIC:
    return "pdf-analytic";
  default:
    return "unknown";
  }
}

static int one_loop_table(double alpha_s_mz, double mz, int nloop, double **table, size_t *size,
                          char *error, size_t error_size) {
  if (!(alpha_s_mz > 0 && alpha_s_mz < 1) || !(mz > 0) || !isfinite(mz)) {
    snprintf(error, error_size,
             "alpha_s(M_Z) = %g at M_Z = %g GeV: the one-loop running needs 0 < alpha_s(M_Z) < 1 "
             "and M_Z > 0 (MadGraph's CTEQ6L1 values: 0.130 at 91.188)",
             alpha_s_mz, mz);
    return -1;
  }
  if (nloop != 1) {
    snprintf(error, error_size,
             "nloop = %d: hegetcl runs alpha_s from alpha_s(M_Z) at one loop only (MadGraph's "
             "choice for LO sets); for higher orders take the PDF set's own alpha_s",
             nloop);
    return -1;
  }
  double *t = calloc(HG_ALPHA_S_ONE_LOOP_SIZE, sizeof *t);
  if (t == NULL) {
    snprintf(error, error_size, "no memory for the alpha_s table");
    return -1;
  }
  const double mb = HG_ALPHA_S_MADGRAPH_MB, mc = HG_ALPHA_S_MADGRAPH_MC;
  t[0] = HG_ALPHA_S_ONE_LOOP;
  t[1] = alpha_s_mz;
  t[2] = mz * mz;
  t[3] = mb * mb;
  t[4] = mc * mc;
  for (int k = 0; k < 3; ++k) t[7 + k] = (33.0 - 2.0 * (5 - k)) / (12 * HG_ALPHA_S_PI);
  t[5] = alpha_s_mz / (1 + alpha_s_mz * t[7] * log(t[3] / t[2]));
  t[6] = t[5] / (1 + t[5] * t[8] * log(t[4] / t[3]));
  *table = t;
  *size = HG_ALPHA_S_ONE_LOOP_SIZE;
  return 0;
}

/* The set's grid: knots strictly increasing except a knot repeated where a subgrid (a flavour
 * threshold) begins; rows for every interval of non-zero width, each with its subgrid's slopes. */
static int ipol_table(const char *path, const double *q, const double *a, size_t n, double **table,
                      size_t *size, char *error, size_t error_size) {
  if (n < 2) {
    snprintf(error, error_size, "%s: AlphaS_Qs has %zu knot: alpha_s needs at least 2", path, n);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!(q[i] > 0) || !(a[i] > 0)) {
      snprintf(error, error_size,
               "%s: AlphaS_Qs / AlphaS_Vals knot %zu is (%g GeV, %g): both "
               "must be positive",
               path, i + 1, q[i], a[i]);
      return -1;
    }
    if (i > 0 && q[i] < q[i - 1]) {
      snprintf(error, error_size,
               "%s: AlphaS_Qs decreases at knot %zu (%g after %g GeV): the "
               "knots must increase (a knot may repeat where a subgrid begins)",
               path, i + 1, q[i], q[i - 1]);
      return -1;
    }
    if (i > 1 && q[i] == q[i - 1] && q[i - 1] == q[i - 2]) {
      snprintf(error, error_size, "%s: AlphaS_Qs knot %g GeV appears three times", path, q[i]);
      return -1;
    }
  }
  if (q[0] == q[1] || q[n - 1] == q[n - 2]) {
    snprintf(error, error_size,
             "%s: AlphaS_Qs repeats its first or last knot: a subgrid needs "
             "two distinct knots",
             path);
    return -1;
  }
  double *t = calloc(HG_ALPHA_S_IPOL_HEADER + HG_ALPHA_S_ROW * n, sizeof *t);
  if (t == NULL) {
    snprintf(error, error_size, "no memory for the alpha_s table");
    return -1;
  }
  t[0] = HG_ALPHA_S_INTERPOLATED;
  t[2] = q[0] * q[0];
  t[3] = a[0];
  size_t next = 1; /* LHAPDF: the first knot above the first one, for the power below the grid */
  while (q[next] == q[0]) ++next;
  t[4] = log10(a[next] / a[0]) / log10(q[next] * q[next] / (q[0] * q[0]));
  t[5] = q[n - 1] * q[n - 1];
  t[6] = a[n - 1];
  size_t rows = 0;
  for (size_t start = 0; start + 1 < n;) {
    size_t end = start + 1; /* the subgrid is knots start .. end - 1 */
    while (end < n && q[end] != q[end - 1]) ++end;
    const size_t m = end - start;
    if (m < 2) {
      free(t);
      snprintf(error, error_size, "%s: AlphaS_Qs has a subgrid of one knot at %g GeV", path,
               q[start]);
      return -1;
    }
    double slope[64 + 1];
    double *slopes = m <= 64 ? slope : malloc(m * sizeof *slopes);
    if (slopes == NULL) {
      free(t);
      snprintf(error, error_size, "no memory for the alpha_s table");
      return -1;
    }
    /* d alpha_s / d log Q^2 at each knot: the secant's mean inside, one-sided at the ends */
    for (size_t k = 0; k < m; ++k) {
      const size_t i = start + k;
      const double fwd =
          k + 1 < m ? (a[i + 1] - a[i]) / (log(q[i + 1] * q[i + 1]) - log(q[i] * q[i])) : 0;
      const double bwd =
          k > 0 ? (a[i] - a[i - 1]) / (log(q[i] * q[i]) - log(q[i - 1] * q[i - 1])) : 0;
      slopes[k] = k == 0 ? fwd : (k + 1 == m ? bwd : 0.5 * (fwd + bwd));
    }
    for (size_t k = 0; k + 1 < m; ++k) {
      const size_t i = start + k;
      double *r = t + HG_ALPHA_S_IPOL_HEADER + HG_ALPHA_S_ROW * rows++;
      r[HG_ALPHA_S_R_Q2] = q[i] * q[i];
      r[HG_ALPHA_S_R_LOG_Q2] = log(q[i] * q[i]);
      r[HG_ALPHA_S_R_DLOG_Q2] = log(q[i + 1] * q[i + 1]) - log(q[i] * q[i]);
      r[HG_ALPHA_S_R_LOW] = a[i];
      r[HG_ALPHA_S_R_HIGH] = a[i + 1];
      r[HG_ALPHA_S_R_SLOPE_LOW] = slopes[k] * r[HG_ALPHA_S_R_DLOG_Q2];
      r[HG_ALPHA_S_R_SLOPE_HIGH] = slopes[k + 1] * r[HG_ALPHA_S_R_DLOG_Q2];
    }
    if (slopes != slope) free(slopes);
    start = end;
  }
  t[1] = (double)rows;
  *table = t;
  *size = HG_ALPHA_S_IPOL_HEADER + HG_ALPHA_S_ROW * rows;
  return 0;
}

/* A quark mass or threshold from the .info: AlphaS_<name>, else <name>; 0 when neither. */
static int info_mass(const hg_pdf_info *info, const char *name, double *out, char *error,
                     size_t error_size) {
  char key[64];
  snprintf(key, sizeof key, "AlphaS_%s", name);
  *out = 0;
  int found = hg_pdf_info_double(info, key, out, error, error_size);
  if (found == 0) found = hg_pdf_info_double(info, name, out, error, error_size);
  return found < 0 ? -1 : 0;
}

static int analytic_table(const hg_pdf_info *info, const char *path, double **table, size_t *size,
                          char *error, size_t error_size) {
  double lambda[4] = {0}, mass[3] = {0}, alpha_s_mz = 0, order = 0;
  int any = 0, lowest = -1;
  for (int nf = 3; nf <= 6; ++nf) {
    char key[32];
    snprintf(key, sizeof key, "AlphaS_Lambda%d", nf);
    const int found = hg_pdf_info_double(info, key, &lambda[nf - 3], error, error_size);
    if (found < 0) return -1;
    if (found && !(lambda[nf - 3] > 0)) {
      snprintf(error, error_size, "%s: %s = %g must be positive", path, key, lambda[nf - 3]);
      return -1;
    }
    if (found && lowest < 0) lowest = nf;
    any |= found;
  }
  if (!any) {
    snprintf(error, error_size,
             "%s gives no alpha_s: neither AlphaS_Qs with AlphaS_Vals (AlphaS_Type ipol) nor "
             "AlphaS_Lambda4 or AlphaS_Lambda5; take MadGraph's one-loop running from "
             "alpha_s(M_Z) instead",
             path);
    return -1;
  }
  static const char *const names[3] = {"MCharm", "MBottom", "MTop"};
  for (int k = 0; k < 3; ++k)
    if (info_mass(info, names[k], &mass[k], error, error_size) != 0) return -1;
  const int has_order = hg_pdf_info_double(info, "AlphaS_OrderQCD", &order, error, error_size);
  if (has_order < 0 || hg_pdf_info_double(info, "AlphaS_MZ", &alpha_s_mz, error, error_size) < 0)
    return -1;
  if (!has_order || order < 0 || order > 3 || order != floor(order)) {
    snprintf(error, error_size,
             "%s: the analytic alpha_s needs AlphaS_OrderQCD = 0, 1, 2 or 3 (LO .. N3LO)%s", path,
             has_order ? ", not this value" : ", and the set gives none");
    return -1;
  }
  double *t = calloc(HG_ALPHA_S_ANALYTIC_SIZE, sizeof *t);
  if (t == NULL) {
    snprintf(error, error_size, "no memory for the alpha_s table");
    return -1;
  }
  t[0] = HG_ALPHA_S_ANALYTIC;
  t[1] = order + 1; /* AlphaS_OrderQCD 0 (LO) runs at one loop */
  t[2] = lowest;
  /* nf rises from the lowest Lambda given at each quark mass above it, up to the highest */
  int highest = 3;
  for (int nf = 3; nf <= 6; ++nf)
    if (lambda[nf - 3] > 0) highest = nf;
  for (int k = 0; k < 3; ++k) /* flavour 4 + k at mass[k] */
    t[3 + k] = (4 + k > lowest && 4 + k <= highest && mass[k] > 0) ? mass[k] * mass[k] : 0;
  double last = lambda[lowest - 3];
  for (int nf = 3; nf <= 6; ++nf) {
    if (lambda[nf - 3] > 0) last = lambda[nf - 3];
    t[6 + (nf - 3)] = last * last;
  }
  t[10] = alpha_s_mz;
  *table = t;
  *size = HG_ALPHA_S_ANALYTIC_SIZE;
  return 0;
}

int hg_alpha_s_table(int mode, const char *pdf_info_path, double alpha_s_mz, double mz, int nloop,
                     double **table, size_t *size, char *error, size_t error_size) {
  *table = NULL;
  *size = 0;
  if (mode == HG_ALPHA_S_ONE_LOOP)
    return one_loop_table(alpha_s_mz, mz, nloop, table, size, error, error_size);
  if (mode != HG_ALPHA_S_INTERPOLATED) {
    snprintf(error, error_size,
             "alpha_s mode %d: hegetcl knows %d (the PDF set's own alpha_s) and %d (MadGraph's "
             "one-loop running)",
             mode, HG_ALPHA_S_INTERPOLATED, HG_ALPHA_S_ONE_LOOP);
    return -1;
  }
  if (pdf_info_path == NULL) {
    snprintf(error, error_size, "the PDF set's alpha_s needs the set's .info file");
    return -1;
  }
  char message[1024];
  hg_pdf_info *info = NULL;
  if (hg_pdf_info_open(pdf_info_path, &info, message, sizeof message) != HEGETCL_OK) {
    snprintf(error, error_size, "%s", message);
    return -1;
  }
  double *q = NULL, *a = NULL;
  size_t nq = 0, na = 0;
  int status = -1;
  const int has_q = hg_pdf_info_reals(info, "AlphaS_Qs", &q, &nq, error, error_size);
  const int has_a =
      has_q < 0 ? 0 : hg_pdf_info_reals(info, "AlphaS_Vals", &a, &na, error, error_size);
  if (has_q < 0 || has_a < 0) goto done;
  if (has_q != has_a) {
    snprintf(error, error_size, "%s gives %s without %s: give both (LHAPDF's ipol alpha_s)",
             pdf_info_path, has_q ? "AlphaS_Qs" : "AlphaS_Vals",
             has_q ? "AlphaS_Vals" : "AlphaS_Qs");
    goto done;
  }
  if (has_q) {
    if (nq != na) {
      snprintf(error, error_size,
               "%s: AlphaS_Qs has %zu knots, AlphaS_Vals %zu values: they "
               "must pair up",
               pdf_info_path, nq, na);
      goto done;
    }
    status = ipol_table(pdf_info_path, q, a, nq, table, size, error, error_size);
  } else {
    status = analytic_table(info, pdf_info_path, table, size, error, error_size);
  }
done:
  free(q);
  free(a);
  hg_pdf_info_close(info);
  return status;
}

int hg_alpha_s_table_for_pdf(int mode, const struct hegetcl_pdf *pdf, double alpha_s_mz, double mz,
                             int nloop, double **table, size_t *size, char *error,
                             size_t error_size) {
  if (mode == HG_ALPHA_S_ONE_LOOP || pdf == NULL)
    return hg_alpha_s_table(mode, NULL, alpha_s_mz, mz, nloop, table, size, error, error_size);
  char path[4096];
  const int n = snprintf(path, sizeof path, "%s/%s.info", hegetcl_pdf_directory(pdf),
                         hegetcl_pdf_set_name(pdf));
  if (n < 0 || (size_t)n >= sizeof path) {
    *table = NULL;
    *size = 0;
    snprintf(error, error_size, "the PDF set's folder name is too long for its .info path");
    return -1;
  }
  return hg_alpha_s_table(mode, path, alpha_s_mz, mz, nloop, table, size, error, error_size);
}
