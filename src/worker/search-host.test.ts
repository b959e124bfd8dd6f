/** The search worker's body: it reads the input from its Blob a window at a time, edits written over, and a cancel stops a search mid-way. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { blobSha256, createSearchHost, readPatched, streamedWindows } from "./search-host.ts";
import type { FromSearchWorker } from "./search-protocol.ts";
import { EditOverlay } from "../core/edit/edit-overlay.ts";

function host(window?: number, parallelFrom?: number) {
  const messages: FromSearchWorker[] = [];
  const handle = createSearchHost((m) => messages.push(m), window, parallelFrom);
  const until = async (pred: () => boolean) => {
    for (let i = 0; i < 2000 && !pred(); i++) await new Promise((r) => setTimeout(r, 1));
  };
  const startsOf = (id: number) => [...(messages.find((m) => m.type === "search-result" && m.id === id) as { starts: Float64Array }).starts];
  return { messages, handle, until, startsOf };
}

describe("search host", () => {
  it("finds in parts at once exactly what one stream finds: hits across part and window edges once, edits, the first `limit`", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 600 }).map((b) => b.map((x) => x % 3)),
        fc.uint8Array({ minLength: 1, maxLength: 5 }).map((b) => b.map((x) => x % 3)),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.record({ start: fc.nat(620), bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }).map((b) => b.map((x) => x % 3)) }), { maxLength: 3 }),
        async (bytes, pattern, limit, patches) => {
          const run = async (parallelFrom: number) => {
            const { messages, handle, until } = host(32, parallelFrom);
            handle({ type: "search", id: 1, source: new Blob([bytes]), patches, pattern, limit });
            await until(() => messages.some((m) => m.type === "search-result" || m.type === "search-error"));
            const r = messages.find((m) => m.type === "search-result") as { starts: Float64Array; capped: boolean } | undefined;
            return r && { starts: [...r.starts], capped: r.capped };
          };
          const inParts = await run(0);
          expect(inParts).toBeDefined();
          expect(inParts).toEqual(await run(Number.MAX_SAFE_INTEGER));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("finds every hit in a Blob read in small windows, a hit across two windows once", async () => {
    const { messages, handle, until, startsOf } = host(16);
    const bytes = new Uint8Array(100).fill(7);
    bytes.set([1, 2, 3], 10);
    bytes.set([1, 2, 3], 31); // 31..33: across the window edge at 32
    bytes.set([1, 2, 3], 90);
    handle({ type: "search", id: 5, source: new Blob([bytes]), patches: [], pattern: Uint8Array.of(1, 2, 3), limit: 10 });
    await until(() => messages.some((m) => m.type === "search-result"));
    expect(messages.find((m) => m.type === "search-result")).toMatchObject({ id: 5, capped: false });
    expect(startsOf(5)).toEqual([10, 31, 90]);
  });

  it("searches an edited input as edited: the edited runs are written over each window read from the original's Blob", async () => {
    const { messages, handle, until, startsOf } = host(16);
    const original = new Uint8Array(100).fill(7);
    original.set([1, 2, 3], 40);
    const overlay = new EditOverlay(original);
    overlay.apply("make one", [{ offset: 14, bytes: Uint8Array.of(1, 2, 3) }]); // across the edge at 16
    overlay.apply("break one", [{ offset: 41, bytes: Uint8Array.of(0) }]);
    overlay.apply("make another", [{ offset: 97, bytes: Uint8Array.of(1, 2, 3) }]);
    handle({ type: "search", id: 1, source: new Blob([original]), patches: [...overlay.runs()], pattern: Uint8Array.of(1, 2, 3), limit: 10 });
    await until(() => messages.some((m) => m.type === "search-result"));
    expect(startsOf(1)).toEqual([14, 97]);
    const edited = overlay.materialize();
    expect(await readPatched(new Blob([original]), overlay.runs(), 10, 50)).toEqual(edited.slice(10, 50));
  });

  it("stops a long search when cancelled, without a result, and still serves the next", async () => {
    const { messages, handle, until } = host(1 << 20);
    // 16 MiB in 1 MiB windows, so the cancel lands between two of them.
    const source = new Blob([new Uint8Array(16 << 20)]);
    handle({ type: "search", id: 1, source, patches: [], pattern: Uint8Array.of(9, 9), limit: 10 });
    handle({ type: "search-cancel", id: 1 });
    handle({ type: "search", id: 2, source, patches: [], pattern: Uint8Array.of(0, 0), limit: 3 });
    await until(() => messages.some((m) => m.type === "search-result" && m.id === 2));
    await new Promise((r) => setTimeout(r, 50));
    expect(messages.some((m) => m.type === "search-result" && m.id === 1)).toBe(false);
    const progress = messages.filter((m) => m.type === "search-progress" && m.id === 1);
    expect(progress.every((m) => m.type === "search-progress" && m.done < m.total)).toBe(true);
    expect(messages.find((m) => m.type === "search-result" && m.id === 2)).toMatchObject({ capped: true });
  });

  it("streams windows in order into fixed buffers, each the edited bytes of its range with the overlap carried over", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.record({ offset: fc.nat(199), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }), { maxLength: 4 }),
        async (original, window, overlap, writes) => {
          const overlay = new EditOverlay(original);
          overlay.apply("edits", writes);
          const edited = overlay.materialize();
          const windows = streamedWindows(new Blob([original]), overlay.runs(), window, overlap)!;
          for (let start = 0; start < original.length; start += window) {
            const end = Math.min(original.length, start + window + overlap);
            const got = await windows.read(start, end);
            expect([...got]).toEqual([...edited.slice(start, end)]);
            // A view of one of the two fixed buffers (a transfer moves, never copies, them), not a fresh copy per window.
            expect(got.buffer.byteLength).toBe(window + overlap);
          }
          windows.close();
        },
      ),
    );
  });

  it("says so when the Blob can no longer be read", async () => {
    const { messages, handle, until } = host(16);
    const gone = { size: 100, slice: () => ({ arrayBuffer: () => Promise.reject(new Error("the file changed on disk")) }) } as unknown as Blob;
    handle({ type: "search", id: 3, source: gone, patches: [], pattern: Uint8Array.of(1), limit: 1 });
    await until(() => messages.length > 0);
    expect(messages).toEqual([{ type: "search-error", id: 3, message: "the file changed on disk" }]);
  });

  it("answers a digest request with the SHA-256 of the Blob read in windows, the last one short", async () => {
    const { messages, handle, until } = host(64);
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) & 0xff);
    handle({ type: "digest", id: 9, source: new Blob([bytes]) });
    await until(() => messages.some((m) => m.type === "digest-result"));
    expect(messages).toEqual([{ type: "digest-result", id: 9, hex: createHash("sha256").update(bytes).digest("hex") }]);
    expect(await blobSha256(new Blob([]), 64)).toBe(createHash("sha256").digest("hex"));
  });
});
