/* SPDX-License-Identifier: MIT */
/* A growable string for generated sources and outputs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "strbuf.h"

void hg_strbuf_printf(hg_strbuf *s, const char *fmt, ...) {
  if (s->failed) return;
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    s->failed = 1;
    return;
  }
  if (s->length + (size_t)n + 1 > s->capacity) {
    size_t capacity = s->capacity ? s->capacity : 4096;
    while (capacity < s->length + (size_t)n + 1) capacity *= 2;
    char *grown = realloc(s->data, capacity);
    if (grown == NULL) {
      s->failed = 1;
      return;
    }
    s->data = grown;
    s->capacity = capacity;
  }
  va_start(ap, fmt);
  vsnprintf(s->data + s->length, s->capacity - s->length, fmt, ap);
  va_end(ap);
  s->length += (size_t)n;
}

void hg_strbuf_free(hg_strbuf *s) {
  free(s->data);
  s->data = NULL;
  s->length = s->capacity = 0;
}

void hg_put_message(char *message, size_t message_size, const char *fmt, ...) {
  if (message == NULL || message_size == 0) return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, message_size, fmt, args);
  va_end(args);
}
