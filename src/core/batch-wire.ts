/**
 * An Analysis as it crosses between threads: its batches packed into typed arrays that transfer without a
 * copy, not an array of objects the structured clone writes and reads one field at a time. A segment of
 * single-message batches holds a batch per ~400 bytes; 664,444 of them took 1.2 s on the page's main
 * thread just to be read from the message, and about as long in the worker to be written.
 */
import { BATCH_HEADER_LAYOUT, valueFields } from "../format/fields.ts";
import type { Analysis, BatchHeader, BatchModel, TruncatedFrame } from "./model.ts";

const HEADER_FIELDS = valueFields(BATCH_HEADER_LAYOUT);
// Every batch header value is a u64 or a number today; a field of another type needs a column kind here.
for (const f of HEADER_FIELDS) if (!["u8", "u16", "u32", "u64"].includes(f.type)) throw new Error(`batch-wire: no column for ${f.jsonKey} (${f.type})`);
const HEADER_KEYS: readonly string[] = HEADER_FIELDS.map((f) => f.jsonKey);
/** A header column, indexed by batch. */
type HeaderColumn = { [batch: number]: bigint | number };

/** Bits of PackedBatches.flags. */
const HAS_HEADER = 1;
const STAMPED = 2;
const HAS_CHECKSUM = 4;

/** The batches of an Analysis as columns, one entry per batch (truncated frames listed apart: few batches have one). */
export interface PackedBatches {
  readonly count: number;
  /** start, end of each batch, interleaved. */
  readonly positions: Float64Array;
  /** index, firstFrame, frameCount, errors, warnings, infos, flags of each batch, interleaved. */
  readonly words: Uint32Array;
  readonly computedChecksums: BigUint64Array;
  /** One column per batch header value field (format/fields.ts), in its order: BigUint64Array for u64, Uint32Array else. */
  readonly header: readonly (BigUint64Array | Uint32Array)[];
  readonly truncatedBatches: Uint32Array;
  readonly truncatedFrames: readonly TruncatedFrame[];
}

const WORDS = 7;

/** The batches packed (see PackedBatches). */
export function packBatches(batches: readonly BatchModel[]): PackedBatches {
  const n = batches.length;
  const positions = new Float64Array(2 * n);
  const words = new Uint32Array(WORDS * n);
  const computedChecksums = new BigUint64Array(n);
  const header = HEADER_FIELDS.map((f) => (f.type === "u64" ? new BigUint64Array(n) : new Uint32Array(n)));
  const truncatedBatches: number[] = [];
  const truncatedFrames: TruncatedFrame[] = [];
  for (let i = 0; i < n; i++) {
    const b = batches[i] as BatchModel;
    positions[2 * i] = b.start;
    positions[2 * i + 1] = b.end;
    const w = WORDS * i;
    words[w] = b.index;
    words[w + 1] = b.firstFrame;
    words[w + 2] = b.frameCount;
    words[w + 3] = b.errors;
    words[w + 4] = b.warnings;
    words[w + 5] = b.infos;
    words[w + 6] = (b.header ? HAS_HEADER : 0) | (b.stamped ? STAMPED : 0) | (b.computedChecksum !== null ? HAS_CHECKSUM : 0);
    if (b.computedChecksum !== null) computedChecksums[i] = b.computedChecksum;
    if (b.header) {
      const values = b.header as unknown as Readonly<Record<string, bigint | number>>;
      for (let k = 0; k < HEADER_KEYS.length; k++) (header[k] as HeaderColumn)[i] = values[HEADER_KEYS[k] as string] as bigint | number;
    }
    if (b.truncatedFrame) {
      truncatedBatches.push(i);
      truncatedFrames.push(b.truncatedFrame);
    }
  }
  return { count: n, positions, words, computedChecksums, header, truncatedBatches: Uint32Array.from(truncatedBatches), truncatedFrames };
}

/** The batches again, as objects of the one shape analyze() builds. */
export function unpackBatches(p: PackedBatches): BatchModel[] {
  const out = new Array<BatchModel>(p.count);
  const { positions, words, computedChecksums, header } = p;
  let t = 0;
  for (let i = 0; i < p.count; i++) {
    const w = WORDS * i;
    const flags = words[w + 6] as number;
    let decoded: BatchHeader | null = null;
    if (flags & HAS_HEADER) {
      const values: Record<string, bigint | number> = {};
      for (let k = 0; k < HEADER_KEYS.length; k++) values[HEADER_KEYS[k] as string] = (header[k] as HeaderColumn)[i] as bigint | number;
      decoded = values as unknown as BatchHeader;
    }
    const truncated = p.truncatedBatches[t] === i ? (p.truncatedFrames[t++] as TruncatedFrame) : null;
    // A literal, not a spread: one object shape for every batch, as the walks build them.
    out[i] = {
      index: words[w] as number,
      start: positions[2 * i] as number,
      end: positions[2 * i + 1] as number,
      header: decoded,
      stamped: (flags & STAMPED) !== 0,
      computedChecksum: flags & HAS_CHECKSUM ? (computedChecksums[i] as bigint) : null,
      firstFrame: words[w + 1] as number,
      frameCount: words[w + 2] as number,
      truncatedFrame: truncated,
      errors: words[w + 3] as number,
      warnings: words[w + 4] as number,
      infos: words[w + 5] as number,
    };
  }
  return out;
}

/** The typed arrays of packed batches, to transfer with the message. */
export function packedBatchBuffers(p: PackedBatches): ArrayBuffer[] {
  return [p.positions.buffer, p.words.buffer, p.computedChecksums.buffer, ...p.header.map((c) => c.buffer), p.truncatedBatches.buffer] as ArrayBuffer[];
}

/** An Analysis with its batches packed, as the worker posts it. */
export type WireAnalysis = Omit<Analysis, "batches"> & { readonly batches: PackedBatches };

/** The analysis as it crosses to another thread. */
export function analysisToWire(a: Analysis): WireAnalysis {
  return { ...a, batches: packBatches(a.batches) };
}

/** The analysis that crossed, whole again. */
export function analysisFromWire(w: WireAnalysis): Analysis {
  return { ...w, batches: unpackBatches(w.batches) };
}
