/**
 * The body of the index entries table: of a page of up to 500 entries, only the rows in view and a few around
 * them are rendered, between two spacer rows. Laid out whole, a page made a 14,000 px scroller whose raster
 * held 20-25 MiB of the renderer (`npm run bench:page -- --index 1024`).
 */
import { useEffect } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ENTRY_ROW_HEIGHT, type EntryRow } from "./partition-rows.ts";

/** Height of the table's header row in px, above the rows inside the same scroller. */
const HEAD_HEIGHT = 24;

/** Props of IndexEntryRows: the page's rows, their scroller, what a row's cells do, and a row to bring into view. */
export interface IndexEntryRowsProps {
  readonly rows: readonly EntryRow[];
  readonly scrollEl: HTMLDivElement | null;
  /** True for an `.index` shown itself: an entry's number selects its 24 bytes. */
  readonly selectable: boolean;
  readonly canJump: boolean;
  readonly onSelect: (row: EntryRow) => void;
  readonly onJump: (row: EntryRow) => void;
  /** The position among `rows` to scroll into view when it changes, or -1. */
  readonly reveal: number;
}

/** The tbody of the entries table, virtualized in its scroller. */
export function IndexEntryRows({ rows, scrollEl, selectable, canJump, onSelect, onJump, reveal }: IndexEntryRowsProps) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollEl,
    estimateSize: () => ENTRY_ROW_HEIGHT,
    overscan: 10,
    scrollMargin: HEAD_HEIGHT,
    // React 19 warns about flushSync inside lifecycle methods.
    useFlushSync: false,
  });
  useEffect(() => {
    if (reveal >= 0 && reveal < rows.length) virtualizer.scrollToIndex(reveal, { align: "center" });
    // Only a new row to reveal (or a new page of rows) scrolls.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal, rows]);
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const above = first ? first.start - HEAD_HEIGHT : 0;
  const below = last ? virtualizer.getTotalSize() - (last.end - HEAD_HEIGHT) : 0;
  return (
    <tbody>
      {above > 0 ? <tr aria-hidden="true" className="index-spacer" style={{ height: above }} /> : null}
      {items.map((item) => {
        const r = rows[item.index] as EntryRow;
        return (
          <tr key={r.index} data-entry={r.index} aria-rowindex={item.index + 2} style={{ height: ENTRY_ROW_HEIGHT }}>
            <td>
              {selectable ? (
                <button type="button" className="link-button" onClick={() => onSelect(r)} title="Select this entry's 24 bytes">
                  {r.index}
                </button>
              ) : (
                r.index
              )}
            </td>
            <td>{r.offset}</td>
            <td>{r.timestamp}</td>
            <td>
              <button
                type="button"
                disabled={!canJump}
                onClick={() => onJump(r)}
                title={canJump ? "Go to the batch this entry points at" : "Open the .log with this index to go to its batches"}
              >
                Go to batch at {r.position}
              </button>
            </td>
            <td className={`tone-${r.ok ? "ok" : "bad"}`}>{r.check}</td>
          </tr>
        );
      })}
      {below > 0 ? <tr aria-hidden="true" className="index-spacer" style={{ height: below }} /> : null}
    </tbody>
  );
}
