/** inspect / report / convert over containers: a file, `-` or a partition directory (contracts.md §1.1). */
import { open, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { createHash } from "node:crypto";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import {
  FORMAT_TITLES,
  IndexEntries,
  legacyToSegment,
  openInputWith,
  openPartition,
  openedJsonChunks,
  partitionJson,
  type FormatChoice,
  type OpenedInput,
  type PartitionResult,
  type PartitionSource,
} from "../src/core/containers/index.ts";
import { summarySentence } from "../src/core/report/summary-text.ts";
import { renderMarkdownReport } from "../src/core/report/report.ts";
import { TOOL_VERSION } from "../src/version.ts";
import { formatLine, openedTextChunks } from "./text-output.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import { companionPath, streamSegment } from "./stream-containers.ts";
import { findingsVerdict, verdictOf } from "../src/core/containers/verdict.ts";
import { pagedIndexFile } from "./file-source.ts";

import { CliProblem } from "./command-options.ts";

export { CliProblem, parseFormat } from "./command-options.ts";
export { isDirectory } from "./io.ts";

/** Writes text pieces to stdout (main.ts's writer, which waits on a full pipe). */
export type Write = (chunks: Iterable<string>) => Promise<void>;

function* chain(first: string, rest: Iterable<string>): Generator<string> {
  yield first;
  yield* rest;
}

const why = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (err as Error).message;
};

async function readWhole(path: string): Promise<Uint8Array> {
  const buf = await readFile(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** The sibling of a segment pair, when it exists beside the file. */
async function companionOf(path: string, format: string): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const at = companionPath(path, format);
  if (!at) return undefined;
  try {
    return { name: at.name, bytes: await readWhole(at.path) };
  } catch {
    return undefined;
  }
}

/** Opens a file path (or stdin bytes) as its detected or forced format. */
export async function openFile(bytes: Uint8Array, path: string, format: FormatChoice): Promise<{ opened: OpenedInput; name: string }> {
  const xxh = await loadXxh3();
  const name = path === "-" ? "-" : basename(path);
  const first = openInputWith(xxh, bytes, { name, format });
  const companion = path === "-" ? undefined : await companionOf(path, first.format);
  return { opened: companion ? openInputWith(xxh, bytes, { name, format, companion }) : first, name };
}

/** Why a directory entry is no regular file to read (following a symlink), or undefined for one. */
async function notAFileReason(e: { isFile(): boolean; isSymbolicLink(): boolean }, path: string): Promise<string | undefined> {
  if (e.isFile()) return undefined;
  let s;
  try {
    s = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return "a symbolic link loop: it leads to no file";
    if (code === "ENOENT") return "a broken symbolic link: what it points at does not exist";
    return `not readable: ${why(err)}`;
  }
  if (s.isFile()) return undefined;
  const what = s.isDirectory()
    ? "a directory"
    : s.isFIFO()
      ? "a FIFO (named pipe)"
      : s.isSocket()
        ? "a socket"
        : s.isCharacterDevice() || s.isBlockDevice()
          ? "a device"
          : "not a regular file";
  return `${e.isSymbolicLink() ? "a symbolic link to " : ""}${what}, not a regular file; only regular files are read`;
}

async function sourcesOf(dir: string): Promise<(PartitionSource & { readonly path: string })[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new CliProblem(`iggy-batch: cannot read directory ${dir}: ${why(err)}`);
  }
  const out: (PartitionSource & { readonly path: string })[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    let size = 0;
    try {
      size = (await stat(path)).size;
    } catch {
      /* listed; read() reports it */
    }
    const notAFile = await notAFileReason(e, path);
    const isFile = notAFile === undefined;
    out.push({
      path,
      name: e.isDirectory() ? `${e.name}/` : e.name,
      notAFile,
      size,
      // An index is read a page at a time: a 1 GiB one must not be held whole.
      pagedEntries: isFile && e.name.endsWith(".index") ? () => pagedIndexFile(path) ?? IndexEntries.EMPTY : undefined,
      read: async () => {
        // One open and one read of the size at hand: a file that grows meanwhile is read as it was listed.
        const handle = await open(path, "r");
        try {
          const buf = new Uint8Array(size);
          let at = 0;
          while (at < size) {
            const { bytesRead } = await handle.read(buf, at, size - at, at);
            if (bytesRead === 0) break;
            at += bytesRead;
          }
          return at === size ? buf : buf.subarray(0, at);
        } finally {
          await handle.close();
        }
      },
    });
  }
  return out;
}

/** Opens a directory as a partition without printing (each .log streamed): the result, and where each file lies. */
export async function openDirectory(dir: string): Promise<{ result: PartitionResult; paths: ReadonlyMap<string, string> }> {
  const sources = await sourcesOf(dir);
  const paths = new Map(sources.map((s) => [s.name, s.path]));
  const result = await openPartition(sources, {
    streamSegment: (source, entries) => streamSegment(paths.get(source.name) ?? join(dir, source.name), source.name, entries),
  });
  return { result, paths };
}

