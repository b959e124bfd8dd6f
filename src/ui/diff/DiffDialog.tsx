/**
 * The batch diff (issue #4 §6): two batches side by side, field by field, frames paired by
 * position. Either side is any batch of the input as shown, or of the input as loaded before
 * edits, so "what did my edit / the server's stamping change" is the default or one click away.
 */
import { openInputWith } from "../../core/containers/index.ts";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { AbortedError, AnalysisClient } from "../../worker/client.ts";
import { analyzeWith } from "../../core/analyze.ts";
import { diffBatches, type BatchRef } from "../../core/diff.ts";
import type { Analysis } from "../../core/model.ts";
import { documentStore, type DocumentState } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { editStore, INLINE_RECHECK_LIMIT, type EditState } from "../session/editing.ts";
import { useXxh3 } from "../session/building.ts";
import { sourceOf } from "../session/input-source.ts";
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
import "../common/dialog.css";
import "./diff.css";
import { ByteDiffCell } from "./ByteDiffCell.tsx";
import { DiffPane } from "./DiffPane.tsx";
import { diffMarks } from "./diff-marks.ts";
import { selectRange } from "../state/actions.ts";
import { useReadBatches, type ReadBatch, type ReadState } from "./on-demand-batch.ts";
import { fileBytes, memoryBytes, type InputBytes } from "../../lib/input-bytes.ts";
import { onDemandFrom } from "../session/on-demand.ts";

/** Rows rendered at first (and added by each "Show more rows"): a batch of 1,000 frames has some 9,000, too many to render in one task. */
export const MAX_DIFF_ROWS = 300;
/** Above this many batches a side picks its batch with a number field instead of a long menu. */
const MAX_BATCH_OPTIONS = 1000;

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
  // Up to the size edits are re-checked inline, the original is analysed here on the page's thread; a larger one in a worker.
  const originalLarge = original !== null && original.length > INLINE_RECHECK_LIMIT;
  const inlineOriginal = useMemo<Analysis | null>(() => {
    if (!edited || !xxh || !original || originalLarge) return null;
    // The original is read as the same format as the input, so a container's bytes compare as its batches.
    return format && format !== "batches" ? openInputWith(xxh, original, { name: fileName, format }).analysis : analyzeWith(xxh, original, { startOffset });
  }, [edited, xxh, original, startOffset, originalLarge, format, fileName]);
  const [workerOriginal, setWorkerOriginal] = useState<{ of: Uint8Array; analysis: Analysis } | { of: Uint8Array; error: string } | null>(null);
  useEffect(() => {
    if (!edited || !original || !originalLarge) return;
    const client = new AnalysisClient();
    const controller = new AbortController();
    // The File the input was opened from, when there is one: the worker reads it, and no copy of the original is made.
    const from = sourceOf(original) ?? original;
    const opening =
      format && format !== "batches"
        ? client.open(from, controller.signal, { name: fileName, format })
        : client.analyze(from, controller.signal, undefined, startOffset);
    opening.then(
      (r) => setWorkerOriginal({ of: original, analysis: r.analysis }),
      (err: unknown) => {
        if (!(err instanceof AbortedError)) setWorkerOriginal({ of: original, error: (err as Error).message });
      },
    );
    return () => {
      controller.abort();
      client.terminate();
    };
  }, [edited, original, originalLarge, startOffset, format, fileName]);
  const workerResult = workerOriginal && workerOriginal.of === original ? workerOriginal : null;
  const originalAnalysis = originalLarge ? (workerResult && "analysis" in workerResult ? workerResult.analysis : null) : inlineOriginal;
  const originalFailed = originalLarge && workerResult !== null && "error" in workerResult ? workerResult.error : null;
  // A second file to compare with, decoded in a worker of its own (any size, the page stays responsive); it lives while the dialog is open.
  // The other file: in memory, or (as large as an input read on demand) read a compared batch at a time from its File.
  const [other, setOther] = useState<{ name: string; bytes: Uint8Array | null; source: InputBytes; analysis: Analysis } | null>(null);
  const [otherNote, setOtherNote] = useState<string | null>(null);
  const otherClient = useRef<{ client: AnalysisClient; controller: AbortController } | null>(null);
  useEffect(
    () => () => {
      otherClient.current?.controller.abort();
      otherClient.current?.client.terminate();
    },
    [],
  );
  const openOther = async (file: File | undefined) => {
    if (!file) return;
    otherClient.current?.controller.abort();
    const job = { client: otherClient.current?.client ?? new AnalysisClient(), controller: new AbortController() };
    otherClient.current = job;
    let shownPercent = -1;
    const progress = (done: number, total: number) => {
      const percent = total > 0 ? Math.floor((100 * done) / total) : 0;
      if (percent === shownPercent) return;
      shownPercent = percent;
      setOtherNote(`Decoding ${file.name}: ${percent}%…`);
    };
    progress(0, file.size);
    try {
      const onDemandOther = startOffset === 0 && file.size >= onDemandFrom();
      const r = onDemandOther
        ? await job.client.open(file, job.controller.signal, { name: file.name, format: "batches", onDemand: true, onProgress: progress })
        : await job.client.analyze(file, job.controller.signal, progress, startOffset);
      if (otherClient.current !== job) return;
      setOther({ name: file.name, bytes: r.bytes, source: r.bytes ? memoryBytes(r.bytes) : fileBytes(file), analysis: r.analysis });
      setOtherNote(null);
      setChosen({ left: { source: "current", batch: 0 }, right: { source: "other", batch: 0 } });
    } catch (err) {
      if (err instanceof AbortedError || otherClient.current !== job) return;
      setOtherNote(`Could not read ${file.name}: ${(err as Error).message}`);
    }
  };
  const counts: SourceCounts = {
    current: input?.analysis.batches.length ?? 0,
    original: originalAnalysis ? originalAnalysis.batches.length : null,
    other: other ? other.analysis.batches.length : null,
  };
  // The default needs the original's analysis when the input is edited; until the kernel is loaded it stays unset.
  const [chosen, setChosen] = useState<Sides | null>(null);

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
      const b = ref.analysis.batches[ref.batch];
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
                          ? (other?.analysis.batches[sides[which].batch]?.start ?? 0)
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

/** One side's pickers: the source (only once the input is edited) and the batch. */
function SidePicker({
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
