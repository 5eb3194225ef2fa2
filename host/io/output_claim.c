/* SPDX-License-Identifier: MIT */
/* Output paths claimed before any work: the kind of file a path is, PATH.lock with the writing
 * process's pid, each run's temporary name, and outputs that would write one file. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/output_claim.h"
#include "io/output_file.h"

/* The claims of this process (a command claims a handful of outputs; one thread claims them). */
#define HG_MAX_CLAIMS 32

typedef struct {
  char *path, *lock, *temp;
  int adopts_partial; /* PATH.partial is this run's to replace (hg_output_claim_stopped_part) */
} claim;

static claim claims[HG_MAX_CLAIMS];
static size_t n_claims;

static char *joined(const char *a, const char *b) {
  const size_t n = strlen(a), m = strlen(b);
  char *out = malloc(n + m + 1);
  if (out != NULL) {
    memcpy(out, a, n);
    memcpy(out + n, b, m + 1);
  }
  return out;
}

/* The folder of path ("." for a bare name), malloc'ed. */
static char *folder_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (slash == NULL) return joined(".", "");
  if (slash == path) return joined("/", "");
  char *out = malloc((size_t)(slash - path) + 1);
  if (out != NULL) {
    memcpy(out, path, (size_t)(slash - path));
    out[slash - path] = '\0';
  }
  return out;
}

int hg_output_check_target(const char *what, const char *path, char *message,
                           size_t message_size) {
  if (path == NULL || path[0] == '\0') {
    hg_put_message(message, message_size, "%s: the path is empty: name a file", what);
    return HEGETCL_ERR_INPUT;
  }
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno != ENOENT) {
      hg_put_message(message, message_size, "%s %s: cannot look at it: %s", what, path,
                     strerror(errno));
      return HEGETCL_ERR_IO;
    }
    char *folder = folder_of(path);
    struct stat dir;
    int rc = 0;
    if (folder == NULL) {
      hg_put_message(message, message_size, "no memory to check %s", path);
      rc = HEGETCL_ERR_NO_MEMORY;
    } else if (stat(folder, &dir) != 0 || !S_ISDIR(dir.st_mode)) {
      hg_put_message(message, message_size,
                     "%s %s: the folder %s does not exist: create it (mkdir -p %s) or write "
                     "elsewhere",
                     what, path, folder, folder);
      rc = HEGETCL_ERR_INPUT;
    } else if (access(folder, W_OK | X_OK) != 0) {
      hg_put_message(message, message_size,
                     "%s %s: the folder %s is not writable (%s): write elsewhere", what, path,
                     folder, strerror(errno));
      rc = HEGETCL_ERR_INPUT;
    }
    free(folder);
    return rc;
  }
  const char *kind = NULL, *fix = "";
  if (S_ISLNK(st.st_mode)) {
    char target[PATH_MAX];
    const ssize_t n = readlink(path, target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    hg_put_message(message, message_size,
                   "%s %s is a symbolic link (to %s): hegetcl does not write through links, "
                   "since replacing the file would replace the link; give the path it points "
                   "to, or remove the link",
                   what, path, n > 0 ? target : "?");
    return HEGETCL_ERR_INPUT;
  }
  if (S_ISDIR(st.st_mode)) {
    kind = "a directory";
    fix = "give a file name inside it";
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    kind = "a device node";
    fix = "an output is a new or regular file, which hegetcl would put in the device's place; to "
          "do without an output, leave out its option";
  } else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    kind = S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)" : "a socket";
    fix = "an output is a new or regular file, written whole and renamed into place; write to a "
          "file and read that";
  } else if (!S_ISREG(st.st_mode)) {
    kind = "not a regular file";
    fix = "write to a new or regular file";
  }
  if (kind != NULL) {
    hg_put_message(message, message_size, "%s %s is %s, not a regular file: %s", what, path, kind,
                   fix);
    return HEGETCL_ERR_INPUT;
  }
  if ((st.st_mode & 0222) == 0 || access(path, W_OK) != 0) {
    hg_put_message(message, message_size,
                   "%s %s is read-only (mode %04o): hegetcl does not replace a file you may not "
                   "write; make it writable (chmod u+w %s), remove it, or write to another name",
                   what, path, (unsigned)(st.st_mode & 07777), path);
    return HEGETCL_ERR_INPUT;
  }
  return 0;
}

static claim *find(const char *path) {
  for (size_t i = 0; i < n_claims; ++i)
    if (strcmp(claims[i].path, path) == 0) return &claims[i];
  return NULL;
}

