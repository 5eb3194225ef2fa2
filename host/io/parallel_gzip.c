/* SPDX-License-Identifier: MIT */
/* gzip members compressed by worker threads, written in order (parallel_gzip.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "io/parallel_gzip.h"

enum { SLOT_FREE, SLOT_QUEUED, SLOT_BUSY, SLOT_DONE };

typedef struct {
  int state;
  uint64_t sequence;
  char *text;
  size_t text_length;
  unsigned char *gz;
  size_t gz_length, gz_capacity;
  int failed; /* zlib failed */
} slot;

struct hg_pgz {
  int fd, level;
  unsigned n_threads, n_slots;
  pthread_t *threads;
  pthread_mutex_t mutex;
  pthread_cond_t work, done;
  slot *slots;
  char *current; /* the block being filled */
  size_t used;
  uint64_t submitted, written; /* members handed to the workers, written to fd */
  int stopping, any_member;
};

/* one member: the block's text deflated with a gzip header and trailer */
static int compress_block(slot *s, int level) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
  const size_t bound = deflateBound(&z, (uLong)s->text_length) + 32;
  if (bound > s->gz_capacity) {
    unsigned char *grown = realloc(s->gz, bound);
    if (grown == NULL) {
      deflateEnd(&z);
      return -1;
    }
    s->gz = grown;
    s->gz_capacity = bound;
  }
  z.next_in = (Bytef *)s->text;
  z.avail_in = (uInt)s->text_length;
  z.next_out = s->gz;
  z.avail_out = (uInt)s->gz_capacity;
  const int code = deflate(&z, Z_FINISH);
  s->gz_length = s->gz_capacity - z.avail_out;
  deflateEnd(&z);
  return code == Z_STREAM_END ? 0 : -1;
}

static void *worker(void *arg) {
  hg_pgz *p = arg;
  pthread_mutex_lock(&p->mutex);
  for (;;) {
    slot *s = NULL;
    for (unsigned i = 0; i < p->n_slots; ++i)
      if (p->slots[i].state == SLOT_QUEUED && (s == NULL || p->slots[i].sequence < s->sequence))
        s = &p->slots[i];
    if (s == NULL) {
      if (p->stopping) break;
      pthread_cond_wait(&p->work, &p->mutex);
      continue;
    }
    s->state = SLOT_BUSY;
    pthread_mutex_unlock(&p->mutex);
    const int failed = compress_block(s, p->level) != 0;
    pthread_mutex_lock(&p->mutex);
    s->failed = failed;
    s->state = SLOT_DONE;
    pthread_cond_broadcast(&p->done);
  }
  pthread_mutex_unlock(&p->mutex);
  return NULL;
}

static int write_all(int fd, const unsigned char *data, size_t length, int *error_errno) {
  while (length > 0) {
    const ssize_t n = write(fd, data, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error_errno = n < 0 ? errno : EIO;
      return -1;
    }
    data += n;
    length -= (size_t)n;
  }
  return 0;
}

/* Writes members in order while they are done; wait_for: every member up to that sequence
 * (exclusive) must be written before it returns. Called with the mutex held. */
static int drain(hg_pgz *p, uint64_t wait_for, int *error_errno) {
  while (p->written < p->submitted) {
    slot *s = &p->slots[p->written % p->n_slots];
    if (s->state != SLOT_DONE) {
      if (p->written >= wait_for) return 0;
      pthread_cond_wait(&p->done, &p->mutex);
      continue;
    }
    if (s->failed) {
      *error_errno = 0;
      return -1;
    }
    /* the member is written outside the lock: the workers go on meanwhile */
    pthread_mutex_unlock(&p->mutex);
    const int rc = write_all(p->fd, s->gz, s->gz_length, error_errno);
    pthread_mutex_lock(&p->mutex);
    if (rc != 0) return -1;
    s->state = SLOT_FREE;
    p->written++;
    pthread_cond_broadcast(&p->done);
  }
  return 0;
}

