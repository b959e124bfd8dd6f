/**
 * The dissector's walk in Lua: cuts a TCP stream into messages by the consensus header's size,
 * decodes each through the generated layouts (LAYOUT, lua-fields.ts), and runs the explorer's
 * checks, raising the generated experts by code. Constants come from the tables; this text holds
 * the control flow only, no field offsets.
 */
import { CONSENSUS_COMMON_FIELDS, CONSENSUS_HEADER_SIZE, COMMAND } from "../../format/containers/consensus.ts";
import { POLL_PREFIX_SIZE, POLL_RESYNC_SENTINEL } from "../../format/containers/poll-reply.ts";
import { BATCH_HEADER_SIZE, FRAME_HEADER_SIZE, fieldByName } from "../../format/fields.ts";
import { HEADER_KIND_WIDTHS } from "../../format/user-headers.ts";
import { BATCH_CHECKSUM_HEADER_SPANS, FRAME_CHECKSUM_FROM } from "../../checksum/verify.ts";

/** The largest message size a consensus header may give (captures.md, framing.rs). */
export const MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

/** Operation numbers the walk dispatches on (captures.md "What a body holds"). */
export const OPERATION = { register: 1, nonReplicated: 2, sendMessages: 160 } as const;
/** Legacy command code (request @196) of a PollMessages request. */
export const LEGACY_POLL_MESSAGES = 100;

/** Every code the engine raises, so a test can check each is in the code table. */
export const ENGINE_CODES = [
  "batch-reserved-nonzero", // raised by add_layout from the reserved rows (lua-fields.ts reservedCode)
  "frame-reserved-nonzero",
  "header-truncated",
  "batch-length-too-small",
  "batch-truncated",
  "frame-truncated",
  "frame-checksum-mismatch",
  "offset-delta-not-index",
  "user-headers-malformed",
  "message-count-mismatch",
  "empty-batch",
  "origin-not-earliest",
  "batch-checksum-mismatch",
  "poll-count-mismatch",
  "poll-partition-mismatch",
  "send-metadata-invalid",
  "send-count-mismatch",
  "send-batch-not-at-end",
  "send-producer-fields-set",
  "prepare-timestamp-mismatch",
] as const;

const widths = Object.fromEntries(HEADER_KIND_WIDTHS.flatMap((w, kind) => (w === null ? [] : [[kind, w]])));

