/*
 * The native reference for `npm run bench`: verifies every frame checksum and batch checksum of a
 * segment file with libxxhash (XXH3_64bits), the way the kernel walk does. Compiled at bench time
 * (cc -O2 verify.c -lxxhash); never committed as a binary.
 *
 *   verify FILE            stream FILE in 4 MiB reads (a whole process, as the CLI runs); prints counts
 *   verify FILE --memory N read FILE into memory once, then time N walks of it; prints ns per walk
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <xxhash.h>

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

struct counts { uint64_t batches, frames, bad_frames, bad_batches; };

/* Walks whole batches of data[0, len); returns the bytes consumed. */
static size_t walk(const uint8_t *data, size_t len, struct counts *c, uint8_t *scratch) {
  size_t pos = 0;
  while (len - pos >= 256) {
    const uint8_t *b = data + pos;
    uint64_t blen = rd64(b + 32);
    if (blen < 256 || blen > len - pos) break;
    size_t end = pos + blen, f = pos + 256, nf = 0;
    memcpy(scratch, b, 40);
    memcpy(scratch + 40, b + 48, 4);
    while (end - f >= 48) {
      const uint8_t *h = data + f;
      uint64_t flen = 48ull + rd32(h + 32) + rd32(h + 36);
      if (flen > end - f) break;
      c->bad_frames += XXH3_64bits(h + 8, flen - 8) != rd64(h);
      memcpy(scratch + 44 + 8 * nf, h, 8);
      f += flen;
      nf++;
    }
    c->bad_batches += XXH3_64bits(scratch, 44 + 8 * nf) != rd64(b + 40) || nf != rd32(b + 48);
    c->batches++;
    c->frames += nf;
    pos = end;
  }
  return pos;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: verify FILE [--memory N]\n"); return 2; }
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) { perror(argv[1]); return 2; }
  struct counts c = {0};
  if (argc >= 4 && strcmp(argv[2], "--memory") == 0) {
    struct stat st;
    fstat(fd, &st);
    uint8_t *data = malloc(st.st_size), *scratch = malloc(st.st_size / 6 + 64);
    for (size_t off = 0; off < (size_t)st.st_size;) { ssize_t n = read(fd, data + off, st.st_size - off); if (n <= 0) return 2; off += n; }
    int runs = atoi(argv[3]);
    for (int r = 0; r < runs; r++) {
      struct timespec t0, t1;
      memset(&c, 0, sizeof c);
      clock_gettime(CLOCK_MONOTONIC, &t0);
      walk(data, st.st_size, &c, scratch);
      clock_gettime(CLOCK_MONOTONIC, &t1);
      printf("%lld\n", (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)));
    }
  } else {
    const size_t READ = 4 << 20, WIN = 3 * READ + (1 << 20);
    uint8_t *win = malloc(WIN), *scratch = malloc(WIN / 6 + 64);
    size_t have = 0;
    ssize_t k;
    while ((k = read(fd, win + have, WIN - have < READ ? WIN - have : READ)) > 0 || have > 0) {
      if (k < 0) return 2;
      have += (size_t)k;
      size_t used = walk(win, have, &c, scratch);
      if (used == 0 && (k == 0 || have == WIN)) break; /* the end, or a batch larger than the window */
      memmove(win, win + used, have - used);
      have -= used;
    }
  }
  fprintf(stderr, "batches %llu frames %llu bad_frames %llu bad_batches %llu\n", (unsigned long long)c.batches,
          (unsigned long long)c.frames, (unsigned long long)c.bad_frames, (unsigned long long)c.bad_batches);
  return c.bad_frames + c.bad_batches ? 1 : 0;
}
