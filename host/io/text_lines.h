/* SPDX-License-Identifier: MIT */
/* Lines of a text file, plain or gzip-compressed, read one at a time with zlib. */
#ifndef HG_IO_TEXT_LINES_H
#define HG_IO_TEXT_LINES_H

#include <stddef.h>

#include <zlib.h>

/* Lines may be as long as memory allows up to this bound; a longer one is refused. */
#define HG_TEXT_LINES_MAX_BYTES ((size_t)1 << 26)

typedef struct {
  const char *path; /* as given to hg_text_lines_open, not copied */
  gzFile in;
  char *line;       /* the current line, its newline kept (none on a last line without one) */
  size_t length;    /* strlen(line) */
  size_t capacity;  /* bytes allocated at line */
  long long number; /* the current line's number, from 1 (0 before the first) */
} hg_text_lines;

/* Opens path (gzip or plain: zlib tells them apart); on failure (HEGETCL_ERR_IO, or
 * HEGETCL_ERR_NO_MEMORY) message names path and the OS error, and r needs no close. */
int hg_text_lines_open(hg_text_lines *r, const char *path, char *message, size_t message_size);

/* Reads the next line into r->line: 1, or 0 at the end of the file, or a negative hegetcl_status
 * with message naming the file and line: HEGETCL_ERR_IO (a read error, corrupt gzip data),
 * HEGETCL_ERR_INPUT (a NUL byte, a line over HG_TEXT_LINES_MAX_BYTES, a gzip stream that ends
 * early, i.e. a file cut off) or HEGETCL_ERR_NO_MEMORY. */
int hg_text_lines_next(hg_text_lines *r, char *message, size_t message_size);

/* Closes the file and frees the line (a closed or zeroed r is a no-op). */
void hg_text_lines_close(hg_text_lines *r);

#endif