/** The Lua of the walk; expects F, LAYOUT, EXPERT and xxh3_64 declared before it. */
export function engineLua(): string {
  const size = fieldByName(CONSENSUS_COMMON_FIELDS, "size");
  const command = fieldByName(CONSENSUS_COMMON_FIELDS, "command");
  return `-- the walk (lua-engine.ts)
local HEADER, MAX_SIZE, SIZE_AT, COMMAND_AT = ${CONSENSUS_HEADER_SIZE}, ${MAX_MESSAGE_SIZE}, ${size.offset}, ${command.offset}
local CMD = { request = ${COMMAND.request}, prepare = ${COMMAND.prepare}, prepare_ok = ${COMMAND.prepareOk}, reply = ${COMMAND.reply}, eviction = ${COMMAND.eviction} }
local OP_REGISTER, OP_LEGACY, OP_SEND, LEGACY_POLL = ${OPERATION.register}, ${OPERATION.nonReplicated}, ${OPERATION.sendMessages}, ${LEGACY_POLL_MESSAGES}
local BATCH_HEADER, FRAME_HEADER, POLL_PREFIX, POLL_SENTINEL = ${BATCH_HEADER_SIZE}, ${FRAME_HEADER_SIZE}, ${POLL_PREFIX_SIZE}, ${POLL_RESYNC_SENTINEL}
local BATCH_SUM_SPANS, FRAME_SUM_FROM = { ${BATCH_CHECKSUM_HEADER_SPANS.map((s) => `{ ${s.start}, ${s.end - s.start} }`).join(", ")} }, ${FRAME_CHECKSUM_FROM}
local KIND_WIDTH = { ${Object.entries(widths)
    .map(([k, w]) => `[${k}] = ${w}`)
    .join(", ")} }
for _, L in pairs(LAYOUT) do for _, f in ipairs(L) do L[f.name] = f end end

local iggy = Proto("iggy", "Apache Iggy")
iggy.fields = (function() local t = {} for _, f in pairs(F) do t[#t + 1] = f end return t end)()
iggy.experts = (function() local t = {} for _, e in pairs(EXPERT) do t[#t + 1] = e end return t end)()
iggy.prefs.port = Pref.uint("TCP port", 8090, "The Iggy server's TCP port; other ports are found by content")
iggy.prefs.verify = Pref.bool("Verify checksums", true, "Compute every frame and batch XXH3-64 and compare it with the stored one")
local f_stream = Field.new("tcp.stream")

local function flag(tree, range, code, text)
  local e = EXPERT[code]
  if e then tree:add_tvb_expert_info(e, range, text) end
end
local function hex(x) return "0x" .. x:tohex():lower() end
local function micros_time(x)
  local secs = (x / 1000000):tonumber()
  return NSTime.new(secs, (x % 1000000):tonumber() * 1000)
end

-- Adds every field of a layout placed at base (offsets in the table count from base) to tree, up to
-- limit; returns the values by name (numbers up to u32, UInt64 for u64, the range otherwise). A
-- variable field (size 0) takes its length from the length field before it.
local function add_layout(tree, tvb, base, layout, limit)
  local v, last_len = {}, 0
  for _, f in ipairs(layout) do
    local at, n = base + f.o, f.s
    if n == 0 then at, n = base + f.o, last_len end
    if at + n > limit then v._cut = f.name break end
    if n > 0 then
      local r = tvb(at, n)
      if f.mask then
        v[f.name] = n
        tree:add(F[f.a], r, f.mask .. " (" .. n .. " bytes)")
      elseif f.t == "u64" then
        local x = r:le_uint64()
        v[f.name] = x
        tree:add_le(F[f.a], r)
        if f.date then tree:add(F[f.date], r, micros_time(x)) end
      elseif f.t == "u128" or f.t == "bytes" then
        v[f.name] = r
        tree:add(F[f.a], r)
      else
        local x = r:le_uint()
        v[f.name] = x
        if f.role == "length" then last_len = x end
        tree:add_le(F[f.a], r)
      end
      if f.code and r:raw():find("[^\\0]") then flag(tree, r, f.code, f.name .. " has a nonzero byte") end
    end
  end
  return v
end

-- user headers: Iggy TLV as src/format/user-headers.ts decodes it, or the reason it is not
local function u128_decimal(r, signed)
  local limbs, neg = { r(12, 4):le_uint(), r(8, 4):le_uint(), r(4, 4):le_uint(), r(0, 4):le_uint() }, false
  if signed and limbs[1] >= 2147483648 then -- two's complement: negate
    neg = true
    local carry = 1
    for i = 4, 1, -1 do
      local x = (4294967295 - limbs[i]) + carry
      limbs[i], carry = x % 4294967296, math.floor(x / 4294967296)
    end
  end
  local digits = {}
  repeat
    local rem, nonzero = 0, false
    for i = 1, 4 do
      local cur = rem * 4294967296 + limbs[i]
      limbs[i], rem = math.floor(cur / 10), cur % 10
      if limbs[i] ~= 0 then nonzero = true end
    end
    digits[#digits + 1] = tostring(rem)
  until not nonzero
  return (neg and "-" or "") .. string.reverse(table.concat(digits))
end
local function shortest(v, max_digits, same)
  if v ~= v or v == math.huge or v == -math.huge then return tostring(v) end
  for d = 1, max_digits do
    local text = string.format("%." .. d .. "g", v)
    if same(tonumber(text)) then return tostring(tonumber(text)) end
  end
  return tostring(v)
end
local function tlv_text(kind, r)
  if kind == 2 then return r:string(ENC_UTF_8) end
  if kind == 3 then return r:uint() == 1 and "true" or "false" end
  if kind >= 4 and kind <= 6 then return tostring(r:le_int()) end
  if kind == 7 then return tostring(r:le_int64()) end
  if kind == 8 or kind == 13 then return u128_decimal(r, kind == 8) end
  if kind >= 9 and kind <= 11 then return tostring(r:le_uint()) end
  if kind == 12 then return tostring(r:le_uint64()) end
  if kind == 14 then
    local v = r:le_float()
    local _, e = math.frexp(v)
    return shortest(v, 9, function(x) return x == v or math.abs(x - v) < 2 ^ (e - 25) end)
  end
  if kind == 15 then local v = r:le_float() return shortest(v, 17, function(x) return x == v end) end
  return r:bytes():tohex(true, " ")
end
local function scan_tlv(tvb, s, n)
  local e, pos = {}, 0
  while pos < n do
    if n - pos < 5 then return nil, pos, "entry at " .. pos .. " has " .. (n - pos) .. " bytes, a TLV head needs 5" end
    local kind, len = tvb(s + pos, 1):uint(), tvb(s + pos + 1, 4):le_uint()
    if kind == 0 then return nil, pos, "entry at " .. pos .. " has kind 0, which is reserved" end
    if len < 1 or len > 255 then return nil, pos, "entry at " .. pos .. " has length " .. len .. ", TLV lengths are 1..255" end
    local width = KIND_WIDTH[kind]
    if width and len ~= width then return nil, pos, "entry at " .. pos .. " has kind " .. kind .. " and length " .. len .. ", which needs " .. width end
    if kind == 3 and pos + 5 < n and tvb(s + pos + 5, 1):uint() > 1 then return nil, pos, "entry at " .. pos .. " is a bool with value " .. tvb(s + pos + 5, 1):uint() end
    if pos + 5 + len > n then return nil, pos, "entry at " .. pos .. " declares " .. len .. " bytes, " .. (n - pos - 5) .. " remain" end
    e[#e + 1] = { kind = kind, at = s + pos, len = len }
    pos = pos + 5 + len
  end
  if #e % 2 ~= 0 then return nil, n, #e .. " entries, keys and values need an even count" end
  return e
end
local function add_user_headers(tree, tvb, s, n)
  local e, at, why = scan_tlv(tvb, s, n)
  if not e then
    local item = tree:add(F["iggy.frame.user_headers"], tvb(s, n))
    flag(item, tvb(s, n), "user-headers-malformed", "user headers are not Iggy TLV (" .. why .. "); shown raw")
    return
  end
  for i = 1, #e, 2 do
    local k, v = e[i], e[i + 1]
    local kr, vr = tvb(k.at + 5, k.len), tvb(v.at + 5, v.len)
    local kt, vt = tlv_text(k.kind, kr), tlv_text(v.kind, vr)
    local h = tree:add(F["iggy.user_header"], tvb(k.at, v.at + 5 + v.len - k.at))
    h:append_text(": " .. kt .. " = " .. vt)
    h:add(F["iggy.user_header.key_kind"], tvb(k.at, 1))
    h:add(F["iggy.user_header.key"], kr, kt)
    h:add(F["iggy.user_header.value_kind"], tvb(v.at, 1))
    h:add(F["iggy.user_header.value"], vr, vt)
  end
end

-- One batch at p, inside [p, stop): header, frames, checks. Returns its summary, or nil when the
-- walk cannot step past it. opts.poll: a poll reply record (stamped tails keep their deltas).
local function dissect_batch(tvb, p, stop, tree, index, opts)
  local bt = tree:add(F["iggy.batch"], tvb(p, stop - p))
  bt:append_text(" " .. index)
  if stop - p < BATCH_HEADER then
    flag(bt, tvb(p, stop - p), "header-truncated", (stop - p) .. " bytes where a batch header needs " .. BATCH_HEADER)
    return nil
  end
  local h = add_layout(bt, tvb, p, LAYOUT.batch, stop)
  local blen = h.batch_length:tonumber()
  if blen < BATCH_HEADER then
    flag(bt, tvb(p + LAYOUT.batch.batch_length.o, 8), "batch-length-too-small", "batch_length " .. blen .. " < " .. BATCH_HEADER)
    bt:set_len(BATCH_HEADER)
    return nil
  end
  local bend = p + blen
  if bend > stop then
    -- In UInt64: past 2^53 a double no longer holds batch_length, or how far it runs, exactly.
    flag(bt, tvb(p + LAYOUT.batch.batch_length.o, 8), "batch-truncated", "batch_length " .. tostring(h.batch_length) .. " runs " .. tostring(h.batch_length - (stop - p)) .. " bytes past the end")
    bend = stop
  end
  bt:set_len(bend - p)
  local stamped = h.base_timestamp:tonumber() ~= 0
  local verify = iggy.prefs.verify
  local fp, k, sums, zero_delta, base_delta = p + BATCH_HEADER, 0, {}, false, 0
  local FL = LAYOUT.frame
  while fp < bend do
    if bend - fp < FRAME_HEADER then
      flag(bt, tvb(fp, bend - fp), "frame-truncated", "frame " .. k .. ": " .. (bend - fp) .. " bytes where a frame header needs " .. FRAME_HEADER)
      break
    end
    local ulen, plen = tvb(fp + FL.user_headers_length.o, 4):le_uint(), tvb(fp + FL.payload_length.o, 4):le_uint()
    local fend = fp + FRAME_HEADER + plen + ulen
    local ft = bt:add(F["iggy.frame"], tvb(fp, math.min(fend, bend) - fp))
    ft:append_text(" " .. k)
    local fh = add_layout(ft, tvb, fp, FL, bend)
    if fend > bend then
      flag(ft, tvb(fp + FL.payload_length.o, 4), "frame-truncated", "frame " .. k .. " needs " .. (fend - fp) .. " bytes, " .. (bend - fp) .. " remain")
      break
    end
    if plen > 0 then ft:add(F["iggy.frame.payload"], tvb(fp + FRAME_HEADER, plen)) end
    if ulen > 0 then add_user_headers(ft, tvb, fp + FRAME_HEADER + plen, ulen) end
    if verify then
      local c = xxh3_64(tvb:raw(fp + FRAME_SUM_FROM, fend - fp - FRAME_SUM_FROM))
      local r = tvb(fp + FL.checksum.o, FL.checksum.s)
      ft:add(F[FL.checksum.computed], r, c)
      if c ~= fh.checksum then
        flag(ft, r, "frame-checksum-mismatch", "frame " .. k .. ": stored checksum " .. hex(fh.checksum) .. " != computed " .. hex(c))
        ft:append_text(" [checksum mismatch]")
      end
    end
    sums[#sums + 1] = tvb:raw(fp + FL.checksum.o, FL.checksum.s)
    if k == 0 and stamped then base_delta = fh.offset_delta end
    if fh.offset_delta ~= base_delta + k then
      flag(ft, tvb(fp + FL.offset_delta.o, 4), "offset-delta-not-index", "frame " .. k .. ": offset_delta " .. fh.offset_delta .. ", expected " .. (base_delta + k))
    end
    if fh.timestamp_delta == 0 then zero_delta = true end
    k, fp = k + 1, fend
  end
  local BL = LAYOUT.batch
  local function at(name) return tvb(p + BL[name].o, BL[name].s) end
  if k ~= h.message_count then flag(bt, at("message_count"), "message-count-mismatch", "message_count " .. h.message_count .. ", " .. k .. " complete frames walked") end
  if h.message_count == 0 and blen == BATCH_HEADER then flag(bt, at("message_count"), "empty-batch", "no messages; the server refuses to admit an empty batch") end
  if k > 0 and not zero_delta and not (opts.poll and stamped) then
    flag(bt, at("origin_timestamp"), "origin-not-earliest", "no frame has timestamp_delta 0, so origin_timestamp is not the earliest")
  end
  if verify and bend - p >= BATCH_HEADER then
    local parts = {}
    for _, s in ipairs(BATCH_SUM_SPANS) do parts[#parts + 1] = tvb:raw(p + s[1], s[2]) end
    local c = xxh3_64(table.concat(parts) .. table.concat(sums))
    bt:add(F[BL.batch_checksum.computed], at("batch_checksum"), c)
    if c ~= h.batch_checksum then
      flag(bt, at("batch_checksum"), "batch-checksum-mismatch", "stored batch_checksum " .. hex(h.batch_checksum) .. " != computed " .. hex(c))
    end
  end
  bt:append_text(": " .. h.message_count .. " msgs, " .. blen .. " bytes" .. (stamped and ", stamped" or ""))
  local first = h.base_offset + (k > 0 and base_delta or 0)
  return { header = h, frames = k, stop = bend, start = p, stamped = stamped, first = first, last = first + math.max(k - 1, 0), at = at }
end
`;
}