int hg_output_claimed(const char *path) { return path != NULL && find(path) != NULL; }

const char *hg_output_claim_temp(const char *path) {
  const claim *c = find(path);
  return c != NULL ? c->temp : NULL;
}

/* Nonzero when pid names a process that exists (or one this process may not signal). */
static int alive(long pid) {
  if (pid <= 0 || pid > INT32_MAX) return 0;
  return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* A random 32-bit tag for a temporary name (unique with the pid; no security rests on it). */
static unsigned random_tag(void) {
  unsigned tag = 0;
  const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (read(fd, &tag, sizeof tag) != (ssize_t)sizeof tag) tag = 0;
    close(fd);
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return tag ^ (unsigned)now.tv_nsec ^ (unsigned)n_claims * 2654435761u;
}

/* Creates lock exclusively holding "pid\ntemp\n"; 0, EEXIST, or another errno. */
static int create_lock(const char *lock, const char *temp) {
  const int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  char text[PATH_MAX + 64];
  const int n = snprintf(text, sizeof text, "%ld\n%s\n", (long)getpid(), temp);
  const int ok = n > 0 && write(fd, text, (size_t)n) == (ssize_t)n;
  const int saved = errno;
  close(fd);
  if (!ok) {
    unlink(lock);
    return saved != 0 ? saved : EIO;
  }
  return 0;
}

/* The pid in lock's first line (0 when unreadable or malformed). */
static long lock_pid(const char *lock) {
  FILE *f = fopen(lock, "r");
  if (f == NULL) return 0;
  long pid = 0;
  if (fscanf(f, "%ld", &pid) != 1) pid = 0;
  fclose(f);
  return pid;
}

int hg_output_claim(const char *what, const char *path, char *message, size_t message_size) {
  if (path != NULL && find(path) != NULL) return 0;
  int rc = hg_output_check_target(what, path, message, message_size);
  if (rc != 0) return rc;
  char *partial = joined(path, HG_OUTPUT_PARTIAL_SUFFIX);
  struct stat st;
  if (partial != NULL && lstat(partial, &st) == 0) {
    char partial_what[128];
    snprintf(partial_what, sizeof partial_what, "%s's stopped part", what);
    rc = hg_output_check_target(partial_what, partial, message, message_size);
  }
  free(partial);
  if (rc != 0) return rc;
  if (n_claims == HG_MAX_CLAIMS) {
    hg_put_message(message, message_size, "%s %s: more than %d outputs at once", what, path,
                   HG_MAX_CLAIMS);
    return HEGETCL_ERR_INPUT;
  }
  claim c = {joined(path, ""), joined(path, HG_OUTPUT_LOCK_SUFFIX), NULL, 0};
  char tag[64];
  snprintf(tag, sizeof tag, "%s.%ld.%08x", HG_OUTPUT_TEMP_SUFFIX, (long)getpid(), random_tag());
  c.temp = joined(path, tag);
  if (c.path == NULL || c.lock == NULL || c.temp == NULL) {
    hg_put_message(message, message_size, "no memory to claim %s", path);
    rc = HEGETCL_ERR_NO_MEMORY;
  }
  for (int attempt = 0; rc == 0; ++attempt) {
    const int error = create_lock(c.lock, c.temp);
    if (error == 0) break;
    if (error != EEXIST) {
      hg_put_message(message, message_size, "%s %s: cannot create its lock %s: %s", what, path,
                     c.lock, strerror(error));
      rc = HEGETCL_ERR_IO;
      break;
    }
    const long pid = lock_pid(c.lock);
    if (attempt == 0 && pid > 0 && !alive(pid)) {
      unlink(c.lock); /* stale: its process is gone (killed); the lock is free again */
      continue;
    }
    if (pid > 0)
      hg_put_message(message, message_size,
                     "%s %s is being written by another run, process %ld (its lock is %s): wait "
                     "for that run to end, or write to another name",
                     what, path, pid, c.lock);
    else
      hg_put_message(message, message_size,
                     "%s %s is locked by %s, which names no process: if no run writes %s, remove "
                     "%s; else write to another name",
                     what, path, c.lock, path, c.lock);
    rc = HEGETCL_ERR_INPUT;
  }
  if (rc != 0) {
    free(c.path);
    free(c.lock);
    free(c.temp);
    return rc;
  }
  claims[n_claims++] = c;
  return 0;
}

int hg_output_claim_stopped_part(const char *what, const char *path, int adopt, char *message,
                                 size_t message_size) {
  claim *c = find(path);
  char *partial = joined(path, HG_OUTPUT_PARTIAL_SUFFIX);
  if (c == NULL || partial == NULL) {
    free(partial);
    hg_put_message(message, message_size, "%s %s: %s", what, path,
                   c == NULL ? "claim the output before its stopped part" : "no memory");
    return c == NULL ? HEGETCL_ERR_INPUT : HEGETCL_ERR_NO_MEMORY;
  }
  struct stat st;
  int rc = 0;
  if (!adopt && lstat(partial, &st) == 0) {
    hg_put_message(message, message_size,
                   "%s %s: %s is already there (what an earlier run stopped with, or another "
                   "file): this run would replace it if it stopped, and remove it when complete; "
                   "continue that run (hegetcl xsec --resume with its checkpoint), or move %s "
                   "away first",
                   what, path, partial, partial);
    rc = HEGETCL_ERR_INPUT;
  }
  if (rc == 0 && !hg_output_claimed(partial)) {
    char partial_what[160];
    snprintf(partial_what, sizeof partial_what, "%s's stopped part", what);
    rc = hg_output_claim(partial_what, partial, message, message_size);
  }
  free(partial);
  if (rc == 0) find(path)->adopts_partial = 1;
  return rc;
}

int hg_output_adopts_partial(const char *path) {
  const claim *c = path != NULL ? find(path) : NULL;
  return c != NULL && c->adopts_partial;
}

void hg_output_release(const char *path) {
  claim *c = path != NULL ? find(path) : NULL;
  if (c == NULL) return;
  if (lock_pid(c->lock) == (long)getpid()) unlink(c->lock);
  free(c->path);
  free(c->lock);
  free(c->temp);
  *c = claims[--n_claims];
}

void hg_output_release_all(void) {
  while (n_claims > 0) hg_output_release(claims[n_claims - 1].path);
}

/* path written the way the file system finds it: the real folder, then the name. */
static char *canonical(const char *path) {
  char *folder = folder_of(path);
  if (folder == NULL) return NULL;
  char real[PATH_MAX];
  const char *slash = strrchr(path, '/');
  const char *name = slash != NULL ? slash + 1 : path;
  char *out = NULL;
  if (realpath(folder, real) != NULL) {
    hg_strbuf s = {0};
    hg_strbuf_printf(&s, "%s/%s", strcmp(real, "/") == 0 ? "" : real, name);
    out = s.failed ? NULL : s.data;
    if (s.failed) hg_strbuf_free(&s);
  } else {
    out = joined(path, "");
  }
  free(folder);
  return out;
}

static int same_name(const char *a, const char *b) {
  if (strcmp(a, b) == 0) return 1;
  char *x = canonical(a), *y = canonical(b);
  int same = x != NULL && y != NULL && strcmp(x, y) == 0;
  free(x);
  free(y);
  struct stat s, t;
  if (!same && stat(a, &s) == 0 && stat(b, &t) == 0)
    same = s.st_dev == t.st_dev && s.st_ino == t.st_ino;
  return same;
}

int hg_output_check_distinct(const hg_output_name *outputs, size_t count, char *message,
                             size_t message_size) {
  static const char *const suffixes[] = {"", HG_OUTPUT_PARTIAL_SUFFIX, HG_OUTPUT_LOCK_SUFFIX,
                                         HG_OUTPUT_PARTIAL_SUFFIX HG_OUTPUT_LOCK_SUFFIX};
  for (size_t i = 0; i < count; ++i) {
    if (outputs[i].path == NULL || outputs[i].path[0] == '\0') continue;
    for (size_t j = 0; j < count; ++j) {
      if (j == i || outputs[j].path == NULL || outputs[j].path[0] == '\0') continue;
      for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; ++k) {
        if ((k == 1 || k == 3) && !outputs[j].has_partial) continue;
        if (k == 0 && j < i) continue; /* the plain pair once */
        char *derived = joined(outputs[j].path, suffixes[k]);
        if (derived == NULL) {
          hg_put_message(message, message_size, "no memory to compare the outputs");
          return HEGETCL_ERR_NO_MEMORY;
        }
        const int same = same_name(outputs[i].path, derived);
        if (same && k == 0)
          hg_put_message(message, message_size,
                         "%s %s and %s %s are the same file: one output would replace the "
                         "other; give each output its own name",
                         outputs[i].what, outputs[i].path, outputs[j].what, outputs[j].path);
        else if (same)
          hg_put_message(message, message_size,
                         "%s %s is the name %s %s uses for its %s (%s): give each output its "
                         "own name",
                         outputs[i].what, outputs[i].path, outputs[j].what, outputs[j].path,
                         k == 1 ? "stopped run's part" : k == 2 ? "lock" : "stopped part's lock",
                         derived);
        free(derived);
        if (same) return HEGETCL_ERR_INPUT;
      }
    }
  }
  return 0;
}

