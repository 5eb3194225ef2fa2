/* SPDX-License-Identifier: MIT */
/* The on-disk cache of built program binaries, so that a second process loads in milliseconds a
 * program the first one compiled in seconds; keyed on everything the binary depends on. */
#ifndef HG_PROGRAM_CACHE_H
#define HG_PROGRAM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "context.h"

/* Where one program's binary is kept and what its file must say to be used. */
typedef struct {
  char *folder; /* HEGETCL_PROGRAM_CACHE, or the default under XDG_CACHE_HOME or HOME */
  char *path;   /* folder/<FNV-1a 128 of header, 32 hex digits>.bin */
  char *header; /* the file's first bytes: magic line, hegetcl version, options, platform and
                   device identity, source length and digest; every field of the key */
  size_t header_size;
} hg_program_cache_entry;

/* Fills *entry for the program these sources (the strings and lengths given to
 * clCreateProgramWithSource, in order) and options make on ctx's device, and returns 1; or
 * returns 0 with *why (static text) saying why the disk cache does not apply: it is off
 * (HEGETCL_PROGRAM_CACHE=off, or no HOME), or the compiler would read files the key cannot see
 * (HEGETCL_CL_DIR, an #include "file" line, an -I option), or the device would not say who it is.
 * Never fails a run: every problem is a reason. */
int hg_program_cache_entry_make(hegetcl_context *ctx, const char *const *strings,
                                const size_t *lengths, size_t n_parts, const char *options,
                                hg_program_cache_entry *entry, const char **why);
void hg_program_cache_entry_free(hg_program_cache_entry *entry);

/* The program built (clBuildProgram with options) from the entry's file, or NULL when the file
 * is missing, unreadable, does not match the entry in every header field, is cut short, or the
 * driver rejects it; a file that is there but bad is deleted (the next store replaces it). With
 * HEGETCL_BUILD_LOG=1 a miss prints one line to stderr saying why. Counts a load in ctx. */
cl_program hg_program_cache_load(hegetcl_context *ctx, const hg_program_cache_entry *entry,
                                 const char *options);

/* Writes the binary of a program that built from source into the entry's file: a temporary file
 * in the same folder (mkstemp) renamed into place, so that processes running at once never read
 * half a file. Creates missing folders (mode 0700). Any failure (read-only folder, full disk, no
 * binary from the driver) leaves no file and no error; with HEGETCL_BUILD_LOG=1 it prints one
 * line. Counts a store in ctx. */
void hg_program_cache_store(hegetcl_context *ctx, const hg_program_cache_entry *entry,
                            cl_program program);

/* How many of ctx's programs came from the disk cache, and how many it wrote there (for tests). */
void hg_program_cache_counts(const hegetcl_context *ctx, unsigned long *loaded,
                             unsigned long *stored);

/* FNV-1a with 128 bits (the FNV prime 2^88 + 2^8 + 0x3b), fed in pieces: the cache's digests. */
typedef struct {
  uint64_t hi, lo;
} hg_fnv1a128;
void hg_fnv1a128_init(hg_fnv1a128 *h);
void hg_fnv1a128_add(hg_fnv1a128 *h, const void *data, size_t size);
/* The digest as 32 lowercase hex digits and a NUL. */
void hg_fnv1a128_hex(const hg_fnv1a128 *h, char out[33]);
/* FNV-1a with 64 bits of size bytes: a cache file's binary check, and program.c's key of a
 * generated source in the context's cache. */
uint64_t hg_fnv1a64(const void *data, size_t size);

#endif
