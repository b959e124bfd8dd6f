/**
 * The batch diff (issue #4 §6): two batches side by side, field by field, frames paired by
 * position. Either side is any batch of the input as shown, or of the input as loaded before
 * edits, so "what did my edit / the server's stamping change" is the default or one click away.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { diffBatches, type BatchRef } from "../../core/view/diff.ts";
import { documentStore, type DocumentState } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { editStore, type EditState } from "../session/editing.ts";
import { useXxh3 } from "../session/building.ts";
import { useModal } from "../common/use-modal.ts";
import {
  clampSide,
  defaultSides,
  displayValue,
  originalVsCurrent,
  sideLabel,
  visibleRows,
  type Side,
  type Sides,
  type SourceCounts,
  type SourceId,
} from "./diff-sources.ts";
import { ByteDiffCell } from "./ByteDiffCell.tsx";
import { DiffPane } from "./DiffPane.tsx";
import { SidePicker } from "./SidePicker.tsx";
import { useOriginalAnalysis, useOtherFile } from "./use-compare-inputs.ts";
import { diffMarks } from "./diff-marks.ts";
import { selectRange } from "../state/actions.ts";
import { useReadBatches, type ReadBatch, type ReadState } from "./on-demand-batch.ts";

/** Rows rendered at first (and added by each "Show more rows"): a batch of 1,000 frames has some 9,000, too many to render in one task. */
export const MAX_DIFF_ROWS = 300;

const selectInput = (s: DocumentState) => s.input;
const selectOriginal = (s: EditState) => s.original;