/* One dead run's temporary file and when it was last written. */
typedef struct {
  char *name;
  struct timespec written;
} dead_temp;

/* Newest first. */
static int newer_first(const void *a, const void *b) {
  const struct timespec x = ((const dead_temp *)a)->written, y = ((const dead_temp *)b)->written;
  if (x.tv_sec != y.tv_sec) return x.tv_sec > y.tv_sec ? -1 : 1;
  return x.tv_nsec > y.tv_nsec ? -1 : x.tv_nsec < y.tv_nsec;
}

int hg_output_dead_temp_list(const char *path, char ***names, size_t *count) {
  *names = NULL;
  *count = 0;
  char *folder = folder_of(path);
  if (folder == NULL) return HEGETCL_ERR_NO_MEMORY;
  const char *slash = strrchr(path, '/');
  const char *name = slash != NULL ? slash + 1 : path;
  const size_t name_length = strlen(name), suffix_length = strlen(HG_OUTPUT_TEMP_SUFFIX);
  DIR *dir = opendir(folder);
  if (dir == NULL) {
    free(folder);
    return 0;
  }
  dead_temp *found = NULL;
  size_t n = 0, capacity = 0;
  int rc = 0;
  for (struct dirent *e = readdir(dir); e != NULL && rc == 0; e = readdir(dir)) {
    const char *d = e->d_name;
    if (strncmp(d, name, name_length) != 0 ||
        strncmp(d + name_length, HG_OUTPUT_TEMP_SUFFIX, suffix_length) != 0)
      continue;
    const char *rest = d + name_length + suffix_length;
    if (rest[0] != '\0') { /* .<pid>.<hex> of a live process is that run's file */
      char *end = NULL;
      const long pid = rest[0] == '.' ? strtol(rest + 1, &end, 10) : 0;
      if (end == NULL || end == rest + 1 || *end != '.' || alive(pid)) continue;
    }
    hg_strbuf full = {0}; /* named as path is: in its folder, or bare */
    if (slash != NULL)
      hg_strbuf_printf(&full, "%s/%s", folder, d);
    else
      hg_strbuf_printf(&full, "%s", d);
    struct stat st;
    if (full.failed) {
      rc = HEGETCL_ERR_NO_MEMORY;
    } else if (lstat(full.data, &st) == 0 && S_ISREG(st.st_mode)) {
      if (n == capacity) {
        capacity = capacity ? 2 * capacity : 4;
        dead_temp *grown = realloc(found, capacity * sizeof *grown);
        if (grown == NULL)
          rc = HEGETCL_ERR_NO_MEMORY;
        else
          found = grown;
      }
      if (rc == 0) {
        found[n].name = full.data;
        found[n++].written = st.st_mtim;
        full.data = NULL;
      }
    }
    hg_strbuf_free(&full);
  }
  closedir(dir);
  free(folder);
  char **out = rc == 0 && n > 0 ? malloc(n * sizeof *out) : NULL;
  if (rc == 0 && n > 0 && out == NULL) rc = HEGETCL_ERR_NO_MEMORY;
  if (n > 1) qsort(found, n, sizeof *found, newer_first);
  for (size_t i = 0; i < n; ++i) {
    if (out != NULL)
      out[i] = found[i].name;
    else
      free(found[i].name);
  }
  free(found);
  if (rc == 0) {
    *names = out;
    *count = n;
  }
  return rc;
}

void hg_output_dead_temp_list_free(char **names, size_t count) {
  for (size_t i = 0; i < count; ++i) free(names[i]);
  free(names);
}

int hg_output_dead_temps(const char *path, char **newest, int remove_all) {
  if (newest != NULL) *newest = NULL;
  char **names = NULL;
  size_t count = 0;
  const int rc = hg_output_dead_temp_list(path, &names, &count);
  if (rc != 0) return rc;
  for (size_t i = 0; i < count; ++i) {
    if (remove_all) {
      unlink(names[i]);
    } else if (newest != NULL && i == 0) {
      *newest = names[0];
      names[0] = NULL;
    }
  }
  hg_output_dead_temp_list_free(names, count);
  return 0;
}
