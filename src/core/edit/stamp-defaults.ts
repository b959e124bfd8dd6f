/**
 * What "Stamp as server" proposes for a batch, worked out from the input rather than fixed: a stamped
 * batch keeps its own partition and offset; a producer batch continues the stamped batch before it (or
 * precedes the one after it), as the server would have appended it.
 */
import type { Analysis } from "../model/model.ts";

/** Proposed partition_id and base_offset, and one sentence saying where they come from. */
export interface StampDefaults {
  readonly partitionId: bigint;
  readonly baseOffset: bigint;
  readonly why: string;
}

/** The stamp proposed for batch `index` of the analysis. */
export function stampDefaults(analysis: Analysis, index: number): StampDefaults {
  const b = analysis.batches.at(index);
  if (b?.header && b.stamped) return { partitionId: b.header.partitionId, baseOffset: b.header.baseOffset, why: `batch ${index}'s own stamp` };
  for (let i = index - 1; i >= 0; i--) {
    const p = analysis.batches.at(i);
    if (p?.header && p.stamped)
      return {
        partitionId: p.header.partitionId,
        baseOffset: p.header.baseOffset + BigInt(p.header.messageCount),
        why: `continues batch ${i} (partition ${p.header.partitionId}, offsets from ${p.header.baseOffset}, ${p.header.messageCount} messages)`,
      };
  }
  for (let i = index + 1; i < analysis.batches.length; i++) {
    const n = analysis.batches.at(i);
    const count = BigInt(b?.header?.messageCount ?? 0);
    if (n?.header && n.stamped && n.header.baseOffset >= count)
      return {
        partitionId: n.header.partitionId,
        baseOffset: n.header.baseOffset - count,
        why: `precedes batch ${i} (partition ${n.header.partitionId}, offset ${n.header.baseOffset})`,
      };
  }
  return { partitionId: 1n, baseOffset: 0n, why: "no stamped batch in the input: partition 1, offset 0" };
}
