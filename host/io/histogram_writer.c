/* SPDX-License-Identifier: MIT */
/* YODA (Histo1D V2) and CSV writers of hegetcl_histogram, with their input checks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hegetcl/status.h"
#include "io/histogram_writer.h"

/* The lower edge of bin i (0 .. bins; bins gives hi itself). */
static double edge(const hegetcl_histogram *h, unsigned i) {
  return i >= h->bins ? h->hi : h->lo + ((h->hi - h->lo) * (double)i) / (double)h->bins;
}

/* A char array field must hold its terminating NUL. */
static int check_field(hg_output *o, size_t index, const char *field, const char *text,
                       size_t size) {
  char what[96];
  snprintf(what, sizeof what, "histogram %zu %s", index, field);
  if (strnlen(text, size) == size)
    return hg_output_fail(o, HEGETCL_ERR_INPUT, "%s is not terminated within its %zu bytes", what,
                          size);
  return hg_output_check_text(o, what, text, 0);
}

/* Text that YODA's reader would take for a block boundary inside a block. */
static int check_no_block_words(hg_output *o, const hegetcl_histogram *h, const char *field,
                                const char *text) {
  if (strstr(text, "BEGIN ") != NULL || strstr(text, "END ") != NULL)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "histogram %s %s \"%s\" holds \"BEGIN \" or \"END \", which YODA's "
                          "reader takes for a block boundary: write those words in lower case",
                          h->name, field, text);
  return 0;
}

static int check_histogram(hg_output *o, const hegetcl_histogram *h, size_t index) {
  if (check_field(o, index, "name", h->name, sizeof h->name) != 0 ||
      check_field(o, index, "title", h->title, sizeof h->title) != 0 ||
      check_field(o, index, "x_label", h->x_label, sizeof h->x_label) != 0)
    return hg_output_status(o);
  if (h->name[0] == '\0' || strpbrk(h->name, " \t#/") != NULL)
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "histogram %zu name \"%s\" must be non-empty, without white space, "
                          "'#' or '/'",
                          index, h->name);
  if (h->bins < 1)
    return hg_output_fail(o, HEGETCL_ERR_INPUT, "histogram %s has %u bins: it needs at least 1",
                          h->name, h->bins);
  if (!isfinite(h->lo) || !isfinite(h->hi))
    return hg_output_fail(o, HEGETCL_ERR_NONFINITE,
                          "histogram %s range [%g, %g): both edges must be finite", h->name, h->lo,
                          h->hi);
  if (!(h->lo < h->hi))
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "histogram %s range [%.17g, %.17g): lo must be below hi", h->name, h->lo,
                          h->hi);
  const struct {
    const char *name;
    const double *values;
  } arrays[] = {{"sumw", h->sumw},
                {"sumw2", h->sumw2},
                {"sumwx", h->sumwx},
                {"sumwx2", h->sumwx2},
                {"entries", h->entries}};
  for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; ++a) {
    if (arrays[a].values == NULL)
      return hg_output_fail(o, HEGETCL_ERR_INPUT, "histogram %s: its %s array is missing", h->name,
                            arrays[a].name);
    for (unsigned b = 0; b < h->bins + 2; ++b)
      if (!isfinite(arrays[a].values[b])) {
        char bin[32];
        if (b == 0)
          snprintf(bin, sizeof bin, "underflow");
        else if (b == h->bins + 1)
          snprintf(bin, sizeof bin, "overflow");
        else
          snprintf(bin, sizeof bin, "bin %u", b - 1);
        return hg_output_fail(o, HEGETCL_ERR_NONFINITE,
                              "histogram %s %s: %s[%u] is %g, a non-finite number cannot be "
                              "written",
                              h->name, bin, arrays[a].name, b, arrays[a].values[b]);
      }
  }
  for (unsigned b = 0; b < h->bins + 2; ++b)
    if (h->sumw2[b] < 0)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "histogram %s: sumw2[%u] is %.17g, a squared error must be >= 0",
                            h->name, b, h->sumw2[b]);
  return 0;
}

static int check_all(hg_output *o, const hegetcl_histogram *h, size_t count,
                     const char *header_text) {
  if (hg_output_status(o) != 0) return hg_output_status(o);
  if (h == NULL && count > 0)
    return hg_output_fail(o, HEGETCL_ERR_INPUT, "%zu histograms to write but none given", count);
  if (hg_output_check_text(o, "histogram header_text", header_text, 1) != 0)
    return hg_output_status(o);
  for (size_t i = 0; i < count; ++i)
    if (check_histogram(o, &h[i], i) != 0) return hg_output_status(o);
  return 0;
}

