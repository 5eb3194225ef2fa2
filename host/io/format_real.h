/* SPDX-License-Identifier: MIT */
/* Doubles as printf's "%.16e" and "%+.16e" (17 significant digits, which read back as the same
 * double), character for character, several times faster than printf: the event files' numbers
 * (docs/performance.md, "Writing events"). */
#ifndef HG_IO_FORMAT_REAL_H
#define HG_IO_FORMAT_REAL_H

#include <stddef.h>

#include "io/output_file.h"

/* The longest text hg_format_e16 writes, with its terminating NUL. */
#define HG_FORMAT_E16_SIZE 32

/* Writes x into out (at least HG_FORMAT_E16_SIZE bytes) exactly as snprintf(out, size, plus ?
 * "%+.16e" : "%.16e", x) does, NUL-terminated; returns the length. Exact integer arithmetic for
 * normal numbers from 1e-6 to 2^52 (round half to even, as glibc's printf); printf itself for
 * the rest (zero excepted). */
size_t hg_format_e16(char *out, double x, int plus);

/* Text built in a buffer and handed to an output in large pieces (the event writers' lines). */
typedef struct {
  hg_output *out; /* NULL: the text goes to *mem instead (growing, *mem_length bytes used) */
  char **mem;
  size_t *mem_length, *mem_capacity;
  size_t used;
  char text[16384];
} hg_text;

/* Appends length bytes; hands the buffer to out first when they would not fit. */
void hg_text_put(hg_text *t, const char *s, size_t length);
/* A string literal, its length counted by the compiler. */
#define HG_TEXT_LITERAL(t, literal) hg_text_put((t), (literal), sizeof(literal) - 1)
/* x as " %+.16e" (plus) or " %.16e": a space, then hg_format_e16's text. */
void hg_text_real(hg_text *t, double x, int plus);
/* value as "%*d" (right-aligned in width columns, never cut). */
void hg_text_int(hg_text *t, long long value, int width);
/* Hands what is buffered to out (or *mem); returns hg_output_status (memory: 0, or
 * HEGETCL_ERR_NO_MEMORY). */
int hg_text_flush(hg_text *t);

#endif
