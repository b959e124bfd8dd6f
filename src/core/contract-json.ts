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

function batchJson(analysis: Analysis, r: ByteReader, b: BatchModel, withFrames: boolean): BatchJson {
  const h = b.header;
  const out: BatchJson = {
    index: b.index, start: b.start, end: b.end, stamped: b.stamped,
    header: h && {
      partitionId: h.partitionId.toString(), baseOffset: h.baseOffset.toString(), baseTimestamp: h.baseTimestamp.toString(),
      originTimestamp: h.originTimestamp.toString(), batchLength: h.batchLength.toString(), batchChecksum: hex64(h.batchChecksum),
      messageCount: h.messageCount,
    },
    computedChecksum: b.computedChecksum === null ? null : hex64(b.computedChecksum),
  };
  if (!withFrames) return out;
  const f = analysis.frames;
  const frames: FrameJson[] = [];
  for (let i = b.firstFrame; i < b.firstFrame + b.frameCount; i++) {
    const s = f.start[i] as number;
    frames.push({
      index: f.indexInBatch[i] as number, start: s, end: f.end[i] as number, id: hex128(r.u128(s + 8)),
      offsetDelta: f.offsetDelta[i] as number, timestampDelta: f.timestampDelta[i] as number,
      payloadLength: f.payloadLength[i] as number, userHeadersLength: f.userHeadersLength[i] as number,
      checksum: hex64(f.storedChecksum[i] as bigint), computedChecksum: hex64(f.computedChecksum[i] as bigint),
    });
  }
  const t = b.truncatedFrame;
  if (t && t.headerComplete) {
    // A truncated frame is listed last, with what its whole header says and no computed checksum.
    frames.push({
      index: b.frameCount, start: t.start, end: t.end, id: hex128(r.u128(t.start + 8)),
      offsetDelta: r.u32(t.start + 24), timestampDelta: r.u32(t.start + 28),
      payloadLength: r.u32(t.start + 36), userHeadersLength: r.u32(t.start + 32),
      checksum: hex64(r.u64(t.start)), computedChecksum: null,
    });
  }
  out.frames = frames;
  return out;
}
