/* SPDX-License-Identifier: MIT */
/* gzip written by several threads: the text is cut into blocks of HG_PGZ_BLOCK bytes (and at
 * every flush), each compressed by a worker thread as a gzip member of its own, and the members
 * written in order. A gzip file may hold several members, which every reader concatenates (RFC
 * 1952; zlib's gzread, Python's gzip, pylhe, Pythia 8, pyhepmc). The blocks depend only on the
 * bytes and the flush points, so the same text flushed at the same points gives the same file,
 * whatever the thread count (a resumed run's file equals the uninterrupted one's). */
#ifndef HG_IO_PARALLEL_GZIP_H
#define HG_IO_PARALLEL_GZIP_H

#include <stddef.h>

/* Bytes of text per gzip member (the last one before a flush may be shorter). */
#define HG_PGZ_BLOCK (1u << 20)

typedef struct hg_pgz hg_pgz;

/* A writer to the open descriptor fd (which it closes) at zlib level, with threads worker
 * threads (0: the online CPUs, at most 16; the environment variable HEGETCL_GZIP_THREADS
 * overrides). NULL without memory or threads. */
hg_pgz *hg_pgz_open(int fd, int level, unsigned threads);

/* Appends text; 0, or -1 with *error_errno set (a failed write) or 0 (zlib failed). */
int hg_pgz_write(hg_pgz *z, const char *text, size_t length, int *error_errno);

/* Ends the current member and writes every member so far: a file cut after this point decompresses
 * up to it. 0 or -1 as hg_pgz_write. */
int hg_pgz_flush(hg_pgz *z, int *error_errno);

/* The descriptor written (for fsync). */
int hg_pgz_fd(const hg_pgz *z);

/* Flushes (an empty member when nothing was written, so the file is a gzip file), stops the
 * threads, closes the descriptor and frees z. 0 or -1 as hg_pgz_write. */
int hg_pgz_close(hg_pgz *z, int *error_errno);

/* The worker threads of z. */
unsigned hg_pgz_threads(const hg_pgz *z);

#endif
