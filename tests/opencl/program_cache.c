/* SPDX-License-Identifier: MIT */
/* The disk cache of program binaries: a second context loads what the first stored and gives
 * bit-identical |M|^2; damaged files, HEGETCL_PROGRAM_CACHE=off, a folder that cannot be made and
 * sources from HEGETCL_CL_DIR all fall back to building from source, with the same numbers. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/program_cache.h"
#include "test_support.h"

#define N_PHOTONS 3
#define N_EVENTS 16
#define MAX_PROGRAMS 4
#define MAX_FILES 64

/* u u~ -> 3 photons with two engines, in double where the device has it and in float: two to
 * four programs, so that the damage test has files to damage in different ways. */
static const hegetcl_engine engines[] = {HEGETCL_ENGINE_RECURSIVE, HEGETCL_ENGINE_PERMUTATION};

static char root[512];                                 /* the test's temporary folder */
static char cache[600];                                /* HEGETCL_PROGRAM_CACHE */
static double momenta[4 * (N_PHOTONS + 2) * N_EVENTS]; /* fixed points */
static double reference[MAX_PROGRAMS][N_EVENTS];       /* |M|^2 of the first context */
static size_t n_programs;
static int have_reference;

/* The environment the test changes, restored when it ends. */
static const char *const saved_names[] = {"HEGETCL_PROGRAM_CACHE", "XDG_CACHE_HOME",
                                          "HEGETCL_CL_DIR"};
#define N_SAVED (sizeof saved_names / sizeof saved_names[0])
static char *saved_values[N_SAVED];

static void restore_environment(void) {
  for (size_t i = 0; i < N_SAVED; ++i) {
    if (saved_values[i] != NULL)
      setenv(saved_names[i], saved_values[i], 1);
    else
      unsetenv(saved_names[i]);
  }
}

/* What every case starts from: the test's own cache folder, the embedded sources. */
static void test_environment(void) {
  restore_environment();
  setenv("HEGETCL_PROGRAM_CACHE", cache, 1);
  unsetenv("HEGETCL_CL_DIR");
}

/* Removes a folder and everything in it (no symbolic links are followed). */
static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *dir = opendir(path);
    for (struct dirent *e = dir != NULL ? readdir(dir) : NULL; e != NULL; e = readdir(dir)) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      char child[1024];
      snprintf(child, sizeof child, "%s/%s", path, e->d_name);
      remove_tree(child);
    }
    if (dir != NULL) closedir(dir);
    rmdir(path);
  } else {
    unlink(path);
  }
}

static int setup(void **state) {
  (void)state;
  for (size_t i = 0; i < N_SAVED; ++i) {
    const char *value = getenv(saved_names[i]);
    saved_values[i] = value != NULL ? strdup(value) : NULL;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/hegetcl-program-cache-XXXXXX",
           tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(root) == NULL) {
    print_error("mkdtemp %s: %s\n", root, strerror(errno));
    return -1;
  }
  snprintf(cache, sizeof cache, "%s/programs", root);
  test_environment();
  ts_random_points(N_PHOTONS, 500.0, N_EVENTS, 20240611, 0.05, momenta);
  return 0;
}

/* Before each case: whatever the last one left (it may have failed halfway) is undone. */
static int reset(void **state) {
  (void)state;
  test_environment();
  return 0;
}

static int teardown(void **state) {
  (void)state;
  restore_environment();
  for (size_t i = 0; i < N_SAVED; ++i) free(saved_values[i]);
  remove_tree(root);
  return 0;
}

/* What one context gave: |M|^2 per program and the disk cache's counters. */
typedef struct {
  double me[MAX_PROGRAMS][N_EVENTS];
  size_t n_programs;
  unsigned long loaded, stored;
  char device[128];
} run_result;

/* A new context evaluates |M|^2 at the fixed points with every engine and precision, then is
 * destroyed: what a new process would do. */
static void run_context(run_result *r) {
  memset(r, 0, sizeof *r);
  hegetcl_context *ctx = ts_context_create();
  if (ctx == NULL) fail_msg("no device");
  snprintf(r->device, sizeof r->device, "%s", ts_device_name(ctx));
  const hegetcl_precision precisions[] = {HEGETCL_PRECISION_DOUBLE, HEGETCL_PRECISION_FLOAT};
  for (size_t p = ts_has_fp64(ctx) ? 0 : 1; p < 2; ++p)
    for (size_t e = 0; e < sizeof engines / sizeof engines[0]; ++e) {
      hegetcl_process process;
      hegetcl_process_defaults(&process, N_PHOTONS);
      process.engine = engines[e];
      process.precision = precisions[p];
      hegetcl_amplitude *amp = NULL;
      TS_ASSERT_OK(ctx, hegetcl_amplitude_create(ctx, &process, &amp));
      TS_ASSERT_OK(ctx, hegetcl_amplitude_evaluate(amp, N_EVENTS, momenta, r->me[r->n_programs]));
      hegetcl_amplitude_destroy(amp);
      ++r->n_programs;
    }
  hg_program_cache_counts(ctx, &r->loaded, &r->stored);
  hegetcl_context_destroy(ctx);
}

