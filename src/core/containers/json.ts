/**
 * The JSON additions of contracts.md §1.1 around the batch document of contract-json.ts: `format`,
 * `detectedBy`, `container`, `recovery`, `entries`; and the directory document with `files[]`.
 * Written in pieces like the batch document, so a segment of millions of frames never is one string.
 */
import { findingsVerdict } from "./verdict.ts";
import { contractJsonChunks } from "../model/contract-json.ts";
import type { ContainerInfo, IndexEntry, OpenedInput, RecoveryVerdict } from "./types.ts";
import type { PartitionResult } from "./partition.ts";

/** The contract's `recovery` object (u64 values as decimal strings, as elsewhere). */
export function recoveryJson(r: RecoveryVerdict | null): Record<string, unknown> | null {
  return (
    r && {
      path: r.path,
      keptBytes: r.keptBytes,
      keptMessages: r.keptMessages,
      stopsAt: r.stopsAt,
      reason: r.reason,
      lastOffset: r.lastOffset === null ? null : r.lastOffset.toString(),
      sentence: r.sentence,
    }
  );
}

/** The contract's `container` object. */
export function containerJson(c: ContainerInfo | null): Record<string, unknown> | null {
  return c && { format: c.format, start: c.start, end: c.end, fields: c.fields.map((f) => ({ name: f.name, start: f.start, end: f.end, value: f.value })) };
}

const entryJson = (e: IndexEntry) => ({ offset: e.offset.toString(), timestamp: e.timestamp.toString(), position: e.position.toString() });

/** The per-file JSON document: the batch document with the container keys, in pieces. */
export function* openedJsonChunks(
  opened: OpenedInput,
  bytes: Uint8Array,
  name: string,
  withFrames = true,
  extra: Record<string, unknown> = {},
): Generator<string> {
  let first = true;
  let pending: string | null = null;
  const head =
    `{\n  "format": ${JSON.stringify(opened.format)},\n  "detectedBy": ${JSON.stringify(opened.detectedBy)},\n` +
    Object.entries(extra)
      .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},\n`)
      .join("");
  for (const chunk of contractJsonChunks(opened.analysis, bytes, name, withFrames)) {
    // Hold one chunk back: the last one closes the document, and the container keys go before it.
    if (pending !== null) yield pending;
    pending = first ? head + chunk.replace(/^\{\n/, "") : chunk;
    first = false;
  }
  const closing = (pending ?? "").replace(/\n\}\n$/, "");
  yield closing;
  yield `,\n  "container": ${JSON.stringify(containerJson(opened.container))}`;
  yield `,\n  "recovery": ${JSON.stringify(recoveryJson(opened.recovery))}`;
  if (opened.entries) {
    yield `,\n  "entries": [`;
    for (let i = 0; i < opened.entries.length; i++) yield `${i ? "," : ""}\n    ${JSON.stringify(entryJson(opened.entries.at(i) as IndexEntry))}`;
    yield opened.entries.length ? "\n  ]" : "]";
  }
  if (opened.legacy)
    yield `,\n  "legacy": ${JSON.stringify({ runs: opened.legacy.runs.map((r) => ({ ...r, timestamp: r.timestamp.toString(), originTimestamp: r.originTimestamp.toString() })), messages: opened.legacy.messages.length })}`;
  yield "\n}\n";
}

/** A directory's document, opened and closed around the per-file documents the caller streams in between. */
export const partitionJson = {
  /** Everything before the first file. */
  open(name: string, size: number): string {
    return `{\n  "format": "partition",\n  "detectedBy": ${JSON.stringify("a directory: read as a partition, every *.log and *.index in start-offset order")},\n  "input": ${JSON.stringify({ name, size })},\n  "files": [`;
  },
  /** The separator before file k. */
  separator(k: number): string {
    return k ? ",\n" : "\n";
  },
  /** Everything after the last file: summary, partition verdict, container null, batches empty, the flat diagnostics with `file`. */
  *close(result: PartitionResult, fileCount: number): Generator<string> {
    const segments = result.segments.map((s) => ({
      name: s.name,
      index: s.indexName,
      startOffset: s.startOffset.toString(),
      size: s.size,
      batches: s.batches,
      firstOffset: s.firstOffset?.toString() ?? null,
      lastOffset: s.lastOffset?.toString() ?? null,
      firstTimestamp: s.firstTimestamp?.toString() ?? null,
      lastTimestamp: s.lastTimestamp?.toString() ?? null,
      recovery: recoveryJson(s.recovery),
      errors: s.errors,
      warnings: s.warnings,
      infos: s.infos,
    }));
    const o = result.outcome;
    const findings = findingsVerdict(result.summary);
    yield `${fileCount ? "\n  " : ""}],\n  "summary": ${JSON.stringify(result.summary)}`;
    yield `,\n  "partition": ${JSON.stringify({ verdict: result.verdict, sentence: result.sentence, server: { outcome: o.kind, truncatedBytes: o.truncatedBytes, reasons: o.reasons, words: o.words }, findings: { clean: findings.clean, words: findings.words }, segments, skipped: result.files.filter((f) => f.skipped).map((f) => ({ name: f.name, size: f.size, reason: f.skipped })) })}`;
    yield `,\n  "container": null,\n  "recovery": null,\n  "batches": [],\n  "diagnostics": [`;
    for (const [k, d] of result.diagnostics.entries()) yield `${k ? "," : ""}\n    ${JSON.stringify(d)}`;
    yield `${result.diagnostics.length ? "\n  " : ""}]\n}\n`;
  },
};
