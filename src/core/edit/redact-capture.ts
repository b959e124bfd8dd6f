/**
 * Redaction of a network capture (captures.md "Privacy"): Redact payloads (`--redact`) applies to every batch
 * of the capture. Each protocol message is redacted whole: its batches as redactCopy does (payloads, and on
 * request user header values and ids, replaced; checksums re-made so the findings stay), then its consensus
 * header's body and header checksums re-made the same way, matching where the original's matched. A login's
 * secret is never read out: its message is masked before anything else (message-bytes.ts).
 */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { CONSENSUS_HEADER_SIZE } from "../../format/containers/consensus.ts";
import { CONSENSUS_VARIANT_FIELDS } from "../../format/containers/protocol.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import type { Analysis } from "../model/model.ts";
import { decodeCapturedMessage } from "../containers/capture/capture.ts";
import type { CaptureSource } from "../containers/capture/source.ts";
import type { CaptureConnection, CaptureMessage, CaptureResult } from "../containers/capture/types.ts";
import { SECRET_MASK_BYTE } from "../containers/capture/message-bytes.ts";
import { redactCopy, type RedactOptions } from "./redact.ts";

/** Whether bytes are one whole consensus message: a known command and a size that is the byte count. */
function isConsensusMessage(bytes: Uint8Array): boolean {
  return bytes.length >= CONSENSUS_HEADER_SIZE && CONSENSUS_VARIANT_FIELDS.has(bytes[60] as number) && new ByteReader(bytes).u32(48) === bytes.length;
}

/**
 * The redacted copy of one protocol message's bytes, `analysis` describing its batches at their places in it (the
 * `request`/`reply` formats' analysis, or the capture's decode of the message). Bytes that are no whole consensus
 * message are redacted as redactCopy alone does.
 */
export function redactMessage(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis, options: RedactOptions = {}): Uint8Array {
  const out = redactCopy(xxh, bytes, analysis, options).bytes;
  if (!isConsensusMessage(bytes)) return out;
  const before = new ByteReader(bytes);
  const w = new ByteWriter(out);
  const flip = 0xffff_ffff_ffff_ffffn;
  // The body's first (the header's checksum covers bytes 16..256, the body's checksum among them); a zero checksum is "not set" and stays.
  const remake = (at: number, original: () => bigint, now: () => bigint) => {
    const stored = before.u128(at);
    if (stored === 0n) return;
    const computed = now();
    w.u128(at, stored === original() ? computed : computed ^ flip);
  };
  remake(
    16,
    () => xxh.hash(bytes.subarray(CONSENSUS_HEADER_SIZE)),
    () => xxh.hash(out.subarray(CONSENSUS_HEADER_SIZE)),
  );
  remake(
    0,
    () => xxh.hash(bytes.subarray(16, CONSENSUS_HEADER_SIZE)),
    () => xxh.hash(out.subarray(16, CONSENSUS_HEADER_SIZE)),
  );
  return out;
}

/**
 * One whole message of a capture as written out (`extract --message`): redacted when asked; null when bytes of it
 * were never captured. A login's secret is masked (SECRET_MASK_BYTE) whether or not redaction is asked.
 */
export function capturedMessageOut(
  xxh: Xxh3,
  source: CaptureSource,
  conn: CaptureConnection,
  msg: CaptureMessage,
  redact: RedactOptions | null,
): Uint8Array | null {
  const again = decodeCapturedMessage(xxh, source, conn, msg);
  if (!again) return null;
  const bytes = again.bytes;
  if (msg.secret) bytes.fill(SECRET_MASK_BYTE, msg.secret.start, msg.secret.end);
  return redact && again.decoded.analysis ? redactMessage(xxh, bytes, again.decoded.analysis, redact) : bytes;
}

/** Every batch of the capture, in capture order, each as its own bytes (`extract --batches`), redacted when asked. */
export function captureBatchesOut(xxh: Xxh3, source: CaptureSource, capture: CaptureResult, redact: RedactOptions | null): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const conn of capture.connections)
    for (const msg of conn.messages) {
      if (!msg.batches.length) continue;
      const bytes = capturedMessageOut(xxh, source, conn, msg, redact);
      if (!bytes) continue;
      for (const b of msg.batches) out.push(bytes.slice(b.start, b.end));
    }
  return out;
}
