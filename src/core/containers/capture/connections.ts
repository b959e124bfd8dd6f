/**
 * TCP connections by 4-tuple (a new SYN on a closed or used tuple starts a new one), which of them
 * speak Iggy (the server's port, or a direction whose first bytes are a plausible consensus header),
 * and for those the two directions reassembled and cut into messages.
 */
import type { PacketRecord } from "./file.ts";
import type { TcpSegment } from "./link.ts";
import { StreamReassembler, timeOf, type PacketTime, type Pending, type StreamSink } from "./reassembly.ts";
import { CLIENT_COMMANDS, MessageBuffers, MessageCutter, SERVER_COMMANDS, plausibleHeader, type CutMessage } from "./cutter.ts";
import { Pieces } from "./pieces.ts";
import type { CaptureSource } from "./source.ts";
import { CONSENSUS_HEADER_SIZE } from "../../../format/containers/consensus.ts";
import { startsWithTlsRecord } from "./encrypted.ts";

/** What a connection tells its owner. */
export interface ConnectionEvents {
  /** The connection turned out to be Iggy: its index among Iggy connections is asked for. */
  recognized(conn: TcpConnection): number;
  /** A message's first byte arrived: its index. */
  messageStart(conn: TcpConnection, toServer: boolean, offset: number, packet: number, timeNs: bigint): number;
  message(conn: TcpConnection, toServer: boolean, m: CutMessage): void;
  gap(conn: TcpConnection, toServer: boolean, offset: number, length: number, packet: number | null, message: number | null): void;
  differs(conn: TcpConnection, toServer: boolean, offset: number, length: number, packet: number, message: number | null): void;
  truncated(conn: TcpConnection, packet: { number: number; start: number; end: number; missing: number }): void;
  /** An Iggy connection's stream begins with a TLS record (at `fileOffset` of packet `packet`): nothing more of it is read. */
  encrypted(conn: TcpConnection, toServer: boolean, packet: number, fileOffset: number): void;
}

/** What the reassembler delivers in order: the same shape it keeps pieces in. */
type Delivery = Pending;

/** One direction: its reassembler, and once the connection is Iggy, its cutter and file places. */
class Direction implements StreamSink {
  readonly reassembler: StreamReassembler;
  readonly pieces = new Pieces();
  cutter: MessageCutter | null = null;
  toServer = false;
  bytes = 0;
  /** Before the connection is recognised: what arrived (up to one header's worth, then a verdict). */
  probe: Delivery[] | null = [];
  probeBytes = 0;

  constructor(
    readonly conn: TcpConnection,
    readonly src: string,
  ) {
    this.reassembler = new StreamReassembler(this, (offset, length) => this.readBack(offset, length));
  }

  private readBack(offset: number, length: number): Uint8Array | null {
    const got = this.pieces.read(this.conn.source, offset, length);
    return got.missing.length ? null : got.bytes;
  }

  data(offset: number, bytes: Uint8Array, packet: number, time: PacketTime, fileOffset: number): void {
    if (this.conn.state === "other") return;
    this.bytes += bytes.length;
    if (this.conn.encryption) return;
    // Iggy over TLS on the server's port: its records are not messages (a size read from them is noise).
    if (offset === 0 && this.conn.state === "iggy" && startsWithTlsRecord(bytes)) {
      this.conn.encryption = "tls";
      this.conn.events.encrypted(this.conn, this.toServer, packet, fileOffset);
      return;
    }
    this.pieces.push(offset, fileOffset, bytes.length, packet);
    if (this.probe) {
      this.probe.push({ offset, bytes: bytes.slice(), length: bytes.length, packet, timeNs: timeOf(time), fileOffset });
      this.probeBytes += bytes.length;
      this.conn.probeDone(this);
      return;
    }
    this.cutter?.data(offset, bytes, packet, time);
  }

  gap(offset: number, length: number, packet: number | null): void {
    if (this.conn.state === "other" || this.conn.encryption) return;
    if (this.probe) {
      this.probe.push({ offset, bytes: null, length, packet: packet ?? 0, timeNs: 0n, fileOffset: -1 });
      this.probeBytes += length;
      this.conn.probeDone(this);
      return;
    }
    this.conn.events.gap(this.conn, this.toServer, offset, length, packet, this.cutter?.currentIndex ?? null);
    this.cutter?.gap(length);
  }

  differs(offset: number, length: number, packet: number): void {
    if (this.conn.state !== "iggy" || this.conn.encryption) return;
    this.conn.events.differs(this.conn, this.toServer, offset, length, packet, this.cutter?.currentIndex ?? null);
  }

  /** Starts cutting: replays what the probe held. */
  start(toServer: boolean): void {
    this.toServer = toServer;
    const conn = this.conn;
    this.cutter = new MessageCutter(
      {
        start: (offset, packet, timeNs) => conn.events.messageStart(conn, toServer, offset, packet, timeNs),
        message: (m) => conn.events.message(conn, toServer, m),
      },
      toServer ? CLIENT_COMMANDS : SERVER_COMMANDS,
      conn.buffers,
    );
    const held = this.probe ?? [];
    this.probe = null;
    for (const d of held) {
      if (d.bytes) this.cutter.data(d.offset, d.bytes, d.packet, d.timeNs);
      else this.gap(d.offset, d.length, d.packet);
    }
  }

