/* SPDX-License-Identifier: MIT */
/* A growable string for generated sources and outputs. */
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

#endif
