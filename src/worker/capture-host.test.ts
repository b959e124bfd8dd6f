/** The worker body on a real capture: detected and opened by the core, its messages read back one at a time, the secret masked. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadXxh3 } from "../checksum/xxh3.ts";
import { memorySource, openCapture, readMessage } from "../core/containers/capture/index.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";
import { runRequest } from "./run-request.ts";

const FILE = path.resolve(import.meta.dirname, "../../test/fixtures/corpus-captures/sdk-session.pcap");
const SECRET = "capture-s3cret-Passw0rd";
const buf = () => {
  const b = readFileSync(FILE);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};

async function last(request: ToWorker): Promise<FromWorker> {
  const out: FromWorker[] = [];
  await runRequest(request, (m) => out.push(m));
  return out.at(-1)!;
}

describe("a capture in the worker", () => {
  test("opens as the core opens it, and gives a message's bytes with the login secret masked", async () => {
    const core = openCapture(await loadXxh3(), memorySource(new Uint8Array(readFileSync(FILE))));
    const opened = await last({ type: "analyze", id: 7, input: buf(), format: "auto", name: "any-name.bin" });
    if (opened.type !== "capture-opened") throw new Error(`got ${opened.type}`);
    const { capture } = opened;
    expect(capture.summary).toEqual(core.summary);
    expect(capture.detectedBy).toMatch(/pcap or pcapng magic/);
    expect(capture.connections.map((c) => c.messages.length)).toEqual(core.connections.map((c) => c.messages.length));
    expect(JSON.stringify(capture, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))).not.toContain(SECRET);

    const conn = core.connections[0]!;
    const login = conn.messages.find((m) => m.body === "login")!;
    const send = conn.messages.find((m) => m.body === "send-messages")!;
    const ask = (message: number, key = capture.key) => last({ type: "capture-message", id: 8, key, input: buf(), connection: 0, message });
    const sent = await ask(send.index);
    if (sent.type !== "capture-bytes" || !sent.buffer) throw new Error("no bytes");
    expect(new Uint8Array(sent.buffer)).toEqual(readMessage(memorySource(new Uint8Array(readFileSync(FILE))), conn, send)!.bytes);
    // A worker that lost the capture (restarted) opens it again from the input.
    const masked = await ask(login.index, 999);
    if (masked.type !== "capture-bytes" || !masked.buffer) throw new Error("no bytes");
    expect(Buffer.from(masked.buffer).includes(SECRET)).toBe(false);
    expect(masked.masked).toEqual(login.secret);
    expect(await ask(conn.messages.length)).toMatchObject({ type: "capture-bytes", buffer: null, why: expect.stringMatching(/no message/) });
  });

  test("the page's port reaches the core: a capture begun mid-connection on port 18390 has its connection only on that port, also when reopened", async () => {
    const late = readFileSync(path.resolve(import.meta.dirname, "../../test/fixtures/captures/late-start-18390.pcap"));
    const input = () => late.buffer.slice(late.byteOffset, late.byteOffset + late.byteLength);
    const open = async (capturePort?: number) => {
      const r = await last({ type: "analyze", id: 10, input: input(), format: "auto", name: "late.pcap", capturePort });
      if (r.type !== "capture-opened") throw new Error(`got ${r.type}`);
      return r.capture;
    };
    expect((await open()).connections.length).toBe(0);
    const onPort = await open(18390);
    expect(onPort.port).toBe(18390);
    expect(onPort.connections.map((c) => c.recognizedBy)).toEqual(["the server's port 18390"]);
    // A worker that lost it opens it again on the same port: message 1 (a reply) is there.
    const again = await last({ type: "capture-message", id: 11, key: 12345, input: input(), connection: 0, message: 1, port: onPort.port });
    expect(again).toMatchObject({ type: "capture-bytes", why: null });
  });

  test("a forced other format is not read as a capture", async () => {
    const reply = await last({ type: "analyze", id: 9, input: buf(), format: "batches", name: "x.pcap" });
    expect(reply.type).toBe("result");
  });
});
