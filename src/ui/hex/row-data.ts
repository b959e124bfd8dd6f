/**
 * What each visible row shows: its bytes, the kind of every byte, frame and batch starts, and the
 * worst diagnostic over each byte. Rows are computed a window at a time (one fillKinds call and one
 * RangeIndex query per window of missing rows) and cached, so a row's data object stays the same
 * while it is on screen and its memoized component does not re-render on scroll. An input read on
 * demand gives each row a 16-byte copy of its bytes once they are at hand (never a page of the
 * file, which a row would keep alive); until then the row has none and says which bytes to load.
 */
import { fillKinds, kindNeeds, KIND_CODE } from "../../core/view/byte-map.ts";
import type { Analysis } from "../../core/model/model.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { partitionPoint } from "../../lib/binary-search.ts";
import type { Diagnostic, Severity } from "../../format/diagnostics.ts";
import { memoryBytes, wholeWindow, type ByteWindow, type InputBytes } from "../../lib/input-bytes.ts";
import { RangeIndex } from "../../lib/range-index.ts";
import { BYTES_PER_ROW } from "./layout.ts";
import { peekRanges, type Range } from "../common/input-windows.ts";

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
  /** The row's bytes (byte i of the input is `bytes.bytes[i - bytes.start]`), or null while they are being read. */
  readonly bytes: ByteWindow | null;
  /** False while a truncated frame's header the kinds depend on is being read (its body shows as payload meanwhile). */
  readonly exact: boolean;
}

/** A cache of row data for one analysed input. */
export class RowCache {
  /** Diagnostics by start, for overlap queries (also used by the tooltip). */
  readonly diagnostics: RangeIndex<Diagnostic>;
  readonly rows: number;
  private readonly cache = new Map<number, RowData>();
  private readonly source: InputBytes;
  /** The whole input as one window shared by every row, when it is in memory. */
  private readonly whole: ByteWindow | null;
  private lastMissing: Range[] = [];

  constructor(
    private readonly analysis: Analysis,
    bytes: Uint8Array | InputBytes,
    private readonly capacity = 4096,
    /** The container's own fields in byte order: their kinds overlay the batch map. */
    private readonly container: readonly ContainerField[] = [],
  ) {
    this.source = bytes instanceof Uint8Array ? memoryBytes(bytes) : bytes;
    this.whole = this.source.whole ? wholeWindow(this.source.whole) : null;
    this.diagnostics = new RangeIndex(analysis.diagnostics);
    this.rows = Math.ceil(this.source.size / BYTES_PER_ROW);
  }

  /** Data of rows [first, end), computing the missing ones in one pass and taking the bytes at hand. */
  window(first: number, end: number): RowData[] {
    const lo = Math.max(0, first);
    const hi = Math.min(this.rows, end);
    this.lastMissing = [];
    let missFirst = -1;
    let missEnd = -1;
    let bytesFirst = -1;
    for (let r = lo; r < hi; r++) {
      const data = this.cache.get(r);
      if (!data || !data.exact) {
        if (missFirst < 0) missFirst = r;
        missEnd = r + 1;
      }
      if (!data?.bytes && bytesFirst < 0) bytesFirst = r;
    }
    if (missFirst >= 0) this.compute(missFirst, missEnd);
    if (bytesFirst >= 0) this.takeBytes(bytesFirst, hi);
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

  /** The byte ranges the last window() could not show yet: load them, then ask again when they land. */
  missing(): readonly Range[] {
    return this.lastMissing;
  }

  // Rows [firstRow, endRow) without bytes take a copy of theirs when one peek holds them all.
  private takeBytes(firstRow: number, endRow: number): void {
    const start = firstRow * BYTES_PER_ROW;
    const end = Math.min(this.source.size, endRow * BYTES_PER_ROW);
    const got = this.source.peek(start, end);
    if (!got) {
      this.lastMissing.push({ start, end });
      return;
    }
    for (let r = firstRow; r < endRow; r++) {
      const data = this.cache.get(r);
      if (!data || data.bytes) continue;
      const from = data.start - start;
      this.cache.set(r, { ...data, bytes: { start: data.start, bytes: got.bytes.slice(from, from + data.length) } });
    }
  }

  private compute(firstRow: number, endRow: number): void {
    const start = firstRow * BYTES_PER_ROW;
    const end = Math.min(this.source.size, endRow * BYTES_PER_ROW);
    const n = end - start;
    const kinds = new Uint8Array(n);
    const edges = new Uint8Array(n);
    const problems = new Uint8Array(n);
    const needed = peekRanges(this.source, kindNeeds(this.analysis, start, end));
    for (const m of needed.missing) this.lastMissing.push(m);
    const exact = needed.missing.length === 0;
    fillKinds(this.analysis, needed.windows, start, end, kinds, edges);
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
      const before = this.cache.get(r);
      if (before?.exact) continue;
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
        bytes: this.whole ?? before?.bytes ?? null,
        exact,
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
