/**
 * Writes a classic pcap (Ethernet, IPv4, TCP) of one connection from the messages each side sends:
 * handshake, then each message cut into segments of at most `mss` bytes, several messages packed
 * into one segment when `pack` is set; optionally with a snap length, lost segments and retransmissions
 * that differ. For the dissector tests and the benchmarks.
 */

/** One message of the conversation: who sends it and its bytes. */
export interface Sent {
  readonly toServer: boolean;
  readonly bytes: Uint8Array;
}

/** Options: ports, segment size, whether consecutive messages of one side share segments. */
export interface PcapOptions {
  readonly clientPort?: number;
  readonly serverPort?: number;
  readonly mss?: number;
  readonly pack?: boolean;
  /** Each record keeps at most this many bytes of its packet (caplen < len past it), as `tcpdump -s N` writes. */
  readonly snaplen?: number;
  /** Data segments (numbered from 0 over both sides, in send order) the capture never saw: their bytes still advance the sequence. */
  readonly lose?: readonly number[];
  /** Data segments sent again right after the first copy, at its sequence number, with payload byte `flip` inverted when given. */
  readonly resend?: readonly { readonly segment: number; readonly flip?: number }[];
}

function checksum16(b: Buffer): number {
  let sum = 0;
  for (let i = 0; i + 1 < b.length; i += 2) sum += b.readUInt16BE(i);
  if (b.length % 2) sum += (b[b.length - 1] as number) << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

/** The pcap file's bytes for the conversation. */
export function pcapOf(messages: readonly Sent[], opts: PcapOptions = {}): Uint8Array {
  const chunks: Uint8Array[] = [];
  writePcap(messages, opts, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

/**
 * Writes the pcap of the conversation to `emit` as it goes (file header, then each record's header and
 * bytes), so a capture of gigabytes never sits in memory; `messages` may be a generator.
 */
export function writePcap(messages: Iterable<Sent>, opts: PcapOptions, emit: (chunk: Uint8Array) => void): void {
  const clientPort = opts.clientPort ?? 40000;
  const serverPort = opts.serverPort ?? 8090;
  const mss = opts.mss ?? 65483;
  const lose = new Set(opts.lose ?? []);
  const fileHeader = Buffer.alloc(24);
  fileHeader.writeUInt32LE(0xa1b2c3d4, 0);
  fileHeader.writeUInt16LE(2, 4);
  fileHeader.writeUInt16LE(4, 6);
  fileHeader.writeUInt32LE(opts.snaplen ?? 262144, 16);
  fileHeader.writeUInt32LE(1, 20);
  emit(fileHeader);
  const seq = { client: 1000, server: 5000 };
  let micros = 1_700_000_000_000_000;
  const packet = (toServer: boolean, flags: number, payload: Uint8Array, at = toServer ? seq.client : seq.server, write = true): void => {
    const frame = Buffer.alloc(54 + payload.length);
    frame.writeUInt16BE(0x0800, 12); // Ethernet II, IPv4
    const ip = frame.subarray(14, 34);
    ip.writeUInt8(0x45, 0);
    ip.writeUInt16BE(40 + payload.length, 2);
    ip.writeUInt8(64, 8);
    ip.writeUInt8(6, 9);
    ip.writeUInt32BE(0x7f000001, 12);
    ip.writeUInt32BE(0x7f000001, 16);
    ip.writeUInt16BE(checksum16(ip), 10);
    const tcp = frame.subarray(34, 54);
    tcp.writeUInt16BE(toServer ? clientPort : serverPort, 0);
    tcp.writeUInt16BE(toServer ? serverPort : clientPort, 2);
    tcp.writeUInt32BE(at >>> 0, 4);
    tcp.writeUInt32BE((toServer ? seq.server : seq.client) >>> 0, 8);
    tcp.writeUInt8(5 << 4, 12);
    tcp.writeUInt8(flags, 13);
    tcp.writeUInt16BE(65535, 14);
    frame.set(payload, 54);
    micros += 10;
    if (write) {
      const rec = Buffer.alloc(16);
      const caplen = Math.min(frame.length, opts.snaplen ?? frame.length);
      rec.writeUInt32LE(Math.floor(micros / 1e6), 0);
      rec.writeUInt32LE(micros % 1e6, 4);
      rec.writeUInt32LE(caplen, 8);
      rec.writeUInt32LE(frame.length, 12);
      emit(rec);
      emit(frame.subarray(0, caplen));
    }
    const advance = payload.length + (flags & 0x02 ? 1 : 0);
    if (toServer) seq.client = (seq.client + advance) % 2 ** 32;
    else seq.server = (seq.server + advance) % 2 ** 32;
  };
  packet(true, 0x02, new Uint8Array(0)); // SYN
  packet(false, 0x12, new Uint8Array(0)); // SYN, ACK
  packet(true, 0x10, new Uint8Array(0)); // ACK
  let segment = 0;
  const data = (side: boolean, payload: Uint8Array): void => {
    const at = side ? seq.client : seq.server;
    packet(side, 0x18, payload, at, !lose.has(segment));
    for (const r of opts.resend ?? []) {
      if (r.segment !== segment) continue;
      const copy = Uint8Array.from(payload);
      if (r.flip !== undefined) copy[r.flip] = (copy[r.flip] as number) ^ 0xff;
      const next = side ? seq.client : seq.server;
      packet(side, 0x18, copy, at); // a retransmission: the sequence number of the first copy
      if (side) seq.client = next;
      else seq.server = next;
    }
    segment++;
  };
  let run: Uint8Array[] = [];
  let side: boolean | null = null;
  const flush = (): void => {
    if (side === null) return;
    const stream = Buffer.concat(run);
    for (let at = 0; at < stream.length; at += mss) data(side, stream.subarray(at, Math.min(at + mss, stream.length)));
    run = [];
  };
  for (const m of messages) {
    if (side !== m.toServer || !opts.pack) flush();
    side = m.toServer;
    run.push(m.bytes);
  }
  flush();
}
