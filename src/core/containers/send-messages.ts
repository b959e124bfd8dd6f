/** A SendMessages request body: metadata (identifiers, partitioning, messages_count), then one producer batch; also a request's body. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { BATCH_HEADER_SIZE } from "../../format/fields.ts";
import {
  IDENTIFIER_KIND_NAMES,
  PARTITIONING_KIND_NAMES,
  SEND_MESSAGES_COUNT_FIELDS,
  SEND_METADATA_LENGTH_FIELDS,
} from "../../format/containers/send-messages.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import { analyzeWith } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { Findings, emptyAnalysis, fieldAt, placeFields } from "./merge.ts";
import type { ContainerField } from "./types.ts";

/** The decode of a SendMessages body at `base`. */
export interface SendMessagesParts {
  readonly fields: ContainerField[];
  readonly analysis: Analysis;
  readonly findings: Diagnostic[];
  /** Where the batch starts (4 + metadata_length past base), or null when the metadata cannot place it. */
  readonly batchStart: number | null;
}

/** What parsing the metadata found: the fields read, the first fault, and messages_count when read. */
interface Metadata {
  readonly fields: ContainerField[];
  readonly fault: { start: number; end: number; message: string } | null;
  readonly messagesCount: number | null;
  readonly countAt: number;
  readonly batchStart: number | null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses the metadata at `base` as upstream's SendMessagesMetadata::decode (send_messages.rs:483-501) with byte ranges. */
export function parseSendMetadata(bytes: Uint8Array, base: number): Metadata {
  const fields: ContainerField[] = placeFields(bytes, SEND_METADATA_LENGTH_FIELDS, base);
  const none = (start: number, end: number, message: string): Metadata => ({
    fields,
    fault: { start, end: Math.min(end, bytes.length), message },
    messagesCount: null,
    countAt: -1,
    batchStart: null,
  });
  if (bytes.length - base < 4) return none(base, bytes.length, `metadata_length needs 4 bytes, ${bytes.length - base} are there`);
  const r = new ByteReader(bytes);
  const metadataLength = r.u32(base);
  const batchStart = base + 4 + metadataLength;
  if (batchStart > bytes.length)
    return none(base, base + 4, `metadata_length ${metadataLength} runs ${batchStart - bytes.length} bytes past the end of the body`);
  const metaEnd = batchStart;
  let p = base + 4;
  type Fault = { start: number; end: number; message: string };
  const part = (
    label: string,
    kindField: "send.identifier_kind" | "send.partitioning_kind",
    names: Readonly<Record<number, string>>,
    width: (kind: number) => [number, number] | null,
  ): Fault | null => {
    if (metaEnd - p < 2)
      return {
        start: metaEnd > p ? p : base,
        end: metaEnd > p ? metaEnd : base + 4,
        message: `${label} needs a kind and a length byte, ${Math.max(0, metaEnd - p)} of metadata_length are left`,
      };
    const kind = bytes[p] as number;
    const length = bytes[p + 1] as number;
    const lengthKind = kindField === "send.identifier_kind" ? "send.identifier_length" : "send.partitioning_length";
    const valueKind = kindField === "send.identifier_kind" ? "send.identifier_value" : "send.partitioning_value";
    fields.push(fieldAt(bytes, kindField, `${label}.kind`, p, p + 1, `${kind} (${names[kind] ?? "unknown"})`));
    fields.push(fieldAt(bytes, lengthKind, `${label}.length`, p + 1, p + 2, String(length)));
    const allowed = width(kind);
    if (!allowed)
      return {
        start: p,
        end: p + 1,
        message: `${label} has kind ${kind}; ${Object.entries(names)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")} are known`,
      };
    if (length < allowed[0] || length > allowed[1])
      return {
        start: p + 1,
        end: p + 2,
        message: `${label} of kind ${kind} has length ${length}, it needs ${allowed[0] === allowed[1] ? allowed[0] : `${allowed[0]}..${allowed[1]}`}`,
      };
    if (p + 2 + length > metaEnd)
      return {
        start: p + 2,
        end: Math.max(p + 2, metaEnd),
        message: `${label}'s ${length}-byte value runs ${p + 2 + length - metaEnd} bytes past metadata_length`,
      };
    const value = bytes.subarray(p + 2, p + 2 + length);
    let text = "";
    if (length === 4 && (kindField === "send.identifier_kind" ? kind === 1 : kind === 2)) text = String(r.u32(p + 2));
    else if (kindField === "send.identifier_kind") {
      try {
        text = JSON.stringify(utf8.decode(value));
      } catch {
        return { start: p + 2, end: p + 2 + length, message: `${label} is a string that is not UTF-8` };
      }
    }
    if (length > 0) fields.push(fieldAt(bytes, valueKind, `${label}.value`, p + 2, p + 2 + length, text || undefined));
    p += 2 + length;
    return null;
  };
  const identifierWidth = (k: number): [number, number] | null => (k === 1 ? [4, 4] : k === 2 ? [1, 255] : null);
  const partitioningWidth = (k: number): [number, number] | null => (k === 1 ? [0, 0] : k === 2 ? [4, 4] : k === 3 ? [1, 255] : null);
  for (const [label, kindField, names, width] of [
    ["stream_id", "send.identifier_kind", IDENTIFIER_KIND_NAMES, identifierWidth],
    ["topic_id", "send.identifier_kind", IDENTIFIER_KIND_NAMES, identifierWidth],
    ["partitioning", "send.partitioning_kind", PARTITIONING_KIND_NAMES, partitioningWidth],
  ] as const) {
    const fault = part(label, kindField, names, width);
    if (fault) return { fields, fault, messagesCount: null, countAt: -1, batchStart };
  }
  if (metaEnd - p < 4)
    return {
      fields,
      // With nothing left, the fault is metadata_length's (as part()'s): p may lie past its field.
      fault: {
        start: metaEnd > p ? p : base,
        end: metaEnd > p ? metaEnd : base + 4,
        message: `messages_count needs 4 bytes, ${Math.max(0, metaEnd - p)} of metadata_length are left`,
      },
      messagesCount: null,
      countAt: -1,
      batchStart,
    };
  for (const field of placeFields(bytes, SEND_MESSAGES_COUNT_FIELDS, p)) fields.push(field);
  const messagesCount = r.u32(p);
  const countAt = p;
  p += 4;
  if (p !== metaEnd)
    return {
      fields,
      fault: { start: p, end: metaEnd, message: `the fields consume ${p - base - 4} bytes, metadata_length says ${metadataLength}: ${metaEnd - p} left over` },
      messagesCount,
      countAt,
      batchStart,
    };
  return { fields, fault: null, messagesCount, countAt, batchStart };
}

/** Decodes the SendMessages body that starts at `base` and runs to the end of the input; `keepFrames: false` leaves the frame columns out. */
export function decodeSendMessages(xxh: Xxh3, bytes: Uint8Array, base: number, keepFrames = true): SendMessagesParts {
  const f = new Findings();
  const meta = parseSendMetadata(bytes, base);
  if (meta.fault) f.add("send-metadata-invalid", meta.fault.start, meta.fault.end, meta.fault.message);
  const batchStart = meta.batchStart;
  if (batchStart === null) return { fields: meta.fields, analysis: emptyAnalysis(bytes.length), findings: f.list, batchStart };
  const r = new ByteReader(bytes);
  let end = bytes.length;
  if (bytes.length - batchStart >= BATCH_HEADER_SIZE) {
    const batchLength = r.u64(batchStart + 32);
    const batchEnd = batchStart + Number(batchLength);
    if (batchLength >= BigInt(BATCH_HEADER_SIZE) && batchEnd < bytes.length) {
      end = batchEnd;
      f.add(
        "send-batch-not-at-end",
        batchEnd,
        bytes.length,
        `the batch ends at byte ${batchEnd}, ${bytes.length - batchEnd} bytes before the body's end; admission refuses a body with bytes past the batch`,
      );
    } else if (batchEnd > bytes.length) {
      f.add("send-batch-not-at-end", batchStart + 32, batchStart + 40, `batch_length ${batchLength} runs ${batchEnd - bytes.length} bytes past the body's end`);
    }
  }
  // One batch only; an empty batch is send-count-mismatch here (admission refuses it), not empty-batch.
  const analysis = analyzeWith(xxh, bytes.subarray(0, end), { startOffset: batchStart, keepFrames, dropFinding: (code) => code === "empty-batch" });
  const b = analysis.batches.at(0);
  if (b?.header) {
    const h = b.header;
    for (const [value, at, name] of [
      [h.partitionId, 0, "partition_id"],
      [h.baseOffset, 8, "base_offset"],
      [h.baseTimestamp, 16, "base_timestamp"],
    ] as const) {
      if (value !== 0n) f.add("send-producer-fields-set", b.start + at, b.start + at + 8, `batch 0: ${name} ${value}; a producer sends it as 0`, 0);
    }
    if (meta.messagesCount !== null) {
      if (meta.messagesCount === 0)
        f.add("send-count-mismatch", meta.countAt, meta.countAt + 4, "messages_count is 0; admission refuses a SendMessages with no messages");
      else if (meta.messagesCount !== h.messageCount)
        f.add("send-count-mismatch", meta.countAt, meta.countAt + 4, `messages_count ${meta.messagesCount}, the batch's message_count is ${h.messageCount}`);
    }
  }
  return { fields: meta.fields, analysis: end < bytes.length ? { ...analysis, size: bytes.length } : analysis, findings: f.list, batchStart };
}
