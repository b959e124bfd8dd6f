/*
 * XXH3-64 (seed 0, default secret) of more than 16 bytes in wasm SIMD. xxhash.h 0.8.1 has no wasm
 * vector path (its long inputs run the scalar accumulate) and wasm32 has no 64x64->128-bit multiply,
 * so its XXH3_mix16B costs four i64.mul and a dozen ALU ops. Here 17..240 bytes run two mix16B side
 * by side in i64x2 lanes (four u32x4 extmuls, the arithmetic of XXH_mult64to128's portable path) and
 * longer inputs run xxhash.h's own long loop with i64x2 versions of accumulate_512 and scrambleAcc
 * (as its SSE2 path). Up to 16 bytes, and builds without -msimd128, use xxhash.h as it is.
 * Include after vendor/xxhash.h with XXH_INLINE_ALL (it uses XXH3_kSecret, XXH3_avalanche, the long loop).
 */
#pragma once
#include <stdint.h>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* The default secret through an empty asm: clang then loads its words from memory (one instruction
 * each in V8) instead of folding them into v128.const, which V8 builds from four scalar moves. */
static inline const uint8_t *kx_secret(void) {
  const uint8_t *s = XXH3_kSecret;
  __asm__("" : "+r"(s));
  return s;
}

/* Lane i: XXH3_mix16B(in_i, sec_i, 0), the folded 128-bit product of the two xored 64-bit halves. */
static inline v128_t kx_mix16B_x2(const uint8_t *in0, const uint8_t *sec0, const uint8_t *in1, const uint8_t *sec1) {
  const v128_t x0 = wasm_v128_xor(wasm_v128_load(in0), wasm_v128_load(sec0));
  const v128_t x1 = wasm_v128_xor(wasm_v128_load(in1), wasm_v128_load(sec1));
  /* u32 lanes of x: [lo.low, lo.high, hi.low, hi.high]; lhs = [lo.low, lo.low', lo.high, lo.high'] and so on. */
  const v128_t lhs = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5);
  v128_t rhs = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7);
  const v128_t rhs_lanes = rhs;
  /* Keeps clang from merging the swap below into a two-source shuffle, which V8 lowers to three instructions, not one. */
  __asm__("" : "+r"(rhs));
  const v128_t rsw = wasm_i32x4_shuffle(rhs, rhs, 2, 3, 0, 1);
  const v128_t lo_lo = wasm_u64x2_extmul_low_u32x4(lhs, rhs_lanes);
  const v128_t hi_hi = wasm_u64x2_extmul_high_u32x4(lhs, rhs_lanes);
  const v128_t lo_hi = wasm_u64x2_extmul_low_u32x4(lhs, rsw);
  const v128_t hi_lo = wasm_u64x2_extmul_high_u32x4(lhs, rsw);
  const v128_t m32 = wasm_i64x2_const_splat(0xFFFFFFFF);
  const v128_t cross = wasm_i64x2_add(wasm_i64x2_add(wasm_u64x2_shr(lo_lo, 32), wasm_v128_and(hi_lo, m32)), lo_hi);
  const v128_t upper = wasm_i64x2_add(wasm_i64x2_add(wasm_u64x2_shr(hi_lo, 32), wasm_u64x2_shr(cross, 32)), hi_hi);
  const v128_t lower = wasm_v128_or(wasm_i64x2_shl(cross, 32), wasm_v128_and(lo_lo, m32));
  return wasm_v128_xor(lower, upper);
}

static inline uint64_t kx_sum2(v128_t v) { return (uint64_t)wasm_i64x2_extract_lane(v, 0) + (uint64_t)wasm_i64x2_extract_lane(v, 1); }

/* XXH3_len_17to128_64b: the same mix16B pairs, summed in lanes. */
static inline uint64_t kx_xxh3_17to128(const uint8_t *in, uint32_t len) {
  const uint8_t *s = kx_secret();
  v128_t acc = kx_mix16B_x2(in, s, in + len - 16, s + 16);
  if (len > 32) {
    acc = wasm_i64x2_add(acc, kx_mix16B_x2(in + 16, s + 32, in + len - 32, s + 48));
    if (len > 64) {
      acc = wasm_i64x2_add(acc, kx_mix16B_x2(in + 32, s + 64, in + len - 48, s + 80));
      if (len > 96) acc = wasm_i64x2_add(acc, kx_mix16B_x2(in + 48, s + 96, in + len - 64, s + 112));
    }
  }
  return XXH3_avalanche((uint64_t)len * XXH_PRIME64_1 + kx_sum2(acc));
}

