/**
 * Legacy messages (`iggy message poll --output-file`): decode the 64-byte headers, group runs with one
 * timestamp as the origin batch, rebuild frames where the run starts its batch and check the stored
 * checksums (containers.md "Legacy messages"); convert to a stamped segment through the encoder.
 */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { LEGACY_HEADER_FIELDS, LEGACY_HEADER_SIZE } from "../../format/containers/legacy.ts";
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { concat, encodeBatch } from "../walk/encode.ts";
import { Findings, fieldAt, placeFields } from "./merge.ts";
import type { ContainerField, LegacyDecode, LegacyMessage, LegacyRun } from "./types.ts";

type Check = LegacyMessage["check"];

const span = (first: number, n: number): string => (n === 1 ? `message ${first}` : `messages ${first}..${first + n - 1}`);

/** The decode of a legacy dump: messages, runs, findings. */
export interface LegacyParts extends LegacyDecode {
  readonly findings: Diagnostic[];
}

/** The fields of one whole legacy message at `start`: the 64-byte header, then payload and user headers. */
export function legacyFields(bytes: Uint8Array, start: number, payloadLength: number, end: number): ContainerField[] {
  const fields = placeFields(bytes, LEGACY_HEADER_FIELDS, start);
  const payloadEnd = start + LEGACY_HEADER_SIZE + payloadLength;
  if (payloadLength > 0) fields.push(fieldAt(bytes, "legacy.payload", "payload", start + LEGACY_HEADER_SIZE, payloadEnd, `${payloadLength} bytes`));
  if (end > payloadEnd) fields.push(fieldAt(bytes, "legacy.user_headers", "user_headers", payloadEnd, end, `${end - payloadEnd} bytes`));
  return fields;
}

/** Rebuilds a frame of the batch the run came from: deltas relative to the run's first offset and earliest origin. */
function rebuiltChecksum(xxh: Xxh3, bytes: Uint8Array, m: LegacyMessage, baseOffset: bigint, origin: bigint): bigint | null {
  const od = m.offset - baseOffset;
  const td = m.originTimestamp - origin;
  if (od < 0n || od > 0xffff_ffffn || td < 0n || td > 0xffff_ffffn) return null;
  const body = bytes.subarray(m.start + LEGACY_HEADER_SIZE, m.end);
  const frame = new Uint8Array(FRAME_HEADER_SIZE - 8 + body.length);
  frame.set(bytes.subarray(m.start + 8, m.start + 24), 0);
  const w = new ByteWriter(frame);
  w.u32(16, Number(od));
  w.u32(20, Number(td));
  w.u32(24, m.userHeadersLength);
  w.u32(28, m.payloadLength);
  frame.set(body, FRAME_HEADER_SIZE - 8);
  return xxh.hash(frame);
}

