/* SPDX-License-Identifier: MIT */
/* One Les Houches Event file from several written by hg_lhef_write_* for the same run (one per
 * MPI rank): the first file's head, the <init> block with the total neve, every file's events. */
#ifndef HG_IO_LHE_MERGE_H
#define HG_IO_LHE_MERGE_H

#include <stddef.h>

/* Merges inputs[0 .. n_inputs-1] (each plain or gzip, read with zlib) into out_path (gzip when it
 * ends in ".gz"), written under out_path + ".tmp" and renamed only when complete, so a failed
 * merge leaves nothing under out_path. The output holds:
 *   - inputs[0]'s lines before its <init> line (root element, comment, header) as they are;
 *   - inputs[0]'s <init> block with <xsecinfo neve="..."> replaced by the total of every input's
 *     neve (totxsec and everything else as they are);
 *   - every input's <event> ... </event> blocks verbatim, input by input in the order given;
 *   - </LesHouchesEvents>.
 * Every input must be a complete file of the same run: a <LesHouchesEvents> root, an <init> block
 * equal line by line to inputs[0]'s except for neve, only <event> blocks (and blank lines) after
 * it, as many as its own neve, then </LesHouchesEvents>. Anything else is refused, naming the
 * file, the line, the problem and the fix.
 *
 * Returns 0, and message holds "merged N events from K files into OUT"; or HEGETCL_ERR_INPUT (no
 * inputs, out_path is an input, an input that is not such a file), HEGETCL_ERR_IO (a file that
 * cannot be opened, read or written) or HEGETCL_ERR_NO_MEMORY, with the reason in message. */
int hg_lhe_merge(const char *out_path, const char *const *inputs, size_t n_inputs, char *message,
                 size_t message_size);

#endif
