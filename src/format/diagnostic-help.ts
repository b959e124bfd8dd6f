/**
 * Why each stable code matters: the rule it checks, what Apache Iggy's server does with such bytes, the
 * likely causes, and the upstream source that decides it (paths in apache/iggy at cc269ef70, as the specs
 * in docs/spec/ cite them). A mapped type over DiagnosticCode: a code without help does not compile.
 */
import { CODE_SUMMARY, SEVERITY_OF, type DiagnosticCode } from "./diagnostics.ts";

/** The help of one code. */
export interface DiagnosticHelp {
  /** The rule, as the spec states it. */
  readonly rule: string;
  /** What the server does with input that breaks it. */
  readonly server: string;
  /** What usually produces it. */
  readonly causes: string;
  /** Upstream source path(s) in apache/iggy that decide it. */
  readonly upstream: string;
  /** The spec section (a file under docs/spec/) that defines it. */
  readonly spec: string;
}

const BATCH_RS = "core/binary_protocol/src/batch.rs";
const RECOVERY_RS = "core/server/src/segment_recovery.rs";
const SEND_RS = "core/server_common/src/send_messages.rs";
const INDEX_RS = "core/partitions/src/iggy_index.rs, core/partitions/src/iggy_index_reader.rs";
const HEADER_RS = "core/binary_protocol/src/consensus/header.rs";
const BATCH_SPEC = "docs/spec/batch-format.md";
const CONTAINER_SPEC = "docs/spec/containers.md";
const CAPTURE_SPEC = "docs/spec/captures.md";
const FRAMING_RS = "core/message_bus/src/framing.rs";

