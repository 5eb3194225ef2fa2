/* SPDX-License-Identifier: MIT */
/* Checkpoint files: versioned text of keyed lines with exact reals and a CRC-32, written under a
 * temporary name and renamed (docs/user-guide.md, "Long runs"). What the keys mean is the writer's.
*/ #ifndef HG_IO_CHECKPOINT_FILE_H
#define HG_IO_CHECKPOINT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Layout:
 *   hegetcl-checkpoint KIND VERSION
 *   # comments (ignored)
 *   KEY VALUE            one per line; VALUE is the rest of the line, KEY may repeat
 *   crc32 XXXXXXXX       zlib's CRC-32 of every byte before this line, in hex
 * Reals are written "%a" (C99 hexadecimal floating point), which reads back bit for bit; text
 * values write a backslash as \\ and a line feed as \n. */
#define HG_CKPT_MAGIC "hegetcl-checkpoint"
/* The comment line before the crc32 line: each line's CRC-32 in order, so that a checkpoint that
 * was changed is refused naming the line (a comment: readers that do not know it skip it). */
#define HG_CKPT_LINE_CRCS "# line crc32:"

typedef struct hg_ckpt_writer hg_ckpt_writer;

/* A checkpoint in memory, begun with its first line; NULL without memory. */
hg_ckpt_writer *hg_ckpt_writer_create(const char *kind, unsigned version);

/* "# text" */
void hg_ckpt_comment(hg_ckpt_writer *w, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "key value" with the value printf-formatted (one line: no line feed in it). */
void hg_ckpt_put(hg_ckpt_writer *w, const char *key, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "key text", escaped. */
void hg_ckpt_put_text(hg_ckpt_writer *w, const char *key, const char *text);
/* "key x1 x2 ... xn", each "%a". */
void hg_ckpt_put_reals(hg_ckpt_writer *w, const char *key, const double *values, size_t n);

/* Appends the crc32 line and writes the whole as path (through path + ".tmp", synced, renamed);
 * frees w. Returns 0, or a hegetcl_status with message (naming the path and the OS error). */
int hg_ckpt_writer_commit(hg_ckpt_writer *w, const char *path, char *message, size_t message_size);
/* Frees w without writing (NULL is fine). */
void hg_ckpt_writer_discard(hg_ckpt_writer *w);

typedef struct {
  const char *key, *value;
  int line;
} hg_ckpt_entry;

typedef struct {
  char *path, *text;
  hg_ckpt_entry *entries;
  size_t count;
  char message[1024]; /* why the last call failed */
} hg_ckpt;

/* Reads path, checking its first line (kind and version) and its CRC-32. Returns 0, or
 * HEGETCL_ERR_IO (unreadable) / HEGETCL_ERR_INPUT (not a checkpoint, another kind or version,
 * cut short, corrupt) with c->message naming the path and what is wrong. Free with hg_ckpt_free
 * either way. */
int hg_ckpt_read(const char *path, const char *kind, unsigned version, hg_ckpt *c);
void hg_ckpt_free(hg_ckpt *c);

/* The nth (0-based) line with this key, or NULL. */
const hg_ckpt_entry *hg_ckpt_find(const hg_ckpt *c, const char *key, size_t nth);
/* Lines with this key. */
size_t hg_ckpt_count(const hg_ckpt *c, const char *key);

/* The nth key line's value as numbers, one per character of format: 'u' a uint64_t *, 'r' a
 * double *. Returns 0, or HEGETCL_ERR_INPUT with c->message "path:line: key: ..." (or "path: no
 * key line"). */
int hg_ckpt_scan(hg_ckpt *c, const char *key, size_t nth, const char *format, ...);
/* The nth key line's value as exactly n reals. */
int hg_ckpt_get_reals(hg_ckpt *c, const char *key, size_t nth, double *out, size_t n);
/* The first key line's value unescaped, malloc'ed into *out. */
int hg_ckpt_get_text(hg_ckpt *c, const char *key, char **out);

#endif
