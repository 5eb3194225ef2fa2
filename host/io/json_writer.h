/* SPDX-License-Identifier: MIT */
/* A small JSON writer: objects, arrays, escaped strings, numbers with round-trip precision. */
#ifndef HG_JSON_WRITER_H
#define HG_JSON_WRITER_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
  FILE *out;
  int depth;
  int first[32]; /* per depth: no member written yet */
} hg_json;

void hg_json_begin(hg_json *j, FILE *out);
/* s as a JSON string literal, quoted and escaped, for writers that lay out their own JSON. */
void hg_json_write_string(FILE *out, const char *s);
/* Opens an object or array as the value of key (NULL inside arrays and at the top). */
void hg_json_object(hg_json *j, const char *key);
void hg_json_array(hg_json *j, const char *key);
void hg_json_end_object(hg_json *j);
void hg_json_end_array(hg_json *j);
void hg_json_string(hg_json *j, const char *key, const char *value);
/* Non-finite numbers are written as null (JSON has no NaN). */
void hg_json_number(hg_json *j, const char *key, double value);
void hg_json_uint(hg_json *j, const char *key, uint64_t value);
void hg_json_int(hg_json *j, const char *key, long long value);
void hg_json_bool(hg_json *j, const char *key, int value);

#endif
