/**
 * Opens a capture (captures.md): walks its packets once through a byte source, follows every TCP
 * connection, and for each Iggy one keeps its messages (header values, body kind, batch documents,
 * pairing, latency) and every finding located by connection, message and packet. The message bytes
 * themselves are not kept: readMessage() reads one back through the file places of its stream.
 */
import type { Xxh3 } from "../../../checksum/xxh3.ts";
import { COMMAND, CONSENSUS_HEADER_SIZE } from "../../../format/containers/consensus.ts";
import { diagnostic, type DiagnosticCode } from "../../../format/diagnostics.ts";
import { iggyError } from "../../../format/iggy-errors.ts";
import { ByteReader } from "../../../format/reader.ts";
import { plural } from "../../../format/values.ts";
import { batchJson } from "../../model/contract-json.ts";
import { decodeMessage, type AnsweredRequest } from "./bodies.ts";
import { compactBatch, Interner, MessageStarts, NO_FINDINGS } from "./compact.ts";
import { QUIC_PORT } from "./encrypted.ts";
import { TcpConnection, tupleKey, type ConnectionEvents } from "./connections.ts";
import { CLIENT_COMMANDS, MessageBuffers, SERVER_COMMANDS, type CutMessage } from "./cutter.ts";
import { readCaptureFile, type CaptureFileInfo, type PacketRecord } from "./file.ts";
import { tcpSegmentOf } from "./link.ts";
import { WindowReader, type CaptureSource } from "./source.ts";
import type { CaptureConnection, CaptureDiagnostic, CaptureMessage, CaptureResult } from "./types.ts";

/** The Iggy server's TCP port by default. */
export const DEFAULT_IGGY_PORT = 8090;

/** How to open a capture. */
export interface CaptureOptions {
  /** The server's TCP port; default 8090. */
  readonly port?: number;
  /**
   * Takes each message once it is final (its pairing done), in each connection's message order, and
   * then it is not kept in `messages` (which stay empty): the CLI writes the messages of a capture of
   * any size this way. `request` is the request a reply answers; `digits` the capture's time digits
   * (CaptureResult.timeDigits). By default every message is kept.
   */
  readonly release?: (conn: CaptureConnection, message: CaptureMessage, request: CaptureMessage | null, digits: number) => void;
}

interface ConnState {
  readonly tcp: TcpConnection;
  readonly conn: CaptureConnection & { messages: CaptureMessage[] };
  /** Where each message began, by index. */
  readonly starts: MessageStarts;
  /** Messages done and not yet released, by index (a request stays until its reply is paired). */
  readonly held: Map<number, CaptureMessage>;
  /** The next message to release. */
  next: number;
  /** Released requests whose reply is not released yet. */
  readonly answered: Map<number, CaptureMessage>;
  /** Indexes of requests not yet answered, oldest first. */
  readonly pending: number[];
  /** Pending requests whose reply may have been lost in a gap of the server's stream. */
  readonly maybeAnswered: Set<number>;
}

/** The message of this direction that `offset` of its stream falls in, looking back from `from`; null when it is before the first. */
function messageHolding(s: ConnState, toServer: boolean, offset: number, from: number): number | null {
  for (let i = from; i >= 0; i--) if (s.starts.toServer(i) === toServer && s.starts.offset(i) <= offset) return i;
  return null;
}

