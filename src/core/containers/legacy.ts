/**
 * Legacy messages (`iggy message poll --output-file`): decode the 64-byte headers, group runs with one
 * timestamp as the origin batch, rebuild frames where the run starts its batch and check the stored
 * checksums (containers.md "Legacy messages"); convert to a stamped segment through the encoder.
 */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { LEGACY_HEADER_FIELDS, LEGACY_HEADER_SIZE } from "../../format/containers/legacy.ts";
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { concat, encodeBatch } from "../encode.ts";
import { Findings, fieldAt, placeFields } from "./merge.ts";
import type { ContainerField, LegacyDecode, LegacyMessage, LegacyRun } from "./types.ts";

type Check = LegacyMessage["check"];

/** The decode of a legacy dump: messages, runs, every field with its range, findings. */
export interface LegacyParts extends LegacyDecode {
  readonly fields: ContainerField[];
  readonly findings: Diagnostic[];
}

/** True when 64-byte headers tile [0, length) exactly with zero reserved bytes: auto-detect's test. */
export function legacyTiles(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  while (pos < bytes.length) {
    if (bytes.length - pos < LEGACY_HEADER_SIZE || view.getBigUint64(pos + 56, true) !== 0n) return false;
    pos += LEGACY_HEADER_SIZE + view.getUint32(pos + 48, true) + view.getUint32(pos + 52, true);
  }
  return pos === bytes.length && bytes.length > 0;
}

/** Rebuilds a frame of the batch the run came from: deltas relative to the run's first offset and earliest origin. */
function rebuiltChecksum(xxh: Xxh3, bytes: Uint8Array, m: LegacyMessage, baseOffset: bigint, origin: bigint): bigint | null {
  const od = m.offset - baseOffset;
  const td = m.originTimestamp - origin;
  if (od < 0n || od > 0xffff_ffffn || td < 0n || td > 0xffff_ffffn) return null;
  const body = bytes.subarray(m.start + LEGACY_HEADER_SIZE, m.end);
  const frame = new Uint8Array(FRAME_HEADER_SIZE - 8 + body.length);
  frame.set(bytes.subarray(m.start + 8, m.start + 24), 0);
  const v = new DataView(frame.buffer);
  v.setUint32(16, Number(od), true);
  v.setUint32(20, Number(td), true);
  v.setUint32(24, m.userHeadersLength, true);
  v.setUint32(28, m.payloadLength, true);
  frame.set(body, FRAME_HEADER_SIZE - 8);
  return xxh.hash(frame);
}

