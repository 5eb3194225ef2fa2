/* SPDX-License-Identifier: MIT */
/* A Les Houches Event File 3.0 writer: checks, XML escaping and the fixed-width number columns. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/status.h"
#include "io/format_real.h"
#include "io/lhef_writer.h"

/* The column formats (lhef_writer.h: every real %+.16e, 17 significant digits). */
#define REAL " %+.16e"
#define INIT_BEAMS "%8d %8d" REAL REAL " %2d %2d %6d %6d %2d %2d\n"
#define INIT_PROCESS REAL REAL REAL " %6d\n"
/* an event's lines, written by hg_lhef_write_event with io/format_real.h to the same text:
 * "%3d %6d" REAL REAL REAL REAL "\n", then per particle
 * "%9d %3d %4d %4d %4d %4d" REAL REAL REAL REAL REAL REAL REAL "\n" */

static int refuse_nonfinite(hg_output *o, const char *field, double value) {
  return hg_output_fail(o, HEGETCL_ERR_NONFINITE,
                        "LHE %s is %g: a non-finite number cannot be written", field, value);
}

/* An ASCII XML name that is not reserved: [A-Za-z_][A-Za-z0-9_.-]*, not starting with "xml". */
static int is_xml_name(const char *name) {
  if (name == NULL || name[0] == '\0') return 0;
  if ((name[0] == 'x' || name[0] == 'X') && (name[1] == 'm' || name[1] == 'M') &&
      (name[2] == 'l' || name[2] == 'L'))
    return 0;
  for (const char *p = name; *p != '\0'; ++p) {
    const char c = *p;
    const int letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    const int later = (c >= '0' && c <= '9') || c == '-' || c == '.';
    if (!letter && !(later && p != name)) return 0;
  }
  return 1;
}

/* text as XML character data (attribute != 0: inside a "..." attribute value). Carriage returns,
 * and in attributes tabs and line feeds, become character references so that XML's end-of-line
 * and attribute normalisation give the same text back. */
static int write_escaped(hg_output *o, const char *text, int attribute) {
  const char *run = text;
  for (const char *p = text;; ++p) {
    const char *escape = NULL;
    switch (*p) {
    case '&':
      escape = "&amp;";
      break;
    case '<':
      escape = "&lt;";
      break;
    case '>':
      escape = "&gt;";
      break;
    case '\r':
      escape = "&#13;";
      break;
    case '"':
      escape = attribute ? "&quot;" : NULL;
      break;
    case '\t':
      escape = attribute ? "&#9;" : NULL;
      break;
    case '\n':
      escape = attribute ? "&#10;" : NULL;
      break;
    default:
      break;
    }
    if (escape == NULL && *p != '\0') continue;
    hg_output_write(o, run, (size_t)(p - run));
    if (*p == '\0') break;
    hg_output_write(o, escape, strlen(escape));
    run = p + 1;
  }
  return hg_output_status(o);
}

/* text inside <!-- -->: XML forbids "--" there, so a space goes between two hyphens. */
static int write_comment(hg_output *o, const char *text) {
  hg_output_write(o, "<!--\n", 5);
  const char *run = text;
  for (const char *p = text; *p != '\0'; ++p)
    if (p[0] == '-' && p[1] == '-') {
      hg_output_write(o, run, (size_t)(p + 1 - run));
      hg_output_write(o, " ", 1);
      run = p + 1;
    }
  hg_output_write(o, run, strlen(run));
  const size_t length = strlen(text);
  if (length == 0 || text[length - 1] != '\n') hg_output_write(o, "\n", 1);
  return hg_output_printf(o, "-->\n");
}

