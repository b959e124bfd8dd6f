/**
 * Captures end to end in the core: connections and port reuse, Iggy by port or by content, message
 * cutting (gaps, resync, invalid sizes), bodies, pairing and latency, and every capture code shown.
 */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../../checksum/xxh3.ts";
import { CAPTURE_DIAGNOSTIC_CODES } from "../../../format/diagnostics.ts";
import { concat } from "../../walk/encode.ts";
import { openCapture, readMessage } from "./capture.ts";
import { memorySource } from "./source.ts";
import { captureJsonChunks } from "./json.ts";
import {
  confirmationReply,
  framed,
  ipPacket,
  loginRequest,
  message,
  pcapFile,
  pcapOf,
  pollRequest,
  reply,
  sendRequest,
  sessionPackets,
  type SegSpec,
  type SessionSpec,
} from "./synth.test-util.ts";

const xxh = await loadXxh3();
const open = (bytes: Uint8Array, port?: number) => openCapture(xxh, memorySource(bytes), { port });
const session = (spec: SessionSpec) => open(pcapOf(sessionPackets(spec)), spec.sport === 8090 || spec.sport === undefined ? undefined : spec.sport);
const codes = (c: ReturnType<typeof open>) => c.diagnostics.map((d) => d.code);

const SEND = sendRequest(xxh, 3, 7);
const BASIC = [
  { toServer: true, bytes: loginRequest("iggy", "s3cret-password") },
  { toServer: false, bytes: reply(1, new Uint8Array(0), 0) },
  { toServer: true, bytes: SEND },
  { toServer: false, bytes: confirmationReply(42, 7) },
  { toServer: true, bytes: pollRequest(0, 3, 8) },
  { toServer: false, bytes: reply(2, new Uint8Array(0), 8, 2010) },
];

