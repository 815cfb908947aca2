/* codegen_cache.c: a content-addressed on-disk cache of compiled units (like Triton's).
 *
 * An entry is the file <dir>/<BLAKE3 of the key, 64 hex digits> holding
 *   "remat-cache 1 <key bytes> <artifact bytes> <BLAKE3 of key and artifact, hex>\n"
 *   <key><artifact>
 * The key is everything the artifact depends on (codegen.c: the unit's LLVM IR before
 * optimization, target, sm, CPU, opt level, libdevice's digest, LLVM's version). It is
 * stored whole and compared on a hit, so neither a hash collision nor an entry from
 * another key is ever used; the checksum finds a damaged entry (truncated, overwritten),
 * which is then rebuilt. Entries are written to a temporary file in dir and renamed, so
 * concurrent compilations never read half an entry. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen_internal.h"
#include "llvm-c/blake3.h"

#define MAGIC "remat-cache 1"

static void hex(const uint8_t *d, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static char *entry_path(const char *dir, const char *key, size_t key_len) {
  uint8_t d[32];
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, key, key_len);
  llvm_blake3_hasher_finalize(&h, d, sizeof d);
  char name[65];
  hex(d, sizeof d, name);
  return xasprintf("%s/%s", dir, name);
}

static void checksum(const char *key, size_t key_len, const char *data, size_t len, char out[65]) {
  uint8_t d[32];
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, key, key_len);
  llvm_blake3_hasher_update(&h, data, len);
  llvm_blake3_hasher_finalize(&h, d, sizeof d);
  hex(d, sizeof d, out);
}

cg_cache_result cg_cache_get(const char *dir, const char *key, size_t key_len, char **out,
                             size_t *len) {
  *out = NULL;
  *len = 0;
  char *path = entry_path(dir, key, key_len);
  /* Only a regular file is an entry. O_NONBLOCK: opening a named pipe (or a device)
   * put there must not wait for a writer; such an entry is corrupt, and the rename of
   * the rebuilt one replaces it. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  free(path);
  if (fd < 0)
    return CG_CACHE_MISS;
  struct stat st;
  FILE *f = NULL;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "rb"))) {
    close(fd);
    return CG_CACHE_CORRUPT;
  }
  cg_cache_result r = CG_CACHE_CORRUPT;
  char header[256], sum[65], want[65];
  unsigned long long klen, dlen;
  char *buf = NULL;
  long size = -1;
  if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
      fgets(header, sizeof header, f) &&
      sscanf(header, MAGIC " %llu %llu %64s", &klen, &dlen, sum) == 3 &&
      (unsigned long long)size == strlen(header) + klen + dlen) {
    buf = xmalloc((size_t)(klen + dlen) + 1);
    if (fread(buf, 1, (size_t)(klen + dlen), f) == klen + dlen) {
      checksum(buf, (size_t)klen, buf + klen, (size_t)dlen, want);
      if (strcmp(sum, want))
        r = CG_CACHE_CORRUPT;
      else if (klen != key_len || memcmp(buf, key, key_len))
        r = CG_CACHE_MISS; /* another key with the same address: never used */
      else {
        *out = xmalloc((size_t)dlen + 1);
        memcpy(*out, buf + klen, (size_t)dlen);
        (*out)[dlen] = 0;
        *len = (size_t)dlen;
        r = CG_CACHE_HIT;
      }
    }
  }
  free(buf);
  fclose(f);
  return r;
}

/* mkdir -p */
static int make_dirs(const char *dir) {
  char *p = xstrdup(dir);
  int rc = 0;
  for (char *s = p + 1; rc == 0; s++) {
    bool end = !*s;
    if (*s != '/' && !end)
      continue;
    *s = 0;
    if (mkdir(p, 0777) && errno != EEXIST)
      rc = -1;
    if (end)
      break;
    *s = '/';
  }
  free(p);
  return rc;
}

int cg_cache_put(const char *dir, const char *key, size_t key_len, const char *data, size_t len) {
  if (make_dirs(dir))
    return -1;
  char *path = entry_path(dir, key, key_len);
  char *tmp = xasprintf("%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  int rc = -1;
  if (f) {
    char sum[65];
    checksum(key, key_len, data, len, sum);
    fprintf(f, MAGIC " %zu %zu %s\n", key_len, len, sum);
    bool ok = fwrite(key, 1, key_len, f) == key_len && fwrite(data, 1, len, f) == len;
    if (fclose(f) == 0 && ok && rename(tmp, path) == 0)
      rc = 0;
  } else if (fd >= 0)
    close(fd);
  if (rc)
    unlink(tmp);
  free(tmp);
  free(path);
  return rc;
}
