/**
 * From a packet's captured bytes to its TCP segment (captures.md "Link types"): Ethernet with 802.1Q
 * tags, Linux cooked v1/v2, raw IP, BSD null/loopback; IPv4 (options; a fragment is reported) and IPv6
 * (extension headers skipped). Byte counts past the captured bytes are kept, so a snap-length cut is a gap.
 */

/** A TCP segment's addressing, sequence number, flags and payload place within the packet's captured bytes. */
export interface TcpSegment {
  /** "addr:port" of each end ("[v6]:port" for IPv6). */
  readonly src: string;
  readonly dst: string;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly seq: number;
  /** The acknowledgement number (meaningful when ack is set). */
  readonly ackSeq: number;
  readonly syn: boolean;
  readonly fin: boolean;
  readonly rst: boolean;
  readonly ack: boolean;
  /** Where the payload starts in the captured bytes. */
  readonly payloadStart: number;
  /** Payload bytes captured. */
  readonly captured: number;
  /** Payload bytes the snap length cut off (on the wire, not in the file). */
  readonly missing: number;
}

/** Why a packet carries no TCP segment the reader follows. */
export type NotTcp =
  | { readonly kind: "other" }
  | { readonly kind: "udp"; readonly srcPort: number; readonly dstPort: number }
  | { readonly kind: "fragment"; readonly text: string }
  | { readonly kind: "cut"; readonly text: string };

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const ETHERTYPE_VLAN = [0x8100, 0x88a8, 0x9100];

/** Decodes a packet down to TCP; `len` is its length on the wire. A segment is valid until the next call (one object is reused). */
export function tcpSegmentOf(data: Uint8Array, len: number, linkType: number): TcpSegment | NotTcp {
  const ip = ipStart(data, linkType);
  if (ip < 0) return { kind: "other" };
  return ipPacket(data, Math.floor(ip / 0x10000), ip % 0x10000, len);
}

const be16 = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!;
const be32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

const ip = (at: number, ethertype: number): number => at * 0x10000 + ethertype;

/** Where the IP header starts and which IP version the link says it is (0: read the version nibble), as `at * 2^16 + ethertype`; -1 for none. */
function ipStart(b: Uint8Array, linkType: number): number {
  switch (linkType) {
    case 1: {
      if (b.length < 14) return -1;
      let at = 12;
      let type = be16(b, at);
      while (ETHERTYPE_VLAN.includes(type) && at + 6 <= b.length) {
        at += 4;
        type = be16(b, at);
      }
      return ip(at + 2, type);
    }
    case 113:
      return b.length >= 16 ? ip(16, be16(b, 14)) : -1;
    case 276:
      return b.length >= 20 ? ip(20, be16(b, 0)) : -1;
    case 101:
      return ip(0, 0);
    case 228:
      return ip(0, ETHERTYPE_IPV4);
    case 229:
      return ip(0, ETHERTYPE_IPV6);
    case 0:
    case 108: {
      // The 4-byte address family is in the writer's byte order (0) or big-endian (108); 2 is IPv4, 24/28/30 IPv6.
      if (b.length < 4) return -1;
      return ip(4, 0);
    }
    default:
      return -1;
  }
}

function ipPacket(b: Uint8Array, at: number, ethertype: number, len: number): TcpSegment | NotTcp {
  if (at >= b.length) return { kind: "other" };
  const version = b[at]! >> 4;
  if ((ethertype === ETHERTYPE_IPV4 || ethertype === 0) && version === 4) return ipv4(b, at, len);
  if ((ethertype === ETHERTYPE_IPV6 || ethertype === 0) && version === 6) return ipv6(b, at, len);
  return { kind: "other" };
}

function ipv4(b: Uint8Array, at: number, len: number): TcpSegment | NotTcp {
  if (at + 20 > b.length) return { kind: "cut", text: "the IPv4 header was cut by the snap length" };
  const ihl = (b[at]! & 0x0f) * 4;
  const total = be16(b, at + 2);
  const flagsFrag = be16(b, at + 6);
  if (b[at + 9] !== 6) return b[at + 9] === UDP && (flagsFrag & 0x1fff) === 0 ? udpPorts(b, at + ihl) : { kind: "other" };
  if (flagsFrag & 0x2000 || flagsFrag & 0x1fff)
    return {
      kind: "fragment",
      text: `an IPv4 fragment ${address(b, at, true)} → ${address(b, at, false)} (offset ${(flagsFrag & 0x1fff) * 8}): fragments are not reassembled`,
    };
  if (ihl < 20) return { kind: "other" };
  // The IP total length bounds the segment (Ethernet pads short frames); 0 is TSO's "unknown".
  const ipEnd = total >= ihl ? at + total : at + (len - at);
  return tcp(b, at + ihl, ipEnd, at, len);
}

const UDP = 17;

/** A UDP datagram's ports (RFC 768), counted for the QUIC port; "other" when its header was cut. */
function udpPorts(b: Uint8Array, at: number): NotTcp {
  return at + 4 <= b.length ? { kind: "udp", srcPort: be16(b, at), dstPort: be16(b, at + 2) } : { kind: "other" };
}

