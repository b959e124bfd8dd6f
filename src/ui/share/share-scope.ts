/**
 * What a share link carries: the whole input, the batches holding the selection (a batch, a frame,
 * a byte range), or the batch around the first problem and, smaller, that problem's frame with its batch
 * header or its bytes (core/report/share-fit.ts: the smallest always fits a GitHub issue); which of them a link
 * offers by default; and the cut-out bytes with the selection re-based onto them. No DOM: unit-tested directly.
 */
import { batchAt } from "../../core/view/frame-view.ts";
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import { hexOffset } from "../../format/values.ts";
import { frameEnd, frameIndexInBatch } from "../../core/model/frame-columns.ts";
import { PROBLEM_BYTES_CAP, problemScopes } from "../../core/report/share-fit.ts";

/** One way to share: its stable id, a label for the menu, and the bytes [start, end) of the input it takes. */
export interface ShareScope {
  readonly id: "whole" | "selection" | "first-problem" | "first-batch" | "problem-frame-with-header" | "problem-bytes" | "first-bytes";
  readonly label: string;
  readonly start: number;
  readonly end: number;
  /** How a link names the part it carries, e.g. "batch 2"; empty for the whole input. */
  readonly partName: string;
  /** The range the opened page selects, absolute in the input; null for none. */
  readonly select: { readonly start: number; readonly end: number } | null;
}

/** The selection as the share panel sees it. */
export interface ScopeSelection {
  readonly start: number;
  readonly end: number;
  readonly batch: number;
  /** Index in the frame columns, or -1. */
  readonly frame: number;
}

/** Inputs above this are never compressed whole on the page's thread (Chromium caps URLs at 2 MB anyway). */
export const WHOLE_INPUT_SHARE_LIMIT = 4 << 20;
/** Links above this are too long for most trackers: the default becomes a part of the input. */
export const LARGE_LINK_BYTES = 64 * 1024;

const hex = (n: number) => hexOffset(n, 0);

// The batches [first, last] overlapping [start, end), or null when the range touches no batch.
function batchesOver(analysis: Analysis, start: number, end: number): { first: number; last: number } | null {
  let first = batchAt(analysis, start);
  let last = batchAt(analysis, Math.max(start, end - 1));
  // A range that starts in an envelope (or ends past the walk) still takes the batches it reaches.
  if (first < 0) first = analysis.batches.findIndex((b) => b.end > start && b.start < end);
  for (let i = analysis.batches.length - 1; last < 0 && i >= 0; i--) {
    const b = analysis.batches.at(i)!;
    if (b.start < Math.max(end, start + 1) && b.end > start) last = i;
  }
  return first >= 0 && last >= first ? { first, last } : null;
}

function selectionLabel(analysis: Analysis, sel: ScopeSelection, first: number, last: number): string {
  const f = analysis.frames;
  const batches = first === last ? `batch ${first}` : `batches ${first}–${last}`;
  if (sel.frame >= 0 && sel.start === f.start[sel.frame] && sel.end === frameEnd(f, sel.frame))
    return `Selected frame ${frameIndexInBatch(analysis.batches, sel.frame)} (in ${batches})`;
  const b = analysis.batches.at(first);
  if (first === last && b && sel.start === b.start && sel.end === b.end) return `Selected batch ${first}`;
  return `Selected bytes ${hex(sel.start)}..${hex(Math.max(sel.end, sel.start + 1))} (in ${batches})`;
}

/** The ways this input can be shared, whole first; the whole input is left out past WHOLE_INPUT_SHARE_LIMIT. */
export function shareScopes(analysis: Analysis, selection: ScopeSelection | null): ShareScope[] {
  const scopes: ShareScope[] = [];
  const selected = selection ? { start: selection.start, end: Math.max(selection.end, selection.start + 1) } : null;
  if (analysis.size <= WHOLE_INPUT_SHARE_LIMIT)
    scopes.push({
      id: "whole",
      label: `Whole input (${analysis.size.toLocaleString("en-US")} bytes)`,
      start: 0,
      end: analysis.size,
      partName: "",
      select: selected,
    });
  if (selection && selected) {
    const over = batchesOver(analysis, selected.start, selected.end);
    if (over) {
      const from = analysis.batches.start(over.first);
      const to = analysis.batches.end(over.last);
      const partName = over.first === over.last ? `batch ${over.first}` : `batches ${over.first}–${over.last}`;
      scopes.push({ id: "selection", label: selectionLabel(analysis, selection, over.first, over.last), start: from, end: to, partName, select: selected });
    }
  }
  const problem = analysis.diagnostics.find((d) => d.batch !== null && analysis.batches.at(d.batch));
  if (problem) {
    const b = analysis.batches.at(problem.batch as number)!;
    scopes.push({
      id: "first-problem",
      label: `Batch ${b.index}, around the first problem (${problem.code} at ${hex(problem.start)})`,
      start: b.start,
      end: b.end,
      partName: `batch ${b.index}`,
      select: { start: problem.start, end: Math.max(problem.end, problem.start + 1) },
    });
    // Smaller parts around the same problem, for a batch too large for a tracker: its frame with the batch header, or its bytes.
    for (const s of problemScopes(analysis, problem))
      if ((s.id === "problem-frame-with-header" || s.id === "problem-bytes") && s.end - s.start < b.end - b.start)
        scopes.push({ id: s.id, label: `${s.label}, around the first problem`, start: s.start, end: s.end, partName: s.partName, select: s.select });
  } else if (analysis.batches.length > 0) {
    const b = analysis.batches.at(0) as BatchModel;
    scopes.push({ id: "first-batch", label: "Batch 0", start: b.start, end: b.end, partName: "batch 0", select: null });
    // A batch too large for a tracker: its first bytes (capped as the problem bytes are) always fit.
    if (b.end - b.start > PROBLEM_BYTES_CAP)
      scopes.push({
        id: "first-bytes",
        label: `Bytes 0x0..${hex(PROBLEM_BYTES_CAP)}`,
        start: 0,
        end: PROBLEM_BYTES_CAP,
        partName: `bytes 0x0..${hex(PROBLEM_BYTES_CAP)}`,
        select: null,
      });
  }
  return scopes;
}

/** The scope a link takes when the user has not chosen: the whole input when its link is short enough, else the selection, else the first problem's batch. */
export function defaultScope(scopes: readonly ShareScope[], wholeLinkLength: number | null): ShareScope | null {
  const whole = scopes.find((s) => s.id === "whole");
  if (whole && wholeLinkLength !== null && wholeLinkLength <= LARGE_LINK_BYTES) return whole;
  return scopes.find((s) => s.id === "selection") ?? scopes.find((s) => s.id === "first-problem" || s.id === "first-batch") ?? whole ?? null;
}

/** A scope's selection re-based onto the bytes it takes, or null when it selects nothing there. */
export function rebasedSelection(scope: ShareScope): { start: number; end: number } | null {
  const sel = scope.select;
  return sel && sel.start >= scope.start && sel.start < scope.end ? { start: sel.start - scope.start, end: Math.min(scope.end, sel.end) - scope.start } : null;
}

/** The bytes a scope takes and its selection re-based onto them. */
export function cutScope(bytes: Uint8Array, scope: ShareScope): { bytes: Uint8Array; selection: { start: number; end: number } | null } {
  return { bytes: scope.id === "whole" ? bytes : bytes.subarray(scope.start, scope.end), selection: rebasedSelection(scope) };
}
