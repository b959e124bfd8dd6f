/**
 * Builds capture files for tests: packets (any link type the reader decodes, IPv4 with options or
 * IPv6 with extension headers, TCP), pcap and pcapng files, TCP sessions cut into segments, and Iggy
 * protocol messages. Independent of the reader: written from the formats' definitions.
 */
import type { Xxh3 } from "../../../checksum/xxh3.ts";
import { concat, encodeBatch } from "../../walk/encode.ts";

/** Link layers a packet can be wrapped in. */
export type Link = "ether" | "vlan" | "cooked1" | "cooked2" | "raw" | "raw4" | "raw6" | "null" | "loop";
/** The pcap link type of each. */
export const LINK_TYPE: Record<Link, number> = { ether: 1, vlan: 1, cooked1: 113, cooked2: 276, raw: 101, raw4: 228, raw6: 229, null: 0, loop: 108 };

const be16 = (v: number) => Uint8Array.of(v >> 8, v & 0xff);
const be32 = (v: number) => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
const le32 = (v: number) => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
const le16 = (v: number) => Uint8Array.of(v & 0xff, v >> 8);

/** One TCP segment's fields. */
export interface SegSpec {
  src: string;
  dst: string;
  sport: number;
  dport: number;
  seq: number;
  ack?: number;
  flags?: { syn?: boolean; ack?: boolean; fin?: boolean; rst?: boolean; psh?: boolean };
  payload?: Uint8Array;
  ipOptions?: number;
  /** IPv6 hop-by-hop + destination options headers before TCP. */
  v6ext?: boolean;
  /** An IPv4 fragment (more-fragments set). */
  fragment?: boolean;
}

