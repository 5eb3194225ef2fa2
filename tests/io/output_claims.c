/* SPDX-License-Identifier: MIT */
/* Outputs that cannot destroy (io/output_claim.h): what is not a new path or a writable regular
 * file is refused by kind before anything is written (also as root: a read-only file's mode is
 * honoured), links are refused, a live run's lock refuses a second run naming its process while
 * a dead one's is taken over, two outputs naming one file (or a derived name) are refused, each
 * run writes under its own temporary name, and a refused claim leaves nothing behind. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hegetcl/status.h"
#include "io/output_claim.h"
#include "io/output_file.h"

typedef struct {
  char dir[512];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  *state = f;
  if (f == NULL) return -1;
  const char *tmp = getenv("TMPDIR");
  snprintf(f->dir, sizeof f->dir, "%s/hegetcl_claims_XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
  return mkdtemp(f->dir) != NULL ? 0 : -1;
}

static int teardown(void **state) {
  fixture *f = *state;
  hg_output_release_all();
  DIR *dir = opendir(f->dir);
  if (dir != NULL) {
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
      char path[1100];
      snprintf(path, sizeof path, "%s/%s", f->dir, e->d_name);
      if (e->d_name[0] != '.' && unlink(path) != 0) rmdir(path);
    }
    closedir(dir);
  }
  rmdir(f->dir);
  free(f);
  return 0;
}

static const char *in_dir(const fixture *f, const char *name, char *path, size_t size) {
  snprintf(path, size, "%s/%s", f->dir, name);
  return path;
}

static void assert_has(const char *text, const char *part) {
  if (strstr(text, part) == NULL) fail_msg("\"%s\" lacks \"%s\"", text, part);
}

/* Entries of the folder other than those named in keep (a NULL-terminated list). */
static int others_in(const fixture *f, const char *const *keep) {
  DIR *dir = opendir(f->dir);
  int count = 0;
  for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    int kept = 0;
    for (const char *const *k = keep; *k != NULL; ++k) kept |= strcmp(*k, e->d_name) == 0;
    if (!kept) {
      print_message("# left behind: %s\n", e->d_name);
      ++count;
    }
  }
  closedir(dir);
  return count;
}

