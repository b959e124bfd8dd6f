/*
 * The batched XXH3-64 kernel of Iggy Batch Explorer, compiled to wasm32 by scripts/build-kernel.mjs.
 * XXH3 is vendor/xxhash.h (xxHash 0.8.1, BSD-2-Clause, vendor/LICENSE), inlined, with its 17..240-byte
 * paths redone in wasm SIMD by xxh3-wasm.h (kx_xxh3_64); there is no libc
 * (include/ holds stub headers). Memory is imported: the host sizes it and puts input bytes, tables
 * and outputs in it; every pointer below is an offset in that memory.
 *
 * Offsets of the batch and frame layouts and the slots of walk()'s control block come from layout.h,
 * generated from src/format/fields.ts and src/checksum/kernel/abi.ts.
 */
#define XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY
#include "vendor/xxhash.h"
#include <stdint.h>
#include "layout.h"
#include "xxh3-wasm.h"

#define EXPORT(name) __attribute__((export_name(name)))

/* The walk reads these fields as whole machine words. */
_Static_assert(FRAME_CHECKSUM_SIZE == 8 && FRAME_RESERVED_SIZE == 8 && BATCH_BATCH_LENGTH_SIZE == 8, "u64 fields");
_Static_assert(FRAME_USER_HEADERS_LENGTH_SIZE == 4 && FRAME_PAYLOAD_LENGTH_SIZE == 4 && BATCH_MESSAGE_COUNT_SIZE == 4, "u32 fields");
_Static_assert(BATCH_MESSAGE_COUNT_OFFSET == BATCH_BATCH_CHECKSUM_OFFSET + 8, "message_count follows batch_checksum");

static inline uint64_t rd64(const uint8_t *p) { uint64_t v; __builtin_memcpy(&v, p, 8); return v; }
static inline uint32_t rd32(const uint8_t *p) { uint32_t v; __builtin_memcpy(&v, p, 4); return v; }
static inline void wr64(uint32_t *p, uint64_t v) { __builtin_memcpy(p, &v, 8); }

/* out[i] = XXH3-64 of data[starts[i], ends[i]). */
EXPORT("hash_windows")
void hash_windows(const uint8_t *data, const uint32_t *starts, const uint32_t *ends, uint32_t n, uint64_t *out) {
  for (uint32_t i = 0; i < n; i++) out[i] = kx_xxh3_64(data + starts[i], ends[i] - starts[i]);
}

/* Whole frames [starts[i], ends[i]): how many have a stored checksum (LE u64 at +0) other than XXH3-64 of bytes 8..end. */
EXPORT("verify_frames")
uint32_t verify_frames(const uint8_t *data, const uint32_t *starts, const uint32_t *ends, uint32_t n) {
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *f = data + starts[i];
    bad += kx_xxh3_64(f + FRAME_CHECKSUM_SIZE, ends[i] - starts[i] - FRAME_CHECKSUM_SIZE) != rd64(f + FRAME_CHECKSUM_OFFSET);
  }
  return bad;
}

/* One streamed hash at a time, for windows larger than the host's staging area. */
static XXH3_state_t stream_state;

EXPORT("stream_reset")
void stream_reset(void) { XXH3_64bits_reset(&stream_state); }

EXPORT("stream_update")
void stream_update(const uint8_t *data, uint32_t n) { XXH3_64bits_update(&stream_state, data, n); }

EXPORT("stream_digest")
void stream_digest(uint64_t *out) { *out = XXH3_64bits_digest(&stream_state); }

static int all_zero(const uint8_t *p, uint32_t n) {
  uint64_t acc = 0;
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) acc |= rd64(p + i);
  for (; i < n; i++) acc |= p[i];
  return acc == 0;
}

/* Value widths of the TLV kinds 1..15 (0: any length 1..255), as src/format/user-headers.ts. */
static const uint8_t TLV_WIDTH[16] = {0, 0, 0, 1, 1, 2, 4, 8, 16, 1, 2, 4, 8, 16, 4, 8};

