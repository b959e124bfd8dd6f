/**
 * Segments and index files for `inspect` without reading a `.log` whole: the `.log` streams through
 * the kernel (stream-file.ts), recovery reads only the headers it walks, the small `.index` is read
 * whole; the result equals openInput() on the bytes (core/containers/opened.ts builds both).
 */
import { basename, dirname, join } from "node:path";
// Straight from the modules, not the containers index: that loads every decoder, which a streamed file does not need.
import { SEGMENT_DROPPED_CODES, segmentOf, type SegmentResult } from "../src/core/containers/segment.ts";
import { batchStartsOf } from "../src/core/containers/index-file.ts";
import { indexOpened, segmentOpened } from "../src/core/containers/opened.ts";
import { sourceHeaderAt } from "../src/core/containers/walk.ts";
import type { FormatChoice, OpenedInput } from "../src/core/containers/types.ts";
import { IndexEntries } from "../src/core/containers/index-entries.ts";
import { detectByName, forcedDetection } from "../src/core/containers/detect.ts";
import { analyzeOpenFile, isUnreadable } from "./stream-file.ts";
import { pagedIndexFile } from "./file-source.ts";

/** A `.log` at `path` decoded as a segment named `name`: its result, `unreadable: …`, or null (read it whole instead). */
export async function streamSegment(path: string, name: string, entries: IndexEntries): Promise<SegmentResult | string | null> {
  const got = await analyzeOpenFile(path, { dropCodes: SEGMENT_DROPPED_CODES }, (analysis, source) =>
    segmentOf(analysis, sourceHeaderAt(source), name, entries),
  );
  return got === null ? null : isUnreadable(got) ? `unreadable: ${got.unreadable}` : got;
}

/** Where the sibling of a segment pair (`N.log` ↔ `N.index`) would be, for a file read as `format`. */
export function companionPath(path: string, format: string): { name: string; path: string } | undefined {
  const m = /^(\d{1,20})\.(log|index)$/.exec(basename(path));
  if (!m || (format !== "segment" && format !== "index")) return undefined;
  const other = `${m[1]}.${m[2] === "log" ? "index" : "log"}`;
  if ((m[2] === "log") !== (format === "segment")) return undefined;
  return { name: other, path: join(dirname(path), other) };
}

/** An index file read in pages (never whole), or undefined when it is absent or no regular file. */
function indexOrUndefined(path: string): IndexEntries | undefined {
  try {
    return pagedIndexFile(path);
  } catch {
    return undefined;
  }
}

/**
 * `inspect FILE` of a segment or an index file (by name under auto, or forced) with its `.log`
 * streamed; null for any other input, or when the file must be read whole (not a regular file, no kernel).
 * Returns the index's bytes too (an index's JSON needs no others); with `frameList` a segment is
 * left to the whole-file path (the frames' ids are read from its bytes).
 */
export async function openContainerStreamed(
  path: string,
  format: FormatChoice,
  frameList: boolean,
): Promise<{ opened: OpenedInput; bytes: Uint8Array } | null> {
  const name = basename(path);
  // Auto-detect decides these two by name alone; any other name is left to the callers' detection.
  const d = format === "auto" ? detectByName(name) : format === "segment" || format === "index" ? forcedDetection(format) : null;
  const kind = d?.format;
  if (!d || (kind !== "segment" && kind !== "index") || (kind === "segment" && frameList)) return null;
  const detectedBy = d.detectedBy;
  const companion = companionPath(path, kind);
  if (kind === "segment") {
    const index = companion ? indexOrUndefined(companion.path) : undefined;
    const seg = await streamSegment(path, name, index ?? IndexEntries.EMPTY);
    if (seg === null || typeof seg === "string") return null;
    return { opened: segmentOpened(seg, detectedBy, index ? companion?.name : undefined), bytes: new Uint8Array(0) };
  }
  const entries = indexOrUndefined(path);
  if (!entries) return null;
  // An index's document needs no bytes of it: its entries are read in pages.
  const bytes = new Uint8Array(0);
  if (!companion) return { opened: indexOpened(entries, detectedBy), bytes };
  const log = await analyzeOpenFile(companion.path, { dropCodes: SEGMENT_DROPPED_CODES }, (analysis) => ({
    name: companion.name,
    size: analysis.size,
    starts: batchStartsOf(analysis),
  }));
  // A companion that cannot be opened is left out, as the whole-file path does; one that is no regular file goes that path.
  if (log === null) return null;
  return { opened: isUnreadable(log) ? indexOpened(entries, detectedBy) : indexOpened(entries, detectedBy, log), bytes };
}
