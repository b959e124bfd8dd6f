/**
 * `iggy-batch messages PATH` (contracts.md §1.3): one line or JSON object per complete frame, in input order.
 * A regular file of plain batches or a segment is read 4 MiB at a time and each run of whole batches analysed
 * alone, so memory stays bounded by the largest batch; other formats (and stdin) are read whole, a directory
 * one segment at a time.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadXxh3, type Xxh3 } from "../src/checksum/xxh3.ts";
import { analyzeWith } from "../src/core/walk/analyze.ts";
import { messageJson, messagesOf, payloadText, type MessageRecord, type PayloadMode } from "../src/core/view/messages.ts";
import { startOffsetOfName } from "../src/format/containers/segment.ts";
import { hex128, microsToIso } from "../src/format/values.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import type { FormatChoice } from "../src/core/containers/index.ts";
import { CliProblem, inspectDirectory, inspectOne, openFile } from "./containers.ts";
import { inspectStreamed } from "./inspect-input.ts";
import { readInputBytes } from "./io.ts";

/** What to list and how. */
export interface MessagesChoice {
  readonly jsonl: boolean;
  readonly payload: PayloadMode | null;
  readonly from: bigint | null;
  readonly count: number | null;
  readonly batch: number | null;
  readonly template: string | null;
  readonly format: FormatChoice;
}

const CHUNK = 4 << 20;
const HEADER = 256;
const PREVIEW = 40;
/** Files from this size on are streamed as batches under auto-detect, as inspect does. */
const STREAM_MIN_BYTES = 64 << 20;

/** Renders a --format template: %o %t %T %k %s %S %h %p %b, \n and \t. */
export function renderTemplate(template: string, m: MessageRecord, mode: PayloadMode): string {
  return template.replace(/%[otTksShpb%]|\\[nt\\]/g, (t) => {
    switch (t) {
      case "%o":
        return m.offset.toString();
      case "%t":
        return m.timestamp.toString();
      case "%T":
        return m.originTimestamp.toString();
      case "%k":
        return hex128(m.id);
      case "%s":
        return payloadText(m.payload, mode);
      case "%S":
        return String(m.payloadLength);
      case "%h":
        return (m.userHeaders ?? []).map((h) => visibleText(h.key)).join(",");
      case "%p":
        return m.partitionId.toString();
      case "%b":
        return String(m.batch);
      case "%%":
        return "%";
      case "\\n":
        return "\n";
      case "\\t":
        return "\t";
      default:
        return "\\";
    }
  });
}

const time = (micros: bigint) => (micros === 0n ? "-" : (microsToIso(micros) ?? micros.toString()));

/** The default line: offset, server time, id, sizes, header keys, a payload preview. */
function defaultLine(m: MessageRecord, mode: PayloadMode | null): string {
  const keys = m.userHeaders === null ? "(not TLV)" : m.userHeaders.length ? m.userHeaders.map((h) => visibleText(h.key)).join(",") : "-";
  const text = payloadText(m.payload, mode ?? "text");
  const shown = mode ? text : JSON.stringify(text.length > PREVIEW ? text.slice(0, PREVIEW) + "…" : text);
  return [
    `${m.file ? `${visibleText(m.file)} ` : ""}offset ${m.offset}`,
    `time ${time(m.timestamp)}`,
    `origin ${time(m.originTimestamp)}`,
    `id ${hex128(m.id)}`,
    `payload ${m.payloadLength} B`,
    `headers ${m.userHeadersLength} B [${keys}]`,
    `${m.checksumOk ? "" : "CHECKSUM MISMATCH "}${visibleText(shown)}`,
  ].join("  ");
}

/** Keeps what --from, --batch and --count ask for; says when nothing more can come. */
class Filter {
  private listed = 0;
  constructor(private readonly c: MessagesChoice) {}
  keep(m: MessageRecord): boolean {
    if (this.c.batch !== null && m.batch !== this.c.batch) return false;
    if (this.c.from !== null && m.offset < this.c.from) return false;
    this.listed++;
    return true;
  }
  get done(): boolean {
    return this.c.count !== null && this.listed >= this.c.count;
  }
}

type Sink = (lines: string) => Promise<void>;

