/** One side's pickers in Compare batches: the source (once there is more than one) and the batch. */
import { clampSide, type Side, type SourceCounts, type SourceId } from "./diff-sources.ts";

/** Above this many batches a side picks its batch with a number field instead of a long menu. */
const MAX_BATCH_OPTIONS = 1000;

/** One side's pickers: the source (only once the input is edited) and the batch. */
export function SidePicker({
  name,
  side,
  counts,
  onChange,
  ids,
}: {
  name: "Left" | "Right";
  side: Side;
  counts: SourceCounts;
  onChange: (s: Side) => void;
  ids: string;
}) {
  const id = `${ids}-${name.toLowerCase()}`;
  const n = side.source === "original" ? (counts.original ?? 0) : side.source === "other" ? (counts.other ?? 0) : counts.current;
  const prefix = side.source === "original" ? "Original batch" : side.source === "other" ? "Other file batch" : "Batch";
  return (
    <fieldset className="diff-side">
      <legend>{name}</legend>
      {(counts.original !== null || counts.other != null) && (
        <div className="batch-field">
          <label htmlFor={`${id}-source`}>{name} input</label>
          <select
            id={`${id}-source`}
            value={side.source}
            onChange={(e) => onChange(clampSide({ source: e.target.value as SourceId, batch: side.batch }, counts))}
          >
            <option value="current">Current (as shown)</option>
            {counts.original !== null && <option value="original">Original (before edits)</option>}
            {counts.other != null && <option value="other">Other file</option>}
          </select>
        </div>
      )}
      <div className="batch-field">
        <label htmlFor={`${id}-batch`}>{name} batch</label>
        {n <= MAX_BATCH_OPTIONS ? (
          <select id={`${id}-batch`} value={side.batch} onChange={(e) => onChange({ ...side, batch: Number(e.target.value) })}>
            {Array.from({ length: n }, (_, i) => (
              <option key={i} value={i}>
                {prefix} {i}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={`${id}-batch`}
            type="number"
            min={0}
            max={n - 1}
            step={1}
            value={side.batch}
            onChange={(e) => {
              const v = Math.trunc(Number(e.target.value));
              if (Number.isFinite(v)) onChange(clampSide({ ...side, batch: v }, counts));
            }}
          />
        )}
      </div>
    </fieldset>
  );
}
