/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { buildFromSpec, BuildSpecError } from "../src/core/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import type { FormatChoice } from "../src/core/containers/index.ts";
import { CliProblem, convertOne, inspectDirectory, inspectOne, isDirectory, parseFormat } from "./containers.ts";
import { parseRange, pictureOf, reportOf, subjectOf } from "./findings.ts";

const USAGE = `usage:
  iggy-batch inspect PATH|- [--format NAME] [--json] [--no-frames]
  iggy-batch report FILE|- [--format NAME] [-o REPORT.md] [--text] [--redact [--user-headers] [--ids]] [--svg FILE.svg | --embed-svg]
  iggy-batch redact FILE|- -o OUT.bin|- [--format NAME] [--user-headers] [--ids]
  iggy-batch render FILE|- [--range A..B] [-o OUT.svg] [--format NAME] [--redact [--user-headers] [--ids]]
  iggy-batch convert LEGACY.bin -o OUT.log [--partition-id N]
  iggy-batch build SPEC.json|- -o OUT.bin|-

  inspect      decode a file, stdin (-), or a partition directory (every *.log and *.index in it)
    --format     auto (default), batches, segment, index, partition, poll-reply, send-messages,
                 request, reply, prepare, legacy-messages (see containers.md)
    --envelope   alias: poll-reply = --format poll-reply, replicated-record = --format prepare, none = batches
    --json       print one JSON document (see contracts.md)
    --no-frames  leave frames out of the JSON
  report       print a Markdown report for a bug tracker (exit status as inspect)
    --text       plain text instead of Markdown
    --redact     report on a redacted copy (payloads replaced, the same findings)
    --svg FILE   write a picture of the bytes around the first finding to FILE and link it
    --embed-svg  embed that picture in the report as a data: URL
  redact       write a copy with payloads (and with --user-headers header values, with --ids message ids)
               replaced by "REDACTED" and checksums re-made: exactly the original's diagnostics (exit 0)
  render       write the hex map of bytes A..B (half-open, decimal or 0x; default: around the first
               finding) as SVG, with field colours, marked problem bytes and a caption (exit status as inspect)
  convert      rewrite legacy messages (iggy message poll --output-file) as a valid stamped segment
  build        encode the batches a JSON description gives (see README) into OUT

exit status: 0 no errors, 1 at least one error diagnostic, 2 usage or I/O problem`;

/** An exit status with a message for stderr: usage and I/O problems. */
class UsageError extends Error {
  override readonly name = "UsageError";
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

async function readInput(file: string): Promise<{ bytes: Uint8Array; name: string }> {
  if (file === "-") return { bytes: await readStdin(), name: "-" };
  try {
    const buf = await readFile(file);
    return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), name: basename(file) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (err as Error).message;
    throw new UsageError(`iggy-batch: cannot read ${file}: ${why}`);
  }
}

/** Writes text pieces to stdout in blocks of about 1 MiB, waiting when the pipe is full. */
async function writeChunks(chunks: Iterable<string>): Promise<void> {
  let block = "";
  const flush = async () => {
    if (!process.stdout.write(block)) await new Promise<void>((done) => process.stdout.once("drain", () => done()));
    block = "";
  };
  for (const chunk of chunks) {
    block += chunk;
    if (block.length >= 1 << 20) await flush();
  }
  await flush();
}

async function inspect(args: string[]): Promise<number> {
  const { files, flags, format } = parseCommon(args, ["--json", "--no-frames"]);
  const path = files[0] as string;
  if ((format === "auto" || format === "partition") && (await isDirectory(path))) return inspectDirectory(writeChunks, path, flags.has("--json"), !flags.has("--no-frames"));
  const { bytes } = await readInput(path);
  return inspectOne(writeChunks, bytes, path, format, flags.has("--json"), !flags.has("--no-frames"));
}

interface CommonArgs {
  readonly files: string[];
  readonly flags: Set<string>;
  readonly out: string | null;
  /** --format (or its --envelope alias); default auto. */
  readonly format: FormatChoice;
  /** --partition-id of convert. */
  readonly partitionId: bigint;
  /** Options that take a value, from parseCommon's `valued`. */
  readonly values: Map<string, string>;
}

function parseCommon(args: string[], flags: readonly string[], valued: readonly string[] = []): CommonArgs {
  const files: string[] = [];
  const values = new Map<string, string>();
  const seen = new Set<string>();
  let out: string | null = null;
  let format: FormatChoice = "auto";
  let partitionId = 0n;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-o" || arg === "--out") {
      out = args[++i] ?? null;
      if (out === null) throw new UsageError(`iggy-batch: ${arg} needs a file name\n${USAGE}`);
    } else if (arg === "--format" || arg === "--envelope") {
      format = parseFormat(arg, args[++i]);
    } else if (arg === "--partition-id") {
      const v = args[++i] ?? "";
      if (!/^\d{1,20}$/.test(v) || BigInt(v) > 0xffff_ffff_ffff_ffffn) throw new UsageError(`iggy-batch: --partition-id takes a u64, not ${JSON.stringify(v)}`);
      partitionId = BigInt(v);
    } else if (valued.includes(arg)) {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`iggy-batch: ${arg} needs a value\n${USAGE}`);
      values.set(arg, value);
    } else if (flags.includes(arg)) seen.add(arg);
    else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`iggy-batch: unknown option ${arg}\n${USAGE}`);
    else files.push(arg);
  }
  if (files.length !== 1) throw new UsageError(`iggy-batch: expected exactly one FILE or -\n${USAGE}`);
  return { files, flags: seen, out, format, partitionId, values };
}

