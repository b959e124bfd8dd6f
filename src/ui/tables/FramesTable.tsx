/**
 * The Frames panel: the complete frames of the shown batch, or of every batch with
 * "All batches". Cells read the typed-array columns (and the bytes, for ids and previews)
 * of visible rows only: on demand each visible row reads its frame header and payload head from the
 * file, showing "··" until they land; sorting sorts frame indexes (see index-table.ts).
 */
import { TableToggle } from "../common/TableToggle.tsx";
import { useCallback, useId, useMemo, useState } from "react";
import type { Analysis, FrameColumns } from "../../core/model/model.ts";
import { selectFrame } from "../state/actions.ts";
import type { LoadedInput } from "../state/app-state.ts";
import { checksumVerdict, formatCount, frameTone, idCell, previewText, timeText, timeWithRaw } from "../common/cell-text.ts";
import {
  BYTE_SORT_READ_BYTES,
  BYTE_SORTED_COLUMNS,
  frameSortKey,
  isProblemFrame,
  messageIdOf,
  messageOffsetOf,
  payloadOf,
  producerTimeOf,
  type FrameColumnId,
} from "./frame-rows.ts";
import { HEAVY_ORDER_ROWS, useIndexTable, useRowOrder, type IndexColumn } from "./index-table.ts";
import { buildOrder } from "./row-order.ts";
import { frameOfSelection, useFollowedBatch } from "../common/selection-hooks.ts";
import { VirtualTable } from "./VirtualTable.tsx";
import { frameAt, storedChecksumIn, timestampDeltaIn } from "../../core/view/frame-view.ts";
import { wholeWindow, type ByteWindow } from "../../lib/input-bytes.ts";
import { useByteWindow, useRowReader } from "../common/use-byte-window.ts";
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import type { ViewWindow } from "../state/view-window.ts";
import "./tables.css";
import { computedChecksumOf, frameBatch, frameEnd, frameIndexInBatch, frameOffsetDelta, frameUserHeadersLength } from "../../core/model/frame-columns.ts";

const DASH = "—";
// Only the columns of BYTE_SORTED_COLUMNS read the bytes, and those sort only in memory.
const EMPTY_WINDOW = wholeWindow(new Uint8Array(0));

/** Payload bytes a row reads for its preview: previewText's 164 and one more, so a longer payload still reads as cut. */
const PREVIEW_BYTES = 165;

/** Marks a cell whose bytes are being read from the file. */
const PENDING = (
  <span className="tbl-pending" aria-busy="true" title="reading from the file…">
    ··
  </span>
);

/** The window a row reads: its frame header and the head of its payload, or null until read. */
type RowWindow = (i: number) => ByteWindow | null;

const checksumOf = (f: FrameColumns, w: ByteWindow, i: number): ReturnType<typeof checksumVerdict> | null => {
  const stored = storedChecksumIn(w, f.start[i] as number);
  return stored === null ? null : checksumVerdict(stored, computedChecksumOf(f, i, stored));
};

function frameColumns(analysis: Analysis, rowWindow: RowWindow, byteSortable: boolean): IndexColumn[] {
  const f = analysis.frames;
  const col = (id: FrameColumnId, rest: Omit<IndexColumn, "id">): IndexColumn => ({
    id,
    ...rest,
    // On demand, sorting by bytes reads the frames sorted: one batch's, never the whole file's.
    ...(!byteSortable && BYTE_SORTED_COLUMNS.has(id) ? { sortable: false } : {}),
  });
  const inWindow = <T,>(i: number, read: (w: ByteWindow) => T | null): T | null => {
    const w = rowWindow(i);
    return w ? read(w) : null;
  };
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
      title: (i) => `base_offset + offset_delta ${frameOffsetDelta(f, i)}`,
    }),
    col("id", {
      header: "Id",
      width: 19,
      grow: 1,
      cell: (i) => {
        const got = inWindow(i, (w) => messageIdOf(analysis, w, i));
        if (!got) return PENDING;
        const id = idCell(got);
        return (
          <>
            <span className="tbl-mono">{id.uuid}</span> <span className="tbl-tag">{id.tag}</span>
          </>
        );
      },
      title: (i) => {
        const got = inWindow(i, (w) => messageIdOf(analysis, w, i));
        return got ? idCell(got).title : undefined;
      },
    }),
    col("time", {
      header: "Producer time",
      width: 15.5,
      cell: (i) => {
        const w = rowWindow(i);
        if (!w) return PENDING;
        const t = producerTimeOf(analysis, w, i);
        return t === null ? DASH : timeText(t);
      },
      title: (i) => {
        const w = rowWindow(i);
        const t = w ? producerTimeOf(analysis, w, i) : null;
        return w && t !== null ? `origin_timestamp + ${timestampDeltaIn(w, f.start[i] as number)} µs = ${timeWithRaw(t)}` : undefined;
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
      cell: (i) => formatCount(frameUserHeadersLength(f, i)),
      title: () => "user_headers_length in bytes",
    }),
    col("checksum", {
      header: "Checksum",
      width: 10,
      cell: (i) => {
        const v = inWindow(i, (w) => checksumOf(f, w, i));
        if (!v) return PENDING;
        return (
          <span className="tbl-badge" data-tone={v.ok ? "ok" : "error"}>
            {v.text}
          </span>
        );
      },
      title: (i) => inWindow(i, (w) => checksumOf(f, w, i))?.title,
    }),
    // Rendered as React text, so any payload is inert.
    col("preview", {
      header: "Preview",
      width: 12,
      grow: 2,
      cell: (i) => {
        const w = rowWindow(i);
        return w ? <span className="tbl-preview">{previewText(payloadOf(analysis, w, i))}</span> : PENDING;
      },
    }),
  ];
}

