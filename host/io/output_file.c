/* SPDX-License-Identifier: MIT */
/* Output files under a temporary name: stdio or zlib, one sticky failure, rename on commit, and
 * the bookkeeping (bytes, CRC-32, flush points) that lets a resumed run continue one exactly. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/output_claim.h"
#include "io/output_file.h"
#include "io/parallel_gzip.h"

struct hg_output {
  char *path, *temp_path;
  FILE *file;  /* plain output */
  hg_pgz *gz;  /* gzip output, compressed by worker threads (io/parallel_gzip.h) */
  int sync_fd; /* gzip: gz's descriptor; else -1 */
  int status;  /* the first failure, sticky */
  int own_claim; /* the path was claimed by hg_output_open, released by its close */
  char message[1024];
  char *buffer; /* hg_output_printf's formatted text */
  size_t buffer_size;
  uint64_t bytes;    /* written, before compression */
  unsigned long crc; /* their zlib CRC-32 */
  uint64_t *flushes; /* recorded flush points (hg_output_sync) */
  size_t n_flushes, cap_flushes;
};

/* Keeps status and its message as o's failure unless one is kept already; returns the kept one. */
static int record(hg_output *o, int status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int record(hg_output *o, int status, const char *format, ...) {
  if (o->status != 0) return o->status;
  o->status = status < 0 ? status : HEGETCL_ERR_INPUT;
  va_list args;
  va_start(args, format);
  vsnprintf(o->message, sizeof o->message, format, args);
  va_end(args);
  return o->status;
}

static void free_output(hg_output *o) {
  if (o->own_claim && o->path != NULL) hg_output_release(o->path);
  free(o->flushes);
  free(o->path);
  free(o->temp_path);
  free(o->buffer);
  free(o);
}

/* path + suffix, malloc'ed (NULL without memory). */
static char *with_suffix(const char *path, const char *suffix) {
  const size_t n = strlen(path), m = strlen(suffix);
  char *out = malloc(n + m + 1);
  if (out != NULL) {
    memcpy(out, path, n);
    memcpy(out + n, suffix, m + 1);
  }
  return out;
}

int hg_output_path_is_gzip(const char *path) {
  const size_t n = path == NULL ? 0 : strlen(path);
  return n >= 3 && strcmp(path + n - 3, ".gz") == 0;
}

int hg_output_open(const char *path, int gzip, hg_output **out, char *message,
                   size_t message_size) {
  *out = NULL;
  if (path == NULL || path[0] == '\0') {
    hg_put_message(message, message_size, "output file: the path is empty");
    return HEGETCL_ERR_INPUT;
  }
  /* a path not claimed before (hg_output_claim) is claimed while this output is open */
  const int own_claim = !hg_output_claimed(path);
  if (own_claim) {
    const int status = hg_output_claim("output", path, message, message_size);
    if (status != 0) return status;
  }
  const char *temp = hg_output_claim_temp(path);
  hg_output *o = calloc(1, sizeof *o);
  if (o == NULL || (o->path = with_suffix(path, "")) == NULL ||
      (o->temp_path = with_suffix(temp, "")) == NULL) {
    if (o != NULL) free_output(o);
    if (own_claim) hg_output_release(path);
    hg_put_message(message, message_size, "cannot allocate the output for %s", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  o->own_claim = own_claim;
  o->sync_fd = -1;
  o->crc = crc32(0L, Z_NULL, 0);

  /* this run's own name: never another run's file, never through a link */
  const int fd = open(o->temp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    hg_put_message(message, message_size, "cannot create %s: %s", o->temp_path, strerror(errno));
    if (own_claim) hg_output_release(path);
    free_output(o);
    return HEGETCL_ERR_IO;
  }
  int saved_errno = 0;
  if (gzip) {
    errno = 0;
    o->gz = hg_pgz_open(fd, 6, 0);
    saved_errno = errno != 0 ? errno : ENOMEM;
    if (o->gz != NULL) o->sync_fd = fd;
  } else {
    o->file = fdopen(fd, "wb");
    saved_errno = errno;
  }
  if (o->gz == NULL && o->file == NULL) {
    hg_put_message(message, message_size, "cannot open %s for %s writing: %s", o->temp_path,
                gzip ? "gzip" : "plain", strerror(saved_errno));
    close(fd);
    unlink(o->temp_path);
    if (own_claim) hg_output_release(path);
    free_output(o);
    return HEGETCL_ERR_IO;
  }
  *out = o;
  return 0;
}

/* Adds length bytes at text to the count and the CRC-32 (zlib takes at most UINT_MAX at once). */
static void account(hg_output *o, const char *text, size_t length) {
  o->bytes += length;
  while (length > 0) {
    const unsigned chunk = length > (1u << 30) ? 1u << 30 : (unsigned)length;
    o->crc = crc32(o->crc, (const Bytef *)text, chunk);
    text += chunk;
    length -= chunk;
  }
}

int hg_output_write(hg_output *o, const char *text, size_t length) {
  if (o->status != 0) return o->status;
  account(o, text, length);
  if (o->gz != NULL) {
    int error_errno = 0;
    if (hg_pgz_write(o->gz, text, length, &error_errno) != 0)
      return record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path,
                    error_errno ? strerror(error_errno) : "zlib could not compress");
    return 0;
  }
  if (length > 0 && fwrite(text, 1, length, o->file) != length)
    return record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path, strerror(errno));
  return 0;
}

int hg_output_printf(hg_output *o, const char *format, ...) {
  if (o->status != 0) return o->status;
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = vsnprintf(o->buffer, o->buffer_size, format, args);
  va_end(args);
  if (n >= 0 && (size_t)n >= o->buffer_size) {
    size_t size = o->buffer_size < 256 ? 256 : o->buffer_size;
    while (size <= (size_t)n) size *= 2;
    char *buffer = realloc(o->buffer, size);
    if (buffer == NULL) {
      va_end(again);
      return record(o, HEGETCL_ERR_NO_MEMORY, "cannot allocate %zu bytes of text for %s", size,
                    o->path);
    }
    o->buffer = buffer;
    o->buffer_size = size;
    vsnprintf(o->buffer, o->buffer_size, format, again);
  }
  va_end(again);
  if (n < 0)
    return record(o, HEGETCL_ERR_INPUT, "%s: text could not be formatted (format \"%.60s\")",
                  o->path, format);
  return hg_output_write(o, o->buffer, (size_t)n);
}

int hg_output_fail(hg_output *o, int status, const char *format, ...) {
  if (o->status != 0) return o->status;
  char text[896];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return record(o, status, "%s: %s", o->path, text);
}

int hg_output_status(const hg_output *o) { return o->status; }

const char *hg_output_message(const hg_output *o) { return o->message; }

const char *hg_output_path(const hg_output *o) { return o->path; }

int hg_output_check_text(hg_output *o, const char *field, const char *text, int allow_newlines) {
  if (o->status != 0) return o->status;
  if (text == NULL) return 0;
  const unsigned char *p = (const unsigned char *)text;
  while (*p != '\0') {
    const size_t at = (size_t)(p - (const unsigned char *)text);
    unsigned code = *p;
    size_t length = 1;
    unsigned least = 0;
    if (code >= 0xF0 && code < 0xF8) {
      length = 4;
      code &= 0x07;
      least = 0x10000;
    } else if (code >= 0xE0 && code < 0xF0) {
      length = 3;
      code &= 0x0F;
      least = 0x800;
    } else if (code >= 0xC0 && code < 0xE0) {
      length = 2;
      code &= 0x1F;
      least = 0x80;
    } else if (code >= 0x80) {
      return hg_output_fail(o, HEGETCL_ERR_INPUT, "%s is not valid UTF-8 (byte %zu is 0x%02x)",
                            field, at, *p);
    }
    for (size_t i = 1; i < length; ++i) {
      if ((p[i] & 0xC0) != 0x80)
        return hg_output_fail(o, HEGETCL_ERR_INPUT,
                              "%s is not valid UTF-8 (truncated sequence at byte %zu)", field, at);
      code = code << 6 | (p[i] & 0x3Fu);
    }
    if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "%s is not valid UTF-8 (overlong, surrogate or out-of-range "
                            "sequence at byte %zu)",
                            field, at);
    const int newline = code == '\n' || code == '\r';
    if ((code < 0x20 && code != '\t' && !(newline && allow_newlines)) ||
        (code >= 0x7F && code <= 0x9F) || code == 0xFFFE || code == 0xFFFF)
      return hg_output_fail(o, HEGETCL_ERR_INPUT,
                            "%s holds the character U+%04X at byte %zu, which this format "
                            "cannot carry%s",
                            field, code, at,
                            newline ? " (it must be one line)" : " (a control character)");
    p += length;
  }
  return 0;
}

