/** pcap and pcapng reading: every link type, both byte orders, µs and ns, several sections, lying lengths. */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../../checksum/xxh3.ts";
import { detectFormat } from "../detect.ts";
import { isCaptureMagic, readCaptureFile, type FileFinding, type PacketRecord } from "./file.ts";
import { memorySource, WindowReader } from "./source.ts";
import { openCapture } from "./capture.ts";
import { LINK_TYPE, framed, ipPacket, loginRequest, pcapFile, pcapngFile, reply, sessionPackets, type Link, type SegSpec } from "./synth.test-util.ts";
import { tcpSegmentOf } from "./link.ts";

const xxh = await loadXxh3();

function walk(bytes: Uint8Array): { packets: PacketRecord[]; findings: FileFinding[]; info: ReturnType<typeof readCaptureFile> } {
  const packets: PacketRecord[] = [];
  const findings: FileFinding[] = [];
  const info = readCaptureFile(new WindowReader(memorySource(bytes)), {
    // The walk reuses one record: copy what it holds now (its time is a getter).
    packet: (p) => packets.push({ ...p, timeNs: p.timeNs, data: p.data.slice() }),
    finding: (f) => findings.push(f),
  });
  return { packets, findings, info };
}

const SEG: SegSpec = { src: "10.1.2.3", dst: "10.1.2.4", sport: 40001, dport: 8090, seq: 77, ack: 5, payload: Uint8Array.of(9, 8, 7) };
const SEG6: SegSpec = { ...SEG, src: "fd00::1", dst: "fd00::2" };

