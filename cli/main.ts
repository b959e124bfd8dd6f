/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { createHash } from "node:crypto";
import { analyze } from "../src/core/analyze.ts";
import { contractJsonChunks } from "../src/core/contract-json.ts";
import { renderMarkdownReport } from "../src/core/report.ts";
import { buildFromSpec, BuildSpecError } from "../src/core/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { TOOL_VERSION } from "../src/version.ts";
import { ENVELOPES, envelopeById } from "../src/core/envelopes.ts";
import { renderText } from "./text-output.ts";
import { inspectInput } from "./inspect-input.ts";

const USAGE = `usage:
  iggy-batch inspect FILE|- [--json] [--no-frames] [--envelope NAME]
  iggy-batch report FILE|- [-o REPORT.md] [--envelope NAME]
  iggy-batch build SPEC.json|- -o OUT.bin|-

  inspect      decode a raw batch, a segment file of batches, or stdin (-)
    --json       print one JSON document (see contracts.md)
    --no-frames  leave frames out of the JSON
    --envelope   what precedes the first batch: none (default), poll-reply (16 B), replicated-record (256 B)
  report       print a Markdown report for a bug tracker (exit status as inspect)
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
  const { files, flags, envelope } = parseCommon(args, ["--json", "--no-frames"]);
  const { bytes, name, analysis } = await inspectInput(files[0] as string, envelope, flags.has("--json") && !flags.has("--no-frames"), readInput);
  if (flags.has("--json")) await writeChunks(contractJsonChunks(analysis, bytes, name, !flags.has("--no-frames")));
  else process.stdout.write(renderText(analysis, name));
  return analysis.summary.errors > 0 ? 1 : 0;
}

interface CommonArgs {
  readonly files: string[];
  readonly flags: Set<string>;
  readonly out: string | null;
  /** Bytes before the first batch, from --envelope. */
  readonly envelope: number;
  /** The envelope's label for reports, or undefined for plain batches. */
  readonly envelopeLabel: string | undefined;
}

function parseCommon(args: string[], flags: readonly string[]): CommonArgs {
  const files: string[] = [];
  const seen = new Set<string>();
  let out: string | null = null;
  let envelope = 0;
  let envelopeLabel: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-o" || arg === "--out") {
      out = args[++i] ?? null;
      if (out === null) throw new UsageError(`iggy-batch: ${arg} needs a file name\n${USAGE}`);
    } else if (arg === "--envelope") {
      const id = args[++i] ?? "";
      const e = envelopeById(id);
      if (!e) throw new UsageError(`iggy-batch: --envelope takes ${ENVELOPES.map((x) => x.id).join(", ")}, not ${JSON.stringify(id)}`);
      envelope = e.skip;
      envelopeLabel = e.skip > 0 ? `${e.label} (${e.skip} B)` : undefined;
    } else if (flags.includes(arg)) seen.add(arg);
    else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`iggy-batch: unknown option ${arg}\n${USAGE}`);
    else files.push(arg);
  }
  if (files.length !== 1) throw new UsageError(`iggy-batch: expected exactly one FILE or -\n${USAGE}`);
  return { files, flags: seen, out, envelope, envelopeLabel };
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
  const { files, out, envelope, envelopeLabel } = parseCommon(args, []);
  const { bytes, name } = await readInput(files[0] as string);
  const analysis = await analyze(bytes, { startOffset: envelope });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await writeOutput(out ?? "-", renderMarkdownReport(analysis, bytes, { name, sha256, toolVersion: TOOL_VERSION, envelope: envelopeLabel }) + "\n");
  return analysis.summary.errors > 0 ? 1 : 0;
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
    if (command === "--help" || command === "-h" || command === "help") {
      process.stdout.write(USAGE + "\n");
      return 0;
    }
    throw new UsageError(command ? `iggy-batch: unknown command ${command}\n${USAGE}` : USAGE);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(err.message + "\n");
      return 2;
    }
    // Never exit 1 for a crash: 1 means "the input has errors" to scripts.
    process.stderr.write(`iggy-batch: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 2;
  }
}