  /**
   * The first header's bytes seen from the stream's start, once a header's worth of the stream has
   * passed (fewer when a gap cut them: a snap length keeps the size and command); null before.
   */
  head(): Uint8Array | null {
    if (!this.probe || this.probeBytes < CONSENSUS_HEADER_SIZE) return null;
    const out = new Uint8Array(CONSENSUS_HEADER_SIZE);
    let at = 0;
    for (const d of this.probe) {
      if (!d.bytes || d.offset !== at) break;
      const n = Math.min(d.length, CONSENSUS_HEADER_SIZE - at);
      out.set(d.bytes.subarray(0, n), at);
      at += n;
      if (at === CONSENSUS_HEADER_SIZE) break;
    }
    return out.subarray(0, at);
  }
}

/** One TCP connection (4-tuple, from its SYN or first packet to a new SYN). */
export class TcpConnection {
  state: "probing" | "iggy" | "other" = "probing";
  index = -1;
  /** "addr:port" of the client and server once known. */
  client = "";
  server = "";
  recognizedBy = "";
  /** "tls" once a direction's first bytes are a TLS record: the connection is Iggy's but unreadable. */
  encryption: "tls" | null = null;
  readonly dirs = new Map<string, Direction>();
  synFrom: string | null = null;
  closed = false;
  sawData = false;
  /** Truncated packets seen before the verdict. */
  private truncatedHeld: { number: number; start: number; end: number; missing: number }[] = [];

  constructor(
    readonly source: CaptureSource,
    readonly events: ConnectionEvents,
    readonly firstPacket: number,
    readonly port: number,
    a: TcpSegment,
    /** Message buffers shared by every connection of the capture. */
    readonly buffers: MessageBuffers = new MessageBuffers(),
  ) {
    this.dirs.set(a.src, new Direction(this, a.src));
    this.dirs.set(a.dst, new Direction(this, a.dst));
    // The server's port decides at once.
    if (a.dstPort === port || a.srcPort === port) {
      const serverIsDst = a.dstPort === port && !(a.srcPort === port && a.syn && !a.ack);
      this.recognize(serverIsDst ? a.src : a.dst, `the server's port ${port}`);
    }
  }

  /** Feeds one segment of this connection; `packet` is read during the call only (the walk reuses it). */
  segment(s: TcpSegment, data: Uint8Array, packet: Pick<PacketRecord, "number" | "recordStart" | "recordEnd" | "dataStart" | "timeNs">): void {
    if (this.state === "other") return;
    const dir = this.dirs.get(s.src)!;
    if (s.syn) {
      dir.reassembler.syn(s.seq);
      if (!s.ack && this.synFrom === null) this.synFrom = s.src;
    }
    if (s.fin || s.rst) this.closed = true;
    if (s.ack) this.dirs.get(s.dst)!.reassembler.ack(s.ack ? s.ackSeq : 0);
    const payload = data.subarray(s.payloadStart, s.payloadStart + s.captured);
    const seq = s.syn ? (s.seq + 1) >>> 0 : s.seq;
    if (payload.length + s.missing > 0) this.sawData = true;
    if (s.missing > 0) {
      const t = { number: packet.number, start: packet.recordStart, end: packet.recordEnd, missing: s.missing };
      if (this.state === "iggy") this.events.truncated(this, t);
      else this.truncatedHeld.push(t);
    }
    if (s.fin) dir.reassembler.fin(seq, payload.length + s.missing);
    dir.reassembler.segment(seq, payload, s.missing, packet.number, packet, packet.dataStart + s.payloadStart);
  }

  /** A direction's probe grew: decide whether this connection is Iggy. */
  probeDone(dir: Direction): void {
    if (this.state !== "probing") return;
    const head = dir.head();
    if (head === null) return;
    if (plausibleHeader(head, 0, CLIENT_COMMANDS, true)) this.recognize(dir.src, "the first bytes from the client are a consensus request header");
    else if (plausibleHeader(head, 0, SERVER_COMMANDS, true))
      this.recognize(this.other(dir.src), "the first bytes from the server are a consensus reply header");
    else this.giveUp();
  }

  /** The end of the capture. */
  finish(): void {
    for (const d of this.dirs.values()) d.reassembler.finish();
    if (this.state === "probing") this.giveUp();
    for (const d of this.dirs.values()) d.cutter?.finish();
  }

  /** The direction from `src`. */
  direction(toServer: boolean): Direction {
    return this.dirs.get(toServer ? this.client : this.server)!;
  }

  private other(src: string): string {
    for (const k of this.dirs.keys()) if (k !== src) return k;
    return src;
  }

  private giveUp(): void {
    this.state = "other";
    for (const d of this.dirs.values()) d.probe = null;
  }

  private recognize(client: string, why: string): void {
    this.state = "iggy";
    this.client = client;
    this.server = this.other(client);
    this.recognizedBy = why;
    this.index = this.events.recognized(this);
    for (const t of this.truncatedHeld) this.events.truncated(this, t);
    this.truncatedHeld = [];
    this.dirs.get(this.client)!.start(true);
    this.dirs.get(this.server)!.start(false);
  }
}

/** The canonical key of a 4-tuple. */
export function tupleKey(s: TcpSegment): string {
  return s.src < s.dst ? `${s.src}|${s.dst}` : `${s.dst}|${s.src}`;
}
