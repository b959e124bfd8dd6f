/**
 * The capture's message documents are written field by field (issue #24: one per message of a large
 * capture), and times through a per-second cache: both must be what JSON.stringify of the message's
 * document and the plain BigInt arithmetic give, for every message of every fixture capture.
 */
import { describe, expect, it } from "vitest";
import { FIXTURE_CAPTURES } from "./fixture-captures.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { captureTime, memorySource, messageDocText, messageJson, openCapture } from "../src/core/containers/capture/index.ts";

const xxh = await loadXxh3();
const files = FIXTURE_CAPTURES;

/** captureTime as it was written before the cache: BigInt division and remainder. */
function plainTime(timeNs: bigint, digits: number): string {
  const frac = (timeNs % 1_000_000_000n).toString().padStart(9, "0").slice(0, digits);
  return `${new Date(Number(timeNs / 1_000_000_000n) * 1000).toISOString().slice(0, 19)}.${frac}Z`;
}

describe("capture message documents as text", () => {
  it.each(files)("are JSON.stringify of each message's document in $name", ({ bytes }) => {
    const c = openCapture(xxh, memorySource(bytes));
    for (const conn of c.connections)
      for (const m of conn.messages) {
        const request = m.replyTo === null ? null : conn.messages[m.replyTo]!;
        expect(messageDocText(conn, m, request, c.timeDigits, null)).toBe(JSON.stringify({ ...messageJson(conn, m, c.timeDigits), batches: m.batches }));
      }
  });

  it("gives times as BigInt arithmetic does, across seconds, before 1970-01-01T00:00:01 and in both resolutions", () => {
    const times = [0n, 1n, 999_999_999n, 1_000_000_000n, 1_700_000_000_123_456_789n, 1_700_000_000_999_999_999n, 1_700_000_001_000_000_000n, 2n ** 64n - 1n];
    // Alternating seconds so the cache is both hit and missed.
    for (const t of [...times, ...times.reverse(), 5n, 5n]) for (const digits of [6, 9]) expect(captureTime(t, digits)).toBe(plainTime(t, digits));
  });
});
