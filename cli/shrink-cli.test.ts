/**
 * A file truncated while `iggy-batch inspect` streams it (issue 22, item 6), through the command itself: exit 2 and
 * one precise line on stderr ("cannot read the input: the file ends at byte N now; it had M bytes …"), no stack
 * trace, no "kernel walked no batch", no verdict on stdout. Deterministic: the file is cut by the test right after
 * the command's first read of it (file-source.ts wrapped), never by a timer.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { concat, encodeBatch, stampBatch } from "../src/core/walk/encode.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import type * as FileSourceModule from "./file-source.ts";
import { READ_WINDOW_BYTES } from "./file-source.ts";

/** Where the next streamed file is cut after its first read, and to how many bytes (null: leave it alone). */
const cut = vi.hoisted(() => ({ path: null as string | null, to: 0, reads: 0 }));
vi.mock("./file-source.ts", async (importOriginal) => {
  const real = await importOriginal<typeof FileSourceModule>();
  return {
    ...real,
    fileSource: (fd: number) => {
      const inner = real.fileSource(fd);
      return {
        size: inner.size,
        read(into: Uint8Array, position: number) {
          const n = inner.read(into, position);
          if (++cut.reads === 1 && cut.path) truncateSync(cut.path, cut.to);
          return n;
        },
      };
    },
  };
});

const { main } = await import("./main.ts");
const xxh = await loadXxh3();
const dir = mkdtempSync(join(tmpdir(), "iggy-batch-shrink-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** About 12 MiB of chained stamped batches: many of the stream's reads (READ_WINDOW_BYTES each). */
function segmentBytes(): Uint8Array {
  const batch = encodeBatch(xxh, { originTimestamp: 1n, messages: Array.from({ length: 64 }, (_, k) => ({ payload: `m${k} `.repeat(250) })) });
  const out: Uint8Array[] = [];
  for (let b = 0; b < 200; b++)
    out.push(stampBatch(xxh, batch, { partitionId: 1n, baseOffset: BigInt(64 * b), baseTimestamp: 1_700_000_000_000_000n + BigInt(b) }));
  return concat(out);
}
const bytes = segmentBytes();

/** Runs the command in this process with its stdout and stderr captured. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const done = rest.find((x) => typeof x === "function") as (() => void) | undefined;
    done?.();
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

// One thread: worker threads read the file with their own file-source.ts, which the wrapper above does not reach
// (cli/shrink.test.ts covers the pool).
const threadsBefore = process.env.IGGY_BATCH_THREADS;
beforeAll(() => {
  process.env.IGGY_BATCH_THREADS = "1";
});
afterAll(() => {
  if (threadsBefore === undefined) delete process.env.IGGY_BATCH_THREADS;
  else process.env.IGGY_BATCH_THREADS = threadsBefore;
});
afterEach(() => {
  cut.path = null;
  cut.reads = 0;
});

describe("inspect of a file truncated while it streams", () => {
  it.each([
    ["a segment (.log, auto)", "00000000000000000000.log", [] as string[]],
    ["a batch file forced to --format batches", "batches.bin", ["--format", "batches"]],
    ["a segment, --json without frames", "00000000000000000000.log", ["--json", "--no-frames"]],
  ])("%s: exit 2 with the precise message, nothing on stdout", async (_what, name, flags) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const intact = await run(["inspect", path, ...flags]);
    expect(intact.code).toBe(0);
    expect(intact.stderr).toBe("");

    writeFileSync(path, bytes);
    cut.reads = 0;
    cut.path = path;
    // Inside the second read: the first one, whole, is all that is read before the file ends short.
    cut.to = Math.floor(READ_WINDOW_BYTES * 1.5);
    const r = await run(["inspect", path, ...flags]);
    expect(cut.reads).toBe(1);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `iggy-batch: cannot read the input: the file ends at byte ${cut.to} now; it had ${bytes.length} bytes when it was opened (it was truncated while it was read)\n`,
    );
    expect(r.stdout).not.toMatch(/verdict/);
  });
});
