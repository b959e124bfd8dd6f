/**
 * Merges the results of batch-aligned ranges (range-walk.ts), walked in order or in parallel, into
 * the Analysis analyze() gives for the whole input: the same diagnostics kept past maxDiagnostics
 * (diagnostic-cap.ts), continuity across range borders, frame indices shifted.
 */
import type { Diagnostic, DiagnosticCode } from "../../format/diagnostics.ts";
import { diagnostic } from "../../format/diagnostics.ts";
import { DiagnosticKeeper } from "../model/diagnostic-cap.ts";
import { concatFrameColumns, KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import type { AnalyzeOptions } from "./walk-options.ts";
import { type Analysis, type FrameColumns } from "../model/model.ts";
import { type BatchTable, type CountsDelta } from "../model/batch-table.ts";
import { concatBatchTables } from "../model/batch-table-build.ts";
import type { RangeResult } from "./range-walk.ts";
import { checkContinuity, type PartitionTail } from "./walk-checks.ts";

/** The Analysis of an input of `size` bytes from its ranges, given in input order. */
export function mergeRanges(
  size: number,
  parts: readonly RangeResult[],
  maxDiagnostics: number,
  dropFinding?: AnalyzeOptions["dropFinding"],
  /** Given each part's frame column and batch table buffers once they are joined (the parts are not read again). */
  releaseParts?: (buffer: ArrayBuffer) => void,
  /** Every part's frames, where they were walked into one set of columns (FrameSink), the parts' own being null. */
  frames?: FrameColumns,
): Analysis {
  const tails = new Map<bigint, PartitionTail>();
  const tables: BatchTable[] = [];
  const keeper = new DiagnosticKeeper(maxDiagnostics);
  const totals = { errors: 0, warnings: 0, infos: 0 };
  let frameBase = 0;
  for (const part of parts) {
    totals.errors += part.totals.errors;
    totals.warnings += part.totals.warnings;
    totals.infos += part.totals.infos;
    const pending = new Map(part.pending.map((p) => [p.localBatch, p]));
    const extras = new Map<number, CountsDelta>();
    const local = part.batches;
    let g = 0;
    for (let b = 0; b < local.length; b++) {
      const groupEnd = part.diagnosticGroupEnds[b] as number;
      for (; g < groupEnd; g++) keeper.add(part.diagnostics[g] as Diagnostic);
      const p = pending.get(b);
      const prev = p && tails.get(p.header.partitionId);
      if (p && prev) {
        const extra = { errors: 0, warnings: 0, infos: 0 };
        checkContinuity(prev, p.header, p.firstOffset, local.start(b), local.index(b), (code: DiagnosticCode, start, end, batch, frame, message) => {
          // Continuity is checked between stamped batches only.
          if (dropFinding?.(code, true)) return;
          const d = diagnostic(code, start, end, batch, frame, message);
          const key = d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "infos";
          extra[key]++;
          totals[key]++;
          keeper.add(d);
        });
        if (extra.errors + extra.warnings + extra.infos > 0) extras.set(b, extra);
      }
      keeper.endBatch();
    }
    // The range's own table where nothing changes (always for the first range): no copy.
    tables.push(frameBase === 0 && extras.size === 0 ? local : local.withCounts(frameBase, (b) => extras.get(b)));
    for (const [partition, tail] of part.tails) tails.set(partition, tail);
    frameBase += part.frameCount;
  }
  const batches = concatBatchTables(tables, releaseParts);
  const { diagnostics } = keeper.finish();
  return {
    size,
    batches,
    frames: frames ?? concatFrames(parts, releaseParts),
    diagnostics,
    diagnosticsOmitted: totals.errors + totals.warnings + totals.infos - diagnostics.length,
    summary: { batches: batches.length, frames: frameBase, ...totals },
  };
}

/** No frame columns: what an analysis without keepFrames carries (its summary still counts the frames). */
export function emptyFrames(): FrameColumns {
  return new KeptColumnsBuilder(0).finish();
}

function concatFrames(parts: readonly RangeResult[], release: ((buffer: ArrayBuffer) => void) | undefined): FrameColumns {
  const withFrames = parts.map((p) => p.frames);
  if (withFrames.some((f) => f === null)) return emptyFrames();
  return concatFrameColumns(withFrames as FrameColumns[], release);
}
