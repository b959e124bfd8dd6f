import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readHeader } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { INDEX_ENTRY_FIELDS, INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import { IndexEntries } from "./index-entries.ts";
import { metaFromWire, metaToWire, type InputMeta } from "../../worker/protocol.ts";

const PARTITIONS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions");
const INDEX_FILES = readdirSync(PARTITIONS)
  .filter((dir) => statSync(path.join(PARTITIONS, dir)).isDirectory())
  .flatMap((dir) =>
    readdirSync(path.join(PARTITIONS, dir))
      .filter((n) => n.endsWith(".index"))
      .map((n) => path.join(PARTITIONS, dir, n)),
  );

describe("index entries read in place", () => {
  it("read every golden index file as its field table says", () => {
    expect(INDEX_FILES.length).toBeGreaterThan(3);
    for (const file of INDEX_FILES) {
      const bytes = new Uint8Array(readFileSync(file));
      const entries = IndexEntries.of(bytes);
      expect(entries.length, file).toBe(Math.floor(bytes.length / INDEX_ENTRY_SIZE));
      for (let i = 0; i < entries.length; i++) {
        const want = readHeader(new ByteReader(bytes), i * INDEX_ENTRY_SIZE, INDEX_ENTRY_FIELDS);
        expect(entries.at(i), `${file} entry ${i}`).toEqual({ index: i, start: i * INDEX_ENTRY_SIZE, ...want });
      }
    }
  });

  it("leave out a trailing partial entry, count from the end, and slice within bounds", () => {
    const bytes = new Uint8Array(3 * INDEX_ENTRY_SIZE + 5);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 3; i++) view.setBigUint64(i * INDEX_ENTRY_SIZE + 16, 2n ** 63n + BigInt(i), true);
    const entries = IndexEntries.of(bytes);
    expect(entries.length).toBe(3);
    expect(entries.at(-1)?.position).toBe(2n ** 63n + 2n);
    expect(entries.at(3)).toBeUndefined();
    expect(entries.slice(1, 99).map((e) => e.index)).toEqual([1, 2]);
    expect([...entries].map((e) => e.start)).toEqual([0, 24, 48]);
    expect(IndexEntries.of(new Uint8Array(23)).length).toBe(0);
  });

  it("hold only the file's bytes, and cross to the page as them", () => {
    const bytes = new Uint8Array(100_000 * INDEX_ENTRY_SIZE);
    const entries = IndexEntries.of(bytes);
    expect(entries.bytes.buffer).toBe(bytes.buffer);
    const meta: InputMeta = { format: "index", detectedBy: "test", container: null, recovery: null, entries, legacy: null };
    const crossed = metaFromWire(structuredClone(metaToWire(meta)));
    expect(crossed.entries?.length).toBe(100_000);
    expect(crossed.entries?.at(99_999)).toEqual(entries.at(99_999));
  });
});