/* hg_output_close and hg_output_keep_temp: commit renames the temporary file to target. */
static int finish(hg_output *o, int commit, const char *target, char *message,
                  size_t message_size) {
  if (o->gz != NULL) {
    int error_errno = 0;
    if (hg_pgz_flush(o->gz, &error_errno) != 0)
      record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path,
             error_errno ? strerror(error_errno) : "zlib could not compress");
    /* EINVAL: the file system cannot sync this file, which is no failure of the file itself. */
    if (commit && o->status == 0 && fsync(o->sync_fd) != 0 && errno != EINVAL)
      record(o, HEGETCL_ERR_IO, "cannot sync %s: %s", o->temp_path, strerror(errno));
    if (hg_pgz_close(o->gz, &error_errno) != 0)
      record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path,
             error_errno ? strerror(error_errno) : "zlib could not compress");
  } else {
    if (commit && o->status == 0) {
      if (fflush(o->file) != 0)
        record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path, strerror(errno));
      else if (fsync(fileno(o->file)) != 0 && errno != EINVAL)
        record(o, HEGETCL_ERR_IO, "cannot sync %s: %s", o->temp_path, strerror(errno));
    }
    if (fclose(o->file) != 0)
      record(o, HEGETCL_ERR_IO, "cannot close %s: %s", o->temp_path, strerror(errno));
  }

  int result = 0;
  if (commit && o->status == 0 && rename(o->temp_path, target) != 0)
    record(o, HEGETCL_ERR_IO, "cannot rename %s to %s: %s", o->temp_path, target, strerror(errno));
  if (commit) {
    result = o->status;
    if (result != 0) unlink(o->temp_path);
    if (result != 0) hg_put_message(message, message_size, "%s", o->message);
  } else if (unlink(o->temp_path) != 0 && errno != ENOENT) {
    hg_put_message(message, message_size, "cannot remove %s: %s", o->temp_path, strerror(errno));
    result = HEGETCL_ERR_IO;
  }
  return result;
}

