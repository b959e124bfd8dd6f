/** An id searched in a file read on demand: byte-search hits are kept only where they are a complete frame's id field. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { findIds, parseQuery, searchBytes } from "../../core/view/search.ts";
import { idFieldHits } from "./search-state.ts";
import { xxh } from "../../../test/helpers.ts";

const bytes = new Uint8Array(readFileSync(new URL("../../../test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin", import.meta.url)));
const analysis = analyzeWith(xxh, bytes);

describe("idFieldHits", () => {
  it("keeps exactly the hits findIds finds, for every frame's id in both spellings", async () => {
    const f = analysis.frames;
    for (let i = 0; i < f.count; i++) {
      const s = f.start[i] as number;
      const wire = [...bytes.subarray(s + 8, s + 24)].map((b) => b.toString(16).padStart(2, "0")).join("");
      const value = [...bytes.subarray(s + 8, s + 24)]
        .reverse()
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
      const uuid = `${wire.slice(0, 8)}-${wire.slice(8, 12)}-${wire.slice(12, 16)}-${wire.slice(16, 20)}-${wire.slice(20)}`;
      for (const q of [`id:${value}`, uuid]) {
        const query = parseQuery(q);
        if (query.kind !== "id") throw new Error(`not an id: ${q}`);
        const lists = await Promise.all(query.orders.map(async (o) => Float64Array.from((await searchBytes(bytes, o, { limit: 1000 }))!.starts)));
        expect([...idFieldHits(analysis, lists, 1000)]).toEqual(findIds(analysis, bytes, query.orders, 1000).map((h) => h.start));
      }
    }
  });

  it("drops a hit that is not on an id field, and stops at the limit", () => {
    const s = analysis.frames.start[0] as number;
    expect([...idFieldHits(analysis, [Float64Array.of(s + 7, s + 8, s + 9)], 10)]).toEqual([s + 8]);
    const ids = Float64Array.from({ length: 3 }, (_, i) => (analysis.frames.start[i] as number) + 8);
    expect([...idFieldHits(analysis, [ids, ids], 2)]).toEqual([...ids.slice(0, 2)]);
  });
});