/* XXH3_len_129to240_64b: eight mix16B, an avalanche, the rounds past 128 bytes at secret + 3 and the last 16 bytes. */
static inline uint64_t kx_xxh3_129to240(const uint8_t *in, uint32_t len) {
  const uint8_t *s = kx_secret();
  v128_t acc = kx_mix16B_x2(in, s, in + 16, s + 16);
  acc = wasm_i64x2_add(acc, kx_mix16B_x2(in + 32, s + 32, in + 48, s + 48));
  acc = wasm_i64x2_add(acc, kx_mix16B_x2(in + 64, s + 64, in + 80, s + 80));
  acc = wasm_i64x2_add(acc, kx_mix16B_x2(in + 96, s + 96, in + 112, s + 112));
  const uint64_t first = XXH3_avalanche((uint64_t)len * XXH_PRIME64_1 + kx_sum2(acc));
  const uint32_t rounds = len / 16;
  const uint8_t *last = in + len - 16, *last_s = s + XXH3_SECRET_SIZE_MIN - XXH3_MIDSIZE_LASTOFFSET;
  const uint8_t *s3 = s + XXH3_MIDSIZE_STARTOFFSET;
  v128_t acc2 = wasm_i64x2_const_splat(0);
  uint32_t i = 8;
  for (; i + 1 < rounds; i += 2) acc2 = wasm_i64x2_add(acc2, kx_mix16B_x2(in + 16 * i, s3 + 16 * (i - 8), in + 16 * i + 16, s3 + 16 * (i - 7)));
  /* One round may be left: pair it with the last 16 bytes, or pair those with themselves and keep one lane. */
  const uint64_t tail = i < rounds ? kx_sum2(kx_mix16B_x2(in + 16 * i, s3 + 16 * (i - 8), last, last_s))
                                   : (uint64_t)wasm_i64x2_extract_lane(kx_mix16B_x2(last, last_s, last, last_s), 0);
  return XXH3_avalanche(first + kx_sum2(acc2) + tail);
}

/* XXH3_accumulate_512 (one 64-byte stripe) in i64x2 lanes, as xxhash.h's SSE2 version: acc += swap(data) + lo32(dk) * hi32(dk). */
static inline void kx_accumulate_512(void *restrict acc, const void *restrict input, const void *restrict secret) {
  v128_t *const xacc = (v128_t *)acc;
  const uint8_t *const in = (const uint8_t *)input, *const sec = (const uint8_t *)secret;
  for (int i = 0; i < 4; i++) {
    const v128_t data = wasm_v128_load(in + 16 * i);
    const v128_t key = wasm_v128_xor(data, wasm_v128_load(sec + 16 * i));
    const v128_t product = wasm_u64x2_extmul_low_u32x4(wasm_i32x4_shuffle(key, key, 0, 2, 0, 2), wasm_i32x4_shuffle(key, key, 1, 3, 1, 3));
    const v128_t swapped = wasm_i64x2_shuffle(data, data, 1, 0);
    xacc[i] = wasm_i64x2_add(xacc[i], wasm_i64x2_add(swapped, product));
  }
}

/* XXH3_scrambleAcc in i64x2 lanes: acc = (acc ^ (acc >> 47) ^ key) * PRIME32_1, once per 1 KiB block. */
static inline void kx_scramble_acc(void *restrict acc, const void *restrict secret) {
  v128_t *const xacc = (v128_t *)acc;
  const uint8_t *const sec = (const uint8_t *)secret;
  const v128_t prime = wasm_i64x2_const_splat(XXH_PRIME32_1);
  for (int i = 0; i < 4; i++) {
    const v128_t a = wasm_v128_xor(wasm_v128_xor(xacc[i], wasm_u64x2_shr(xacc[i], 47)), wasm_v128_load(sec + 16 * i));
    xacc[i] = wasm_i64x2_mul(a, prime);
  }
}

/* XXH3_64bits(in, len); inlined into the frame loops, where a call costs as much as a short hash. */
__attribute__((always_inline)) static inline uint64_t kx_xxh3_64(const uint8_t *in, uint32_t len) {
  if (len > 16 && len <= 128) return kx_xxh3_17to128(in, len);
  if (len > 128 && len <= XXH3_MIDSIZE_MAX) return kx_xxh3_129to240(in, len);
  if (len > XXH3_MIDSIZE_MAX) return XXH3_hashLong_64b_internal(in, len, kx_secret(), sizeof(XXH3_kSecret), kx_accumulate_512, kx_scramble_acc);
  return XXH3_64bits(in, len);
}
#else
__attribute__((always_inline)) static inline uint64_t kx_xxh3_64(const uint8_t *in, uint32_t len) { return XXH3_64bits(in, len); }
#endif