int hg_output_close(hg_output *o, int commit, char *message, size_t message_size) {
  hg_put_message(message, message_size, "%s", "");
  if (o == NULL) return 0;
  int result = finish(o, commit, o->path, message, message_size);
  if (commit && result == 0) {
    /* the complete file replaces what an interrupted run kept of it */
    char *partial = with_suffix(o->path, HG_OUTPUT_PARTIAL_SUFFIX);
    if (partial == NULL) {
      hg_put_message(message, message_size, "no memory to name %s%s", o->path,
                  HG_OUTPUT_PARTIAL_SUFFIX);
      result = HEGETCL_ERR_NO_MEMORY;
    } else if (unlink(partial) != 0 && errno != ENOENT) {
      hg_put_message(message, message_size, "cannot remove %s: %s", partial, strerror(errno));
      result = HEGETCL_ERR_IO;
    }
    free(partial);
    /* and what killed runs left of it under their temporary names */
    hg_output_dead_temps(o->path, NULL, 1);
  }
  free_output(o);
  return result;
}

int hg_output_keep_temp(hg_output *o, char **kept, char *message, size_t message_size) {
  *kept = NULL;
  hg_put_message(message, message_size, "%s", "");
  char *name = with_suffix(o->temp_path, "");
  if (name == NULL) record(o, HEGETCL_ERR_NO_MEMORY, "no memory to name %s", o->temp_path);
  /* renaming the file onto its own name keeps it, flushed, synced and closed */
  const int result = finish(o, 1, o->temp_path, message, message_size);
  free_output(o);
  if (result == 0)
    *kept = name;
  else
    free(name);
  return result;
}