/** Opens a capture from its source. Never throws on bad input: every problem is a diagnostic. */
export function openCapture(xxh: Xxh3, source: CaptureSource, options: CaptureOptions = {}): CaptureResult {
  const port = options.port ?? DEFAULT_IGGY_PORT;
  const diagnostics: CaptureDiagnostic[] = [];
  const states: ConnState[] = [];
  const byTcp = new Map<TcpConnection, ConnState>();
  const tuples = new Map<string, TcpConnection>();
  let otherTcp = 0;
  let quicPackets = 0;
  const buffers = new MessageBuffers();
  const intern = new Interner();
  let fileInfo: CaptureFileInfo | null = null;
  const release =
    options.release ??
    ((conn: CaptureConnection, m: CaptureMessage): void => {
      (conn as CaptureConnection & { messages: CaptureMessage[] }).messages.push(m);
    });
  /** Hands over, in order, the messages of `s` that are done and answered (all of them when `all`). */
  const releaseDone = (s: ConnState, all: boolean): void => {
    for (;;) {
      const i = s.next;
      let m = s.held.get(i);
      if (!m) {
        if (!all || i >= s.starts.length) return;
        m = lostMessage(i, s.starts.at(i)); // a slot a lost header left empty
      } else if (!all && s.pending.includes(i)) return;
      s.held.delete(i);
      s.next = i + 1;
      // A request goes before its reply: kept aside until the reply goes, which names it.
      if (m.repliedBy !== null) s.answered.set(i, m);
      let request: CaptureMessage | null = null;
      if (m.replyTo !== null) {
        request = s.answered.get(m.replyTo) ?? null;
        s.answered.delete(m.replyTo);
      }
      release(s.conn, m, request, fileInfo?.digits ?? 6);
    }
  };
  const summary = { batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 };

  const add = (code: DiagnosticCode, start: number, end: number, at: Partial<CaptureDiagnostic>, text: string): void => {
    const d = diagnostic(code, start, end, at.batch ?? null, at.frame ?? null, text);
    diagnostics.push({
      code,
      severity: d.severity,
      start,
      end,
      connection: at.connection ?? null,
      message: at.message ?? null,
      packet: at.packet ?? null,
      batch: d.batch,
      frame: d.frame,
      text,
    });
  };

  const events: ConnectionEvents = {
    recognized(tcp) {
      const index = states.length;
      const conn = {
        index,
        client: tcp.client,
        server: tcp.server,
        firstPacket: tcp.firstPacket,
        recognizedBy: tcp.recognizedBy,
        bytes: { toServer: 0, toClient: 0 },
        encryption: null,
        gaps: [],
        messages: [],
        pieces: { toServer: tcp.dirs.get(tcp.client)!.pieces, toClient: tcp.dirs.get(tcp.server)!.pieces },
      };
      const state: ConnState = { tcp, conn, starts: new MessageStarts(), held: new Map(), next: 0, answered: new Map(), pending: [], maybeAnswered: new Set() };
      states.push(state);
      byTcp.set(tcp, state);
      return index;
    },
    messageStart(tcp, toServer, offset, packet, timeNs) {
      const s = byTcp.get(tcp)!;
      return s.starts.push(toServer, offset, packet, timeNs);
    },
    message(tcp, toServer, m) {
      messageDone(byTcp.get(tcp)!, toServer, m);
    },
    gap(tcp, toServer, offset, length, packet, message) {
      const s = byTcp.get(tcp)!;
      s.conn.gaps.push({ toServer, streamOffset: offset, bytes: length, packet });
      if (!toServer) for (const i of s.pending) s.maybeAnswered.add(i);
      const start = message === null ? offset : offset - s.starts.offset(message);
      add(
        "tcp-gap",
        start,
        start + length,
        { connection: s.conn.index, message, packet },
        `${plural(length, "byte")} of the ${toServer ? "client → server" : "server → client"} stream at stream offset ${offset} were never captured${message === null ? "" : ` (inside message ${message})`}`,
      );
    },
    differs(tcp, toServer, offset, length, packet, current) {
      const s = byTcp.get(tcp)!;
      // A retransmission of bytes already delivered can fall in an earlier message than the one being cut.
      const message = current === null ? null : messageHolding(s, toServer, offset, current);
      const start = message === null ? offset : offset - s.starts.offset(message);
      add(
        "tcp-retransmission-differs",
        start,
        start + length,
        { connection: s.conn.index, message, packet },
        `packet ${packet} retransmits ${plural(length, "byte")} at stream offset ${offset} of the ${toServer ? "client → server" : "server → client"} stream with other content; the first copy is kept`,
      );
    },
    encrypted(tcp, toServer, packet, fileOffset) {
      const s = byTcp.get(tcp)!;
      s.conn.encryption = "tls";
      add(
        "connection-encrypted",
        fileOffset,
        fileOffset + 5,
        { connection: s.conn.index, packet },
        `connection ${s.conn.index} (${s.conn.client} → ${s.conn.server}) is TLS: the ${toServer ? "client" : "server"}'s first bytes, in packet ${packet}, are a TLS record, so none of its messages can be read; capture the traffic before encryption (a plain-TCP listener) to inspect it`,
      );
    },
    truncated(tcp, t) {
      const s = byTcp.get(tcp)!;
      add(
        "capture-packet-truncated",
        t.start,
        t.end,
        { connection: s.conn.index, packet: t.number },
        `packet ${t.number} was captured ${plural(t.missing, "byte")} short of its TCP payload (snap length): those bytes are a gap`,
      );
    },
  };

  function messageDone(s: ConnState, toServer: boolean, m: CutMessage): void {
    const connection = s.conn.index;
    const at = (d: { start: number }) => packetOf(s, toServer, m, d.start);
    const head = m.head;
    const r = new ByteReader(head);
    const has = (end: number) => head.length >= end;
    const command = has(61) ? head[60]! : null;
    // A command from the wrong side is reported below and neither paired nor decoded as its side's.
    const isRequest = command === COMMAND.request && toServer;
    const isReply = command === COMMAND.reply && !toServer;
    const operation = isRequest && has(177) ? head[176]! : isReply && has(209) ? head[208]! : null;
    const legacyCode = isRequest && operation === 2 && has(200) ? r.u32(196) : null;
    const request = isRequest && has(176) ? r.u64(168) : isReply && has(208) ? r.u64(200) : null;
    const status = isReply && has(220) ? r.u32(216) : null;
    const counts = { errors: 0, warnings: 0, infos: 0 };
    const local = (code: DiagnosticCode, start: number, end: number, text: string, batch: number | null = null, frame: number | null = null) => {
      add(code, start, end, { connection, message: m.index, packet: at({ start }), batch, frame }, text);
      const sev = diagnostics[diagnostics.length - 1]!.severity;
      counts[sev === "error" ? "errors" : sev === "warning" ? "warnings" : "infos"]++;
    };
    const label = `message ${m.index} (${toServer ? "client → server" : "server → client"})`;
    if (!m.sizeValid) local("message-size-invalid", 48, 52, `${label}: size ${m.size} is outside 256..67108864; the stream cannot be cut past it`);
    if (command !== null && m.sizeValid && !(toServer ? CLIENT_COMMANDS : SERVER_COMMANDS).includes(command))
      local(
        "message-command-unexpected",
        60,
        61,
        `${label}: command ${command}; a ${toServer ? "client sends 5 (request)" : "server sends 8 (reply) or 13 (eviction)"}`,
      );
    if (!m.ended)
      local(
        "message-incomplete",
        0,
        Math.max(head.length, 1),
        `${label}: the stream ends inside it, ${m.size === null ? "before its size was seen" : `${m.size} bytes long`}`,
      );
    // Pairing: lockstep, or request + operation where several are in flight.
    let answered: AnsweredRequest | null = null;
    let replyTo: number | null = null;
    if (isReply) {
      const pick = pickRequest(s, request, operation);
      if (pick < 0)
        local(
          "reply-unmatched",
          0,
          Math.min(CONSENSUS_HEADER_SIZE, Math.max(head.length, 1)),
          `${label}: a reply with no request waiting on connection ${connection}`,
        );
      else {
        replyTo = s.pending.splice(pick, 1)[0]!;
        const req = s.held.get(replyTo)!;
        answered = { operation: req.operation ?? -1, legacyCode: req.legacyCode };
      }
      if (status !== null && status !== 0) {
        const e = iggyError(status);
        local("reply-status", 216, 220, `${label}: status ${status}${e ? ` (${e.name}: ${e.message})` : " (not an IggyError code)"}`);
      }
    }
    let body: CaptureMessage["body"] = "raw";
    let batches: CaptureMessage["batches"] = [];
    let frames = 0;
    let detail = "";
    let secret: CaptureMessage["secret"] = null;
    if (m.bytes) {
      const decoded = decodeMessage(xxh, m.bytes, answered, true);
      body = decoded.body;
      detail = intern.of(decoded.detail);
      secret = decoded.secret;
      if (decoded.analysis) {
        const a = decoded.analysis;
        const br = new ByteReader(m.bytes);
        batches = a.batches.map((b) => compactBatch(batchJson(a, br, b, false), intern));
        frames = a.summary.frames;
        summary.batches += a.batches.length;
        summary.frames += a.summary.frames;
        for (const d of a.diagnostics) local(d.code, d.start, d.end, d.message, d.batch, d.frame);
      }
      for (const d of decoded.findings) local(d.code, d.start, d.end, d.message, d.batch, d.frame);
      if (secret)
        local(
          "login-in-clear",
          secret.start,
          secret.end,
          `${label}: a login carries its ${secret.end - secret.start}-byte secret in clear over plain TCP (shown as ••••)`,
        );
    }
    const msg: CaptureMessage = {
      index: m.index,
      toServer,
      packet: m.packet,
      timeNs: m.timeNs,
      streamOffset: m.streamOffset,
      size: m.size,
      command,
      operation,
      legacyCode,
      request,
      status,
      replyTo,
      repliedBy: null,
      latencyMicros: null,
      body,
      complete: m.ended && m.missing === 0 && m.sizeValid,
      batches,
      frames,
      detail,
      secret,
      counts: counts.errors + counts.warnings + counts.infos ? counts : NO_FINDINGS,
    };
    s.held.set(m.index, msg);
    if (replyTo !== null) {
      const req = s.held.get(replyTo)!;
      req.repliedBy = m.index;
      msg.replyTo = replyTo;
      const micros = Number(m.timeNs - req.timeNs) / 1000;
      msg.latencyMicros = micros;
      req.latencyMicros = micros;
    }
    if (isRequest && m.ended) s.pending.push(m.index);
    releaseDone(s, false);
  }

  // The last tuple's key: most packets continue the connection of the one before (either way).
  let lastSrc = "";
  let lastDst = "";
  let lastKey = "";
  const onPacket = (p: PacketRecord): void => {
    const seg = tcpSegmentOf(p.data, p.len, p.linkType);
    if (!("src" in seg)) {
      if (seg.kind === "udp" && (seg.srcPort === QUIC_PORT || seg.dstPort === QUIC_PORT)) quicPackets++;
      if (seg.kind === "fragment") add("capture-link-unsupported", p.recordStart, p.recordEnd, { packet: p.number }, `packet ${p.number} is ${seg.text}`);
      return;
    }
    if (!((seg.src === lastSrc && seg.dst === lastDst) || (seg.src === lastDst && seg.dst === lastSrc))) {
      lastSrc = seg.src;
      lastDst = seg.dst;
      lastKey = tupleKey(seg);
    }
    const key = lastKey;
    let tcp = tuples.get(key);
    // A SYN on a tuple that already carried data or closed starts a new connection (port reuse).
    if (tcp && seg.syn && !seg.ack && (tcp.closed || tcp.sawData)) {
      tcp.finish();
      if (tcp.state === "other") otherTcp++;
      tcp = undefined;
    }
    if (!tcp) {
      tcp = new TcpConnection(source, events, p.number, port, seg, buffers);
      tuples.set(key, tcp);
    }
    tcp.segment(seg, p.data, p);
  };

  const info = readCaptureFile(new WindowReader(source), {
    packet: onPacket,
    finding: (f) => add(f.code, f.start, f.end, { packet: f.packet }, f.text),
    info: (i) => (fileInfo = i),
  });
  for (const tcp of tuples.values()) {
    tcp.finish();
    if (tcp.state === "other") otherTcp++;
  }
  for (const s of states) {
    // Messages begun but never ended were emitted by finish(); fill any slot a lost header left empty.
    releaseDone(s, true);
    s.conn.bytes.toServer = s.tcp.direction(true).bytes;
    s.conn.bytes.toClient = s.tcp.direction(false).bytes;
  }
  for (const d of diagnostics) summary[d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "infos"]++;
  diagnostics.sort(
    (a, b) =>
      (a.connection ?? -1) - (b.connection ?? -1) ||
      (a.message ?? -1) - (b.message ?? -1) ||
      (a.connection === null ? a.start - b.start : 0) ||
      a.start - b.start ||
      a.end - b.end,
  );
  return {
    fileFormat: info.fileFormat,
    linkTypes: info.linkTypes,
    packets: info.packets,
    otherTcpConnections: otherTcp,
    quicPackets,
    connections: states.map((s) => s.conn),
    diagnostics,
    summary,
    timeDigits: info.digits,
    port,
  };
}

