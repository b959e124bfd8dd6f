/**
 * The dissector's view of TCP in Lua: per stream and direction, where messages start when Wireshark
 * cannot reassemble (a snap length cut the packet, a segment was never captured), and the capture codes
 * a dissector can see: a truncated packet, a hole Wireshark's TCP analysis found, a retransmission whose
 * bytes differ from the first copy, a message the capture ends inside. What it cannot see is in
 * CAPTURE_CODES_NOT_SEEN, said in the README and the generated file.
 */
import { fieldByName } from "../../format/fields.ts";
import { CONSENSUS_COMMON_FIELDS } from "../../format/containers/consensus.ts";

/** The capture codes (captures.md "Diagnostics") the dissector raises. */
export const TCP_CODES = ["capture-packet-truncated", "tcp-gap", "tcp-retransmission-differs", "message-incomplete"] as const;

/** Bytes of each direction's recent segments kept to compare a retransmission with its first copy. */
export const RETRANSMISSION_WINDOW = 4 * 1024 * 1024;

/** Per-message capture codes the dissector cannot raise, and why (the README and the generated file say so). */
export const CAPTURE_CODES_NOT_SEEN: Readonly<Record<string, string>> = {
  "tcp-gap":
    "raised where Wireshark's TCP analysis finds a hole (tcp.analysis.lost_segment) or a snap length cut a packet; bytes before the first captured segment of a connection that began before the capture are unknown to Wireshark, so that gap is not raised",
  "tcp-retransmission-differs": `compared with the first copy while it is among the last ${RETRANSMISSION_WINDOW / 1024 / 1024} MiB of its direction, and only where Wireshark builds a tree on the pass that first reads the packet`,
  "message-incomplete":
    "needs a second pass (Wireshark's packet details and Expert Info, `tshark -2 -R frame`): a dissector learns that the capture ended only after the last packet",
};

