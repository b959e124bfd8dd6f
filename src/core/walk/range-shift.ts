/**
 * A range walked before its first batch's index in the whole input was known (a File read as several
 * streams at once, each from a guessed batch start), renumbered once it is: what walkRange gives for
 * the same range with that firstBatch.
 */
import type { Diagnostic } from "../../format/diagnostics.ts";
import type { RangeResult } from "./range-walk.ts";

/** The range's batches and findings with `by` added to every batch index (its firstBatch was 0, it is `by`). */
export function shiftRangeBatches(range: RangeResult, by: number): RangeResult {
  if (by === 0) return range;
  return {
    ...range,
    batches: range.batches.withIndexShift(by),
    diagnostics: range.diagnostics.map((d) => shiftDiagnostic(d, by)),
  };
}

// A finding of a batch walk names its batch first ("batch 3: …", "batch 3 frame 7: …", walk-checks.ts); a message
// that does not is kept as it is (the walk-comparison tests fail for one that names the batch elsewhere).
function shiftDiagnostic(d: Diagnostic, by: number): Diagnostic {
  if (d.batch === null) return d;
  const prefix = `batch ${d.batch}`;
  const next = d.message.charAt(prefix.length);
  const named = d.message.startsWith(prefix) && (next === ":" || next === " ");
  return { ...d, batch: d.batch + by, message: named ? `batch ${d.batch + by}${d.message.slice(prefix.length)}` : d.message };
}
