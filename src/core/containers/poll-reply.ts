/** A poll reply body: the 16-byte prefix, then batch records; also the body of a consensus reply. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { POLL_PREFIX_FIELDS, POLL_PREFIX_SIZE, POLL_RESYNC_SENTINEL } from "../../format/containers/poll-reply.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import { plural } from "../../format/values.ts";
import { analyzeWith } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { Findings, emptyAnalysis, placeFields } from "./merge.ts";
import type { ContainerField } from "./types.ts";

/** The decode of a poll reply body at `base`: its prefix fields, the records' analysis (not yet merged) and the findings. */
export interface PollReplyParts {
  readonly fields: ContainerField[];
  readonly analysis: Analysis;
  readonly findings: Diagnostic[];
  readonly sentinel: boolean;
}

/** Decodes the poll reply body that starts at `base`; `keepFrames: false` leaves the frame columns out. */
export function decodePollReply(xxh: Xxh3, bytes: Uint8Array, base: number, keepFrames = true): PollReplyParts {
  const f = new Findings();
  const fields = placeFields(bytes, POLL_PREFIX_FIELDS, base);
  if (bytes.length - base < POLL_PREFIX_SIZE) {
    f.add("poll-count-mismatch", base, bytes.length, `the poll reply prefix needs 16 bytes, ${bytes.length - base} are there: no count to check`);
    return { fields, analysis: emptyAnalysis(bytes.length), findings: f.list, sentinel: false };
  }
  const r = new ByteReader(bytes);
  const partitionId = r.u32(base);
  const count = r.u32(base + 12);
  const sentinel = bytes.length - base === POLL_PREFIX_SIZE && partitionId === POLL_RESYNC_SENTINEL;
  // Stamped records may be sliced tails, whose frames keep their original timestamp deltas (containers.md "Poll reply body").
  const analysis = analyzeWith(xxh, bytes, {
    startOffset: base + POLL_PREFIX_SIZE,
    keepFrames,
    dropFinding: (code, stamped) => stamped && code === "origin-not-earliest",
  });
  let sum = 0;
  for (const b of analysis.batches) {
    if (!b.header) continue;
    sum += b.header.messageCount;
    if (b.header.partitionId !== BigInt(partitionId)) {
      f.add("poll-partition-mismatch", b.start, b.start + 8, `batch ${b.index}: partition_id ${b.header.partitionId}, the prefix says ${partitionId}`, b.index);
    }
  }
  if (!sentinel && sum !== count) {
    f.add("poll-count-mismatch", base + 12, base + 16, `count ${count}, the records hold ${plural(sum, "message")}`);
  }
  return { fields, analysis, findings: f.list, sentinel };
}
