/**
 * The generated Wireshark dissector, run by Debian's tshark: the public captures (shared/corpus-captures,
 * copied in test/fixtures/corpus-captures) judged by their own check_dissector.py and against manifest.json,
 * and captures made here (pcap-writer) whose every byte we know: frame fields equal the explorer's decode,
 * a flipped payload bit flagged, the login secret never printed, reassembly and several messages per segment,
 * user headers as the explorer decodes them, the port preference.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { loadXxh3, type Xxh3 } from "../src/checksum/xxh3.ts";
import { analyzeWith } from "../src/core/walk/analyze.ts";
import { encodeBatch } from "../src/core/walk/encode.ts";
import { frameEnd } from "../src/core/model/frame-columns.ts";
import { decodeUserHeaders } from "../src/format/user-headers.ts";
import { hex64 } from "../src/format/values.ts";
import { DISSECTOR_CODES, wiresharkDissector } from "../src/core/wireshark/generate.ts";
import { messageCodes } from "../src/core/wireshark/lua-fields.ts";
import { CAPTURE_CODES_NOT_SEEN, TCP_CODES } from "../src/core/wireshark/lua-tcp.ts";
import { decodeMessage } from "../src/core/containers/capture/bodies.ts";
import { PREPARE_FIELDS, PREPARE_OK_FIELDS } from "../src/format/containers/consensus.ts";
import { EVICTION_REASON_NAMES } from "../src/format/containers/protocol.ts";
import { evictionMessage, loginRequest, pollRequest, prepareMessage, prepareOkMessage, producerBatch, reply, sendRequest } from "./iggy-messages.test-util.ts";
import { pcapOf, type Sent } from "./pcap-writer.test-util.ts";
import { HAS_TSHARK, tshark } from "./tshark.test-util.ts";

const ROOT = resolve(import.meta.dirname, "..");
const CAPTURES = join(ROOT, "test/fixtures/corpus-captures");
const dir = mkdtempSync(join(tmpdir(), "iggy-wireshark-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lua = join(dir, "iggy.lua");

interface ManifestCapture {
  file: string;
  snaplen?: number;
  secrets?: string[];
  frames: { dir: string; command: number; size: number; kind?: string; batches?: { message_count: number }[] }[];
}
const manifest = JSON.parse(readFileSync(join(CAPTURES, "manifest.json"), "utf8")) as ManifestCapture[];

/** Every value of `field` in the packets `filter` shows, in capture order. */
function values(capture: string, field: string, filter = "iggy", extra: string[] = []): string[] {
  const out = tshark([
    "-X",
    `lua_script:${lua}`,
    ...extra,
    "-r",
    capture,
    "-Y",
    filter,
    "-T",
    "fields",
    "-e",
    field,
    "-E",
    "occurrence=a",
    "-E",
    "aggregator=|",
  ]);
  return out.split("\n").flatMap((line) => line.split("|").filter((v) => v !== ""));
}

function capture(name: string, messages: readonly Sent[], opts: Parameters<typeof pcapOf>[1] = {}): string {
  const path = join(dir, name);
  writeFileSync(path, pcapOf(messages, opts));
  return path;
}

