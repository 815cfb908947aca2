/* philox_fill_f32 and philox_fill_below: rt.uniform_philox's values for a whole buffer,
 * or the mask of those below a threshold, fast. See philox.h.
 *
 * Vectorised: BATCH consecutive blocks run through the ten rounds together, one array
 * per counter word, so each round is a loop over BATCH independent lanes that gcc and
 * clang turn into SIMD code at -O2 (SSE2's pmuludq gives the 32x32->64 products; on the
 * 2-core bench VM a batch is ~4x faster than one block at a time, bench/RESULTS.md
 * "Philox in C"). Word k of block b is element 4b + k, so the words are interleaved on
 * the way out.
 *
 * Threaded: with THREAD_MIN_ELEMENTS or more per thread the buffer is cut into slices on batch
 * boundaries and each slice is filled by one thread (the caller fills the first). An
 * element's value depends only on (seed, offset, its index), so the bits never depend
 * on the number of threads; a thread that cannot be started leaves its slice to the
 * caller. */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#include "philox.h"

enum {
  BATCH = 16, /* blocks per vectorised pass: 64 elements */
  BATCH_ELEMENTS = 4 * BATCH,
  /* A thread costs ~30-60 us to start and join on the bench VM, and two threads on
   * 65536 elements (~120 us of work at ~1.9 ns each) were no faster than one there; so
   * each thread gets at least this many (bench/RESULTS.md, "Philox in C"). */
  THREAD_MIN_ELEMENTS = 65536,
  MAX_THREADS = 64,
};

typedef struct fill_job {
  uint64_t seed, offset;
  double lo, hi;
  float *out;  /* the values, or NULL: */
  bool *below; /* below[i] = value i < threshold */
  float threshold;
  size_t begin, end; /* elements; begin is a multiple of BATCH_ELEMENTS */
} fill_job;

/* philox4x32_10 on the BATCH counters (offset, block first + l), the words written
 * to word[k][l]: the rounds of philox.c with the lanes innermost. */
static void philox_batch(uint64_t seed, uint64_t offset, uint64_t first, uint32_t word[4][BATCH]) {
  uint32_t c0[BATCH], c1[BATCH], c2[BATCH], c3[BATCH];
  uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);

  for (int l = 0; l < BATCH; l++) {
    uint64_t block = first + (uint64_t)l;
    c0[l] = (uint32_t)offset;
    c1[l] = (uint32_t)(offset >> 32);
    c2[l] = (uint32_t)block;
    c3[l] = (uint32_t)(block >> 32);
  }
  for (int round = 0; round < PHILOX_ROUNDS; round++) {
    for (int l = 0; l < BATCH; l++) {
      uint64_t product0 = (uint64_t)PHILOX_MULTIPLIER0 * c0[l];
      uint64_t product1 = (uint64_t)PHILOX_MULTIPLIER1 * c2[l];
      uint32_t next0 = (uint32_t)(product1 >> 32) ^ c1[l] ^ k0;
      uint32_t next2 = (uint32_t)(product0 >> 32) ^ c3[l] ^ k1;

      c1[l] = (uint32_t)product1;
      c3[l] = (uint32_t)product0;
      c0[l] = next0;
      c2[l] = next2;
    }
    k0 += PHILOX_KEY_STEP0;
    k1 += PHILOX_KEY_STEP1;
  }
  for (int l = 0; l < BATCH; l++) {
    word[0][l] = c0[l];
    word[1][l] = c1[l];
    word[2][l] = c2[l];
    word[3][l] = c3[l];
  }
}

/* Elements [begin, end) of job, begin a multiple of 4. [0, 1) is the common case
 * (dropout): fmaf(u, 1, 0) is u exactly, so the loop skips the fma, which has no
 * vector form without a hardware fma. The stores name the four words of a lane one by
 * one, a pattern gcc vectorises (a loop over k would not be). A mask is compared from
 * a batch of values kept on the stack. */