/* Whether a nonempty user headers block is not Iggy TLV: the same rules as findUserHeadersFault(). */
static int tlv_faulty(const uint8_t *b, uint32_t n) {
  uint32_t pos = 0, count = 0;
  while (pos < n) {
    if (n - pos < 5) return 1;
    uint32_t kind = b[pos];
    uint32_t length = rd32(b + pos + 1);
    /* Kinds 16..255 are unknown kinds (newer SDKs), shown raw, not a fault (batch-format.md). */
    if (kind == 0) return 1;
    if (length < 1 || length > 255) return 1;
    if (kind <= 15 && TLV_WIDTH[kind] != 0 && length != TLV_WIDTH[kind]) return 1;
    if (kind == 3 && pos + 5 < n && b[pos + 5] > 1) return 1;
    if ((uint64_t)pos + 5 + length > n) return 1;
    count++;
    pos += 5 + length;
  }
  return count % 2 != 0;
}

/*
 * walk(data, len, ctl): walks whole batches of data[0, len) and every complete frame in them, with
 * the frame and batch checks that need no context beyond the batch; the host does the rest from the
 * records, so no host code runs per frame (only per batch and per frame with a finding).
 *
 * Stops before a batch whose header is not whole, whose batch_length is < 256, or which ends past len
 * (unless ctl[clampToEnd]: then len is the input's end and such a batch is walked up to it), and when
 * batchesCap records are written. framesCap must be at least len / 48 + 1. Per batch it writes a batch
 * record; per frame with a finding a flagged record; with ctl[fillColumns] the columns the model keeps
 * (start as a u32: ctl[startBase] + relative; payload_length; flags), nothing the host would throw away.
 * The rest of a frame the host derives: its end from the next frame's start (the batch record holds the
 * last frame's user_headers_length) and its offset_delta from the batch's first one (a flagged record
 * holds any other). Returns the number of batches walked.
 */