static int check_init(hg_output *o, const hg_lhef_init *init) {
  static const char *const side[2] = {"[0]", "[1]"};
  char field[128];
  for (int b = 0; b < 2; ++b) {
    snprintf(field, sizeof field, "init beam_energy_gev%s (EBMUP(%d))", side[b], b + 1);
    if (!isfinite(init->beam_energy_gev[b]))
      return refuse_nonfinite(o, field, init->beam_energy_gev[b]);
    if (!(init->beam_energy_gev[b] > 0))
      return hg_output_fail(o, HEGETCL_ERR_INPUT, "LHE %s is %.17g: it must be > 0", field,
                            init->beam_energy_gev[b]);
  }
  const struct {
    const char *name;
    double value;
  } reals[] = {{"init xsec_pb (XSECUP)", init->xsec_pb},
               {"init xsec_error_pb (XERRUP)", init->xsec_error_pb},
               {"init max_weight_pb (XMAXUP)", init->max_weight_pb},
               {"init total_xsec_pb (xsecinfo totxsec)", init->total_xsec_pb}};
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; ++i)
    if (!isfinite(reals[i].value)) return refuse_nonfinite(o, reals[i].name, reals[i].value);
  const int strategy = init->weight_strategy < 0 ? -init->weight_strategy : init->weight_strategy;
  if (strategy < 1 || strategy > 4)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE init weight_strategy (IDWTUP) is %d: it must be +-1 .. +-4 "
                          "(3 for unweighted events)",
                          init->weight_strategy);
  if (init->n_events < 0)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE init n_events (xsecinfo neve) is %lld: it must be >= 0",
                          init->n_events);
  if (init->header_name != NULL && !is_xml_name(init->header_name))
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE init header_name \"%.64s\" is not an XML element name: letters, "
                          "digits, '_', '-', '.', starting with a letter or '_', not with \"xml\"",
                          init->header_name);
  if (init->header_name == NULL && init->header_text != NULL)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE init header_text is given without a header_name to hold it");
  hg_output_check_text(o, "LHE init generator_name", init->generator_name, 0);
  hg_output_check_text(o, "LHE init generator_version", init->generator_version, 0);
  hg_output_check_text(o, "LHE init header_text", init->header_text, 1);
  if (hg_output_check_text(o, "LHE init comment", init->comment, 1) != 0 || init->comment == NULL)
    return hg_output_status(o);
  /* A comment cannot escape '<'; readers that scan lines for tags (LHEF.h, Pythia 8) would take
   * these for the file's own. */
  static const char *const tags[] = {"<LesHouchesEvents",
                                     "</LesHouchesEvents",
                                     "<header",
                                     "</header",
                                     "<init",
                                     "</init",
                                     "<event",
                                     "</event"};
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; ++i)
    if (strstr(init->comment, tags[i]) != NULL)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "LHE init comment holds \"%s\", which LHE readers that scan lines "
                            "for tags would take for the file's own: reword it",
                            tags[i]);
  return 0;
}

/* The header's <initrwgt>: consecutive variations of one group share a <weightgroup>. */
static int write_initrwgt(hg_output *o, const hegetcl_variation_list *list) {
  hg_output_printf(o, "<initrwgt>\n");
  for (unsigned k = 0; k < list->n; ++k) {
    const hegetcl_variation *v = &list->v[k];
    const int opens = k == 0 || strcmp(v->group, list->v[k - 1].group) != 0;
    if (opens) {
      if (k > 0) hg_output_printf(o, "</weightgroup>\n");
      hg_output_printf(o, "<weightgroup name=\"");
      write_escaped(o, v->group, 1);
      hg_output_printf(o, "\" combine=\"");
      write_escaped(o, v->combine, 1);
      hg_output_printf(o, "\">\n");
    }
    hg_output_printf(o, "<weight id=\"");
    write_escaped(o, v->id, 1);
    hg_output_printf(o, "\" MUR=\"%.1f\" MUF=\"%.1f\" PDF=\"%d\" > ", v->mu_r_factor,
                     v->mu_f_factor, v->pdf_lhapdf_id);
    write_escaped(o, v->description, 0);
    hg_output_printf(o, " </weight>\n");
  }
  if (list->n > 0) hg_output_printf(o, "</weightgroup>\n");
  return hg_output_printf(o, "</initrwgt>\n");
}

static int check_variations(hg_output *o, const hegetcl_variation_list *list) {
  if (list == NULL) return 0;
  if (list->n > HEGETCL_MAX_VARIATIONS)
    return hg_output_fail(o, HEGETCL_ERR_INPUT, "LHE init: %u variations, at most %d", list->n,
                          HEGETCL_MAX_VARIATIONS);
  for (unsigned k = 0; k < list->n; ++k) {
    const hegetcl_variation *v = &list->v[k];
    if (v->id[0] == '\0' || memchr(v->id, '\0', sizeof v->id) == NULL ||
        strpbrk(v->id, "'\"<>& \t\r\n") != NULL)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "LHE variation %u: its id must be 1 to 31 characters without quotes, "
                            "<, >, & or white space",
                            k + 1);
    for (unsigned j = 0; j < k; ++j)
      if (strcmp(list->v[j].id, v->id) == 0)
        return hg_output_fail(o, HEGETCL_ERR_INPUT,
                              "LHE variations %u and %u have the same id \"%s\": ids name the "
                              "weights and must differ",
                              j + 1, k + 1, v->id);
    if (!isfinite(v->mu_r_factor) || !isfinite(v->mu_f_factor) || !(v->mu_r_factor > 0) ||
        !(v->mu_f_factor > 0))
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "LHE variation %s: the scale factors (%g, %g) must be finite and > 0",
                            v->id, v->mu_r_factor, v->mu_f_factor);
    hg_output_check_text(o, "LHE variation group", v->group, 0);
    hg_output_check_text(o, "LHE variation combine", v->combine, 0);
    if (hg_output_check_text(o, "LHE variation description", v->description, 0) != 0)
      return hg_output_status(o);
  }
  return 0;
}

