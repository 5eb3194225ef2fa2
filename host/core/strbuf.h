/* SPDX-License-Identifier: MIT */
/* A growable string for generated sources and outputs, and messages into callers' buffers. */
#ifndef HG_STRBUF_H
#define HG_STRBUF_H

#include <stddef.h>

typedef struct {
  char *data;
  size_t length, capacity;
  int failed; /* set once an allocation failed; later appends do nothing */
} hg_strbuf;

/* Appends formatted text. */
void hg_strbuf_printf(hg_strbuf *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void hg_strbuf_free(hg_strbuf *s);

/* snprintf into a caller's message buffer that may be NULL or empty (then nothing is written). */
void hg_put_message(char *message, size_t message_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
