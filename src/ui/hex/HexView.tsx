/**
 * The hex map: rows of offset | hex | ASCII, 16 bytes a row, every byte coloured by its kind,
 * diagnostics drawn over the colours, hover/selection/cursor linked to the other views.
 *
 * Scrolling has two modes (scroll-math.ts). Up to MAX_SCROLL_HEIGHT px of rows, TanStack Virtual
 * lays rows out at their natural offsets and the browser scrolls natively. Past it (about 6 MiB of
 * input) the scroll area is capped, a sticky layer shows the rows, and the scroll position maps
 * linearly onto a fractional top row that this component owns; wheel and keys move it row by row.
 * TanStack Virtual is not used there: it keeps one measurement object per item, 16M for 256 MiB.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { flushSync } from "react-dom";
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type JSX,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type RefObject,
} from "react";
import { editByte, editModeStore, latestBytes } from "../session/editing.ts";
import { cancelLoading, cancellableStore } from "../session/loading.ts";
import { cancelOtherWork, otherWorkStore } from "../session/long-work.ts";
import { selectRange, stepFrame, stepProblem } from "../state/actions.ts";
import { cursorStore, documentStore, revealStore, selectionStore, type ByteSpan, type LoadedInput } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { jumpStore, publishViewWindow } from "../state/view-window.ts";
import { HexRow, cellId } from "./HexRow.tsx";
import { HexTooltip } from "./HexTooltip.tsx";
import { dismissTooltip, endInspect, inspectByte, inspectStore } from "./inspect.ts";
import { hexCommand, hexDigit, typeNibble } from "./keys.ts";
import { BYTES_PER_ROW, OVERSCAN_ROWS, ROW_HEIGHT, SCALED_OVERSCAN_ROWS, offsetDigits } from "./layout.ts";
import { RowCache } from "./row-data.ts";
import { hitAt } from "./windows.ts";
import { charAt } from "./ascii-runs.ts";
import { loadRanges, useBytesLanded } from "../common/input-windows.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { maxTopRow, revealTopRow, rowSlots, rowWindow, scrollGeometry, scrollTopFor, topRowAt, wheelRows } from "./scroll-math.ts";
import "../common/kinds.css";
import "./hex.css";

const estimateRowSize = (): number => ROW_HEIGHT;
const selectCursor = (c: number): number => c;
const COLUMNS = Array.from({ length: BYTES_PER_ROW }, (_, i) => i.toString(16).padStart(2, "0"));

/** Height of the rows' part of the scroll container: its client height minus the sticky column header. */
function viewportOf(el: HTMLElement): number {
  return Math.max(0, el.clientHeight - ROW_HEIGHT);
}

/** The offset of the byte under a pointer at clientX over an event target: a hex cell's, or within an ASCII run the byte under it; or -1. */
function offsetOfTarget(target: EventTarget | null, clientX: number): number {
  const cell = target instanceof Element ? target.closest<HTMLElement>("[data-offset],[data-a]") : null;
  if (!cell) return -1;
  if (cell.dataset.offset !== undefined) return Number(cell.dataset.offset);
  const first = Number(cell.dataset.a);
  const count = cell.textContent?.length ?? 1;
  if (count <= 1) return first;
  // A pointer event, not a scroll frame: reading the run's box here is fine.
  const box = cell.getBoundingClientRect();
  return first + charAt(clientX, box.left, box.width, count);
}

/**
 * The rows' viewport height, kept current with a ResizeObserver; also in `latest`, so the scroll, wheel and key
 * handlers use it without reading layout (a read there forces the layout of the rows just rendered).
 */
function useViewportHeight(ref: RefObject<HTMLElement | null>, latest: RefObject<number>): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = (): void => {
      latest.current = viewportOf(el);
      setHeight(latest.current);
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, latest]);
  return height;
}

const NO_FIELDS: readonly ContainerField[] = [];
/** Bytes read either side of the rows an input read on demand is missing (its pages are 256 KiB anyway). */
const LOAD_MARGIN = 16 << 10;
/** Farthest a scroll reads ahead of its rows; a longer move is a jump, not a scroll. */
const READ_AHEAD = 4 << 20;
/** The read-ahead is asked for in pieces of the on-demand page size, so none is assembled from several pages. */
const READ_PIECE = 256 << 10;

