/**
 * A stream (standard input, a FIFO) is counted as it comes and refused at the input limit holding about one chunk
 * (issue 22, item 7: it was refused at 2 GiB only after holding 2.1 GB). The limit is a parameter here; production
 * keeps 2 GiB - 1 (inputLimit()).
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inputLimit, readBounded, readInputBytes, UsageError } from "./io.ts";

const MiB = 1 << 20;

/** An endless stream of fresh 1 MiB chunks, each with its index in its first byte; counts the chunks taken and the memory held at the last one. */
function endless() {
  const seen = { chunks: 0, heldAtLast: 0, base: process.memoryUsage().arrayBuffers };
  // eslint-disable-next-line @typescript-eslint/require-await -- a stream made here, as standard input would deliver it
  async function* gen(): AsyncGenerator<Buffer> {
    for (;;) {
      seen.chunks++;
      seen.heldAtLast = process.memoryUsage().arrayBuffers - seen.base;
      yield Buffer.alloc(MiB, seen.chunks & 0xff);
    }
  }
  return { seen, stream: gen() };
}

describe("readBounded", () => {
  it("keeps 2 GiB - 1 as the production limit", () => {
    const saved = process.env.IGGY_BATCH_MAX_INPUT_BYTES;
    delete process.env.IGGY_BATCH_MAX_INPUT_BYTES;
    try {
      expect(inputLimit()).toBe(2 ** 31 - 1);
    } finally {
      if (saved !== undefined) process.env.IGGY_BATCH_MAX_INPUT_BYTES = saved;
    }
  });

  it("reads a stream of exactly the limit whole, in order", async () => {
    // eslint-disable-next-line @typescript-eslint/require-await -- as above
    async function* five(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 5; i++) yield Buffer.from([i, i, i]);
    }
    expect(Array.from(await readBounded(five(), "standard input", 15))).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    await expect(readBounded(five(), "standard input", 14)).rejects.toThrow("standard input is larger than the 14-byte input limit; nothing was checked");
  });

  it("refuses an endless stream at the limit with the precise message, having held far less than the limit", async () => {
    const limit = 384 * MiB;
    const { seen, stream } = endless();
    const err = await readBounded(stream, "standard input", limit).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`iggy-batch: standard input is larger than the ${limit}-byte input limit; nothing was checked`);
    // Counted as it streamed: the chunk that crossed the limit was the last one taken.
    expect(seen.chunks).toBe(limit / MiB + 1);
    // Holding every chunk until the limit would be 384 MiB here.
    console.log(`held ${(seen.heldAtLast / MiB).toFixed(0)} MiB of array buffers when the limit of ${limit / MiB} MiB was crossed`);
    expect(seen.heldAtLast).toBeLessThan(limit / 2);
  });
});

describe("readInputBytes", () => {
  it("says a symbolic link loop is one, as a partition's skipped entry does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "iggy-batch-loop-"));
    try {
      const loop = join(dir, "00000000000000000009.log");
      symlinkSync("00000000000000000009.log", loop);
      await expect(readInputBytes(loop)).rejects.toThrow(`iggy-batch: cannot read ${loop}: a symbolic link loop: it leads to no file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
