/** The CLI's JSON document (contracts.md §1), built from an Analysis; header fields are mapped through the layout tables. */
import { hex64 } from "../../format/values.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { BATCH_HEADER_LAYOUT, FRAME_HEADER_LAYOUT, valueFields } from "../../format/fields.ts";
import { headerJson, jsonValue, readHeader, type AnyFieldValue, type HeaderJson } from "../../format/field-codec.ts";
import type { Analysis, BatchModel, FrameHeader } from "./model.ts";
import type { BatchTable } from "./batch-table.ts";
import { ByteReader } from "../../format/reader.ts";
import { computedChecksumOf, frameEnd } from "./frame-columns.ts";

type FrameFieldsJson = HeaderJson<typeof FRAME_HEADER_LAYOUT>;

/** One frame entry of the JSON contract; computedChecksum is null for a truncated frame. */
export type FrameJson = { index: number; start: number; end: number } & FrameFieldsJson & { computedChecksum: string | null };

/** One batch entry of the JSON contract. */
export interface BatchJson {
  index: number;
  start: number;
  end: number;
  stamped: boolean;
  header: HeaderJson<typeof BATCH_HEADER_LAYOUT> | null;
  computedChecksum: string | null;
  frames?: FrameJson[];
}

/** The whole JSON document `iggy-batch inspect --json` prints. */
export interface AnalysisJson {
  input: { name: string; size: number };
  summary: { batches: number; frames: number; errors: number; warnings: number; infos: number };
  batches: BatchJson[];
  diagnostics: Diagnostic[];
  /** Present when more diagnostics were found than kept. */
  diagnosticsOmitted?: number;
}

// The contract lists a frame's fields in its own order (contracts.md §1), not in wire order;
// the check below fails to compile when a frame field is missing from it.
const FRAME_JSON_ORDER = [
  "id",
  "offsetDelta",
  "timestampDelta",
  "payloadLength",
  "userHeadersLength",
  "checksum",
] as const satisfies readonly (keyof FrameFieldsJson)[];
const everyFrameField: Exclude<keyof FrameFieldsJson, (typeof FRAME_JSON_ORDER)[number]> extends never ? true : never = true;
void everyFrameField;
const FRAME_JSON_FIELDS = FRAME_JSON_ORDER.map((key) => valueFields(FRAME_HEADER_LAYOUT).find((f) => f.jsonKey === key)!);

/** Builds the contract's JSON document; frames are listed unless withFrames is false. */
export function toContractJson(analysis: Analysis, bytes: Uint8Array, name: string, withFrames = true): AnalysisJson {
  const r = new ByteReader(bytes);
  const doc: AnalysisJson = {
    input: { name, size: analysis.size },
    summary: { ...analysis.summary },
    batches: analysis.batches.map((b) => batchJson(analysis, r, b, withFrames)),
    diagnostics: analysis.diagnostics,
  };
  if (analysis.diagnosticsOmitted > 0) doc.diagnosticsOmitted = analysis.diagnosticsOmitted;
  return doc;
}

function batchHead(b: BatchModel): BatchJson {
  return {
    index: b.index,
    start: b.start,
    end: b.end,
    stamped: b.stamped,
    header: b.header && headerJson(BATCH_HEADER_LAYOUT, b.header),
    computedChecksum: b.computedChecksum === null ? null : hex64(b.computedChecksum),
  };
}

const BATCH_JSON_FIELDS = valueFields(BATCH_HEADER_LAYOUT);
const BATCH_JSON_KEYS = BATCH_JSON_FIELDS.map((f) => JSON.stringify(f.jsonKey));

/**
 * JSON.stringify(batchHead(batches.at(i))), read straight from the table's columns: no BatchModel, header
 * object or JSON.stringify walk per batch. The CLI prints a line per batch once, in code that has not warmed up:
 * 7,242 of them (1 GiB of 100 B payloads) took 60 ms that way, as long as a quarter of the walk on two threads.
 */
