/** The JSON document of a capture (contracts.md §1.2), as text pieces: one line per message and diagnostic. */
import type { Xxh3 } from "../../../checksum/xxh3.ts";
import { COMMAND_NAME_OF } from "../../../format/containers/consensus.ts";
import { LEGACY_COMMAND_NAME_OF, OPERATION_NAME_OF } from "../../../format/containers/protocol.ts";
import { iggyError } from "../../../format/iggy-errors.ts";
import { ByteReader } from "../../../format/reader.ts";
import { batchJson } from "../../model/contract-json.ts";
import { decodeCapturedMessage } from "./capture.ts";
import type { CaptureSource } from "./source.ts";
import type { CaptureConnection, CaptureDiagnostic, CaptureMessage, CaptureResult } from "./types.ts";

/** Command names by number. */
export { COMMAND_NAME_OF };

/** The last second captureTime() wrote out, and its "YYYY-MM-DDTHH:MM:SS": messages come many to a second. */
let lastSecond = "";
let lastIso = "";

/** A capture time (ns since the epoch, never negative) as ISO 8601 with 6 or 9 fraction digits. */
export function captureTime(timeNs: bigint, digits: number): string {
  // One conversion to digits, not a BigInt division and remainder: the last nine are the fraction.
  const all = timeNs.toString().padStart(10, "0");
  const second = all.slice(0, -9);
  if (second !== lastSecond) {
    lastIso = new Date(Number(second) * 1000).toISOString().slice(0, 19);
    lastSecond = second;
  }
  return `${lastIso}.${all.slice(-9, digits === 9 ? undefined : digits - 9)}Z`;
}

/** The operation's name: the legacy command's for a non-replicated request (and the reply to one). */
export function operationName(
  conn: { readonly messages: readonly Pick<CaptureMessage, "legacyCode">[] },
  m: Pick<CaptureMessage, "operation" | "legacyCode" | "replyTo">,
): string | null {
  if (m.operation === null) return null;
  return operationNameWith(m, m.replyTo !== null ? (conn.messages[m.replyTo] ?? null) : null);
}

/** The operation's name, given the request a reply answers (for a host that does not keep the connection's messages). */
export function operationNameWith(m: Pick<CaptureMessage, "operation" | "legacyCode">, request: Pick<CaptureMessage, "legacyCode"> | null): string | null {
  if (m.operation === null) return null;
  const legacy = m.legacyCode ?? request?.legacyCode ?? null;
  if (m.operation === 2 && legacy !== null) return LEGACY_COMMAND_NAME_OF[legacy] ?? `legacy-${legacy}`;
  return OPERATION_NAME_OF[m.operation] ?? `operation-${m.operation}`;
}

/** The message document without its batches. */
export function messageJson(conn: CaptureConnection, m: CaptureMessage, digits: number): Record<string, unknown> {
  return messageJsonWith(m, m.replyTo !== null ? (conn.messages[m.replyTo] ?? null) : null, digits);
}

function messageJsonWith(m: CaptureMessage, request: CaptureMessage | null, digits: number): Record<string, unknown> {
  return {
    index: m.index,
    toServer: m.toServer,
    packet: m.packet,
    time: captureTime(m.timeNs, digits),
    streamOffset: m.streamOffset,
    size: m.size,
    command: m.command,
    commandName: m.command === null ? null : (COMMAND_NAME_OF[m.command] ?? `command-${m.command}`),
    operation: m.operation,
    operationName: operationNameWith(m, request),
    legacyCode: m.legacyCode,
    request: m.request === null ? null : m.request.toString(),
    status: m.status,
    statusName: m.status === null || m.status === 0 ? null : (iggyError(m.status)?.name ?? null),
    replyTo: m.replyTo,
    repliedBy: m.repliedBy,
    latencyMicros: m.latencyMicros,
    body: m.body,
    complete: m.complete,
  };
}

/** One diagnostic as the contract lists it (`message` is the message's index; the sentence is `text`). */
export function captureDiagnosticJson(d: CaptureDiagnostic): Record<string, unknown> {
  return {
    code: d.code,
    severity: d.severity,
    connection: d.connection,
    message: d.message,
    packet: d.packet,
    start: d.start,
    end: d.end,
    batch: d.batch,
    frame: d.frame,
    text: d.text,
  };
}

/** Where frames come from: the capture's source and the hash, to decode a message again. */
export interface FrameSource {
  readonly xxh: Xxh3;
  readonly source: CaptureSource;
}

