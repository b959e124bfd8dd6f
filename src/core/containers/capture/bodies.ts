/**
 * What one whole protocol message holds (captures.md "What a body holds"): its consensus header
 * fields, then a SendMessages body, a PollMessages request, a poll reply, send confirmations, a login
 * (its secret located, never read out), or raw bytes. Ranges are relative to the message's first byte.
 */
import type { Xxh3 } from "../../../checksum/xxh3.ts";
import { COMMAND, CONSENSUS_COMMON_FIELDS, CONSENSUS_HEADER_SIZE } from "../../../format/containers/consensus.ts";
import {
  CONFIRMATION_COUNT_FIELDS,
  CONFIRMATION_FIELDS,
  CONFIRMATION_SIZE,
  CONSENSUS_VARIANT_FIELDS,
  CONSUMER_KIND_NAMES,
  LOGIN_CONTEXT_FIELDS,
  LOGIN_VERSION_FIELDS,
  POLL_REQUEST_CONSUMER_FIELDS,
  POLL_REQUEST_TAIL_FIELDS,
  POLL_REQUEST_TAIL_SIZE,
  POLLING_STRATEGY_NAMES,
  PROTOCOL,
  SECRET_MASK,
} from "../../../format/containers/protocol.ts";
import { IDENTIFIER_KIND_NAMES } from "../../../format/containers/send-messages.ts";
import type { Diagnostic } from "../../../format/diagnostics.ts";
import { ByteReader } from "../../../format/reader.ts";
import type { Analysis } from "../../model/model.ts";
import { Findings, fieldAt, placeFields } from "../merge.ts";
import { decodePollReply } from "../poll-reply.ts";
import { decodeSendMessages } from "../send-messages.ts";
import type { ContainerField } from "../types.ts";

/** The body kinds of contracts.md §1.2. */
import type { BodyKind } from "./types.ts";
import { pushAll } from "../../../lib/push-all.ts";

export type { BodyKind } from "./types.ts";

/** The request a reply answers, as far as the body decoder needs it. */
export interface AnsweredRequest {
  readonly operation: number;
  readonly legacyCode: number | null;
}

/** The decode of one whole message. */
export interface MessageBody {
  readonly body: BodyKind;
  readonly fields: ContainerField[];
  /** The batches inside (send-messages, poll-reply), or null. */
  readonly analysis: Analysis | null;
  readonly findings: Diagnostic[];
  /** A login's password or token: where it lies (never its bytes). */
  readonly secret: { readonly start: number; readonly end: number } | null;
  /** One phrase for the text output, e.g. "stream 1 topic 1 partition 1, offset 0, count 2". */
  readonly detail: string;
}

/**
 * Decodes a whole message (header and body); `answered` is the request a reply was paired with.
 * `indexOnly` is the capture pass's decode: what its message index keeps (body kind, detail, secret,
 * batches, findings), without the header's fields or the frame columns a view reads back later.
 */
export function decodeMessage(xxh: Xxh3, bytes: Uint8Array, answered: AnsweredRequest | null, indexOnly = false): MessageBody {
  const f = new Findings();
  const r = new ByteReader(bytes);
  const command = bytes[60]!;
  const variant = CONSENSUS_VARIANT_FIELDS.get(command) ?? [];
  const fields = indexOnly ? [] : [...placeFields(bytes, CONSENSUS_COMMON_FIELDS, 0), ...placeFields(bytes, variant, 0)];
  checkChecksums(xxh, bytes, r, f);
  const bodyLength = bytes.length - CONSENSUS_HEADER_SIZE;
  const result = (body: BodyKind, extra: Partial<MessageBody> = {}): MessageBody => ({
    body,
    fields: [...fields, ...(extra.fields ?? [])],
    analysis: extra.analysis ?? null,
    findings: [...f.list, ...(extra.findings ?? [])],
    secret: extra.secret ?? null,
    detail: extra.detail ?? "",
  });
  if (bodyLength === 0) return result("empty");
  if (command === COMMAND.request) {
    const operation = bytes[176]!;
    const legacy = r.u32(196);
    if (operation === PROTOCOL.operationSendMessages) {
      const s = decodeSendMessages(xxh, bytes, CONSENSUS_HEADER_SIZE, !indexOnly);
      return result("send-messages", { fields: s.fields, analysis: s.analysis, findings: s.findings, detail: sendDetail(s.fields) });
    }
    if (operation === PROTOCOL.operationNonReplicated && legacy === PROTOCOL.legacyPollMessages) {
      const p = pollRequest(bytes, CONSENSUS_HEADER_SIZE);
      if (p) return result("poll-request", p);
    }
    if (operation === PROTOCOL.operationRegister) {
      const l = login(bytes, CONSENSUS_HEADER_SIZE);
      if (l) return result("login", l);
    }
    return result("raw");
  }
  if (command === COMMAND.reply && r.u32(216) === 0 && answered) {
    if (answered.operation === PROTOCOL.operationNonReplicated && answered.legacyCode === PROTOCOL.legacyPollMessages) {
      const p = decodePollReply(xxh, bytes, CONSENSUS_HEADER_SIZE, !indexOnly);
      return result("poll-reply", { fields: p.fields, analysis: p.analysis, findings: p.findings });
    }
    if (answered.operation === PROTOCOL.operationSendMessages) {
      const c = confirmations(bytes, r);
      if (c) return result("send-confirmations", c);
    }
  }
  return result("raw");
}