/** Analyses of whole-batch runs of a regular file, 4 MiB at a time (more for a larger batch), with their base offset and batch count before them. */
function* fileRuns(xxh: Xxh3, path: string): Generator<{ bytes: Uint8Array; base: number; batchBase: number; analysis: ReturnType<typeof analyzeWith> }> {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let buf = new Uint8Array(CHUNK);
    let have = 0;
    let base = 0;
    let batches = 0;
    for (;;) {
      while (have < buf.length && base + have < size) {
        const n = readSync(fd, buf, have, buf.length - have, base + have);
        if (n === 0) break;
        have += n;
      }
      const atEnd = base + have >= size;
      // Whole batches at the front of the buffer.
      let cut = 0;
      while (cut + HEADER <= have) {
        const v = new DataView(buf.buffer, buf.byteOffset + cut + 32, 8);
        const len = Number(v.getBigUint64(0, true));
        if (len < HEADER || cut + len > have) break;
        cut += len;
      }
      if (cut === 0 && !atEnd) {
        // One batch larger than the buffer: grow to hold it (bounded by that batch).
        const len = have >= 40 ? Number(new DataView(buf.buffer, buf.byteOffset + 32, 8).getBigUint64(0, true)) : 0;
        if (len > buf.length && base + len <= size) {
          const bigger = new Uint8Array(len);
          bigger.set(buf.subarray(0, have));
          buf = bigger;
          continue;
        }
        cut = have; // a bad length: analyse the rest as it is
      }
      if (atEnd) cut = have;
      const bytes = buf.subarray(0, cut);
      const analysis = analyzeWith(xxh, bytes);
      yield { bytes, base, batchBase: batches, analysis };
      batches += analysis.batches.length;
      if (atEnd) return;
      buf.copyWithin(0, cut, have);
      have -= cut;
      base += cut;
    }
  } finally {
    closeSync(fd);
  }
}

const isRegularFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

// False for what cannot be stat'ed (a symbolic link loop): readInputBytes then says why it cannot be read.
const isDirectory = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const PCAP_MAGIC = [0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, 0x0a0d0d0a];

/** Hook for captures: their messages come from the capture reader (captures.md), not this walker yet. */
function refuseCapture(path: string, head: Uint8Array): void {
  if (head.length < 4) return;
  const magic = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false);
  if (PCAP_MAGIC.includes(magic))
    throw new CliProblem(`iggy-batch: ${visibleText(path)} is a capture; messages does not read captures yet (inspect does once the capture reader lands)`);
}

// Nothing to print: inspect's own verdict is wanted, not its text.
const discard = (): Promise<void> => Promise.resolve();

/**
 * The exit status `inspect PATH` gives (1 when the input has errors): a streamed listing reads batches a run at a
 * time, which sees neither a segment's or partition's offset chain nor its recovery, so the verdict is inspect's
 * own, from a second streamed pass in bounded memory.
 */
async function inspectStatus(path: string, format: FormatChoice, directory: boolean): Promise<number> {
  if (directory) return inspectDirectory(discard, path, false, false);
  return (await inspectStreamed(discard, path, format, false, false)) ?? inspectOne(discard, await readInputBytes(path), path, format, false, false);
}

/** Lists the messages of PATH; returns the exit status, the verdict `inspect PATH` gives. */
export async function listMessages(path: string, choice: MessagesChoice, write: Sink): Promise<number> {
  const xxh = await loadXxh3();
  const filter = new Filter(choice);
  const mode = choice.payload ?? "text";
  let piece: string[] = [];
  const flush = async () => {
    if (piece.length > 0) await write(piece.join(""));
    piece = [];
  };
  const emit = async (records: Iterable<MessageRecord>): Promise<boolean> => {
    for (const m of records) {
      if (!filter.keep(m)) continue;
      piece.push(
        (choice.jsonl
          ? JSON.stringify(messageJson(m, choice.payload))
          : choice.template !== null
            ? renderTemplate(choice.template, m, mode)
            : defaultLine(m, choice.payload)) + (choice.template !== null && !choice.jsonl ? "" : "\n"),
      );
      if (piece.length >= 512) await flush();
      if (filter.done) return false;
    }
    return true;
  };
  const streamFile = async (file: string, label: string | null) => {
    for (const run of fileRuns(xxh, file)) {
      if (!(await emit(messagesOf(run.analysis, run.bytes, label, run.base, run.batchBase)))) return false;
    }
    return true;
  };

  if (path !== "-" && isDirectory(path)) {
    const logs = readdirSync(path)
      .filter((n) => /^\d{1,20}\.log$/.test(n))
      .sort((a, b) => ((startOffsetOfName(a) ?? 0n) < (startOffsetOfName(b) ?? 0n) ? -1 : 1));
    if (logs.length === 0)
      throw new CliProblem(`iggy-batch: ${visibleText(path)} holds no segment (.log named by its 20-digit start offset): partition-no-segments`);
    for (const name of logs) if (!(await streamFile(join(path, name), name))) break;
    await flush();
    return inspectStatus(path, choice.format, true);
  } else if (
    path !== "-" &&
    isRegularFile(path) &&
    (choice.format === "batches" ||
      choice.format === "segment" ||
      (choice.format === "auto" && (/\.log$/i.test(path) || statSync(path).size >= STREAM_MIN_BYTES)))
  ) {
    await streamFile(path, null);
    await flush();
    return inspectStatus(path, choice.format, false);
  } else {
    const bytes = await readInputBytes(path);
    refuseCapture(path, bytes.subarray(0, 4));
    // Plain batches that tile a large file stream; anything else is opened as its format, read whole.
    const { opened } = await openFile(bytes, path, choice.format);
    await emit(messagesOf(opened.analysis, bytes, null));
    await flush();
    return opened.analysis.summary.errors > 0 ? 1 : 0;
  }
}