uint64_t hg_output_bytes(const hg_output *o) { return o->bytes; }

/* Pushes what zlib or stdio holds to the file; durable != 0 also fsyncs it. */
static int flush_stream(hg_output *o, int durable) {
  if (o->status != 0) return o->status;
  int fd = o->sync_fd;
  if (o->gz != NULL) {
    int error_errno = 0;
    if (hg_pgz_flush(o->gz, &error_errno) != 0)
      return record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path,
                    error_errno ? strerror(error_errno) : "zlib could not compress");
  } else {
    if (fflush(o->file) != 0)
      return record(o, HEGETCL_ERR_IO, "cannot write %s: %s", o->temp_path, strerror(errno));
    fd = fileno(o->file);
  }
  if (durable && fsync(fd) != 0 && errno != EINVAL)
    return record(o, HEGETCL_ERR_IO, "cannot sync %s: %s", o->temp_path, strerror(errno));
  return 0;
}

/* Notes the current position as a flush point. */
static int note_flush(hg_output *o) {
  if (o->n_flushes == o->cap_flushes) {
    const size_t cap = o->cap_flushes ? 2 * o->cap_flushes : 16;
    uint64_t *grown = realloc(o->flushes, cap * sizeof *grown);
    if (grown == NULL)
      return record(o, HEGETCL_ERR_NO_MEMORY, "no memory to note a flush of %s", o->path);
    o->flushes = grown;
    o->cap_flushes = cap;
  }
  o->flushes[o->n_flushes++] = o->bytes;
  return 0;
}

int hg_output_sync(hg_output *o, int record_flush) {
  if (flush_stream(o, 1) != 0) return o->status;
  return record_flush ? note_flush(o) : 0;
}

char *hg_output_state(const hg_output *o) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (f == NULL) return NULL;
  fprintf(f, "bytes=%" PRIu64 " crc32=%08lx flushes=", o->bytes, o->crc);
  for (size_t i = 0; i < o->n_flushes; ++i) fprintf(f, "%s%" PRIu64, i ? "," : "", o->flushes[i]);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* Reads "bytes=B crc32=C flushes=F1,F2,..." into its parts (*flushes malloc'ed); 0 or -1. */
static int parse_state(const char *state, uint64_t *bytes, unsigned long *crc, uint64_t **flushes,
                       size_t *n_flushes) {
  *flushes = NULL;
  *n_flushes = 0;
  char *end = NULL;
  if (strncmp(state, "bytes=", 6) != 0) return -1;
  errno = 0;
  *bytes = strtoull(state + 6, &end, 10);
  if (end == state + 6 || errno != 0 || strncmp(end, " crc32=", 7) != 0) return -1;
  const char *p = end + 7;
  *crc = strtoul(p, &end, 16);
  if (end != p + 8 || errno != 0 || strncmp(end, " flushes=", 9) != 0) return -1;
  p = end + 9;
  size_t count = *p != '\0';
  for (const char *q = p; *q != '\0'; ++q) count += *q == ',';
  if (count == 0) return 0;
  *flushes = malloc(count * sizeof **flushes);
  if (*flushes == NULL) return -1;
  uint64_t previous = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t at = strtoull(p, &end, 10);
    if (end == p || errno != 0 || (*end != ',' && *end != '\0') ||
        (*end == ',') != (i + 1 < count) || at <= previous || at > *bytes) {
      free(*flushes);
      *flushes = NULL;
      return -1;
    }
    (*flushes)[i] = previous = at;
    p = end + 1;
  }
  *n_flushes = count;
  return 0;
}

