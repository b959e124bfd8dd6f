/**
 * The byte tooltip: a positioned div next to the inspected cell, filled from describeByte. Of an input
 * read on demand it reads only the byte and the head of its field (byteInfoNeeds), saying "reading…" until they land.
 */
import { DIAGNOSTIC_HELP } from "../../format/diagnostic-help.ts";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type RefObject } from "react";
import type { Analysis } from "../../core/model/model.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import type { InputBytes } from "../../lib/input-bytes.ts";
import type { RangeIndex } from "../../lib/range-index.ts";
import { useStore } from "../state/store.ts";
import { KIND_STYLE, SWATCH_CLASS } from "../common/kind-style.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { inspectStore, type Inspected } from "./inspect.ts";
import { describeByte, formatOffset } from "./byte-info.ts";
import { peekField } from "./windows.ts";
import { loadRanges, useBytesLanded } from "../common/input-windows.ts";

const selectInspected = (i: Inspected | null) => i;

/** Gap between the cell and the tooltip, px. */
const GAP = 6;
/** Narrowest and widest a tooltip beside the rows gets, px. */
const MIN_SIDE_WIDTH = 240;
const MAX_SIDE_WIDTH = 544;

interface TooltipProps {
  readonly id: string;
  readonly analysis: Analysis;
  readonly source: InputBytes;
  /** The container's own fields (empty for plain batches). */
  readonly container?: readonly ContainerField[];
  readonly diagnostics: RangeIndex<Diagnostic>;
  /** The grid holding the cells; the tooltip anchors on the cell with data-offset. */
  readonly gridRef: RefObject<HTMLElement | null>;
  /** Changes whenever the rendered rows move, so the tooltip re-anchors (or hides) after a scroll. */
  readonly layoutKey: string;
  /** Hears a failed read of the bytes the tooltip shows. */
  readonly onReadError: (message: string) => void;
}

/** Shows what the inspected byte is; hidden while nothing is inspected or its cell is off screen. */
export function HexTooltip({ id, analysis, source, container, diagnostics, gridRef, layoutKey, onReadError }: TooltipProps): JSX.Element | null {
  const inspected = useStore(inspectStore, selectInspected);
  const offset = inspected?.offset ?? -1;
  const landed = useBytesLanded(source);
  const peeked = useMemo(
    () => (offset >= 0 && offset < source.size ? peekField(analysis, source, offset, container) : null),
    // landed: a peek that missed may hit once read pages land.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [analysis, source, container, offset, landed],
  );
  const pending = peeked !== null && peeked.missing.length > 0;
  const info = useMemo(
    () => (peeked && !pending ? describeByte(analysis, peeked.windows, offset, diagnostics, container) : null),
    [analysis, peeked, pending, offset, diagnostics, container],
  );
  useEffect(() => {
    if (peeked && pending) loadRanges(source, peeked.missing, onReadError);
  }, [peeked, pending, source, onReadError]);
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const tip = ref.current;
    const grid = gridRef.current;
    if (!peeked || !tip || !grid) return;
    const cell = grid.querySelector(`[data-offset="${offset}"]`);
    if (!cell) {
      setPos(null);
      return;
    }
    const c = cell.getBoundingClientRect();
    const g = grid.getBoundingClientRect();
    if (c.bottom <= g.top || c.top >= g.bottom) {
      setPos(null);
      return;
    }
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    // Beside the rows, never over them: right of the ASCII column when there is room, else left of the grid.
    const rowsRight = Math.min(g.right, cell.closest(".hx-row")?.querySelector(".hx-ascii")?.getBoundingClientRect().right ?? g.right);
    const roomRight = vw - rowsRight - GAP - 4;
    const roomLeft = g.left - GAP - 4;
    const side = roomRight >= MIN_SIDE_WIDTH ? "right" : roomLeft >= MIN_SIDE_WIDTH ? "left" : null;
    const maxWidth = side === "right" ? roomRight : side === "left" ? roomLeft : null;
    if (maxWidth !== null) tip.style.maxInlineSize = `${Math.min(maxWidth, MAX_SIDE_WIDTH)}px`;
    else tip.style.removeProperty("max-inline-size");
    const t = tip.getBoundingClientRect();
    let left: number;
    let top: number;
    if (side === "right") left = rowsRight + GAP;
    else if (side === "left") left = g.left - GAP - t.width;
    else left = Math.max(4, Math.min(c.left, vw - t.width - 4));
    if (side) {
      top = Math.max(4, Math.min(c.top, vh - t.height - 4));
    } else {
      // No room beside: below the cell's row, or above it.
      top = c.bottom + GAP;
      if (top + t.height > vh && c.top - GAP - t.height >= 0) top = c.top - GAP - t.height;
    }
    setPos((p) => (p && p.left === left && p.top === top ? p : { left, top }));
  }, [info, peeked, offset, gridRef, layoutKey]);

  if (!peeked) return null;
  // The box either way; geometry only: fixed position next to the cell, hidden until measured.
  const box = {
    ref,
    id,
    role: "tooltip",
    className: "hx-tooltip",
    "data-offset-tip": offset,
    style: pos ? { left: pos.left, top: pos.top } : ({ left: 0, top: 0, visibility: "hidden" } as const),
  };
  if (!info) {
    // The field's bytes are being read: say where, never a value made of bytes not read yet.
    return (
      <div {...box} aria-busy="true">
        <div className="hx-tip-title">
          <strong>reading…</strong>
          <span className="hx-tip-where">{formatOffset(offset)}</span>
        </div>
      </div>
    );
  }
  const { hit } = info;
  return (
    <div {...box}>
      <div className="hx-tip-title">
        <span className={`${SWATCH_CLASS} ${KIND_STYLE[hit.kind].className}`} aria-hidden="true" />
        <strong>{info.name}</strong>
        <span className="hx-tip-where">{info.where}</span>
      </div>
      <p className="hx-tip-desc">{info.description}</p>
      <dl className="hx-tip-rows">
        {info.rows.map((r, i) => (
          <div key={i} className={r.tone ? `tone-${r.tone}` : undefined}>
            <dt>{r.label}</dt>
            <dd>{r.value}</dd>
          </div>
        ))}
      </dl>
      {info.problems.length > 0 && (
        <ul className="hx-tip-problems">
          {info.problems.slice(0, 4).map((d, i) => (
            <li key={i} data-severity={d.severity}>
              <span className="hx-tip-sev">{d.severity}</span> <code>{d.code}</code>: {d.message}
              {/* Why it matters (format/diagnostic-help.ts); the Diagnostics list's "Why?" has the rest. */}
              <span className="hx-tip-why"> Rule: {DIAGNOSTIC_HELP[d.code].rule}</span>
            </li>
          ))}
          {info.problems.length > 4 && <li>… {info.problems.length - 4} more</li>}
        </ul>
      )}
    </div>
  );
}