int hg_lhef_write_init(hg_output *o, const hg_lhef_init *init) {
  if (hg_output_status(o) != 0 || check_init(o, init) != 0 ||
      check_variations(o, init->variations) != 0)
    return hg_output_status(o);
  hg_output_printf(o, "<LesHouchesEvents version=\"3.0\">\n");
  if (init->comment != NULL) write_comment(o, init->comment);
  hg_output_printf(o, "<header>\n");
  if (init->header_name != NULL) {
    hg_output_printf(o, "<%s>\n", init->header_name);
    if (init->header_text != NULL && init->header_text[0] != '\0') {
      write_escaped(o, init->header_text, 0);
      if (init->header_text[strlen(init->header_text) - 1] != '\n') hg_output_write(o, "\n", 1);
    }
    hg_output_printf(o, "</%s>\n", init->header_name);
  }
  if (init->variations != NULL && init->variations->n > 0) write_initrwgt(o, init->variations);
  hg_output_printf(o, "</header>\n<init>\n");
  hg_output_printf(o, INIT_BEAMS, init->beam_pid[0], init->beam_pid[1], init->beam_energy_gev[0],
                   init->beam_energy_gev[1], init->pdf_group[0], init->pdf_group[1],
                   init->pdf_set[0], init->pdf_set[1], init->weight_strategy,
                   init->n_processes > 0 ? (int)init->n_processes : 1);
  if (init->n_processes == 0)
    hg_output_printf(o, INIT_PROCESS, init->xsec_pb, init->xsec_error_pb, init->max_weight_pb,
                     init->process_id);
  for (unsigned k = 0; k < init->n_processes; ++k)
    hg_output_printf(o, INIT_PROCESS, init->process_xsec_pb[k], init->process_error_pb[k],
                     init->process_max_weight_pb[k], (int)k + 1);
  if (init->generator_name != NULL) {
    hg_output_printf(o, "<generator name=\"");
    write_escaped(o, init->generator_name, 1);
    if (init->generator_version != NULL) {
      hg_output_printf(o, "\" version=\"");
      write_escaped(o, init->generator_version, 1);
    }
    hg_output_printf(o, "\"></generator>\n");
  }
  hg_output_printf(o, "<xsecinfo neve=\"%lld\" totxsec=\"%.17g\"/>\n", init->n_events,
                   init->total_xsec_pb);
  return hg_output_printf(o, "</init>\n");
}