/** The Frames panel for a loaded input. */
export function FramesTable({ input }: { input: LoadedInput }) {
  const { analysis, bytes } = input;
  const headingId = useId();
  const [problemsOnly, setProblemsOnly] = useState(false);
  const [allBatches, setAllBatches] = useState(false);
  // In memory every row reads the whole input; on demand each visible row reads its header and payload head.
  const reader = useRowReader(input.source);
  const { read, version } = reader;
  const rowWindow = useMemo((): RowWindow => {
    if (bytes) {
      const whole = wholeWindow(bytes);
      return () => whole;
    }
    const f = analysis.frames;
    return (i) => {
      const start = f.start[i] as number;
      return read(start, start + FRAME_HEADER_SIZE + Math.min(f.payloadLength[i] as number, PREVIEW_BYTES));
    };
  }, [analysis, bytes, read]);
  // Follows the hex map into another batch as it scrolls, not only the selection.
  const shownBatch = useFollowedBatch(input);
  const batch = analysis.batches.at(shownBatch);
  const first = allBatches ? 0 : (batch?.firstFrame ?? 0);
  const count = allBatches ? analysis.frames.count : (batch?.frameCount ?? 0);
  const span = count > 0 ? { start: analysis.frames.start[first] as number, end: frameEnd(analysis.frames, first + count - 1) } : { start: 0, end: 0 };
  const byteSortable = bytes !== null || (!allBatches && span.end - span.start <= BYTE_SORT_READ_BYTES);
  // `version` changes as rows' windows land: new cells, so the visible rows render again.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version stands for the windows rowWindow reads
  const columns = useMemo(() => frameColumns(analysis, rowWindow, byteSortable), [analysis, rowWindow, byteSortable, version]);
  const visibility = useMemo(() => ({ batch: allBatches }), [allBatches]);
  const { table, sorting } = useIndexTable(columns, visibility);
  const byteSort = sorting[0] !== undefined && BYTE_SORTED_COLUMNS.has(sorting[0].id as FrameColumnId);
  // A byte column sorted where its header offers no sort (all batches of a file on demand) is not sorted by.
  const sort = sorting[0] && (byteSortable || !byteSort) ? sorting[0] : undefined;
  // On demand, a byte sort reads the frames it sorts: the shown batch's, once per batch.
  const spanRead = useByteWindow(input.source, bytes === null && sort && byteSort ? span.start : 0, bytes === null && sort && byteSort ? span.end : 0);
  // One object per input: the order's deps compare it, and a fresh one each render would sort again each render.
  const sortBytes = useMemo(() => (bytes ? wholeWindow(bytes) : spanRead.window), [bytes, spanRead.window]);
  const waitingForBytes = sort !== undefined && byteSort && sortBytes === null;
  const { order, busy } = useRowOrder(
    () =>
      buildOrder(
        first,
        count,
        problemsOnly ? (i) => isProblemFrame(analysis, i) : null,
        sort && !waitingForBytes ? { key: frameSortKey(sort.id as FrameColumnId, analysis, sortBytes ?? EMPTY_WINDOW), desc: sort.desc } : null,
      ),
    count > HEAVY_ORDER_ROWS && (problemsOnly || sort !== undefined),
    analysis,
    [analysis, bytes, first, count, problemsOnly, sort?.id, sort?.desc, sortBytes, waitingForBytes],
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
      {reader.error || spanRead.error ? (
        <p className="tbl-error" role="alert">
          {reader.error ?? spanRead.error}
        </p>
      ) : null}
      <VirtualTable
        label="Frames"
        table={table}
        columns={columns}
        order={order}
        busy={busy || waitingForBytes}
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
