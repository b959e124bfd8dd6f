/**
 * The dissector's messages in Lua: bodies by command and operation (SendMessages, poll reply,
 * prepare), request/reply pairing per TCP stream, the Info column, the TCP cutting with
 * reassembly, and the registrations (port preference, heuristic). Runs after lua-engine.ts.
 */
import { IDENTIFIER_KIND_NAMES, PARTITIONING_KIND_NAMES } from "../../format/containers/send-messages.ts";
import { CONFIRMATION_SIZE, EVICTION_REASON_NAMES, OPERATION_NAME_OF, POLLING_STRATEGY_NAMES, SECRET_MASK } from "../../format/containers/protocol.ts";
import { luaNumberMap, luaString } from "./lua-text.ts";

/** Every code this part raises (the engine's are in ENGINE_CODES). */
export const MESSAGE_CODES = [
  "send-metadata-invalid",
  "send-count-mismatch",
  "send-batch-not-at-end",
  "send-producer-fields-set",
  "poll-count-mismatch",
  "poll-partition-mismatch",
  "prepare-timestamp-mismatch",
  "login-in-clear",
] as const;

/** The Lua of message dissection and registration. */
export function messagesLua(): string {
  return `-- messages (lua-messages.ts)
local OP_NAMES, ID_KINDS, PART_KINDS = ${luaNumberMap(OPERATION_NAME_OF)}, ${luaNumberMap(IDENTIFIER_KIND_NAMES)}, ${luaNumberMap(PARTITIONING_KIND_NAMES)}
local STRATEGIES, EVICTION_REASONS = ${luaNumberMap(POLLING_STRATEGY_NAMES)}, ${luaNumberMap(EVICTION_REASON_NAMES)}
local MASK, CONFIRM_SIZE = ${luaString(SECRET_MASK)}, ${CONFIRMATION_SIZE}
local ID_WIDTH = { [1] = { 4, 4 }, [2] = { 1, 255 } }
local PART_WIDTH = { [1] = { 0, 0 }, [2] = { 4, 4 }, [3] = { 1, 255 } }
local function kib(n) if n < 1024 then return n .. " B" end return string.format("%.0f KiB", n / 1024) end
local function msgs(n) return n .. (n == 1 and " msg" or " msgs") end

local function dissect_batches(tvb, p, stop, tree, opts, max)
  local out = {}
  while p < stop and (not max or #out < max) do
    local b = dissect_batch(tvb, p, stop, tree, #out, opts)
    if not b then break end
    out[#out + 1] = b
    p = b.stop
  end
  return out, p
end

-- SendMessages: metadata as upstream's SendMessagesMetadata::decode, then one producer batch
local function dissect_send(tvb, base, stop, tree)
  local st = tree:add(F["iggy.send"], tvb(base, stop - base))
  local function bad(r, text) flag(st, r, "send-metadata-invalid", text) return "SendMessages (metadata invalid)" end
  if stop - base < 4 then return bad(tvb(base, stop - base), "metadata_length needs 4 bytes, " .. (stop - base) .. " are there") end
  local m = add_layout(st, tvb, base, LAYOUT.send_metadata, stop)
  local bstart = base + 4 + m.metadata_length
  if bstart > stop then return bad(tvb(base, 4), "metadata_length " .. m.metadata_length .. " runs past the end of the body") end
  local p, said = base + 4, {}
  for _, part in ipairs({ { "stream_id", LAYOUT.send_identifier, ID_KINDS, ID_WIDTH }, { "topic_id", LAYOUT.send_identifier, ID_KINDS, ID_WIDTH }, { "partitioning", LAYOUT.send_partitioning, PART_KINDS, PART_WIDTH } }) do
    local label, layout, names, width = part[1], part[2], part[3], part[4]
    if bstart - p < 2 then return bad(tvb(p, math.max(bstart - p, 0)), label .. " needs a kind and a length byte") end
    local kind, len = tvb(p, 1):uint(), tvb(p + 1, 1):uint()
    local sub = st:add(tvb(p, math.min(2 + len, bstart - p)), label)
    add_layout(sub, tvb, p, layout, bstart)
    local w = width[kind]
    if not w then return bad(tvb(p, 1), label .. " has kind " .. kind) end
    if len < w[1] or len > w[2] then return bad(tvb(p + 1, 1), label .. " of kind " .. kind .. " has length " .. len) end
    if p + 2 + len > bstart then return bad(tvb(p + 2, bstart - p - 2), label .. "'s value runs past metadata_length") end
    local text = len == 4 and kind == (label == "partitioning" and 2 or 1) and tostring(tvb(p + 2, 4):le_uint())
      or (label ~= "partitioning" and tvb(p + 2, len):string(ENC_UTF_8)) or (len > 0 and "key " .. tvb(p + 2, len):bytes():tohex(true)) or names[kind]
    sub:append_text(": " .. text)
    said[label] = text
    p = p + 2 + len
  end
  if bstart - p ~= 4 then return bad(tvb(p, math.max(bstart - p, 0)), "messages_count needs exactly the 4 bytes left of metadata_length, " .. (bstart - p) .. " are left") end
  local c = add_layout(st, tvb, p, LAYOUT.send_count, bstart)
  local batches, after = dissect_batches(tvb, bstart, stop, st, {}, 1)
  local b = batches[1]
  if after ~= stop then flag(st, tvb(after, stop - after), "send-batch-not-at-end", "the batch ends " .. (stop - after) .. " bytes before the body") end
  if b then
    if c.messages_count ~= b.header.message_count or c.messages_count == 0 then
      flag(st, tvb(p, 4), "send-count-mismatch", "messages_count " .. c.messages_count .. ", the batch's message_count " .. b.header.message_count)
    end
    for _, name in ipairs({ "partition_id", "base_offset", "base_timestamp" }) do
      if b.header[name]:tonumber() ~= 0 then flag(st, b.at(name), "send-producer-fields-set", name .. " is " .. tostring(b.header[name]) .. " in a SendMessages batch") end
    end
  end
  return "SendMessages " .. msgs(c.messages_count) .. ", " .. kib(stop - bstart) .. " \\226\\134\\146 stream " .. said.stream_id .. " topic " .. said.topic_id .. " partition " .. said.partitioning
end

local function dissect_poll_reply(tvb, base, stop, tree)
  local pt = tree:add(F["iggy.poll"], tvb(base, stop - base))
  local v = add_layout(pt, tvb, base, LAYOUT.poll_prefix, stop)
  if stop - base < POLL_PREFIX then
    flag(pt, tvb(base, stop - base), "poll-count-mismatch", "the poll reply prefix needs " .. POLL_PREFIX .. " bytes, " .. (stop - base) .. " are there")
    return "Reply to PollMessages (cut prefix)"
  end
  local batches = dissect_batches(tvb, base + POLL_PREFIX, stop, pt, { poll = true })
  local sum, first, last = 0, nil, nil
  for _, b in ipairs(batches) do
    sum = sum + b.header.message_count
    if b.header.partition_id:tonumber() ~= v.partition_id then flag(pt, b.at("partition_id"), "poll-partition-mismatch", "partition_id " .. tostring(b.header.partition_id) .. ", the prefix says " .. v.partition_id) end
    if b.frames > 0 then first = first or b.first last = b.last end
  end
  local sentinel = stop - base == POLL_PREFIX and v.partition_id == POLL_SENTINEL
  if not sentinel and sum ~= v.count then flag(pt, tvb(base + LAYOUT.poll_prefix.count.o, 4), "poll-count-mismatch", "count " .. v.count .. ", the records hold " .. sum) end
  return "Reply to PollMessages: " .. msgs(v.count) .. (first and (", offsets " .. tostring(first) .. ".." .. tostring(last)) or "")
end

local function op_text(op, legacy)
  if op == OP_SEND then return "SendMessages" end
  if op == OP_REGISTER then return "Login" end
  if op == OP_LEGACY then
    if legacy == LEGACY_POLL then return "PollMessages" end
    return LEGACY_NAMES[legacy] or ("legacy code " .. legacy)
  end
  return OP_NAMES[op] or ("operation " .. op)
end

-- an identifier [kind u8][length u8][value] as text: a numeric id, else its UTF-8 name
local function identifier_text(tvb, p, kind, len)
  if kind == 1 and len == 4 then return tostring(tvb(p + 2, 4):le_uint()) end
  return len > 0 and tvb(p + 2, len):string(ENC_UTF_8) or ""
end

local function dissect_poll_request(tvb, base, stop, tree)
  local pt = tree:add(F["iggy.poll_request"], tvb(base, stop - base))
  add_layout(pt, tvb, base, LAYOUT.poll_request_consumer, stop)
  local p, said = base + 1, {}
  for _, label in ipairs({ "consumer", "stream_id", "topic_id" }) do
    if stop - p < 2 then return "PollMessages (cut)" end
    local kind, len = tvb(p, 1):uint(), tvb(p + 1, 1):uint()
    if p + 2 + len > stop then return "PollMessages (cut)" end
    local sub = pt:add(tvb(p, 2 + len), label)
    add_layout(sub, tvb, p, LAYOUT.poll_request_identifier, stop)
    said[label] = identifier_text(tvb, p, kind, len)
    sub:append_text(": " .. said[label])
    p = p + 2 + len
  end
  local v = add_layout(pt, tvb, p, LAYOUT.poll_request_tail, stop)
  if v._cut then return "PollMessages (cut)" end
  return "PollMessages stream " .. said.stream_id .. " topic " .. said.topic_id .. " partition " .. (v.partition_flag == 1 and v.partition_id or "any")
    .. ", " .. (STRATEGIES[v.strategy] or ("strategy " .. v.strategy)) .. " " .. tostring(v.value) .. ", count " .. v.count
end

-- A login: protocol version, SDK name and version, then a username and password, or a token, then
-- the context. The secret is shown only as the mask and its length.
local function dissect_login(tvb, base, stop, tree)
  local lt = tree:add(F["iggy.login"], tvb(base, stop - base))
  add_layout(lt, tvb, base, LAYOUT.login_version, stop)
  local p = base + 4
  local function name_len(q)
    if q >= stop then return nil end
    local n = tvb(q, 1):uint()
    return q + 1 + n <= stop and n or nil
  end
  local function name(label, q, n)
    local sub = lt:add(tvb(q, 1 + n), label)
    add_layout(sub, tvb, q, LAYOUT.login_name, stop)
    local text = n > 0 and tvb(q + 1, n):string(ENC_UTF_8) or ""
    sub:append_text(": " .. text)
    return text
  end
  for _, label in ipairs({ "sdk_name", "sdk_version" }) do
    local n = name_len(p)
    if not n then return "Login (cut)" end
    name(label, p, n)
    p = p + 1 + n
  end
  local a = name_len(p)
  if not a then return "Login (cut)" end
  local after = p + 1 + a
  local token = after + 4 <= stop and after + 4 + tvb(after, 4):le_uint() == stop
  local user
  if not token then
    user = name("username", p, a)
    p = after
  end
  local s = name_len(p)
  if not s then return "Login (cut)" end
  local what = token and "personal access token" or "password"
  local sub = lt:add(tvb(p, 1 + s), what)
  add_layout(sub, tvb, p, LAYOUT.login_secret, stop)
  sub:append_text(": " .. MASK .. " (" .. s .. " bytes)")
  flag(sub, tvb(p, 1 + s), "login-in-clear", "a " .. what .. " of " .. s .. " bytes over plain TCP (its bytes are never shown)")
  p = p + 1 + s
  if p < stop then add_layout(lt, tvb, p, LAYOUT.login_context, stop) end
  return "Login " .. (user and ("user " .. user) or "with a token") .. ", " .. what .. " " .. MASK .. " (" .. s .. " bytes)"
end

local function dissect_confirmations(tvb, base, stop, tree)
  if stop == base then return "Reply to SendMessages" end
  local ct = tree:add(F["iggy.confirm"], tvb(base, stop - base))
  local c = add_layout(ct, tvb, base, LAYOUT.confirm_count, stop)
  if c._cut then return "Reply to SendMessages (cut)" end
  local p, parts = base + 4, {}
  for i = 1, c.count do
    if p + CONFIRM_SIZE > stop then break end
    local sub = ct:add(tvb(p, CONFIRM_SIZE), "confirmation " .. (i - 1))
    local v = add_layout(sub, tvb, p, LAYOUT.confirm, stop)
    local text = "stream " .. v.stream_id .. " topic " .. v.topic_id .. " partition " .. v.partition_id .. " base_offset " .. tostring(v.base_offset)
    sub:append_text(": " .. text)
    parts[#parts + 1] = text
    p = p + CONFIRM_SIZE
  end
  return "Reply to SendMessages: " .. (#parts > 0 and table.concat(parts, "; ") or "no confirmation")
end
`;
}