/* header_text as comment lines "# line" ("#" for an empty line; no line for a final newline);
 * carriage returns are dropped, and with yoda != 0 "BEGIN" and "END" are written in lower case. */
static int write_header(hg_output *o, const char *text, int yoda) {
  if (text == NULL) return 0;
  const char *line = text;
  while (*line != '\0') {
    size_t length = strcspn(line, "\n");
    const char *next = line + length + (line[length] == '\n');
    while (length > 0 && line[length - 1] == '\r') --length;
    hg_output_write(o, length > 0 ? "# " : "#", length > 0 ? 2 : 1);
    for (size_t i = 0; i < length;) {
      const size_t word = !yoda                                ? 0
                          : strncmp(line + i, "BEGIN", 5) == 0 ? 5
                          : strncmp(line + i, "END", 3) == 0   ? 3
                                                               : 0;
      if (word > 0) {
        hg_output_write(o, word == 5 ? "begin" : "end", word);
        i += word;
        continue;
      }
      size_t run = 1;
      while (i + run < length && !(yoda && (line[i + run] == 'B' || line[i + run] == 'E'))) ++run;
      hg_output_write(o, line + i, run);
      i += run;
    }
    hg_output_write(o, "\n", 1);
    line = next;
  }
  return hg_output_status(o);
}

/* Whether YAML could read text, written plain after "Key: ", as something else than this string:
 * an indicator first, ": " or " #" inside, a space or ':' last, or a null or boolean word. */
static int yaml_needs_quotes(const char *text) {
  static const char *const words[] = {"null",  "Null",  "NULL",  "~",   "true", "True", "TRUE",
                                      "false", "False", "FALSE", "yes", "Yes",  "YES",  "no",
                                      "No",    "NO",    "on",    "On",  "ON",   "off",  "Off",
                                      "OFF",   "y",     "Y",     "n",   "N"};
  const size_t n = strlen(text);
  if (strchr("-?:,[]{}#&*!|>'\"%@` ", text[0]) != NULL) return 1;
  if (strstr(text, ": ") != NULL || strstr(text, " #") != NULL) return 1;
  if (text[n - 1] == ' ' || text[n - 1] == ':') return 1;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
    if (strcmp(text, words[i]) == 0) return 1;
  return 0;
}

/* "Key: value\n", value plain or single-quoted ('' for '); nothing for an empty value. */
static int write_annotation(hg_output *o, const char *key, const char *value) {
  if (value[0] == '\0') return hg_output_status(o);
  if (!yaml_needs_quotes(value)) return hg_output_printf(o, "%s: %s\n", key, value);
  hg_output_printf(o, "%s: '", key);
  for (const char *p = value; *p != '\0'; ++p) {
    const size_t run = strcspn(p, "'");
    hg_output_write(o, p, run);
    p += run;
    if (*p == '\0') break;
    hg_output_write(o, "''", 2);
  }
  return hg_output_printf(o, "'\n");
}

/* Rivet's axis labels for make-plots and rivet-mkhtml (LaTeX, units in brackets): XLabel the
 * observable, YLabel dsigma/dx in fb per its unit (make-plots draws sumw / bin width). hegetcl's
 * plain labels map to symbols; any other label "WHAT [UNIT]" gives "WHAT [UNIT]" and
 * "$\mathrm{d}\sigma/\mathrm{d}$(WHAT) [fb/UNIT]". */
