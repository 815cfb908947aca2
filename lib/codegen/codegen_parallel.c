/* codegen_parallel.c: a parallel loop over the units of a translation. Each index is
 * taken by exactly one thread (an atomic counter), and results go to per-index slots, so
 * what is computed never depends on the number of threads or on their timing. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "codegen_internal.h"

int cg_default_jobs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

typedef struct loop {
  atomic_int next;
  int n;
  void (*fn)(void *ctx, int i);
  void *ctx;
} loop;

static void *worker(void *arg) {
  loop *l = arg;
  for (int i; (i = atomic_fetch_add(&l->next, 1)) < l->n;)
    l->fn(l->ctx, i);
  return NULL;
}

void cg_parallel_for(int n, int jobs, void (*fn)(void *ctx, int i), void *ctx) {
  loop l = {.n = n, .fn = fn, .ctx = ctx};
  atomic_init(&l.next, 0);
  int threads = jobs < n ? jobs : n;
  pthread_t *tid = xcalloc((size_t)(threads > 1 ? threads : 1), sizeof *tid);
  int started = 0;
  /* The caller is one of the threads; a thread that cannot be started leaves its share
   * to the others. */
  for (int t = 1; t < threads; t++)
    if (!pthread_create(&tid[started], NULL, worker, &l))
      started++;
  worker(&l);
  for (int t = 0; t < started; t++)
    pthread_join(tid[t], NULL);
  free(tid);
}
