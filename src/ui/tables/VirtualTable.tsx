/**
 * A grid of id rows with a virtualized body (fixed row height, rows positioned with
 * translateY as in TanStack's virtualized-rows example), roving-tabindex keyboard
 * navigation, hover/selection linking, and pages for orders too tall for one scroll box.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from "react";
import type { Table } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useStore } from "../state/store.ts";
import { hoverStore, selectionStore, type ByteSpan, type Selection } from "../state/app-state.ts";
import { formatCount } from "../common/cell-text.ts";
import { gridTemplate, type IndexColumn } from "./index-table.ts";
import { nextActivePosition, type RowOrder } from "./row-order.ts";
import { wholeSelection } from "../common/selection-hooks.ts";
import { hoverRange } from "../state/actions.ts";
import { TableHead, clearHoverOnExit } from "./TableHead.tsx";
import { settledViewWindowStore, type ViewWindow } from "../state/view-window.ts";
import { usePinnedColumns } from "./inline-overflow.ts";

// Only the first hovered byte matters to a row, so rows re-render when it moves to another field, not per pixel.
const hoverStart = (h: ByteSpan | null): number => h?.start ?? -1;
const followsNothing = (): number => -1;

/** Height of a body row in px; the CSS reads it from --tbl-row-h. */
export const ROW_HEIGHT = 24;
/** Height of the sticky header row in px; the CSS reads it from --tbl-head-h. */
export const HEAD_HEIGHT = 30;
/**
 * Rows per page. Browsers cap an element's height (Firefox near 17.9M px), so an order
 * longer than this is shown in pages of 500,000 rows × 24 px = 12M px each.
 */
export const PAGE_ROWS = 500_000;

/** What the body should scroll to (and maybe focus) next; `seq` makes repeated requests distinct. */
interface ScrollRequest {
  readonly pos: number;
  readonly align: "auto" | "center" | "start";
  readonly focus: boolean;
  readonly seq: number;
}

/** Props of VirtualTable. */
export interface VirtualTableProps {
  /** The accessible name of the grid. */
  readonly label: string;
  readonly table: Table<number>;
  /** Every column the table defines; the visible ones come from the table's column visibility. */
  readonly columns: readonly IndexColumn[];
  readonly order: RowOrder;
  /** True while a new order is being built. */
  readonly busy: boolean;
  /** The row id a selection stands for, or -1; must be stable (module level or memoised). */
  readonly selectedOf: (s: Selection | null) => number;
  /** The bytes a row stands for, for hover linking. */
  readonly rangeOf: (id: number) => ByteSpan | null;
  /** Selects the row's thing (click, Enter, Space). */
  readonly onActivate: (id: number) => void;
  /** data-tone of a row (ok, error, warning, info) for colouring. */
  readonly rowTone?: (id: number) => string | undefined;
  /** Shown when the order is empty. */
  readonly emptyText: string;
  /** The row id under the hex map's view (kept in view and marked), or -1; must be stable. */
  readonly followedOf?: (w: ViewWindow | null) => number;
  /** Extra attributes of a row (e.g. `data-message`). */
  readonly rowAttrs?: (id: number) => Readonly<Record<string, string>>;
  /** Scroll to the selected row whenever it changes (a table whose selection is stepped from outside it). */
  readonly followSelection?: boolean;
}

