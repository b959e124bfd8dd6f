import { describe, expect, test } from "vitest";
import { KIND_CODE } from "../../core/view/byte-map.ts";
import { analysed, corpus, goldenBatch } from "./fixtures.test-util.ts";
import { Edge, Problem, RowCache } from "./row-data.ts";

describe("RowCache", () => {
  const { analysis, bytes } = analysed(goldenBatch());

  test("rows carry kinds and unit edges", () => {
    const cache = new RowCache(analysis, bytes);
    expect(cache.rows).toBe(25);
    const rows = cache.window(0, 25);
    expect(rows).toHaveLength(25);
    const r0 = rows[0]!;
    expect(r0).toMatchObject({ row: 0, start: 0, length: 16, rowEdge: Edge.batch });
    expect([...r0.kinds]).toEqual([...Array(8).fill(KIND_CODE["batch.partition_id"]), ...Array(8).fill(KIND_CODE["batch.base_offset"])]);
    expect(r0.edges[0]).toBe(Edge.batch);
    expect(rows[16]!.edges[0]).toBe(Edge.frame);
    // Frame 1 starts at 317 = row 19, column 13.
    expect([...rows[19]!.edges]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Edge.frame, 0, 0]);
    expect(rows[19]!.kinds[12]).toBe(KIND_CODE["frame.payload"]);
    expect(rows[19]!.kinds[13]).toBe(KIND_CODE["frame.checksum"]);
    const last = rows[24]!;
    expect(last).toMatchObject({ start: 384, length: 12 });
    expect([...last.kinds]).toEqual(Array(12).fill(KIND_CODE["frame.user_headers"]));
    expect(rows[3]!.rowEdge).toBe(Edge.none);
    expect([...r0.problems]).toEqual(Array(16).fill(Problem.none));
  });

  test("a row's data stays the same object while cached", () => {
    const cache = new RowCache(analysis, bytes);
    const a = cache.window(5, 10);
    const b = cache.window(0, 12);
    expect(b.slice(5, 10)).toEqual(a);
    for (let i = 0; i < 5; i++) expect(b[i + 5]).toBe(a[i]);
  });

  test("evicts the least recently used rows past its capacity", () => {
    const cache = new RowCache(analysis, bytes, 4);
    const first = cache.window(0, 2);
    cache.window(10, 14);
    expect(cache.window(0, 1)[0]).not.toBe(first[0]);
  });

  test("clamps the window to the rows", () => {
    const cache = new RowCache(analysis, bytes);
    expect(cache.window(-3, 2).map((r) => r.row)).toEqual([0, 1]);
    expect(cache.window(23, 99).map((r) => r.row)).toEqual([23, 24]);
    expect(new RowCache(analysed(new Uint8Array(0)).analysis, new Uint8Array(0)).window(0, 5)).toEqual([]);
  });

  test("marks the worst diagnostic over each byte", () => {
    const input = corpus("09-frame-truncated.bin");
    const rows = new RowCache(input.analysis, input.bytes).window(0, 27);
    // message-count-mismatch: bytes 48..52.
    expect([...rows[3]!.problems]).toEqual([3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // frame-truncated: 337..425, starting at row 21 column 1.
    expect(rows[21]!.problems[0]).toBe(Problem.none);
    expect(rows[21]!.problems[1]).toBe(Problem.error);
    expect(rows[26]!.problems[8]).toBe(Problem.error);

    const info = corpus("16-user-headers-malformed.bin");
    const infoRows = new RowCache(info.analysis, info.bytes).window(20, 22);
    expect(infoRows[0]!.problems[0]).toBe(Problem.info);
  });
});