static void fill_slice(const fill_job *job, size_t begin, size_t end) {
  float lo_f = (float)job->lo, range = (float)job->hi - lo_f;
  int unit = lo_f == 0.0f && range == 1.0f;
  uint32_t word[4][BATCH];
  float batch[BATCH_ELEMENTS];
  size_t i = begin;

  for (; end - i >= BATCH_ELEMENTS; i += BATCH_ELEMENTS) {
    float *out = job->out ? job->out + i : batch;

    philox_batch(job->seed, job->offset, (uint64_t)i / 4, word);
    for (int l = 0; l < BATCH; l++) {
      out[4 * l + 0] = philox_unit_f32(word[0][l]);
      out[4 * l + 1] = philox_unit_f32(word[1][l]);
      out[4 * l + 2] = philox_unit_f32(word[2][l]);
      out[4 * l + 3] = philox_unit_f32(word[3][l]);
    }
    if (!unit)
      for (int e = 0; e < BATCH_ELEMENTS; e++)
        out[e] = fmaf(out[e], range, lo_f);
    if (!job->out)
      for (int e = 0; e < BATCH_ELEMENTS; e++)
        job->below[i + (size_t)e] = out[e] < job->threshold;
  }
  /* The last partial batch, a block at a time. */
  for (; i < end; i += 4) {
    uint64_t block = (uint64_t)i / 4;
    uint32_t key[2] = {(uint32_t)job->seed, (uint32_t)(job->seed >> 32)};
    uint32_t ctr[4] = {(uint32_t)job->offset, (uint32_t)(job->offset >> 32), (uint32_t)block,
                       (uint32_t)(block >> 32)};
    uint32_t words[4];

    philox4x32_10(ctr, key, words);
    for (size_t k = 0; k < 4 && i + k < end; k++) {
      float value = philox_uniform_f32(words[k], job->lo, job->hi);

      if (job->out)
        job->out[i + k] = value;
      else
        job->below[i + k] = value < job->threshold;
    }
  }
}

static void *fill_thread(void *arg) {
  const fill_job *job = arg;
  fill_slice(job, job->begin, job->end);
  return NULL;
}

static int online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Splits the elements [0, n) of JOB into slices (see the top of the file) and fills
 * them. */
static void fill(fill_job job, size_t n, int threads) {
  fill_job jobs[MAX_THREADS];
  pthread_t tid[MAX_THREADS];
  int started[MAX_THREADS] = {0};
  size_t batches = (n + BATCH_ELEMENTS - 1) / BATCH_ELEMENTS, per;
  size_t most = n / THREAD_MIN_ELEMENTS;
  int slices;

  if (threads <= 0 || threads > MAX_THREADS)
    threads = online_cpus();
  slices = most < (size_t)threads ? (int)most : threads;
  if (slices < 1)
    slices = 1;
  per = (batches + (size_t)slices - 1) / (size_t)slices * BATCH_ELEMENTS;
  for (int s = 0; s < slices; s++) {
    size_t begin = (size_t)s * per;

    jobs[s] = job;
    jobs[s].begin = begin < n ? begin : n;
    jobs[s].end = begin + per < n ? begin + per : n;
  }
  for (int s = 1; s < slices; s++)
    started[s] = pthread_create(&tid[s], NULL, fill_thread, &jobs[s]) == 0;
  fill_thread(&jobs[0]);
  for (int s = 1; s < slices; s++) {
    if (started[s])
      pthread_join(tid[s], NULL);
    else
      fill_thread(&jobs[s]);
  }
}

void philox_fill_f32(uint64_t seed, uint64_t offset, double lo, double hi, float *out, size_t n,
                     int threads) {
  fill((fill_job){.seed = seed, .offset = offset, .lo = lo, .hi = hi, .out = out}, n, threads);
}

void philox_fill_below(uint64_t seed, uint64_t offset, double lo, double hi, float threshold,
                       bool *below, size_t n, int threads) {
  fill((fill_job){.seed = seed,
                  .offset = offset,
                  .lo = lo,
                  .hi = hi,
                  .below = below,
                  .threshold = threshold},
       n, threads);
}
