/** The CLI's JSON document (contracts.md §1), built from an Analysis. */
import { hex128, hex64 } from "../format/values.ts";
import type { Diagnostic } from "../format/diagnostics.ts";
import type { Analysis, BatchModel } from "./model.ts";
import { ByteReader } from "../format/reader.ts";

/** One frame entry of the JSON contract; computedChecksum is null for a truncated frame. */
export interface FrameJson {
  index: number; start: number; end: number; id: string;
  offsetDelta: number; timestampDelta: number; payloadLength: number; userHeadersLength: number;
  checksum: string; computedChecksum: string | null;
}

/** One batch entry of the JSON contract. */
export interface BatchJson {
  index: number; start: number; end: number; stamped: boolean;
  header: { partitionId: string; baseOffset: string; baseTimestamp: string; originTimestamp: string; batchLength: string; batchChecksum: string; messageCount: number } | null;
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
  const h = b.header;
  return {
    index: b.index, start: b.start, end: b.end, stamped: b.stamped,
    header: h && {
      partitionId: h.partitionId.toString(), baseOffset: h.baseOffset.toString(), baseTimestamp: h.baseTimestamp.toString(),
      originTimestamp: h.originTimestamp.toString(), batchLength: h.batchLength.toString(), batchChecksum: hex64(h.batchChecksum),
      messageCount: h.messageCount,
    },
    computedChecksum: b.computedChecksum === null ? null : hex64(b.computedChecksum),
  };
}

// One frame entry at a time, so a batch of millions of frames never exists as one array.
function* framesJson(analysis: Analysis, r: ByteReader, b: BatchModel): Generator<FrameJson> {
  const f = analysis.frames;
  for (let i = b.firstFrame; i < b.firstFrame + b.frameCount; i++) {
    const s = f.start[i] as number;
    yield {
      index: f.indexInBatch[i] as number, start: s, end: f.end[i] as number, id: hex128(r.u128(s + 8)),
      offsetDelta: f.offsetDelta[i] as number, timestampDelta: f.timestampDelta[i] as number,
      payloadLength: f.payloadLength[i] as number, userHeadersLength: f.userHeadersLength[i] as number,
      checksum: hex64(f.storedChecksum[i] as bigint), computedChecksum: hex64(f.computedChecksum[i] as bigint),
    };
  }
  const t = b.truncatedFrame;
  if (t && t.headerComplete) {
    // A truncated frame is listed last, with what its whole header says and no computed checksum.
    yield {
      index: b.frameCount, start: t.start, end: t.end, id: hex128(r.u128(t.start + 8)),
      offsetDelta: r.u32(t.start + 24), timestampDelta: r.u32(t.start + 28),
      payloadLength: r.u32(t.start + 36), userHeadersLength: r.u32(t.start + 32),
      checksum: hex64(r.u64(t.start)), computedChecksum: null,
    };
  }
}

function batchJson(analysis: Analysis, r: ByteReader, b: BatchModel, withFrames: boolean): BatchJson {
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
  for (const [k, b] of analysis.batches.entries()) {
    const head = JSON.stringify(batchHead(b));
    if (!withFrames) { yield `${k ? "," : ""}\n    ${head}`; continue; }
    yield `${k ? "," : ""}\n    ${head.slice(0, -1)}, "frames": [`;
    let first = true;
    for (const frame of framesJson(analysis, r, b)) {
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
