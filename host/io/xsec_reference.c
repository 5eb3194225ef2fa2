/* SPDX-License-Identifier: MIT */
/* Another program's cross section, typed or from a Les Houches file's <init>: xsec_reference.h. */
#include "io/xsec_reference.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hegetcl/status.h"
#include "io/text_lines.h"

static const char *skip_blanks(const char *s) {
  while (isspace((unsigned char)*s)) ++s;
  return s;
}

/* "SIGMA[ (+-|,) ERROR][ pb|fb]": 1 when text is such a number (ref filled in pb), else 0. */
static int read_typed(const char *text, hg_xsec_reference *ref) {
  char *end = NULL;
  const char *s = skip_blanks(text);
  const double sigma = strtod(s, &end);
  if (end == s) return 0;
  double error = 0.0;
  s = skip_blanks(end);
  if (strncmp(s, "+-", 2) == 0 || strncmp(s, "\xc2\xb1", 2) == 0 || *s == ',') {
    s = skip_blanks(s + (*s == ',' ? 1 : 2));
    error = strtod(s, &end);
    if (end == s) return 0;
    s = skip_blanks(end);
  }
  double unit = 1.0;
  if (strncmp(s, "pb", 2) == 0) {
    s += 2;
  } else if (strncmp(s, "fb", 2) == 0) {
    unit = 1e-3;
    s += 2;
  }
  if (*skip_blanks(s) != '\0') return 0;
  ref->sigma_pb = sigma * unit;
  ref->error_pb = error * unit;
  snprintf(ref->source, sizeof ref->source, "typed");
  return 1;
}

/* The <init> block of a Les Houches file. */
static int read_lhe(const char *path, hg_xsec_reference *ref, char *message, size_t size) {
  hg_text_lines in;
  int rc = hg_text_lines_open(&in, path, message, size);
  if (rc != 0) return rc;
  enum { BEFORE, BEAMS, PROCESSES, REST } at = BEFORE;
  int n_processes = 0, seen = 0;
  double sigma = 0.0, variance = 0.0;
  while ((rc = hg_text_lines_next(&in, message, size)) == 1) {
    const char *line = skip_blanks(in.line);
    if (at == BEFORE) {
      if (strncmp(line, "<event", 6) == 0) break;
      if (strncmp(line, "<init", 5) == 0) at = BEAMS;
    } else if (at == BEAMS) {
      double e1, e2;
      int id1, id2, pdfg1, pdfg2, pdfs1, pdfs2, idwt;
      if (sscanf(line, "%d %d %lf %lf %d %d %d %d %d %d", &id1, &id2, &e1, &e2, &pdfg1, &pdfg2,
                 &pdfs1, &pdfs2, &idwt, &n_processes) != 10 ||
          n_processes < 1) {
        snprintf(message, size,
                 "line %lld after <init> is not the Les Houches beam line (IDBMUP1 IDBMUP2 "
                 "EBMUP1 EBMUP2 PDFGUP1 PDFGUP2 PDFSUP1 PDFSUP2 IDWTUP NPRUP)",
                 in.number);
        hg_text_lines_close(&in);
        return HEGETCL_ERR_INPUT;
      }
      ref->beams_known = 1;
      ref->beam_id[0] = id1;
      ref->beam_id[1] = id2;
      ref->sqrt_s_gev = e1 + e2;
      at = PROCESSES;
    } else if (at == PROCESSES) {
      double xsec, xerr, xmax;
      int lprup;
      if (sscanf(line, "%lf %lf %lf %d", &xsec, &xerr, &xmax, &lprup) != 4) {
        snprintf(message, size,
                 "line %lld of <init> is not a process line (XSECUP XERRUP XMAXUP LPRUP): the "
                 "block gives %d processes",
                 in.number, n_processes);
        hg_text_lines_close(&in);
        return HEGETCL_ERR_INPUT;
      }
      sigma += xsec;
      variance += xerr * xerr;
      if (++seen == n_processes) at = REST;
    } else {
      if (strncmp(line, "</init", 6) == 0) break;
      const char *g = strstr(line, "<generator");
      if (g != NULL) {
        const char *name = strstr(g, "name=");
        const char *version = strstr(g, "version=");
        const char *text = strchr(g, '>');
        char n[64] = "", v[32] = "";
        if (name != NULL) sscanf(name + 6, "%63[^'\"]", n);
        if (version != NULL) sscanf(version + 9, "%31[^'\"]", v);
        if (n[0] == '\0' && text != NULL) sscanf(text + 1, "%63[^<]", n);
        snprintf(ref->generator, sizeof ref->generator, "%s%s%s", n, v[0] ? " " : "", v);
      }
    }
  }
  hg_text_lines_close(&in);
  if (rc < 0) return rc;
  if (at == BEFORE || at == BEAMS || seen < n_processes) {
    snprintf(message, size,
             "no complete Les Houches <init> block in the file (is it an event file? give the "
             "cross section as a number instead: --compare \"603.2 +- 0.3 pb\")");
    return HEGETCL_ERR_INPUT;
  }
  ref->sigma_pb = sigma;
  ref->error_pb = sqrt(variance);
  snprintf(ref->source, sizeof ref->source, "%s", path);
  return 0;
}