/** The Lua of the TCP bookkeeping and the postdissector; expects iggy, flag, EXPERT, CMD and the sizes declared before it. */
export function tcpLua(): string {
  const reserved = fieldByName(CONSENSUS_COMMON_FIELDS, "reserved_frame");
  return `-- TCP (lua-tcp.ts)
-- Wireshark's TCP facts reach a dissector only where it builds a tree for the pass that reads the
-- packet: Wireshark, tshark with -V, -Y, -T fields or -O, and the first pass of tshark -2 with -R frame.
local f_lost, f_seq, f_payload = Field.new("tcp.analysis.lost_segment"), Field.new("tcp.seq"), Field.new("tcp.payload")
local f_retrans = { Field.new("tcp.analysis.retransmission"), Field.new("tcp.analysis.fast_retransmission"), Field.new("tcp.analysis.spurious_retransmission") }
local RESERVED_FROM, RESERVED_TO, WINDOW = ${reserved.offset}, ${reserved.offset + reserved.size}, ${RETRANSMISSION_WINDOW}
local streams, requests, replies, cuts, opened, differs = {}, {}, {}, {}, {}, {}
local CMD_NAME = {}
for name, n in pairs(CMD) do CMD_NAME[n] = name:gsub("_", "-") end
local SINK = setmetatable({}, { __index = function() return function() end end }) -- a tree that keeps nothing

local function stream_of(pinfo)
  local s = f_stream()
  local id = s and s.value or -1
  local st = streams[id]
  if not st then st = { pending = {}, head = 1, tail = 0, dirs = {} } streams[id] = st end
  return st
end

-- One direction (by source port): mode "cut" (at or inside a message), "lost" (a size out of range: the
-- stream cannot be cut until a hole), "resync" (after a hole, looking for a header); rest: bytes still to
-- come of a message Wireshark could not reassemble; open: the message begun whose end is not yet seen.
local function direction(st, pinfo)
  local d = st.dirs[pinfo.src_port]
  if not d then d = { mode = "cut", rest = 0, ring = {}, kept = 0 } st.dirs[pinfo.src_port] = d end
  return d
end

-- A consensus header the side may send at p, whole in the captured bytes s (as the explorer resyncs).
local function plausible(s, p, from_client)
  if p + HEADER > #s then return false end
  local b1, b2, b3, b4 = s:byte(p + SIZE_AT + 1, p + SIZE_AT + 4)
  local size = b1 + b2 * 256 + b3 * 65536 + b4 * 16777216
  if size < HEADER or size > MAX_SIZE then return false end
  local cmd = s:byte(p + COMMAND_AT + 1)
  if from_client then
    if cmd ~= CMD.request then return false end
  elseif cmd ~= CMD.reply and cmd ~= CMD.eviction then return false end
  return not s:sub(p + RESERVED_FROM + 1, p + RESERVED_TO):find("[^\\0]")
end

-- Where messages start in this tvb, decided the first time it is seen (later passes reuse it): after
-- the rest of a message not reassembled, at the next plausible header after a hole, nowhere in a
-- stream that cannot be cut. Returns the cut ({ at, why }) and whether it was made now.
local function cut_of(tvb, pinfo, st, d, from_client)
  local n, rn = tvb:len(), tvb:reported_len()
  local key = pinfo.number .. ":" .. n .. ":" .. rn
  local cut = cuts[key]
  if cut then return cut, false end
  cut = { at = 0 }
  if f_lost() then d.mode, d.rest, d.open = "resync", 0, nil end
  if d.rest == 0 then d.prev, d.open = d.open, nil end
  if d.rest > 0 then
    cut.at = math.min(d.rest, rn)
    cut.why = "continuation of a message Wireshark could not reassemble"
    d.rest = d.rest - cut.at
    if d.rest == 0 then d.prev, d.open = d.open, nil end
  end
  if cut.at < rn and d.mode == "lost" then
    cut.at, cut.why = rn, "not cut: an earlier size of this direction was out of range"
  elseif cut.at < rn and d.mode == "resync" then
    local s, found = tvb:raw(0, n), nil
    for p = cut.at, n - HEADER do
      if plausible(s, p, from_client) then found = p break end
    end
    if found then cut.at, d.mode = found, "cut" else cut.at = rn end
    if cut.at > 0 then cut.why = "bytes after a hole in the stream, before the next plausible header" end
  end
  cuts[key] = cut
  return cut, true
end

-- A retransmitted segment whose bytes differ from the first copy still in its direction's window.
local function retransmission_differs(d, seq, data)
  for _, e in ipairs(d.ring) do
    local from, to = math.max(seq, e.seq), math.min(seq + #data, e.seq + #e.data)
    if from < to and data:sub(from - seq + 1, to - seq) ~= e.data:sub(from - e.seq + 1, to - e.seq) then return to - from end
  end
  return nil
end
local function remember(d, seq, data)
  table.insert(d.ring, { seq = seq, data = data })
  d.kept = d.kept + #data
  while d.kept > WINDOW and #d.ring > 1 do d.kept = d.kept - #table.remove(d.ring, 1).data end
end

-- After every dissector: the capture codes of a packet of an Iggy stream that the Iggy dissector may
-- never be called on (TCP holds the segments of a message it reassembles).
local post = Proto("iggy_capture", "Apache Iggy capture checks")
function post.dissector(tvb, pinfo, tree)
  local s = f_stream()
  local st = s and streams[s.value]
  if not st then return end
  local d, items = st.dirs[pinfo.src_port], {}
  local function item()
    items[1] = items[1] or tree:add(iggy)
    return items[1]
  end
  if f_lost() then item():add_proto_expert_info(EXPERT["tcp-gap"], "a segment before this one was never captured (tcp.analysis.lost_segment)") end
  local payload = f_payload()
  if d and payload and differs[pinfo.number] == nil then
    local seq, data, again = f_seq().value, payload.range:raw(), false
    for _, f in ipairs(f_retrans) do if f() then again = true end end
    differs[pinfo.number] = again and retransmission_differs(d, seq, data) or false
    remember(d, seq, data)
  end
  if differs[pinfo.number] then
    item():add_proto_expert_info(EXPERT["tcp-retransmission-differs"], "this retransmission carries " .. differs[pinfo.number] .. " bytes that differ from the first copy (the first copy is what Wireshark reassembled)")
  end
  local o = opened[pinfo.number]
  if pinfo.visited and o and o.open and o.open.frame == pinfo.number then
    local size = o.open.size and (o.open.size .. " bytes long") or "before its size was seen"
    item():add_proto_expert_info(EXPERT["message-incomplete"], "the capture ends inside the message that begins in this packet, " .. size)
  end
end
register_postdissector(post)
`;
}
