/**
 * pcap and pcapng records (captures.md "The capture file"): the file header, then one callback per
 * packet with its captured bytes, original length, link type and time. A length that lies stops the
 * walk with capture-unreadable; nothing past the file is ever read.
 */
import type { WindowReader } from "./source.ts";

/** pcap magic as a little-endian u32: microseconds and nanoseconds. */
const PCAP_MICRO = 0xa1b2c3d4;
const PCAP_NANO = 0xa1b23c4d;
const PCAPNG_SHB = 0x0a0d0d0a;
const PCAPNG_BOM = 0x1a2b3c4d;

/** True when the first bytes of a file are a pcap (either resolution, either byte order) or pcapng magic. */
export function isCaptureMagic(head: Uint8Array): boolean {
  if (head.length < 4) return false;
  const le = (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0;
  const be = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
  if (le === PCAP_MICRO || le === PCAP_NANO || be === PCAP_MICRO || be === PCAP_NANO) return true;
  if (le !== PCAPNG_SHB || head.length < 12) return le === PCAPNG_SHB && head.length < 12;
  const bomLe = (head[8]! | (head[9]! << 8) | (head[10]! << 16) | (head[11]! << 24)) >>> 0;
  const bomBe = ((head[8]! << 24) | (head[9]! << 16) | (head[10]! << 8) | head[11]!) >>> 0;
  return bomLe === PCAPNG_BOM || bomBe === PCAPNG_BOM;
}

/** One packet record; it and its `data` are valid only during the callback (the walk reuses one object). */
export interface PacketRecord {
  /** 1-based, as Wireshark numbers packets. */
  readonly number: number;
  readonly recordStart: number;
  readonly recordEnd: number;
  /** File offset of the packet's first captured byte. */
  readonly dataStart: number;
  readonly data: Uint8Array;
  /** The packet's length on the wire (caplen < len: the snap length cut its tail). */
  readonly len: number;
  readonly linkType: number;
  /** Capture time in nanoseconds since the Unix epoch (0 where the block carries none); worked out when read. */
  readonly timeNs: bigint;
}

/**
 * The one record a walk hands out, packet after packet: most packets continue a message whose time
 * was read from its first one, so a packet's time is made (two or three BigInts) only when asked for.
 */
class ReusedRecord implements PacketRecord {
  number = 0;
  recordStart = 0;
  recordEnd = 0;
  dataStart = 0;
  data: Uint8Array = new Uint8Array(0);
  len = 0;
  linkType = 0;
  /** pcap: seconds and the fraction; pcapng: the timestamp's high and low words (hi -1: none). */
  private hi = 0;
  private lo = 0;
  /** pcap: 0 for µs, 1 for ns; pcapng: the interface's units per second. */
  private unit: bigint | 0 | 1 = 0;

  get timeNs(): bigint {
    const { hi, lo, unit } = this;
    // In microseconds the time fits a double exactly (sec and frac are u32): two BigInts, not four.
    if (unit === 0) return BigInt(hi * 1_000_000 + lo) * 1000n;
    if (unit === 1) return BigInt(hi) * 1_000_000_000n + BigInt(lo);
    if (hi < 0) return 0n;
    return (((BigInt(hi) << 32n) | BigInt(lo)) * 1_000_000_000n) / unit;
  }

  /** Sets the time: pcap seconds and fraction (`nano`: the fraction is ns), or a pcapng timestamp (hi -1: none) and its units. */
  time(hi: number, lo: number, unit: bigint | 0 | 1): void {
    this.hi = hi;
    this.lo = lo;
    this.unit = unit;
  }
}

/** A file-level finding: capture-unreadable (the walk stops) or capture-link-unsupported. */
export interface FileFinding {
  readonly code: "capture-unreadable" | "capture-link-unsupported";
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly packet: number | null;
}

/** What the file walk saw. */
export interface CaptureFileInfo {
  fileFormat: "pcap" | "pcapng";
  /** Link types of the interfaces, in order of first appearance. */
  linkTypes: number[];
  packets: number;
  /** The time resolution of the first interface: 6 (µs) or 9 (ns), for printing times. */
  digits: number;
}

/** Link types the reader decodes (captures.md). */
export const LINK_TYPES_DECODED: ReadonlySet<number> = new Set([0, 1, 101, 108, 113, 228, 229, 276]);

type Sink = {
  packet: (p: PacketRecord) => void;
  finding: (f: FileFinding) => void;
  /** The info being filled, before the first packet. */ info?: (info: CaptureFileInfo) => void;
};

function u32(b: Uint8Array, at: number, little: boolean): number {
  return little
    ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0
    : ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}
const u16 = (b: Uint8Array, at: number, little: boolean): number => (little ? b[at]! | (b[at + 1]! << 8) : (b[at]! << 8) | b[at + 1]!);

/** Walks every record of a pcap or pcapng file. */
export function readCaptureFile(reader: WindowReader, sink: Sink): CaptureFileInfo {
  const head = reader.bytes(0, 4);
  const le = head.length === 4 ? u32(head, 0, true) : 0;
  if (le === PCAPNG_SHB) return readPcapng(reader, sink);
  return readPcap(reader, sink);
}

function readPcap(reader: WindowReader, sink: Sink): CaptureFileInfo {
  const info: CaptureFileInfo = { fileFormat: "pcap", linkTypes: [], packets: 0, digits: 6 };
  sink.info?.(info);
  const size = reader.source.size;
  const h = reader.bytes(0, 24);
  const magicLe = h.length >= 4 ? u32(h, 0, true) : 0;
  const magicBe = h.length >= 4 ? u32(h, 0, false) : 0;
  const little = magicLe === PCAP_MICRO || magicLe === PCAP_NANO;
  if (!little && magicBe !== PCAP_MICRO && magicBe !== PCAP_NANO) {
    sink.finding({ code: "capture-unreadable", start: 0, end: Math.min(4, size), text: "no pcap or pcapng magic at byte 0", packet: null });
    return info;
  }
  if (h.length < 24) {
    sink.finding({ code: "capture-unreadable", start: 0, end: size, text: `the pcap file header needs 24 bytes, the file has ${size}`, packet: null });
    return info;
  }
  const nano = (little ? magicLe : magicBe) === PCAP_NANO;
  info.digits = nano ? 9 : 6;
  const linkType = u32(h, 20, little) & 0xffff;
  info.linkTypes.push(linkType);
  if (!LINK_TYPES_DECODED.has(linkType))
    sink.finding({
      code: "capture-link-unsupported",
      start: 20,
      end: 24,
      text: `link type ${linkType} is not decoded: its packets are counted only`,
      packet: null,
    });
  let at = 24;
  const p = new ReusedRecord();
  p.linkType = linkType;
  while (at < size) {
    const number = info.packets + 1;
    if (at + 16 > size) {
      sink.finding({
        code: "capture-unreadable",
        start: at,
        end: size,
        text: `packet ${number}: the file ends ${size - at} bytes into a 16-byte record header`,
        packet: number,
      });
      break;
    }
    // The record header's words are read in the window: a packet costs no view of them.
    const sec = reader.u32(at, little);
    const frac = reader.u32(at + 4, little);
    const caplen = reader.u32(at + 8, little);
    const len = reader.u32(at + 12, little);
    if (at + 16 + caplen > size) {
      sink.finding({
        code: "capture-unreadable",
        start: at + 8,
        end: at + 12,
        text: `packet ${number}: caplen ${caplen} runs ${at + 16 + caplen - size} bytes past the end of the file`,
        packet: number,
      });
      break;
    }
    info.packets = number;
    p.number = number;
    p.recordStart = at;
    p.recordEnd = at + 16 + caplen;
    p.dataStart = at + 16;
    p.data = reader.bytes(at + 16, caplen);
    p.len = Math.max(len, caplen);
    p.time(sec, frac, nano ? 1 : 0);
    sink.packet(p);
    at += 16 + caplen;
  }
  return info;
}

interface Interface {
  readonly linkType: number;
  /** Timestamp units per second. */
  readonly unitsPerSecond: bigint;
}

function readPcapng(reader: WindowReader, sink: Sink): CaptureFileInfo {
  const info: CaptureFileInfo = { fileFormat: "pcapng", linkTypes: [], packets: 0, digits: 6 };
  sink.info?.(info);
  const size = reader.source.size;
  let little = true;
  let interfaces: Interface[] = [];
  let at = 0;
  const p = new ReusedRecord();
  const unreadable = (start: number, end: number, text: string) =>
    sink.finding({ code: "capture-unreadable", start, end: Math.min(end, size), text, packet: null });
  while (at < size) {
    const head = reader.bytes(at, 12);
    if (head.length < 8) {
      unreadable(at, size, `the file ends ${head.length} bytes into a block header`);
      break;
    }
    let type = u32(head, 0, little);
    if (u32(head, 0, true) === PCAPNG_SHB) {
      type = PCAPNG_SHB;
      if (head.length < 12) {
        unreadable(at, size, "the file ends inside a section header block");
        break;
      }
      if (u32(head, 8, true) === PCAPNG_BOM) little = true;
      else if (u32(head, 8, false) === PCAPNG_BOM) little = false;
      else {
        unreadable(at + 8, at + 12, "a section header block without the byte-order magic 1a2b3c4d");
        break;
      }
      interfaces = [];
    }
    const length = u32(head, 4, little);
    if (length < 12 || length % 4 !== 0) {
      unreadable(at + 4, at + 8, `block type 0x${type.toString(16)} has length ${length}: a block is at least 12 bytes and a multiple of 4`);
      break;
    }
    if (at + length > size) {
      unreadable(at + 4, at + 8, `block type 0x${type.toString(16)} of length ${length} runs ${at + length - size} bytes past the end of the file`);
      break;
    }
    const trailer = u32(reader.bytes(at + length - 4, 4), 0, little);
    if (trailer !== length) {
      unreadable(
        at + length - 4,
        at + length,
        `block type 0x${type.toString(16)} at ${at}: its leading length ${length} and trailing length ${trailer} differ`,
      );
      break;
    }
    if (type === 1) {
      const b = reader.bytes(at, length);
      const linkType = u16(b, 8, little);
      const unitsPerSecond = tsresolOf(b, 16, length - 4, little);
      interfaces.push({ linkType, unitsPerSecond });
      if (info.linkTypes.length === 0) info.digits = unitsPerSecond >= 1_000_000_000n ? 9 : 6;
      if (!info.linkTypes.includes(linkType)) info.linkTypes.push(linkType);
      if (!LINK_TYPES_DECODED.has(linkType))
        sink.finding({
          code: "capture-link-unsupported",
          start: at,
          end: at + length,
          text: `interface ${interfaces.length - 1}: link type ${linkType} is not decoded: its packets are counted only`,
          packet: null,
        });
    } else if (type === 6 || type === 2 || type === 3) {
      const number = info.packets + 1;
      const b = reader.bytes(at, Math.min(length, 28));
      let iface: number, caplen: number, len: number, dataOffset: number, tsHi: number, tsLo: number;
      if (type === 3) {
        iface = 0;
        len = b.length >= 12 ? u32(b, 8, little) : 0;
        caplen = Math.min(len, length - 16);
        dataOffset = 12;
        tsHi = -1;
        tsLo = 0;
      } else {
        if (length < 32) {
          unreadable(at + 4, at + 8, `packet ${number}: a packet block of length ${length} cannot hold its 20-byte header`);
          break;
        }
        iface = type === 6 ? u32(b, 8, little) : u16(b, 8, little);
        tsHi = u32(b, 12, little);
        tsLo = u32(b, 16, little);
        caplen = u32(b, 20, little);
        len = u32(b, 24, little);
        dataOffset = 28;
      }
      if (dataOffset + caplen > length - 4) {
        unreadable(at + dataOffset - 8, at + dataOffset - 4, `packet ${number}: caplen ${caplen} runs past its block of length ${length}`);
        break;
      }
      const i = interfaces[iface];
      if (!i) {
        unreadable(at + 8, at + 12, `packet ${number}: interface ${iface} was not described in this section`);
        break;
      }
      info.packets = number;
      p.number = number;
      p.recordStart = at;
      p.recordEnd = at + length;
      p.dataStart = at + dataOffset;
      p.data = reader.bytes(at + dataOffset, caplen);
      p.len = Math.max(len, caplen);
      p.linkType = i.linkType;
      p.time(tsHi, tsLo, i.unitsPerSecond);
      sink.packet(p);
    }
    // Every other block (name resolution, statistics, custom, …) is skipped by its length.
    at += length;
  }
  return info;
}

/** The if_tsresol option (code 9) of an interface block's options, as units per second; 10^6 without it. */
function tsresolOf(b: Uint8Array, from: number, to: number, little: boolean): bigint {
  let at = from;
  while (at + 4 <= to) {
    const code = u16(b, at, little);
    const len = u16(b, at + 2, little);
    if (code === 0) break;
    if (code === 9 && len >= 1 && at + 5 <= to) {
      const v = b[at + 4]!;
      const exp = BigInt(v & 0x7f);
      return v & 0x80 ? 1n << exp : 10n ** exp;
    }
    at += 4 + ((len + 3) & ~3);
  }
  return 1_000_000n;
}