describe("a session", () => {
  it("cuts every message, decodes each body, pairs replies with latency, masks the login secret", () => {
    const c = session({ messages: BASIC, mss: 100 });
    expect(c.connections).toHaveLength(1);
    const conn = c.connections[0]!;
    expect(conn).toMatchObject({ client: "10.0.0.1:40000", server: "10.0.0.2:8090", firstPacket: 1 });
    expect(conn.messages.map((m) => [m.toServer, m.size, m.body, m.complete, m.replyTo, m.repliedBy])).toEqual([
      [true, BASIC[0]!.bytes.length, "login", true, null, 1],
      [false, 256, "empty", true, 0, null],
      [true, SEND.length, "send-messages", true, null, 3],
      [false, 280, "send-confirmations", true, 2, null],
      [true, BASIC[4]!.bytes.length, "poll-request", true, null, 5],
      [false, 256, "empty", true, 4, null],
    ]);
    expect(conn.messages[2]!.batches.map((b) => b.header?.messageCount)).toEqual([3]);
    expect(conn.messages[3]!.detail).toMatch(/base offset 42/);
    expect(conn.messages[4]!.detail).toMatch(/offset 0, count 3/);
    expect(conn.messages[1]!.latencyMicros).toBeGreaterThan(0);
    expect(codes(c).sort()).toEqual(["login-in-clear", "reply-status"]);
    const status = c.diagnostics.find((d) => d.code === "reply-status")!;
    expect(status).toMatchObject({ connection: 0, message: 5, start: 216, end: 220 });
    expect(status.text).toMatch(/2010 \(topic_id_not_found/);
    const login = c.diagnostics.find((d) => d.code === "login-in-clear")!;
    expect(new TextDecoder().decode(BASIC[0]!.bytes.subarray(login.start, login.end))).toBe("s3cret-password");
    const json = [...captureJsonChunks(c, "x.pcap", 1, "test", { xxh, source: memorySource(pcapOf(sessionPackets({ messages: BASIC, mss: 100 }))) })].join("");
    expect(json).not.toContain("s3cret");
    expect(JSON.parse(json).capture.connections[0].messages[2].batches[0].frames).toHaveLength(3);
  });

  it("reads a message back from the file, byte for byte", () => {
    const bytes = pcapOf(sessionPackets({ messages: BASIC, mss: 77 }));
    const c = open(bytes);
    const conn = c.connections[0]!;
    expect(readMessage(memorySource(bytes), conn, conn.messages[2]!)).toEqual({ bytes: SEND, missing: [] });
  });

  it("recognises a connection on another port by its first bytes, or by --port", () => {
    const spec = { messages: BASIC.slice(0, 2), sport: 18300 };
    expect(open(pcapOf(sessionPackets(spec))).connections[0]!.recognizedBy).toMatch(/first bytes/);
    expect(open(pcapOf(sessionPackets(spec)), 18300).connections[0]!.recognizedBy).toMatch(/port 18300/);
  });

  it("other TCP traffic is counted, not decoded", () => {
    const http = sessionPackets({ sport: 80, messages: [{ toServer: true, bytes: new TextEncoder().encode("GET / HTTP/1.1\r\n".repeat(20)) }] });
    const c = open(pcapOf([...http, ...sessionPackets({ messages: BASIC, cport: 40001 })]));
    expect(c.otherTcpConnections).toBe(1);
    expect(c.connections).toHaveLength(1);
  });

  it("a new SYN on the same 4-tuple starts a new connection (port reuse)", () => {
    const a = sessionPackets({ messages: BASIC.slice(2, 4) });
    const b = sessionPackets({ messages: BASIC.slice(2, 4), isnClient: 90000, isnServer: 70000 });
    const c = open(pcapOf([...a, ...b]));
    expect(c.connections.map((x) => [x.client, x.firstPacket, x.messages.length])).toEqual([
      ["10.0.0.1:40000", 1, 2],
      ["10.0.0.1:40000", a.length + 1, 2],
    ]);
  });

  it("interleaved connections stay apart", () => {
    const a = sessionPackets({ messages: BASIC, cport: 1 });
    const b = sessionPackets({ messages: BASIC, cport: 2 });
    const mixed: SegSpec[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) mixed.push(...[a[i], b[i]].filter((x): x is SegSpec => !!x));
    const c = open(pcapOf(mixed));
    expect(c.connections.map((x) => x.messages.map((m) => m.body))).toEqual([
      ["login", "empty", "send-messages", "send-confirmations", "poll-request", "empty"],
      ["login", "empty", "send-messages", "send-confirmations", "poll-request", "empty"],
    ]);
  });
});

describe("pairing", () => {
  it("pipelined requests pair by request number and operation, not by order", () => {
    const c = session({
      messages: [
        { toServer: true, bytes: sendRequest(xxh, 1, 1) },
        { toServer: true, bytes: pollRequest(0, 1, 2) },
        { toServer: false, bytes: reply(2, new Uint8Array(0), 2) },
        { toServer: false, bytes: confirmationReply(0, 1) },
      ],
    });
    expect(c.connections[0]!.messages.map((m) => m.replyTo)).toEqual([null, null, 1, 0]);
  });

  it("a reply with no request waiting is reply-unmatched", () => {
    const c = session({ messages: [{ toServer: false, bytes: reply(2) }] });
    expect(c.diagnostics.map((d) => [d.code, d.message, d.start, d.end])).toEqual([["reply-unmatched", 0, 0, 256]]);
  });

  it("a poll reply is told from another reply by its request", () => {
    const poll = concat([Uint8Array.of(1, 0, 0, 0), new Uint8Array(8), new Uint8Array(4)]);
    const c = session({
      messages: [
        { toServer: true, bytes: pollRequest(0, 1) },
        { toServer: false, bytes: reply(2, poll) },
        { toServer: true, bytes: message(5, Uint8Array.of(1), { operation: 2, legacy: 200 }) },
        { toServer: false, bytes: reply(2, poll) },
      ],
    });
    expect(c.connections[0]!.messages.map((m) => m.body)).toEqual(["poll-request", "poll-reply", "raw", "raw"]);
  });
});

describe("bad streams", () => {
  it("random bytes on port 8090: one message-size-invalid, then no more cutting, bounded work", () => {
    let seed = 1;
    const noise = Uint8Array.from({ length: 200_000 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) & 0xff);
    noise.set([0, 0, 0, 0], 48);
    const c = session({ messages: [{ toServer: true, bytes: noise }] });
    expect(codes(c)).toEqual(["message-size-invalid"]);
    expect(c.diagnostics[0]).toMatchObject({ connection: 0, message: 0, start: 48, end: 52 });
  });

  it("a 4 GiB message size is message-size-invalid, never an allocation", () => {
    const m = message(5, new Uint8Array(100));
    new DataView(m.buffer).setUint32(48, 0xffffffff, true);
    const c = session({ messages: [{ toServer: true, bytes: m }] });
    expect(codes(c)).toEqual(["message-size-invalid"]);
    expect(c.diagnostics[0]!.text).toMatch(/4294967295/);
  });

  it("a lost segment inside a message costs that message only: the next ones are cut from its size", () => {
    const segs = sessionPackets({ messages: BASIC, mss: 100 });
    // Drop the second segment of the SendMessages request.
    const firstOfSend = segs.findIndex((s) => s.payload?.length && s.seq === 1001 + BASIC[0]!.bytes.length);
    const kept = segs.filter((_, i) => i !== firstOfSend + 1);
    const c = open(pcapOf(kept));
    const conn = c.connections[0]!;
    expect(conn.messages.map((m) => m.complete)).toEqual([true, true, false, true, true, true]);
    expect(conn.messages[3]!.replyTo).toBe(2);
    const gap = c.diagnostics.find((d) => d.code === "tcp-gap")!;
    expect(gap).toMatchObject({ connection: 0, message: 2, start: 100, end: 200, severity: "error" });
    expect(conn.gaps).toEqual([{ toServer: true, streamOffset: BASIC[0]!.bytes.length + 100, bytes: 100, packet: firstOfSend + 2 }]);
  });

  it("a gap across a header resyncs at the next plausible header", () => {
    const msgs = [
      { toServer: true, bytes: pollRequest(0, 1) },
      { toServer: true, bytes: pollRequest(1, 1) },
      { toServer: true, bytes: pollRequest(2, 1) },
    ];
    const segs = sessionPackets({ messages: msgs, mss: 50 });
    // Lose 50 bytes holding the second request's size field; the third request is found again.
    const at = msgs[0]!.bytes.length;
    const kept = segs.filter((s) => !(s.payload && s.seq - 1001 === at));
    const c = open(pcapOf(kept));
    const m = c.connections[0]!.messages;
    // The second request is never seen whole enough to start; the gap between messages is the connection's.
    expect(m.map((x) => [x.streamOffset, x.complete])).toEqual([
      [0, true],
      [2 * at, true],
    ]);
    expect(c.diagnostics.map((d) => [d.code, d.message, d.start, d.end])).toEqual([["tcp-gap", null, at, at + 50]]);
  });

  it("a capture that ends inside a message: message-incomplete", () => {
    const segs = sessionPackets({ messages: [{ toServer: true, bytes: SEND }], mss: 100 });
    const c = open(pcapOf(segs.filter((s) => !s.flags?.fin).slice(0, 5)));
    expect(codes(c)).toEqual(["message-incomplete"]);
  });

  it("a retransmission with other bytes is reported; a command from the wrong side too", () => {
    const segs = sessionPackets({ messages: [{ toServer: true, bytes: reply(2) }] });
    const data = segs.find((s) => s.payload?.length)!;
    const copy = { ...data, payload: data.payload!.slice() };
    copy.payload[10] = copy.payload[10]! ^ 1;
    const c = open(pcapOf([...segs.slice(0, segs.indexOf(data) + 1), copy, ...segs.slice(segs.indexOf(data) + 1)]));
    expect(codes(c).sort()).toEqual(["message-command-unexpected", "tcp-retransmission-differs"]);
  });

  it("a nonzero consensus checksum that does not verify", () => {
    const m = pollRequest(0, 1);
    m[0] = 1;
    expect(codes(session({ messages: [{ toServer: true, bytes: m }] }))).toEqual(["consensus-checksum-mismatch"]);
    const good = pollRequest(0, 1);
    new DataView(good.buffer).setBigUint64(0, xxh.hash(good.subarray(16, 256)), true);
    expect(codes(session({ messages: [{ toServer: true, bytes: good }] }))).toEqual([]);
  });

  it("garbage after the pcap header and a short file never throw", () => {
    for (let n = 0; n < 200; n += 7) {
      const junk = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(() => open(concat([pcapFile([]), junk]))).not.toThrow();
    }
  });
});

describe("codes", () => {
  it("every capture code is shown by one of these tests' captures", () => {
    const shown = new Set<string>();
    const add = (c: ReturnType<typeof open>) => codes(c).forEach((x) => shown.add(x));
    add(session({ messages: BASIC }));
    add(session({ messages: [{ toServer: false, bytes: reply(2) }] }));
    const big = message(5, new Uint8Array(4));
    new DataView(big.buffer).setUint32(48, 1, true);
    add(session({ messages: [{ toServer: true, bytes: big }] }));
    const bad = pollRequest(0, 1);
    bad[0] = 1;
    add(session({ messages: [{ toServer: true, bytes: bad }] }));
    const segs = sessionPackets({ messages: [{ toServer: true, bytes: reply(2) }], mss: 100 });
    const d = segs.find((s) => s.payload?.length)!;
    add(open(pcapOf([...segs.slice(0, 4), { ...d, payload: d.payload!.map((x) => x ^ 1) }, ...segs.slice(4, 5)])));
    add(open(pcapFile(segs.map((s) => ({ data: framed("ether", ipPacket(s)), caplen: 80 })))));
    add(open(pcapFile([{ data: Uint8Array.of(1) }], { linkType: 999 }).subarray(0, 38)));
    add(open(pcapOf(segs.slice(0, 5))));
    add(session({ messages: [{ toServer: true, bytes: Uint8Array.of(22, 3, 1, 0, 5, 1, 2, 3, 4, 5) }] }));
    expect(CAPTURE_DIAGNOSTIC_CODES.filter((c) => !shown.has(c))).toEqual([]);
  });
});