describe("the generated dissector", () => {
  it("is the committed docs/iggy.lua (run `npm run wireshark` after changing a table)", () => {
    expect(readFileSync(join(ROOT, "docs/iggy.lua"), "utf8")).toBe(wiresharkDissector());
  });

  it("declares every field and expert name the README and captures.md's examples use", () => {
    const text = wiresharkDissector();
    const declared = new Set([...text.matchAll(/(?:ProtoField\.[a-z0-9_]+|ProtoExpert\.new)\("(iggy\.[a-z0-9_.]+)"/g)].map((m) => m[1]));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Wireshark"), readme.indexOf("## Limits"));
    const named = [...section.matchAll(/`(iggy\.[a-z0-9_.]+)/g)].map((m) => (m[1] as string).replace(/\.$/, ""));
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((n) => !declared.has(n) && n !== "iggy.lua" && !n.startsWith("iggy.port") && !n.startsWith("iggy.verify"))).toEqual([]);
    for (const code of DISSECTOR_CODES) expect(declared.has(`iggy.${code.replace(/-/g, "_")}`), code).toBe(true);
  });
});

describe.skipIf(!HAS_TSHARK)("the generated dissector in tshark", () => {
  let xxh: Xxh3;
  beforeAll(async () => {
    xxh = await loadXxh3();
    const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "wireshark", "-o", lua], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("passes check_dissector.py on the public captures (but sdk-session-any-nano.pcap, which lost packets: below)", { timeout: 300_000 }, () => {
    const copy = mkdtempSync(join(tmpdir(), "iggy-captures-"));
    onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(CAPTURES, copy, { recursive: true });
    writeFileSync(join(copy, "manifest.json"), JSON.stringify(manifest.filter((c) => c.file !== "sdk-session-any-nano.pcap")));
    const r = spawnSync("python3", [join(CAPTURES, "check_dissector.py"), copy, "--cmd", `${process.execPath} ${join(ROOT, "bin/iggy-batch.mjs")}`], {
      encoding: "utf8",
      timeout: 280_000,
    });
    const last = r.stdout.trim().split("\n").pop();
    const judged = manifest.filter((c) => c.file !== "sdk-session-any-nano.pcap" && (c.snaplen ?? 262144) >= 65536); // the checker skips cut captures
    expect(last, r.stdout + r.stderr).toBe(`${judged.length} passed, 0 failed`);
  });

  it("finds every message of each public capture with its size, command and batches, in order per direction", { timeout: 120_000 }, () => {
    for (const cap of manifest.filter((c) => (c.snaplen ?? 262144) >= 65536)) {
      const path = join(CAPTURES, cap.file);
      const sizes = values(path, "iggy.header.size").map(Number);
      const commands = values(path, "iggy.header.command").map(Number);
      const counts = values(path, "iggy.batch.message_count").map(Number);
      const wantCounts = cap.frames.flatMap((f) =>
        f.kind === "send-messages" || f.kind === "poll-reply" ? (f.batches ?? []).map((b) => b.message_count) : [],
      );
      if (cap.file === "sdk-session-any-nano.pcap") {
        // tcpdump -i any never saw the packets of the ping reply, the login and its reply (tshark: lost segments):
        // what is there is a subsequence of what was sent.
        expect(values(path, "tcp.stream", "tcp.analysis.lost_segment").length).toBeGreaterThan(0);
        expect(
          isSubsequence(
            sizes,
            cap.frames.map((f) => f.size),
          ),
        ).toBe(true);
        expect(counts).toEqual(wantCounts);
        continue;
      }
      // tshark shows a message in the packet that completes it: with two clients interleaved that is send order.
      expect(sizes, cap.file).toEqual(cap.frames.map((f) => f.size));
      expect(commands, cap.file).toEqual(cap.frames.map((f) => f.command));
      expect(counts, cap.file).toEqual(wantCounts);
    }
  });

  it("shows frame fields, payloads and both checksums as the explorer decodes the same batch", { timeout: 180_000 }, () => {
    const batch = encodeBatch(xxh, {
      originTimestamp: 1_700_000_000_000_000n,
      messages: [
        { payload: "first", id: 7n, userHeaders: [{ key: { kind: "string", value: "trace" }, value: { kind: "u64", value: 18446744073709551615n } }] },
        { payload: new Uint8Array(3000).fill(9), timestampDelta: 0 },
        { payload: "third", userHeaders: Uint8Array.of(1, 2, 3) },
      ],
    });
    const path = capture("fields.pcap", [
      { toServer: true, bytes: sendRequest(batch, 3) },
      { toServer: false, bytes: reply(160) },
    ]);
    const analysis = analyzeWith(xxh, batch);
    const frames = analysis.frames;
    const want = {
      offsets: [] as string[],
      payloadLengths: [] as string[],
      userHeadersLengths: [] as string[],
      checksums: [] as string[],
    };
    for (let i = 0; i < frames.count; i++) {
      const start = frames.start[i] as number;
      const view = new DataView(batch.buffer, batch.byteOffset + start);
      want.offsets.push(String(view.getUint32(24, true)));
      want.userHeadersLengths.push(String(view.getUint32(32, true)));
      want.payloadLengths.push(String(view.getUint32(36, true)));
      want.checksums.push("0x" + hex64(xxh.hash(batch.subarray(start + 8, frameEnd(frames, i)))));
    }
    expect(values(path, "iggy.frame.offset_delta")).toEqual(want.offsets);
    expect(values(path, "iggy.frame.payload_length")).toEqual(want.payloadLengths);
    expect(values(path, "iggy.frame.user_headers_length")).toEqual(want.userHeadersLengths);
    expect(values(path, "iggy.frame.checksum")).toEqual(want.checksums);
    expect(values(path, "iggy.frame.checksum_computed")).toEqual(want.checksums);
    expect(values(path, "iggy.batch.batch_checksum_computed")).toEqual(values(path, "iggy.batch.batch_checksum"));
    expect(values(path, "iggy.frame.payload").map((h) => h.length / 2)).toEqual([5, 3000, 5]);
    // user headers: TLV decoded as src/format/user-headers.ts does, a block that is not TLV kept raw and flagged
    const tlv = decodeUserHeaders(
      batch.subarray((frames.start[0] as number) + 48 + 5, (frames.start[0] as number) + 48 + 5 + Number(want.userHeadersLengths[0])),
    );
    expect(tlv.ok).toBe(true);
    if (tlv.ok) {
      expect(values(path, "iggy.user_header.key")).toEqual(tlv.headers.map((h) => h.key.text));
      expect(values(path, "iggy.user_header.value")).toEqual(tlv.headers.map((h) => h.value.text));
    }
    expect(values(path, "iggy.frame.user_headers")).toEqual(["010203"]);
    expect(values(path, "iggy.frame.offset_delta", "iggy.user_headers_malformed")).toEqual(want.offsets);
    expect(values(path, "iggy.header.size", "iggy.frame_checksum_mismatch || iggy.batch_checksum_mismatch")).toEqual([]);
    expect(values(path, "iggy.response_to")).toEqual(["4"]);
  });

  it("flags a flipped payload bit as a frame checksum mismatch on that frame only, stored and computed values shown", { timeout: 60_000 }, () => {
    const batch = producerBatch(xxh, 3, 100);
    const request = sendRequest(batch, 3);
    const flipAt = request.length - 100 - 148 + 17; // inside frame 1's payload (frames are 148 bytes)
    request[flipAt] = (request[flipAt] as number) ^ 0x10;
    const path = capture("flipped.pcap", [{ toServer: true, bytes: request }]);
    expect(values(path, "iggy.header.size", "iggy.frame_checksum_mismatch")).toEqual([String(request.length)]);
    const stored = values(path, "iggy.frame.checksum");
    const computed = values(path, "iggy.frame.checksum_computed");
    expect(stored.map((s, i) => s === computed[i])).toEqual([true, false, true]);
    expect(tshark(["-X", `lua_script:${lua}`, "-r", path, "-V"])).toContain(`stored checksum ${stored[1]} != computed ${computed[1]}`);
  });

  it("never prints a login secret: •••• and its length, and login-in-clear", { timeout: 120_000 }, () => {
    const secret = "hunter2-Sup3r-s3cret";
    const path = capture("login.pcap", [
      { toServer: true, bytes: loginRequest("alice", secret) },
      { toServer: false, bytes: reply(1) },
    ]);
    const files = [
      { file: path, secrets: [secret], whole: true },
      ...manifest.filter((c) => c.secrets).map((c) => ({ file: join(CAPTURES, c.file), secrets: c.secrets ?? [], whole: (c.snaplen ?? 262144) >= 65536 })),
    ];
    for (const { file, secrets, whole } of files) {
      const tree = tshark(["-X", `lua_script:${lua}`, "-r", file, "-V", "-Y", "iggy"]);
      // a capture cut at 200 bytes a packet, or one that lost the login's packets, shows no login
      const login = whole && tree.includes("Login user ");
      if (file === path) expect(login).toBe(true);
      for (const s of secrets) {
        expect(tree).not.toContain(s);
        expect(tree).not.toContain(Buffer.from(s).toString("hex"));
        if (login) expect(tree).toContain(`•••• (${s.length} bytes)`);
      }
      if (login) expect(tree).toContain("over plain TCP (its bytes are never shown)");
    }
    expect(values(path, "iggy.login.secret")).toEqual([`•••• (${secret.length} bytes)`]);
  });

  it("reassembles messages across small segments and dissects several in one segment", { timeout: 60_000 }, () => {
    const sent: Sent[] = [
      { toServer: true, bytes: pollRequest(2) },
      { toServer: true, bytes: sendRequest(producerBatch(xxh, 5, 300), 5, 2n) },
      { toServer: true, bytes: pollRequest(9) },
      { toServer: false, bytes: reply(2, new Uint8Array(16), 0) },
      { toServer: false, bytes: reply(160, new Uint8Array(4), 0, 2n) },
      { toServer: false, bytes: reply(2, new Uint8Array(0), 2010) },
    ];
    for (const mss of [97, 1400, 65000]) {
      const path = capture(`packed-${mss}.pcap`, sent, { pack: true, mss, serverPort: 18999 });
      expect(values(path, "iggy.header.size").map(Number), `mss ${mss}`).toEqual(sent.map((s) => s.bytes.length));
      expect(values(path, "iggy.reply.status")).toEqual(["0", "0", "2010"]);
      expect(values(path, "_ws.expert.message").filter((m) => m.startsWith("status "))).toEqual(["status 2010 (topic_id_not_found)"]);
    }
  });

  it("says exactly how far a batch_length near 2^64 runs past the end (no double rounding)", { timeout: 60_000 }, () => {
    const batch = producerBatch(xxh, 2, 40);
    new DataView(batch.buffer, batch.byteOffset).setBigUint64(32, 2n ** 64n - 1n, true);
    const path = capture("huge-batch-length.pcap", [{ toServer: true, bytes: sendRequest(batch, 2) }]);
    const said = values(path, "_ws.expert.message").find((m) => m.startsWith("batch_length "));
    expect(said).toBe(`batch_length ${2n ** 64n - 1n} runs ${2n ** 64n - 1n - BigInt(batch.length)} bytes past the end`);
  });

  it("registers on the port its preference names; the heuristic finds other ports", { timeout: 60_000 }, () => {
    const sent: Sent[] = [{ toServer: true, bytes: pollRequest(1) }];
    const onDefault = capture("port-8090.pcap", sent, { serverPort: 8090 });
    const onOther = capture("port-7777.pcap", sent, { serverPort: 7777 });
    const noHeuristic = ["--disable-heuristic", "iggy_tcp"];
    expect(values(onDefault, "iggy.poll_request.count", "iggy", noHeuristic)).toEqual(["1"]);
    expect(values(onOther, "iggy.poll_request.count", "iggy", noHeuristic)).toEqual([]);
    expect(values(onOther, "iggy.poll_request.count", "iggy", [...noHeuristic, "-o", "iggy.port:7777"])).toEqual(["1"]);
    expect(values(onOther, "iggy.poll_request.count")).toEqual(["1"]);
  });
});

function isSubsequence(part: readonly number[], whole: readonly number[]): boolean {
  let i = 0;
  for (const x of whole) if (x === part[i]) i++;
  return i === part.length;
}

interface CliMessage {
  size: number;
  command: number;
  batches?: { header?: { messageCount: number }; frames?: Record<string, string | number>[] }[];
}
interface CliDocument {
  capture: { connections: { messages: CliMessage[] }[] };
  diagnostics: { code: string }[];
}

/** Sorted text of a multiset, so two differ visibly in a test failure. */
const multiset = (items: readonly string[]): string[] => [...items].sort();

describe.skipIf(!HAS_TSHARK)("the dissector against the CLI's JSON for the same capture", () => {
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "wireshark", "-o", lua], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("agrees on every message's size and command, every batch's message_count, every frame's fields and the codes", { timeout: 300_000 }, async () => {
    const xxh = await loadXxh3();
    const flipped = sendRequest(producerBatch(xxh, 3, 100), 3);
    flipped[flipped.length - 100] = (flipped[flipped.length - 100] as number) ^ 1;
    const own = [
      capture(
        "cli-own.pcap",
        [
          { toServer: true, bytes: loginRequest("bob", "pa55-word") },
          { toServer: false, bytes: reply(1) },
          { toServer: true, bytes: flipped },
          { toServer: false, bytes: reply(160, new Uint8Array(0), 4009) },
          { toServer: true, bytes: sendRequest(producerBatch(xxh, 7, 2000, { userHeaders: Uint8Array.of(9, 9) }), 7, 2n) },
          { toServer: false, bytes: reply(160, new Uint8Array(4), 0, 2n) },
        ],
        { mss: 1000 },
      ),
    ];
    const publicOnes = manifest.filter((c) => (c.snaplen ?? 262144) >= 65536).map((c) => join(CAPTURES, c.file));
    for (const path of [...publicOnes, ...own]) {
      const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "inspect", path, "--json"], { encoding: "utf8", maxBuffer: 1 << 28 });
      const doc = JSON.parse(r.stdout) as CliDocument;
      const messages = doc.capture.connections.flatMap((c) => c.messages);
      const sizes = values(path, "iggy.header.size");
      const commands = values(path, "iggy.header.command");
      expect(multiset(sizes.map((s, i) => `${s}/${commands[i]}`)), path).toEqual(multiset(messages.map((m) => `${m.size}/${m.command}`)));
      const batches = messages.flatMap((m) => m.batches ?? []);
      expect(multiset(values(path, "iggy.batch.message_count")), path).toEqual(multiset(batches.map((b) => String(b.header?.messageCount))));
      const frameKeys = ["offsetDelta", "timestampDelta", "payloadLength", "userHeadersLength", "checksum", "computedChecksum"];
      const columns = ["offset_delta", "timestamp_delta", "payload_length", "user_headers_length", "checksum", "checksum_computed"].map((f) =>
        values(path, `iggy.frame.${f}`),
      );
      const dissected = (columns[0] ?? []).map((_, i) => columns.map((c) => (c[i] ?? "").replace(/^0x/, "")).join(" "));
      const cli = batches.flatMap((b) => b.frames ?? []).map((f) => frameKeys.map((k) => String(f[k])).join(" "));
      expect(multiset(dissected), path).toEqual(multiset(cli));
      // expert infos: every code of the dissector's (TCP-level codes are Wireshark's own analysis there)
      const json = tshark(["-X", `lua_script:${lua}`, "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"]);
      const experts = [...json.matchAll(/"iggy\.([a-z_]+)": ""/g)].map((m) => (m[1] as string).replace(/_/g, "-")).filter((c) => DISSECTOR_CODES.has(c));
      if (own.includes(path))
        expect(experts).toEqual(expect.arrayContaining(["login-in-clear", "frame-checksum-mismatch", "reply-status", "user-headers-malformed"]));
      expect(multiset(experts), path).toEqual(multiset(doc.diagnostics.map((d) => d.code).filter((c) => DISSECTOR_CODES.has(c))));
    }
  });
});

/** The code-table codes among the expert infos of a `tshark -T json -J iggy` run, one per expert item. */
function expertCodes(json: string): string[] {
  const declared = new Set(messageCodes().map((d) => d.code));
  return [...json.matchAll(/"iggy\.([a-z_]+)": ""/g)].map((m) => (m[1] as string).replace(/_/g, "-")).filter((c) => declared.has(c));
}

function cliCodes(path: string): string[] {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "inspect", path, "--json", "--no-frames"], { encoding: "utf8", maxBuffer: 1 << 28 });
  return (JSON.parse(r.stdout) as CliDocument).diagnostics.map((d) => d.code);
}

describe.skipIf(!HAS_TSHARK)("capture codes: what the dissector sees of holes, snap lengths, retransmissions and a cut end", () => {
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "wireshark", "-o", lua], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("raises only codes the CLI raises on the same capture, and exactly the CLI's on every code it covers", { timeout: 300_000 }, async () => {
    const xxh = await loadXxh3();
    const big = sendRequest(producerBatch(xxh, 20, 300), 20, 1n); // 7498 bytes: 8 segments of 1000
    const conversation: Sent[] = [
      { toServer: true, bytes: big },
      { toServer: false, bytes: reply(160, new Uint8Array(4), 0, 1n) },
      { toServer: true, bytes: sendRequest(producerBatch(xxh, 1, 100), 1, 2n) },
      { toServer: false, bytes: reply(160, new Uint8Array(4), 0, 2n) },
      { toServer: true, bytes: pollRequest(3) },
    ];
    // data segments: 0..7 the big send, 8 its reply, 9 the small send, 10 its reply, 11 the poll
    const own = [
      capture("codes-lost-inside.pcap", conversation, { mss: 1000, lose: [3] }),
      capture("codes-lost-first.pcap", conversation, { mss: 1000, lose: [0] }),
      capture("codes-snaplen.pcap", conversation, { mss: 1000, snaplen: 200 }),
      capture("codes-cut-end.pcap", [...conversation, { toServer: true, bytes: big.subarray(0, 2500) }], { mss: 1000 }),
      capture("codes-resent-differs.pcap", conversation, { mss: 1000, resend: [{ segment: 2, flip: 10 }] }),
      capture("codes-resent-reply-differs.pcap", conversation, { mss: 1000, resend: [{ segment: 10, flip: 3 }] }),
      capture("codes-resent-same.pcap", conversation, { mss: 1000, resend: [{ segment: 2 }, { segment: 10 }] }),
    ];
    const seen = new Set<string>();
    for (const path of [...own, ...manifest.map((c) => join(CAPTURES, c.file))]) {
      const cli = cliCodes(path);
      // two passes, a tree on the first (-R frame): message-incomplete is known once the capture has ended
      const dissected = expertCodes(tshark(["-X", `lua_script:${lua}`, "-2", "-R", "frame", "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"]));
      expect(
        dissected.filter((c) => !cli.includes(c)),
        path,
      ).toEqual([]);
      expect(multiset(dissected.filter((c) => DISSECTOR_CODES.has(c))), path).toEqual(multiset(cli.filter((c) => DISSECTOR_CODES.has(c))));
      for (const c of cli) seen.add(c);
    }
    // every capture code the dissector claims was exercised, and every code these captures raise is covered
    expect(TCP_CODES.filter((c) => !seen.has(c))).toEqual([]);
    expect([...seen].filter((c) => !DISSECTOR_CODES.has(c))).toEqual([]);
  });

  it("needs the second pass for message-incomplete only, and says so in the README and the generated file", { timeout: 60_000 }, () => {
    const request = pollRequest(4);
    const path = capture("second-pass.pcap", [
      { toServer: true, bytes: pollRequest(3) },
      { toServer: true, bytes: request.subarray(0, 100) },
    ]);
    const single = expertCodes(tshark(["-X", `lua_script:${lua}`, "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"]));
    expect(single).not.toContain("message-incomplete");
    expect(cliCodes(path)).toEqual(["message-incomplete"]);
    expect(expertCodes(tshark(["-X", `lua_script:${lua}`, "-2", "-R", "frame", "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"]))).toEqual([
      "message-incomplete",
    ]);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const code of Object.keys(CAPTURE_CODES_NOT_SEEN)) {
      expect(wiresharkDissector()).toContain(`--   ${code}: `);
      expect(readme.slice(readme.indexOf("## Wireshark"), readme.indexOf("## Network captures")), code).toContain(`\`${code}\``);
    }
  });
});

describe.skipIf(!HAS_TSHARK)("consensus headers the SDK captures do not hold", () => {
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "wireshark", "-o", lua], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("decodes a prepare's header and its stamped batch as the CLI decodes the same message", { timeout: 120_000 }, async () => {
    const xxh = await loadXxh3();
    const prepare = prepareMessage(xxh, { op: 41n, commit: 40n, request: 7n, group: 0x0001_0002_0003n, user_id: 5 });
    // between replicas: the sender of the SYN sends the prepare
    const path = capture("prepare.pcap", [{ toServer: true, bytes: prepare }], { mss: 400 });
    const file = join(dir, "prepare.bin");
    writeFileSync(file, prepare);
    const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "inspect", file, "--json"], { encoding: "utf8" });
    const doc = JSON.parse(r.stdout) as {
      format: string;
      container: { fields: { name: string; value: string }[] };
      batches: { header: { messageCount: number } }[];
    };
    expect(doc.format).toBe("prepare");
    const numeric = PREPARE_FIELDS.filter((f) => f.type === "u8" || f.type === "u32" || f.type === "u64");
    const cli = numeric.map((f) => doc.container.fields.find((x) => x.name === f.name)?.value);
    const dissected = numeric.map((f) => values(path, `iggy.prepare.${f.name}`)[0]);
    expect(dissected).toEqual(cli);
    expect(cli).toContain("41"); // the values set, not zeros everywhere
    expect(values(path, "iggy.batch.message_count")).toEqual(doc.batches.map((b) => String(b.header.messageCount)));
    expect(values(path, "iggy.batch.batch_checksum_computed")).toEqual(values(path, "iggy.batch.batch_checksum"));
    // the CLI's capture view and the dissector agree on the codes: a prepare is not a client's command
    expect(multiset(expertCodes(tshark(["-X", `lua_script:${lua}`, "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"])))).toEqual(multiset(cliCodes(path)));
    expect(cliCodes(path)).toEqual(["message-command-unexpected"]);
  });

  it("decodes a prepare-ok's fields where upstream's PrepareOkHeader puts them, as the explorer does", { timeout: 60_000 }, async () => {
    const xxh = await loadXxh3();
    const values7 = { op: 41n, commit: 40n, timestamp: 1_764_500_000_000_000n, request: 7n, group: 0x0001_0002_0003n, parent: 0x77n };
    const ok = prepareOkMessage(values7);
    // a replica acknowledging a prepare: the primary's port is the server's
    const path = capture("prepare-ok.pcap", [{ toServer: true, bytes: ok }]);
    const core = decodeMessage(xxh, ok, null).fields;
    const coreValue = (name: string) => core.find((f) => f.name === name)?.value;
    // the builder writes by upstream's offsets, so these read back only if our table has them where upstream does
    expect([coreValue("op"), coreValue("commit"), coreValue("timestamp"), coreValue("request"), coreValue("operation"), coreValue("group")]).toEqual(
      [values7.op, values7.commit, values7.timestamp, values7.request, 160n, values7.group].map(String),
    );
    const numeric = PREPARE_OK_FIELDS.filter((f) => f.type === "u8" || f.type === "u32" || f.type === "u64");
    expect(numeric.map((f) => values(path, `iggy.prepare_ok.${f.name}`)[0])).toEqual(numeric.map((f) => coreValue(f.name)));
    expect(values(path, "_ws.col.Info", "iggy.header.command == 7")).toEqual(["PrepareOk op 41"]);
    expect(values(path, "iggy.body")).toEqual([]); // header only
    // a prepare-ok is not a client's command: both say so, and only that
    expect(multiset(expertCodes(tshark(["-X", `lua_script:${lua}`, "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"])))).toEqual(multiset(cliCodes(path)));
    expect(cliCodes(path)).toEqual(["message-command-unexpected"]);
  });

  it("hands Iggy over TLS to Wireshark's TLS dissector and says the connection is encrypted, as the CLI does", { timeout: 60_000 }, () => {
    const path = join(ROOT, "test/fixtures/captures/tls-8090.pcap");
    const hello = values(path, "frame.number", "tls.handshake.type == 1");
    expect(hello).toHaveLength(1);
    // the first record's packet carries both TLS's Client Hello and our expert; no Iggy message is cut
    expect(values(path, "frame.number", "iggy.connection_encrypted")).toEqual(hello);
    expect(values(path, "iggy.header.size")).toEqual([]);
    expect(multiset(expertCodes(tshark(["-X", `lua_script:${lua}`, "-r", path, "-Y", "iggy", "-T", "json", "-J", "iggy"])))).toEqual(multiset(cliCodes(path)));
    expect(cliCodes(path)).toEqual(["connection-encrypted"]);
  });

  it("reads an eviction's reason at byte 255, where upstream puts it, as the explorer does", { timeout: 60_000 }, async () => {
    const xxh = await loadXxh3();
    const eviction = evictionMessage(14, 0x77n, [3, 1]);
    const path = capture("eviction.pcap", [
      { toServer: true, bytes: pollRequest(1) },
      { toServer: false, bytes: eviction },
    ]);
    const core = decodeMessage(xxh, eviction, null).fields;
    const coreValue = (name: string) => core.find((f) => f.name === name)?.value;
    expect(coreValue("reason")).toBe("14");
    expect(values(path, "iggy.eviction.reason")).toEqual(["14"]);
    expect(values(path, "iggy.eviction.server_protocol_version")).toEqual([coreValue("server_protocol_version")]);
    expect(values(path, "iggy.eviction.server_protocol_version_min")).toEqual(["1"]);
    expect(values(path, "_ws.col.Info", "iggy.header.command == 13")).toEqual([`Eviction: reason 14 (${EVICTION_REASON_NAMES[14]})`]);
    // the corpus's stub server wrote its reason (15) at byte 128: read where upstream puts it, the reason byte is 0
    const corpus = join(CAPTURES, "eviction.pcap");
    expect(values(corpus, "iggy.eviction.reason")).toEqual(["0"]);
  });
});