function batchHeadText(t: BatchTable, i: number): string {
  let header = "null";
  if (t.hasHeader(i)) {
    header = "{";
    for (let k = 0; k < BATCH_JSON_FIELDS.length; k++) {
      const spec = BATCH_JSON_FIELDS[k]!;
      const value = jsonValue(spec, t.headerValue(i, spec.jsonKey) as AnyFieldValue);
      header += `${k ? "," : ""}${BATCH_JSON_KEYS[k]}:${JSON.stringify(value)}`;
    }
    header += "}";
  }
  const c = t.computedChecksum(i);
  return `{"index":${t.index(i)},"start":${JSON.stringify(t.start(i))},"end":${JSON.stringify(t.end(i))},"stamped":${t.stamped(i)},"header":${header},"computedChecksum":${c === null ? "null" : JSON.stringify(hex64(c))}}`;
}

function frameJson(index: number, start: number, end: number, header: FrameHeader, computedChecksum: string | null): FrameJson {
  const out: Record<string, number | string | null> = { index, start, end };
  const values = header as Readonly<Record<string, AnyFieldValue>>;
  for (const spec of FRAME_JSON_FIELDS) out[spec.jsonKey] = jsonValue(spec, values[spec.jsonKey] as AnyFieldValue);
  out.computedChecksum = computedChecksum;
  return out as FrameJson;
}

// One frame entry at a time, so a batch of millions of frames never exists as one array.
function* framesJson(analysis: Analysis, r: ByteReader, b: BatchModel): Generator<FrameJson> {
  const f = analysis.frames;
  for (let i = b.firstFrame; i < b.firstFrame + b.frameCount; i++) {
    const s = f.start[i] as number;
    const header = readHeader(r, s, FRAME_HEADER_LAYOUT);
    yield frameJson(i - b.firstFrame, s, frameEnd(f, i), header, hex64(computedChecksumOf(f, i, header.checksum)));
  }
  const t = b.truncatedFrame;
  // A truncated frame is listed last, with what its whole header says and no computed checksum.
  if (t && t.headerComplete) yield frameJson(b.frameCount, t.start, t.end, readHeader(r, t.start, FRAME_HEADER_LAYOUT), null);
}

/** One batch document of the contract (frames listed when withFrames). */
export function batchJson(analysis: Analysis, r: ByteReader, b: BatchModel, withFrames: boolean): BatchJson {
  const out = batchHead(b);
  if (withFrames) out.frames = [...framesJson(analysis, r, b)];
  return out;
}

/**
 * The same document as toContractJson, as text pieces: one line per frame and diagnostic, so inputs
 * with millions of frames can be written out without one giant string.
 */
export function* contractJsonChunks(analysis: Analysis, bytes: Uint8Array, name: string, withFrames = true): Generator<string> {
  const r = new ByteReader(bytes);
  yield `{\n  "input": ${JSON.stringify({ name, size: analysis.size })},\n  "summary": ${JSON.stringify(analysis.summary)},\n  "batches": [`;
  const table = analysis.batches;
  for (let k = 0; k < table.length; k++) {
    const head = batchHeadText(table, k);
    if (!withFrames) {
      yield `${k ? "," : ""}\n    ${head}`;
      continue;
    }
    yield `${k ? "," : ""}\n    ${head.slice(0, -1)}, "frames": [`;
    let first = true;
    for (const frame of framesJson(analysis, r, table.at(k) as BatchModel)) {
      yield `${first ? "" : ","}\n      ${JSON.stringify(frame)}`;
      first = false;
    }
    yield first ? "]}" : "\n    ]}";
  }
  yield `${analysis.batches.length ? "\n  " : ""}],\n  "diagnostics": [`;
  for (const [k, d] of analysis.diagnostics.entries()) yield `${k ? "," : ""}\n    ${JSON.stringify(d)}`;
  yield `${analysis.diagnostics.length ? "\n  " : ""}]`;
  if (analysis.diagnosticsOmitted > 0) yield `,\n  "diagnosticsOmitted": ${analysis.diagnosticsOmitted}`;
  yield "\n}\n";
}