int hg_lhef_check_event(hg_output *o, const hg_lhef_event *e) {
  const int n = e->n_particles;
  if (n < 1)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE event n_particles (NUP) is %d: it must be >= 1", n);
  if (e->pid == NULL || e->status == NULL || e->mothers == NULL || e->colours == NULL ||
      e->momentum == NULL)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE event: pid, status, mothers, colours and momentum must all be "
                          "given (only lifetime and spin may be NULL)");
  const struct {
    const char *name;
    double value;
  } reals[] = {{"event weight (XWGTUP)", e->weight},
               {"event scale_gev (SCALUP)", e->scale_gev},
               {"event alpha_qed (AQEDUP)", e->alpha_qed},
               {"event alpha_qcd (AQCDUP)", e->alpha_qcd}};
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; ++i)
    if (!isfinite(reals[i].value)) return refuse_nonfinite(o, reals[i].name, reals[i].value);
  if (e->n_weights > 0 && (e->weights == NULL || e->ids == NULL || e->ids->n < e->n_weights))
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "LHE event: %u variation weights need as many weights and ids",
                          e->n_weights);
  char field[128];
  for (unsigned k = 0; k < e->n_weights; ++k)
    if (!isfinite(e->weights[k])) {
      snprintf(field, sizeof field, "event variation weight %s", e->ids->v[k].id);
      return refuse_nonfinite(o, field, e->weights[k]);
    }
  static const char *const component[5] = {"px", "py", "pz", "E", "m"};
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < 5; ++c)
      if (!isfinite(e->momentum[i][c])) {
        snprintf(field, sizeof field, "event momentum[%d][%d] (%s of particle %d, PUP(%d,%d))", i,
                 c, component[c], i + 1, c + 1, i + 1);
        return refuse_nonfinite(o, field, e->momentum[i][c]);
      }
    if (e->lifetime != NULL && !isfinite(e->lifetime[i])) {
      snprintf(field, sizeof field, "event lifetime[%d] (VTIMUP of particle %d)", i, i + 1);
      return refuse_nonfinite(o, field, e->lifetime[i]);
    }
    if (e->spin != NULL && !isfinite(e->spin[i])) {
      snprintf(field, sizeof field, "event spin[%d] (SPINUP of particle %d)", i, i + 1);
      return refuse_nonfinite(o, field, e->spin[i]);
    }
    const int s = e->status[i];
    if (s != -1 && s != 1 && s != -2 && s != 2 && s != 3 && s != -9)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "LHE event status[%d] (ISTUP of particle %d) is %d: it must be -1, "
                            "1, -2, 2, 3 or -9",
                            i, i + 1, s);
    for (int m = 0; m < 2; ++m)
      if (e->mothers[i][m] < 0 || e->mothers[i][m] > n)
        return hg_output_fail(o, HEGETCL_ERR_INPUT,
                              "LHE event mothers[%d][%d] (MOTHUP(%d,%d)) is %d: it must be 0 "
                              "(none) or a particle number 1 .. %d",
                              i, m, m + 1, i + 1, e->mothers[i][m], n);
  }
  return 0;
}

int hg_lhef_write_event(hg_output *o, const hg_lhef_event *e) {
  if (hg_output_status(o) != 0 || hg_lhef_check_event(o, e) != 0) return hg_output_status(o);
  hg_text t = {.out = o};
  hg_lhef_format_event(&t, e);
  return hg_text_flush(&t);
}

void hg_lhef_format_event(hg_text *t, const hg_lhef_event *e) {
  /* EVENT_LINE and PARTICLE_LINE, built without printf (io/format_real.h: the same text) */
  HG_TEXT_LITERAL(t, "<event>\n");
  hg_text_int(t, e->n_particles, 3);
  HG_TEXT_LITERAL(t, " ");
  hg_text_int(t, e->process_id, 6);
  hg_text_real(t, e->weight, 1);
  hg_text_real(t, e->scale_gev, 1);
  hg_text_real(t, e->alpha_qed, 1);
  hg_text_real(t, e->alpha_qcd, 1);
  HG_TEXT_LITERAL(t, "\n");
  static const int widths[6] = {9, 3, 4, 4, 4, 4};
  for (int i = 0; i < e->n_particles; ++i) {
    const int ints[6] = {e->pid[i],        e->status[i],     e->mothers[i][0],
                         e->mothers[i][1], e->colours[i][0], e->colours[i][1]};
    for (int k = 0; k < 6; ++k) {
      if (k > 0) HG_TEXT_LITERAL(t, " ");
      hg_text_int(t, ints[k], widths[k]);
    }
    for (int c = 0; c < 5; ++c) hg_text_real(t, e->momentum[i][c], 1);
    hg_text_real(t, e->lifetime != NULL ? e->lifetime[i] : 0.0, 1);
    hg_text_real(t, e->spin != NULL ? e->spin[i] : 9.0, 1);
    HG_TEXT_LITERAL(t, "\n");
  }
  if (e->n_weights > 0) {
    HG_TEXT_LITERAL(t, "<rwgt>\n");
    for (unsigned k = 0; k < e->n_weights; ++k) {
      const char *id = e->ids->v[k].id;
      HG_TEXT_LITERAL(t, "<wgt id='");
      hg_text_put(t, id, strlen(id));
      HG_TEXT_LITERAL(t, "'>");
      hg_text_real(t, e->weights[k], 1);
      HG_TEXT_LITERAL(t, " </wgt>\n");
    }
    HG_TEXT_LITERAL(t, "</rwgt>\n");
  }
  HG_TEXT_LITERAL(t, "</event>\n");
}

int hg_lhef_write_end(hg_output *o) { return hg_output_printf(o, "</LesHouchesEvents>\n"); }
