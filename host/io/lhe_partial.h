/* SPDX-License-Identifier: MIT */
/* The Les Houches file of a run stopped early (FILE.partial): its complete events, with a header
 * and weights that describe exactly those events. */
#ifndef HG_IO_LHE_PARTIAL_H
#define HG_IO_LHE_PARTIAL_H

/* Writes partial_path (gzip-compressed when gzip != 0; under a temporary name, renamed when
 * complete) from stream, the event stream of a run that stopped before its N events were written
 * (what hg_lhe_events writes: <init> for N events, every XWGTUP = XSECUP / N; it may lack
 * </LesHouchesEvents> and end inside an event, as a killed run's does). The file holds stream's k
 * complete events and says so: <xsecinfo neve="k">, XMAXUP and every event's XWGTUP = XSECUP / k,
 * so that the weights add up to sigma under IDWTUP = 3 (CONVENTIONS.md, "Unweighting and
 * events"); every other byte is stream's, and it ends with </LesHouchesEvents>. *n_events = k;
 * with k = 0 nothing is written (no event to describe). Returns 0, or HEGETCL_ERR_INPUT (stream is
 * not such a stream: no <init> block, an XSECUP that is not a positive finite number),
 * HEGETCL_ERR_IO or HEGETCL_ERR_NO_MEMORY, with message naming the file and line. */
int hg_lhe_partial_write(const char *stream, const char *partial_path, int gzip,
                         long long *n_events, char *message, size_t message_size);

#endif
