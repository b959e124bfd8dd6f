/**
 * React-table over row ids. TanStack Table keeps the column definitions, the headers and
 * the sorting state; rows are ids (batch or frame indexes) whose order we compute ourselves
 * (row-order.ts), because TanStack's row model creates an object per row, which a segment
 * of millions of frames cannot afford. So the table runs with manualSorting/manualFiltering
 * and no data, and the body reads cells straight from the columns for visible rows only.
 */
import type { ReactNode } from "react";
import { useEffect, useMemo, useState } from "react";
import { getCoreRowModel, useReactTable, type ColumnDef, type SortingState, type Table, type VisibilityState } from "@tanstack/react-table";
import { EMPTY_ORDER, type RowOrder } from "./row-order.ts";

/** A column of an id-based table: header, width, and how a cell of row `id` reads. */
export interface IndexColumn {
  readonly id: string;
  readonly header: string;
  /** Width in rem (the minimum width when `grow` is set). */
  readonly width: number;
  /** Share of the spare width this column takes. */
  readonly grow?: number;
  /** Numbers are right-aligned and tabular. */
  readonly numeric?: boolean;
  /** Default true. */
  readonly sortable?: boolean;
  readonly cell: (id: number) => ReactNode;
  /** Tooltip of a cell. */
  readonly title?: (id: number) => string | undefined;
}

const NO_ROWS: number[] = [];

/** TanStack column definitions for id columns; the accessor only makes a column sortable (sorting is manual). */
export function indexColumnDefs(columns: readonly IndexColumn[]): ColumnDef<number>[] {
  return columns.map((c) => ({
    id: c.id,
    header: c.header,
    accessorFn: (row: number) => row,
    enableSorting: c.sortable !== false,
  }));
}

/** The CSS grid template of the visible columns, and the width they need at least (rem). */
export function gridTemplate(columns: readonly Pick<IndexColumn, "width" | "grow">[]): { template: string; minWidth: number } {
  return {
    template: columns.map((c) => (c.grow ? `minmax(${c.width}rem, ${c.grow}fr)` : `${c.width}rem`)).join(" "),
    minWidth: columns.reduce((n, c) => n + c.width, 0),
  };
}

/** A TanStack table over no data, holding the sorting (one column at a time) and column visibility. */
export function useIndexTable(
  columns: readonly IndexColumn[],
  columnVisibility?: VisibilityState,
): {
  table: Table<number>;
  sorting: SortingState;
} {
  const [sorting, setSorting] = useState<SortingState>([]);
  const defs = useMemo(() => indexColumnDefs(columns), [columns]);
  const table = useReactTable({
    data: NO_ROWS,
    columns: defs,
    state: { sorting, columnVisibility: columnVisibility ?? {} },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: false,
    sortDescFirst: false,
  });
  return { table, sorting };
}

/** Orders above this many rows are built after a paint, with the table marked busy meanwhile. */
export const HEAVY_ORDER_ROWS = 100_000;

/**
 * The row order for the current filter and sort: built synchronously for small tables,
 * and for large ones in a timeout (keeping the previous order of the same analysis on screen
 * and `busy` true) so the click that asked for it paints first.
 */
export function useRowOrder(build: () => RowOrder, heavy: boolean, owner: unknown, deps: readonly unknown[]): { order: RowOrder; busy: boolean } {
  // `deps` lists what `build` reads; `build` itself is a fresh closure each render.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for build
  const sync = useMemo(() => (heavy ? null : build()), [heavy, ...deps]);
  const [late, setLate] = useState<{ owner: unknown; deps: readonly unknown[]; order: RowOrder } | null>(null);
  useEffect(() => {
    if (!heavy) return;
    const timer = setTimeout(() => setLate({ owner, deps, order: build() }), 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for build; owner changes only with them
  }, [heavy, ...deps]);
  if (sync) return { order: sync, busy: false };
  if (late && late.owner === owner) {
    const fresh = late.deps.length === deps.length && late.deps.every((d, i) => Object.is(d, deps[i]));
    return { order: late.order, busy: !fresh };
  }
  return { order: EMPTY_ORDER, busy: true };
}
