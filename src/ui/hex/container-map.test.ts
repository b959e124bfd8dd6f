/** Container fields in the hex map: real container bytes through the real openInput, then the hex map's lookups. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { KIND_CODE } from "../../core/view/byte-map.ts";
import { openInput } from "../../core/containers/index.ts";
import { RangeIndex } from "../../lib/range-index.ts";
import { describeByte } from "./byte-info.ts";
import { fieldAt } from "./field-at.ts";
import { RowCache } from "./row-data.ts";

const VECTORS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/vectors");
const read = (name: string) => new Uint8Array(readFileSync(path.join(VECTORS, name)));

describe("a SendMessages body (Iggy's golden vector)", async () => {
  const bytes = read("golden-send-messages-body.bin");
  const opened = await openInput(bytes, { name: "golden-send-messages-body.bin" });
  const fields = opened.container!.fields;

  test("is detected and has its metadata as container fields", () => {
    expect(opened.format).toBe("send-messages");
    expect(fields[0]).toMatchObject({ kind: "send.metadata_length", name: "metadata_length", start: 0, end: 4 });
  });

  test("every container byte maps to its field's kind in the rows, batch bytes keep theirs", () => {
    const rows = new RowCache(opened.analysis, bytes, undefined, fields).window(0, 3);
    const kinds = rows.flatMap((r) => [...r.kinds]);
    for (const f of fields) for (let o = f.start; o < Math.min(f.end, kinds.length); o++) expect(kinds[o], `${f.name} @${o}`).toBe(KIND_CODE[f.kind]);
    const batchStart = opened.analysis.batches.start(0);
    if (batchStart < kinds.length) expect(kinds[batchStart]).toBe(KIND_CODE["batch.partition_id"]);
    // Without the fields the same bytes are not coloured as the container (the overlay is what does it).
    const plain = new RowCache(opened.analysis, bytes).window(0, 1)[0]!;
    expect(plain.kinds[0]).not.toBe(KIND_CODE["send.metadata_length"]);
  });

  test("fieldAt and the tooltip name a container field with its table's description and decoded value", () => {
    const f = fields.find((x) => x.name.endsWith(".value")) ?? fields[1]!;
    const hit = fieldAt(opened.analysis, bytes, f.start, fields);
    expect(hit).toMatchObject({ kind: f.kind, start: f.start, end: f.end, batch: -1, container: f });
    const info = describeByte(opened.analysis, bytes, f.start, new RangeIndex(opened.analysis.diagnostics), fields);
    expect(info.name).toBe(f.name);
    expect(info.description.length).toBeGreaterThan(10);
    expect(info.rows.find((r) => r.label === "Value")?.value).toBe(f.value);
    expect(info.where).toBe("container · send layout");
  });

  test("a batch byte after the container is still the batch's", () => {
    const b = opened.analysis.batches.at(0)!;
    expect(fieldAt(opened.analysis, bytes, b.start + 9, fields)).toMatchObject({ kind: "batch.base_offset", batch: 0, container: null });
  });
});

describe("a poll reply body", async () => {
  const bytes = read("golden-poll-body.bin");
  const opened = await openInput(bytes, { name: "golden-poll-body.bin" });

  test("its 16-byte prefix is three fields, not unattributed bytes", () => {
    const fields = opened.container!.fields;
    expect(opened.format).toBe("poll-reply");
    expect([0, 4, 12].map((o) => fieldAt(opened.analysis, bytes, o, fields).kind)).toEqual(["poll.partition_id", "poll.current_offset", "poll.count"]);
    expect(fieldAt(opened.analysis, bytes, 0).kind).toBe("unattributed");
  });
});
