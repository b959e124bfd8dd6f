/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { buildFromSpec, BuildSpecError } from "../src/core/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { TOOL_VERSION } from "../src/version.ts";
import type { FormatChoice } from "../src/core/containers/index.ts";
import { FORMAT_NAMES } from "../src/core/containers/index.ts";
import { terminalLines, terminalText } from "../src/lib/text-escape.ts";
import { CliProblem, convertOne, inspectDirectory, inspectOne, isDirectory, parseFormat } from "./containers.ts";
import { diagramOf, parseDiagramTarget, parseRange, pictureOf, reportOf, subjectOf } from "./findings.ts";
import { ArgError, commandHelp, HELP_FLAGS, parseArgs, usageLine, VERSION_FLAG, type CommandSpec, type ParsedArgs } from "./args.ts";
import { openSink, readInputBytes, slices, UsageError, watchStdio, writeText, type Sink } from "./io.ts";
import { inspectStreamed } from "./inspect-input.ts";
import { plural } from "../src/format/values.ts";
import { InputShrank } from "../src/core/range-walk.ts";

const FORMAT_OPTION = { name: "--format", value: "NAME", help: `auto (default), ${FORMAT_NAMES.join(", ")} (see containers.md)` };
const ENVELOPE_OPTION = {
  name: "--envelope",
  value: "NAME",
  conflicts: "--format",
  help: "alias: poll-reply = --format poll-reply, replicated-record = --format prepare, none = --format batches",
};
const REDACT_HEADERS_OPTION = { name: "--user-headers", requires: "--redact", help: "with --redact: also replace user header values" };
const REDACT_IDS_OPTION = { name: "--ids", requires: "--redact", help: "with --redact: also replace message ids" };
const OUT_HELP = "write to OUT instead of standard output (- is standard output)";
const BINARY_OUT_HELP = "where the bytes go, required (- is standard output, never a terminal)";

/** Every command and its options: parsing, help and the usage text all read this table. */
const COMMANDS: readonly CommandSpec[] = [
  {
    name: "inspect",
    operand: "PATH|-",
    summary: "decode a file, standard input (-), or a partition directory (every *.log and *.index in it)",
    options: [
      FORMAT_OPTION,
      ENVELOPE_OPTION,
      { name: "--json", help: "print one JSON document (see contracts.md)" },
      { name: "--no-frames", requires: "--json", help: "leave frames out of the JSON" },
      { name: "--out", alias: "-o", value: "OUT", help: OUT_HELP },
    ],
  },
  {
    name: "report",
    operand: "FILE|-",
    summary: "print a Markdown report for a bug tracker (exit status as inspect)",
    options: [
      FORMAT_OPTION,
      ENVELOPE_OPTION,
      { name: "--out", alias: "-o", value: "REPORT.md", help: OUT_HELP },
      { name: "--text", help: "plain text instead of Markdown" },
      { name: "--redact", help: "report on a redacted copy (payloads replaced, the same findings)" },
      REDACT_HEADERS_OPTION,
      REDACT_IDS_OPTION,
      { name: "--svg", value: "FILE.svg", conflicts: "--embed-svg", help: "write a picture of the bytes around the first finding to FILE and link it" },
      { name: "--embed-svg", help: "embed that picture in the report as a data: URL" },
    ],
  },
  {
    name: "redact",
    operand: "FILE|-",
    summary:
      "write a copy with payloads (and with --user-headers header values, with --ids message ids) replaced and checksums re-made: exactly the original's diagnostics",
    options: [
      { name: "--out", alias: "-o", value: "OUT.bin", required: true, help: BINARY_OUT_HELP },
      FORMAT_OPTION,
      ENVELOPE_OPTION,
      { name: "--user-headers", help: "also replace user header values (keys, kinds and lengths kept)" },
      { name: "--ids", help: "also replace message ids" },
    ],
  },
  {
    name: "render",
    operand: "FILE|-",
    summary: "write the hex map of bytes A..B as SVG with field colours, marked problem bytes and a caption (exit status as inspect)",
    options: [
      { name: "--range", value: "A..B", help: "half-open, decimal or 0x (default: around the first finding)" },
      {
        name: "--diagram",
        value: "batch:N|frame:N:K",
        conflicts: "--range",
        help: "draw the layout diagram of batch N's header or of frame K of batch N instead",
      },
      { name: "--out", alias: "-o", value: "OUT.svg", help: OUT_HELP },
      FORMAT_OPTION,
      ENVELOPE_OPTION,
      { name: "--redact", help: "draw a redacted copy" },
      REDACT_HEADERS_OPTION,
      REDACT_IDS_OPTION,
    ],
  },
  {
    name: "convert",
    operand: "LEGACY.bin|-",
    summary: "rewrite legacy messages (iggy message poll --output-file) as a valid stamped segment",
    options: [
      { name: "--out", alias: "-o", value: "OUT.log", required: true, help: BINARY_OUT_HELP },
      { name: "--partition-id", value: "N", help: "the segment's partition_id (a u64; default 0)" },
      FORMAT_OPTION,
    ],
  },
  {
    name: "build",
    operand: "SPEC.json|-",
    summary: "encode the batches a JSON description gives (see README) into OUT",
    options: [{ name: "--out", alias: "-o", value: "OUT.bin", required: true, help: BINARY_OUT_HELP }],
  },
];

