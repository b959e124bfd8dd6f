/**
 * An index opened in the worker with its `.log` crosses to the page with the log's batch starts as columns
 * (a structured clone, as postMessage makes), and the page's check of a span of entries then finds what
 * the worker's whole check found there.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { checkIndexEntries } from "../core/containers/index.ts";
import { INDEX_ENTRY_SIZE } from "../format/containers/index-entry.ts";
import type { FromWorker } from "./protocol.ts";
import { metaFromWire } from "./protocol.ts";
import { runRequest } from "./run-request.ts";

const HEALTHY = path.resolve(import.meta.dirname, "../../test/fixtures/corpus-containers/partitions/healthy");
const LOG = "00000000000000001949.log";

describe("an index's log crosses to the page", () => {
  test("a zeroed index opened with its .log: the page checks any span as the worker did", async () => {
    const log = readFileSync(path.join(HEALTHY, LOG));
    const index = new Uint8Array(400 * INDEX_ENTRY_SIZE);
    const out: FromWorker[] = [];
    await runRequest(
      {
        type: "analyze",
        id: 1,
        input: index.buffer,
        format: "auto",
        name: "00000000000000001949.index",
        companion: { name: LOG, input: log.buffer.slice(log.byteOffset, log.byteOffset + log.byteLength) },
      },
      (m) => out.push(structuredClone(m)),
    );
    const reply = out.at(-1);
    if (reply?.type !== "result" || !reply.meta) throw new Error(`no result: ${JSON.stringify(reply?.type)}`);
    const meta = metaFromWire(reply.meta);
    expect(meta.indexLog?.name).toBe(LOG);
    expect(meta.indexLog?.size).toBe(log.length);
    const entries = meta.entries;
    if (!entries) throw new Error("no entries crossed");
    const shown = checkIndexEntries(entries, meta.indexLog, 100, 150);
    const kept = reply.analysis.diagnostics.filter((d) => d.start >= 100 * INDEX_ENTRY_SIZE && d.start < 150 * INDEX_ENTRY_SIZE);
    expect(shown.length).toBe(100);
    expect(shown.map((d) => [d.code, d.start, d.end, d.message])).toEqual(kept.map((d) => [d.code, d.start, d.end, d.message]));
  });
});