/** True when the 16 bytes at `at` are all zero (a checksum not set): no BigInt made for it. */
function zero16(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 16; i++) if (bytes[i] !== 0) return false;
  return true;
}

function checkChecksums(xxh: Xxh3, bytes: Uint8Array, r: ByteReader, f: Findings): void {
  if (zero16(bytes, 0) && zero16(bytes, 16)) return;
  const stored = r.u128(0);
  if (stored !== 0n) {
    const computed = xxh.hash(bytes.subarray(16, CONSENSUS_HEADER_SIZE));
    if (stored !== computed)
      f.add("consensus-checksum-mismatch", 0, 16, `header checksum ${stored.toString(16)} ≠ XXH3-64 of header bytes 16..256 ${computed.toString(16)}`);
  }
  const storedBody = r.u128(16);
  if (storedBody !== 0n) {
    const computed = xxh.hash(bytes.subarray(CONSENSUS_HEADER_SIZE));
    if (storedBody !== computed)
      f.add("consensus-checksum-mismatch", 16, 32, `body checksum ${storedBody.toString(16)} ≠ XXH3-64 of the body ${computed.toString(16)}`);
  }
}

function sendDetail(fields: readonly ContainerField[]): string {
  const v = (name: string) => fields.find((x) => x.name === name)?.value;
  const parts = [`stream ${v("stream_id.value") ?? "?"}`, `topic ${v("topic_id.value") ?? "?"}`];
  const p = v("partitioning.value");
  if (p !== undefined && /^\d+$/.test(p)) parts.push(`partition ${p}`);
  return parts.join(" ");
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** An identifier [kind u8][length u8][value]; null when it does not fit. */
function identifier(bytes: Uint8Array, at: number, end: number, label: string, out: ContainerField[]): { next: number; text: string } | null {
  if (at + 2 > end) return null;
  const kind = bytes[at]!;
  const length = bytes[at + 1]!;
  if (at + 2 + length > end || (kind === 1 && length !== 4) || (kind !== 1 && kind !== 2)) return null;
  const r = new ByteReader(bytes);
  const text = kind === 1 ? String(r.u32(at + 2)) : JSON.stringify(utf8.decode(bytes.subarray(at + 2, at + 2 + length)));
  out.push(fieldAt(bytes, "poll_request.identifier_kind", `${label}.kind`, at, at + 1, `${kind} (${IDENTIFIER_KIND_NAMES[kind]})`));
  out.push(fieldAt(bytes, "poll_request.identifier_length", `${label}.length`, at + 1, at + 2, String(length)));
  out.push(fieldAt(bytes, "poll_request.identifier_value", `${label}.value`, at + 2, at + 2 + length, text));
  return { next: at + 2 + length, text };
}

function pollRequest(bytes: Uint8Array, base: number): Partial<MessageBody> | null {
  const end = bytes.length;
  if (base + 1 > end) return null;
  const fields: ContainerField[] = placeFields(bytes, POLL_REQUEST_CONSUMER_FIELDS, base);
  const consumerKind = bytes[base]!;
  if (!CONSUMER_KIND_NAMES[consumerKind]) return null;
  const consumer = identifier(bytes, base + 1, end, "consumer", fields);
  const stream = consumer && identifier(bytes, consumer.next, end, "stream_id", fields);
  const topic = stream && identifier(bytes, stream.next, end, "topic_id", fields);
  if (!topic || topic.next + POLL_REQUEST_TAIL_SIZE !== end) return null;
  const tail = placeFields(bytes, POLL_REQUEST_TAIL_FIELDS, topic.next);
  pushAll(fields, tail);
  const r = new ByteReader(bytes);
  const t = topic.next;
  const partition = bytes[t] === 1 ? ` partition ${r.u32(t + 1)}` : "";
  const strategy = POLLING_STRATEGY_NAMES[bytes[t + 5]!] ?? `strategy ${bytes[t + 5]}`;
  const value = strategy === "offset" || strategy === "timestamp" ? ` ${r.u64(t + 6)}` : "";
  return { fields, detail: `stream ${stream.text} topic ${topic.text}${partition}, ${strategy}${value}, count ${r.u32(t + 14)}` };
}

/** A login body: [version u32][sdk name][sdk version] then [username][password] or [token], then [context length u32][context]. */
function login(bytes: Uint8Array, base: number): Partial<MessageBody> | null {
  const end = bytes.length;
  const names: [number, number][] = [];
  let p = base + 4;
  // Up to four u8-length-prefixed strings, then a u32 context length that ends the body exactly.
  for (let n = 0; n < 4 && p < end; n++) {
    const length = bytes[p]!;
    if (p + 1 + length > end) break;
    names.push([p, length]);
    p += 1 + length;
    if (names.length >= 3 && p + 4 <= end) {
      const ctx = new ByteReader(bytes).u32(p);
      if (p + 4 + ctx === end) return loginParts(bytes, base, names, p);
    }
  }
  return null;
}

function loginParts(bytes: Uint8Array, base: number, names: readonly [number, number][], contextAt: number): Partial<MessageBody> {
  const fields: ContainerField[] = placeFields(bytes, LOGIN_VERSION_FIELDS, base);
  const withToken = names.length === 3;
  const labels = withToken ? ["sdk_name", "sdk_version"] : ["sdk_name", "sdk_version", "username"];
  const text = (at: number, length: number) => JSON.stringify(utf8.decode(bytes.subarray(at + 1, at + 1 + length)));
  labels.forEach((label, i) => {
    const [at, length] = names[i]!;
    fields.push(fieldAt(bytes, "login.name_length", `${label}.length`, at, at + 1, String(length)));
    if (length) fields.push(fieldAt(bytes, "login.name", label, at + 1, at + 1 + length, text(at, length)));
  });
  const [sAt, sLength] = names[names.length - 1]!;
  const label = withToken ? "token" : "password";
  fields.push(fieldAt(bytes, "login.secret_length", `${label}.length`, sAt, sAt + 1, String(sLength)));
  // The secret's value is the mask and its length, never its bytes.
  if (sLength) fields.push({ kind: "login.secret", name: label, start: sAt + 1, end: sAt + 1 + sLength, value: `${SECRET_MASK} (${sLength} bytes)` });
  const ctxLength = bytes.length - contextAt - 4;
  pushAll(fields, placeFields(bytes, LOGIN_CONTEXT_FIELDS.slice(0, 1), contextAt));
  if (ctxLength > 0) fields.push(fieldAt(bytes, "login.context", "context", contextAt + 4, bytes.length));
  const user = withToken ? "a personal access token" : `user ${text(names[2]![0], names[2]![1])}`;
  const sdk = `${text(names[0]![0], names[0]![1])} ${text(names[1]![0], names[1]![1])}`;
  return {
    fields,
    secret: sLength ? { start: sAt + 1, end: sAt + 1 + sLength } : null,
    detail: `${user}, ${label} ${SECRET_MASK} (${sLength} bytes), SDK ${sdk}`,
  };
}

function confirmations(bytes: Uint8Array, r: ByteReader): Partial<MessageBody> | null {
  const base = CONSENSUS_HEADER_SIZE;
  if (bytes.length - base < 4) return null;
  const count = r.u32(base);
  if (base + 4 + count * CONFIRMATION_SIZE !== bytes.length) return null;
  const fields = placeFields(bytes, CONFIRMATION_COUNT_FIELDS, base);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = base + 4 + i * CONFIRMATION_SIZE;
    pushAll(fields, placeFields(bytes, CONFIRMATION_FIELDS, at, `confirmation[${i}].`));
    if (i < 3) parts.push(`stream ${r.u32(at)} topic ${r.u32(at + 4)} partition ${r.u32(at + 8)} base offset ${r.u64(at + 12)}`);
  }
  return { fields, detail: `${count} confirmation${count === 1 ? "" : "s"}${parts.length ? ": " + parts.join("; ") : ""}${count > 3 ? " …" : ""}` };
}
