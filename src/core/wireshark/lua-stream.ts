/**
 * The dissector's stream handling in Lua: one message's header and body by command, pairing a reply
 * with the oldest unanswered request of its TCP stream (frame links, latency), the Info column, the
 * cutting of a segment into messages with reassembly, and the registrations.
 */
import { TLS_RECORD } from "../containers/capture/encrypted.ts";

/** Every code this part raises (with ENGINE_CODES and MESSAGE_CODES, all the dissector's experts). */
export const STREAM_CODES = [
  "message-command-unexpected",
  "consensus-checksum-mismatch",
  "reply-unmatched",
  "reply-status",
  "message-size-invalid",
  "connection-encrypted",
] as const;

/** The Lua of the per-message and per-segment dissection and the registrations. */
export function streamLua(): string {
  return `-- streams (lua-stream.ts)
local function seconds(d) local s = math.floor(d) return NSTime.new(s, math.floor((d - s) * 1e9 + 0.5)) end

-- One message at off; a message whose bytes were not all captured (a snap length) shows the header
-- fields it has, and the body is not decoded.
-- A request seen whole or waiting for its body: the record a reply pairs with (and links to).
local function new_request(st, pinfo, rec)
  st.tail = st.tail + 1
  st.pending[st.tail] = rec
  return rec
end
local function request_record(tvb, off, pinfo, r, what)
  return { frame = pinfo.number, ts = pinfo.abs_ts, op = r.operation, legacy = r.legacy_operation, request = r.request, what = what }
end

-- reuse: the message this direction began in an earlier packet (d.prev): when this is it, reassembled, its
-- request was recorded then (so a hole that stops the reassembly still leaves a request to pair with).
local function dissect_message(tvb, off, size, pinfo, mt, reuse)
  local whole = off + size <= tvb:len()
  local ht = mt:add(F["iggy.header"], tvb(off, math.min(HEADER, tvb:len() - off)))
  local stop = math.min(off + size, tvb:len())
  local h = add_layout(ht, tvb, off, LAYOUT.header, stop)
  local cmd, key, st = h.command, pinfo.number .. ":" .. off, stream_of(pinfo)
  local body = off + HEADER
  -- the client is the side that sends requests (or, first seen, talks to the server port)
  if not st.client_port then
    if cmd == CMD.request or pinfo.dst_port == iggy.prefs.port then st.client_port = pinfo.src_port
    elseif cmd == CMD.reply or cmd == CMD.eviction then st.client_port = pinfo.dst_port end
  end
  local from_client = pinfo.src_port == st.client_port
  if (from_client and cmd ~= CMD.request) or (not from_client and cmd ~= CMD.reply and cmd ~= CMD.eviction) then
    local c = LAYOUT.header.command
    flag(ht, tvb(off + c.o, c.s), "message-command-unexpected", "command " .. cmd .. " from the " .. (from_client and "client" or "server"))
  end
  if not whole then
    local captured = (stop - off) .. " of " .. size .. " bytes captured"
    ht:append_text(" (" .. captured .. ")")
    if cmd == CMD.request and not pinfo.visited and not requests[key] then
      requests[key] = new_request(st, pinfo, { frame = pinfo.number, ts = pinfo.abs_ts, what = "request (" .. captured .. ")" })
    end
    return (CMD_NAME[cmd] or ("command " .. cmd)) .. " (" .. captured .. ")"
  end
  if iggy.prefs.verify then
    local sum, sum_body = LAYOUT.header.checksum, LAYOUT.header.checksum_body
    for _, c in ipairs({ { sum, off + sum.o + sum.s, HEADER - sum.o - sum.s }, { sum_body, body, size - HEADER } }) do
      local f, r = c[1], tvb(off + c[1].o, c[1].s)
      if r:raw():find("[^\\0]") then
        local computed = xxh3_64(c[3] > 0 and tvb:raw(c[2], c[3]) or "")
        local lo, hi = r(0, 8):le_uint64(), r(8, 8):le_uint64()
        if lo ~= computed or hi:tonumber() ~= 0 then
          flag(ht, r, "consensus-checksum-mismatch", f.name .. " " .. hex(hi) .. hex(lo):sub(3) .. " != computed " .. hex(computed))
        end
      end
    end
  end
  if cmd == CMD.request then
    local r = add_layout(ht, tvb, off, LAYOUT.request, stop)
    local what = op_text(r.operation, r.legacy_operation)
    ht:append_text(": request, " .. what)
    if not pinfo.visited and not requests[key] then
      local early = reuse and reuse.rec and reuse.head == tvb:raw(off, HEADER) and reuse.rec
      if early then early.frame = pinfo.number end
      requests[key] = early or new_request(st, pinfo, request_record(tvb, off, pinfo, r, what))
    end
    local rec = requests[key]
    if rec and rec.reply then mt:add(F["iggy.response_in"], rec.reply):set_generated() end
    if r.operation == OP_SEND then return dissect_send(tvb, body, stop, mt) end
    if r.operation == OP_LEGACY and r.legacy_operation == LEGACY_POLL then return dissect_poll_request(tvb, body, stop, mt) end
    if r.operation == OP_REGISTER and size > HEADER then return dissect_login(tvb, body, stop, mt) end
    if size > HEADER then mt:add(F["iggy.body"], tvb(body, size - HEADER)) end
    return what
  elseif cmd == CMD.reply then
    local r = add_layout(ht, tvb, off, LAYOUT.reply, stop)
    if not pinfo.visited and replies[key] == nil then
      -- The request with this reply's request number and operation (the newest of several: SDKs keep
      -- one in flight, so older ones lost their replies to the capture), else the oldest unanswered.
      local at = st.head
      for i = st.tail, st.head, -1 do
        local q = st.pending[i]
        if q and q.op == r.operation and q.request == r.request then at = i break end
      end
      local rec = st.pending[at]
      if rec then
        st.pending[at] = nil
        rec.reply = pinfo.number
        while st.head <= st.tail and not st.pending[st.head] do st.head = st.head + 1 end
      end
      replies[key] = rec and { req = rec, latency = pinfo.abs_ts - rec.ts } or false
    end
    local link = replies[key]
    local req = link and link.req
    if link then
      mt:add(F["iggy.response_to"], req.frame):set_generated()
      mt:add(F["iggy.time"], seconds(link.latency)):set_generated()
    else
      flag(ht, tvb(off, HEADER), "reply-unmatched", "a reply with no request waiting on its connection")
    end
    local what = req and req.what or op_text(r.operation, 0)
    ht:append_text(": reply to " .. what)
    if r.status ~= 0 then
      local rs = LAYOUT.reply.status
      local name = IGGY_ERRORS[r.status] or "unknown IggyError"
      flag(ht, tvb(off + rs.o, rs.s), "reply-status", "status " .. r.status .. " (" .. name .. ")")
      if size > HEADER then mt:add(F["iggy.body"], tvb(body, size - HEADER)) end
      return "Reply status " .. r.status .. " (" .. name .. ")"
    end
    if req and req.op == OP_LEGACY and req.legacy == LEGACY_POLL and size > HEADER then return dissect_poll_reply(tvb, body, stop, mt) end
    if (req and req.op or r.operation) == OP_SEND then return dissect_confirmations(tvb, body, stop, mt) end
    if size > HEADER then mt:add(F["iggy.body"], tvb(body, size - HEADER)) end
    return "Reply to " .. what
  elseif cmd == CMD.prepare then
    local r = add_layout(ht, tvb, off, LAYOUT.prepare, stop)
    local batches = dissect_batches(tvb, body, stop, mt, {}, 1)
    local b = batches[1]
    if b and b.header.base_timestamp ~= r.timestamp then
      flag(mt, b.at("base_timestamp"), "prepare-timestamp-mismatch", "base_timestamp " .. tostring(b.header.base_timestamp) .. ", the prepare says " .. tostring(r.timestamp))
    end
    return "Prepare op " .. tostring(r.op) .. (b and (", " .. msgs(b.header.message_count)) or "")
  end
  if cmd == CMD.eviction then
    local e = add_layout(ht, tvb, off, LAYOUT.eviction, stop)
    ht:append_text(": eviction")
    if size > HEADER then mt:add(F["iggy.body"], tvb(body, size - HEADER)) end
    return "Eviction: reason " .. tostring(e.reason) .. " (" .. (EVICTION_REASONS[e.reason] or "unknown") .. ")"
  end
  if cmd == CMD.prepare_ok then
    local r = add_layout(ht, tvb, off, LAYOUT.prepare_ok, stop)
    ht:append_text(": prepare-ok")
    if size > HEADER then mt:add(F["iggy.body"], tvb(body, size - HEADER)) end
    return "PrepareOk op " .. tostring(r.op)
  end
  if size > HEADER then mt:add(F["iggy.body"], tvb(body, size - HEADER)) end
  return "Command " .. cmd
end

-- Iggy over TLS on the server's port (connection-encrypted, encrypted.ts): the stream's first bytes are a
-- TLS record header; Wireshark's own TLS dissector shows the records.
local TLS_DISSECTOR = select(2, pcall(Dissector.get, "tls"))
local function tls_record(tvb)
  if tvb:len() < 5 then return false end
  local t, major, minor, len = tvb(0, 1):uint(), tvb(1, 1):uint(), tvb(2, 1):uint(), tvb(3, 2):uint()
  return t >= ${TLS_RECORD.firstType} and t <= ${TLS_RECORD.lastType} and major == ${TLS_RECORD.major} and minor <= ${TLS_RECORD.lastMinor} and len > 0 and len <= ${TLS_RECORD.maxLength}
end

function iggy.dissector(tvb, pinfo, tree)
  local n, rn, infos = tvb:len(), tvb:reported_len(), {}
  local st = stream_of(pinfo)
  if st.tls == nil then st.tls, st.tls_frame = tls_record(tvb), pinfo.number end
  if st.tls then
    if type(TLS_DISSECTOR) == "userdata" then TLS_DISSECTOR:call(tvb, pinfo, tree) end
    if pinfo.number == st.tls_frame then
      local t = tree:add(iggy, tvb(0, 5))
      t:append_text(": TLS, encrypted")
      flag(t, tvb(0, 5), "connection-encrypted", "this Iggy connection is TLS: its stream starts with a TLS record, so none of its messages can be read")
    end
    return n
  end
  local d = direction(st, pinfo)
  local from_client = st.client_port and pinfo.src_port == st.client_port or (not st.client_port and pinfo.dst_port == iggy.prefs.port)
  local cut, fresh = cut_of(tvb, pinfo, st, d, from_client)
  local reuse = fresh and d.prev
  local function open(size, off)
    if not fresh then return end
    d.open, opened[pinfo.number] = { frame = pinfo.number, size = size }, d
    -- a request whose header is here: recorded now, so its reply pairs with it even if a hole stops the reassembly
    if off and n - off >= HEADER and from_client and tvb(off + COMMAND_AT, 1):uint() == CMD.request then
      local r = add_layout(SINK, tvb, off, LAYOUT.request, n)
      d.open.head = tvb:raw(off, HEADER)
      d.open.rec = new_request(st, pinfo, request_record(tvb, off, pinfo, r, op_text(r.operation, r.legacy_operation)))
    end
  end
  if n < rn then
    -- a snap length cut this packet: Wireshark cannot reassemble it, the cutting goes on by lengths
    local t = n > 0 and tree:add(iggy, tvb(0, n)) or tree:add(iggy)
    t:append_text(": packet cut by the snap length")
    t:add_proto_expert_info(EXPERT["capture-packet-truncated"], "this packet was captured " .. (rn - n) .. " bytes short of its TCP payload (snap length)")
    t:add_proto_expert_info(EXPERT["tcp-gap"], "the last " .. (rn - n) .. " bytes of this segment were never captured")
    infos[#infos + 1] = (rn - n) .. " bytes not captured"
  end
  if cut.at > 0 then
    local t = tree:add(iggy, tvb(0, math.min(cut.at, n)))
    t:append_text(": " .. cut.why .. " (" .. cut.at .. " bytes)")
    infos[#infos + 1] = cut.why
  end
  local off = cut.at
  while off < rn and off < n do
    if n - off < SIZE_AT + 4 then
      if n < rn then -- its size was never captured: where the next message starts is unknown
        local t = tree:add(iggy, tvb(off, n - off))
        t:add_proto_expert_info(EXPERT["message-incomplete"], "a message begins here whose size was never captured")
        if fresh then d.mode = "resync" end
        break
      end
      pinfo.desegment_offset, pinfo.desegment_len = off, DESEGMENT_ONE_MORE_SEGMENT
      open(nil)
      break
    end
    local size = tvb(off + SIZE_AT, 4):le_uint()
    if size < HEADER or size > MAX_SIZE then
      local t = tree:add(iggy, tvb(off, n - off))
      flag(t, tvb(off + SIZE_AT, 4), "message-size-invalid", "size " .. size .. " is not 256..64 MiB: the stream cannot be cut further")
      infos[#infos + 1] = "invalid size " .. size
      if fresh then d.mode = "lost" end
      break
    end
    if rn - off < size and n == rn then
      pinfo.desegment_offset, pinfo.desegment_len = off, size - (n - off)
      open(size, off)
      break
    end
    local t = tree:add(iggy, tvb(off, math.min(size, n - off)))
    local info = dissect_message(tvb, off, size, pinfo, t, off == cut.at and reuse or nil)
    t:append_text(": " .. info)
    infos[#infos + 1] = info
    if rn - off < size then -- cut by the snap length and running into the next packets
      if fresh then d.rest = size - (rn - off) end
      open(size)
    end
    off = off + size
  end
  if #infos > 0 then
    pinfo.cols.protocol = "Iggy"
    pinfo.cols.info:set(table.concat(infos, "; "))
  end
  return rn
end

local tcp_port, port = DissectorTable.get("tcp.port"), iggy.prefs.port
tcp_port:add(port, iggy)
function iggy.prefs_changed()
  if port ~= iggy.prefs.port then
    tcp_port:remove(port, iggy)
    port = iggy.prefs.port
    tcp_port:add(port, iggy)
  end
end

-- A TCP payload that starts with a consensus header whose size and command check out (captures.md).
local function heuristic(tvb, pinfo, tree)
  local n = tvb:len()
  if n <= COMMAND_AT then return false end
  local size, cmd = tvb(SIZE_AT, 4):le_uint(), tvb(COMMAND_AT, 1):uint()
  if size < HEADER or size > MAX_SIZE then return false end
  if cmd ~= CMD.request and cmd ~= CMD.reply and cmd ~= CMD.eviction then return false end
  for _, f in ipairs(LAYOUT.header) do -- reserved bytes are zero (those the first segment holds)
    if f.role == "reserved" and f.o + f.s <= n and tvb(f.o, f.s):raw():find("[^\\0]") then return false end
  end
  pinfo.conversation = iggy
  iggy.dissector(tvb, pinfo, tree)
  return true
end
iggy:register_heuristic("tcp", heuristic)
`;
}