const IPV6_EXTENSIONS = new Set([0, 43, 60, 51, 135, 139, 140, 253, 254]);

function ipv6(b: Uint8Array, at: number, len: number): TcpSegment | NotTcp {
  if (at + 40 > b.length) return { kind: "cut", text: "the IPv6 header was cut by the snap length" };
  const payload = be16(b, at + 4);
  let next = b[at + 6]!;
  let p = at + 40;
  while (IPV6_EXTENSIONS.has(next)) {
    if (p + 8 > b.length) return { kind: "cut", text: "an IPv6 extension header was cut by the snap length" };
    const hdrLen = next === 51 ? (b[p + 1]! + 2) * 4 : (b[p + 1]! + 1) * 8;
    next = b[p]!;
    p += hdrLen;
  }
  if (next === 44) return { kind: "fragment", text: `an IPv6 fragment ${address(b, at, true)} → ${address(b, at, false)}: fragments are not reassembled` };
  if (next !== 6) return next === UDP ? udpPorts(b, p) : { kind: "other" };
  const ipEnd = payload > 0 ? at + 40 + payload : at + (len - at);
  return tcp(b, p, ipEnd, at, len);
}

/** One end's address, "a.b.c.d" or "[v6]", of the IP header at `ip`. */
function address(b: Uint8Array, ip: number, src: boolean): string {
  if (b[ip]! >> 4 === 6) return `[${v6(b, ip + (src ? 8 : 24))}]`;
  const at = ip + (src ? 12 : 16);
  return `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
}

/** A direct-mapped table of IPv4 ends' names: the same few ends recur packet after packet. */
const END_SLOTS = 256;
const endAddrs = new Float64Array(END_SLOTS).fill(-1);
const endPorts = new Int32Array(END_SLOTS).fill(-1);
const endNames: string[] = new Array<string>(END_SLOTS).fill("");

/**
 * One end's "addr:port": for IPv4 the same string while the end recurs, so the connection table
 * hashes it once rather than a new string each packet.
 */
function endName(b: Uint8Array, ip: number, src: boolean, port: number): string {
  if (b[ip]! >> 4 === 6) return `${address(b, ip, src)}:${port}`;
  const a = be32(b, ip + (src ? 12 : 16));
  const slot = (a ^ (a >>> 8) ^ (a >>> 16) ^ (a >>> 24) ^ port ^ (port >>> 8)) & (END_SLOTS - 1);
  if (endAddrs[slot] === a && endPorts[slot] === port) return endNames[slot]!;
  const name = `${address(b, ip, src)}:${port}`;
  endAddrs[slot] = a;
  endPorts[slot] = port;
  endNames[slot] = name;
  return name;
}

function v6(b: Uint8Array, at: number): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(be16(b, at + i).toString(16));
  // The longest run of zero groups shortens to "::" (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  if (best < 0) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLen).join(":")}`;
}

/** The TCP header at `at` of the IP packet whose header is at `ip`. */
function tcp(b: Uint8Array, at: number, ipEnd: number, ip: number, len: number): TcpSegment | NotTcp {
  if (at + 20 > b.length) return { kind: "cut", text: `the TCP header ${address(b, ip, true)} → ${address(b, ip, false)} was cut by the snap length` };
  const srcPort = be16(b, at);
  const dstPort = be16(b, at + 2);
  const seq = be32(b, at + 4);
  const dataOffset = (b[at + 12]! >> 4) * 4;
  const flags = b[at + 13]!;
  if (dataOffset < 20) return { kind: "other" };
  const payloadStart = at + dataOffset;
  // Bytes on the wire: the IP length where it is known, else the packet's length.
  const end = Math.min(ipEnd, len);
  const total = Math.max(0, end - payloadStart);
  const captured = Math.max(0, Math.min(total, b.length - payloadStart));
  const seg = SEGMENT;
  seg.src = endName(b, ip, true, srcPort);
  seg.dst = endName(b, ip, false, dstPort);
  seg.srcPort = srcPort;
  seg.dstPort = dstPort;
  seg.seq = seq;
  seg.ackSeq = be32(b, at + 8);
  seg.syn = (flags & 0x02) !== 0;
  seg.fin = (flags & 0x01) !== 0;
  seg.rst = (flags & 0x04) !== 0;
  seg.ack = (flags & 0x10) !== 0;
  seg.payloadStart = payloadStart;
  seg.captured = captured;
  seg.missing = total - captured;
  return seg;
}

/** The segment every packet's decode fills: a packet costs no object of its own (issue #24). */
const SEGMENT: { -readonly [K in keyof TcpSegment]: TcpSegment[K] } = {
  src: "",
  dst: "",
  srcPort: 0,
  dstPort: 0,
  seq: 0,
  ackSeq: 0,
  syn: false,
  fin: false,
  rst: false,
  ack: false,
  payloadStart: 0,
  captured: 0,
  missing: 0,
};