/**
 * `inspect DIR`: every file of the partition, one at a time, then the partition's verdict. Without
 * a frame list each `.log` streams (stream-containers.ts), so one segment's working set is all it holds;
 * `stream` false reads every file whole (the reference the streamed output is tested against).
 */
export async function inspectDirectory(writeChunks: Write, dir: string, json: boolean, withFrames: boolean, stream = true): Promise<number> {
  const sources = await sourcesOf(dir);
  const total = sources.reduce((n, s) => n + s.size, 0);
  let k = 0;
  if (json) await writeChunks([partitionJson.open(basename(dir) || dir, total)]);
  else
    await writeChunks([`${visibleText(dir)}: format: ${FORMAT_TITLES.partition} [partition] (a directory: every *.log and *.index in start-offset order)\n`]);
  const paths = new Map(sources.map((s) => [s.name, s.path]));
  const result = await openPartition(sources, {
    streamSegment:
      !stream || (json && withFrames) ? undefined : (source, entries) => streamSegment(paths.get(source.name) ?? join(dir, source.name), source.name, entries),
    onFile: async (name, opened, bytes) => {
      // Chained, not spread into an array: a segment of single-message batches is millions of chunks.
      if (json) await writeChunks(chain(partitionJson.separator(k++), openedJsonChunks(opened, bytes, name, withFrames, { name })));
      else await writeChunks(chain("\n", openedTextChunks(opened, name, true)));
    },
    onSkip: async (file) => {
      if (json) await writeChunks([partitionJson.separator(k++), JSON.stringify({ name: file.name, size: file.size, skipped: file.skipped })]);
      else await writeChunks([`\n${visibleText(file.name)}: skipped: ${file.skipped}\n`]);
    },
  });
  if (json) await writeChunks(partitionJson.close(result, k));
  else {
    const lines = ["", `partition ${visibleText(dir)}: ${summarySentence(result.summary)}`];
    // Findings about the directory itself (no segment at all): no file section printed them.
    for (const d of result.diagnostics.filter((x) => x.file === ".")) lines.push(`  ${d.severity.padEnd(7)} ${d.code}: ${visibleText(d.message)}`);
    for (const s of result.segments) {
      const range = s.firstOffset === null ? "no batches" : `offsets ${s.firstOffset}..${s.lastOffset ?? "?"}`;
      const kept = s.recovery.keptBytes < s.size ? `  recovery keeps ${s.recovery.keptBytes} of ${s.size} bytes` : "";
      // A row counts its .index's findings too.
      lines.push(
        `  ${visibleText(s.name)}  ${s.size} bytes  ${range}${s.indexName ? `  + ${visibleText(s.indexName)}` : ""}${kept}  findings: ${findingsVerdict(s).words}`,
      );
    }
    lines.push(`verdict: ${visibleText(verdictOf(result.summary, result.outcome).line)}`);
    await writeChunks([lines.join("\n") + "\n"]);
  }
  return result.summary.errors > 0 ? 1 : 0;
}

/** `inspect FILE|-` for one file. */
export async function inspectOne(
  writeChunks: Write,
  bytes: Uint8Array,
  path: string,
  format: FormatChoice,
  json: boolean,
  withFrames: boolean,
): Promise<number> {
  const { opened, name } = await openFile(bytes, path, format);
  if (json) await writeChunks(openedJsonChunks(opened, bytes, name, withFrames));
  else await writeChunks(openedTextChunks(opened, name));
  return opened.analysis.summary.errors > 0 ? 1 : 0;
}

/** The Markdown report of one file, naming its format, container fields and recovery verdict. */
export async function reportOne(bytes: Uint8Array, path: string, format: FormatChoice): Promise<{ text: string; status: number }> {
  const { opened, name } = await openFile(bytes, path, format);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const text = renderMarkdownReport(opened.analysis, bytes, { name, sha256, toolVersion: TOOL_VERSION, opened });
  return { text: text + "\n", status: opened.analysis.summary.errors > 0 ? 1 : 0 };
}

/** `convert FILE -o OUT`: a legacy dump to a valid stamped segment through the encoder. */
export async function convertOne(bytes: Uint8Array, path: string, format: FormatChoice, out: string, partitionId: bigint): Promise<Uint8Array> {
  const { opened } = await openFile(bytes, path, format === "auto" ? "auto" : format);
  if (opened.format !== "legacy-messages" || !opened.legacy) {
    throw new CliProblem(
      `iggy-batch: convert reads legacy messages (iggy message poll --output-file); ${path} is ${formatLine(opened).slice(8)}. Force with --format legacy-messages`,
    );
  }
  if (opened.legacy.messages.length === 0) throw new CliProblem(`iggy-batch: ${path} holds no whole legacy message to convert`);
  const segment = legacyToSegment(await loadXxh3(), bytes, opened.legacy, partitionId);
  if (out !== "-") {
    try {
      await writeFile(out, segment);
    } catch (err) {
      throw new CliProblem(`iggy-batch: cannot write ${out}: ${why(err)}`);
    }
  }
  return segment;
}
