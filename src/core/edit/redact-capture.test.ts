/**
 * Redact payloads applies to every batch of a capture (captures.md "Privacy"): on a capture of real Iggy
 * messages (a login, two SendMessages requests, replies, cut into TCP segments), every batch written out has
 * its payloads replaced with the same findings, a message keeps its consensus checksums' verdicts, and the
 * login's secret is in no output, redacted or not.
 */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { openCapture, readMessage } from "../containers/capture/capture.ts";
import { decodeMessage } from "../containers/capture/bodies.ts";
import { memorySource } from "../containers/capture/source.ts";
import { confirmationReply, loginRequest, pcapOf, reply, sendRequest, sessionPackets } from "../containers/capture/synth.test-util.ts";
import { diagnosticKey } from "./redact.ts";
import { captureBatchesOut, capturedMessageOut } from "./redact-capture.ts";

const xxh = await loadXxh3();
const SECRET = "s3cret-password";
const PAYLOAD = "x".repeat(24);

/** The message with both consensus checksums set as a sender computes them (body first: the header's covers it). */
function withChecksums(bytes: Uint8Array, bodyWrong = false): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = xxh.hash(bytes.subarray(256));
  v.setBigUint64(16, bodyWrong ? body ^ 1n : body, true);
  v.setBigUint64(0, xxh.hash(bytes.subarray(16, 256)), true);
  return bytes;
}

const MESSAGES = [
  { toServer: true, bytes: loginRequest("iggy", SECRET) },
  { toServer: false, bytes: reply(1, new Uint8Array(0), 0) },
  { toServer: true, bytes: withChecksums(sendRequest(xxh, 3, 7, PAYLOAD.length)) },
  { toServer: false, bytes: confirmationReply(42, 7) },
  { toServer: true, bytes: withChecksums(sendRequest(xxh, 5, 8, PAYLOAD.length), true) },
  { toServer: false, bytes: confirmationReply(45, 8) },
];
const latin1 = (b: Uint8Array) => new TextDecoder("latin1").decode(b);
const keys = (bytes: Uint8Array) => analyzeWith(xxh, bytes).diagnostics.map(diagnosticKey);

describe("redaction of a capture", () => {
  const file = pcapOf(sessionPackets({ messages: MESSAGES, mss: 90 }));
  const source = memorySource(file);
  const capture = openCapture(xxh, source);
  const conn = capture.connections[0]!;

  it("replaces the payloads of every batch of the capture, each keeping its findings", () => {
    expect(latin1(file)).toContain(PAYLOAD);
    const plain = captureBatchesOut(xxh, source, capture, null);
    const redacted = captureBatchesOut(xxh, source, capture, {});
    expect(plain.length).toBe(2);
    expect(redacted.map((b) => b.length)).toEqual(plain.map((b) => b.length));
    for (const [i, b] of redacted.entries()) {
      expect(latin1(plain[i]!)).toContain(PAYLOAD);
      expect(latin1(b)).not.toContain("xxxx");
      expect(latin1(b)).toContain("REDACTED");
      expect(keys(b)).toEqual(keys(plain[i]!));
      expect(analyzeWith(xxh, b).summary.frames).toBe(analyzeWith(xxh, plain[i]!).summary.frames);
    }
  });

  it("a message written redacted keeps its consensus checksums' verdicts, a right one right and a wrong one wrong", () => {
    for (const [index, wrong] of [
      [2, false],
      [4, true],
    ] as const) {
      const msg = conn.messages[index]!;
      const raw = readMessage(source, conn, msg)!.bytes;
      const out = capturedMessageOut(xxh, source, conn, msg, { ids: true })!;
      expect(out.length).toBe(raw.length);
      expect(latin1(out)).not.toContain("xxxx");
      const codes = (b: Uint8Array) => decodeMessage(xxh, b, null).findings.map((d) => `${d.code}@${d.start}`);
      expect(codes(out)).toEqual(codes(raw));
      expect(codes(raw).includes("consensus-checksum-mismatch@16")).toBe(wrong);
      // The header's own fields are the original's: only the checksums were re-made.
      expect(out.subarray(32, 256)).toEqual(raw.subarray(32, 256));
    }
  });

  it("the login's secret is in no output, redacted or not; other messages come out as sent unless redacted", () => {
    for (const redact of [null, {}]) {
      for (const msg of conn.messages) {
        const out = capturedMessageOut(xxh, source, conn, msg, redact);
        expect(out, `message ${msg.index}`).not.toBeNull();
        expect(latin1(out!)).not.toContain(SECRET);
        if (!redact && !msg.secret) expect(out).toEqual(MESSAGES[msg.index]!.bytes);
      }
      for (const b of captureBatchesOut(xxh, source, capture, redact)) expect(latin1(b)).not.toContain(SECRET);
    }
    expect(latin1(file)).toContain(SECRET);
  });
});