/** The diff as a modal dialog. */
export function DiffDialog({ onClose }: { onClose: () => void }) {
  const modal = useModal(onClose);
  const ids = useId();
  const input = useStore(documentStore, selectInput);
  const original = useStore(editStore, selectOriginal);
  const xxh = useXxh3();
  const edited = input !== null && original !== null && original !== input.bytes;
  const startOffset = input?.startOffset ?? 0;
  const format = input?.meta?.format;
  const fileName = input?.fileName ?? input?.name;
  // The default needs the original's analysis when the input is edited; until the kernel is loaded it stays unset.
  const [chosen, setChosen] = useState<Sides | null>(null);
  const { originalAnalysis, originalFailed } = useOriginalAnalysis(xxh, edited ? original : null, startOffset, format, fileName);
  const { other, otherNote, openOther } = useOtherFile(startOffset, () =>
    setChosen({ left: { source: "current", batch: 0 }, right: { source: "other", batch: 0 } }),
  );
  const counts: SourceCounts = {
    current: input?.analysis.batches.length ?? 0,
    original: originalAnalysis ? originalAnalysis.batches.length : null,
    other: other ? other.analysis.batches.length : null,
  };

  const [changedOnly, setChangedOnly] = useState(false);
  const ready = input !== null && (!edited || originalAnalysis !== null || originalFailed !== null);
  const sides: Sides | null = ready
    ? (() => {
        const s = chosen ?? defaultSides(counts);
        return { left: clampSide(s.left, counts), right: clampSide(s.right, counts) };
      })()
    : null;

  const l = sides?.left,
    r = sides?.right;
  const rightSide = r;
  // An input read on demand: each compared batch of it is read alone from its File (never the whole input).
  const onDemand = input && !input.bytes ? input.source : null;
  const wanted = [l, r].flatMap((side) => (side && side.source === "current" ? [side.batch] : []));
  const read = useReadBatches(xxh, onDemand, input?.analysis ?? null, wanted);
  const readOf = (batch: number): ReadState | undefined => (onDemand ? (read.get(batch) ?? null) : undefined);
  const readBatchOf = (batch: number | undefined): ReadBatch | null => {
    const got = batch === undefined ? undefined : readOf(batch);
    return got && "ref" in got ? got : null;
  };
  const otherOnDemand = other && !other.bytes ? other.source : null;
  const wantedOther = [l, r].flatMap((side) => (side && side.source === "other" ? [side.batch] : []));
  const readOther = useReadBatches(xxh, otherOnDemand, other?.analysis ?? null, wantedOther);
  const readOtherOf = (batch: number): ReadState | undefined => (otherOnDemand ? (readOther.get(batch) ?? null) : undefined);
  const unread = [
    ...(onDemand ? wanted.map((b) => ({ batch: b, state: readOf(b), what: "the file" })) : []),
    ...(otherOnDemand ? wantedOther.map((b) => ({ batch: b, state: readOtherOf(b), what: other?.name ?? "the other file" })) : []),
  ].find((w) => w.state === null || (w.state !== undefined && "error" in w.state));
  // The dialog opens (showModal, its controls) in one task and diffs in the next, so neither is long on batches of 1,000 frames.
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setOpened(true), 0);
    return () => clearTimeout(timer);
  }, []);
  const { rows, refs } = useMemo(() => {
    if (!opened) return { rows: [], refs: null };
    const refOf = (source: SourceId | undefined, batch: number | undefined): BatchRef | null => {
      if (!input || source === undefined || batch === undefined) return null;
      if (source === "original") return original && originalAnalysis ? { bytes: original, analysis: originalAnalysis, batch } : null;
      if (source === "other") {
        if (!other) return null;
        if (other.bytes) return { bytes: other.bytes, analysis: other.analysis, batch };
        const got = readOtherOf(batch);
        return got && "ref" in got ? got.ref : null;
      }
      if (!input.bytes) return readBatchOf(batch)?.ref ?? null;
      return { bytes: input.bytes, analysis: input.analysis, batch };
    };
    const left = refOf(l?.source, l?.batch);
    const right = refOf(r?.source, r?.batch);
    return left && right ? { rows: diffBatches(left, right), refs: { left, right } } : { rows: [], refs: null };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- readBatchOf reads `read`
  }, [opened, input, original, originalAnalysis, other, read, readOther, l?.source, l?.batch, r?.source, r?.batch]);
  const shown = visibleRows(rows, changedOnly);
  // Other sides or another filter start again at the first rows.
  const rowsKey = `${l?.source}:${l?.batch}:${r?.source}:${r?.batch}:${changedOnly}`;
  const [rowLimit, setRowLimit] = useState({ key: rowsKey, rows: MAX_DIFF_ROWS });
  if (rowLimit.key !== rowsKey) setRowLimit({ key: rowsKey, rows: MAX_DIFF_ROWS });
  const limit = rowLimit.key === rowsKey ? rowLimit.rows : MAX_DIFF_ROWS;
  // Each side's compared batch and its differing bytes, for the two hex panes.
  const panes = useMemo(() => {
    if (!refs) return null;
    const pane = (which: "left" | "right") => {
      const ref = refs[which];
      const b = ref.analysis.batches.at(ref.batch);
      return b ? { ref, start: b.start, end: b.end, marks: diffMarks(rows, which, b.start, b.end) } : null;
    };
    const left = pane("left"),
      right = pane("right");
    return left && right ? { left, right } : null;
  }, [refs, rows]);
  const truncated = shown.rows.length > limit;
  const sameSide = sides !== null && sides.left.source === sides.right.source && sides.left.batch === sides.right.batch;

  const set = (which: "left" | "right", side: Side) => {
    if (sides) setChosen({ ...sides, [which]: side });
  };
  // Where a side's bytes sit in the shown input (a view into its bytes), so a difference can be selected there; -1 for another source.
  const shownAt = (part: Uint8Array, source: SourceId | undefined): number => {
    if (!input || source !== "current") return -1;
    if (input.bytes) return part.buffer === input.bytes.buffer ? part.byteOffset - input.bytes.byteOffset : -1;
    for (const batch of wanted) {
      const got = readBatchOf(batch);
      if (got && part.buffer === got.ref.bytes.buffer) return got.base + part.byteOffset - got.ref.bytes.byteOffset;
    }
    return -1;
  };
  const showDifference = (part: Uint8Array, source: SourceId | undefined, start: number, end: number) => {
    const at = shownAt(part, source);
    if (at < 0) return;
    selectRange(at + start, at + end, "diagnostic");
    onClose();
  };

  return (
    <dialog {...modal} className="builder-dialog diff-dialog" aria-labelledby={`${ids}-title`}>
      <div className="dialog-head">
        <h2 id={`${ids}-title`}>Compare batches</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="dialog-body">
        {!input ? (
          <p className="note">Load an input first: the diff compares its batches.</p>
        ) : !sides ? (
          <p className="note">Analysing the original input…</p>
        ) : (
          <>
            <div className="diff-controls">
              <SidePicker name="Left" side={sides.left} counts={counts} onChange={(s) => set("left", s)} ids={ids} />
              <SidePicker name="Right" side={sides.right} counts={counts} onChange={(s) => set("right", s)} ids={ids} />
              <div className="diff-actions">
                <button type="button" onClick={() => setChosen({ left: sides.right, right: sides.left })}>
                  Swap sides
                </button>
                <button
                  type="button"
                  disabled={counts.original === null}
                  onClick={() => setChosen(originalVsCurrent(sides, counts))}
                  title={counts.original === null ? "The input has not been edited" : undefined}
                >
                  Original vs current
                </button>
                <label className="changed-only">
                  <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} /> Changed only
                </label>
                <label className="diff-other">
                  Compare with a file <input type="file" onChange={(e) => void openOther(e.target.files?.[0])} />
                </label>
              </div>
            </div>
            {(other || otherNote) && (
              <p className="note" data-testid="diff-other">
                {otherNote ?? `Other file: ${other!.name}, ${other!.source.size.toLocaleString("en-US")} bytes, ${other!.analysis.batches.length} batches.`}
              </p>
            )}
            <p className="note">
              {originalFailed !== null && edited
                ? `The original input could not be analysed again (${originalFailed}); compare batches of the current input.`
                : counts.original === null
                  ? "The input is unedited. After an edit (Edit panel: bytes, recompute, stamp as server) the original input can be picked on either side."
                  : "The input has been edited: “Original” is the input as loaded, before any edit."}
            </p>
            <p className="diff-summary" role="status" data-testid="diff-summary">
              {sameSide ? "Both sides are the same batch. " : ""}
              {!opened
                ? "Comparing…"
                : unread
                  ? unread.state && "error" in unread.state
                    ? `Could not read batch ${unread.batch} from ${unread.what}: ${unread.state.error}`
                    : `Reading batch ${unread.batch} from ${unread.what}…`
                  : rows.length === 0
                    ? "Nothing to compare: the input has no batch header to read."
                    : shown.changed === 0
                      ? `No differences in ${rows.length} compared fields.`
                      : `${shown.changed} of ${rows.length} compared fields differ.`}
            </p>
            {panes && (
              <div className="diff-panes">
                {(["left", "right"] as const).map((which) => (
                  <DiffPane
                    key={which}
                    name={which === "left" ? "Left" : "Right"}
                    title={sideLabel(sides[which])}
                    bytes={panes[which].ref.bytes}
                    analysis={panes[which].ref.analysis}
                    start={panes[which].start}
                    end={panes[which].end}
                    marks={panes[which].marks}
                    base={
                      sides[which].source === "current"
                        ? (readBatchOf(sides[which].batch)?.base ?? 0)
                        : sides[which].source === "other" && otherOnDemand
                          ? (other?.analysis.batches.at(sides[which].batch)?.start ?? 0)
                          : 0
                    }
                  />
                ))}
              </div>
            )}
            <div className="diff-scroll" tabIndex={0} role="region" aria-label="Batch diff rows">
              <table className="diff-table" aria-label="Batch diff">
                <thead>
                  <tr>
                    <th scope="col" className="diff-mark">
                      <span aria-hidden="true">≠</span>
                      <span className="visually-hidden">Changed</span>
                    </th>
                    <th scope="col">Scope</th>
                    <th scope="col">Field</th>
                    <th scope="col">
                      Left <span className="side-name">({sideLabel(sides.left)})</span>
                    </th>
                    <th scope="col">
                      Right <span className="side-name">({sideLabel(sides.right)})</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.rows.slice(0, limit).map((r, i) => (
                    <tr key={`${r.scope}.${r.field}.${i}`} className={r.same ? undefined : "changed"}>
                      <td className="diff-mark">
                        {r.same ? (
                          ""
                        ) : (
                          <>
                            <span aria-hidden="true">≠</span>
                            <span className="visually-hidden">changed</span>
                          </>
                        )}
                      </td>
                      <td>{r.scope}</td>
                      <td>
                        {r.field}
                        {r.bytes && !r.same ? (
                          <span className="diff-note" data-testid="byte-diff-note">
                            {r.bytes.note}
                          </span>
                        ) : null}
                        {r.bytes &&
                        !r.same &&
                        r.bytes.diff.runs[0] &&
                        (shownAt(r.bytes.left, l?.source) >= 0 || shownAt(r.bytes.right, rightSide?.source) >= 0) ? (
                          <button
                            type="button"
                            className="diff-show"
                            onClick={() => {
                              const run = r.bytes!.diff.runs[0]!;
                              if (shownAt(r.bytes!.left, l?.source) >= 0) showDifference(r.bytes!.left, l?.source, run.start, run.end);
                              else showDifference(r.bytes!.right, rightSide?.source, run.start, run.end);
                            }}
                          >
                            Show in hex map
                          </button>
                        ) : null}
                      </td>
                      <td className="diff-value">
                        {displayValue(r.field, r.left)}
                        {r.bytes && !r.same ? <ByteDiffCell bytes={r.bytes.left} diff={r.bytes.diff} /> : null}
                      </td>
                      <td className="diff-value">
                        {displayValue(r.field, r.right)}
                        {r.bytes && !r.same ? <ByteDiffCell bytes={r.bytes.right} diff={r.bytes.diff} /> : null}
                      </td>
                    </tr>
                  ))}
                  {shown.rows.length === 0 && (
                    <tr>
                      <td colSpan={5} className="note">
                        {!opened ? "Comparing…" : changedOnly ? "No field differs." : "Nothing to compare."}
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            {truncated && (
              <p className="note">
                Showing the first {limit.toLocaleString("en-US")} of {shown.rows.length.toLocaleString("en-US")} rows
                {changedOnly ? "" : "; tick Changed only to see just the differences"}.{" "}
                <button type="button" onClick={() => setRowLimit({ key: rowsKey, rows: limit + MAX_DIFF_ROWS })}>
                  Show more rows
                </button>
              </p>
            )}
          </>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
