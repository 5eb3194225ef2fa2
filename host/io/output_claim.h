/* SPDX-License-Identifier: MIT */
/* Claiming an output path before any work: what may be replaced (a new path or a writable regular
 * file, never a link, device, FIFO or directory), one lock per path (PATH.lock holding the pid) so
 * that two runs cannot interleave, each run's own temporary name, and one path named by two
 * outputs refused (docs/bad-input.md, "Outputs"). */
#ifndef HG_OUTPUT_CLAIM_H
#define HG_OUTPUT_CLAIM_H

#include <stddef.h>

/* Beside PATH while a run writes it: its lock (the pid of the writing process on its first line,
 * then the run's temporary name). */
#define HG_OUTPUT_LOCK_SUFFIX ".lock"

/* 0 when path may be written as an output: it does not exist (and its folder does), or it is a
 * regular file with a write permission bit (honoured for root too) that this process may write.
 * Refused with HEGETCL_ERR_INPUT and a message naming the path, what it is and the fix: a symbolic
 * link (hegetcl does not write through links: give the path it points to), a directory, a device
 * node, a FIFO or socket, a read-only file. what names the output ("--lhe", "the checkpoint"). */
int hg_output_check_target(const char *what, const char *path, char *message, size_t message_size);

/* Checks path (hg_output_check_target, and path + ".partial" when it exists) and takes its lock:
 * PATH.lock created exclusively with this process's pid. A lock of a live process refuses the
 * claim (HEGETCL_ERR_INPUT) naming that process; the lock of a process that no longer exists is
 * stale and replaced. Claims are kept per process until released: hg_output_open of a claimed
 * path uses the claim, of another path claims it for as long as the output is open. */
int hg_output_claim(const char *what, const char *path, char *message, size_t message_size);

/* For an output that keeps a stopped run's events as PATH.partial (claimed already with
 * hg_output_claim): claims PATH.partial too, so that no other run writes it, and marks it this
 * run's to replace or remove. An existing PATH.partial is refused (HEGETCL_ERR_INPUT, saying how
 * to continue or move it) unless adopt (a resumed run, whose own stopped part it is). */
int hg_output_claim_stopped_part(const char *what, const char *path, int adopt, char *message,
                                 size_t message_size);

/* Nonzero when path's claim owns PATH.partial (hg_output_claim_stopped_part): only then does a
 * completed output remove it, and the streams killed runs left beside it. */
int hg_output_adopts_partial(const char *path);

/* Nonzero when this process holds path's claim. */
int hg_output_claimed(const char *path);

/* The temporary name of a claimed path for this run: PATH.tmp.<pid>.<random hex>; NULL when
 * path is not claimed. */
const char *hg_output_claim_temp(const char *path);

/* Removes path's lock and forgets the claim (nothing when not claimed). */
void hg_output_release(const char *path);

/* Releases every claim of this process. */
void hg_output_release_all(void);

/* One output of a run for hg_output_check_distinct: its option and path, and whether it keeps a
 * stopped run's part as PATH.partial. */
typedef struct {
  const char *what, *path;
  int has_partial;
} hg_output_name;

/* Refuses (HEGETCL_ERR_INPUT) two outputs that would write one file: the same path, spelt alike or
 * not (./x and x, a hard link), or one output's path equal to another's derived name (PATH.partial,
 * PATH.lock). Empty paths are skipped. */
int hg_output_check_distinct(const hg_output_name *outputs, size_t count, char *message,
                             size_t message_size);

/* The temporary files PATH.tmp.<pid>.<x> (and a PATH.tmp of older versions) of runs whose process
 * no longer exists (killed, or stopped and keeping their event stream for --resume): the newest
 * one's name in out (malloc'ed) or NULL when there is none; 0, or a negative status without
 * memory. remove_all != 0 removes every one of them instead. */
int hg_output_dead_temps(const char *path, char **newest, int remove_all);

/* The same files, newest first (by modification time): *names (malloc'ed, each name too; free with
 * hg_output_dead_temp_list_free) holds *count paths. 0, or a negative status without memory. */
int hg_output_dead_temp_list(const char *path, char ***names, size_t *count);
void hg_output_dead_temp_list_free(char **names, size_t count);

#endif
