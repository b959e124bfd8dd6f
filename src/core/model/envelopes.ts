/**
 * Where batches start in a capture: right away (a segment file, a batch), after a poll reply's
 * 16-byte prefix, or after a replicated record's 256-byte consensus header (batch-format.md, "envelopes").
 * The skipped bytes stay in the input and show as unattributed; offsets stay absolute.
 */
import { ByteReader } from "../../format/reader.ts";

/** A known prefix before the first batch. */
export interface Envelope {
  readonly id: "none" | "poll-reply" | "replicated-record";
  readonly label: string;
  /** Bytes before the first batch. */
  readonly skip: number;
  readonly description: string;
}

/** The envelopes the explorer can step over, "none" first. */
export const ENVELOPES: readonly Envelope[] = [
  { id: "none", label: "Batches", skip: 0, description: "a batch, or batches back to back (a segment file)" },
  { id: "poll-reply", label: "Poll reply", skip: 16, description: "[partition_id u32][current_offset u64][count u32], then batches" },
  { id: "replicated-record", label: "Replicated record", skip: 256, description: "a 256-byte consensus header, then the stamped batch" },
];

/** The envelope with this id, or undefined. */
export function envelopeById(id: string): Envelope | undefined {
  return ENVELOPES.find((e) => e.id === id);
}

/** The poll reply prefix's fields, when the input is long enough to hold them. */
export function decodePollPrefix(bytes: Uint8Array): { partitionId: number; currentOffset: bigint; count: number } | null {
  if (bytes.length < 16) return null;
  const r = new ByteReader(bytes);
  return { partitionId: r.u32(0), currentOffset: r.u64(4), count: r.u32(12) };
}