/**
 * One message's document as the contract lists it, batches included (their frames read back from the
 * source when `frames` is given); `request` is the request a reply answers.
 */
export function messageDocText(conn: CaptureConnection, m: CaptureMessage, request: CaptureMessage | null, digits: number, frames: FrameSource | null): string {
  let batches = m.batches;
  if (frames && m.batches.length) {
    const again = decodeCapturedMessage(frames.xxh, frames.source, conn, m, request);
    const a = again?.decoded.analysis;
    if (again && a) {
      const r = new ByteReader(again.bytes);
      batches = a.batches.map((b) => batchJson(a, r, b, true));
    }
  }
  return `${messageHeadText(m, request, digits)},"batches":${JSON.stringify(batches)}}`;
}

const num = (v: number | null): string => (v === null || !Number.isFinite(v) ? "null" : String(v));
const str = (v: string | null): string => (v === null ? "null" : JSON.stringify(v));

/**
 * messageJsonWith()'s document as JSON.stringify writes it, less its closing brace, written field by
 * field: a capture has a message document per message (issue #24), and this costs no object for it.
 */
function messageHeadText(m: CaptureMessage, request: CaptureMessage | null, digits: number): string {
  const commandName = m.command === null ? null : (COMMAND_NAME_OF[m.command] ?? `command-${m.command}`);
  const statusName = m.status === null || m.status === 0 ? null : (iggyError(m.status)?.name ?? null);
  return (
    `{"index":${num(m.index)},"toServer":${m.toServer},"packet":${num(m.packet)},"time":${str(captureTime(m.timeNs, digits))}` +
    `,"streamOffset":${num(m.streamOffset)},"size":${num(m.size)},"command":${num(m.command)},"commandName":${str(commandName)}` +
    `,"operation":${num(m.operation)},"operationName":${str(operationNameWith(m, request))},"legacyCode":${num(m.legacyCode)}` +
    `,"request":${str(m.request === null ? null : m.request.toString())},"status":${num(m.status)},"statusName":${str(statusName)}` +
    `,"replyTo":${num(m.replyTo)},"repliedBy":${num(m.repliedBy)},"latencyMicros":${num(m.latencyMicros)},"body":${str(m.body)},"complete":${m.complete}`
  );
}

function* keptDocs(conn: CaptureConnection, digits: number, frames: FrameSource | null): Generator<string> {
  for (const m of conn.messages) yield messageDocText(conn, m, m.replyTo !== null ? (conn.messages[m.replyTo] ?? null) : null, digits, frames);
}

/**
 * The whole document; frames are read back from the source when `frames` is given. `spooled` gives a
 * connection's message documents when they were made as openCapture released them (its messages are
 * then not kept).
 */
export function* captureJsonChunks(
  c: CaptureResult,
  name: string,
  size: number,
  detectedBy: string,
  frames: FrameSource | null,
  spooled: ((conn: number) => Iterable<string>) | null = null,
): Generator<string> {
  yield `{\n  "input": ${JSON.stringify({ name, size })},\n  "format": "capture",\n  "detectedBy": ${JSON.stringify(detectedBy)},\n  "container": null,\n`;
  yield `  "summary": ${JSON.stringify(c.summary)},\n`;
  const head = { fileFormat: c.fileFormat, linkTypes: c.linkTypes, packets: c.packets, otherTcpConnections: c.otherTcpConnections, quicPackets: c.quicPackets };
  yield `  "capture": ${JSON.stringify(head).slice(0, -1)}, "port": ${c.port}, "connections": [`;
  for (const [k, conn] of c.connections.entries()) {
    const top = {
      index: conn.index,
      client: conn.client,
      server: conn.server,
      firstPacket: conn.firstPacket,
      recognizedBy: conn.recognizedBy,
      bytes: conn.bytes,
      encryption: conn.encryption,
      gaps: conn.gaps,
    };
    yield `${k ? "," : ""}\n    ${JSON.stringify(top).slice(0, -1)}, "messages": [`;
    const docs = spooled ? spooled(conn.index) : keptDocs(conn, c.timeDigits, frames);
    let i = 0;
    for (const doc of docs) yield `${i++ ? "," : ""}\n      ${doc}`;
    yield `${i ? "\n    " : ""}]}`;
  }
  yield `${c.connections.length ? "\n  " : ""}]},\n  "diagnostics": [`;
  for (const [k, d] of c.diagnostics.entries()) yield `${k ? "," : ""}\n    ${JSON.stringify(captureDiagnosticJson(d))}`;
  yield `${c.diagnostics.length ? "\n  " : ""}]\n}\n`;
}