/* Hands the current block to the workers (waiting for its slot to be written first). */
static int submit(hg_pgz *p, int *error_errno) {
  pthread_mutex_lock(&p->mutex);
  /* the slot of this sequence held the member n_slots before: written first */
  int rc = drain(p, p->submitted + 1 > p->n_slots ? p->submitted + 1 - p->n_slots : 0, error_errno);
  if (rc == 0) {
    slot *s = &p->slots[p->submitted % p->n_slots];
    char *swap = s->text;
    s->text = p->current;
    s->text_length = p->used;
    p->current = swap;
    p->used = 0;
    s->sequence = p->submitted++;
    s->state = SLOT_QUEUED;
    p->any_member = 1;
    pthread_cond_signal(&p->work);
    rc = drain(p, 0, error_errno); /* what is done already */
  }
  pthread_mutex_unlock(&p->mutex);
  return rc;
}

static unsigned thread_count(unsigned asked) {
  const char *env = getenv("HEGETCL_GZIP_THREADS");
  long n = asked;
  if (env != NULL && env[0] != '\0') n = strtol(env, NULL, 10);
  if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > 16) n = 16;
  return (unsigned)n;
}

hg_pgz *hg_pgz_open(int fd, int level, unsigned threads) {
  hg_pgz *p = calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->fd = fd;
  p->level = level;
  p->n_threads = thread_count(threads);
  p->n_slots = 2 * p->n_threads + 1;
  p->slots = calloc(p->n_slots, sizeof *p->slots);
  p->threads = calloc(p->n_threads, sizeof *p->threads);
  p->current = malloc(HG_PGZ_BLOCK);
  int ok = p->slots != NULL && p->threads != NULL && p->current != NULL;
  for (unsigned i = 0; ok && i < p->n_slots; ++i)
    ok = (p->slots[i].text = malloc(HG_PGZ_BLOCK)) != NULL;
  if (ok) {
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    unsigned started = 0;
    while (started < p->n_threads && pthread_create(&p->threads[started], NULL, worker, p) == 0)
      ++started;
    if (started < p->n_threads) {
      pthread_mutex_lock(&p->mutex);
      p->stopping = 1;
      pthread_cond_broadcast(&p->work);
      pthread_mutex_unlock(&p->mutex);
      for (unsigned i = 0; i < started; ++i) pthread_join(p->threads[i], NULL);
      pthread_mutex_destroy(&p->mutex);
      pthread_cond_destroy(&p->work);
      pthread_cond_destroy(&p->done);
      ok = 0;
    }
  }
  if (!ok) {
    for (unsigned i = 0; p->slots != NULL && i < p->n_slots; ++i) free(p->slots[i].text);
    free(p->slots);
    free(p->threads);
    free(p->current);
    free(p);
    return NULL;
  }
  return p;
}

int hg_pgz_write(hg_pgz *p, const char *text, size_t length, int *error_errno) {
  while (length > 0) {
    const size_t room = HG_PGZ_BLOCK - p->used, take = length < room ? length : room;
    memcpy(p->current + p->used, text, take);
    p->used += take;
    text += take;
    length -= take;
    if (p->used == HG_PGZ_BLOCK && submit(p, error_errno) != 0) return -1;
  }
  return 0;
}

int hg_pgz_flush(hg_pgz *p, int *error_errno) {
  if (p->used > 0 && submit(p, error_errno) != 0) return -1;
  pthread_mutex_lock(&p->mutex);
  const int rc = drain(p, p->submitted, error_errno);
  pthread_mutex_unlock(&p->mutex);
  return rc;
}

int hg_pgz_fd(const hg_pgz *p) { return p->fd; }

unsigned hg_pgz_threads(const hg_pgz *p) { return p->n_threads; }

int hg_pgz_close(hg_pgz *p, int *error_errno) {
  int rc = 0;
  if (!p->any_member && p->used == 0) {
    /* an empty gzip file is one empty member */
    rc = submit(p, error_errno);
  }
  if (rc == 0) rc = hg_pgz_flush(p, error_errno);
  pthread_mutex_lock(&p->mutex);
  p->stopping = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mutex);
  for (unsigned i = 0; i < p->n_threads; ++i) pthread_join(p->threads[i], NULL);
  pthread_mutex_destroy(&p->mutex);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  if (close(p->fd) != 0 && rc == 0) {
    *error_errno = errno;
    rc = -1;
  }
  for (unsigned i = 0; i < p->n_slots; ++i) {
    free(p->slots[i].text);
    free(p->slots[i].gz);
  }
  free(p->slots);
  free(p->threads);
  free(p->current);
  free(p);
  return rc;
}
