/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { buildFromSpec, BuildSpecError } from "../src/core/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import type { FormatChoice } from "../src/core/containers/index.ts";
import { CliProblem, convertOne, inspectDirectory, inspectOne, isDirectory, parseFormat, reportOne } from "./containers.ts";
import { inspectStreamed } from "./inspect-input.ts";

const USAGE = `usage:
  iggy-batch inspect PATH|- [--format NAME] [--json] [--no-frames]
  iggy-batch report FILE|- [--format NAME] [-o REPORT.md]
  iggy-batch convert LEGACY.bin -o OUT.log [--partition-id N]
  iggy-batch build SPEC.json|- -o OUT.bin|-

  inspect      decode a file, stdin (-), or a partition directory (every *.log and *.index in it)
    --format     auto (default), batches, segment, index, partition, poll-reply, send-messages,
                 request, reply, prepare, legacy-messages (see containers.md)
    --envelope   alias: poll-reply = --format poll-reply, replicated-record = --format prepare, none = batches
    --json       print one JSON document (see contracts.md)
    --no-frames  leave frames out of the JSON
  report       print a Markdown report for a bug tracker (exit status as inspect)
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
  // Large plain batch files stream through the kernel (flat memory); everything else is read whole.
  const streamed = await inspectStreamed(writeChunks, path, format, flags.has("--json"), !flags.has("--no-frames"));
  if (streamed !== null) return streamed;
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
}

function parseCommon(args: string[], flags: readonly string[]): CommonArgs {
  const files: string[] = [];
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
    } else if (flags.includes(arg)) seen.add(arg);
    else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`iggy-batch: unknown option ${arg}\n${USAGE}`);
    else files.push(arg);
  }
  if (files.length !== 1) throw new UsageError(`iggy-batch: expected exactly one FILE or -\n${USAGE}`);
  return { files, flags: seen, out, format, partitionId };
}

async function writeOutput(out: string, data: string | Uint8Array): Promise<void> {
  if (out === "-") { process.stdout.write(data); return; }
  try {
    await writeFile(out, data);
  } catch (err) {
    throw new UsageError(`iggy-batch: cannot write ${out}: ${(err as Error).message}`);
  }
}

async function report(args: string[]): Promise<number> {
  const { files, out, format } = parseCommon(args, []);
  const { bytes } = await readInput(files[0] as string);
  const { text, status } = await reportOne(bytes, files[0] as string, format);
  await writeOutput(out ?? "-", text);
  return status;
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
