/* SPDX-License-Identifier: MIT */
/* Batches of items formatted by worker threads, their texts written in order (text_pool.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hegetcl/status.h"
#include "io/text_pool.h"

enum { BATCH_FREE, BATCH_FILLING, BATCH_QUEUED, BATCH_BUSY, BATCH_DONE };

typedef struct {
  int state;
  uint64_t sequence;
  unsigned char *items;
  size_t count;
  char *text;
  size_t text_length, text_capacity;
  int failed;
} batch;

struct hg_text_pool {
  hg_output *out;
  hg_text_pool_format format;
  void *user;
  size_t item_size, batch_items;
  unsigned n_threads, n_batches;
  pthread_t *threads;
  pthread_mutex_t mutex;
  pthread_cond_t work, done;
  batch *batches;
  batch *filling;
  uint64_t submitted, written;
  int stopping, status;
};

unsigned hg_text_pool_threads(unsigned asked) {
  const char *env = getenv("HEGETCL_FORMAT_THREADS");
  long n = asked;
  if (env != NULL && env[0] != '\0') n = strtol(env, NULL, 10);
  if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > 16) n = 16;
  return (unsigned)n;
}

static void *worker(void *arg) {
  hg_text_pool *p = arg;
  pthread_mutex_lock(&p->mutex);
  for (;;) {
    batch *b = NULL;
    for (unsigned i = 0; i < p->n_batches; ++i)
      if (p->batches[i].state == BATCH_QUEUED &&
          (b == NULL || p->batches[i].sequence < b->sequence))
        b = &p->batches[i];
    if (b == NULL) {
      if (p->stopping) break;
      pthread_cond_wait(&p->work, &p->mutex);
      continue;
    }
    b->state = BATCH_BUSY;
    pthread_mutex_unlock(&p->mutex);
    hg_text t = {.out = NULL,
                 .mem = &b->text,
                 .mem_length = &b->text_length,
                 .mem_capacity = &b->text_capacity};
    b->text_length = 0;
    p->format(p->user, b->items, b->count, p->item_size, &t);
    const int failed = hg_text_flush(&t) != 0;
    pthread_mutex_lock(&p->mutex);
    b->failed = failed;
    b->state = BATCH_DONE;
    pthread_cond_broadcast(&p->done);
  }
  pthread_mutex_unlock(&p->mutex);
  return NULL;
}

/* Writes finished batches in order; those before sequence wait_for are waited for. Mutex held. */
static void write_done(hg_text_pool *p, uint64_t wait_for) {
  while (p->written < p->submitted) {
    batch *b = &p->batches[p->written % p->n_batches];
    if (b->state != BATCH_DONE) {
      if (p->written >= wait_for) return;
      pthread_cond_wait(&p->done, &p->mutex);
      continue;
    }
    pthread_mutex_unlock(&p->mutex);
    if (b->failed && p->status == 0) p->status = HEGETCL_ERR_NO_MEMORY;
    if (p->status == 0 && hg_output_write(p->out, b->text, b->text_length) != 0)
      p->status = hg_output_status(p->out);
    pthread_mutex_lock(&p->mutex);
    b->state = BATCH_FREE;
    b->count = 0;
    p->written++;
  }
}

hg_text_pool *hg_text_pool_create(unsigned threads, size_t item_size, size_t batch_items,
                                  hg_text_pool_format format, void *user, hg_output *out) {
  const unsigned n = hg_text_pool_threads(threads);
  if (n < 2) return NULL;
  hg_text_pool *p = calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->out = out;
  p->format = format;
  p->user = user;
  p->item_size = (item_size + 7u) & ~(size_t)7u;
  p->batch_items = batch_items;
  p->n_threads = n;
  p->n_batches = 2 * n + 1;
  p->batches = calloc(p->n_batches, sizeof *p->batches);
  p->threads = calloc(n, sizeof *p->threads);
  int ok = p->batches != NULL && p->threads != NULL;
  for (unsigned i = 0; ok && i < p->n_batches; ++i)
    ok = (p->batches[i].items = malloc(p->item_size * batch_items)) != NULL;
  unsigned started = 0;
  if (ok) {
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    while (started < n && pthread_create(&p->threads[started], NULL, worker, p) == 0) ++started;
    p->n_threads = started;
    ok = started == n;
  }
  if (!ok) {
    if (p->batches != NULL && p->threads != NULL && started > 0) {
      hg_text_pool_destroy(p);
      return NULL;
    }
    for (unsigned i = 0; p->batches != NULL && i < p->n_batches; ++i) free(p->batches[i].items);
    free(p->batches);
    free(p->threads);
    free(p);
    return NULL;
  }
  return p;
}

/* Hands the filling batch to the workers. */
static void submit(hg_text_pool *p) {
  pthread_mutex_lock(&p->mutex);
  p->filling->sequence = p->submitted++;
  p->filling->state = BATCH_QUEUED;
  p->filling = NULL;
  pthread_cond_signal(&p->work);
  write_done(p, 0);
  pthread_mutex_unlock(&p->mutex);
}

void *hg_text_pool_item(hg_text_pool *p) {
  if (p->status != 0) return NULL;
  /* a full batch goes to the workers only now, its last item filled by the caller */
  if (p->filling != NULL && p->filling->count == p->batch_items) submit(p);
  if (p->filling == NULL) {
    pthread_mutex_lock(&p->mutex);
    /* this batch held the one n_batches earlier: written first */
    const uint64_t need = p->submitted + 1 > p->n_batches ? p->submitted + 1 - p->n_batches : 0;
    write_done(p, need);
    batch *b = &p->batches[p->submitted % p->n_batches];
    b->state = BATCH_FILLING;
    b->count = 0;
    p->filling = b;
    pthread_mutex_unlock(&p->mutex);
    if (p->status != 0) return NULL;
  }
  batch *b = p->filling;
  return b->items + b->count++ * p->item_size;
}

int hg_text_pool_drain(hg_text_pool *p) {
  if (p->filling != NULL) {
    if (p->filling->count > 0) {
      submit(p);
    } else {
      p->filling->state = BATCH_FREE;
      p->filling = NULL;
    }
  }
  pthread_mutex_lock(&p->mutex);
  write_done(p, p->submitted);
  pthread_mutex_unlock(&p->mutex);
  return p->status != 0 ? p->status : hg_output_status(p->out);
}

void hg_text_pool_destroy(hg_text_pool *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mutex);
  p->stopping = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mutex);
  for (unsigned i = 0; i < p->n_threads; ++i) pthread_join(p->threads[i], NULL);
  pthread_mutex_destroy(&p->mutex);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  for (unsigned i = 0; i < p->n_batches; ++i) {
    free(p->batches[i].items);
    free(p->batches[i].text);
  }
  free(p->batches);
  free(p->threads);
  free(p);
}
