/** Batches table data: sort keys per column over Analysis.batches (rows are batch indexes). */
import type { BatchTable } from "../../core/model/batch-table.ts";
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import { bigintSortKey, type SortKey } from "./row-order.ts";

/** Column ids of the batches table. */
export type BatchColumnId = "index" | "start" | "partition" | "baseOffset" | "count" | "length" | "stamped" | "verdict";

const headerKey = (batches: BatchTable, key: "partitionId" | "baseOffset" | "batchLength"): SortKey =>
  bigintSortKey(
    (i) => batches.headerValue(i, key),
    (i) => batches.headerFloat(i, key),
  );

/**
 * How bad a batch is, as one number: errors outweigh warnings outweigh infos;
 * a batch without a header sorts as the worst.
 */
export function severityScore(b: Pick<BatchModel, "header" | "errors" | "warnings" | "infos">): number {
  if (!b.header) return Number.MAX_SAFE_INTEGER;
  return severityOf(b.errors, b.warnings, b.infos);
}

const severityOf = (errors: number, warnings: number, infos: number): number => errors * 1e12 + warnings * 1e6 + infos;

/** The sort key of a batches-table column. */
export function batchSortKey(column: BatchColumnId, analysis: Analysis): SortKey {
  const batches = analysis.batches;
  switch (column) {
    case "index":
      return { primary: (i) => i };
    case "start":
      return { primary: (i) => batches.start(i) };
    case "partition":
      return headerKey(batches, "partitionId");
    case "baseOffset":
      return headerKey(batches, "baseOffset");
    case "count":
      return { primary: (i) => batches.headerValue(i, "messageCount") ?? -1 };
    case "length":
      return headerKey(batches, "batchLength");
    case "stamped":
      return { primary: (i) => (batches.stamped(i) ? 1 : 0) };
    case "verdict":
      return { primary: (i) => (batches.hasHeader(i) ? severityOf(batches.errors(i), batches.warnings(i), batches.infos(i)) : Number.MAX_SAFE_INTEGER) };
  }
}
