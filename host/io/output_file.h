/* SPDX-License-Identifier: MIT */
/* An output file written under this run's own temporary name (path + ".tmp.<pid>.<random>", see
 * io/output_claim.h), plain or gzip-compressed, renamed when complete;
 * what a checkpoint needs to continue one exactly after an interruption (docs/user-guide.md, "Long runs").
 */
#ifndef HG_OUTPUT_FILE_H
#define HG_OUTPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The names beside path: the start of every run's temporary name (".tmp.<pid>.<random>"), and
 * the completed part of an interrupted output. */
#define HG_OUTPUT_TEMP_SUFFIX ".tmp"
#define HG_OUTPUT_PARTIAL_SUFFIX ".partial"

/* Every int below is 0 on success or a negative hegetcl_status (hegetcl/status.h):
 * HEGETCL_ERR_IO (open, write, close, rename), HEGETCL_ERR_INPUT (a refused argument),
 * HEGETCL_ERR_NONFINITE (a refused NaN or infinity) or HEGETCL_ERR_NO_MEMORY. The first failure
 * on an output is sticky: later writes write nothing and return it, hg_output_message() keeps its
 * message (starting with the path), and hg_output_close(o, 1, ...) removes the temporary file and
 * returns it, so a refused value or a failed write never leaves a file under the final name. */
typedef struct hg_output hg_output;

/* Opens this run's temporary name of path for writing (created exclusively, never through a
 * link), gzip-compressed (zlib, level 6, one gzip member per MiB compressed by worker threads:
 * io/parallel_gzip.h) when gzip != 0. A path this process has not claimed
 * (hg_output_claim) is claimed first and released at close: a path that is not a new or writable
 * regular file, or that another run writes, is refused (HEGETCL_ERR_INPUT) with its reason. On
 * failure *out is NULL and message names the path or the temporary path and the OS error. */
int hg_output_open(const char *path, int gzip, hg_output **out, char *message, size_t message_size);

/* printf into the file (no length limit); returns 0, or the sticky failure. */
int hg_output_printf(hg_output *o, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Writes length bytes of text; returns 0, or the sticky failure. */
int hg_output_write(hg_output *o, const char *text, size_t length);

/* Records a failure a writer found (status < 0, e.g. HEGETCL_ERR_NONFINITE) with the message
 * "<path>: <formatted text>", unless an earlier failure is kept; returns the sticky failure. */
int hg_output_fail(hg_output *o, int status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The sticky failure (0 while every write has succeeded). */
int hg_output_status(const hg_output *o);

/* The sticky failure's message; "" while there is none. */
const char *hg_output_message(const hg_output *o);

/* The final path given to hg_output_open. */
const char *hg_output_path(const hg_output *o);

/* Refuses (HEGETCL_ERR_INPUT, recorded on o, naming field) text that is not valid UTF-8, holds
 * U+FFFE, U+FFFF or a control character other than tab, or, unless allow_newlines, a line
 * feed or carriage return: what XML 1.0, YAML and one-line CSV fields can all carry. */
int hg_output_check_text(hg_output *o, const char *field, const char *text, int allow_newlines);

/* Closes and frees o (a NULL o is a no-op returning 0). commit != 0 renames the temporary file to
 * the path when every write succeeded and it was flushed, synced and closed without error (and
 * then removes a path + ".partial" left by an interrupted run, and the event streams stopped or
 * killed runs left under their temporary names); otherwise it is removed and the
 * failure returned with its message. commit == 0 removes the temporary file and returns nonzero
 * only when it could not be removed. */
int hg_output_close(hg_output *o, int commit, char *message, size_t message_size);

/* Bytes written so far (before compression). */
uint64_t hg_output_bytes(const hg_output *o);

/* Makes everything written so far durable: flushed through stdio or zlib (the gzip member ends,
 * so that a gzip file cut off after this point still decompresses up to it) and fsync'ed. record != 0
 * notes the point as a flush of the stream: a gzip stream's bytes depend on where it was flushed,
 * so hg_output_resume flushes again at every recorded point. Returns 0 or the sticky failure. */
int hg_output_sync(hg_output *o, int record);

/* One line describing what o holds, for a checkpoint: "bytes=B crc32=C flushes=F1,F2,..." (B
 * bytes before compression, their zlib CRC-32 in hex, the recorded flush points). malloc'ed; NULL
 * without memory. */
char *hg_output_state(const hg_output *o);

/* Continues o, just opened and holding a prefix of the file that state describes (e.g. its header
 * written again), from source: copies source's bytes (decompressed when it is gzip) from
 * hg_output_bytes(o) up to state's B, flushing again at state's recorded points, then checks that
 * the B bytes now written have state's CRC-32. A source shorter than B bytes, or another CRC,
 * is refused (HEGETCL_ERR_INPUT, recorded on o, naming source and both numbers): it is not the
 * file the state describes. Returns 0 or the sticky failure. */
int hg_output_resume(hg_output *o, const char *source, const char *state);

/* Like hg_output_close(o, 1, ...), but keeps the file under its temporary name
 * (path + ".tmp.<pid>.<x>"), which *kept receives (malloc'ed): the event stream of a stopped run,
 * which --resume continues (hg_output_find_stream) once this process has ended, as it does a
 * killed run's. */
int hg_output_keep_temp(hg_output *o, char **kept, char *message, size_t message_size);

/* The stream that continues the file state describes (a checkpoint's, hg_output_state): the
 * newest temporary file of path left by a run that no longer exists (stopped or killed) whose
 * first bytes are state's, else path + ".partial" if those are (older versions kept the stream
 * there). *source (malloc'ed) names it. HEGETCL_ERR_INPUT when none is there or none matches,
 * message naming what was looked for, or the newest candidate and why it does not match;
 * HEGETCL_ERR_IO or HEGETCL_ERR_NO_MEMORY. */
int hg_output_find_stream(const char *path, const char *state, char **source, char *message,
                          size_t message_size);

/* Nonzero when path ends in ".gz". */
int hg_output_path_is_gzip(const char *path);

#endif