describe("link types", () => {
  for (const link of Object.keys(LINK_TYPE) as Link[]) {
    for (const seg of link === "raw4" ? [SEG] : link === "raw6" ? [SEG6] : [SEG, SEG6]) {
      it(`${link} (${LINK_TYPE[link]}) carries a TCP segment over IPv${seg === SEG ? 4 : 6}`, () => {
        const { packets, findings } = walk(pcapFile([{ data: framed(link, ipPacket(seg)) }], { linkType: LINK_TYPE[link] }));
        expect(findings).toEqual([]);
        const t = tcpSegmentOf(packets[0]!.data, packets[0]!.len, packets[0]!.linkType);
        expect(t).toMatchObject({ srcPort: 40001, dstPort: 8090, seq: 77, captured: 3, missing: 0 });
        if ("src" in t) expect(t.src).toBe(seg === SEG ? "10.1.2.3:40001" : "[fd00::1]:40001");
      });
    }
  }

  it("null/loopback written big-endian (another host's byte order) still reads", () => {
    const { packets } = walk(pcapFile([{ data: framed("null", ipPacket(SEG), false) }], { linkType: 0 }));
    expect(tcpSegmentOf(packets[0]!.data, packets[0]!.len, 0)).toMatchObject({ seq: 77 });
  });

  it("IPv4 options and IPv6 extension headers are stepped over", () => {
    for (const s of [
      { ...SEG, ipOptions: 8 },
      { ...SEG6, v6ext: true },
    ]) {
      const d = framed("ether", ipPacket(s));
      expect(tcpSegmentOf(d, d.length, 1)).toMatchObject({ seq: 77, captured: 3 });
    }
  });

  it("an IPv4 fragment is reported, not read as TCP", () => {
    const bytes = pcapFile([{ data: framed("ether", ipPacket({ ...SEG, fragment: true })) }]);
    const c = openCapture(xxh, memorySource(bytes));
    expect(c.diagnostics.map((d) => [d.code, d.packet])).toEqual([["capture-link-unsupported", 1]]);
    expect(c.diagnostics[0]!.text).toMatch(/fragment/);
  });

  it("a link type the reader does not decode is reported on its header and its packets are counted", () => {
    const c = openCapture(xxh, memorySource(pcapFile([{ data: Uint8Array.of(1, 2, 3) }, { data: Uint8Array.of(4) }], { linkType: 147 })));
    expect(c.packets).toBe(2);
    expect(c.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([["capture-link-unsupported", 20, 24]]);
  });
});

describe("pcap", () => {
  const packets = [{ data: framed("ether", ipPacket(SEG)), timeNs: 1_764_750_000_123_456_789n }];
  for (const bigEndian of [false, true])
    for (const nano of [false, true])
      it(`${bigEndian ? "big" : "little"}-endian, ${nano ? "ns" : "µs"}: time, lengths and link type`, () => {
        const bytes = pcapFile(packets, { bigEndian, nano });
        expect(isCaptureMagic(bytes)).toBe(true);
        expect(detectFormat(bytes, "anything.bin").format).toBe("capture");
        const { packets: got, info, findings } = walk(bytes);
        expect(findings).toEqual([]);
        expect(info).toMatchObject({ fileFormat: "pcap", linkTypes: [1], packets: 1, digits: nano ? 9 : 6 });
        expect(got[0]!.timeNs).toBe(nano ? 1_764_750_000_123_456_789n : 1_764_750_000_123_456_000n);
        expect(got[0]!.data).toEqual(packets[0]!.data);
        expect(got[0]).toMatchObject({ number: 1, recordStart: 24, dataStart: 40 });
      });

  it("a truncated file: capture-unreadable on the record that runs past the end, the packets before it kept", () => {
    const bytes = pcapFile([{ data: new Uint8Array(60) }, { data: new Uint8Array(60) }]);
    const cut = bytes.subarray(0, bytes.length - 10);
    const { packets, findings } = walk(cut);
    expect(packets).toHaveLength(1);
    expect(findings).toMatchObject([{ code: "capture-unreadable", start: 24 + 76 + 8, end: 24 + 76 + 12, packet: 2 }]);
  });

  it("a 4 GiB caplen: capture-unreadable at once, nothing allocated or read past the file", () => {
    const bytes = pcapFile([{ data: new Uint8Array(60) }]);
    new DataView(bytes.buffer).setUint32(24 + 8, 0xffffffff, true);
    const { packets, findings } = walk(bytes);
    expect(packets).toEqual([]);
    expect(findings[0]).toMatchObject({ code: "capture-unreadable", start: 32, end: 36 });
    expect(findings[0]!.text).toMatch(/caplen 4294967295/);
  });

  it("a file header cut short, and bytes with no magic", () => {
    expect(walk(pcapFile([]).subarray(0, 10)).findings[0]).toMatchObject({ code: "capture-unreadable", start: 0, end: 10 });
    expect(isCaptureMagic(Uint8Array.of(1, 2, 3, 4))).toBe(false);
  });
});

describe("pcapng", () => {
  const data = framed("ether", ipPacket(SEG));
  for (const bigEndian of [false, true])
    it(`${bigEndian ? "big" : "little"}-endian: EPB and SPB, unknown blocks skipped, if_tsresol 9`, () => {
      const bytes = pcapngFile([
        {
          bigEndian,
          interfaces: [{ linkType: 1, tsresol: 9 }],
          unknownBlocks: 2,
          packets: [
            { data, timeNs: 1_764_750_000_123_456_789n },
            { data, simple: true },
          ],
        },
      ]);
      expect(isCaptureMagic(bytes)).toBe(true);
      const { packets, findings, info } = walk(bytes);
      expect(findings).toEqual([]);
      expect(info).toMatchObject({ fileFormat: "pcapng", linkTypes: [1], packets: 2, digits: 9 });
      expect(packets[0]!.timeNs).toBe(1_764_750_000_123_456_789n);
      expect(packets[1]!.data).toEqual(data);
    });

  it("several sections of either byte order, several interfaces and link types, a binary if_tsresol", () => {
    const cooked = framed("cooked2", ipPacket(SEG));
    const bytes = pcapngFile([
      { interfaces: [{ linkType: 1 }], packets: [{ data, timeNs: 2_000_000_000n }] },
      {
        bigEndian: true,
        interfaces: [{ linkType: 276 }, { linkType: 1, tsresol: 0x80 | 10 }],
        packets: [
          { data: cooked, iface: 0 },
          { data, iface: 1, timeNs: 3_000_000_000n },
        ],
      },
    ]);
    const { packets, findings, info } = walk(bytes);
    expect(findings).toEqual([]);
    expect(info.linkTypes).toEqual([1, 276]);
    expect(packets.map((p) => p.linkType)).toEqual([1, 276, 1]);
    expect(packets[0]!.timeNs).toBe(2_000_000_000n);
    // 2^-10 s units: 3 s is 3072 units, read back exactly.
    expect(packets[2]!.timeNs).toBe(3_000_000_000n);
  });

  it("a block whose two lengths differ, and one that runs past the file: capture-unreadable, the packets before kept", () => {
    const bytes = pcapngFile([{ interfaces: [{ linkType: 1 }], packets: [{ data }, { data }] }]);
    const lie = bytes.slice();
    const last = lie.length - 4;
    new DataView(lie.buffer).setUint32(last, 9999, true);
    const a = walk(lie);
    expect(a.packets).toHaveLength(1);
    expect(a.findings).toMatchObject([{ code: "capture-unreadable", start: last, end: last + 4 }]);
    expect(a.findings[0]!.text).toMatch(/differ/);
    const long = bytes.slice();
    const lastBlock = 32 + Math.ceil(data.length / 4) * 4;
    new DataView(long.buffer).setUint32(bytes.length - lastBlock + 4, 0x7ffffff0, true);
    const b = walk(long);
    expect(b.findings[0]).toMatchObject({ code: "capture-unreadable" });
    expect(b.findings[0]!.text).toMatch(/past the end of the file/);
  });
});

describe("snap length", () => {
  it("a packet cut by the snap length is capture-packet-truncated and its lost bytes are a gap, never zeros", () => {
    const msgs = [
      { toServer: true, bytes: loginRequest("u", "p") },
      { toServer: false, bytes: reply(1) },
    ];
    const segs = sessionPackets({ messages: msgs, sport: 8090 });
    const bytes = pcapFile(segs.map((s) => ({ data: framed("ether", ipPacket(s)), caplen: 54 + 100 })));
    const c = openCapture(xxh, memorySource(bytes));
    const codes = c.diagnostics.map((d) => d.code);
    expect(codes).toContain("capture-packet-truncated");
    expect(codes).toContain("tcp-gap");
    expect(c.connections[0]!.messages.map((m) => [m.size, m.complete])).toEqual([
      [msgs[0]!.bytes.length, false],
      [256, false],
    ]);
  });
});
