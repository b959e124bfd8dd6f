/**
 * The Frames panel: the complete frames of the shown batch, or of every batch with
 * "All batches". Cells read the typed-array columns (and the bytes, for ids and previews)
 * of visible rows only; sorting sorts frame indexes (see index-table.ts).
 */
import { TableToggle } from "../common/TableToggle.tsx";
import { useCallback, useId, useMemo, useState } from "react";
import type { Analysis, FrameColumns } from "../../core/model.ts";
import { selectFrame } from "../state/actions.ts";
import type { LoadedInput } from "../state/app-state.ts";
import { checksumVerdict, formatCount, frameTone, idCell, previewText, timeText, timeWithRaw } from "../common/cell-text.ts";
import { frameSortKey, isProblemFrame, messageIdOf, messageOffsetOf, payloadOf, producerTimeOf, type FrameColumnId } from "./frame-rows.ts";
import { HEAVY_ORDER_ROWS, useIndexTable, useRowOrder, type IndexColumn } from "./index-table.ts";
import { buildOrder } from "./row-order.ts";
import { frameOfSelection, useFollowedBatch } from "../common/selection-hooks.ts";
import { VirtualTable } from "./VirtualTable.tsx";
import { frameAt } from "../../core/frame-view.ts";
import type { ViewWindow } from "../state/view-window.ts";
import "./tables.css";
import { computedChecksumOf, frameBatch, frameEnd, frameIndexInBatch, frameStoredChecksum, frameTimestampDelta } from "../../core/frame-columns.ts";

const DASH = "—";

const checksumOf = (f: FrameColumns, bytes: Uint8Array, i: number): ReturnType<typeof checksumVerdict> => {
  const stored = frameStoredChecksum(f, bytes, i);
  return checksumVerdict(stored, computedChecksumOf(f, i, stored));
};

function frameColumns(analysis: Analysis, bytes: Uint8Array): IndexColumn[] {
  const f = analysis.frames;
  const col = (id: FrameColumnId, rest: Omit<IndexColumn, "id">): IndexColumn => ({ id, ...rest });
  return [
    col("batch", { header: "Batch", width: 4.5, numeric: true, cell: (i) => frameBatch(analysis.batches, i) }),
    col("index", {
      header: "#",
      width: 4,
      numeric: true,
      cell: (i) => frameIndexInBatch(analysis.batches, i),
      title: (i) => `frame ${frameIndexInBatch(analysis.batches, i)} of batch ${frameBatch(analysis.batches, i)}`,
    }),
    col("offset", {
      header: "Offset",
      width: 6.5,
      numeric: true,
      cell: (i) => messageOffsetOf(analysis, i)?.toString() ?? DASH,
      title: (i) => `base_offset + offset_delta ${f.offsetDelta[i]}`,
    }),
    col("id", {
      header: "Id",
      width: 19,
      grow: 1,
      cell: (i) => {
        const id = idCell(messageIdOf(analysis, bytes, i));
        return (
          <>
            <span className="tbl-mono">{id.uuid}</span> <span className="tbl-tag">{id.tag}</span>
          </>
        );
      },
      title: (i) => idCell(messageIdOf(analysis, bytes, i)).title,
    }),
    col("time", {
      header: "Producer time",
      width: 15.5,
      cell: (i) => {
        const t = producerTimeOf(analysis, bytes, i);
        return t === null ? DASH : timeText(t);
      },
      title: (i) => {
        const t = producerTimeOf(analysis, bytes, i);
        return t === null ? undefined : `origin_timestamp + ${frameTimestampDelta(f, bytes, i)} µs = ${timeWithRaw(t)}`;
      },
    }),
    col("payload", {
      header: "Payload",
      width: 6,
      numeric: true,
      cell: (i) => formatCount(f.payloadLength[i] as number),
      title: () => "payload_length in bytes",
    }),
    col("userHeaders", {
      header: "Headers",
      width: 6,
      numeric: true,
      cell: (i) => formatCount(f.userHeadersLength[i] as number),
      title: () => "user_headers_length in bytes",
    }),
    col("checksum", {
      header: "Checksum",
      width: 10,
      cell: (i) => {
        const v = checksumOf(f, bytes, i);
        return (
          <span className="tbl-badge" data-tone={v.ok ? "ok" : "error"}>
            {v.text}
          </span>
        );
      },
      title: (i) => checksumOf(f, bytes, i).title,
    }),
    // Rendered as React text, so any payload is inert.
    col("preview", { header: "Preview", width: 12, grow: 2, cell: (i) => <span className="tbl-preview">{previewText(payloadOf(analysis, bytes, i))}</span> }),
  ];
}