int hg_output_resume(hg_output *o, const char *source, const char *state) {
  if (o->status != 0) return o->status;
  uint64_t bytes = 0, *flushes = NULL;
  unsigned long crc = 0;
  size_t n_flushes = 0;
  if (parse_state(state, &bytes, &crc, &flushes, &n_flushes) != 0)
    return record(o, HEGETCL_ERR_INPUT,
                  "%s: the checkpoint's description of it, \"%.200s\", is malformed (want "
                  "bytes=B crc32=C flushes=F1,F2,...)",
                  o->path, state);
  const uint64_t start = o->bytes;
  if (n_flushes > 0 && flushes[0] <= start) {
    const uint64_t first = flushes[0];
    free(flushes);
    return record(o, HEGETCL_ERR_INPUT,
                  "%s: the checkpoint records a flush at byte %" PRIu64 ", inside the %" PRIu64
                  " bytes written again before the copy: it does not describe this file",
                  o->path, first, start);
  }
  /* gzread also reads a plain file as it is */
  errno = 0;
  gzFile in = gzopen(source, "rb");
  if (in == NULL) {
    free(flushes);
    return record(o, HEGETCL_ERR_IO, "cannot open %s, the events of the interrupted run: %s",
                  source, errno ? strerror(errno) : "zlib ran out of memory");
  }
  char buffer[1 << 16];
  uint64_t have = 0; /* bytes of source read */
  size_t next_flush = 0;
  while (o->status == 0 && have < bytes) {
    const uint64_t left = bytes - have;
    const unsigned want = left < sizeof buffer ? (unsigned)left : (unsigned)sizeof buffer;
    const int got = gzread(in, buffer, want);
    if (got <= 0) break; /* the end, or a gzip stream cut off: what came before is checked */
    size_t from = 0;
    if (have < start) from = start - have < (uint64_t)got ? (size_t)(start - have) : (size_t)got;
    while (from < (size_t)got && o->status == 0) {
      /* up to the next flush point, if it falls in this chunk */
      size_t to = (size_t)got;
      if (next_flush < n_flushes && flushes[next_flush] < have + (uint64_t)got)
        to = (size_t)(flushes[next_flush] - have);
      hg_output_write(o, buffer + from, to - from);
      from = to;
      if (next_flush < n_flushes && o->bytes == flushes[next_flush]) {
        flush_stream(o, 0);
        note_flush(o);
        ++next_flush;
      }
    }
    have += (uint64_t)got;
  }
  gzclose(in);
  free(flushes);
  if (o->status != 0) return o->status;
  if (have < bytes)
    return record(o, HEGETCL_ERR_INPUT,
                  "%s holds %" PRIu64 " bytes of events, fewer than the %" PRIu64
                  " the checkpoint recorded: it is not the file the checkpoint continues (or it "
                  "was cut short)",
                  source, have, bytes);
  if (o->crc != crc)
    return record(o, HEGETCL_ERR_INPUT,
                  "%s does not match the checkpoint: its first %" PRIu64
                  " bytes (with the header written again) have CRC-32 %08lx, the checkpoint "
                  "recorded %08lx; was it changed, or is the run card another?",
                  source, bytes, o->crc, crc);
  return 0;
}

/* Whether source's first bytes are those state describes: 0, or HEGETCL_ERR_INPUT (HEGETCL_ERR_IO
 * when it cannot be read) with the reason in message. */
