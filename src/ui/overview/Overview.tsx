/**
 * The overview (contracts.md §2): the whole input as a vertical strip beside the hex map. Each
 * pixel row is coloured by its main byte kind; batch starts are ticks (kept TICK_GAP rows apart); every diagnostic is a mark
 * in its severity's colour (with a shape per severity, so colour is not the only cue); the hex
 * map's visible window is a framed band. Click or drag jumps there; as a slider it also takes
 * arrows, Page Up/Down, Home and End.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type KeyboardEvent, type PointerEvent } from "react";
import { ALL_BYTE_KINDS } from "../../format/fields.ts";
import type { LoadedInput } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { jumpToByte, viewWindowStore, type ViewWindow } from "../state/view-window.ts";
import { KIND_STYLE } from "../common/kind-style.ts";
import { overviewRows, rowOfByte } from "./overview-data.ts";
import "./overview.css";
import { formatCount, plural } from "../../format/values.ts";
import { kindNeeds } from "../../core/view/byte-map.ts";
import { loadRanges, peekRanges, useBytesLanded } from "../common/input-windows.ts";

const selectWindow = (w: ViewWindow | null) => w;
/** Width of the strip in CSS px; the right part carries the problem marks. */
const WIDTH = 34;
const MARKS_X = 20;

/** The CSS custom property holding a kind's colour, from its class name. */
const kindVar = (className: string) => `--${className}`;

function usePrefersDark(): boolean {
  const [dark, setDark] = useState(() => typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const q = matchMedia("(prefers-color-scheme: dark)");
    const on = () => setDark(q.matches);
    q.addEventListener("change", on);
    return () => q.removeEventListener("change", on);
  }, []);
  return dark;
}

/** The strip for a loaded input. */
export function Overview({ input }: { input: LoadedInput }): JSX.Element {
  const { analysis, source } = input;
  const size = source.size;
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [height, setHeight] = useState(0);
  const dark = usePrefersDark();
  const view = useStore(viewWindowStore, selectWindow);
  const dragging = useRef(false);

  useLayoutEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    setHeight(Math.floor(el.clientHeight));
    const observer = new ResizeObserver(() => setHeight(Math.floor(el.clientHeight)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Of an input read on demand, only truncated frames' headers are read (kindNeeds), and the strip is redrawn when they land;
  // an input with none (most) never redraws for pages other views read.
  const landed = useBytesLanded(source);
  const [readError, setReadError] = useState<string | null>(null);
  const needs = useMemo(() => (source.whole ? [] : kindNeeds(analysis, 0, size)), [analysis, source, size]);
  const needsLanded = needs.length > 0 ? landed : 0;
  // needsLanded: a peek that missed may hit once read pages land.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const needed = useMemo(() => peekRanges(source, needs), [source, needs, needsLanded]);
  useEffect(() => {
    if (needed.missing.length > 0) loadRanges(source, needed.missing, setReadError);
  }, [needed, source]);
  const data = useMemo(() => overviewRows(analysis, needed.windows, height), [analysis, needed, height]);
  const counts = useMemo(() => analysis.summary, [analysis]);

  // Painted in device pixels so ticks stay sharp; colours come from the same custom properties as the hex map.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || height === 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(WIDTH * ratio);
    canvas.height = Math.round(height * ratio);
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const css = getComputedStyle(canvas);
    const colour = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    const kindColours = ALL_BYTE_KINDS.map((k) => colour(kindVar(KIND_STYLE[k].className), "#ccc"));
    const edge = colour("--hx-edge-batch", "#000");
    const severity = ["", colour("--hx-info", "#245b8f"), colour("--hx-warning", "#8a5a00"), colour("--hx-error", "#b3261e")];
    ctx.clearRect(0, 0, WIDTH, height);
    for (let r = 0; r < height; r++) {
      ctx.fillStyle = kindColours[data.kinds[r] as number] as string;
      ctx.fillRect(0, r, MARKS_X, 1);
    }
    ctx.fillStyle = edge;
    for (let r = 0; r < height; r++) if (data.ticks[r]) ctx.fillRect(0, r, 6, 1);
    // Marks: an error is a full-width bar of the marks column, a warning a shorter one, an info a dot.
    for (let r = 0; r < height; r++) {
      const level = data.problems[r] as number;
      if (!level) continue;
      ctx.fillStyle = severity[level] as string;
      const top = Math.max(0, Math.min(height - 3, r - 1));
      if (level === 3) ctx.fillRect(MARKS_X, top, WIDTH - MARKS_X, 3);
      else if (level === 2) ctx.fillRect(MARKS_X + 3, top, WIDTH - MARKS_X - 3, 3);
      else ctx.fillRect(MARKS_X + 6, top, 3, 3);
    }
  }, [data, height, dark]);

  const fractionAt = (clientY: number): number => {
    const r = boxRef.current?.getBoundingClientRect();
    if (!r || r.height === 0) return 0;
    return Math.max(0, Math.min(1, (clientY - r.top) / r.height));
  };
  const jumpToFraction = useCallback(
    (f: number) => {
      if (size > 0) jumpToByte(Math.min(size - 1, Math.floor(f * size)));
    },
    [size],
  );

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    jumpToFraction(fractionAt(e.clientY));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) jumpToFraction(fractionAt(e.clientY));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  };

  const centre = view ? (view.start + view.end) / 2 : 0;
  const span = view ? Math.max(1, view.end - view.start) : size;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowDown: span / 4, ArrowUp: -span / 4, PageDown: span, PageUp: -span }[e.key];
    if (step !== undefined) jumpToByte(Math.max(0, Math.min(size - 1, Math.floor(centre + step))));
    else if (e.key === "Home") jumpToByte(0);
    else if (e.key === "End") jumpToByte(Math.max(0, size - 1));
    else return;
    e.preventDefault();
  };

  const bandTop = view && size > 0 ? rowOfByte(view.start, size, height) : 0;
  const bandBottom = view && size > 0 ? rowOfByte(Math.max(view.start, view.end - 1), size, height) + 1 : 0;
  const percent = size > 0 && view ? Math.round((100 * view.start) / size) : 0;
  const problems = counts.errors + counts.warnings + counts.infos;
  return (
    <div
      ref={boxRef}
      className="overview"
      role="slider"
      aria-label="Overview"
      aria-orientation="vertical"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={
        view
          ? `bytes ${formatCount(view.start)} to ${formatCount(view.end)} of ${formatCount(size)} shown; ${plural(problems, "problem", undefined, (n) => formatCount(Number(n)))} in the input`
          : "nothing shown"
      }
      tabIndex={0}
      data-testid="overview"
      // A failed read of a truncated frame's header: the hex map says it in full.
      title={readError ?? undefined}
      style={{ inlineSize: WIDTH }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    >
      <canvas ref={canvasRef} className="overview-canvas" aria-hidden="true" style={{ inlineSize: WIDTH, blockSize: height }} />
      {view && height > 0 && (
        // Geometry only: the band follows the hex map's visible window.
        <div className="overview-band" aria-hidden="true" style={{ top: bandTop, height: Math.max(4, bandBottom - bandTop) }} />
      )}
    </div>
  );
}
