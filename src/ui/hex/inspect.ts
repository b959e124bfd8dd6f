/**
 * Inspecting a byte (pointer over it, or the keyboard cursor on it): highlights its whole field in
 * hoverStore, a checksum's coverage in coverageStore, and names the byte for the tooltip.
 */
import type { Analysis } from "../../core/model/model.ts";
import { hoverStore, type ByteSpan } from "../state/app-state.ts";
import { createStore } from "../state/store.ts";
import { checksumCoverage, coverageStore } from "./coverage.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import type { InputBytes } from "../../lib/input-bytes.ts";
import { hitAt } from "./windows.ts";

/** The byte the tooltip describes and how it was reached. */
export interface Inspected {
  readonly offset: number;
  readonly via: "pointer" | "keyboard";
}

/** The inspected byte, or null when no tooltip shows. */
export const inspectStore = createStore<Inspected | null>(null);

// The span this module last put in hoverStore, so clearing does not wipe another view's hover.
let ownHover: ByteSpan | null = null;

/**
 * Inspects byte `offset`: field hover, checksum coverage and tooltip. The field's range comes from the
 * model (of an input read on demand, only a truncated frame's header is read); the tooltip reads its value.
 */
export function inspectByte(analysis: Analysis, source: InputBytes, offset: number, via: Inspected["via"], container?: readonly ContainerField[]): void {
  const current = inspectStore.get();
  if (current && current.offset === offset && current.via === via) return;
  const hit = hitAt(analysis, source, offset, container);
  const hover = hoverStore.get();
  if (!hover || hover.start !== hit.start || hover.end !== hit.end) {
    ownHover = { start: hit.start, end: hit.end };
    hoverStore.set(ownHover);
  }
  coverageStore.set(checksumCoverage(analysis, hit));
  inspectStore.set({ offset, via });
}

/** Stops inspecting: hides the tooltip and clears the hover and coverage this module set. */
export function endInspect(): void {
  inspectStore.set(null);
  coverageStore.set(null);
  const hover = hoverStore.get();
  if (hover && hover === ownHover) hoverStore.set(null);
  ownHover = null;
}

/** Hides the tooltip only (Escape), keeping the highlights. */
export function dismissTooltip(): void {
  inspectStore.set(null);
}
