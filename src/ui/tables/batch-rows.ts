/** Batches table data: sort keys per column over Analysis.batches (rows are batch indexes). */
import type { Analysis, BatchModel } from "../../core/model.ts";
import { compareBigints, type SortKey } from "./row-order.ts";

/** Column ids of the batches table. */
export type BatchColumnId = "index" | "start" | "partition" | "baseOffset" | "count" | "length" | "stamped" | "verdict";

function bigintKey(value: (b: BatchModel) => bigint | null, batches: readonly BatchModel[]): SortKey {
  return {
    primary: (i) => {
      const v = value(batches[i] as BatchModel);
      return v === null ? -Infinity : Number(v);
    },
    tie: (a, b) => {
      const va = value(batches[a] as BatchModel);
      const vb = value(batches[b] as BatchModel);
      if (va === null || vb === null) return va === vb ? 0 : va === null ? -1 : 1;
      return compareBigints(va, vb);
    },
  };
}

/**
 * How bad a batch is, as one number: errors outweigh warnings outweigh infos;
 * a batch without a header sorts as the worst.
 */
export function severityScore(b: Pick<BatchModel, "header" | "errors" | "warnings" | "infos">): number {
  if (!b.header) return Number.MAX_SAFE_INTEGER;
  return b.errors * 1e12 + b.warnings * 1e6 + b.infos;
}

/** The sort key of a batches-table column. */
export function batchSortKey(column: BatchColumnId, analysis: Analysis): SortKey {
  const batches = analysis.batches;
  switch (column) {
    case "index":
      return { primary: (i) => i };
    case "start":
      return { primary: (i) => (batches[i] as BatchModel).start };
    case "partition":
      return bigintKey((b) => b.header?.partitionId ?? null, batches);
    case "baseOffset":
      return bigintKey((b) => b.header?.baseOffset ?? null, batches);
    case "count":
      return { primary: (i) => (batches[i] as BatchModel).header?.messageCount ?? -1 };
    case "length":
      return bigintKey((b) => b.header?.batchLength ?? null, batches);
    case "stamped":
      return { primary: (i) => ((batches[i] as BatchModel).stamped ? 1 : 0) };
    case "verdict":
      return { primary: (i) => severityScore(batches[i] as BatchModel) };
  }
}