/* The first context's numbers, bit for bit (the cache must never change a result). */
static void assert_identical(const run_result *r, const char *what) {
  if (!have_reference) fail_msg("%s: the first test, which makes the reference, failed", what);
  assert_int_equal(r->n_programs, n_programs);
  for (size_t p = 0; p < n_programs; ++p)
    for (size_t e = 0; e < N_EVENTS; ++e)
      if (memcmp(&r->me[p][e], &reference[p][e], sizeof(double)) != 0)
        fail_msg("%s on %s: program %zu event %zu gives %.17g, the first context %.17g", what,
                 r->device, p, e, r->me[p][e], reference[p][e]);
}

/* A new context under the environment as it is now, which is then the test's again: it must have
 * loaded and stored so many programs, and give the first context's |M|^2 bit for bit. */
static void expect_run(size_t loaded, size_t stored, const char *what) {
  run_result r;
  run_context(&r);
  test_environment();
  if (r.loaded != loaded || r.stored != stored)
    fail_msg("%s on %s: %lu programs loaded, %lu stored; %zu and %zu expected", what, r.device,
             r.loaded, r.stored, loaded, stored);
  assert_identical(&r, what);
}

/* The names of the files in folder that end with suffix, and how many. */
static size_t list_files(const char *folder, const char *suffix, char names[][600]) {
  size_t n = 0;
  DIR *dir = opendir(folder);
  if (dir == NULL) return 0;
  for (struct dirent *e = readdir(dir); e != NULL && n < MAX_FILES; e = readdir(dir)) {
    const size_t length = strlen(e->d_name), suffix_length = strlen(suffix);
    if (length > suffix_length && strcmp(e->d_name + length - suffix_length, suffix) == 0)
      snprintf(names[n++], 600, "%s/%s", folder, e->d_name);
  }
  closedir(dir);
  return n;
}

static size_t count_entries(const char *folder) {
  size_t n = 0;
  DIR *dir = opendir(folder);
  if (dir == NULL) return 0;
  for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir))
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(dir);
  return n;
}

static void write_bytes(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    fail_msg("cannot write %s: %s", path, strerror(errno));
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A file's bytes (a new buffer). */
static unsigned char *read_whole(const char *path, size_t *size) {
  const long length = file_size(path);
  unsigned char *data = length > 0 ? malloc((size_t)length) : NULL;
  FILE *f = data != NULL ? fopen(path, "rb") : NULL;
  const int whole = f != NULL && fread(data, 1, (size_t)length, f) == (size_t)length;
  if (f != NULL) fclose(f);
  if (!whole) fail_msg("cannot read %s", path);
  *size = (size_t)length;
  return data;
}

/* Each cache file starts with the magic line: it was written whole by the cache. */
static void assert_cache_files(size_t expected) {
  static char names[MAX_FILES][600];
  const size_t n = list_files(cache, ".bin", names);
  if (n != expected) fail_msg("%zu .bin files in %s, %zu expected", n, cache, expected);
  for (size_t i = 0; i < n; ++i) {
    char head[32] = "";
    FILE *f = fopen(names[i], "rb");
    const size_t got = f != NULL ? fread(head, 1, 24, f) : 0;
    if (f != NULL) fclose(f);
    if (got != 24 || memcmp(head, "hegetcl program cache 1\n", 24) != 0)
      fail_msg("%s does not start with the cache's magic line", names[i]);
  }
  if (count_entries(cache) != n) /* a temporary file left behind, say */
    fail_msg("%s holds files besides the %zu .bin ones", cache, n);
}

/* Replaces the binary of a cache file by garbage of the same size under a correct FNV-1a 64, so
 * that only the driver can tell: what a driver update that kept its version strings would do. */
static void replace_binary_keeping_digest(const char *path) {
  size_t whole = 0;
  unsigned char *data = read_whole(path, &whole);
  const long size = (long)whole;
  static const char tag[] = "\nbinary_fnv1a64 ";
  long at = 0;
  while (at + (long)sizeof tag + 17 < size && memcmp(data + at, tag, sizeof tag - 1) != 0) ++at;
  const long binary = at + (long)sizeof tag - 1 + 17; /* 16 hex digits and a newline */
  if (binary >= size) fail_msg("%s has no binary_fnv1a64 line", path);
  uint64_t digest = 1469598103934665603ull;
  for (long i = binary; i < size; ++i) {
    data[i] = (unsigned char)(i * 2654435761u >> 13);
    digest = (digest ^ data[i]) * 1099511628211ull;
  }
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)digest);
  memcpy(data + at + sizeof tag - 1, hex, 16);
  write_bytes(path, data, (size_t)size);
  free(data);
}