async function writeOutput(out: string, data: string | Uint8Array): Promise<void> {
  if (out === "-") { process.stdout.write(data); return; }
  try {
    await writeFile(out, data);
  } catch (err) {
    throw new UsageError(`iggy-batch: cannot write ${out}: ${(err as Error).message}`);
  }
}

const REDACT_FLAGS = ["--redact", "--user-headers", "--ids"];
const redactChoice = (flags: Set<string>, always = false) =>
  always || flags.has("--redact") ? { userHeaders: flags.has("--user-headers"), ids: flags.has("--ids") } : null;

async function report(args: string[]): Promise<number> {
  const { files, out, format, flags, values } = parseCommon(args, ["--text", "--embed-svg", ...REDACT_FLAGS], ["--svg"]);
  const { bytes } = await readInput(files[0] as string);
  const subject = await subjectOf(bytes, files[0] as string, format, redactChoice(flags));
  const choice = { text: flags.has("--text"), svgFile: values.get("--svg") ?? null, embedSvg: flags.has("--embed-svg"), out: out ?? "-" };
  const { report: text, svgFile } = reportOf(subject, choice);
  if (svgFile) await writeOutput(svgFile.path, svgFile.svg);
  await writeOutput(out ?? "-", text + "\n");
  return subject.analysis.summary.errors > 0 ? 1 : 0;
}

async function redact(args: string[]): Promise<number> {
  const { files, out, format, flags } = parseCommon(args, REDACT_FLAGS.slice(1));
  if (out === null) throw new UsageError(`iggy-batch: redact needs -o OUT.bin (or -o - for standard output)\n${USAGE}`);
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const { bytes } = await readInput(files[0] as string);
  const subject = await subjectOf(bytes, files[0] as string, format, redactChoice(flags, true));
  await writeOutput(out, subject.bytes);
  const n = subject.analysis.diagnostics.length;
  process.stderr.write(`iggy-batch: wrote ${subject.bytes.length} bytes to ${out}: ${subject.replaced}; the same ${n} diagnostic${n === 1 ? "" : "s"} as the original (SHA-256 ${subject.redacted?.originalSha256})\n`);
  return 0;
}

async function render(args: string[]): Promise<number> {
  const { files, out, format, flags, values } = parseCommon(args, REDACT_FLAGS, ["--range"]);
  const rangeText = values.get("--range");
  const range = rangeText === undefined ? null : parseRange(rangeText);
  if (rangeText !== undefined && !range) throw new UsageError(`iggy-batch: --range takes A..B (decimal or 0x hex, A ≤ B), not ${JSON.stringify(rangeText)}`);
  const { bytes } = await readInput(files[0] as string);
  if (range && range.start >= bytes.length && bytes.length > 0) throw new UsageError(`iggy-batch: --range starts at ${range.start}, past the end of the input (${bytes.length} bytes)`);
  const subject = await subjectOf(bytes, files[0] as string, format, redactChoice(flags));
  await writeOutput(out ?? "-", pictureOf(subject, range).svg + "\n");
  return subject.analysis.summary.errors > 0 ? 1 : 0;
}

async function convert(args: string[]): Promise<number> {
  const { files, out, format, partitionId } = parseCommon(args, []);
  if (out === null) throw new UsageError(`iggy-batch: convert needs -o OUT.log (or -o - for standard output)\n${USAGE}`);
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const { bytes } = await readInput(files[0] as string);
  const segment = await convertOne(bytes, files[0] as string, format, out, partitionId);
  if (out === "-") process.stdout.write(segment);
  else process.stderr.write(`iggy-batch: wrote a ${segment.length}-byte stamped segment to ${out}\n`);
  return 0;
}

async function build(args: string[]): Promise<number> {
  const { files, out } = parseCommon(args, []);
  if (out === null) throw new UsageError(`iggy-batch: build needs -o OUT.bin (or -o - for standard output)\n${USAGE}`);
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const { bytes } = await readInput(files[0] as string);
  let spec: unknown;
  try {
    spec = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new UsageError(`iggy-batch: ${files[0]} is not JSON: ${(err as Error).message}`);
  }
  let batch: Uint8Array;
  try {
    batch = buildFromSpec(await loadXxh3(), spec, { nowMillis: () => Date.now(), randomBytes: (n) => new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n))) });
  } catch (err) {
    if (err instanceof BuildSpecError || err instanceof RangeError) throw new UsageError(`iggy-batch: ${err.message}`);
    throw err;
  }
  await writeOutput(out, batch);
  if (out !== "-") process.stderr.write(`iggy-batch: wrote ${batch.length} bytes to ${out}\n`);
  return 0;
}

/** Runs the command with argv (without node and script); resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "inspect") return await inspect(rest);
    if (command === "report") return await report(rest);
    if (command === "build") return await build(rest);
    if (command === "convert") return await convert(rest);
    if (command === "redact") return await redact(rest);
    if (command === "render") return await render(rest);
    if (command === "--help" || command === "-h" || command === "help") {
      process.stdout.write(USAGE + "\n");
      return 0;
    }
    throw new UsageError(command ? `iggy-batch: unknown command ${command}\n${USAGE}` : USAGE);
  } catch (err) {
    if (err instanceof UsageError || err instanceof CliProblem) {
      process.stderr.write(err.message + "\n");
      return 2;
    }
    // Never exit 1 for a crash: 1 means "the input has errors" to scripts.
    process.stderr.write(`iggy-batch: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 2;
  }
}
