/**
 * A batch of an input read on demand, for the Compare dialog: only that batch's bytes are read
 * from the File and analysed from their first byte (batch 0 of its own bytes), so comparing two
 * batches of a large file reads two batches, never the file.
 */
import { useEffect, useState } from "react";
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import type { BatchRef } from "../../core/view/diff.ts";
import type { Analysis } from "../../core/model/model.ts";
import type { InputBytes } from "../../lib/input-bytes.ts";

/** One batch read alone: its ref (batch 0 of its own bytes) and where its bytes start in the input. */
export interface ReadBatch {
  readonly ref: BatchRef;
  readonly base: number;
}

/** Reads batch `index` of an input read on demand and analyses it alone; rejects when the input has no such batch. */
export async function readBatch(xxh: Xxh3, source: InputBytes, analysis: Analysis, index: number): Promise<ReadBatch> {
  const b = analysis.batches.at(index);
  if (!b) throw new Error(`there is no batch ${index}`);
  // A copy: the page cache may drop the pages it came from while the dialog still shows it.
  const bytes = (await source.load(b.start, b.end)).bytes.slice();
  return { ref: { bytes, analysis: analyzeWith(xxh, bytes), batch: 0 }, base: b.start };
}

/** What the dialog holds for one batch of the current input read on demand: read, still reading, or why it could not be. */
export type ReadState = ReadBatch | { readonly error: string } | null;

/**
 * The batches `wanted` of `source` (read on demand; null: an input in memory, nothing read), each
 * read once while the dialog is open; the map answers for the batches read so far.
 */
export function useReadBatches(
  xxh: Xxh3 | null,
  source: InputBytes | null,
  analysis: Analysis | null,
  wanted: readonly number[],
): ReadonlyMap<number, ReadState> {
  const [read, setRead] = useState<{ of: InputBytes | null; batches: ReadonlyMap<number, ReadState> }>({ of: null, batches: new Map() });
  const key = wanted.join(",");
  useEffect(() => {
    if (!xxh || !source || !analysis) return;
    let live = true;
    const known = read.of === source ? read.batches : new Map<number, ReadState>();
    for (const index of new Set(wanted)) {
      if (known.has(index)) continue;
      readBatch(xxh, source, analysis, index).then(
        (r) => live && setRead((s) => ({ of: source, batches: new Map(s.of === source ? s.batches : []).set(index, r) })),
        (e: Error) => live && setRead((s) => ({ of: source, batches: new Map(s.of === source ? s.batches : []).set(index, { error: e.message }) })),
      );
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [xxh, source, analysis, key]);
  return read.of === source ? read.batches : new Map();
}
