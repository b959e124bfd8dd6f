/**
 * Share links and the redacted subject behind links, reports, pictures and exports: the chosen
 * scope cut out, redacted when asked (findings kept, see core/edit/redact.ts), and tagged with the
 * original's SHA-256 so the opened page can say what it shows.
 */
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import type { Analysis } from "../../core/model/model.ts";
import { redactCopy, type RedactOptions } from "../../core/edit/redact.ts";
import { redactMessage } from "../../core/edit/redact-capture.ts";
import { encodeShareFragment, type SharedState } from "../../lib/share-codec.ts";
import { rebasedSelection, type ShareScope } from "./share-scope.ts";
import { batchAt } from "../../core/view/frame-view.ts";
import type { InputBytes } from "../../lib/input-bytes.ts";
import { sha256Hex } from "../common/download.ts";
import { sourceOf } from "../session/input-source.ts";
import { searchClient } from "../../worker/search-client.ts";

/** The input as the share panel holds it. */
export interface ShareSource {
  readonly name: string;
  /** The whole input in memory, or null when it is read on demand (then ranges are read from `source`). */
  readonly bytes: Uint8Array | null;
  readonly source: InputBytes;
  readonly analysis: Analysis;
  /** Where the first batch starts in the bytes. */
  readonly startOffset: number;
  /** The format the input is read with (the Format control's choice: auto or a containers.md name). */
  readonly format: string;
}

/** What the redaction switches ask for; null is no redaction. */
export type RedactChoice = RedactOptions | null;

/** Inputs above this are not redacted on the page's thread (re-checking them would freeze it). */
export const REDACT_ON_PAGE_LIMIT = 64 << 20;

/** Words for what a redaction replaced. */
export function redactedWhat(options: RedactOptions): string {
  return ["payloads", ...(options.userHeaders ? ["user header values"] : []), ...(options.ids ? ["message ids"] : [])]
    .join(", ")
    .replace(/, ([^,]*)$/, " and $1");
}

const shaCache = new WeakMap<Uint8Array, Promise<string>>();
/**
 * SHA-256 of bytes, computed once per byte array: read from the File the bytes came from by a worker
 * (the search worker: no copy, no main-thread work), else hashed on the main thread (a slice per task when large).
 */
export function cachedSha256(bytes: Uint8Array): Promise<string> {
  let p = shaCache.get(bytes);
  if (!p) {
    const file = sourceOf(bytes);
    // A File changed on disk since it was loaded no longer matches: the bytes on screen are hashed instead.
    p = file
      ? searchClient()
          .sha256(file)
          .catch(() => sha256Hex(bytes))
      : sha256Hex(bytes);
    shaCache.set(bytes, p);
  }
  return p;
}

const fileShaCache = new WeakMap<Blob, Promise<string>>();
/** SHA-256 of the whole input: of its bytes, or for one read on demand of its File, read by the search worker a window at a time. */
export function inputSha256(source: ShareSource): Promise<string> {
  if (source.bytes) return cachedSha256(source.bytes);
  const file = source.source.file;
  if (!file) return Promise.reject(new Error("the input has neither bytes nor a file"));
  let p = fileShaCache.get(file);
  if (!p) {
    p = searchClient().sha256(file);
    p.catch(() => fileShaCache.delete(file));
    fileShaCache.set(file, p);
  }
  return p;
}

/**
 * Bytes [start, end) of the input as shown, or of its redacted copy: in memory they are cut from the
 * whole subject; read on demand only the batches holding the range are read, and redacted as a part
 * (analysed from their first byte, as a link's part is), so no more than those batches is read.
 */
export async function rangeBytes(source: ShareSource, start: number, end: number, redact: RedactChoice): Promise<Uint8Array> {
  if (source.bytes) {
    const whole = (await subjectOf(source, redact)).bytes;
    return whole.slice(start, end);
  }
  if (!redact) return (await source.source.load(start, end)).bytes.slice();
  const { analysis } = source;
  const first = analysis.batches.at(batchAt(analysis, start));
  const last = analysis.batches.at(batchAt(analysis, Math.max(start, end - 1)));
  if (!first || !last) throw new Error("only bytes within batches are redacted");
  const window = await source.source.load(first.start, last.end);
  const xxh = await loadXxh3();
  const redacted = redactCopy(xxh, window.bytes, analyzeWith(xxh, window.bytes), redact).bytes;
  return redacted.slice(start - first.start, end - first.start);
}

/** Bytes as shown, or as their redacted copy: with its analysis and SHA-256, and the original's when redacted. */
export interface Subject {
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
  readonly sha256: string;
  readonly redacted?: { readonly originalSha256: string; readonly what: string };
}

/** The whole input, redacted when asked; the copy's analysis is made with the same start so its findings are the original's. */
export async function subjectOf(source: ShareSource, redact: RedactChoice): Promise<Subject> {
  if (!source.bytes) throw new Error("the input is read on demand: read it into memory first");
  const originalSha256 = await cachedSha256(source.bytes);
  if (!redact) return { bytes: source.bytes, analysis: source.analysis, sha256: originalSha256 };
  if (source.bytes.length > REDACT_ON_PAGE_LIMIT)
    throw new Error(`inputs over ${REDACT_ON_PAGE_LIMIT >> 20} MiB are redacted with the command line: iggy-batch redact FILE -o OUT`);
  const xxh = await loadXxh3();
  // A capture's message (or any one whole consensus message) gets its consensus checksums re-made too.
  const bytes = redactMessage(xxh, source.bytes, source.analysis, redact);
  return {
    bytes,
    analysis: analyzeWith(xxh, bytes, { startOffset: source.startOffset }),
    sha256: await sha256Hex(bytes),
    redacted: { originalSha256, what: redactedWhat(redact) },
  };
}

/** The link's fragment state for a scope of the source, redacted when asked. */
export async function sharedStateOf(source: ShareSource, scope: ShareScope, redact: RedactChoice): Promise<SharedState> {
  const originalSha256 = await inputSha256(source);
  const whole = scope.id === "whole";
  // Read on demand, only the scope's bytes are read (the whole input is a scope only up to WHOLE_INPUT_SHARE_LIMIT).
  let bytes = source.bytes
    ? whole
      ? source.bytes
      : source.bytes.subarray(scope.start, scope.end)
    : (await source.source.load(whole ? 0 : scope.start, whole ? source.source.size : scope.end)).bytes;
  if (redact) {
    const xxh = await loadXxh3();
    // A cut-out part is read from its own first byte: redact it as the opened page will analyse it.
    bytes = whole ? redactMessage(xxh, bytes, source.analysis, redact) : redactCopy(xxh, bytes, analyzeWith(xxh, bytes), redact).bytes;
  }
  return {
    name: whole ? source.name : `${source.name} (${scope.partName})`,
    bytes,
    selection: rebasedSelection(scope),
    // A part cut out of a container starts at a batch: plain batches.
    format: whole ? source.format : "batches",
    ...(redact ? { redacted: { originalSha256, what: redactedWhat(redact) } } : {}),
    ...(whole ? {} : { part: { start: scope.start, end: scope.end, size: source.source.size, sha256: originalSha256 } }),
  };
}

/** The full share URL of a scope (origin and path of this page, the state in the fragment). */
export async function shareUrlOf(source: ShareSource, scope: ShareScope, redact: RedactChoice, base: string): Promise<string> {
  return base.replace(/#.*$/, "") + encodeShareFragment(await sharedStateOf(source, scope, redact));
}
