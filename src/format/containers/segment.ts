/**
 * A segment (`.log`) has no bytes of its own: stamped batches back to back. What it adds are facts
 * about the file, listed here like fields so the docs and the report describe them from one place.
 * containers.md "Segment file"; upstream core/server/src/segment_recovery.rs, core/configs/src/common/system.rs:229-263.
 */

/** One fact about a segment file: a name, how it is found, what the spec says. */
export interface SegmentFact {
  readonly name: string;
  readonly jsonKey: string;
  readonly description: string;
}

/** The segment's per-file facts, in the order the report lists them. */
export const SEGMENT_FACTS: readonly SegmentFact[] = [
  {
    name: "start_offset",
    jsonKey: "startOffset",
    description: "The file name's 20 digits (`00000000000000001000.log`); the first batch's base_offset must equal it.",
  },
  { name: "size", jsonKey: "size", description: "Bytes in the file; segments close at about 1 GiB (one whole batch past the limit at most)." },
  { name: "first_offset", jsonKey: "firstOffset", description: "base_offset of the first batch." },
  { name: "last_offset", jsonKey: "lastOffset", description: "Offset of the last message recovery keeps: the next segment must start at last_offset + 1." },
  {
    name: "recovery",
    jsonKey: "recovery",
    description:
      "What boot recovery keeps: with an index from the last whole entry (headers only), else a walk from byte 0 checking the offset chain and checksums.",
  },
];

/** The start offset a segment's or index's file name gives (`{start:020}.log`), or null for another name. */
export function startOffsetOfName(name: string): bigint | null {
  const m = /(?:^|[\\/])(\d{1,20})\.(?:log|index)$/.exec(name);
  if (!m) return null;
  const n = BigInt(m[1] as string);
  return n <= 0xffff_ffff_ffff_ffffn ? n : null;
}