/** Help for every stable code. */
export const DIAGNOSTIC_HELP: { readonly [C in DiagnosticCode]: DiagnosticHelp } = {
  "header-truncated": {
    rule: "A batch header is 256 bytes; fewer remain where the next batch starts.",
    server: "The decoder returns UnexpectedEof; boot recovery treats these bytes as a torn tail and truncates them.",
    causes: "A crash or a full disk mid-append (a torn segment tail), a capture cut short, or a copy that lost its end.",
    upstream: `${BATCH_RS} (BatchHeader::decode), ${RECOVERY_RS}`,
    spec: BATCH_SPEC,
  },
  "batch-length-too-small": {
    rule: "batch_length counts the 256-byte header plus the blob, so it is at least 256.",
    server: "The decoder rejects the batch (Validation); nothing after it can be walked, and recovery stops there.",
    causes: "A header written over by other bytes, a wrong start offset (not a batch start), or an encoder bug.",
    upstream: `${BATCH_RS} (BatchHeader::decode, blob_len)`,
    spec: BATCH_SPEC,
  },
  "batch-truncated": {
    rule: "batch_length must fit in the bytes that remain.",
    server: "The decoder returns UnexpectedEof; boot recovery truncates the segment at this batch (torn tail).",
    causes: "A crash mid-append, a partial capture or download, or a batch_length field that was altered.",
    upstream: `${BATCH_RS} (decode_batch_slice_with), ${RECOVERY_RS}`,
    spec: BATCH_SPEC,
  },
  "batch-reserved-nonzero": {
    rule: "Header bytes 52..256 are reserved and must all be zero.",
    server: 'The decoder rejects the batch ("batch header reserved bytes must be zero"); admission refuses it, recovery stops at it.',
    causes: "A client built against a newer layout, memory not zeroed by a hand-written encoder, or a corrupted header.",
    upstream: `${BATCH_RS} (BatchHeader::decode)`,
    spec: BATCH_SPEC,
  },
  "frame-truncated": {
    rule: "A frame's 48-byte header, payload and user headers must lie inside the blob.",
    server: "The frame iterator cannot step over it and the frames do not tile message_count: the batch is rejected.",
    causes: "payload_length or user_headers_length altered, a blob cut short, or batch_length too small for the frames.",
    upstream: `${BATCH_RS} (validate_batch_layout, BatchIterator)`,
    spec: BATCH_SPEC,
  },
  "frame-reserved-nonzero": {
    rule: "Frame bytes 40..48 are reserved and must be zero.",
    server: 'The decoder rejects the frame ("message frame reserved bytes must be zero"), so the whole batch.',
    causes: "An encoder that leaves the reserved u64 unset, a newer client layout, or corruption inside the frame header.",
    upstream: `${BATCH_RS} (MessageFrame::decode)`,
    spec: BATCH_SPEC,
  },
  "frame-checksum-mismatch": {
    rule: "A frame's checksum is XXH3-64 (seed 0) of its bytes 8..end: the rest of its header, payload and user headers.",
    server: "The server verifies every frame checksum (InvalidMessageChecksum): admission refuses the batch and boot recovery's scan stops at it.",
    causes:
      "The frame's bytes changed after the producer hashed them (corruption on disk or in transit, an edit), or an encoder hashed other bytes (XXH64 instead of XXH3-64, a wrong range).",
    upstream: `${BATCH_RS} (verify_and_recompute_batch_checksum)`,
    spec: BATCH_SPEC,
  },
  "message-count-mismatch": {
    rule: "The frames walked through the blob must number exactly message_count.",
    server: "The decoder rejects the batch: its frames do not tile message_count (Validation).",
    causes: "A batch cut or joined by hand, message_count not updated after removing or adding frames, or a torn blob.",
    upstream: `${BATCH_RS} (validate_batch_layout)`,
    spec: BATCH_SPEC,
  },
  "batch-checksum-mismatch": {
    rule: "batch_checksum is XXH3-64 over partition_id, base_offset, base_timestamp, origin_timestamp, batch_length, message_count and the stored frame checksums.",
    server: "The server verifies it (InvalidBatchChecksum): admission refuses the batch and boot recovery's scan stops at it.",
    causes:
      "A header field changed without re-hashing (often a stamp: partition_id, base_offset or base_timestamp written but batch_checksum left as the producer's), a frame checksum replaced, or a wrong hash (XXH64).",
    upstream: `${BATCH_RS} (calculate_batch_checksum, decode_batch_slice_with)`,
    spec: BATCH_SPEC,
  },
  "empty-batch": {
    rule: "A batch with message_count 0 and no blob has a valid layout, but carries nothing.",
    server: "Admission refuses a SendMessages batch with no messages (InvalidCommand).",
    causes: "A producer flushing an empty buffer, or a test vector.",
    upstream: `${SEND_RS} (decode_batch_slice)`,
    spec: BATCH_SPEC,
  },
  "offset-delta-not-index": {
    rule: "A producer sends frame i with offset_delta i; a stamped batch steps by one from frame 0's offset_delta.",
    server: "Offsets are base_offset + offset_delta, so wrong deltas give messages wrong or repeated offsets.",
    causes: "An SDK that leaves offset_delta unset, frames reordered or removed by hand, or a poll record sliced without care.",
    upstream: `${BATCH_RS} (iter_with_offsets)`,
    spec: BATCH_SPEC,
  },
  "origin-not-earliest": {
    rule: "origin_timestamp is the earliest producer time of the batch, so some frame has timestamp_delta 0.",
    server: "Accepted; producer times (origin_timestamp + timestamp_delta) are then shifted against what the producer meant.",
    causes: "A producer that sets origin_timestamp to the flush time instead of the first message's time.",
    upstream: BATCH_RS,
    spec: BATCH_SPEC,
  },
  "offset-discontinuity": {
    rule: "The next stamped batch of a partition starts at the previous batch's last offset + 1.",
    server: "In a segment the server enforces it (see segment-offset-gap); elsewhere it points at missing or repeated messages.",
    causes: "Batches from different partitions or polls concatenated, a batch dropped from the middle, or a retention cut.",
    upstream: RECOVERY_RS,
    spec: BATCH_SPEC,
  },
  "timestamp-regression": {
    rule: "Stamped batches of one partition have non-decreasing base_timestamp.",
    server: "Accepted, but time-based polls and the index's timestamp search assume ascending times.",
    causes: "A clock stepped back on the server, or batches from different sources joined.",
    upstream: "core/partitions/src/journal.rs",
    spec: BATCH_SPEC,
  },
  "user-headers-malformed": {
    rule: "The SDKs encode user headers as TLV key/value entries ([kind u8][length u32][bytes], kind 1..15, length 1..255).",
    server: "The server treats the block as opaque bytes; only SDKs decoding headers fail on it.",
    causes: "An encrypted or producer-specific headers block, or a hand-written encoder.",
    upstream: "core/binary_protocol/src/primitives/user_headers.rs (validate_user_headers)",
    spec: BATCH_SPEC,
  },
  "segment-name-mismatch": {
    rule: "A segment's first batch has the base_offset its file name gives ({start:020}.log).",
    server: "Boot recovery's scan checks the offset chain from the name first and stops at the first batch that breaks it.",
    causes: "A segment renamed or copied under another name, or batches from another segment written into it.",
    upstream: `${RECOVERY_RS} (recover_segment_bounds)`,
    spec: CONTAINER_SPEC,
  },
  "segment-offset-gap": {
    rule: "In a segment each batch's base_offset is the previous base_offset + previous message_count.",
    server: "Boot recovery's scan stops at the batch that breaks the chain; it and everything after it count as a torn tail.",
    causes: "Batches removed or duplicated inside the file, or two segments joined.",
    upstream: `${RECOVERY_RS} (recover_segment_bounds)`,
    spec: CONTAINER_SPEC,
  },
  "recovery-stops": {
    rule: "Boot recovery keeps a segment up to its first bad batch (scan path) or checks headers from the last index entry (index path).",
    server: "The bytes from the stop on are truncated at boot and their messages are lost.",
    causes: "A crash mid-append (torn tail), or any of the errors reported at the stop.",
    upstream: `${RECOVERY_RS} (recover_segment_bounds, batch_verifies)`,
    spec: CONTAINER_SPEC,
  },
  "index-entry-misplaced": {
    rule: "An index entry's position is a batch start inside its .log.",
    server: "An entry past the end of the log refuses the boot (RecoveredSegmentSizeDivergence); one off a batch start misleads reads.",
    causes: "A .log truncated or replaced without its .index, or an index written for another log.",
    upstream: `${INDEX_RS}, ${RECOVERY_RS}`,
    spec: CONTAINER_SPEC,
  },
  "index-entry-mismatch": {
    rule: "The batch at an entry's position has the entry's offset and timestamp as base_offset and base_timestamp.",
    server: "Polls by offset or time that use the entry land on the wrong batch.",
    causes: "A .log rewritten (compacted, copied) while its .index was kept, or an index from another segment.",
    upstream: INDEX_RS,
    spec: CONTAINER_SPEC,
  },
  "index-not-ascending": {
    rule: "Index entries ascend in offset and in timestamp.",
    server: "The index's binary searches assume order; lookups may miss.",
    causes: "Entries appended out of order, two indexes joined, or a clock stepped back.",
    upstream: INDEX_RS,
    spec: CONTAINER_SPEC,
  },
  "index-trailing-bytes": {
    rule: "An .index is a whole number of 24-byte entries.",
    server: "The partial entry at the end is ignored.",
    causes: "A crash while an entry was being written.",
    upstream: "core/partitions/src/iggy_index_reader.rs",
    spec: CONTAINER_SPEC,
  },
  "index-orphan": {
    rule: "Every .index has its .log of the same name.",
    server: "An .index without its .log is deleted at boot.",
    causes: "A .log deleted or moved by hand, or a copy that missed it.",
    upstream: RECOVERY_RS,
    spec: CONTAINER_SPEC,
  },
  "partition-chain-gap": {
    rule: "Each segment starts at the previous segment's last offset + 1.",
    server: "The server refuses to load the partition at boot (a gap or an overlap in the chain).",
    causes: "A segment deleted from the middle, a segment copied from another partition, or a segment truncated by recovery.",
    upstream: `${RECOVERY_RS} (ensure_contiguous_chain)`,
    spec: CONTAINER_SPEC,
  },
  "partition-empty-segment": {
    rule: "Only the last segment of a partition may be empty.",
    server: "The server refuses to load the partition at boot.",
    causes: "A segment whose whole content was a torn tail, or a file emptied by hand.",
    upstream: `${RECOVERY_RS} (ensure_contiguous_chain)`,
    spec: CONTAINER_SPEC,
  },
  "capture-unreadable": {
    rule: "A pcap file is a 24-byte header then records of [ts][caplen][len][caplen bytes]; a pcapng file is blocks whose two length fields agree and fit in the file.",
    server: "Not the server's concern: the capture file itself is damaged, so what follows the bad header cannot be read.",
    causes: "A capture still being written when copied, a download cut short, a file that is not a capture, or a tool that wrote a bad block.",
    upstream: "none (pcap and pcapng are libpcap's formats; see the pcapng specification)",
    spec: CAPTURE_SPEC,
  },
  "capture-link-unsupported": {
    rule: "Packets are decoded on Ethernet (with VLAN tags), Linux cooked v1/v2, raw IP and BSD loopback links, over IPv4 (unfragmented) or IPv6.",
    server: "Not the server's concern: the explorer counts these packets but cannot look inside them.",
    causes: "A capture on a wireless, tunnel or other interface; fragmented IPv4; a link type this reader does not know.",
    upstream: "none (link types are tcpdump.org's LINKTYPE_ values)",
    spec: CAPTURE_SPEC,
  },
  "capture-packet-truncated": {
    rule: "A packet record keeps caplen of its len bytes; a caplen below len lost the packet's tail to the snap length.",
    server: "The server got the whole packet; only the capture lost bytes, which show as a gap in the TCP stream.",
    causes: "A snap length (tcpdump -s, dumpcap -s) smaller than the packets, as with the old 68- or 200-byte defaults.",
    upstream: "none (capture tool settings)",
    spec: CAPTURE_SPEC,
  },
  "tcp-gap": {
    rule: "Each direction of a TCP connection is reassembled by sequence number; bytes the capture never saw are a gap, never filled.",
    server: "The server most likely got these bytes (TCP retransmits); the capture missed them, so messages across the gap cannot be decoded.",
    causes: "Packets dropped by the capturing host under load, a snap length cut, or a capture started after the connection opened.",
    upstream: "none (TCP reassembly, as the receiving kernel does it)",
    spec: CAPTURE_SPEC,
  },
  "tcp-retransmission-differs": {
    rule: "A retransmitted TCP byte must equal its first copy; the first copy wins.",
    server: "The receiving kernel keeps one copy; which one it kept depends on timing, so the server may have read either.",
    causes: "A buggy middlebox or NIC offload, memory corruption on the sender, or a capture that merged two different streams.",
    upstream: "none (TCP)",
    spec: CAPTURE_SPEC,
  },
  "message-incomplete": {
    rule: "Each message is [256-byte consensus header][body], size bytes in all; the stream ends inside one.",
    server: "The server waits for the rest of the frame; if the connection closed, it drops the partial frame.",
    causes: "A capture stopped mid-transfer, a connection reset, or a gap before the message's end.",
    upstream: `${FRAMING_RS}`,
    spec: CAPTURE_SPEC,
  },
  "message-size-invalid": {
    rule: "A consensus header's size (u32 at 48) is 256..64 MiB; anything else cannot frame a message.",
    server: "The server's framing rejects the frame and closes the connection.",
    causes: "Not Iggy traffic on the port, a stream read from the wrong position after a gap, or a client framing bug.",
    upstream: `${FRAMING_RS} (size checks)`,
    spec: CAPTURE_SPEC,
  },
  "message-command-unexpected": {
    rule: "A client sends Request (command 5); a server sends Reply (8) or Eviction (13).",
    server: "A server answers an unexpected command from a client by closing the connection (or ignores it).",
    causes: "Replica-to-replica traffic on a client port, a capture whose client and server sides were guessed wrong, or a client bug.",
    upstream: `${HEADER_RS} (Command)`,
    spec: CAPTURE_SPEC,
  },
  "reply-unmatched": {
    rule: "A reply answers the oldest unanswered request of its connection (or the one with its request number and operation).",
    server: "A server only replies to requests; an unmatched reply means the request was not seen.",
    causes: "A capture started after the request was sent, a gap that hid the request, or a client that pipelines requests.",
    upstream: `${HEADER_RS} (ReplyHeader, request)`,
    spec: CAPTURE_SPEC,
  },
  "reply-status": {
    rule: "A reply's status (u32 at 216) is 0 on success; any other value is an IggyError code and the body is empty.",
    server: "The server refused the request and says why with this code.",
    causes: "Whatever the error's name says: a missing stream or topic, bad credentials, a checksum the server rejected, and so on.",
    upstream: "core/common/src/error/iggy_error.rs",
    spec: CAPTURE_SPEC,
  },
  "login-in-clear": {
    rule: "A login (Register, operation 1) carries a password or a personal access token; over plain TCP it travels in clear.",
    server: "The server accepts it; anyone who can capture the traffic can read the secret.",
    causes: "A client connected over TCP without TLS; use TLS or QUIC, and treat this capture as holding a secret.",
    upstream: "foreign/node/src/wire/vsr/register.ts",
    spec: CAPTURE_SPEC,
  },
  "connection-encrypted": {
    rule: "Iggy's TCP transport may run over TLS on the same port; QUIC (UDP 8080) is always encrypted. Encrypted bytes are not consensus headers.",
    server: "The server decrypts and reads the messages; a capture of the wire holds only ciphertext.",
    causes: "The server's TCP listener has TLS enabled. Capture a plain-TCP listener (or a replica link) to inspect messages; QUIC datagrams are only counted.",
    upstream: "core/message_bus/src/client_listener/tcp_tls.rs, core/configs/src/server_config/defaults.rs (TcpTlsConfig)",
    spec: CAPTURE_SPEC,
  },
  "consensus-checksum-mismatch": {
    rule: "Where nonzero, checksum is XXH3 over header bytes 16..256 and checksum_body XXH3 over the body.",
    server: "A replica rejects a message whose checksums do not verify (clients leave them zero).",
    causes: "Bytes changed in transit or in memory, or a sender that computed the checksum before its last edit of the message.",
    upstream: `${HEADER_RS} (checksum, checksum_body)`,
    spec: CAPTURE_SPEC,
  },
  "partition-no-segments": {
    rule: "A partition directory holds {start:020}.log segment files (each with its .index).",
    server: "There is nothing for the server to load: it holds no segment, so it is not a partition.",
    causes: "The wrong directory (a stream or topic above it, a folder of captures), or segments named otherwise.",
    upstream: `${RECOVERY_RS} (sweep_scratch_files_and_collect_offsets)`,
    spec: CONTAINER_SPEC,
  },
  "poll-count-mismatch": {
    rule: "A poll reply's count is the sum of its records' message_count.",
    server: "A server never sends it; SDKs that pre-size by count read too few or too many messages.",
    causes: "A reply cut or joined by hand, or a proxy that rewrote records.",
    upstream: "core/server/src/responses.rs",
    spec: CONTAINER_SPEC,
  },
  "poll-partition-mismatch": {
    rule: "Every record of a poll reply carries the prefix's partition_id.",
    server: "A server never sends it; Iggy's decoders accept it (upstream's own test replies carry it).",
    causes: "Records of several partitions joined into one reply, or a hand-built reply.",
    upstream: "core/server/src/responses.rs",
    spec: CONTAINER_SPEC,
  },
  "send-metadata-invalid": {
    rule: "metadata_length, stream_id, topic_id and partitioning parse and consume exactly metadata_length bytes.",
    server: "Admission refuses the request (InvalidCommand).",
    causes: "A client of another protocol version, a wrong identifier length, or a body cut at the wrong place.",
    upstream: `${SEND_RS}`,
    spec: CONTAINER_SPEC,
  },
  "send-count-mismatch": {
    rule: "messages_count is at least 1 and equals the batch's message_count.",
    server: "Admission refuses the request (InvalidCommand); an empty batch is refused here.",
    causes: "A client that counts before dropping messages, or an empty flush.",
    upstream: `${SEND_RS}`,
    spec: CONTAINER_SPEC,
  },
  "send-batch-not-at-end": {
    rule: "The batch of a SendMessages body ends exactly at the body's end.",
    server: "Admission refuses the request (InvalidCommand).",
    causes: "Trailing bytes after the batch, a batch_length that disagrees with the body, or two batches in one body.",
    upstream: `${SEND_RS}`,
    spec: CONTAINER_SPEC,
  },
  "send-producer-fields-set": {
    rule: "A producer sends partition_id, base_offset and base_timestamp as zero; the server stamps them.",
    server: "The server overwrites them when it stamps the batch (and re-hashes it).",
    causes: "A stamped batch re-sent as it was polled, or a client that fills server fields.",
    upstream: `${SEND_RS}`,
    spec: CONTAINER_SPEC,
  },
  "consensus-size-mismatch": {
    rule: "A consensus header's size is 256 + the body's length (a prepare: 256 + batch_length).",
    server: "The message bus frames messages by this size: a wrong one desynchronises the connection.",
    causes: "A capture cut or joined wrongly, or a body changed without updating the header.",
    upstream: `core/message_bus/src/framing.rs, ${HEADER_RS}`,
    spec: CONTAINER_SPEC,
  },
  "consensus-command-unexpected": {
    rule: "The command byte is one the format expects (5 request, 6 prepare, 8 reply).",
    server: "Another command means another message type: its body is not what this format reads.",
    causes: "A format forced on the wrong bytes, or a frame of another command.",
    upstream: HEADER_RS,
    spec: CONTAINER_SPEC,
  },
  "prepare-timestamp-mismatch": {
    rule: "A prepared batch's base_timestamp equals the prepare header's timestamp.",
    server: "The replica stamps the batch with the prepare's timestamp; a difference means they came apart.",
    causes: "A batch re-stamped after replication, or a header from another prepare.",
    upstream: `${HEADER_RS}, core/partitions/src/journal.rs`,
    spec: CONTAINER_SPEC,
  },
  "legacy-truncated": {
    rule: "A legacy message's 64-byte header, payload and user headers lie inside the file.",
    server: "Not a server format: the iggy CLI wrote it; the last message cannot be read back.",
    causes: "A dump cut short (disk full, interrupted poll).",
    upstream: "core/common/src/types/message/message_header.rs, core/cli/src/commands/binary_message/poll_messages.rs",
    spec: CONTAINER_SPEC,
  },
  "legacy-reserved-nonzero": {
    rule: "A legacy message header's reserved u64 is zero.",
    server: "Not a server format; nonzero reserved bytes mean the headers are misread.",
    causes: "A dump of another version, or a wrong start.",
    upstream: "core/common/src/types/message/message_header.rs",
    spec: CONTAINER_SPEC,
  },
  "legacy-unverifiable": {
    rule: "A legacy checksum is the frame checksum of the batch it came from; it can be rebuilt only from that batch's first message.",
    server: "Not a server format; the checksum is kept as the server sent it.",
    causes: "The poll started in the middle of a batch, so the run lacks its first frame.",
    upstream: "core/common/src/types/message/polled_messages.rs",
    spec: CONTAINER_SPEC,
  },
  "format-unrecognized": {
    rule: "Auto-detect found no Iggy format that holds across the whole input.",
    server: "Not decodable as any Iggy structure.",
    causes: "Not an Iggy file (compressed, encrypted, another broker's format), or a batch starting at another offset (try --format batches).",
    upstream: BATCH_RS,
    spec: CONTAINER_SPEC,
  },
};

/** The help of one code as plain-text lines: code, severity and summary, then rule, server, causes, upstream. */
export function helpLines(code: DiagnosticCode): string[] {
  const h = DIAGNOSTIC_HELP[code];
  return [
    `${code} (${SEVERITY_OF[code]}): ${CODE_SUMMARY[code]}`,
    `  rule:     ${h.rule}`,
    `  server:   ${h.server}`,
    `  causes:   ${h.causes}`,
    `  upstream: apache/iggy ${h.upstream}`,
    `  spec:     ${h.spec}`,
  ];
}

/** True when text names a stable code. */
export function isDiagnosticCode(text: string): text is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(DIAGNOSTIC_HELP, text);
}
