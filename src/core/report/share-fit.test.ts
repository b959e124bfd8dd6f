/** Links around a problem fit a GitHub issue: a large batch falls back to its frame or its bytes, and the link opens on them. */
import { describe, expect, it } from "vitest";
import { producerBatch, randomBytes, xxh } from "../../../test/helpers.ts";
import { decodeShareFragment } from "../../lib/share-codec.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { fittingLink, LINK_CHAR_LIMIT, PROBLEM_BYTES_CAP, problemScopes } from "./share-fit.ts";

const BASE = { baseUrl: "https://example.org/iggy/", name: "big.log", sha256: "a".repeat(64) };

describe("share links that fit", () => {
  it("a 450 KB batch of incompressible 30 KB payloads: the link takes the problem frame and fits 64 KiB", () => {
    const payload = (i: number) => randomBytes(30_000, i);
    const bytes = producerBatch(15, { messages: Array.from({ length: 15 }, (_, i) => ({ payload: payload(i), id: BigInt(i + 1) })) });
    const a0 = analyzeWith(xxh, bytes);
    // Flip a payload byte of frame 7.
    const frame7 = a0.frames.start[7] as number;
    bytes[frame7 + 48 + 5]! ^= 1;
    const a = analyzeWith(xxh, bytes);
    const d = a.diagnostics.find((x) => x.code === "frame-checksum-mismatch")!;
    const got = fittingLink(a, d, BASE, (s, e) => bytes.subarray(s, e));
    expect(got).not.toBeNull();
    expect(got!.url.length).toBeLessThanOrEqual(LINK_CHAR_LIMIT);
    expect(got!.scope.id).toBe("problem-frame");
    const state = decodeShareFragment(got!.url.slice(got!.url.indexOf("#")))!;
    expect(state.bytes).toEqual(bytes.subarray(got!.scope.start, got!.scope.end));
    expect(state.part).toEqual({ start: got!.scope.start, end: got!.scope.end, size: bytes.length, sha256: BASE.sha256 });
    expect(state.selection!.start).toBe(d.start - got!.scope.start);
  });

  it("the smallest scope is the problem bytes, capped, and its link fits even when nothing compresses", () => {
    const bytes = randomBytes(4 << 20, 9);
    const a = analyzeWith(xxh, bytes);
    const d = { code: "format-unrecognized", severity: "error", start: 1000, end: 3_000_000, batch: null, frame: null, message: "" } as const;
    const scopes = problemScopes(a, d);
    const last = scopes.at(-1)!;
    expect(last.id).toBe("problem-bytes");
    expect(last.end - last.start).toBeLessThanOrEqual(PROBLEM_BYTES_CAP);
    expect(last.start).toBeLessThanOrEqual(d.start);
    const got = fittingLink(a, d, BASE, (s, e) => bytes.subarray(s, e));
    expect(got!.url.length).toBeLessThanOrEqual(LINK_CHAR_LIMIT);
  });
});
