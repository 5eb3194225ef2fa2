/* SPDX-License-Identifier: MIT */
/* hg_parallel_for: a shared counter hands out the items; statuses are kept per item. */
#include "parallel.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
  pthread_mutex_t lock;
  size_t next, n;
  hegetcl_status (*work)(size_t, void *);
  void *user;
  hegetcl_status *status;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->lock);
    const size_t i = p->next < p->n ? p->next++ : p->n;
    pthread_mutex_unlock(&p->lock);
    if (i == p->n) return NULL;
    p->status[i] = p->work(i, p->user);
  }
}

unsigned hg_build_threads(void) {
  const char *text = getenv("HEGETCL_BUILD_THREADS");
  if (text != NULL && text[0] != '\0') {
    char *end = NULL;
    const long n = strtol(text, &end, 10);
    if (end != text && *end == '\0' && n >= 1 && n <= 256) return (unsigned)n;
  }
  /* one by default: Oclgrind 21.10 crashes when two threads build at once, and what NVIDIA's
   * compiler gains is not measured yet */
  return 1u;
}

hegetcl_status hg_parallel_for(size_t n, hegetcl_status (*work)(size_t i, void *user),
                               void *user) {
  if (n == 0) return HEGETCL_OK;
  hegetcl_status *status = malloc(n * sizeof *status);
  size_t threads = hg_build_threads();
  threads = threads < n ? threads : n;
  pthread_t *ids = threads > 1 ? malloc((threads - 1) * sizeof *ids) : NULL;
  if (status == NULL || (threads > 1 && ids == NULL)) {
    /* no memory for the bookkeeping: one after another */
    free(status);
    free(ids);
    hegetcl_status first = HEGETCL_OK;
    for (size_t i = 0; i < n; ++i) {
      const hegetcl_status s = work(i, user);
      if (first == HEGETCL_OK) first = s;
    }
    return first;
  }
  pool p = {.next = 0, .n = n, .work = work, .user = user, .status = status};
  pthread_mutex_init(&p.lock, NULL);
  size_t started = 0;
  for (; started + 1 < threads; ++started)
    if (pthread_create(&ids[started], NULL, worker, &p) != 0) break; /* fewer threads then */
  worker(&p);
  for (size_t t = 0; t < started; ++t) pthread_join(ids[t], NULL);
  pthread_mutex_destroy(&p.lock);
  hegetcl_status first = HEGETCL_OK;
  for (size_t i = 0; i < n && first == HEGETCL_OK; ++i) first = status[i];
  free(status);
  free(ids);
  return first;
}
