/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { basename } from "node:path";
import { createHash } from "node:crypto";
import { analyze } from "../src/core/analyze.ts";
import { contractJsonChunks } from "../src/core/contract-json.ts";
import { renderMarkdownReport } from "../src/core/report.ts";
import { buildFromSpec, BuildSpecError } from "../src/core/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { TOOL_VERSION } from "../src/version.ts";
import { ENVELOPES, envelopeById } from "../src/core/envelopes.ts";
import { terminalLines, terminalText } from "../src/lib/text-escape.ts";
import { renderText } from "./text-output.ts";
import { ArgError, commandHelp, HELP_FLAGS, parseArgs, usageLine, VERSION_FLAG, type CommandSpec, type ParsedArgs } from "./args.ts";
import { openSink, readInputBytes, slices, UsageError, watchStdio, writeText } from "./io.ts";

const ENVELOPE_OPTION = { name: "--envelope", value: "NAME", help: `what precedes the first batch: ${ENVELOPES.map((e) => (e.skip ? `${e.id} (${e.skip} B)` : `${e.id} (default)`)).join(", ")}` };
const OUT_HELP = "write to OUT instead of standard output (- is standard output)";

/** Every command and its options: parsing, help and the usage text all read this table. */
const COMMANDS: readonly CommandSpec[] = [
  {
    name: "inspect", operand: "FILE|-", summary: "decode a raw batch, a segment file of batches, or standard input (-)",
    options: [
      { name: "--json", help: "print one JSON document (see contracts.md)" },
      { name: "--no-frames", requires: "--json", help: "leave frames out of the JSON" },
      ENVELOPE_OPTION,
      { name: "--out", alias: "-o", value: "OUT", help: OUT_HELP },
    ],
  },
  {
    name: "report", operand: "FILE|-", summary: "print a Markdown report for a bug tracker (exit status as inspect)",
    options: [ENVELOPE_OPTION, { name: "--out", alias: "-o", value: "REPORT.md", help: OUT_HELP }],
  },
  {
    name: "build", operand: "SPEC.json|-", summary: "encode the batches a JSON description gives (see README) into OUT",
    options: [{ name: "--out", alias: "-o", value: "OUT.bin", required: true, help: "where the bytes go, required (- is standard output, never a terminal)" }],
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

const verdictStatus = (errors: number): number => (errors > 0 ? 1 : 0);

/** The one operand, and the bytes to skip from --envelope with the envelope's label for reports. */
function inputOf(spec: CommandSpec, parsed: ParsedArgs): { file: string; envelope: number; envelopeLabel: string | undefined } {
  if (parsed.operands.length !== 1) throw new ArgError(`expected exactly one ${spec.operand}`);
  const id = parsed.options.get("--envelope");
  if (typeof id !== "string") return { file: parsed.operands[0] as string, envelope: 0, envelopeLabel: undefined };
  const e = envelopeById(id);
  if (!e) throw new UsageError(`iggy-batch: --envelope takes ${ENVELOPES.map((x) => x.id).join(", ")}, not ${JSON.stringify(terminalText(id))}`);
  return { file: parsed.operands[0] as string, envelope: e.skip, envelopeLabel: e.skip > 0 ? `${e.label} (${e.skip} B)` : undefined };
}

const nameOf = (file: string): string => (file === "-" ? "-" : basename(file));
const outOf = (parsed: ParsedArgs): string => (parsed.options.get("--out") as string | undefined) ?? "-";

async function inspect(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const { file, envelope } = inputOf(spec, parsed);
  const bytes = await readInputBytes(file);
  const analysis = await analyze(bytes, { startOffset: envelope });
  // Opened only now, so a failed read leaves an existing OUT as it was.
  const sink = await openSink(outOf(parsed));
  const pieces = parsed.options.has("--json") ? contractJsonChunks(analysis, bytes, nameOf(file), !parsed.options.has("--no-frames")) : slices(renderText(analysis, nameOf(file)));
  await writeText(sink, pieces);
  await sink.end();
  return verdictStatus(analysis.summary.errors);
}

async function report(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const { file, envelope, envelopeLabel } = inputOf(spec, parsed);
  const bytes = await readInputBytes(file);
  const analysis = await analyze(bytes, { startOffset: envelope });
  const sink = await openSink(outOf(parsed));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await writeText(sink, slices(renderMarkdownReport(analysis, bytes, { name: nameOf(file), sha256, toolVersion: TOOL_VERSION, envelope: envelopeLabel }) + "\n"));
  await sink.end();
  return verdictStatus(analysis.summary.errors);
}

async function build(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const { file } = inputOf(spec, parsed);
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
    batch = buildFromSpec(await loadXxh3(), json, { nowMillis: () => Date.now(), randomBytes: (n) => new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n))) });
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

const RUN: Record<string, (spec: CommandSpec, parsed: ParsedArgs) => Promise<number>> = { inspect, report, build };

/** --help and --version count anywhere before a "--". */
const hasFlag = (args: readonly string[], flags: readonly string[]): boolean => {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => flags.includes(a));
};

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const print = (text: string) => { process.stdout.write(text + "\n"); return 0; };
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
    if (err instanceof ArgError) throw new UsageError(`iggy-batch ${spec.name}: ${err.message}\nusage: ${usageLine(spec)}\n(iggy-batch ${spec.name} --help for more)`);
    throw err;
  }
}

/** Runs the command with argv (without node and script); resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  watchStdio();
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(terminalLines(err.message) + "\n");
      return 2;
    }
    // Never exit 1 for a crash: 1 means "the input has errors" to scripts.
    process.stderr.write(terminalLines(`iggy-batch: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`) + "\n");
    return 2;
  }
}
