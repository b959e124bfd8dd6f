/**
 * Writes a classic pcap (Ethernet, IPv4, TCP) of one connection from the messages each side sends:
 * handshake, then each message cut into segments of at most `mss` bytes, several messages packed
 * into one segment when `pack` is set. For the dissector tests and the tshark benchmark.
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
  const clientPort = opts.clientPort ?? 40000;
  const serverPort = opts.serverPort ?? 8090;
  const mss = opts.mss ?? 65483;
  const records: Buffer[] = [];
  const fileHeader = Buffer.alloc(24);
  fileHeader.writeUInt32LE(0xa1b2c3d4, 0);
  fileHeader.writeUInt16LE(2, 4);
  fileHeader.writeUInt16LE(4, 6);
  fileHeader.writeUInt32LE(262144, 16);
  fileHeader.writeUInt32LE(1, 20);
  records.push(fileHeader);
  const seq = { client: 1000, server: 5000 };
  let micros = 1_700_000_000_000_000;
  const packet = (toServer: boolean, flags: number, payload: Uint8Array): void => {
    const ip = Buffer.alloc(20);
    const tcp = Buffer.alloc(20);
    ip.writeUInt8(0x45, 0);
    ip.writeUInt16BE(40 + payload.length, 2);
    ip.writeUInt8(64, 8);
    ip.writeUInt8(6, 9);
    ip.writeUInt32BE(0x7f000001, 12);
    ip.writeUInt32BE(0x7f000001, 16);
    ip.writeUInt16BE(checksum16(ip), 10);
    tcp.writeUInt16BE(toServer ? clientPort : serverPort, 0);
    tcp.writeUInt16BE(toServer ? serverPort : clientPort, 2);
    tcp.writeUInt32BE((toServer ? seq.client : seq.server) >>> 0, 4);
    tcp.writeUInt32BE((toServer ? seq.server : seq.client) >>> 0, 8);
    tcp.writeUInt8(5 << 4, 12);
    tcp.writeUInt8(flags, 13);
    tcp.writeUInt16BE(65535, 14);
    const frame = Buffer.concat([Buffer.alloc(12), Buffer.from([0x08, 0x00]), ip, tcp, payload]);
    const rec = Buffer.alloc(16);
    micros += 10;
    rec.writeUInt32LE(Math.floor(micros / 1e6), 0);
    rec.writeUInt32LE(micros % 1e6, 4);
    rec.writeUInt32LE(frame.length, 8);
    rec.writeUInt32LE(frame.length, 12);
    records.push(rec, frame);
    const advance = payload.length + (flags & 0x02 ? 1 : 0);
    if (toServer) seq.client = (seq.client + advance) % 2 ** 32;
    else seq.server = (seq.server + advance) % 2 ** 32;
  };
  packet(true, 0x02, new Uint8Array(0)); // SYN
  packet(false, 0x12, new Uint8Array(0)); // SYN, ACK
  packet(true, 0x10, new Uint8Array(0)); // ACK
  let i = 0;
  while (i < messages.length) {
    const side = (messages[i] as Sent).toServer;
    const run = [(messages[i] as Sent).bytes];
    i++;
    while (opts.pack && i < messages.length && (messages[i] as Sent).toServer === side) run.push((messages[i++] as Sent).bytes);
    const stream = Buffer.concat(run);
    for (let at = 0; at < stream.length; at += mss) packet(side, 0x18, stream.subarray(at, Math.min(at + mss, stream.length)));
  }
  return Buffer.concat(records);
}