/** Decodes a legacy dump; never throws. */
export function decodeLegacy(xxh: Xxh3, bytes: Uint8Array): LegacyParts {
  const f = new Findings();
  const r = new ByteReader(bytes);
  const raw: Omit<LegacyMessage, "check">[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const i = raw.length;
    if (bytes.length - pos < LEGACY_HEADER_SIZE) {
      f.add("legacy-truncated", pos, bytes.length, `message ${i}: ${bytes.length - pos} bytes left, a legacy header needs 64`);
      break;
    }
    const userHeadersLength = r.u32(pos + 48);
    const payloadLength = r.u32(pos + 52);
    if (r.u64(pos + 56) !== 0n) f.add("legacy-reserved-nonzero", pos + 56, pos + 64, `message ${i}: reserved bytes 56..64 are not zero`);
    const end = pos + LEGACY_HEADER_SIZE + payloadLength + userHeadersLength;
    if (end > bytes.length) {
      f.add(
        "legacy-truncated",
        pos,
        bytes.length,
        `message ${i}: needs ${end - pos} bytes (payload ${payloadLength}, user headers ${userHeadersLength}), ${bytes.length - pos} are left`,
      );
      break;
    }
    raw.push({
      index: i,
      start: pos,
      end,
      checksum: r.u64(pos),
      id: r.u128(pos + 8),
      offset: r.u64(pos + 24),
      timestamp: r.u64(pos + 32),
      originTimestamp: r.u64(pos + 40),
      userHeadersLength,
      payloadLength,
    });
    pos = end;
  }
  const checks: Check[] = new Array<Check>(raw.length).fill("unverifiable");
  const runs: LegacyRun[] = [];
  const msgs = raw as LegacyMessage[];
  // The batch origin a message would have as its batch's first frame: the earliest origin after it in its group, or its own.
  const headOrigin = (k: number, first: number, suffixMin: bigint[]): bigint | null => {
    const m = msgs[k]!;
    for (const origin of [suffixMin[k - first]!, m.originTimestamp]) {
      if (rebuiltChecksum(xxh, bytes, m, m.offset, origin) === m.checksum) return origin;
    }
    return null;
  };
  for (let first = 0; first < msgs.length;) {
    let groupEnd = first + 1;
    while (groupEnd < msgs.length && msgs[groupEnd]!.timestamp === msgs[first]!.timestamp) groupEnd++;
    const suffixMin: bigint[] = new Array<bigint>(groupEnd - first);
    for (let k = groupEnd - 1, min = msgs[k]!.originTimestamp; k >= first; k--) {
      if (msgs[k]!.originTimestamp < min) min = msgs[k]!.originTimestamp;
      suffixMin[k - first] = min;
    }
    // One group (one timestamp) is one batch, or several stamped in the same microsecond: a message that
    // rebuilds as a batch's first frame starts a new run, so a second batch is never called a mismatch.
    for (let k = first; k < groupEnd;) {
      const origin = headOrigin(k, first, suffixMin);
      let j = k + 1;
      let note: string;
      if (origin === null) {
        while (j < groupEnd && headOrigin(j, first, suffixMin) === null) j++;
        note = `${span(k, j - k)} (timestamp ${msgs[k]!.timestamp}) cannot be checked: the stored checksums are frame checksums of the batch they were polled from, and this run does not start that batch (its first message does not rebuild with offset and timestamp delta 0), so the deltas are unknown`;
        f.add("legacy-unverifiable", msgs[k]!.start, msgs[j - 1]!.end, note);
      } else {
        const base = msgs[k]!.offset;
        checks[k] = "verified";
        let bad = 0;
        for (; j < groupEnd; j++) {
          const m = msgs[j]!;
          if (rebuiltChecksum(xxh, bytes, m, base, origin) === m.checksum) {
            checks[j] = "verified";
            continue;
          }
          if (headOrigin(j, first, suffixMin) !== null) break;
          checks[j] = "mismatch";
          bad++;
          f.add(
            "frame-checksum-mismatch",
            m.start,
            m.start + 8,
            `message ${j}: stored checksum differs from its rebuilt frame's (batch stamped at ${m.timestamp}, offset delta ${m.offset - base})`,
          );
        }
        const n = j - k;
        note = `${span(k, n)} (timestamp ${msgs[k]!.timestamp}) rebuild${n === 1 ? "s" : ""} as one batch from offset ${base}: ${n - bad} of ${n} checksums verified`;
      }
      let earliest = msgs[k]!.originTimestamp;
      for (let x = k; x < j; x++) if (msgs[x]!.originTimestamp < earliest) earliest = msgs[x]!.originTimestamp;
      runs.push({ first: k, count: j - k, timestamp: msgs[k]!.timestamp, originTimestamp: origin ?? earliest, checkable: origin !== null, note });
      k = j;
    }
    first = groupEnd;
  }
  const messages = raw.map((m, i) => ({ ...m, check: checks[i] as Check }));
  return { messages, runs, findings: f.list };
}

/** Converts a legacy dump to a valid stamped segment: one batch per run, chained offsets, checksums through the encoder. */
export function legacyToSegment(xxh: Xxh3, bytes: Uint8Array, decoded: LegacyDecode, partitionId = 0n): Uint8Array {
  const out: Uint8Array[] = [];
  for (const run of decoded.runs) {
    const ms = decoded.messages.slice(run.first, run.first + run.count);
    const base = ms[0]!.offset;
    const origin = run.originTimestamp;
    out.push(
      encodeBatch(xxh, {
        partitionId,
        baseOffset: base,
        baseTimestamp: run.timestamp === 0n ? 1n : run.timestamp,
        originTimestamp: origin,
        messages: ms.map((m) => ({
          id: m.id,
          payload: bytes.slice(m.start + LEGACY_HEADER_SIZE, m.start + LEGACY_HEADER_SIZE + m.payloadLength),
          userHeaders: bytes.slice(m.start + LEGACY_HEADER_SIZE + m.payloadLength, m.end),
          offsetDelta: Number(m.offset - base),
          timestampDelta: Number(m.originTimestamp - origin),
        })),
      }),
    );
  }
  return concat(out);
}