static void rivet_labels(const char *x_label, char *x, size_t x_size, char *y, size_t y_size) {
  static const struct {
    const char *plain, *symbol, *unit;
  } known[] = {{"pT [GeV]", "p_\\mathrm{T}", "GeV"}, {"eta", "\\eta", NULL},
               {"Delta R", "\\Delta R", NULL},        {"m [GeV]", "m", "GeV"}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
    if (strcmp(x_label, known[i].plain) == 0) {
      const char *unit = known[i].unit;
      snprintf(x, x_size, "$%s$%s%s%s", known[i].symbol, unit ? " [" : "", unit ? unit : "",
               unit ? "]" : "");
      snprintf(y, y_size, "$\\mathrm{d}\\sigma/\\mathrm{d}%s$ [fb%s%s]", known[i].symbol,
               unit ? "/" : "", unit ? unit : "");
      return;
    }
  snprintf(x, x_size, "%s", x_label);
  const char *bracket = strrchr(x_label, '[');
  const char *close = bracket ? strchr(bracket, ']') : NULL;
  size_t what = bracket && close ? (size_t)(bracket - x_label) : strlen(x_label);
  while (what > 0 && x_label[what - 1] == ' ') --what;
  if (bracket && close)
    snprintf(y, y_size, "$\\mathrm{d}\\sigma/\\mathrm{d}$(%.*s) [fb/%.*s]", (int)what, x_label,
             (int)(close - bracket - 1), bracket + 1);
  else
    snprintf(y, y_size, "$\\mathrm{d}\\sigma/\\mathrm{d}$(%.*s) [fb]", (int)what, x_label);
}

/* A YODA distribution line: label or edges, then sumw sumw2 sumwx sumwx2 numEntries. */
static void write_yoda_sums(hg_output *o, const double sums[5]) {
  hg_output_printf(o, "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", sums[0], sums[1], sums[2], sums[3],
                   sums[4]);
}

static void bin_sums(const hegetcl_histogram *h, unsigned b, double sums[5]) {
  sums[0] = h->sumw[b];
  sums[1] = h->sumw2[b];
  sums[2] = h->sumwx[b];
  sums[3] = h->sumwx2[b];
  sums[4] = h->entries[b];
}

/* The histogram's path: /prefix/name, and for a variation /prefix/name[weight] (Rivet's
 * multiweight histograms). */
static void write_yoda_histogram(hg_output *o, const char *prefix, const hegetcl_histogram *h,
                                 const char *weight) {
  while (prefix != NULL && prefix[0] == '/') ++prefix;
  char path[640], suffix[96] = "";
  if (weight != NULL) snprintf(suffix, sizeof suffix, "[%s]", weight);
  if (prefix != NULL && prefix[0] != '\0')
    snprintf(path, sizeof path, "/%s/%s%s", prefix, h->name, suffix);
  else
    snprintf(path, sizeof path, "/%s%s", h->name, suffix);

  double total[5] = {0, 0, 0, 0, 0}, sums[5];
  for (unsigned b = 0; b < h->bins + 2; ++b) { /* index order: underflow, bins, overflow */
    bin_sums(h, b, sums);
    for (int k = 0; k < 5; ++k) total[k] += sums[k];
  }
  hg_output_printf(o, "BEGIN YODA_HISTO1D_V2 %s\nPath: %s\n", path, path);
  write_annotation(o, "Title", h->title);
  hg_output_printf(o, "Type: Histo1D\n");
  if (h->x_label[0] != '\0') { /* annotations in YODA's order: alphabetical */
    char x[160], y[224];
    rivet_labels(h->x_label, x, sizeof x, y, sizeof y);
    write_annotation(o, "XLabel", x);
    write_annotation(o, "YLabel", y);
  }
  hg_output_printf(o, "---\n");
  if (total[0] != 0) hg_output_printf(o, "# Mean: %.17g\n", total[2] / total[0]);
  hg_output_printf(o, "# Area: %.17g\n", total[0]);
  hg_output_printf(o, "# ID\t ID\t sumw\t sumw2\t sumwx\t sumwx2\t numEntries\n");
  hg_output_printf(o, "Total   \tTotal   \t");
  write_yoda_sums(o, total);
  hg_output_printf(o, "Underflow\tUnderflow\t");
  bin_sums(h, 0, sums);
  write_yoda_sums(o, sums);
  hg_output_printf(o, "Overflow\tOverflow\t");
  bin_sums(h, h->bins + 1, sums);
  write_yoda_sums(o, sums);
  hg_output_printf(o, "# xlow\t xhigh\t sumw\t sumw2\t sumwx\t sumwx2\t numEntries\n");
  for (unsigned i = 0; i < h->bins; ++i) {
    hg_output_printf(o, "%.17g\t%.17g\t", edge(h, i), edge(h, i + 1));
    bin_sums(h, i + 1, sums);
    write_yoda_sums(o, sums);
  }
  hg_output_printf(o, "END YODA_HISTO1D_V2\n\n");
}

/* Weight names of the variations: what YODA and Rivet take between the brackets of a path. */
static int check_weights(hg_output *o, const hegetcl_histogram *varied, size_t count,
                         const char *const *weights, size_t n_weights) {
  for (size_t k = 0; k < n_weights; ++k) {
    const char *w = weights[k];
    if (w == NULL || w[0] == '\0' || strlen(w) > 80 || strpbrk(w, " \t\n\r#[]/") != NULL)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "variation weight name %zu \"%.64s\" must be 1 to 80 characters "
                            "without white space, '#', '/' or brackets",
                            k, w ? w : "(null)");
    if (check_all(o, varied + k * count, count, NULL) != 0) return hg_output_status(o);
  }
  return 0;
}

