/** What each pixel row of the overview stands for: its main byte kind, a batch start, the worst problem in it. */
import { KIND_CODE, locateByte, type InputWindows } from "../../core/view/byte-map.ts";
import type { Analysis } from "../../core/model/model.ts";

/** Per-row facts of an overview `rows` pixels tall. */
export interface OverviewRows {
  readonly rows: number;
  /** Kind code (index in ALL_BYTE_KINDS) seen most among the row's samples. */
  readonly kinds: Uint8Array;
  /** 1 where a batch starts inside the row. */
  readonly batchStarts: Uint8Array;
  /**
   * 1 where a batch tick is drawn: every batch start, thinned where they lie closer than TICK_GAP rows so that
   * ticks stay apart at the strip's resolution (a 1 GiB segment's 7,000 batches would otherwise tick every row,
   * a solid black column hiding the kinds).
   */
  readonly ticks: Uint8Array;
  /** Worst severity whose bytes touch the row: 0 none, 1 info, 2 warning, 3 error. */
  readonly problems: Uint8Array;
}

/** Samples read per row to pick its kind: enough to see headers where they are a large share. */
const SAMPLES = 8;
const SEVERITY = { info: 1, warning: 2, error: 3 } as const;

/** Fewest pixel rows from one batch tick to the next. */
export const TICK_GAP = 3;

/** The rows to tick: each row with a batch start, from the top, unless a tick lies fewer than TICK_GAP rows above it. */
export function thinTicks(batchStarts: Uint8Array): Uint8Array {
  const ticks = new Uint8Array(batchStarts.length);
  let last = -TICK_GAP;
  for (let r = 0; r < batchStarts.length; r++) {
    if (!batchStarts[r] || r - last < TICK_GAP) continue;
    ticks[r] = 1;
    last = r;
  }
  return ticks;
}

/** The row (0..rows-1) holding byte `offset` of an input of `size` bytes. */
export function rowOfByte(offset: number, size: number, rows: number): number {
  if (size <= 0 || rows <= 0) return 0;
  return Math.min(rows - 1, Math.max(0, Math.floor((offset / size) * rows)));
}

/**
 * Builds the overview rows of an analysed input. The kinds come from the model; `bytes` need only
 * hold kindNeeds(0, analysis.size) (truncated frames' headers), so an input read on demand passes those few windows.
 */
export function overviewRows(analysis: Analysis, bytes: InputWindows, rows: number): OverviewRows {
  const size = analysis.size;
  const kinds = new Uint8Array(rows);
  const batchStarts = new Uint8Array(rows);
  const problems = new Uint8Array(rows);
  if (size === 0 || rows === 0) return { rows, kinds, batchStarts, ticks: new Uint8Array(rows), problems };
  const votes = new Uint16Array(Object.keys(KIND_CODE).length);
  for (let r = 0; r < rows; r++) {
    const from = (r / rows) * size;
    const span = size / rows;
    votes.fill(0);
    let best = 0;
    for (let k = 0; k < SAMPLES; k++) {
      const at = Math.min(size - 1, Math.floor(from + ((k + 0.5) * span) / SAMPLES));
      const code = KIND_CODE[locateByte(analysis, bytes, at).kind];
      votes[code] = (votes[code] as number) + 1;
      if (votes[code] > (votes[best] as number)) best = code;
    }
    kinds[r] = best;
  }
  for (let i = 0; i < analysis.batches.length; i++) batchStarts[rowOfByte(analysis.batches.start(i), size, rows)] = 1;
  for (const d of analysis.diagnostics) {
    const level = SEVERITY[d.severity];
    const last = rowOfByte(Math.max(d.start, d.end - 1), size, rows);
    for (let r = rowOfByte(d.start, size, rows); r <= last; r++) if ((problems[r] as number) < level) problems[r] = level;
  }
  return { rows, kinds, batchStarts, ticks: thinTicks(batchStarts), problems };
}