static void refused_by_kind(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  /* a device node: /dev/null would become an ordinary file if it were replaced (as root) */
  assert_int_equal(hg_output_claim("--lhe", "/dev/null", message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_has(message, "--lhe /dev/null is a device node, not a regular file");
  hg_output *o = NULL;
  assert_int_equal(hg_output_open("/dev/null", 0, &o, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_null(o);
  /* a directory, a FIFO */
  in_dir(f, "folder", path, sizeof path);
  assert_int_equal(mkdir(path, 0777), 0);
  assert_int_equal(hg_output_claim("--json", path, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_has(message, "is a directory, not a regular file: give a file name inside it");
  in_dir(f, "fifo", path, sizeof path);
  assert_int_equal(mkfifo(path, 0666), 0);
  assert_int_equal(hg_output_claim("--yoda", path, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_has(message, "is a FIFO (named pipe), not a regular file");
  /* a symbolic link is refused, naming its target, and stays a link */
  char target[1024];
  in_dir(f, "target.csv", target, sizeof target);
  in_dir(f, "link.csv", path, sizeof path);
  assert_int_equal(symlink(target, path), 0);
  assert_int_equal(hg_output_claim("--csv", path, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_has(message, "is a symbolic link (to ");
  assert_has(message, "hegetcl does not write through links");
  struct stat st;
  assert_int_equal(lstat(path, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  /* a read-only file: refused by its mode bits, also for root, and left as it was */
  in_dir(f, "result.json", path, sizeof path);
  FILE *file = fopen(path, "w");
  fputs("precious\n", file);
  fclose(file);
  assert_int_equal(chmod(path, 0444), 0);
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_has(message, "is read-only (mode 0444)");
  assert_has(message, "chmod u+w");
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_size, 9);
  const char *const keep[] = {"folder", "fifo", "link.csv", "result.json", NULL};
  assert_int_equal(others_in(f, keep), 0);
}

/* A live process's lock refuses the claim naming it; a dead one's lock is taken over. */
static void a_lock_names_the_run_holding_it(void **state) {
  const fixture *f = *state;
  char path[1024], lock[1100], message[2048], want[256];
  in_dir(f, "events.lhe", path, sizeof path);
  snprintf(lock, sizeof lock, "%s.lock", path);
  FILE *l = fopen(lock, "w");
  fprintf(l, "%ld\n", (long)getppid()); /* a live process other than this one */
  fclose(l);
  assert_int_equal(hg_output_claim("--lhe", path, message, sizeof message), HEGETCL_ERR_INPUT);
  snprintf(want, sizeof want, "is being written by another run, process %ld (its lock is ",
           (long)getppid());
  assert_has(message, want);
  /* a process that has ended */
  const pid_t child = fork();
  if (child == 0) _exit(0);
  assert_int_equal(waitpid(child, NULL, 0), child);
  l = fopen(lock, "w");
  fprintf(l, "%ld\n", (long)child);
  fclose(l);
  assert_int_equal(hg_output_claim("--lhe", path, message, sizeof message), 0);
  /* now this process's: its temporary name carries the pid */
  char temp_prefix[1200];
  snprintf(temp_prefix, sizeof temp_prefix, "%s.tmp.%ld.", path, (long)getpid());
  assert_int_equal(strncmp(hg_output_claim_temp(path), temp_prefix, strlen(temp_prefix)), 0);
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  hg_output_printf(o, "done\n");
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  hg_output_release(path);
  const char *const keep[] = {"events.lhe", NULL};
  assert_int_equal(others_in(f, keep), 0); /* no lock, no temporary file */
}

/* An output opened without a claim holds the lock while open and removes it with its file. */
static void each_open_output_holds_the_lock(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "r.csv", path, sizeof path);
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  /* the lock holds this process's pid (another process's claim is refused: see above) */
  char lock[1100];
  snprintf(lock, sizeof lock, "%s.lock", path);
  FILE *l = fopen(lock, "r");
  assert_non_null(l);
  long pid = 0;
  assert_int_equal(fscanf(l, "%ld", &pid), 1);
  fclose(l);
  assert_int_equal(pid, (long)getpid());
  assert_int_equal(access(hg_output_claim_temp(path), F_OK), 0);
  assert_int_equal(hg_output_close(o, 0, message, sizeof message), 0);
  const char *const keep[] = {NULL};
  assert_int_equal(others_in(f, keep), 0);
}

static void one_file_for_two_outputs_is_refused(void **state) {
  (void)state;
  char message[2048];
  const hg_output_name same[] = {{"--lhe", "x", 1}, {"--json", "./x", 0}};
  assert_int_equal(hg_output_check_distinct(same, 2, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_has(message, "--lhe x and --json ./x are the same file");
  const hg_output_name partial[] = {{"--lhe", "e.lhe", 1}, {"--yoda", "e.lhe.partial", 0}};
  assert_int_equal(hg_output_check_distinct(partial, 2, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_has(message, "--yoda e.lhe.partial is the name --lhe e.lhe uses for its stopped run's "
                      "part");
  const hg_output_name lock[] = {{"--json", "r", 0}, {"--checkpoint", "r.lock", 0}};
  assert_int_equal(hg_output_check_distinct(lock, 2, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_has(message, "uses for its lock (r.lock)");
  const hg_output_name fine[] = {{"--lhe", "e.lhe", 1}, {"--json", "", 0}, {"--yoda", "e.yoda", 0}};
  assert_int_equal(hg_output_check_distinct(fine, 3, message, sizeof message), 0);
}

/* Writes text to path (created or replaced) with modification time `seconds` after the epoch. */
static void write_file(const char *path, const char *text, long seconds) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  const struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* The state (hg_output_state) of a file holding text, as a checkpoint records it. */
static char *state_of(const fixture *f, const char *text) {
  char path[1024], message[2048];
  hg_output *o = NULL;
  assert_int_equal(
      hg_output_open(in_dir(f, "state.lhe", path, sizeof path), 0, &o, message, sizeof message), 0);
  hg_output_write(o, text, strlen(text));
  char *state = hg_output_state(o);
  assert_non_null(state);
  assert_int_equal(hg_output_close(o, 0, message, sizeof message), 0);
  return state;
}

/* Stopped and killed runs' temporary files are found for --resume, newest first; a live run's
 * never is. The stream --resume continues is the newest whose first bytes the checkpoint
 * describes (a resumed run killed while copying leaves a newer, shorter one), else FILE.partial
 * as older versions kept it; none that matches is named with the reason. */
static void dead_runs_temporary_files(void **state) {
  const fixture *f = *state;
  char path[1024], older[1200], newer[1200], live[1200], partial[1200], message[2048];
  in_dir(f, "ev.lhe", path, sizeof path);
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, NULL, 0);
  snprintf(older, sizeof older, "%s.tmp.%ld.0badf00d", path, (long)child);
  snprintf(newer, sizeof newer, "%s.tmp.%ld.0badf00e", path, (long)child);
  snprintf(live, sizeof live, "%s.tmp.%ld.00000001", path, (long)getppid());
  snprintf(partial, sizeof partial, "%s.partial", path);
  const char *stream = "<LesHouchesEvents>\n<init>\n</init>\n<event>\n</event>\n";
  char *good = state_of(f, stream), *other = state_of(f, "something else entirely, longer\n");
  write_file(older, stream, 1000000000);
  write_file(newer, "<LesHouchesEvents>\n<in", 1000000100);
  write_file(live, stream, 1000000200);

  char *newest = NULL;
  assert_int_equal(hg_output_dead_temps(path, &newest, 0), 0);
  assert_non_null(newest);
  assert_string_equal(newest, newer);
  free(newest);
  char **names = NULL;
  size_t count = 0;
  assert_int_equal(hg_output_dead_temp_list(path, &names, &count), 0);
  assert_int_equal(count, 2);
  assert_string_equal(names[0], newer);
  assert_string_equal(names[1], older);
  hg_output_dead_temp_list_free(names, count);

  char *source = NULL;
  assert_int_equal(hg_output_find_stream(path, good, &source, message, sizeof message), 0);
  assert_non_null(source);
  assert_string_equal(source, older);
  free(source);
  /* nothing here continues another file: the newest candidate is named with its reason */
  assert_int_equal(hg_output_find_stream(path, other, &source, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_null(source);
  assert_has(message, newer);
  assert_has(message, "fewer than the 32 the checkpoint recorded");
  assert_has(message, "(no other stopped or killed run's event stream beside it matches either)");
  /* an older version's FILE.partial (the stream itself) still resumes */
  unlink(older);
  unlink(newer);
  write_file(partial, stream, 1000000000);
  assert_int_equal(hg_output_find_stream(path, good, &source, message, sizeof message), 0);
  assert_string_equal(source, partial);
  free(source);
  /* FILE.partial as this version writes it (its own weights) is not the stream */
  write_file(partial, "<LesHouchesEvents>\n<init>\n</init>\n<event>\n</event>\n</LesHouchesEvents>",
             0);
  assert_int_equal(hg_output_find_stream(path, other, &source, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_has(message, "the stopped run's event stream is not here: no ");
  assert_has(message, "ev.lhe.tmp.<pid>.<x> (what a stopped or killed run leaves beside it); ");
  assert_has(message, "ev.lhe.partial holds the stopped run's events with weights of their own, "
                      "which --resume does not continue");
  unlink(partial);
  assert_int_equal(hg_output_find_stream(path, good, &source, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_has(message, "(what a stopped or killed run leaves beside it)");
  assert_int_equal(access(live, F_OK), 0);
  unlink(live);
  free(good);
  free(other);
}

/* The file descriptor this process holds open on the file at path (the same inode), or -1. */
static int fd_of(const char *path) {
  struct stat want, st;
  if (stat(path, &want) != 0) return -1;
  for (int fd = 3; fd < 1024; ++fd)
    if (fstat(fd, &st) == 0 && st.st_dev == want.st_dev && st.st_ino == want.st_ino) return fd;
  return -1;
}

/* A full disk met while writing (ENOSPC, injected by putting /dev/full under the output's own
 * file descriptor): the message says "No space left on device" whether the output is committed
 * or given up, plain or gzip, and nothing is left under the final name. */
static void a_full_disk_is_named(void **state) {
  fixture *f = *state;
  for (int gzip = 0; gzip < 2; ++gzip)
    for (int commit = 0; commit < 2; ++commit) {
      char path[1100], message[2048] = "";
      in_dir(f, gzip ? "full.json.gz" : "full.json", path, sizeof path);
      hg_output *out = NULL;
      assert_int_equal(hg_output_open(path, gzip, &out, message, sizeof message), 0);
      const char *temp = hg_output_claim_temp(path);
      const int fd = fd_of(temp), full = open("/dev/full", O_WRONLY);
      if (fd < 0 || full < 0 || dup2(full, fd) < 0) fail_msg("cannot put /dev/full under %s", temp);
      close(full);
      char block[4096];
      memset(block, 'x', sizeof block);
      int failed = 0;
      for (int k = 0; k < 256 && !failed; ++k) failed = hg_output_write(out, block, sizeof block);
      const int closed = hg_output_close(out, commit, message, sizeof message);
      if (commit) assert_int_not_equal(closed, 0);
      assert_has(message, "No space left on device");
      struct stat st;
      if (stat(path, &st) == 0) fail_msg("%s exists after a failed write", path);
    }
  const char *const keep[] = {NULL};
  assert_int_equal(others_in(f, keep), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(refused_by_kind, setup, teardown),
      cmocka_unit_test_setup_teardown(a_lock_names_the_run_holding_it, setup, teardown),
      cmocka_unit_test_setup_teardown(each_open_output_holds_the_lock, setup, teardown),
      cmocka_unit_test_setup_teardown(one_file_for_two_outputs_is_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(dead_runs_temporary_files, setup, teardown),
      cmocka_unit_test_setup_teardown(a_full_disk_is_named, setup, teardown),
  };
  return cmocka_run_group_tests_name("output_claims", tests, NULL, NULL);
}