/** The Frames panel for a loaded input. */
export function FramesTable({ input }: { input: LoadedInput }) {
  const { analysis, bytes } = input;
  const headingId = useId();
  const [problemsOnly, setProblemsOnly] = useState(false);
  const [allBatches, setAllBatches] = useState(false);
  // Follows the hex map into another batch as it scrolls, not only the selection.
  const shownBatch = useFollowedBatch(input);
  const batch = analysis.batches[shownBatch];
  const columns = useMemo(() => frameColumns(analysis, bytes), [analysis, bytes]);
  const visibility = useMemo(() => ({ batch: allBatches }), [allBatches]);
  const { table, sorting } = useIndexTable(columns, visibility);
  const sort = sorting[0];

  const first = allBatches ? 0 : (batch?.firstFrame ?? 0);
  const count = allBatches ? analysis.frames.count : (batch?.frameCount ?? 0);
  const { order, busy } = useRowOrder(
    () =>
      buildOrder(
        first,
        count,
        problemsOnly ? (i) => isProblemFrame(analysis, i) : null,
        sort ? { key: frameSortKey(sort.id as FrameColumnId, analysis, bytes), desc: sort.desc } : null,
      ),
    count > HEAVY_ORDER_ROWS && (problemsOnly || sort !== undefined),
    analysis,
    [analysis, bytes, first, count, problemsOnly, sort?.id, sort?.desc],
  );

  const rangeOf = useCallback((i: number) => ({ start: analysis.frames.start[i] as number, end: frameEnd(analysis.frames, i) }), [analysis]);
  const onActivate = useCallback((i: number) => selectFrame(i, "table"), []);
  const rowTone = useCallback((i: number) => frameTone(analysis.frames.flags[i] as number), [analysis]);
  const inView = useCallback((w: ViewWindow | null) => (w && w.size === analysis.size ? frameAt(analysis, Math.floor((w.start + w.end) / 2)) : -1), [analysis]);

  const scope = allBatches ? `all ${formatCount(analysis.batches.length)} batches` : `batch ${shownBatch}`;
  const shown =
    order.length === count ? `${formatCount(count)} frame${count === 1 ? "" : "s"}` : `${formatCount(order.length)} of ${formatCount(count)} frames`;
  const empty =
    count === 0 ? (allBatches ? "No batch holds a complete frame." : `Batch ${shownBatch} holds no complete frame.`) : "No frame has an error or a warning.";

  return (
    <section className="panel tbl-panel" aria-labelledby={headingId}>
      <div className="tbl-bar">
        <h2 id={headingId} className="tbl-title">
          Frames
        </h2>
        <span className="tbl-count">
          {shown} · {scope}
        </span>
        <TableToggle label="All batches" checked={allBatches} onChange={setAllBatches} />
        <TableToggle label="Problems only" checked={problemsOnly} onChange={setProblemsOnly} />
      </div>
      <VirtualTable
        label="Frames"
        table={table}
        columns={columns}
        order={order}
        busy={busy}
        selectedOf={frameOfSelection}
        rangeOf={rangeOf}
        onActivate={onActivate}
        rowTone={rowTone}
        followedOf={inView}
        emptyText={empty}
      />
    </section>
  );
}
