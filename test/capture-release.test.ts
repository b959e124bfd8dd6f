/**
 * openCapture's `release` (issue #24: the CLI writes a capture's messages as they become final, so its
 * memory does not grow with the capture): every message is handed over once, in each connection's
 * order, equal to the one kept without `release`, with the request a reply answers; and the JSON
 * document made from the released lines is the document made from the kept messages, byte for byte.
 */
import { describe, expect, it } from "vitest";
import { FIXTURE_CAPTURES } from "./fixture-captures.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { captureJsonChunks, memorySource, messageDocText, openCapture, type CaptureMessage } from "../src/core/containers/capture/index.ts";
import { confirmationReply, pcapOf, reply, sendRequest, sessionPackets } from "../src/core/containers/capture/synth.test-util.ts";

const xxh = await loadXxh3();
const files = FIXTURE_CAPTURES;
// Three requests in flight before their replies, the second answered first (pairing by request number).
const pipelined = pcapOf(
  sessionPackets({
    messages: [
      { toServer: true, bytes: sendRequest(xxh, 2, 1) },
      { toServer: true, bytes: sendRequest(xxh, 3, 2) },
      { toServer: true, bytes: sendRequest(xxh, 1, 3) },
      { toServer: false, bytes: confirmationReply(10, 2) },
      { toServer: false, bytes: confirmationReply(12, 1) },
      { toServer: false, bytes: reply(1, new Uint8Array(0), 9) },
    ],
    mss: 300,
  }),
);

describe("openCapture's release", () => {
  it.each([{ name: "pipelined (synthetic)", bytes: pipelined }, ...files])("hands over every message of $name in order, as kept", ({ bytes }) => {
    const source = memorySource(bytes);
    const kept = openCapture(xxh, source);
    const released = new Map<number, { m: CaptureMessage; request: CaptureMessage | null; digits: number }[]>();
    const lines = new Map<number, string[]>();
    const c = openCapture(xxh, source, {
      release(conn, m, request, digits) {
        if (!released.has(conn.index)) released.set(conn.index, []);
        released.get(conn.index)!.push({ m, request, digits });
        if (!lines.has(conn.index)) lines.set(conn.index, []);
        lines.get(conn.index)!.push(messageDocText(conn, m, request, digits, { xxh, source }));
      },
    });
    expect(kept.connections.length).toBe(c.connections.length);
    for (const conn of kept.connections) {
      const got = released.get(conn.index) ?? [];
      expect(c.connections[conn.index]!.messages).toEqual([]);
      expect(got.map((r) => r.m)).toEqual(conn.messages);
      for (const r of got) {
        expect(r.request).toEqual(r.m.replyTo === null ? null : conn.messages[r.m.replyTo]);
        expect(r.digits).toBe(kept.timeDigits);
      }
    }
    const doc = (text: Iterable<string>) => [...text].join("");
    expect(doc(captureJsonChunks(c, "x", 1, "test", { xxh, source }, (conn) => lines.get(conn) ?? []))).toBe(
      doc(captureJsonChunks(kept, "x", 1, "test", { xxh, source })),
    );
  });

  it("releases in message order while requests wait for their replies", () => {
    const order: number[] = [];
    openCapture(xxh, memorySource(pipelined), { release: (_conn, m) => order.push(m.index) });
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    const kept = openCapture(xxh, memorySource(pipelined)).connections[0]!.messages;
    // The third request waits past two replies; the last reply (to no request number sent) takes it.
    expect(kept.map((m) => m.replyTo)).toEqual([null, null, null, 1, 0, 2]);
  });
});
