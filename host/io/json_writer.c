/* SPDX-License-Identifier: MIT */
/* A small JSON writer (RFC 8259): escaping, separators and indentation. */
#include <math.h>

#include "io/json_writer.h"

void hg_json_write_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
    switch (*p) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    default:
      if (*p < 0x20)
        fprintf(out, "\\u%04x", *p);
      else
        fputc(*p, out);
    }
  }
  fputc('"', out);
}

/* The separator, indentation and key before a value. */
static void member(hg_json *j, const char *key) {
  if (j->depth > 0) {
    fputs(j->first[j->depth] ? "\n" : ",\n", j->out);
    j->first[j->depth] = 0;
    for (int i = 0; i < j->depth; ++i) fputs("  ", j->out);
  }
  if (key) {
    hg_json_write_string(j->out, key);
    fputs(": ", j->out);
  }
}

void hg_json_begin(hg_json *j, FILE *out) {
  j->out = out;
  j->depth = 0;
  j->first[0] = 1;
}

static void open_container(hg_json *j, const char *key, char c) {
  member(j, key);
  fputc(c, j->out);
  if (j->depth < 31) ++j->depth;
  j->first[j->depth] = 1;
}

static void close_container(hg_json *j, char c) {
  const int empty = j->first[j->depth];
  if (j->depth > 0) --j->depth;
  if (!empty) {
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; ++i) fputs("  ", j->out);
  }
  fputc(c, j->out);
  if (j->depth == 0) fputc('\n', j->out);
}

void hg_json_object(hg_json *j, const char *key) { open_container(j, key, '{'); }
void hg_json_array(hg_json *j, const char *key) { open_container(j, key, '['); }
void hg_json_end_object(hg_json *j) { close_container(j, '}'); }
void hg_json_end_array(hg_json *j) { close_container(j, ']'); }

void hg_json_string(hg_json *j, const char *key, const char *value) {
  member(j, key);
  hg_json_write_string(j->out, value);
}

void hg_json_number(hg_json *j, const char *key, double value) {
  member(j, key);
  if (isfinite(value))
    fprintf(j->out, "%.17g", value);
  else
    fputs("null", j->out);
}

void hg_json_uint(hg_json *j, const char *key, uint64_t value) {
  member(j, key);
  fprintf(j->out, "%llu", (unsigned long long)value);
}

void hg_json_int(hg_json *j, const char *key, long long value) {
  member(j, key);
  fprintf(j->out, "%lld", value);
}

void hg_json_bool(hg_json *j, const char *key, int value) {
  member(j, key);
  fputs(value ? "true" : "false", j->out);
}