/** [from, to) cut at multiples of READ_PIECE. */
function pageRanges(from: number, to: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let s = from; s < to; s = (Math.floor(s / READ_PIECE) + 1) * READ_PIECE) {
    out.push({ start: s, end: Math.min(to, (Math.floor(s / READ_PIECE) + 1) * READ_PIECE) });
  }
  return out;
}

/** The hex map of a loaded input. */
export function HexView({ input }: { input: LoadedInput }): JSX.Element {
  const { analysis, bytes, source } = input;
  const container = input.meta?.container?.fields ?? NO_FIELDS;
  const size = source.size;
  const cache = useMemo(() => new RowCache(analysis, source, undefined, container), [analysis, source, container]);
  // An input read on demand: rows re-render when the pages they wait for land; a failed read says so.
  useBytesLanded(source);
  const [readError, setReadError] = useState<string | null>(null);
  useEffect(() => setReadError(null), [source]);
  const rows = cache.rows;
  const geometry = useMemo(() => scrollGeometry(rows, ROW_HEIGHT), [rows]);
  const digits = offsetDigits(size);
  const scrollRef = useRef<HTMLDivElement>(null);
  const idPrefix = `hx${useId().replace(/[^A-Za-z0-9_-]/g, "")}-`;
  const tooltipId = `${idPrefix}tip`;
  const viewportRef = useRef(0);
  const viewportHeight = useViewportHeight(scrollRef, viewportRef);

  // Natural mode: TanStack Virtual (disabled, with no items, in scaled mode).
  const virtualizer = useVirtualizer({
    count: geometry.scaled ? 0 : rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimateRowSize,
    overscan: OVERSCAN_ROWS,
    // The rows start below the sticky column header.
    scrollMargin: ROW_HEIGHT,
    enabled: !geometry.scaled,
    // React 19 warns about flushSync inside lifecycle methods; rows are cheap to render a frame late.
    useFlushSync: false,
  });

  // Scaled mode: the fractional top row is ours; scrollTop is derived from it.
  const [scaledTop, setScaledTop] = useState(0);
  const topRowRef = useRef(0);
  // The scrollTop we last wrote, so the scroll event it causes is not read back as a user scroll
  // (the browser rounds scrollTop, which would lose the row precision of wheel and keys).
  const echoRef = useRef<number | null>(null);
  // Where a shift-click extends the selection from.
  const anchorRef = useRef<ByteSpan | null>(null);
  // Edit mode: the byte whose low nibble the next hex digit writes; a click or leaving the map starts the next byte afresh.
  const nibbleRef = useRef<number | null>(null);

  const getTopRow = useCallback((): number => {
    const el = scrollRef.current;
    if (!el) return 0;
    return geometry.scaled ? topRowRef.current : topRowAt(geometry, el.scrollTop, viewportOf(el));
  }, [geometry]);

  const setTopRow = useCallback(
    (row: number): void => {
      const el = scrollRef.current;
      if (!el) return;
      const vh = viewportRef.current;
      const top = Math.max(0, Math.min(row, maxTopRow(geometry, vh)));
      const scrollTop = scrollTopFor(geometry, top, vh);
      if (!geometry.scaled) {
        el.scrollTop = scrollTop;
        return;
      }
      topRowRef.current = top;
      el.scrollTop = scrollTop;
      // The value written, not read back: a read right after the write would force a layout (the echo test allows 1 px of rounding).
      echoRef.current = scrollTop;
      setScaledTop(top);
    },
    [geometry],
  );

  const reveal = useCallback(
    (row: number, align: "nearest" | "center"): void => {
      const el = scrollRef.current;
      if (!el) return;
      const top = getTopRow();
      const next = revealTopRow(geometry, top, row, viewportRef.current, align);
      if (next !== top) setTopRow(next);
    },
    [geometry, getTopRow, setTopRow],
  );

  // Scaled mode: follow scrollbar drags, and turn wheel events into row steps.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !geometry.scaled) return;
    // The scroll event runs at the start of a frame, when the last frame's layout is still clean: scrollTop is
    // read without forcing one, and the rows are rendered at once (flushSync) so that this frame lays them out
    // and paints them, instead of a later task whose changes the next scroll event would force a layout of.
    const onScroll = (): void => {
      const scrollTop = el.scrollTop;
      if (echoRef.current !== null && Math.abs(scrollTop - echoRef.current) <= 1) {
        echoRef.current = null;
        return;
      }
      echoRef.current = null;
      topRowRef.current = topRowAt(geometry, scrollTop, viewportRef.current);
      flushSync(() => setScaledTop(topRowRef.current));
    };
    const onWheel = (e: WheelEvent): void => {
      if (e.ctrlKey || Math.abs(e.deltaY) <= Math.abs(e.deltaX)) return;
      e.preventDefault();
      setTopRow(topRowRef.current + wheelRows(e.deltaY, e.deltaMode, ROW_HEIGHT, viewportRef.current));
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => {
      el.removeEventListener("scroll", onScroll);
      el.removeEventListener("wheel", onWheel);
    };
  }, [geometry, setTopRow]);

  // Scaled mode: keep the top row valid when the viewport grows.
  useEffect(() => {
    if (geometry.scaled && topRowRef.current > maxTopRow(geometry, viewportHeight)) setTopRow(topRowRef.current);
  }, [geometry, viewportHeight, setTopRow]);

  // A new input starts at the top, or at a selection another view already made; leaving clears the tooltip.
  const revealRef = useRef(reveal);
  useLayoutEffect(() => {
    revealRef.current = reveal;
  }, [reveal]);
  // Only a newly opened input (its new-input id) starts over: after an edit or another format the view stays where it is.
  useLayoutEffect(() => {
    topRowRef.current = 0;
    setScaledTop(0);
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    anchorRef.current = null;
    nibbleRef.current = null;
    const s = selectionStore.get();
    if (s && s.end <= size) revealRef.current(Math.floor(s.start / BYTES_PER_ROW), "center");
    return () => endInspect();
  }, [input.opened, size]);

  // A row hovered elsewhere brings its first byte into view (revealRef centres only what is off-screen).
  useEffect(
    () =>
      revealStore.subscribe(() => {
        const r = revealStore.get();
        if (r && r.start < size) revealRef.current(Math.floor(r.start / BYTES_PER_ROW), "center");
      }),
    [size],
  );

  // A selection made elsewhere (tables, diagnostics, keys) scrolls its first row into view.
  useEffect(
    () =>
      selectionStore.subscribe(() => {
        const s = selectionStore.get();
        if (!s || s.origin === "hex") return;
        anchorRef.current = { start: s.start, end: s.end };
        revealRef.current(Math.floor(s.start / BYTES_PER_ROW), "center");
      }),
    [],
  );

  // The overview (and anything else) asks for a byte to be centred.
  useEffect(
    () =>
      jumpStore.subscribe(() => {
        const j = jumpStore.get();
        const el = scrollRef.current;
        if (!j || !el || size === 0) return;
        setTopRow(Math.floor(Math.min(j.byte, size - 1) / BYTES_PER_ROW) + 0.5 - viewportRef.current / ROW_HEIGHT / 2);
      }),
    [size, setTopRow],
  );

  // The rows to render and how far to shift their block.
  let first = 0;
  let end = 0;
  let shift = 0;
  if (!geometry.scaled) {
    const items = virtualizer.getVirtualItems();
    const head = items[0];
    const tail = items[items.length - 1];
    if (head && tail) {
      first = head.index;
      end = tail.index + 1;
      shift = head.start - ROW_HEIGHT;
    }
  } else {
    ({ first, end } = rowWindow(geometry, scaledTop, viewportHeight, SCALED_OVERSCAN_ROWS));
    shift = (first - scaledTop) * ROW_HEIGHT;
  }
  const visible = cache.window(first, end);
  // What the rows could not show yet, read with a margin so small scrolls find their bytes at hand.
  const missing = cache.missing();
  const missingKey = missing.map((r) => `${r.start}-${r.end}`).join(",");
  useEffect(() => {
    if (missing.length === 0) return;
    loadRanges(
      source,
      missing.map((r) => ({ start: Math.max(0, r.start - LOAD_MARGIN), end: Math.min(size, r.end + LOAD_MARGIN) })),
      setReadError,
    );
    // missingKey names the ranges; the array itself is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [missingKey, source, size]);

  // A steady scroll of an input read on demand reads ahead of the rows, twice as far as the last move (up to
  // READ_AHEAD), so the next frames find their bytes at hand instead of showing "··" and rendering twice.
  const lastFirst = useRef(first);
  useEffect(() => {
    const moved = first - lastFirst.current;
    lastFirst.current = first;
    const ahead = Math.abs(moved) * 2 * BYTES_PER_ROW;
    if (source.whole || moved === 0 || ahead > READ_AHEAD) return;
    const from = moved > 0 ? end * BYTES_PER_ROW : Math.max(0, first * BYTES_PER_ROW - ahead);
    const to = Math.min(size, moved > 0 ? end * BYTES_PER_ROW + ahead : first * BYTES_PER_ROW);
    loadRanges(source, pageRanges(from, to), setReadError);
  }, [first, end, source, size]);

  // The visible window, for the overview and the tables that follow the scroll.
  const topRow = geometry.scaled ? scaledTop : (virtualizer.scrollOffset ?? 0) / ROW_HEIGHT;
  const windowStart = Math.min(size, Math.floor(topRow) * BYTES_PER_ROW);
  const windowEnd = Math.min(size, Math.ceil(topRow + viewportHeight / ROW_HEIGHT) * BYTES_PER_ROW);
  useEffect(() => publishViewWindow({ start: windowStart, end: windowEnd, size }), [windowStart, windowEnd, size]);
  useEffect(() => () => publishViewWindow(null), []);

  const cursor = useStore(cursorStore, selectCursor);
  const activeId = cursor >= first * BYTES_PER_ROW && cursor < Math.min(size, end * BYTES_PER_ROW) ? cellId(idPrefix, cursor) : undefined;

  const onPointerOver = (e: PointerEvent<HTMLDivElement>): void => {
    const offset = offsetOfTarget(e.target, e.clientX);
    if (offset >= 0 && offset < size) inspectByte(analysis, source, offset, "pointer", container);
  };
  // Within an ASCII run the pointer crosses bytes without leaving the element (inspectByte ignores repeats).
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    if (!(e.target instanceof HTMLElement) || e.target.dataset.a === undefined) return;
    onPointerOver(e);
  };
  const onPointerLeave = (): void => {
    if (inspectStore.get()?.via === "pointer") endInspect();
  };
  const onClick = (e: MouseEvent<HTMLDivElement>): void => {
    const offset = offsetOfTarget(e.target, e.clientX);
    if (offset < 0 || offset >= size) return;
    nibbleRef.current = null;
    const hit = hitAt(analysis, source, offset, container);
    const anchor = anchorRef.current;
    if (e.shiftKey && anchor) {
      if (hit.start >= anchor.start) selectRange(anchor.start, Math.max(hit.end, anchor.end), "hex");
      else selectRange(hit.start, anchor.end, "hex");
    } else {
      anchorRef.current = { start: hit.start, end: hit.end };
      selectRange(hit.start, hit.end, "hex");
    }
    cursorStore.set(offset);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const el = scrollRef.current;
    if (!el || size === 0) return;
    const at = Math.max(0, Math.min(cursorStore.get(), size - 1));
    const digit = editModeStore.get() ? hexDigit(e.key, e) : null;
    if (digit !== null) {
      e.preventDefault();
      // The latest edit, not the bytes on screen: a large input's re-check may not have landed yet.
      // An input read on demand has none until the edit mode made it resident: the digit is ignored.
      const current = latestBytes() ?? bytes;
      if (!current) return;
      const second = nibbleRef.current === at;
      const edit = typeNibble(current[at] as number, digit, second);
      nibbleRef.current = edit.advance ? null : at;
      editByte(at, edit.value, second);
      const next = edit.advance && at + 1 < size ? at + 1 : at;
      cursorStore.set(next);
      // The shown input: a small input's edit is already in it; a large one's or a container's lands with its re-check, and the tooltip follows then.
      const edited = documentStore.get().input;
      if (edited) inspectByte(edited.analysis, edited.source, next, "keyboard", edited.meta?.container?.fields);
      return;
    }
    nibbleRef.current = null;
    const pageRows = Math.max(1, Math.floor(viewportRef.current / ROW_HEIGHT) - 1);
    const command = hexCommand(e.key, e, at, size, pageRows, cancellableStore.get() || otherWorkStore.get());
    if (!command) return;
    e.preventDefault();
    switch (command.type) {
      case "move":
        cursorStore.set(command.to);
        reveal(Math.floor(command.to / BYTES_PER_ROW), "nearest");
        inspectByte(analysis, source, command.to, "keyboard", container);
        break;
      case "select-field": {
        const hit = hitAt(analysis, source, at, container);
        anchorRef.current = { start: hit.start, end: hit.end };
        selectRange(hit.start, hit.end, "hex");
        cursorStore.set(at);
        break;
      }
      case "frame":
      case "problem": {
        // These select with origin "keyboard", so the selection subscription scrolls to them.
        if (command.type === "frame") stepFrame(command.direction);
        else stepProblem(command.direction);
        const moved = Math.max(0, Math.min(cursorStore.get(), size - 1));
        inspectByte(analysis, source, moved, "keyboard", container);
        break;
      }
      case "dismiss":
        dismissTooltip();
        break;
      case "cancel-decode":
        if (!cancelLoading() && !cancelOtherWork()) dismissTooltip();
        break;
    }
  };
  const onBlur = (): void => {
    nibbleRef.current = null;
    if (inspectStore.get()?.via === "keyboard") endInspect();
  };

  // Keyed by slot (see rowSlots): a row keeps its element while it stays in view, and a far jump refills the same
  // elements instead of replacing every one.
  const slots = Math.max(visible.length, rowSlots(viewportHeight, ROW_HEIGHT, geometry.scaled ? SCALED_OVERSCAN_ROWS : OVERSCAN_ROWS));
  const rowEls = visible.map((data) => <HexRow key={data.row % slots} data={data} offsetDigits={digits} idPrefix={idPrefix} />);
  const rowsBlock = (
    // Geometry only: the block of rows is shifted to the first rendered row.
    <div className="hx-rows" style={{ transform: `translateY(${shift}px)` }}>
      {rowEls}
    </div>
  );

  return (
    <div className="hx-view">
      {readError && (
        <p role="alert" className="hx-read-error">
          {readError}
        </p>
      )}
      <div
        ref={scrollRef}
        className="hx-grid"
        role="grid"
        aria-label="Hex map"
        aria-rowcount={Math.max(rows, 1) + 1}
        aria-colcount={BYTES_PER_ROW + 2}
        aria-readonly="true"
        aria-multiselectable="true"
        aria-activedescendant={activeId}
        tabIndex={0}
        data-testid="hex-scroll"
        data-scaled={geometry.scaled ? "" : undefined}
        // Geometry only: the width of every row of bytes (the offset column's, then 66ch), so rows can be contained.
        style={{ "--hx-row-inline": `${Math.max(10, digits + 1.5) + 66.5}ch` } as CSSProperties}
        onKeyDown={onKeyDown}
        onPointerOver={onPointerOver}
        onPointerMove={onPointerMove}
        onPointerLeave={onPointerLeave}
        onClick={onClick}
        onBlur={onBlur}
      >
        <div role="row" aria-rowindex={1} className="hx-row hx-head" style={{ height: ROW_HEIGHT }}>
          <span role="columnheader" className="hx-off">
            Offset
          </span>
          <span className="hx-hex">
            {COLUMNS.map((c) => (
              <span key={c} role="columnheader" className="hx-b">
                {c}
              </span>
            ))}
          </span>
          <span role="columnheader" className="hx-ascii">
            ASCII
          </span>
        </div>
        {rows === 0 ? (
          <div role="row" aria-rowindex={2} className="hx-row">
            <span role="gridcell" className="hx-empty">
              Empty input: 0 bytes.
            </span>
          </div>
        ) : geometry.scaled ? (
          <>
            {/* Geometry only: the layer is one viewport tall and stays put; the spacer makes the scroll range. */}
            <div className="hx-layer" style={{ height: viewportHeight }}>
              {rowsBlock}
            </div>
            <div className="hx-spacer" style={{ height: Math.max(0, geometry.contentHeight - viewportHeight) }} />
          </>
        ) : (
          <div className="hx-content" style={{ height: virtualizer.getTotalSize() }}>
            {rowsBlock}
          </div>
        )}
      </div>
      <HexTooltip
        id={tooltipId}
        analysis={analysis}
        source={source}
        container={container}
        onReadError={setReadError}
        diagnostics={cache.diagnostics}
        gridRef={scrollRef}
        layoutKey={`${first}:${shift}`}
      />
    </div>
  );
}