static int stream_matches(const char *source, const char *state, char *message,
                          size_t message_size) {
  uint64_t bytes = 0, *flushes = NULL;
  unsigned long crc = 0;
  size_t n_flushes = 0;
  if (parse_state(state, &bytes, &crc, &flushes, &n_flushes) != 0) {
    hg_put_message(message, message_size,
                   "the checkpoint's description of the event file, \"%.200s\", is malformed "
                   "(want bytes=B crc32=C flushes=F1,F2,...)",
                   state);
    return HEGETCL_ERR_INPUT;
  }
  free(flushes);
  errno = 0;
  gzFile in = gzopen(source, "rb");
  if (in == NULL) {
    hg_put_message(message, message_size, "cannot open %s: %s", source,
                   errno ? strerror(errno) : "zlib ran out of memory");
    return HEGETCL_ERR_IO;
  }
  char buffer[1 << 16];
  uint64_t have = 0;
  unsigned long got_crc = crc32(0L, Z_NULL, 0);
  while (have < bytes) {
    const uint64_t left = bytes - have;
    const unsigned want = left < sizeof buffer ? (unsigned)left : (unsigned)sizeof buffer;
    const int got = gzread(in, buffer, want);
    if (got <= 0) break; /* the end, or a gzip stream cut off (a killed run's) */
    got_crc = crc32(got_crc, (const Bytef *)buffer, (unsigned)got);
    have += (uint64_t)got;
  }
  gzclose(in);
  if (have < bytes) {
    hg_put_message(message, message_size,
                   "%s holds %" PRIu64 " bytes of events, fewer than the %" PRIu64
                   " the checkpoint recorded: it is not the file the checkpoint continues (or "
                   "it was cut short)",
                   source, have, bytes);
    return HEGETCL_ERR_INPUT;
  }
  if (got_crc != crc) {
    hg_put_message(message, message_size,
                   "%s does not match the checkpoint: its first %" PRIu64
                   " bytes have CRC-32 %08lx, the checkpoint recorded %08lx; was it changed, or "
                   "is the run card another?",
                   source, bytes, got_crc, crc);
    return HEGETCL_ERR_INPUT;
  }
  return 0;
}

int hg_output_find_stream(const char *path, const char *state, char **source, char *message,
                          size_t message_size) {
  *source = NULL;
  hg_put_message(message, message_size, "%s", "");
  char **names = NULL;
  size_t count = 0;
  int rc = hg_output_dead_temp_list(path, &names, &count);
  char *partial = with_suffix(path, HG_OUTPUT_PARTIAL_SUFFIX);
  if (rc != 0 || partial == NULL) {
    hg_output_dead_temp_list_free(names, count);
    free(partial);
    hg_put_message(message, message_size, "no memory to look for %s's event stream", path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  struct stat st;
  const int has_partial = stat(partial, &st) == 0;
  char first_reason[1280] = "";
  size_t tried = 0;
  rc = HEGETCL_ERR_INPUT;
  for (size_t i = 0; i <= count && *source == NULL; ++i) {
    const char *candidate = i < count ? names[i] : has_partial ? partial : NULL;
    if (candidate == NULL) break;
    char reason[1024];
    const int status = stream_matches(candidate, state, reason, sizeof reason);
    if (status == 0) {
      *source = with_suffix(candidate, "");
      rc = *source != NULL ? 0 : HEGETCL_ERR_NO_MEMORY;
      break;
    }
    if (tried++ == 0) {
      snprintf(first_reason, sizeof first_reason, "%s", reason);
      if (status != HEGETCL_ERR_INPUT) rc = status;
    }
  }
  if (rc == HEGETCL_ERR_INPUT && count == 0)
    hg_put_message(message, message_size,
                   "the stopped run's event stream is not here: no %s%s.<pid>.<x> (what a "
                   "stopped or killed run leaves beside it)%s%s%s",
                   path, HG_OUTPUT_TEMP_SUFFIX, has_partial ? "; " : "", has_partial ? partial : "",
                   has_partial ? " holds the stopped run's events with weights of their own, "
                                 "which --resume does not continue"
                               : "");
  else if (rc != 0)
    hg_put_message(message, message_size, "%s%s", first_reason,
                   tried > 1 ? " (no other stopped or killed run's event stream beside it matches "
                               "either)"
                             : "");
  hg_output_dead_temp_list_free(names, count);
  free(partial);
  return rc;
}