function matches(req: CaptureMessage | undefined, request: bigint | null, operation: number | null): boolean {
  return !!req && req.request === request && req.operation === operation;
}

/**
 * The request a reply answers, as a position in `pending`: lockstep takes the oldest; with several in
 * flight the first whose request and operation match; requests whose reply a gap may have swallowed
 * come last. -1 when none waits.
 */
function pickRequest(s: ConnState, request: bigint | null, operation: number | null): number {
  if (s.pending.length === 0) return -1;
  if (s.pending.length === 1) return 0;
  const fresh = (i: number) => !s.maybeAnswered.has(i);
  const match = (i: number) => matches(s.held.get(i), request, operation);
  for (const test of [(i: number) => fresh(i) && match(i), match, fresh]) {
    const k = s.pending.findIndex(test);
    if (k >= 0) return k;
  }
  return 0;
}

function packetOf(s: ConnState, toServer: boolean, m: CutMessage, start: number): number {
  const pieces = toServer ? s.conn.pieces.toServer : s.conn.pieces.toClient;
  return pieces.packetAt(m.streamOffset + start) ?? m.packet;
}

function lostMessage(index: number, start: { toServer: boolean; offset: number; packet: number; timeNs: bigint }): CaptureMessage {
  return {
    index,
    toServer: start.toServer,
    packet: start.packet,
    timeNs: start.timeNs,
    streamOffset: start.offset,
    size: null,
    command: null,
    operation: null,
    legacyCode: null,
    request: null,
    status: null,
    replyTo: null,
    repliedBy: null,
    latencyMicros: null,
    body: "raw",
    complete: false,
    batches: [],
    frames: 0,
    detail: "",
    secret: null,
    counts: NO_FINDINGS,
  };
}

/** A message's bytes read back from the capture, with the stretches never captured listed (their bytes are not data). */
export function readMessage(
  source: CaptureSource,
  conn: CaptureConnection,
  msg: CaptureMessage,
): { bytes: Uint8Array; missing: { start: number; end: number }[] } | null {
  if (msg.size === null) return null;
  return (msg.toServer ? conn.pieces.toServer : conn.pieces.toClient).read(source, msg.streamOffset, msg.size);
}

/** Decodes one message again from its bytes (for its frames, its fields, the page's view of it); null when bytes are missing. */
export function decodeCapturedMessage(
  xxh: Xxh3,
  source: CaptureSource,
  conn: CaptureConnection,
  msg: CaptureMessage,
  /** The request a reply answers, when the connection's messages are not kept (openCapture's release). */
  request: CaptureMessage | null = msg.replyTo === null ? null : (conn.messages[msg.replyTo] ?? null),
) {
  const got = readMessage(source, conn, msg);
  if (!got || got.missing.length) return null;
  const req = request;
  return { bytes: got.bytes, decoded: decodeMessage(xxh, got.bytes, req ? { operation: req.operation ?? -1, legacyCode: req.legacyCode } : null) };
}
