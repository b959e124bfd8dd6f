/**
 * What each visible row shows: the kind of every byte, frame and batch starts, and the worst
 * diagnostic over each byte. Rows are computed a window at a time (one fillKinds call and one
 * RangeIndex query per window of missing rows) and cached, so a row's data object stays the same
 * while it is on screen and its memoized component does not re-render on scroll.
 */
import { fillKinds, KIND_CODE } from "../../core/byte-map.ts";
import type { Analysis } from "../../core/model.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { partitionPoint } from "../../lib/binary-search.ts";
import type { Diagnostic, Severity } from "../../format/diagnostics.ts";
import { RangeIndex } from "../../lib/range-index.ts";
import { BYTES_PER_ROW } from "./layout.ts";

/** Edge codes: where a unit starts. */
export const Edge = { none: 0, frame: 1, batch: 2 } as const;

/** Problem codes, ordered so the worst wins. */
export const Problem = { none: 0, info: 1, warning: 2, error: 3 } as const;

const PROBLEM_OF: Record<Severity, number> = { info: Problem.info, warning: Problem.warning, error: Problem.error };

/** Severity name of a problem code, or undefined for none. */
export const PROBLEM_NAME: readonly (Severity | undefined)[] = [undefined, "info", "warning", "error"];

/** One row of the hex map. */
export interface RowData {
  readonly row: number;
  /** Offset of the row's first byte. */
  readonly start: number;
  /** Bytes in the row: 16, fewer on the last row. */
  readonly length: number;
  /** Kind code (index into ALL_BYTE_KINDS) of each byte. */
  readonly kinds: Uint8Array;
  /** Edge code of each byte. */
  readonly edges: Uint8Array;
  /** Problem code of each byte. */
  readonly problems: Uint8Array;
  /** Worst edge in the row, for the offset column. */
  readonly rowEdge: number;
}

/** A cache of row data for one analysed input. */
export class RowCache {
  /** Diagnostics by start, for overlap queries (also used by the tooltip). */
  readonly diagnostics: RangeIndex<Diagnostic>;
  readonly rows: number;
  private readonly cache = new Map<number, RowData>();

  constructor(
    private readonly analysis: Analysis,
    private readonly bytes: Uint8Array,
    private readonly capacity = 4096,
    /** The container's own fields in byte order: their kinds overlay the batch map. */
    private readonly container: readonly ContainerField[] = [],
  ) {
    this.diagnostics = new RangeIndex(analysis.diagnostics);
    this.rows = Math.ceil(bytes.length / BYTES_PER_ROW);
  }

  /** Data of rows [first, end), computing the missing ones in one pass. */
  window(first: number, end: number): RowData[] {
    const lo = Math.max(0, first);
    const hi = Math.min(this.rows, end);
    let missFirst = -1;
    let missEnd = -1;
    for (let r = lo; r < hi; r++) {
      if (!this.cache.has(r)) {
        if (missFirst < 0) missFirst = r;
        missEnd = r + 1;
      }
    }
    if (missFirst >= 0) this.compute(missFirst, missEnd);
    const out: RowData[] = [];
    for (let r = lo; r < hi; r++) {
      const data = this.cache.get(r) as RowData;
      // Refresh recency: Map keeps insertion order, the oldest entries are evicted first.
      this.cache.delete(r);
      this.cache.set(r, data);
      out.push(data);
    }
    this.evict();
    return out;
  }

  private compute(firstRow: number, endRow: number): void {
    const start = firstRow * BYTES_PER_ROW;
    const end = Math.min(this.bytes.length, endRow * BYTES_PER_ROW);
    const n = end - start;
    const kinds = new Uint8Array(n);
    const edges = new Uint8Array(n);
    const problems = new Uint8Array(n);
    fillKinds(this.analysis, this.bytes, start, end, kinds, edges);
    this.overlayContainer(start, end, kinds);
    for (let i = 0; i < n; i++) {
      if (edges[i]) edges[i] = kinds[i] === KIND_CODE["batch.partition_id"] ? Edge.batch : Edge.frame;
    }
    for (const d of this.diagnostics.overlapping(start, end)) {
      const p = PROBLEM_OF[d.severity];
      // An empty range still marks the byte it points at.
      const dEnd = Math.max(d.end, d.start + 1);
      for (let k = Math.max(d.start, start); k < Math.min(dEnd, end); k++) {
        if ((problems[k - start] as number) < p) problems[k - start] = p;
      }
    }
    for (let r = firstRow; r < endRow; r++) {
      if (this.cache.has(r)) continue;
      const a = (r - firstRow) * BYTES_PER_ROW;
      const b = Math.min(n, a + BYTES_PER_ROW);
      const rowEdges = edges.subarray(a, b);
      let rowEdge = 0;
      for (const e of rowEdges) if (e > rowEdge) rowEdge = e;
      this.cache.set(r, {
        row: r,
        start: start + a,
        length: b - a,
        kinds: kinds.subarray(a, b),
        edges: rowEdges,
        problems: problems.subarray(a, b),
        rowEdge,
      });
    }
  }

  private overlayContainer(start: number, end: number, kinds: Uint8Array): void {
    const fields = this.container;
    for (
      let i = Math.max(
        0,
        partitionPoint(0, fields.length, (k) => (fields[k] as ContainerField).end <= start),
      );
      i < fields.length;
      i++
    ) {
      const f = fields[i] as ContainerField;
      if (f.start >= end) break;
      kinds.fill(KIND_CODE[f.kind], Math.max(f.start, start) - start, Math.min(f.end, end) - start);
    }
  }

  private evict(): void {
    for (const key of this.cache.keys()) {
      if (this.cache.size <= this.capacity) break;
      this.cache.delete(key);
    }
  }
}