function ip4(a: string): Uint8Array {
  return Uint8Array.from(a.split(".").map(Number));
}
function ip6(a: string): Uint8Array {
  const [head, tail] = a.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail ? tail.split(":") : [];
  const groups: string[] = [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return concat(groups.map((g) => be16(parseInt(g, 16))));
}

/** The IP packet (v4 or v6 by the address form) holding one TCP segment. */
export function ipPacket(s: SegSpec): Uint8Array {
  const f = s.flags ?? { ack: true };
  const payload = s.payload ?? new Uint8Array(0);
  const flags = (f.fin ? 1 : 0) | (f.syn ? 2 : 0) | (f.rst ? 4 : 0) | (f.psh ? 8 : 0) | (f.ack ? 16 : 0);
  const tcp = concat([
    be16(s.sport),
    be16(s.dport),
    be32(s.seq >>> 0),
    be32((s.ack ?? 0) >>> 0),
    Uint8Array.of(5 << 4, flags),
    be16(65535),
    be16(0),
    be16(0),
    payload,
  ]);
  const v6 = s.src.includes(":");
  if (!v6) {
    const opts = new Uint8Array(s.ipOptions ?? 0).fill(1); // NOPs
    const ihl = 20 + opts.length;
    const head = concat([
      Uint8Array.of(0x40 | (ihl / 4), 0),
      be16(ihl + tcp.length),
      be16(1),
      be16(s.fragment ? 0x2000 : 0x4000),
      Uint8Array.of(64, 6),
      be16(0),
      ip4(s.src),
      ip4(s.dst),
      opts,
    ]);
    return concat([head, tcp]);
  }
  const ext = s.v6ext ? concat([Uint8Array.of(60, 0, 1, 4, 0, 0, 0, 0), Uint8Array.of(6, 0, 1, 4, 0, 0, 0, 0)]) : new Uint8Array(0);
  const head = concat([Uint8Array.of(0x60, 0, 0, 0), be16(ext.length + tcp.length), Uint8Array.of(s.v6ext ? 0 : 6, 64), ip6(s.src), ip6(s.dst)]);
  return concat([head, ext, tcp]);
}

/** The IP packet wrapped in a link layer. */
export function framed(link: Link, ip: Uint8Array, littleEndianNull = true): Uint8Array {
  const v6 = ip[0]! >> 4 === 6;
  const type = v6 ? 0x86dd : 0x0800;
  const mac = new Uint8Array(12);
  switch (link) {
    case "ether":
      return concat([mac, be16(type), ip]);
    case "vlan":
      return concat([mac, be16(0x8100), be16(7), be16(0x8100), be16(9), be16(type), ip]);
    case "cooked1":
      return concat([be16(0), be16(772), be16(6), new Uint8Array(8), be16(type), ip]);
    case "cooked2":
      return concat([be16(type), be16(0), le32(1), be16(772), Uint8Array.of(0, 6), new Uint8Array(8), ip]);
    case "raw":
    case "raw4":
    case "raw6":
      return ip;
    case "null":
      return concat([littleEndianNull ? le32(v6 ? 24 : 2) : be32(v6 ? 24 : 2), ip]);
    case "loop":
      return concat([be32(v6 ? 24 : 2), ip]);
  }
}

/** One packet of a capture file. */
export interface FilePacket {
  data: Uint8Array;
  timeNs?: bigint;
  /** Length on the wire; default data.length. */
  len?: number;
  /** Captured bytes kept (the rest is cut as a snap length would); default all. */
  caplen?: number;
}

/** A pcap file. */
export function pcapFile(packets: readonly FilePacket[], opts: { linkType?: number; nano?: boolean; bigEndian?: boolean } = {}): Uint8Array {
  const u32 = opts.bigEndian ? be32 : le32;
  const u16 = opts.bigEndian ? be16 : le16;
  const head = concat([u32(opts.nano ? 0xa1b23c4d : 0xa1b2c3d4), u16(2), u16(4), u32(0), u32(0), u32(262144), u32(opts.linkType ?? 1)]);
  const recs = packets.map((p, i) => {
    const t = p.timeNs ?? 1_764_750_000_000_000_000n + BigInt(i) * 1_000_000n;
    const sec = Number(t / 1_000_000_000n);
    const frac = Number(t % 1_000_000_000n);
    const cap = p.data.subarray(0, p.caplen ?? p.data.length);
    return concat([u32(sec), u32(opts.nano ? frac : Math.floor(frac / 1000)), u32(cap.length), u32(p.len ?? p.data.length), cap]);
  });
  return concat([head, ...recs]);
}

/** One pcapng section: its interfaces and its packets (with the interface each came on). */
export interface Section {
  bigEndian?: boolean;
  interfaces: { linkType: number; tsresol?: number }[];
  packets: (FilePacket & { iface?: number; simple?: boolean })[];
  /** Blocks of unknown types put before the packets. */
  unknownBlocks?: number;
}

/** A pcapng file of sections. */
export function pcapngFile(sections: readonly Section[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const s of sections) {
    const u32 = s.bigEndian ? be32 : le32;
    const u16 = s.bigEndian ? be16 : le16;
    const block = (type: number, body: Uint8Array) => {
      const pad = new Uint8Array((4 - (body.length % 4)) % 4);
      const len = 12 + body.length + pad.length;
      return concat([u32(type), u32(len), body, pad, u32(len)]);
    };
    parts.push(block(0x0a0d0d0a, concat([u32(0x1a2b3c4d), u16(1), u16(0), u32(0xffffffff), u32(0xffffffff)])));
    for (const i of s.interfaces) {
      const opts = i.tsresol === undefined ? new Uint8Array(0) : concat([u16(9), u16(1), Uint8Array.of(i.tsresol, 0, 0, 0), u16(0), u16(0)]);
      parts.push(block(1, concat([u16(i.linkType), u16(0), u32(262144), opts])));
    }
    for (let k = 0; k < (s.unknownBlocks ?? 0); k++) parts.push(block(0x0bad + k, Uint8Array.of(1, 2, 3, 4, 5)));
    s.packets.forEach((p, n) => {
      const cap = p.data.subarray(0, p.caplen ?? p.data.length);
      if (p.simple) {
        parts.push(block(3, concat([u32(p.len ?? p.data.length), cap])));
        return;
      }
      const iface = s.interfaces[p.iface ?? 0]!;
      const res = iface.tsresol ?? 6;
      const unitsPerSec = res & 0x80 ? 2n ** BigInt(res & 0x7f) : 10n ** BigInt(res);
      const t = p.timeNs ?? 1_764_750_000_000_000_000n + BigInt(n) * 1_000_000n;
      const ts = (t * unitsPerSec) / 1_000_000_000n;
      parts.push(
        block(6, concat([u32(p.iface ?? 0), u32(Number(ts >> 32n)), u32(Number(ts & 0xffffffffn)), u32(cap.length), u32(p.len ?? p.data.length), cap])),
      );
    });
  }
  return concat(parts);
}

/** A TCP session's parts: the two ends, each direction's messages in send order, how they are cut. */
export interface SessionSpec {
  client?: string;
  server?: string;
  cport?: number;
  sport?: number;
  /** Each message with its direction, in the order they are sent. */
  messages: { toServer: boolean; bytes: Uint8Array }[];
  /** Largest segment payload; default 1448. */
  mss?: number;
  isnClient?: number;
  isnServer?: number;
  /** No SYN handshake (a capture begun mid-connection). */
  noHandshake?: boolean;
}

/** The IP packets of a session: handshake, every message cut into segments and acknowledged, FINs. */
export function sessionPackets(s: SessionSpec): SegSpec[] {
  const c = s.client ?? "10.0.0.1";
  const v = s.server ?? "10.0.0.2";
  const cp = s.cport ?? 40000;
  const sp = s.sport ?? 8090;
  const mss = s.mss ?? 1448;
  let cs = s.isnClient ?? 1000;
  let ss = s.isnServer ?? 5000;
  const out: SegSpec[] = [];
  const up = (seg: Omit<SegSpec, "src" | "dst" | "sport" | "dport">): SegSpec => ({ src: c, dst: v, sport: cp, dport: sp, ...seg });
  const down = (seg: Omit<SegSpec, "src" | "dst" | "sport" | "dport">): SegSpec => ({ src: v, dst: c, sport: sp, dport: cp, ...seg });
  if (!s.noHandshake) {
    out.push(up({ seq: cs, flags: { syn: true } }));
    out.push(down({ seq: ss, ack: cs + 1, flags: { syn: true, ack: true } }));
    cs += 1;
    ss += 1;
    out.push(up({ seq: cs, ack: ss, flags: { ack: true } }));
  }
  for (const m of s.messages) {
    for (let at = 0; at < m.bytes.length; at += mss) {
      const payload = m.bytes.subarray(at, at + mss);
      if (m.toServer) {
        out.push(up({ seq: cs, ack: ss, flags: { ack: true, psh: true }, payload }));
        cs = (cs + payload.length) >>> 0;
      } else {
        out.push(down({ seq: ss, ack: cs, flags: { ack: true, psh: true }, payload }));
        ss = (ss + payload.length) >>> 0;
      }
    }
    if (m.toServer) out.push(down({ seq: ss, ack: cs, flags: { ack: true } }));
    else out.push(up({ seq: cs, ack: ss, flags: { ack: true } }));
  }
  out.push(up({ seq: cs, ack: ss, flags: { fin: true, ack: true } }));
  out.push(down({ seq: ss, ack: cs + 1, flags: { fin: true, ack: true } }));
  return out;
}

/** A pcap of IP packets on Ethernet. */
export function pcapOf(segs: readonly SegSpec[], link: Link = "ether"): Uint8Array {
  return pcapFile(
    segs.map((s) => ({ data: framed(link, ipPacket(s)) })),
    { linkType: LINK_TYPE[link] },
  );
}

/** A consensus header (256 bytes) and body. */
export function message(
  command: number,
  body: Uint8Array,
  set: Partial<{ operation: number; request: number; legacy: number; status: number }> = {},
): Uint8Array {
  const b = new Uint8Array(256 + body.length);
  const v = new DataView(b.buffer);
  v.setUint32(48, b.length, true);
  b[60] = command;
  if (command === 5) {
    v.setBigUint64(168, BigInt(set.request ?? 1), true);
    b[176] = set.operation ?? 0;
    v.setUint32(196, set.legacy ?? 0, true);
  } else if (command === 8) {
    v.setBigUint64(200, BigInt(set.request ?? 1), true);
    b[208] = set.operation ?? 0;
    v.setUint32(216, set.status ?? 0, true);
  }
  b.set(body, 256);
  return b;
}

const text = new TextEncoder();
const name = (s: string) => concat([Uint8Array.of(text.encode(s).length), text.encode(s)]);

/** A SendMessages request of `count` messages (stream 1, topic 1, partition 1). */
export function sendRequest(xxh: Xxh3, count: number, request = 1, payloadBytes = 20): Uint8Array {
  const batch = encodeBatch(xxh, {
    originTimestamp: 1_764_750_000_000_000n,
    messages: Array.from({ length: count }, (_, i) => ({ id: BigInt(i + 1), payload: "x".repeat(payloadBytes), timestampDelta: i })),
  });
  const meta = concat([Uint8Array.of(1, 4), le32(1), Uint8Array.of(1, 4), le32(1), Uint8Array.of(2, 4), le32(1), le32(count)]);
  return message(5, concat([le32(meta.length), meta, batch]), { operation: 160, request });
}

/** A login (Register) request with a password. */
export function loginRequest(user: string, password: string): Uint8Array {
  return message(5, concat([le32(11 << 10), name("node-sdk"), name("1.0"), name(user), name(password), le32(0)]), { operation: 1, request: 0 });
}

/** A PollMessages request (consumer 1, stream 1, topic 1, partition 1, offset strategy). */
export function pollRequest(offset: number, count: number, request = 1): Uint8Array {
  const id = (v: number) => concat([Uint8Array.of(1, 4), le32(v)]);
  const body = concat([
    Uint8Array.of(1),
    id(1),
    id(1),
    id(1),
    Uint8Array.of(1),
    le32(1),
    Uint8Array.of(1),
    le32(offset),
    le32(0),
    le32(count),
    Uint8Array.of(0),
  ]);
  return message(5, body, { operation: 2, legacy: 100, request });
}

/** A reply with a body. */
export function reply(operation: number, body: Uint8Array = new Uint8Array(0), request = 1, status = 0): Uint8Array {
  return message(8, body, { operation, request, status });
}

/** A send reply with one confirmation. */
export function confirmationReply(baseOffset: number, request = 1): Uint8Array {
  return reply(160, concat([le32(1), le32(1), le32(1), le32(1), le32(baseOffset), le32(0)]), request);
}
