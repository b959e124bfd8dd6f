/**
 * XXH3-64 (seed 0, the default secret) in Lua 5.2 over Wireshark's UInt64, for the generated
 * dissector: Lua 5.2 numbers are doubles, so the 64-bit steps are UInt64 operations (they wrap
 * mod 2^64), except the stripe accumulation of long inputs, which runs on 32-bit halves in plain
 * numbers with bit32 (about ten times faster: no object per operation). A port of xxhash.h's scalar
 * path (XXH3_64bits), tested against our kernel inside tshark (xxh3-lua.test.ts).
 */

/** The default 192-byte XXH3 secret (xxhash.h XXH3_kSecret), the one every Iggy checksum uses. */
const K_SECRET = [
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40,
  0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21, 0xb8, 0x08, 0x46, 0x74,
  0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53,
  0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8, 0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f,
  0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5,
  0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb, 0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26,
  0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16,
  0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
];

/** The Lua chunk: defines local `xxh3_64(s)`, the XXH3-64 of Lua string s as a UInt64. */
export const XXH3_LUA = `-- XXH3-64, seed 0, default secret: xxhash.h's scalar path over UInt64 (generated; do not edit)
local U, band, bxor, sbyte = UInt64.new, bit32.band, bit32.bxor, string.byte
local function hex64(h) return UInt64.fromhex(h) end
local P32_1, P32_2, P32_3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
local P64_1, P64_2, P64_3 = hex64("9E3779B185EBCA87"), hex64("C2B2AE3D27D4EB4F"), hex64("165667B19E3779F9")
local P64_4, P64_5 = hex64("85EBCA77C2B2AE63"), hex64("27D4EB2F165667C5")
local PMX1, PMX2 = hex64("165667919E3779F9"), hex64("9FB21C651E98DF25")
local SECRET = string.char(${K_SECRET.join(",")})
local function r32(s, p) -- little-endian u32 at 1-based position p, as a number
  local a, b, c, d = sbyte(s, p, p + 3)
  return a + b * 256 + c * 65536 + d * 16777216
end
local function r64(s, p) return U(r32(s, p), r32(s, p + 4)) end
-- the secret read as u64 at every byte offset, and as 32-bit halves for the stripe loop
local SK, SLO, SHI = {}, {}, {}
for i = 0, #SECRET - 8 do SK[i] = r64(SECRET, i + 1); SLO[i] = r32(SECRET, i + 1); SHI[i] = r32(SECRET, i + 5) end
local function mul128_fold64(a, b)
  local al, ah, bl, bh = a:lower(), a:higher(), b:lower(), b:higher()
  local lolo, hilo, lohi, hihi = U(al) * bl, U(ah) * bl, U(al) * bh, U(ah) * bh
  local cross = lolo:rshift(32) + hilo:band(0xFFFFFFFF) + lohi
  local upper = hilo:rshift(32) + cross:rshift(32) + hihi
  local lower = U(lolo:lower(), cross:lower())
  return lower:bxor(upper)
end
local function xxh64_avalanche(h)
  h = h:bxor(h:rshift(33)) * P64_2
  h = h:bxor(h:rshift(29)) * P64_3
  return h:bxor(h:rshift(32))
end
local function avalanche(h)
  h = h:bxor(h:rshift(37)) * PMX1
  return h:bxor(h:rshift(32))
end
local function rrmxmx(h, len)
  h = h:bxor(h:rol(49), h:rol(24)) * PMX2
  h = h:bxor(h:rshift(35) + len) * PMX2
  return h:bxor(h:rshift(28))
end
local function len_0to16(s, n)
  if n > 8 then
    local lo = r64(s, 1):bxor(SK[24]:bxor(SK[32]))
    local hi = r64(s, n - 7):bxor(SK[40]:bxor(SK[48]))
    return avalanche(lo:bswap() + hi + n + mul128_fold64(lo, hi))
  elseif n >= 4 then
    local in64 = U(r32(s, n - 3), r32(s, 1))
    return rrmxmx(in64:bxor(SK[8]:bxor(SK[16])), n)
  elseif n > 0 then
    local c1, c2, c3 = sbyte(s, 1), sbyte(s, (n - n % 2) / 2 + 1), sbyte(s, n)
    local combined = c1 * 65536 + c2 * 16777216 + c3 + n * 256
    return xxh64_avalanche(U(bxor(combined, bxor(SLO[0], SLO[4]))))
  end
  return xxh64_avalanche(SK[56]:bxor(SK[64]))
end
-- From 17 bytes on, the arithmetic runs on 32-bit halves in Lua numbers (every intermediate stays
-- below 2^53, so exact): a UInt64 is a heap object with a finalizer per operation, and collecting
-- them cost more than the hashing. Only the result becomes a UInt64.
local TWO32, TWO16, floor, rshift = 4294967296, 65536, math.floor, bit32.rshift
local function mul32(a, b) -- a * b as (lo, hi)
  local a0, b0 = a % TWO16, b % TWO16
  local a1, b1 = (a - a0) / TWO16, (b - b0) / TWO16
  local mid = a1 * b0 + a0 * b1
  local m0 = mid % TWO16
  local lo, hi = a0 * b0 + m0 * TWO16, a1 * b1 + (mid - m0) / TWO16
  if lo >= TWO32 then return lo - TWO32, hi + 1 end
  return lo, hi
end
local function add64(alo, ahi, blo, bhi)
  local lo = alo + blo
  if lo >= TWO32 then return lo - TWO32, (ahi + bhi + 1) % TWO32 end
  return lo, (ahi + bhi) % TWO32
end
local function mul64(alo, ahi, blo, bhi) -- mod 2^64
  local lo, hi = mul32(alo, blo)
  local x, y = mul32(alo, bhi), mul32(ahi, blo)
  return lo, (hi + x + y) % TWO32
end
local function fold64(alo, ahi, blo, bhi) -- the 128-bit product's halves xor-ed (mul128_fold64)
  local w0, c = mul32(alo, blo)
  local hl0, hl1 = mul32(ahi, blo)
  local lh0, lh1 = mul32(alo, bhi)
  local hh0, hh1 = mul32(ahi, bhi)
  local t1 = c + hl0 + lh0
  local w1 = t1 % TWO32
  local t2 = hl1 + lh1 + hh0 + (t1 - w1) / TWO32
  local w2 = t2 % TWO32
  return bxor(w0, w2), bxor(w1, (hh1 + (t2 - w2) / TWO32) % TWO32)
end
local P1LO, P1HI, MX1LO, MX1HI = P64_1:lower(), P64_1:higher(), PMX1:lower(), PMX1:higher()
local function avalanche_n(lo, hi)
  lo = bxor(lo, rshift(hi, 5))
  lo, hi = mul64(lo, hi, MX1LO, MX1HI)
  return U(bxor(lo, hi), hi)
end
local function mix16(s, p, k) -- p: 1-based input position, k: 0-based secret offset
  local c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16 = sbyte(s, p, p + 15)
  return fold64(
    bxor(c1 + c2 * 256 + c3 * 65536 + c4 * 16777216, SLO[k]), bxor(c5 + c6 * 256 + c7 * 65536 + c8 * 16777216, SHI[k]),
    bxor(c9 + c10 * 256 + c11 * 65536 + c12 * 16777216, SLO[k + 8]), bxor(c13 + c14 * 256 + c15 * 65536 + c16 * 16777216, SHI[k + 8]))
end
local function len_17to128(s, n)
  local lo, hi = mul64(n, 0, P1LO, P1HI)
  local function mix(p, k) local a, b = mix16(s, p, k) lo, hi = add64(lo, hi, a, b) end
  if n > 32 then
    if n > 64 then
      if n > 96 then mix(49, 96) mix(n - 63, 112) end
      mix(33, 64) mix(n - 47, 80)
    end
    mix(17, 32) mix(n - 31, 48)
  end
  mix(1, 0) mix(n - 15, 16)
  return avalanche_n(lo, hi)
end
local function len_129to240(s, n)
  local lo, hi = mul64(n, 0, P1LO, P1HI)
  for i = 0, 7 do lo, hi = add64(lo, hi, mix16(s, 16 * i + 1, 16 * i)) end
  local a = avalanche_n(lo, hi)
  lo, hi = a:lower(), a:higher()
  for i = 8, floor(n / 16) - 1 do lo, hi = add64(lo, hi, mix16(s, 16 * i + 1, 16 * (i - 8) + 3)) end
  lo, hi = add64(lo, hi, mix16(s, n - 15, 119))
  return avalanche_n(lo, hi)
end
-- one 64-byte stripe at 1-based p with the secret at byte k
local function accumulate512(alo, ahi, s, p, k)
  for i = 0, 7 do
    local q = p + 8 * i
    local c1, c2, c3, c4, c5, c6, c7, c8 = sbyte(s, q, q + 7)
    local lo, hi = c1 + c2 * 256 + c3 * 65536 + c4 * 16777216, c5 + c6 * 256 + c7 * 65536 + c8 * 16777216
    local j = i % 2 == 0 and i + 2 or i -- lane i ^ 1, 1-based
    alo[j], ahi[j] = add64(alo[j], ahi[j], lo, hi)
    local plo, phi = mul32(bxor(lo, SLO[k + 8 * i]), bxor(hi, SHI[k + 8 * i]))
    alo[i + 1], ahi[i + 1] = add64(alo[i + 1], ahi[i + 1], plo, phi)
  end
end
local function scramble(alo, ahi)
  for i = 1, 8 do
    local k = 128 + 8 * (i - 1)
    local lo, hi = bxor(alo[i], rshift(ahi[i], 15), SLO[k]), bxor(ahi[i], SHI[k])
    alo[i], ahi[i] = mul64(lo, hi, P32_1, 0)
  end
end
local INIT = { U(P32_3), P64_1, P64_2, P64_3, P64_4, U(P32_2), P64_5, U(P32_1) }
local function hash_long(s, n)
  local alo, ahi = {}, {}
  for i = 1, 8 do alo[i], ahi[i] = INIT[i]:lower(), INIT[i]:higher() end
  local blocks = floor((n - 1) / 1024)
  for b = 0, blocks - 1 do
    for st = 0, 15 do accumulate512(alo, ahi, s, b * 1024 + st * 64 + 1, st * 8) end
    scramble(alo, ahi)
  end
  local stripes = floor(((n - 1) - 1024 * blocks) / 64)
  for st = 0, stripes - 1 do accumulate512(alo, ahi, s, blocks * 1024 + st * 64 + 1, st * 8) end
  accumulate512(alo, ahi, s, n - 63, 192 - 64 - 7)
  local lo, hi = mul64(n, 0, P1LO, P1HI)
  for i = 0, 3 do
    local k, a, b = 11 + 16 * i, 2 * i + 1, 2 * i + 2
    lo, hi = add64(lo, hi, fold64(bxor(alo[a], SLO[k]), bxor(ahi[a], SHI[k]), bxor(alo[b], SLO[k + 8]), bxor(ahi[b], SHI[k + 8])))
  end
  return avalanche_n(lo, hi)
end
local function xxh3_64(s)
  local n = #s
  if n <= 16 then return len_0to16(s, n) end
  if n <= 128 then return len_17to128(s, n) end
  if n <= 240 then return len_129to240(s, n) end
  return hash_long(s, n)
end
`;