/** Decodes a legacy dump; never throws. */
export function decodeLegacy(xxh: Xxh3, bytes: Uint8Array): LegacyParts {
  const f = new Findings();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const raw: Omit<LegacyMessage, "check">[] = [];
  const fields: ContainerField[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const i = raw.length;
    if (bytes.length - pos < LEGACY_HEADER_SIZE) {
      f.add("legacy-truncated", pos, bytes.length, `message ${i}: ${bytes.length - pos} bytes left, a legacy header needs 64`);
      fields.push(...placeFields(bytes, LEGACY_HEADER_FIELDS, pos));
      break;
    }
    fields.push(...placeFields(bytes, LEGACY_HEADER_FIELDS, pos));
    const userHeadersLength = view.getUint32(pos + 48, true);
    const payloadLength = view.getUint32(pos + 52, true);
    if (view.getBigUint64(pos + 56, true) !== 0n) f.add("legacy-reserved-nonzero", pos + 56, pos + 64, `message ${i}: reserved bytes 56..64 are not zero`);
    const end = pos + LEGACY_HEADER_SIZE + payloadLength + userHeadersLength;
    if (end > bytes.length) {
      f.add("legacy-truncated", pos, bytes.length, `message ${i}: needs ${end - pos} bytes (payload ${payloadLength}, user headers ${userHeadersLength}), ${bytes.length - pos} are left`);
      break;
    }
    const payloadEnd = pos + LEGACY_HEADER_SIZE + payloadLength;
    if (payloadLength > 0) fields.push(fieldAt(bytes, "legacy.payload", "payload", pos + LEGACY_HEADER_SIZE, payloadEnd, `${payloadLength} bytes`));
    if (userHeadersLength > 0) fields.push(fieldAt(bytes, "legacy.user_headers", "user_headers", payloadEnd, end, `${userHeadersLength} bytes`));
    raw.push({
      index: i, start: pos, end, checksum: view.getBigUint64(pos, true),
      id: (view.getBigUint64(pos + 16, true) << 64n) | view.getBigUint64(pos + 8, true),
      offset: view.getBigUint64(pos + 24, true), timestamp: view.getBigUint64(pos + 32, true), originTimestamp: view.getBigUint64(pos + 40, true),
      userHeadersLength, payloadLength,
    });
    pos = end;
  }
  const checks: Check[] = new Array<Check>(raw.length).fill("unverifiable");
  const runs: LegacyRun[] = [];
  for (let first = 0; first < raw.length;) {
    let n = 1;
    while (first + n < raw.length && raw[first + n]!.timestamp === raw[first]!.timestamp) n++;
    const run = raw.slice(first, first + n) as LegacyMessage[];
    const baseOffset = run[0]!.offset;
    let origin = run[0]!.originTimestamp;
    for (const m of run) if (m.originTimestamp < origin) origin = m.originTimestamp;
    // Only a run that starts its batch can be rebuilt: its first frame must come back with the stored checksum.
    const head = rebuiltChecksum(xxh, bytes, run[0]!, baseOffset, origin);
    const checkable = head !== null && head === run[0]!.checksum;
    let note: string;
    if (checkable) {
      let bad = 0;
      run.forEach((m, k) => {
        const c = rebuiltChecksum(xxh, bytes, m, baseOffset, origin);
        const ok = c !== null && c === m.checksum;
        checks[first + k] = ok ? "verified" : "mismatch";
        if (!ok) {
          bad++;
          f.add("frame-checksum-mismatch", m.start, m.start + 8, `message ${first + k}: stored checksum differs from its rebuilt frame's (batch stamped at ${m.timestamp}, offset delta ${m.offset - baseOffset})`);
        }
      });
      note = `messages ${first}..${first + n - 1} (timestamp ${run[0]!.timestamp}) rebuild as one batch from offset ${baseOffset}: ${n - bad} of ${n} checksums verified`;
    } else {
      note = `messages ${first}..${first + n - 1} (timestamp ${run[0]!.timestamp}) cannot be checked: the stored checksums are frame checksums of the batch they were polled from, and this run does not start that batch (its first message does not rebuild with offset and timestamp delta 0), so the deltas are unknown`;
      f.add("legacy-unverifiable", run[0]!.start, run[n - 1]!.end, note);
    }
    runs.push({ first, count: n, timestamp: run[0]!.timestamp, checkable, note });
    first += n;
  }
  const messages = raw.map((m, i) => ({ ...m, check: checks[i] as Check }));
  return { messages, runs, fields, findings: f.list };
}

/** Converts a legacy dump to a valid stamped segment: one batch per run, chained offsets, checksums through the encoder. */
export function legacyToSegment(xxh: Xxh3, bytes: Uint8Array, decoded: LegacyDecode, partitionId = 0n): Uint8Array {
  const out: Uint8Array[] = [];
  for (const run of decoded.runs) {
    const ms = decoded.messages.slice(run.first, run.first + run.count);
    const base = ms[0]!.offset;
    let origin = ms[0]!.originTimestamp;
    for (const m of ms) if (m.originTimestamp < origin) origin = m.originTimestamp;
    out.push(encodeBatch(xxh, {
      partitionId, baseOffset: base, baseTimestamp: run.timestamp === 0n ? 1n : run.timestamp, originTimestamp: origin,
      messages: ms.map((m) => ({
        id: m.id,
        payload: bytes.slice(m.start + LEGACY_HEADER_SIZE, m.start + LEGACY_HEADER_SIZE + m.payloadLength),
        userHeaders: bytes.slice(m.start + LEGACY_HEADER_SIZE + m.payloadLength, m.end),
        offsetDelta: Number(m.offset - base),
        timestampDelta: Number(m.originTimestamp - origin),
      })),
    }));
  }
  return concat(out);
}
