/**
 * Captures in the worker: an input the core detects as a capture is opened by the core's capture
 * reader over a source that reads the File by windows (FileReaderSync; read whole only where there is
 * none, as on the main thread), kept here, and its messages' bytes are read back one at a time.
 */
import { loadXxh3 } from "../checksum/xxh3.ts";
import { detectFormat, forcedDetection, memoryInput, sourceInput, type FormatChoice } from "../core/containers/index.ts";
import {
  isCaptureMagic,
  memorySource,
  openCapture,
  shownMessageBytes,
  type CaptureConnection,
  type CaptureResult,
  type CaptureSource,
  type ShownMessageBytes,
} from "../core/containers/capture/index.ts";
import { blobSource, syncReader } from "./open-on-demand.ts";
import { readBlob } from "./read-blob.ts";
import type { CaptureMessageRequest, PageCapture, PageCaptureConnection } from "./protocol.ts";

/** The capture this worker holds: one at a time, the last opened. */
let held: { key: number; capture: CaptureResult; source: CaptureSource } | null = null;

interface Opened {
  readonly source: CaptureSource;
  readonly onDemand: boolean;
  /** Detection input over the same bytes. */
  readonly detect: () => ReturnType<typeof memoryInput>;
}

async function sourceOf(input: Blob | ArrayBuffer): Promise<Opened> {
  const reader = input instanceof Blob ? syncReader() : null;
  if (input instanceof Blob && reader) {
    const bytes = blobSource(input, reader);
    return {
      onDemand: true,
      detect: () => sourceInput(bytes),
      source: {
        size: input.size,
        read: (start, end) => new Uint8Array(reader.readAsArrayBuffer(input.slice(Math.max(0, start), Math.min(input.size, end)))),
      },
    };
  }
  const bytes = new Uint8Array(input instanceof Blob ? await readBlob(input) : input);
  return { onDemand: false, detect: () => memoryInput(bytes), source: memorySource(bytes) };
}

async function headOf(input: Blob | ArrayBuffer): Promise<Uint8Array> {
  return new Uint8Array(input instanceof Blob ? await input.slice(0, 12).arrayBuffer() : input.slice(0, 12));
}

/**
 * Opens the input as a capture when it is one (forced, or the core's detectFormat says so; only a file
 * with a capture magic is asked, so other inputs are not read twice); null otherwise.
 */
export async function openCaptureInput(key: number, input: Blob | ArrayBuffer, name: string, format: FormatChoice, port?: number): Promise<PageCapture | null> {
  if (format !== "auto" && format !== "capture") return null;
  if (format === "auto" && !isCaptureMagic(await headOf(input))) return null;
  const opened = await sourceOf(input);
  const detection = format === "capture" ? forcedDetection("capture") : detectFormat(opened.detect(), name);
  if (detection.format !== "capture") return null;
  const capture = openCapture(await loadXxh3(), opened.source, { port });
  held = { key, capture, source: opened.source };
  return {
    ...capture,
    connections: capture.connections.map(pageConnection),
    key,
    detectedBy: detection.detectedBy,
    onDemand: opened.onDemand,
  };
}

/** A connection as the page keeps it: no file places, each message's batches counted (a capture may hold a million messages). */
export function pageConnection({ pieces: _pieces, messages, ...rest }: CaptureConnection): PageCaptureConnection {
  return { ...rest, messages: messages.map(({ batches, ...m }) => ({ ...m, batchCount: batches.length })) };
}

/** One message's bytes as a view shows them (core: captured prefix, secret masked); reopens the capture if this worker lost it. */
export async function captureMessageBytes(request: CaptureMessageRequest): Promise<ShownMessageBytes> {
  if (held?.key !== request.key) {
    const opened = await sourceOf(request.input);
    held = { key: request.key, capture: openCapture(await loadXxh3(), opened.source, { port: request.port }), source: opened.source };
  }
  const conn = held.capture.connections[request.connection];
  const msg = conn?.messages[request.message];
  if (!conn || !msg) return { bytes: null, why: `the capture has no message ${request.connection}:${request.message}` };
  return shownMessageBytes(held.source, conn, msg);
}
