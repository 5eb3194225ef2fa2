/* SPDX-License-Identifier: MIT */
/* Checkpoint files: writing keyed lines in memory, committing them atomically with a CRC-32, and
 * reading them back with messages that name the file, line and key. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/checkpoint_file.h"
#include "io/output_file.h"

struct hg_ckpt_writer {
  FILE *f; /* open_memstream over text */
  char *text;
  size_t size;
};

hg_ckpt_writer *hg_ckpt_writer_create(const char *kind, unsigned version) {
  hg_ckpt_writer *w = calloc(1, sizeof *w);
  if (w == NULL) return NULL;
  w->f = open_memstream(&w->text, &w->size);
  if (w->f == NULL) {
    free(w);
    return NULL;
  }
  fprintf(w->f, "%s %s %u\n", HG_CKPT_MAGIC, kind, version);
  return w;
}

void hg_ckpt_comment(hg_ckpt_writer *w, const char *format, ...) {
  fputs("# ", w->f);
  va_list args;
  va_start(args, format);
  vfprintf(w->f, format, args);
  va_end(args);
  fputc('\n', w->f);
}

void hg_ckpt_put(hg_ckpt_writer *w, const char *key, const char *format, ...) {
  fprintf(w->f, "%s ", key);
  va_list args;
  va_start(args, format);
  vfprintf(w->f, format, args);
  va_end(args);
  fputc('\n', w->f);
}

void hg_ckpt_put_text(hg_ckpt_writer *w, const char *key, const char *text) {
  fprintf(w->f, "%s ", key);
  for (const char *p = text; *p != '\0'; ++p) {
    if (*p == '\\')
      fputs("\\\\", w->f);
    else if (*p == '\n')
      fputs("\\n", w->f);
    else
      fputc(*p, w->f);
  }
  fputc('\n', w->f);
}

void hg_ckpt_put_reals(hg_ckpt_writer *w, const char *key, const double *values, size_t n) {
  fputs(key, w->f);
  for (size_t i = 0; i < n; ++i) fprintf(w->f, " %a", values[i]);
  fputc('\n', w->f);
}

void hg_ckpt_writer_discard(hg_ckpt_writer *w) {
  if (w == NULL) return;
  if (w->f != NULL) fclose(w->f);
  free(w->text);
  free(w);
}

