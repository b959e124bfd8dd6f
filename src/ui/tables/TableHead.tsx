/** The sticky header row of a table (TanStack headers with sort buttons and aria-sort), and a focus helper shared by the bodies. */
import type { FocusEvent } from "react";
import { flexRender, type Table } from "@tanstack/react-table";
import { hoverStore } from "../state/app-state.ts";

/** Clears the hover a focused row set, once focus leaves the table body (not when it moves between rows). */
export function clearHoverOnExit(e: FocusEvent<HTMLElement>): void {
  if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) hoverStore.set(null);
}

/** aria-sort for a column's sort state. */
function ariaSort(sorted: false | "asc" | "desc"): "ascending" | "descending" | "none" {
  return sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none";
}

/** The header row; numeric columns (by id) are right-aligned like their cells. */
export function TableHead<T>({ table, numeric }: { table: Table<T>; numeric: ReadonlySet<string> }) {
  return (
    <thead role="rowgroup" className="tbl-head">
      {table.getHeaderGroups().map((group) => (
        <tr role="row" aria-rowindex={1} key={group.id} className="tbl-row tbl-row--head">
          {group.headers.map((header) => {
            const canSort = header.column.getCanSort();
            const sorted = header.column.getIsSorted();
            const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
            return (
              <th
                role="columnheader"
                key={header.id}
                aria-sort={canSort ? ariaSort(sorted) : undefined}
                className={numeric.has(header.column.id) ? "tbl-cell tbl-cell--num" : "tbl-cell"}
                data-col={header.column.id}
                scope="col"
              >
                {canSort ? (
                  <button type="button" className="tbl-sort" onClick={header.column.getToggleSortingHandler()}>
                    <span className="tbl-sort__label">{content}</span>
                    <span className="tbl-sort__icon" aria-hidden="true">
                      {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                    </span>
                  </button>
                ) : (
                  content
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