EXPORT("walk")
uint32_t walk(const uint8_t *data, uint32_t len, uint32_t *ctl) {
  const uint32_t fill = ctl[WC_FILL_COLUMNS], clamp = ctl[WC_CLAMP_TO_END];
  const uint32_t frames_cap = ctl[WC_FRAMES_CAP], batches_cap = ctl[WC_BATCHES_CAP];
  const uint32_t base = ctl[WC_START_BASE];
  uint32_t *c_start = (uint32_t *)(uintptr_t)ctl[WC_COL_START];
  uint32_t *c_plen = (uint32_t *)(uintptr_t)ctl[WC_COL_PAYLOAD_LENGTH];
  uint8_t *c_flags = (uint8_t *)(uintptr_t)ctl[WC_COL_FLAGS];
  uint32_t *records = (uint32_t *)(uintptr_t)ctl[WC_BATCH_RECORDS];
  uint32_t *flagged = (uint32_t *)(uintptr_t)ctl[WC_FLAGGED_RECORDS];
  uint8_t *scratch = (uint8_t *)(uintptr_t)ctl[WC_SCRATCH];

  uint32_t pos = 0, nb = 0, nf = 0, nflag = 0;
  while (nb < batches_cap && len - pos >= BATCH_HEADER_SIZE) {
    const uint8_t *b = data + pos;
    const uint64_t blen = rd64(b + BATCH_BATCH_LENGTH_OFFSET);
    if (blen < BATCH_HEADER_SIZE) break;
    uint32_t end;
    if (blen <= len - pos) end = pos + (uint32_t)blen;
    else if (clamp) end = len;
    else break;
    const int stamped = rd64(b + BATCH_BASE_TIMESTAMP_OFFSET) != 0;
    uint32_t *rec = records + nb * BATCH_RECORD_WORDS;
    uint32_t bflags = all_zero(b + BATCH_RESERVED_OFFSET, BATCH_RESERVED_SIZE) ? 0 : KF_BATCH_RESERVED_NONZERO;
    const uint32_t first_frame = nf, first_flagged = nflag;
    /* The batch checksum input: 40 header bytes, message_count, then each frame's stored checksum. */
    __builtin_memcpy(scratch, b, BATCH_BATCH_CHECKSUM_OFFSET);
    __builtin_memcpy(scratch + BATCH_BATCH_CHECKSUM_OFFSET, b + BATCH_MESSAGE_COUNT_OFFSET, BATCH_MESSAGE_COUNT_SIZE);
    uint8_t *sum_at = scratch + BATCH_BATCH_CHECKSUM_OFFSET + BATCH_MESSAGE_COUNT_SIZE;
    uint64_t base_delta = 0;
    uint32_t k = 0, f = pos + BATCH_HEADER_SIZE, first_delta = 0, last_delta = 0, last_uhl = 0;
    while (f < end) {
      if (end - f < FRAME_HEADER_SIZE) {
        bflags |= KF_BATCH_TRUNCATED_FRAME;
        break;
      }
      const uint8_t *h = data + f;
      const uint32_t uhl = rd32(h + FRAME_USER_HEADERS_LENGTH_OFFSET), pl = rd32(h + FRAME_PAYLOAD_LENGTH_OFFSET);
      const int reserved_nonzero = rd64(h + FRAME_RESERVED_OFFSET) != 0;
      const uint64_t flen = (uint64_t)FRAME_HEADER_SIZE + uhl + pl;
      if (flen > end - f) {
        bflags |= KF_BATCH_TRUNCATED_FRAME | KF_BATCH_TRUNCATED_HEADER_COMPLETE | (reserved_nonzero ? KF_BATCH_TRUNCATED_RESERVED_NONZERO : 0);
        break;
      }
      const uint64_t stored = rd64(h + FRAME_CHECKSUM_OFFSET);
      const uint64_t computed = kx_xxh3_64(h + FRAME_CHECKSUM_SIZE, (uint32_t)flen - FRAME_CHECKSUM_SIZE);
      const uint32_t odelta = rd32(h + FRAME_OFFSET_DELTA_OFFSET), tdelta = rd32(h + FRAME_TIMESTAMP_DELTA_OFFSET);
      if (k == 0) {
        first_delta = odelta;
        base_delta = stamped ? odelta : 0;
      }
      last_delta = odelta;
      last_uhl = uhl;
      if (tdelta == 0) bflags |= KF_BATCH_HAS_ZERO_TIMESTAMP_DELTA;
      uint32_t ff = reserved_nonzero ? KF_FRAME_RESERVED_NONZERO : 0;
      if (stored != computed) ff |= KF_FRAME_CHECKSUM_MISMATCH;
      if ((uint64_t)odelta != base_delta + k) ff |= KF_FRAME_OFFSET_DELTA_NOT_INDEX;
      if (uhl > 0 && tlv_faulty(h + FRAME_HEADER_SIZE + pl, uhl)) ff |= KF_FRAME_USER_HEADERS_MALFORMED;
      __builtin_memcpy(sum_at, h + FRAME_CHECKSUM_OFFSET, FRAME_CHECKSUM_SIZE);
      sum_at += FRAME_CHECKSUM_SIZE;
      if (fill && nf < frames_cap) {
        c_start[nf] = base + f;
        c_plen[nf] = pl;
        c_flags[nf] = (uint8_t)ff;
      }
      if (ff != 0) {
        uint32_t *fr = flagged + nflag * FLAGGED_RECORD_WORDS;
        fr[FR_START] = f;
        fr[FR_INDEX_IN_BATCH] = k;
        fr[FR_FLAGS] = ff;
        fr[FR_OFFSET_DELTA] = odelta;
        wr64(fr + FR_COMPUTED_U64, computed);
        nflag++;
      }
      f += (uint32_t)flen;
      k++;
      nf++;
    }
    rec[BR_START] = pos;
    rec[BR_WALK_END] = end;
    rec[BR_FRAME_COUNT] = k;
    rec[BR_FLAGS] = bflags;
    rec[BR_TRUNCATED_START] = f;
    rec[BR_FIRST_FLAGGED] = first_flagged;
    rec[BR_FLAGGED_COUNT] = nflag - first_flagged;
    rec[BR_FIRST_OFFSET_DELTA] = first_delta;
    rec[BR_LAST_OFFSET_DELTA] = last_delta;
    rec[BR_FIRST_FRAME] = first_frame;
    rec[BR_LAST_USER_HEADERS_LENGTH] = last_uhl;
    wr64(rec + BR_CHECKSUM_U64, kx_xxh3_64(scratch, (uint32_t)(sum_at - scratch)));
    nb++;
    pos = end;
  }
  ctl[WC_OUT_BATCHES] = nb;
  ctl[WC_OUT_FRAMES] = nf;
  ctl[WC_OUT_FLAGGED] = nflag;
  ctl[WC_OUT_CONSUMED] = pos;
  return nb;
}