int hg_ckpt_writer_commit(hg_ckpt_writer *w, const char *path, char *message, size_t message_size) {
  const int closed = fclose(w->f);
  w->f = NULL;
  if (closed != 0 || w->text == NULL) {
    hg_ckpt_writer_discard(w);
    hg_put_message(message, message_size, "no memory for the checkpoint %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  /* a comment with each line's CRC-32, so that a reader can name the line that was changed */
  hg_strbuf lines = {0};
  hg_strbuf_printf(&lines, "%s", HG_CKPT_LINE_CRCS);
  for (size_t at = 0; at < w->size;) {
    const char *end = memchr(w->text + at, '\n', w->size - at);
    const size_t length = end != NULL ? (size_t)(end - (w->text + at)) : w->size - at;
    hg_strbuf_printf(&lines, " %08lx",
                     crc32(crc32(0L, Z_NULL, 0), (const Bytef *)w->text + at, (uInt)length));
    at += length + 1;
  }
  hg_strbuf_printf(&lines, "\n");
  if (lines.failed) {
    hg_strbuf_free(&lines);
    hg_ckpt_writer_discard(w);
    hg_put_message(message, message_size, "no memory for the checkpoint %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  unsigned long crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)w->text, (uInt)w->size);
  crc = crc32(crc, (const Bytef *)lines.data, (uInt)lines.length);
  hg_output *out = NULL;
  int status = hg_output_open(path, 0, &out, message, message_size);
  if (status == 0) {
    hg_output_write(out, w->text, w->size);
    hg_output_write(out, lines.data, lines.length);
    hg_output_printf(out, "crc32 %08lx\n", crc);
    status = hg_output_close(out, 1, message, message_size);
  }
  hg_strbuf_free(&lines);
  hg_ckpt_writer_discard(w);
  return status;
}

/* What changed in a checkpoint whose CRC-32 does not match, from its line checksums (the comment
 * before the crc32 line, text[0 .. last) the lines before the crc32 line): "line N (KEY ...) was
 * changed", lines added or removed, or "" when the checksums are not there or damaged too. */
static void describe_change(const char *text, size_t last, char *out, size_t size) {
  out[0] = '\0';
  if (last == 0) return;
  size_t mark = last - 1; /* the start of the line before the crc32 line */
  while (mark > 0 && text[mark - 1] != '\n') --mark;
  const size_t prefix = strlen(HG_CKPT_LINE_CRCS);
  if (strncmp(text + mark, HG_CKPT_LINE_CRCS, prefix) != 0) return;
  const char *sums = text + mark + prefix;
  size_t line = 1, at = 0;
  for (; at < mark; ++line) {
    const char *end = memchr(text + at, '\n', mark - at);
    const size_t length = end != NULL ? (size_t)(end - (text + at)) : mark - at;
    unsigned long want = 0;
    int used = 0;
    if (sscanf(sums, " %8lx%n", &want, &used) != 1) {
      snprintf(out, size, " (it has more lines than hegetcl wrote: from line %zu on)", line);
      return;
    }
    sums += used;
    if (crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text + at, (uInt)length) != want) {
      const size_t key = strcspn(text + at, " \n");
      snprintf(out, size, " (line %zu, '%.*s', is not what hegetcl wrote)", line,
               (int)(key < 40 ? key : 40), text + at);
      return;
    }
    at += length + 1;
  }
  unsigned long more = 0;
  if (sscanf(sums, " %8lx", &more) == 1)
    snprintf(out, size, " (it has fewer lines than hegetcl wrote: %zu)", line - 1);
  else
    snprintf(out, size, " (every line is as written but the checksums: they were changed)");
}

void hg_ckpt_free(hg_ckpt *c) {
  free(c->path);
  free(c->text);
  free(c->entries);
  c->path = c->text = NULL;
  c->entries = NULL;
  c->count = 0;
}

/* Reads the whole file into c->text (NUL-terminated); *size its length. */
static int slurp(hg_ckpt *c, const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    hg_put_message(c->message, sizeof c->message, "cannot read the checkpoint %s: %s", path,
                strerror(errno));
    return HEGETCL_ERR_IO;
  }
  size_t cap = 1 << 16, n = 0;
  c->text = malloc(cap);
  int failed = c->text == NULL;
  while (!failed) {
    if (n + 1 >= cap) {
      char *grown = realloc(c->text, 2 * cap);
      if (grown == NULL) {
        failed = 1;
        break;
      }
      c->text = grown;
      cap *= 2;
    }
    const size_t got = fread(c->text + n, 1, cap - 1 - n, f);
    n += got;
    if (got == 0) break;
  }
  const int read_error = ferror(f);
  fclose(f);
  if (failed) {
    hg_put_message(c->message, sizeof c->message, "no memory to read the checkpoint %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  if (read_error) {
    hg_put_message(c->message, sizeof c->message, "cannot read the checkpoint %s", path);
    return HEGETCL_ERR_IO;
  }
  c->text[n] = '\0';
  *size = n;
  return 0;
}

int hg_ckpt_read(const char *path, const char *kind, unsigned version, hg_ckpt *c) {
  memset(c, 0, sizeof *c);
  const size_t path_length = strlen(path);
  c->path = malloc(path_length + 1);
  if (c->path == NULL) {
    hg_put_message(c->message, sizeof c->message, "no memory to read the checkpoint %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  memcpy(c->path, path, path_length + 1);
  size_t size = 0;
  int status = slurp(c, path, &size);
  if (status != 0) return status;
  /* the first line: magic, kind, version */
  char first[128];
  const size_t first_length = strcspn(c->text, "\n");
  snprintf(first, sizeof first, "%.*s", (int)(first_length < 100 ? first_length : 100), c->text);
  char magic[32], got_kind[64];
  unsigned got_version = 0;
  int consumed = 0;
  if (memchr(c->text, '\0', size) != NULL ||
      sscanf(first, "%31s %63s %u%n", magic, got_kind, &got_version, &consumed) != 3 ||
      strcmp(magic, HG_CKPT_MAGIC) != 0 || first[consumed] != '\0') {
    hg_put_message(c->message, sizeof c->message,
                "%s is not a hegetcl checkpoint: its first line is \"%s\", not \"%s %s %u\"", path,
                first, HG_CKPT_MAGIC, kind, version);
    return HEGETCL_ERR_INPUT;
  }
  if (strcmp(got_kind, kind) != 0) {
    hg_put_message(c->message, sizeof c->message,
                "%s is a checkpoint of '%s', not of '%s': it belongs to another command", path,
                got_kind, kind);
    return HEGETCL_ERR_INPUT;
  }
  if (got_version != version) {
    hg_put_message(c->message, sizeof c->message,
                "%s is a checkpoint of format version %u; this hegetcl reads version %u: continue "
                "it with the hegetcl that wrote it (its 'writer' line names it)",
                path, got_version, version);
    return HEGETCL_ERR_INPUT;
  }
  /* the last line: crc32 of everything before it */
  if (size == 0 || c->text[size - 1] != '\n') {
    hg_put_message(c->message, sizeof c->message,
                "%s is cut short: it does not end with its crc32 line (hegetcl replaces a "
                "checkpoint only by a complete one: was it copied or edited?)",
                path);
    return HEGETCL_ERR_INPUT;
  }
  size_t last = size - 1;
  while (last > 0 && c->text[last - 1] != '\n') --last;
  unsigned long want = 0;
  char tail[32];
  if (sscanf(c->text + last, "crc32 %8lx%n", &want, &consumed) != 1 ||
      c->text + last + consumed != c->text + size - 1) {
    hg_put_message(c->message, sizeof c->message,
                "%s is cut short or corrupt: its last line is not \"crc32 XXXXXXXX\" (hegetcl "
                "replaces a checkpoint only by a complete one: was it copied or edited?)",
                path);
    return HEGETCL_ERR_INPUT;
  }
  const unsigned long crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)c->text, (uInt)last);
  if (crc != want) {
    snprintf(tail, sizeof tail, "%08lx", crc);
    char change[160];
    describe_change(c->text, last, change, sizeof change);
    hg_put_message(c->message, sizeof c->message,
                "%s is corrupt: its contents have CRC-32 %s, its crc32 line says %08lx%s (was it "
                "edited?)",
                path, tail, want, change);
    return HEGETCL_ERR_INPUT;
  }
  c->text[last] = '\0';
  /* the lines between */
  size_t lines = 0;
  for (size_t i = 0; i < last; ++i) lines += c->text[i] == '\n';
  c->entries = calloc(lines + 1, sizeof *c->entries);
  if (c->entries == NULL) {
    hg_put_message(c->message, sizeof c->message, "no memory to read the checkpoint %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  char *p = c->text + first_length + 1;
  int line = 2;
  while (p < c->text + last) {
    char *end = strchr(p, '\n');
    *end = '\0';
    if (*p != '#' && *p != '\0') {
      char *space = strchr(p, ' ');
      hg_ckpt_entry *e = &c->entries[c->count++];
      e->key = p;
      e->value = "";
      e->line = line;
      if (space != NULL) {
        *space = '\0';
        e->value = space + 1;
      }
    }
    p = end + 1;
    ++line;
  }
  return 0;
}

const hg_ckpt_entry *hg_ckpt_find(const hg_ckpt *c, const char *key, size_t nth) {
  for (size_t i = 0; i < c->count; ++i)
    if (strcmp(c->entries[i].key, key) == 0 && nth-- == 0) return &c->entries[i];
  return NULL;
}

size_t hg_ckpt_count(const hg_ckpt *c, const char *key) {
  size_t n = 0;
  for (size_t i = 0; i < c->count; ++i) n += strcmp(c->entries[i].key, key) == 0;
  return n;
}

static const hg_ckpt_entry *need(hg_ckpt *c, const char *key, size_t nth) {
  const hg_ckpt_entry *e = hg_ckpt_find(c, key, nth);
  if (e == NULL) {
    if (nth == 0)
      hg_put_message(c->message, sizeof c->message, "%s: no '%s' line: the checkpoint is incomplete",
                  c->path, key);
    else
      hg_put_message(c->message, sizeof c->message,
                  "%s: only %zu '%s' lines, %zu expected: the checkpoint is incomplete", c->path,
                  nth, key, nth + 1);
  }
  return e;
}

/* A whole number at *p (after blanks; no sign). Returns its end, or NULL. */
static const char *whole(const char *p, uint64_t *out) {
  while (*p == ' ') ++p;
  if (*p < '0' || *p > '9') return NULL;
  char *end = NULL;
  errno = 0;
  *out = strtoull(p, &end, 10);
  if (errno != 0 || (*end != ' ' && *end != '\0')) return NULL;
  return end;
}

/* A real that may be negative (strtod takes the sign). */
static const char *real(const char *p, double *out) {
  while (*p == ' ') ++p;
  char *end = NULL;
  *out = strtod(p, &end);
  if (end == p || (*end != ' ' && *end != '\0')) return NULL;
  return end;
}

int hg_ckpt_scan(hg_ckpt *c, const char *key, size_t nth, const char *format, ...) {
  const hg_ckpt_entry *e = need(c, key, nth);
  if (e == NULL) return HEGETCL_ERR_INPUT;
  va_list args;
  va_start(args, format);
  const char *p = e->value;
  for (size_t i = 0; format[i] != '\0' && p != NULL; ++i)
    p = format[i] == 'u' ? whole(p, va_arg(args, uint64_t *)) : real(p, va_arg(args, double *));
  va_end(args);
  if (p != NULL)
    while (*p == ' ') ++p;
  if (p == NULL || *p != '\0') {
    hg_put_message(c->message, sizeof c->message,
                "%s:%d: %s: \"%.80s\" is not %zu numbers (%s): the checkpoint is corrupt", c->path,
                e->line, key, e->value, strlen(format),
                strchr(format, 'r') ? "whole numbers and reals" : "whole numbers");
    return HEGETCL_ERR_INPUT;
  }
  return 0;
}

int hg_ckpt_get_reals(hg_ckpt *c, const char *key, size_t nth, double *out, size_t n) {
  const hg_ckpt_entry *e = need(c, key, nth);
  if (e == NULL) return HEGETCL_ERR_INPUT;
  const char *p = e->value;
  for (size_t i = 0; i < n && p != NULL; ++i) p = real(p, &out[i]);
  if (p != NULL)
    while (*p == ' ') ++p;
  if (p == NULL || *p != '\0') {
    size_t found = 0;
    for (const char *q = e->value; *q != '\0';) {
      while (*q == ' ') ++q;
      if (*q == '\0') break;
      ++found;
      while (*q != ' ' && *q != '\0') ++q;
    }
    hg_put_message(c->message, sizeof c->message,
                "%s:%d: %s: %zu values where %zu reals belong: the checkpoint is corrupt", c->path,
                e->line, key, found, n);
    return HEGETCL_ERR_INPUT;
  }
  return 0;
}

int hg_ckpt_get_text(hg_ckpt *c, const char *key, char **out) {
  *out = NULL;
  const hg_ckpt_entry *e = need(c, key, 0);
  if (e == NULL) return HEGETCL_ERR_INPUT;
  char *text = malloc(strlen(e->value) + 1), *q = text;
  if (text == NULL) {
    hg_put_message(c->message, sizeof c->message, "no memory to read the checkpoint %s", c->path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  for (const char *p = e->value; *p != '\0'; ++p) {
    if (*p == '\\' && (p[1] == '\\' || p[1] == 'n')) {
      *q++ = p[1] == 'n' ? '\n' : '\\';
      ++p;
    } else if (*p == '\\') {
      free(text);
      hg_put_message(c->message, sizeof c->message,
                  "%s:%d: %s: a backslash not followed by \\ or n: the checkpoint is corrupt",
                  c->path, e->line, key);
      return HEGETCL_ERR_INPUT;
    } else {
      *q++ = *p;
    }
  }
  *q = '\0';
  *out = text;
  return 0;
}
