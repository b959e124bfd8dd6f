/**
 * The Batch header panel: the shown batch's eight header fields (from BATCH_HEADER_FIELDS)
 * and a few derived rows. A dozen rows: TanStack's own row model sorts them, no virtualizer.
 */
import { useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from "react";
import { createColumnHelper, flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import { useStore } from "../state/store.ts";
import { hoverRange, selectRange } from "../state/actions.ts";
import { hoverStore, selectionStore, type LoadedInput } from "../state/app-state.ts";
import { KIND_STYLE, SWATCH_CLASS } from "../common/kind-style.ts";
import { hexOffset } from "../common/cell-text.ts";
import { batchHeaderRows, type HeaderFieldRow } from "./header-rows.ts";
import { gridTemplate } from "./index-table.ts";
import { nextActivePosition } from "./row-order.ts";
import { useShownBatch, wholeSelection } from "../common/selection-hooks.ts";
import { TableHead, clearHoverOnExit } from "./TableHead.tsx";
import { usePinnedColumns } from "./inline-overflow.ts";
import { EditFieldButton, FieldEditForm } from "../common/FieldEditForm.tsx";
import { applyFieldEditResident } from "../session/editing.ts";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";
import { useByteWindow } from "../common/use-byte-window.ts";
import "./tables.css";

const helper = createColumnHelper<HeaderFieldRow>();
const ROLE_LABEL: Record<HeaderFieldRow["role"], string> = {
  "server-stamped": "server-stamped",
  "producer-set": "producer-set",
  length: "length",
  checksum: "checksum",
  reserved: "reserved",
  derived: "derived",
};

const COLUMNS = [
  helper.accessor("name", {
    header: "Field",
    cell: (c) => {
      const kind = c.row.original.kind;
      return (
        <>
          {kind ? (
            <span className={`${SWATCH_CLASS} ${KIND_STYLE[kind].className}`} aria-hidden="true" />
          ) : (
            <span className="tbl-swatch-gap" aria-hidden="true" />
          )}
          <span className="tbl-mono">{c.getValue()}</span>
        </>
      );
    },
  }),
  helper.accessor((r) => r.relOffset ?? Number.MAX_SAFE_INTEGER, {
    id: "offset",
    header: "Offset",
    cell: (c) => (c.row.original.relOffset === null ? "—" : `+${c.row.original.relOffset}`),
  }),
  helper.accessor("start", { header: "Absolute", cell: (c) => hexOffset(c.getValue()) }),
  helper.accessor((r) => r.size ?? -1, { id: "size", header: "Size", cell: (c) => c.row.original.size ?? "—" }),
  helper.accessor("raw", {
    header: "Raw (hex)",
    cell: (c) => <span className={c.row.original.pending ? "tbl-mono tbl-pending" : "tbl-mono"}>{c.getValue()}</span>,
  }),
  helper.accessor("value", {
    header: "Value",
    cell: (c) => {
      const r = c.row.original;
      const spec = r.kind ? BATCH_HEADER_FIELDS.find((f) => f.kind === r.kind) : undefined;
      return (
        <>
          <span className={r.pending ? "tbl-value tbl-pending" : "tbl-value"} data-status={r.status ?? undefined} aria-busy={r.pending || undefined}>
            {c.getValue()}
          </span>
          {spec && r.relOffset !== null ? (
            <EditFieldButton
              target={{ spec, base: r.start - r.relOffset, where: "batch", label: `batch at 0x${(r.start - r.relOffset).toString(16)} ${spec.name}` }}
            />
          ) : null}
        </>
      );
    },
  }),
  helper.accessor((r) => ROLE_LABEL[r.role], {
    id: "role",
    header: "Role",
    cell: (c) => (
      <span className="tbl-tag" data-role={c.row.original.role}>
        {c.getValue()}
      </span>
    ),
  }),
];
const WIDTHS = [{ width: 11 }, { width: 5 }, { width: 7 }, { width: 4 }, { width: 14, grow: 2 }, { width: 16, grow: 3 }, { width: 8 }];
const NUMERIC = new Set(["offset", "start", "size"]);

// Rows re-render only when the hovered field changes (hover state lives outside React).
const hoverStartOf = (h: { start: number } | null): number => h?.start ?? -1;

/** The Batch header panel for the shown batch (the selected one, batch 0 by default). */
export function HeaderFieldsTable({ input }: { input: LoadedInput }) {
  const { analysis, bytes } = input;
  const headingId = useId();
  const shownBatch = useShownBatch(input);
  // On demand only the shown batch's 256 header bytes are read; in memory the whole input is the window.
  const headerStart = analysis.batches.at(shownBatch)?.start ?? 0;
  const read = useByteWindow(input.source, headerStart, bytes ? headerStart : headerStart + BATCH_HEADER_SIZE);
  const window = useMemo(() => (bytes ? wholeWindow(bytes) : null), [bytes]) ?? read.window;
  const rows = useMemo(() => batchHeaderRows(analysis, window, shownBatch), [analysis, window, shownBatch]);
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data: rows,
    columns: COLUMNS,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.id,
    enableMultiSort: false,
    sortDescFirst: false,
  });
  const shownRows = table.getRowModel().rows;
  const selection = useStore(selectionStore, wholeSelection);
  const hovered = useStore(hoverStore, hoverStartOf);
  const [active, setActive] = useState(0);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollEl, setScrollEl] = useState<HTMLDivElement | null>(null);
  usePinnedColumns(scrollEl);

  // A selection made elsewhere that is exactly a field's bytes brings that row into view.
  useEffect(() => {
    if (!selection || selection.origin === "table") return;
    const at = shownRows.findIndex((r) => r.original.start === selection.start && r.original.end === selection.end);
    if (at < 0) return;
    setActive(at);
    // Scrolls the table's own box only: scrollIntoView would also scroll the page to a table below the fold.
    const row = bodyRef.current?.querySelector<HTMLElement>(`[data-pos="${at}"]`);
    const box = row?.closest<HTMLElement>(".tbl-scroll");
    if (row && box) {
      const r = row.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      const head = box.querySelector("thead")?.getBoundingClientRect().height ?? 0;
      if (r.top < b.top + head) box.scrollTop -= b.top + head - r.top;
      else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
    }
  }, [selection, shownRows]);

  const focusAt = (pos: number): void => {
    setActive(pos);
    bodyRef.current?.querySelector<HTMLElement>(`[data-pos="${pos}"]`)?.focus();
  };
  const activate = (r: HeaderFieldRow): void => selectRange(r.start, Math.max(r.end, r.start + 1), "table");
  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>): void => {
    const row = (e.target as HTMLElement).closest<HTMLElement>("[data-pos]");
    if (!row) return;
    const pos = Number(row.dataset.pos);
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      const r = shownRows[pos];
      if (r) activate(r.original);
      return;
    }
    const next = nextActivePosition(e.key, pos, shownRows.length, 5);
    if (next === null) return;
    e.preventDefault();
    focusAt(next);
  };

  const grid = gridTemplate(WIDTHS);
  const batch = analysis.batches.at(shownBatch);
  const tabbable = Math.min(active, shownRows.length - 1);

  return (
    <section className="panel tbl-panel" aria-labelledby={headingId}>
      <div className="tbl-bar">
        <h2 id={headingId} className="tbl-title">
          Batch header
        </h2>
        <span className="tbl-count">
          {batch
            ? `batch ${shownBatch} at ${hexOffset(batch.start)}${batch.header ? (batch.stamped ? " · stamped" : " · producer") : " · incomplete header"}`
            : "no batch"}
        </span>
      </div>
      {read.error && !bytes ? (
        <p className="tbl-error" role="alert">
          {read.error}
        </p>
      ) : null}
      <div className="tbl-scroll" ref={setScrollEl}>
        <table
          role="grid"
          aria-label="Batch header"
          aria-rowcount={shownRows.length + 1}
          className="tbl"
          style={{ "--tbl-cols": grid.template, minWidth: `${grid.minWidth}rem` } as CSSProperties}
        >
          <TableHead table={table} numeric={NUMERIC} />
          <tbody
            role="rowgroup"
            ref={bodyRef}
            className="tbl-body tbl-body--static"
            onKeyDown={onKeyDown}
            onMouseLeave={() => hoverRange(null)}
            onBlur={clearHoverOnExit}
          >
            {shownRows.map((row, pos) => {
              const r = row.original;
              const selected = selection !== null && selection.start === r.start && selection.end === Math.max(r.end, r.start + 1);
              const isHovered = r.role !== "derived" && hovered >= r.start && hovered < r.end;
              return (
                <tr
                  role="row"
                  key={row.id}
                  data-pos={pos}
                  data-tone={r.status === "bad" ? "error" : undefined}
                  data-hovered={isHovered || undefined}
                  aria-rowindex={pos + 2}
                  aria-selected={selected}
                  tabIndex={pos === tabbable ? 0 : -1}
                  className={r.role === "derived" ? "tbl-row tbl-row--derived" : "tbl-row"}
                  title={r.description}
                  onClick={() => {
                    setActive(pos);
                    activate(r);
                  }}
                  onMouseEnter={() => hoverRange({ start: r.start, end: r.end })}
                  onFocus={() => {
                    setActive(pos);
                    hoverStore.set({ start: r.start, end: r.end });
                  }}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td role="gridcell" key={cell.id} className={NUMERIC.has(cell.column.id) ? "tbl-cell tbl-cell--num" : "tbl-cell"}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {shownRows.length === 0 ? <p className="tbl-empty">No batch to show.</p> : null}
      </div>
      <FieldEditForm where="batch" onApply={applyFieldEditResident} />
    </section>
  );
}