int hg_xsec_reference_read(const char *text, hg_xsec_reference *ref, char *message,
                           size_t message_size) {
  memset(ref, 0, sizeof *ref);
  int rc = 0;
  if (!read_typed(text, ref)) {
    /* a path names a file or looks like one; anything else was meant as a number */
    const char *s = skip_blanks(text);
    if (*s == '\0' || (access(text, F_OK) != 0 && strchr(text, '/') == NULL &&
                       strstr(text, ".lhe") == NULL)) {
      snprintf(message, message_size,
               "not a cross section: write SIGMA, SIGMA +- ERROR or SIGMA,ERROR in pb (fb with "
               "the unit: \"6.03e5 fb\"), or the path of a Les Houches event file");
      return HEGETCL_ERR_INPUT;
    }
    rc = read_lhe(text, ref, message, message_size);
    if (rc != 0) return rc;
  }
  if (!(ref->sigma_pb > 0.0) || !isfinite(ref->sigma_pb) || !(ref->error_pb >= 0.0) ||
      !isfinite(ref->error_pb)) {
    snprintf(message, message_size,
             "cross section %g pb with error %g pb: the cross section must be positive and the "
             "error not negative",
             ref->sigma_pb, ref->error_pb);
    return HEGETCL_ERR_INPUT;
  }
  return 0;
}

int hg_xsec_reference_check(const hg_xsec_reference *ref, int beam_id_2, double sqrt_s_gev,
                            char *message, size_t message_size) {
  if (!ref->beams_known) return 0;
  if (ref->beam_id[0] != 2212 || (ref->beam_id[1] != 2212 && ref->beam_id[1] != -2212)) {
    snprintf(message, message_size,
             "--compare %s: its beams are %d %d, not protons: compare with a proton run's file",
             ref->source, ref->beam_id[0], ref->beam_id[1]);
    return -1;
  }
  if (ref->beam_id[1] != beam_id_2) {
    snprintf(message, message_size,
             "--compare %s: its beams are p %s, this run's p %s: give --beams %s",
             ref->source, ref->beam_id[1] == 2212 ? "p" : "p~", beam_id_2 == 2212 ? "p" : "p~",
             ref->beam_id[1] == 2212 ? "p-p" : "p-pbar");
    return -1;
  }
  if (fabs(ref->sqrt_s_gev - sqrt_s_gev) > 1e-6 * sqrt_s_gev) {
    snprintf(message, message_size,
             "--compare %s: its beams collide at sqrt(s) = %g GeV, this run's at %g GeV: give "
             "--sqrt-s %g",
             ref->source, ref->sqrt_s_gev, sqrt_s_gev, ref->sqrt_s_gev);
    return -1;
  }
  return 0;
}

double hg_xsec_reference_pull(const hg_xsec_reference *ref, double sigma_pb, double error_pb) {
  const double combined = hypot(error_pb, ref->error_pb);
  return combined > 0.0 ? (sigma_pb - ref->sigma_pb) / combined : 0.0;
}