int hg_yoda_write(hg_output *o, const char *prefix, const hegetcl_histogram *h, size_t count,
                  const char *header_text) {
  return hg_yoda_write_variations(o, prefix, h, count, header_text, NULL, NULL, 0);
}

int hg_yoda_write_variations(hg_output *o, const char *prefix, const hegetcl_histogram *h,
                             size_t count, const char *header_text,
                             const hegetcl_histogram *varied, const char *const *weights,
                             size_t n_weights) {
  if (check_all(o, h, count, header_text) != 0) return hg_output_status(o);
  if (n_weights > 0 && check_weights(o, varied, count, weights, n_weights) != 0)
    return hg_output_status(o);
  const size_t prefix_length = prefix == NULL ? 0 : strlen(prefix);
  if (prefix_length > 0 && (strpbrk(prefix, " \t\n\r#") != NULL || prefix_length > 256 ||
                            prefix[prefix_length - 1] == '/'))
    return hg_output_fail(o, HEGETCL_ERR_INPUT,
                          "YODA path prefix \"%.64s\" must be at most 256 characters without white "
                          "space, '#' or a final '/'",
                          prefix);
  if (hg_output_check_text(o, "YODA path prefix", prefix, 0) != 0) return hg_output_status(o);
  for (size_t i = 0; i < count; ++i)
    if (check_no_block_words(o, &h[i], "title", h[i].title) != 0 ||
        check_no_block_words(o, &h[i], "x_label", h[i].x_label) != 0)
      return hg_output_status(o);
  write_header(o, header_text, 1);
  if (header_text != NULL && header_text[0] != '\0') hg_output_write(o, "\n", 1);
  for (size_t i = 0; i < count; ++i) {
    write_yoda_histogram(o, prefix, &h[i], NULL);
    for (size_t k = 0; k < n_weights; ++k)
      write_yoda_histogram(o, prefix, &varied[k * count + i], weights[k]);
  }
  return hg_output_status(o);
}

/* A CSV field, quoted (RFC 4180) when it holds a comma or a quote, a quote doubled. */
static void write_csv_text(hg_output *o, const char *text) {
  if (strpbrk(text, ",\"") == NULL) {
    hg_output_write(o, text, strlen(text));
    return;
  }
  hg_output_write(o, "\"", 1);
  for (const char *p = text; *p != '\0'; ++p)
    hg_output_write(o, *p == '"' ? "\"\"" : p, 1 + (*p == '"'));
  hg_output_write(o, "\"", 1);
}

static void write_csv_row(hg_output *o, const hegetcl_histogram *h, const char *weight,
                          const char *bin, double xlow, double xhigh, unsigned b) {
  char name[160];
  snprintf(name, sizeof name, "%s%s%s%s", h->name, weight ? "[" : "", weight ? weight : "",
           weight ? "]" : "");
  write_csv_text(o, name);
  hg_output_printf(o, ",%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", bin, xlow, xhigh,
                   h->sumw[b], sqrt(h->sumw2[b]), h->sumwx[b], h->sumwx2[b], h->entries[b]);
}

int hg_histogram_csv_write(hg_output *o, const hegetcl_histogram *h, size_t count,
                           const char *header_text) {
  return hg_histogram_csv_write_variations(o, h, count, header_text, NULL, NULL, 0);
}

int hg_histogram_csv_write_variations(hg_output *o, const hegetcl_histogram *h, size_t count,
                                      const char *header_text, const hegetcl_histogram *varied,
                                      const char *const *weights, size_t n_weights) {
  if (check_all(o, h, count, header_text) != 0) return hg_output_status(o);
  if (n_weights > 0 && check_weights(o, varied, count, weights, n_weights) != 0)
    return hg_output_status(o);
  write_header(o, header_text, 0);
  hg_output_printf(o, "histogram,bin,xlow,xhigh,sumw_fb,error_fb,sumwx,sumwx2,entries\n");
  for (size_t k = 0; k <= n_weights; ++k)
    for (size_t i = 0; i < count; ++i) {
      const hegetcl_histogram *x = k == 0 ? &h[i] : &varied[(k - 1) * count + i];
      const char *w = k == 0 ? NULL : weights[k - 1];
      write_csv_row(o, x, w, "underflow", -INFINITY, x->lo, 0);
      for (unsigned b = 0; b < x->bins; ++b) {
        char bin[16];
        snprintf(bin, sizeof bin, "%u", b);
        write_csv_row(o, x, w, bin, edge(x, b), edge(x, b + 1), b + 1);
      }
      write_csv_row(o, x, w, "overflow", x->hi, INFINITY, x->bins + 1);
    }
  return hg_output_status(o);
}
