/* SPDX-License-Identifier: MIT */
/* Lines of a plain or gzip text file through zlib's gzgets: text_lines.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/text_lines.h"

int hg_text_lines_open(hg_text_lines *r, const char *path, char *message, size_t message_size) {
  memset(r, 0, sizeof *r);
  r->path = path;
  errno = 0;
  r->in = gzopen(path, "rb");
  if (r->in == NULL) {
    const int saved_errno = errno;
    hg_put_message(message, message_size,
                   "cannot open %s: %s: check the path and that the file is readable", path,
                   saved_errno != 0 ? strerror(saved_errno) : "zlib ran out of memory");
    return saved_errno != 0 ? HEGETCL_ERR_IO : HEGETCL_ERR_NO_MEMORY;
  }
  return 0;
}

/* Makes room for at least two more bytes after r->length; 0 or a status with message. */
static int grow(hg_text_lines *r, char *message, size_t message_size) {
  if (r->capacity - r->length >= 2) return 0;
  const size_t capacity = r->capacity == 0 ? 4096 : 2 * r->capacity;
  if (capacity > HG_TEXT_LINES_MAX_BYTES) {
    hg_put_message(message, message_size,
                   "%s line %lld is longer than %zu bytes: this is not a text file of lines (an "
                   "LHE file has short lines); check that it is the file meant",
                   r->path, r->number + 1, (size_t)HG_TEXT_LINES_MAX_BYTES);
    return HEGETCL_ERR_INPUT;
  }
  char *line = realloc(r->line, capacity);
  if (line == NULL) {
    hg_put_message(message, message_size, "no memory for %zu bytes of line %lld of %s", capacity,
                   r->number + 1, r->path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  r->line = line;
  r->capacity = capacity;
  return 0;
}

/* After gzgets returned NULL: 0 at a clean end of the file, else the read failure. */
static int end_or_failure(hg_text_lines *r, char *message, size_t message_size) {
  const int saved_errno = errno;
  int code = Z_OK;
  const char *why = gzerror(r->in, &code);
  if (code == Z_OK) return 0;
  const long long after = r->number + (r->length > 0);
  /* zlib's message starts with the path */
  const size_t path_length = strlen(r->path);
  if (why != NULL && strncmp(why, r->path, path_length) == 0 && why[path_length] == ':')
    why += path_length + (why[path_length + 1] == ' ' ? 2 : 1);
  if (code == Z_BUF_ERROR) {
    hg_put_message(message, message_size,
                   "%s: its gzip stream ends early, after line %lld: the file was cut off (an "
                   "interrupted run or an incomplete copy); use the complete file",
                   r->path, after);
    return HEGETCL_ERR_INPUT;
  }
  if (code == Z_MEM_ERROR) {
    hg_put_message(message, message_size, "no memory for zlib to read %s", r->path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  char line[64] = "";
  if (after > 0) hg_put_message(line, sizeof line, " after line %lld", after);
  hg_put_message(message, message_size, "cannot read %s%s: %s%s", r->path, line,
                 code == Z_ERRNO ? strerror(saved_errno) : why,
                 code == Z_DATA_ERROR ? " (corrupt gzip data: copy the file again)"
                                      : ": check that it is a readable file");
  return HEGETCL_ERR_IO;
}

int hg_text_lines_next(hg_text_lines *r, char *message, size_t message_size) {
  r->length = 0;
  for (;;) {
    const int status = grow(r, message, message_size);
    if (status != 0) return status;
    const size_t room_size = r->capacity - r->length;
    const int room = room_size > INT_MAX ? INT_MAX : (int)room_size;
    errno = 0;
    if (gzgets(r->in, r->line + r->length, room) == NULL) {
      r->line[r->length] = '\0';
      const int failure = end_or_failure(r, message, message_size);
      if (failure != 0) return failure;
      break;
    }
    const size_t added = strlen(r->line + r->length);
    r->length += added;
    if (r->length > 0 && r->line[r->length - 1] == '\n') break;
    if (added + 1 < (size_t)room) {
      /* gzgets stops early only at the end of the file; otherwise a NUL byte cut the text */
      if (gzeof(r->in)) break;
      hg_put_message(message, message_size,
                     "%s line %lld holds a NUL byte: this is not a text file; check that it is "
                     "the file meant",
                     r->path, r->number + 1);
      return HEGETCL_ERR_INPUT;
    }
  }
  if (r->length == 0) return 0;
  ++r->number;
  return 1;
}

void hg_text_lines_close(hg_text_lines *r) {
  if (r->in != NULL) gzclose(r->in);
  free(r->line);
  r->in = NULL;
  r->line = NULL;
  r->length = r->capacity = 0;
}