static void the_digest_is_fnv1a_128(void **state) {
  (void)state;
  /* the published FNV-1a 128 values of "", "a" and "foobar" */
  const char *inputs[] = {"", "a", "foobar"};
  const char *expected[] = {"6c62272e07bb014262b821756295c58d", "d228cb696f1a8caf78912b704e4a8964",
                            "343e1662793c64bf6f0d3597ba446f18"};
  for (size_t i = 0; i < 3; ++i) {
    hg_fnv1a128 h;
    char hex[33];
    hg_fnv1a128_init(&h);
    hg_fnv1a128_add(&h, inputs[i], strlen(inputs[i]));
    hg_fnv1a128_hex(&h, hex);
    assert_string_equal(hex, expected[i]);
  }
}

static void a_first_context_builds_and_stores_its_programs(void **state) {
  (void)state;
  run_result a;
  run_context(&a);
  if (a.loaded != 0 || a.stored != a.n_programs)
    fail_msg("on %s into the empty %s: %lu loaded, %lu stored; 0 and %zu expected", a.device, cache,
             a.loaded, a.stored, a.n_programs);
  n_programs = a.n_programs;
  memcpy(reference, a.me, sizeof reference);
  have_reference = 1;
  assert_cache_files(n_programs);
  struct stat st; /* made by the cache: the user's alone */
  assert_int_equal(stat(cache, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0700);
}

static void a_second_context_loads_them_with_identical_results(void **state) {
  (void)state;
  expect_run(n_programs, 0, "loaded from the disk cache");
}

static void damaged_files_are_replaced_and_change_nothing(void **state) {
  (void)state;
  static char names[MAX_FILES][600];
  const size_t n = list_files(cache, ".bin", names);
  if (n < 2) fail_msg("%zu cache files in %s: the first tests stored none", n, cache);
  /* the first cut to half (its header intact, its binary short), the last replaced by a whole
   * file of another program (the first's: its header names other sources or options), the others
   * garbage */
  size_t first_size = 0;
  unsigned char *first = read_whole(names[0], &first_size);
  write_bytes(names[n - 1], first, first_size);
  free(first);
  if (truncate(names[0], (off_t)first_size / 2) != 0)
    fail_msg("truncate %s: %s", names[0], strerror(errno));
  for (size_t i = 1; i + 1 < n; ++i) {
    char garbage[4096];
    for (size_t j = 0; j < sizeof garbage; ++j) garbage[j] = (char)(j * 131u + i * 7u + 1u);
    write_bytes(names[i], garbage, sizeof garbage);
  }
  expect_run(0, n_programs, "built over damaged cache files");
  assert_cache_files(n_programs);
  /* one byte of one binary flipped: its digest no longer matches, that program is built again */
  list_files(cache, ".bin", names);
  FILE *f = fopen(names[0], "r+b");
  if (f == NULL) fail_msg("cannot open %s: %s", names[0], strerror(errno));
  const long at = file_size(names[0]) - 100;
  fseek(f, at, SEEK_SET);
  const int byte = fgetc(f);
  fseek(f, at, SEEK_SET);
  fputc(byte ^ 0x40, f);
  fclose(f);
  expect_run(n_programs - 1, 1, "with one cache file's byte flipped");
  /* a binary the driver does not take (CL_INVALID_BINARY, or a failed build) */
  list_files(cache, ".bin", names);
  replace_binary_keeping_digest(names[0]);
  expect_run(n_programs - 1, 1, "with a binary the driver rejects");
  assert_cache_files(n_programs);
}

static void hung(int signal) {
  (void)signal;
  static const char message[] = "not ok - a FIFO under a cache entry's name blocked the run for "
                                "60 s (open() waits for a writer)\n";
  if (write(STDOUT_FILENO, message, sizeof message - 1) < 0) _exit(2);
  _exit(1);
}

/* A FIFO planted under an entry's name: opening it for reading would wait for a writer forever
 * (and SIGTERM would not end the run); the cache must pass it by, build from source, and put
 * its file in the FIFO's place. An alarm fails the test instead of hanging it. */
static void a_fifo_under_an_entry_name_cannot_hang_a_run(void **state) {
  (void)state;
  static char names[MAX_FILES][600];
  const size_t n = list_files(cache, ".bin", names);
  if (n < 1) fail_msg("no cache files in %s: the first tests stored none", cache);
  if (unlink(names[0]) != 0 || mkfifo(names[0], 0600) != 0)
    fail_msg("cannot make a FIFO at %s: %s", names[0], strerror(errno));
  signal(SIGALRM, hung);
  alarm(60);
  expect_run(n_programs - 1, 1, "with a FIFO under one entry's name");
  alarm(0);
  signal(SIGALRM, SIG_DFL);
  struct stat st;
  if (stat(names[0], &st) != 0 || !S_ISREG(st.st_mode))
    fail_msg("%s is not a regular cache file again after the run", names[0]);
  assert_cache_files(n_programs);
}

static void off_reads_and_writes_nothing(void **state) {
  (void)state;
  char xdg[600];
  snprintf(xdg, sizeof xdg, "%s/xdg-off", root);
  assert_int_equal(mkdir(xdg, 0700), 0);
  const size_t before = count_entries(cache);
  setenv("HEGETCL_PROGRAM_CACHE", "off", 1);
  setenv("XDG_CACHE_HOME", xdg, 1); /* where the default would be */
  expect_run(0, 0, "with HEGETCL_PROGRAM_CACHE=off");
  char hegetcl_dir[700];
  snprintf(hegetcl_dir, sizeof hegetcl_dir, "%s/hegetcl", xdg);
  struct stat st;
  if (stat(hegetcl_dir, &st) == 0) fail_msg("HEGETCL_PROGRAM_CACHE=off made %s", hegetcl_dir);
  assert_int_equal(count_entries(cache), before);
}

static void unset_uses_the_xdg_cache_folder(void **state) {
  (void)state;
  char xdg[600], programs[700];
  snprintf(xdg, sizeof xdg, "%s/xdg", root);
  snprintf(programs, sizeof programs, "%s/hegetcl/programs", xdg);
  unsetenv("HEGETCL_PROGRAM_CACHE");
  setenv("XDG_CACHE_HOME", xdg, 1); /* made by the cache, parents included */
  expect_run(0, n_programs, "stored under XDG_CACHE_HOME/hegetcl/programs");
  static char names[MAX_FILES][600];
  assert_int_equal(list_files(programs, ".bin", names), n_programs);
}

static void a_folder_that_cannot_be_made_changes_nothing(void **state) {
  (void)state;
  char file[600], below[700];
  snprintf(file, sizeof file, "%s/afile", root);
  snprintf(below, sizeof below, "%s/sub", file);
  write_bytes(file, "not a folder\n", 13);
  setenv("HEGETCL_PROGRAM_CACHE", below, 1); /* a path under a regular file: even root fails */
  expect_run(0, 0, "with a cache folder that cannot be made");
}

static void sources_from_the_cl_folder_are_never_cached(void **state) {
  (void)state;
  const char *dir = getenv("HEGETCL_CL_SOURCE_DIR"); /* tests/meson.build: the cl/ folder */
  if (dir == NULL || dir[0] == '\0') skip();
  const size_t before = count_entries(cache);
  setenv("HEGETCL_CL_DIR", dir, 1); /* #include lines: the key cannot see those files */
  expect_run(0, 0, "with the sources read from HEGETCL_CL_DIR");
  assert_int_equal(count_entries(cache), before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(the_digest_is_fnv1a_128, reset),
      cmocka_unit_test_setup(a_first_context_builds_and_stores_its_programs, reset),
      cmocka_unit_test_setup(a_second_context_loads_them_with_identical_results, reset),
      cmocka_unit_test_setup(damaged_files_are_replaced_and_change_nothing, reset),
      cmocka_unit_test_setup(a_fifo_under_an_entry_name_cannot_hang_a_run, reset),
      cmocka_unit_test_setup(off_reads_and_writes_nothing, reset),
      cmocka_unit_test_setup(unset_uses_the_xdg_cache_folder, reset),
      cmocka_unit_test_setup(a_folder_that_cannot_be_made_changes_nothing, reset),
      cmocka_unit_test_setup(sources_from_the_cl_folder_are_never_cached, reset),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
