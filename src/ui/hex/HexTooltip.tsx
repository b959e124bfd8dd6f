/** The byte tooltip: a positioned div next to the inspected cell, filled from describeByte. */
import { useLayoutEffect, useMemo, useRef, useState, type JSX, type RefObject } from "react";
import type { Analysis } from "../../core/model.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import type { RangeIndex } from "../../lib/range-index.ts";
import { useStore } from "../state/store.ts";
import { KIND_STYLE, SWATCH_CLASS } from "../common/kind-style.ts";
import { describeByte } from "./byte-info.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { inspectStore, type Inspected } from "./inspect.ts";

const selectInspected = (i: Inspected | null) => i;

/** Gap between the cell and the tooltip, px. */
const GAP = 6;

interface TooltipProps {
  readonly id: string;
  readonly analysis: Analysis;
  readonly bytes: Uint8Array;
  /** The container's own fields (empty for plain batches). */
  readonly container?: readonly ContainerField[];
  readonly diagnostics: RangeIndex<Diagnostic>;
  /** The grid holding the cells; the tooltip anchors on the cell with data-offset. */
  readonly gridRef: RefObject<HTMLElement | null>;
  /** Changes whenever the rendered rows move, so the tooltip re-anchors (or hides) after a scroll. */
  readonly layoutKey: string;
}

/** Shows what the inspected byte is; hidden while nothing is inspected or its cell is off screen. */
export function HexTooltip({ id, analysis, bytes, container, diagnostics, gridRef, layoutKey }: TooltipProps): JSX.Element | null {
  const inspected = useStore(inspectStore, selectInspected);
  const offset = inspected?.offset ?? -1;
  const info = useMemo(
    () => (offset >= 0 && offset < bytes.length ? describeByte(analysis, bytes, offset, diagnostics, container) : null),
    [analysis, bytes, container, diagnostics, offset],
  );
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const tip = ref.current;
    const grid = gridRef.current;
    if (!info || !tip || !grid) return;
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
    const t = tip.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    let top = c.bottom + GAP;
    if (top + t.height > vh && c.top - GAP - t.height >= 0) top = c.top - GAP - t.height;
    const left = Math.max(4, Math.min(c.left, vw - t.width - 4));
    setPos((p) => (p && p.left === left && p.top === top ? p : { left, top }));
  }, [info, offset, gridRef, layoutKey]);

  if (!info) return null;
  const { hit } = info;
  return (
    <div
      ref={ref}
      id={id}
      role="tooltip"
      className="hx-tooltip"
      data-offset-tip={offset}
      // Geometry only: fixed position next to the cell; hidden until measured.
      style={pos ? { left: pos.left, top: pos.top } : { left: 0, top: 0, visibility: "hidden" }}
    >
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
            </li>
          ))}
          {info.problems.length > 4 && <li>… {info.problems.length - 4} more</li>}
        </ul>
      )}
    </div>
  );
}
