/**
 * Network captures (captures.md): pcap/pcapng → TCP connections → Iggy protocol messages → batches.
 *
 * - `isCaptureMagic(head)`: the first bytes of a pcap (µs/ns, either byte order) or pcapng file.
 * - `openCapture(xxh, source, { port })`: one pass over a `CaptureSource` (read by windows; the file is never
 *   held whole); keeps per connection its messages (header values, body kind, batch documents, pairing,
 *   latency) and every finding located by connection, message and packet.
 * - `readMessage(source, conn, msg)` / `decodeCapturedMessage(xxh, source, conn, msg)`: one message's bytes
 *   read back on demand (for its frames, fields, extract), never zero-filled where the capture has a gap.
 * - `captureJsonChunks(...)`: the JSON document of contracts.md §1.2; `messageDocText(...)` one message's line of
 *   it, for a host that writes messages as `openCapture`'s `release` hands them over (the CLI: bounded memory).
 */
export { isCaptureMagic } from "./file.ts";
export { QUIC_PORT } from "./encrypted.ts";
export { openCapture, readMessage, decodeCapturedMessage, DEFAULT_IGGY_PORT, type CaptureOptions } from "./capture.ts";
export { memorySource, type CaptureSource } from "./source.ts";
export {
  captureJsonChunks,
  captureTime,
  messageDocText,
  messageJson,
  operationName,
  operationNameWith,
  captureDiagnosticJson,
  COMMAND_NAME_OF,
  type FrameSource,
} from "./json.ts";
export type { BodyKind, MessageBody } from "./bodies.ts";
export type * from "./types.ts";
export { shownMessageBytes, SECRET_MASK_BYTE, type ShownMessageBytes } from "./message-bytes.ts";