const USAGE = [
  "usage:",
  ...COMMANDS.map((c) => "  " + usageLine(c)),
  "  iggy-batch COMMAND --help | iggy-batch --version",
  "",
  ...COMMANDS.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`),
  "",
  "exit status: 0 no errors, 1 at least one error diagnostic, 2 usage or I/O problem",
].join("\n");

/** The one operand. */
function operandOf(spec: CommandSpec, parsed: ParsedArgs): string {
  if (parsed.operands.length !== 1) throw new ArgError(`expected exactly one ${spec.operand}`);
  return parsed.operands[0] as string;
}

/** --format, or its --envelope alias; default auto. */
function formatOf(parsed: ParsedArgs): FormatChoice {
  for (const flag of ["--format", "--envelope"]) {
    const value = parsed.options.get(flag);
    if (typeof value === "string") return parseFormat(flag, terminalText(value));
  }
  return "auto";
}

const outOf = (parsed: ParsedArgs): string => (parsed.options.get("--out") as string | undefined) ?? "-";

/** Standard output or -o's file as the containers' writer; the file is opened at the first write, so a failed read leaves it as it was. */
function writerTo(out: string): { write: (chunks: Iterable<string>) => Promise<void>; end: () => Promise<void> } {
  let sink: Sink | null = null;
  return {
    write: async (chunks) => writeText((sink ??= await openSink(out)), chunks),
    end: async () => (sink ?? (await openSink(out))).end(),
  };
}

async function inspect(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const format = formatOf(parsed);
  const json = parsed.options.has("--json");
  const withFrames = !parsed.options.has("--no-frames");
  const writer = writerTo(outOf(parsed));
  const status =
    (format === "auto" || format === "partition") && (await isDirectory(path))
      ? await inspectDirectory(writer.write, path, json, withFrames)
      : // Large plain batch files stream through the kernel (flat memory); everything else is read whole.
        ((await inspectStreamed(writer.write, path, format, json, withFrames)) ??
        (await inspectOne(writer.write, await readInputBytes(path), path, format, json, withFrames)));
  await writer.end();
  return status;
}

const has = (parsed: ParsedArgs, flag: string): boolean => parsed.options.has(flag);
const redactChoice = (parsed: ParsedArgs, always = false) =>
  always || has(parsed, "--redact") ? { userHeaders: has(parsed, "--user-headers"), ids: has(parsed, "--ids") } : null;

async function report(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = outOf(parsed);
  const subject = await subjectOf(await readInputBytes(path), path, formatOf(parsed), redactChoice(parsed));
  const svgPath = parsed.options.get("--svg");
  const { report: text, svgFile } = reportOf(subject, {
    text: has(parsed, "--text"),
    svgFile: typeof svgPath === "string" ? svgPath : null,
    embedSvg: has(parsed, "--embed-svg"),
    out,
  });
  if (svgFile) {
    const sink = await openSink(svgFile.path);
    await writeText(sink, slices(svgFile.svg));
    await sink.end();
  }
  const writer = writerTo(out);
  await writer.write(slices(text + "\n"));
  await writer.end();
  return subject.analysis.summary.errors > 0 ? 1 : 0;
}

async function redact(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const subject = await subjectOf(await readInputBytes(path), path, formatOf(parsed), {
    userHeaders: has(parsed, "--user-headers"),
    ids: has(parsed, "--ids"),
  });
  const sink = await openSink(out);
  await sink.write(subject.bytes);
  await sink.end();
  const n = subject.analysis.diagnostics.length;
  process.stderr.write(
    `iggy-batch: wrote ${subject.bytes.length} bytes to ${terminalText(out)}: ${subject.replaced}; the same ${plural(n, "diagnostic")} as the original (SHA-256 ${subject.redacted?.originalSha256})\n`,
  );
  return 0;
}

async function render(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const rangeText = parsed.options.get("--range");
  const range = typeof rangeText === "string" ? parseRange(rangeText) : null;
  if (typeof rangeText === "string" && !range)
    throw new UsageError(`iggy-batch: --range takes A..B (decimal or 0x hex, A ≤ B), not ${JSON.stringify(terminalText(rangeText))}`);
  const bytes = await readInputBytes(path);
  if (range && range.start >= bytes.length && bytes.length > 0)
    throw new UsageError(`iggy-batch: --range starts at ${range.start}, past the end of the input (${bytes.length} bytes)`);
  const subject = await subjectOf(bytes, path, formatOf(parsed), redactChoice(parsed));
  const diagramText = parsed.options.get("--diagram");
  const target = typeof diagramText === "string" ? parseDiagramTarget(subject.analysis, diagramText) : null;
  if (typeof target === "string") throw new UsageError(`iggy-batch: ${terminalText(target)}`);
  const writer = writerTo(outOf(parsed));
  await writer.write(slices((target ? diagramOf(subject, target) : pictureOf(subject, range).svg) + "\n"));
  await writer.end();
  return subject.analysis.summary.errors > 0 ? 1 : 0;
}

async function convert(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  const id = (parsed.options.get("--partition-id") as string | undefined) ?? "0";
  if (!/^\d{1,20}$/.test(id) || BigInt(id) > 0xffff_ffff_ffff_ffffn)
    throw new UsageError(`iggy-batch: --partition-id takes a u64, not ${JSON.stringify(terminalText(id))}`);
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const segment = await convertOne(await readInputBytes(path), path, formatOf(parsed), out, BigInt(id));
  if (out === "-") await (await openSink("-")).write(segment);
  else process.stderr.write(`iggy-batch: wrote a ${segment.length}-byte stamped segment to ${terminalText(out)}\n`);
  return 0;
}

async function build(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const file = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const bytes = await readInputBytes(file);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new UsageError(`iggy-batch: ${terminalText(file)} is not JSON: ${terminalText((err as Error).message)}`);
  }
  let batch: Uint8Array;
  try {
    batch = buildFromSpec(await loadXxh3(), json, {
      nowMillis: () => Date.now(),
      randomBytes: (n) => new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n))),
    });
  } catch (err) {
    if (err instanceof BuildSpecError || err instanceof RangeError) throw new UsageError(`iggy-batch: ${terminalText(err.message)}`);
    throw err;
  }
  const sink = await openSink(out);
  await sink.write(batch);
  await sink.end();
  if (out !== "-") process.stderr.write(`iggy-batch: wrote ${batch.length} bytes to ${terminalText(out)}\n`);
  return 0;
}

const RUN: Record<string, (spec: CommandSpec, parsed: ParsedArgs) => Promise<number>> = { inspect, report, redact, render, convert, build };

/** --help and --version count anywhere before a "--". */
const hasFlag = (args: readonly string[], flags: readonly string[]): boolean => {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => flags.includes(a));
};

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const print = (text: string) => {
    process.stdout.write(text + "\n");
    return 0;
  };
  if (command === undefined) throw new UsageError(USAGE);
  if (HELP_FLAGS.includes(command)) return print(USAGE);
  if (command === VERSION_FLAG) return print(`iggy-batch ${TOOL_VERSION}`);
  if (command === "help") {
    const topic = COMMANDS.find((c) => c.name === rest[0]);
    if (rest.length > 0 && !topic) throw new UsageError(`iggy-batch: no help for ${terminalText(rest[0] as string)}\n${USAGE}`);
    return print(topic ? commandHelp(topic) : USAGE);
  }
  const spec = COMMANDS.find((c) => c.name === command);
  if (!spec) throw new UsageError(`iggy-batch: unknown command ${terminalText(command)}\n${USAGE}`);
  if (hasFlag(rest, HELP_FLAGS)) return print(commandHelp(spec));
  if (hasFlag(rest, [VERSION_FLAG])) return print(`iggy-batch ${TOOL_VERSION}`);
  try {
    return await (RUN[spec.name] as (s: CommandSpec, p: ParsedArgs) => Promise<number>)(spec, parseArgs(spec, rest));
  } catch (err) {
    if (err instanceof ArgError)
      throw new UsageError(`iggy-batch ${spec.name}: ${err.message}\nusage: ${usageLine(spec)}\n(iggy-batch ${spec.name} --help for more)`);
    throw err;
  }
}

/** Runs the command with argv (without node and script); resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  watchStdio();
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof UsageError || err instanceof CliProblem) {
      process.stderr.write(terminalLines(err.message) + "\n");
      return 2;
    }
    // contracts.md: an I/O problem is exit 2 with a message, as an unreadable file is.
    if (err instanceof InputShrank) {
      process.stderr.write(terminalLines(`iggy-batch: cannot read the input: ${err.message}`) + "\n");
      return 2;
    }
    // Never exit 1 for a crash: 1 means "the input has errors" to scripts.
    process.stderr.write(terminalLines(`iggy-batch: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`) + "\n");
    return 2;
  }
}
