/** Which batches the diff compares: a source (the input as shown, or as loaded before edits) and a batch index per side. */
import type { DiffRow } from "../../core/view/diff.ts";
import { hex64 } from "../../format/values.ts";

/** The input as shown now, the input as loaded before any edit, or another file chosen in the dialog. */
export type SourceId = "current" | "original" | "other";

/** One side of the comparison. */
export interface Side {
  readonly source: SourceId;
  readonly batch: number;
}

/** Both sides. */
export interface Sides {
  readonly left: Side;
  readonly right: Side;
}

/** Batches per source; original is null when the input has not been edited (it would equal current). */
export interface SourceCounts {
  readonly current: number;
  readonly original: number | null;
  /** Batches of the other file, or null (none chosen). */
  readonly other?: number | null;
}

/**
 * The comparison the dialog opens with: an edited input compares its original batch 0 with its
 * current batch 0 (what did my edit or the stamping change); otherwise batch 0 with batch 1 when
 * there are two; otherwise batch 0 with itself.
 */
export function defaultSides(counts: SourceCounts): Sides {
  if (counts.other != null) return { left: { source: "current", batch: 0 }, right: { source: "other", batch: 0 } };
  if (counts.original !== null) return { left: { source: "original", batch: 0 }, right: { source: "current", batch: 0 } };
  if (counts.current >= 2) return { left: { source: "current", batch: 0 }, right: { source: "current", batch: 1 } };
  return { left: { source: "current", batch: 0 }, right: { source: "current", batch: 0 } };
}

/** A side that exists: an unavailable original falls back to current, and the batch index is clamped. */
export function clampSide(side: Side, counts: SourceCounts): Side {
  const missing = (side.source === "original" && counts.original === null) || (side.source === "other" && counts.other == null);
  const source = missing ? "current" : side.source;
  const n = source === "original" ? (counts.original as number) : source === "other" ? (counts.other as number) : counts.current;
  const batch = Math.max(0, Math.min(side.batch, n - 1));
  return source === side.source && batch === side.batch ? side : { source, batch };
}

/** The original of the batch being looked at (left: original, right: current), same index. */
export function originalVsCurrent(sides: Sides, counts: SourceCounts): Sides {
  const n = sides.right.source === "current" ? sides.right.batch : sides.left.source === "current" ? sides.left.batch : sides.right.batch;
  return { left: clampSide({ source: "original", batch: n }, counts), right: clampSide({ source: "current", batch: n }, counts) };
}

/** How a side is named in options and column headers: "Batch 2" or "Original batch 2". */
export function sideLabel(side: Side): string {
  return side.source === "original" ? `Original batch ${side.batch}` : side.source === "other" ? `Other file batch ${side.batch}` : `Batch ${side.batch}`;
}

/** The rows to show, and how many fields differ. */
export function visibleRows(rows: readonly DiffRow[], changedOnly: boolean): { rows: readonly DiffRow[]; changed: number } {
  let changed = 0;
  for (const r of rows) if (!r.same) changed++;
  return { rows: changedOnly ? rows.filter((r) => !r.same) : rows, changed };
}

/** A diff cell as shown: checksums (which diffBatches gives as decimal u64s) as 0x and 16 hex digits, like the rest of the page. */
export function displayValue(field: string, text: string): string {
  if ((field === "checksum" || field === "batch_checksum") && /^\d+$/.test(text)) return `0x${hex64(BigInt(text))}`;
  return text;
}