/** An id-row grid: sticky TanStack header, virtualized body, pager when needed. */
export function VirtualTable(props: VirtualTableProps) {
  const { label, table, columns, order, busy, selectedOf, emptyText } = props;
  // The scroll box as state, not a ref: the body's virtualizer reads it in a layout effect that
  // runs before an ancestor's ref is attached, so the body must render again once it exists.
  const [scrollEl, setScrollEl] = useState<HTMLDivElement | null>(null);
  usePinnedColumns(scrollEl);
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const visibleIds = table
    .getVisibleLeafColumns()
    .map((c) => c.id)
    .join(",");
  const visible = useMemo(
    () =>
      visibleIds
        .split(",")
        .map((id) => byId.get(id))
        .filter((c): c is IndexColumn => c !== undefined),
    [visibleIds, byId],
  );
  const numeric = useMemo(() => new Set(visible.filter((c) => c.numeric).map((c) => c.id)), [visible]);
  const grid = gridTemplate(visible);

  const [activeRaw, setActive] = useState(0);
  const [pageRaw, setPage] = useState(0);
  const [request, setRequest] = useState<ScrollRequest | null>(null);
  const seq = useRef(0);
  const pages = Math.max(1, Math.ceil(order.length / PAGE_ROWS));
  const page = Math.min(pageRaw, pages - 1);
  const active = Math.max(0, Math.min(activeRaw, order.length - 1));
  const pageStart = page * PAGE_ROWS;
  const pageCount = Math.max(0, Math.min(PAGE_ROWS, order.length - pageStart));

  const selection = useStore(selectionStore, wholeSelection);
  const selectedId = selectedOf(selection);
  const followed = useStore(settledViewWindowStore, props.followedOf ?? followsNothing);

  /** Makes `pos` the active row, turning the page if needed, and scrolls it into view. */
  const moveTo = useCallback((pos: number, align: ScrollRequest["align"], focus: boolean) => {
    setActive(pos);
    setPage(Math.floor(pos / PAGE_ROWS));
    seq.current += 1;
    setRequest({ pos, align, focus, seq: seq.current });
  }, []);

  // A new order (sort, filter, another batch, another input) starts at the selected row if it
  // holds it, else at the top; a selection made elsewhere (hex view, diagnostics) is revealed.
  // A new order without the selected row (the hex map scrolled the Frames table into another batch) starts at the row under the view.
  const lastOrder = useRef(order);
  const followedNow = useRef(followed);
  followedNow.current = followed;
  useEffect(() => {
    const orderChanged = lastOrder.current !== order;
    lastOrder.current = order;
    const fromElsewhere = selection !== null && selection.origin !== "table";
    if (!orderChanged && !fromElsewhere) return;
    const pos = selectedId >= 0 ? order.positionOf(selectedId) : -1;
    const inView = orderChanged && pos < 0 && followedNow.current >= 0 ? order.positionOf(followedNow.current) : -1;
    if (pos >= 0) moveTo(pos, "center", false);
    else if (inView >= 0) moveTo(inView, "center", false);
    else if (orderChanged) moveTo(0, "start", false);
  }, [order, selection, selectedId, moveTo]);

  // A selection stepped elsewhere (←/→ over messages) brings its row into view, keeping the focus in the table.
  const lastSelected = useRef(selectedId);
  useEffect(() => {
    if (lastSelected.current === selectedId) return;
    lastSelected.current = selectedId;
    if (!props.followSelection) return;
    const pos = order.positionOf(selectedId);
    if (pos >= 0) moveTo(pos, "auto", !!scrollEl?.contains(document.activeElement));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the selected row moves the table
  }, [selectedId]);

  // The row under the hex map's view follows its scroll, unless the user is working in this table.
  useEffect(() => {
    if (followed < 0 || !scrollEl || scrollEl.matches(":hover") || scrollEl.contains(document.activeElement)) return;
    const pos = order.positionOf(followed);
    if (pos >= 0) moveTo(pos, "auto", false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the hex map's position only, never the table's own re-sorts or scroll
  }, [followed]);

  const turnPage = (next: number): void => moveTo(next * PAGE_ROWS, "start", false);
  const style = {
    "--tbl-cols": grid.template,
    "--tbl-row-h": `${ROW_HEIGHT}px`,
    "--tbl-head-h": `${HEAD_HEIGHT}px`,
    minWidth: `${grid.minWidth}rem`,
  } as CSSProperties;

  return (
    <>
      <div className="tbl-scroll" ref={setScrollEl} aria-busy={busy || undefined}>
        <table role="grid" aria-label={label} aria-rowcount={order.length + 1} aria-colcount={visible.length} className="tbl tbl--virtual" style={style}>
          <TableHead table={table} numeric={numeric} />
          <TableBody
            {...props}
            scrollEl={scrollEl}
            visible={visible}
            pageStart={pageStart}
            pageCount={pageCount}
            active={active}
            setActive={setActive}
            request={request}
            moveTo={moveTo}
            selectedId={selectedId}
            followed={followed}
          />
        </table>
        {order.length === 0 && !busy ? <p className="tbl-empty">{emptyText}</p> : null}
        {busy ? (
          <p className="tbl-busy" role="status">
            Sorting {formatCount(order.length)} rows…
          </p>
        ) : null}
      </div>
      {pages > 1 ? (
        <nav className="tbl-pager" aria-label={`${label} pages`}>
          <button type="button" onClick={() => turnPage(page - 1)} disabled={page === 0}>
            Previous rows
          </button>
          <span>
            Rows {formatCount(pageStart + 1)}–{formatCount(pageStart + pageCount)} of {formatCount(order.length)}
          </span>
          <button type="button" onClick={() => turnPage(page + 1)} disabled={page >= pages - 1}>
            Next rows
          </button>
        </nav>
      ) : null}
    </>
  );
}

interface TableBodyProps extends VirtualTableProps {
  readonly scrollEl: HTMLDivElement | null;
  readonly visible: readonly IndexColumn[];
  readonly pageStart: number;
  readonly pageCount: number;
  readonly active: number;
  readonly setActive: (pos: number) => void;
  readonly request: ScrollRequest | null;
  readonly moveTo: (pos: number, align: ScrollRequest["align"], focus: boolean) => void;
  readonly selectedId: number;
  readonly followed: number;
}

// Keep the row virtualizer in the lowest component, so a scroll re-renders only the body.
function TableBody(props: TableBodyProps) {
  const { scrollEl, order, visible, pageStart, pageCount, active, setActive, request, moveTo, selectedId, followed, rangeOf, onActivate, rowTone, rowAttrs } =
    props;
  const hovered = useStore(hoverStore, hoverStart);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const virtualizer = useVirtualizer({
    count: pageCount,
    getScrollElement: () => scrollEl,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // The body starts below the sticky header, and rows scrolled to must clear it.
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
    // React 19 warns about flushSync inside lifecycle methods.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();

  // Focus follows the keyboard; a row scrolled into view may render only on a later frame.
  const focusPending = useRef<number | null>(null);
  const focusRow = useCallback((pos: number): boolean => {
    const row = bodyRef.current?.querySelector<HTMLElement>(`[data-pos="${pos}"]`);
    if (!row) return false;
    row.focus({ preventScroll: true });
    return true;
  }, []);
  useEffect(() => {
    if (!request) return;
    const local = request.pos - pageStart;
    if (local < 0 || local >= pageCount) return;
    virtualizer.scrollToIndex(local, { align: request.align });
    focusPending.current = request.focus && !focusRow(request.pos) ? request.pos : null;
    // Only a new request scrolls; the page and count it needs arrive in the same render.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
  }, [request]);
  useLayoutEffect(() => {
    if (focusPending.current !== null && focusRow(focusPending.current)) focusPending.current = null;
  });

  const firstShown = items.length > 0 ? pageStart + (items[0]?.index ?? 0) : -1;
  const lastShown = items.length > 0 ? pageStart + (items[items.length - 1]?.index ?? 0) : -1;
  // Roving tabindex: the active row when it is rendered, else the first rendered row.
  const tabbable = active >= firstShown && active <= lastShown ? active : firstShown;

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>): void => {
    const row = (e.target as HTMLElement).closest<HTMLElement>("[data-pos]");
    if (!row || e.altKey || e.metaKey) return;
    const pos = Number(row.dataset.pos);
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onActivate(order.at(pos));
      return;
    }
    const viewRows = Math.floor(((scrollEl?.clientHeight ?? 0) - HEAD_HEIGHT) / ROW_HEIGHT) - 1;
    const next = nextActivePosition(e.key, pos, order.length, viewRows);
    if (next === null) return;
    e.preventDefault();
    moveTo(next, "auto", true);
  };

  return (
    <tbody
      role="rowgroup"
      ref={bodyRef}
      className="tbl-body"
      style={{ height: `${virtualizer.getTotalSize()}px` }}
      onKeyDown={onKeyDown}
      onMouseLeave={() => hoverRange(null)}
      onBlur={clearHoverOnExit}
    >
      {items.map((item) => {
        const pos = pageStart + item.index;
        const id = order.at(pos);
        const selected = id === selectedId;
        const range = hovered >= 0 ? rangeOf(id) : null;
        const isHovered = range !== null && hovered >= range.start && hovered < Math.max(range.end, range.start + 1);
        return (
          <tr
            {...rowAttrs?.(id)}
            role="row"
            key={id}
            data-pos={pos}
            data-tone={rowTone?.(id)}
            data-hovered={isHovered || undefined}
            data-in-view={id === followed || undefined}
            aria-rowindex={pos + 2}
            aria-selected={selected}
            tabIndex={pos === tabbable ? 0 : -1}
            className="tbl-row"
            // Set through style: it changes on every scroll.
            style={{ transform: `translateY(${item.start - HEAD_HEIGHT}px)` }}
            onClick={() => {
              setActive(pos);
              onActivate(id);
            }}
            onMouseEnter={() => hoverRange(rangeOf(id))}
            onFocus={() => {
              setActive(pos);
              hoverStore.set(rangeOf(id));
            }}
          >
            {visible.map((c) => (
              <td role="gridcell" key={c.id} className={c.numeric ? "tbl-cell tbl-cell--num" : "tbl-cell"} data-col={c.id} title={c.title?.(id)}>
                {c.cell(id)}
              </td>
            ))}
          </tr>
        );
      })}
    </tbody>
  );
}
