/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { phaseDone, printPhases } from "./timings.ts";
import { buildFromSpec, BuildSpecError } from "../src/core/edit/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { TOOL_VERSION } from "../src/version.ts";
import type { FormatChoice } from "../src/core/containers/index.ts";
import { FORMAT_NAMES } from "../src/core/containers/index.ts";
import { visibleLines, visibleText } from "../src/lib/text-escape.ts";
import { CliProblem, convertOne, inspectDirectory, inspectOne, isDirectory, parseFormat } from "./containers.ts";
import { diagramOf, parseDiagramTarget, parseRange, pictureOf, reportDirectory, reportOf, subjectOf, type Subject } from "./findings.ts";
import { explainText } from "./explain.ts";
import { listMessages } from "./messages.ts";
import { ArgError, commandHelp, HELP_FLAGS, parseArgs, usageLine, VERSION_FLAG, type CommandSpec, type ParsedArgs } from "./args.ts";
import { openSink, readInputBytes, slices, UsageError, watchStdio, writeText, type Sink } from "./io.ts";
import { inspectStreamed } from "./inspect-input.ts";
import { captureInput, extractCapture, inspectCapture, parsePort, reportCapture } from "./capture.ts";
import { plural } from "../src/format/values.ts";
import { WIRESHARK_COMMAND, wireshark } from "./wireshark.ts";
import { InputShrank } from "../src/core/walk/range-walk.ts";

const FORMAT_OPTION = { name: "--format", value: "NAME", help: `auto (default), ${FORMAT_NAMES.join(", ")} (see docs/spec/containers.md)` };
const ENVELOPE_OPTION = {
  name: "--envelope",
  value: "NAME",
  conflicts: "--format",
  help: "alias: poll-reply = --format poll-reply, replicated-record = --format prepare, none = --format batches",
};
const REDACT_HEADERS_OPTION = { name: "--user-headers", requires: "--redact", help: "with --redact: also replace user header values" };
const REDACT_IDS_OPTION = { name: "--ids", requires: "--redact", help: "with --redact: also replace message ids" };
const PORT_OPTION = { name: "--port", value: "N", help: "a capture's Iggy server TCP port (default 8090; other connections are recognised by content)" };
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
      { name: "--json", help: "print one JSON document (see docs/spec/contracts.md)" },
      { name: "--no-frames", requires: "--json", help: "leave frames out of the JSON" },
      { name: "--out", alias: "-o", value: "OUT", help: OUT_HELP },
      PORT_OPTION,
    ],
  },
  {
    name: "report",
    operand: "PATH|-",
    summary: "print a Markdown report for a bug tracker of a file, standard input or a partition directory (exit status as inspect)",
    options: [
      {
        name: "--base-url",
        value: "URL",
        help: "add a share link opening the bytes around the first finding on the explorer served at URL (default: no link)",
      },
      FORMAT_OPTION,
      ENVELOPE_OPTION,
      { name: "--out", alias: "-o", value: "REPORT.md", help: OUT_HELP },
      { name: "--text", help: "plain text instead of Markdown" },
      { name: "--redact", help: "report on a redacted copy (payloads replaced, the same findings)" },
      REDACT_HEADERS_OPTION,
      REDACT_IDS_OPTION,
      {
        name: "--svg",
        value: "FILE.svg",
        conflicts: "--embed-svg",
        help: "write a picture of the bytes around the first finding to FILE and reference it: attach FILE beside the report",
      },
      { name: "--embed-svg", help: "embed that picture as a data: URL (GitHub drops those: prefer --svg)" },
      PORT_OPTION,
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
    name: "extract",
    operand: "CAPTURE|-",
    summary: "write one protocol message of a capture (--message C:I), or every batch in it back to back (--batches), to OUT",
    options: [
      { name: "--message", value: "C:I", conflicts: "--batches", help: "connection C's message I (as inspect numbers them); it opens as request/reply" },
      { name: "--batches", help: "every batch of every message, back to back (a batches file the rest of the tool reads)" },
      { name: "--out", alias: "-o", value: "OUT.bin", required: true, help: BINARY_OUT_HELP },
      { name: "--redact", help: "every batch written with its payloads replaced and checksums re-made (the same findings)" },
      REDACT_HEADERS_OPTION,
      REDACT_IDS_OPTION,
      PORT_OPTION,
    ],
  },
  {
    name: "messages",
    operand: "PATH|-",
    summary: "one line per message: absolute offset, time, id, sizes, header keys, payload (docs/spec/contracts.md §1.3; exit status as inspect)",
    options: [
      { name: "--jsonl", conflicts: "--format", help: "one JSON object per message, user headers decoded" },
      { name: "--print-payload", value: "text|hex|base64", help: "print the whole payload (text where it is UTF-8, else base64)" },
      { name: "--from", value: "OFFSET", help: "keep messages whose offset is at least OFFSET" },
      { name: "--count", value: "N", help: "stop after N messages" },
      { name: "--batch", value: "N", help: "only the messages of batch N (numbered from 0 in the input)" },
      {
        name: "--format",
        value: "TEMPLATE",
        help: "kcat-like: %o offset, %t timestamp, %T origin timestamp, %k id, %s payload, %S its length, %h header keys, %p partition, %b batch, \\n, \\t",
      },
      { name: "--input-format", value: "NAME", help: `read PATH as this format: auto (default), ${FORMAT_NAMES.join(", ")}` },
      { name: "--out", alias: "-o", value: "OUT", help: OUT_HELP },
    ],
  },
  {
    name: "explain",
    operand: "CODE|all",
    summary: "what a diagnostic code means: the rule, what the server does, likely causes, the upstream source",
    options: [],
  },
  {
    name: "build",
    operand: "SPEC.json|-",
    summary: "encode the batches a JSON description gives (see README) into OUT",
    options: [{ name: "--out", alias: "-o", value: "OUT.bin", required: true, help: BINARY_OUT_HELP }],
  },
  WIRESHARK_COMMAND,
];

const USAGE = [
  "usage:",
  ...COMMANDS.map((c) => "  " + usageLine(c)),
  "  iggy-batch COMMAND --help | iggy-batch --version",
  "",
  ...COMMANDS.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`),
  "",
  "exit status: 0 no errors, 1 at least one error diagnostic, 2 usage or I/O problem",
  "specs: docs/spec/batch-format.md, containers.md, captures.md, contracts.md in the repository; iggy-batch explain CODE for a finding",
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
    if (typeof value === "string") return parseFormat(flag, visibleText(value));
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
  phaseDone("start-up and bundle load");
  const path = operandOf(spec, parsed);
  const format = formatOf(parsed);
  const json = parsed.options.has("--json");
  const withFrames = !parsed.options.has("--no-frames");
  const writer = writerTo(outOf(parsed));
  const port = parsePort(parsed.options.get("--port"));
  const dir = (format === "auto" || format === "partition") && (await isDirectory(path));
  const capture = dir ? null : await captureInput(path, format);
  if (capture && "source" in capture) {
    try {
      const code = await inspectCapture(writer.write, capture, json, withFrames, port);
      await writer.end();
      return code;
    } finally {
      capture.close();
    }
  }
  const status = capture
    ? await inspectOne(writer.write, capture.bytes, path, format, json, withFrames)
    : dir
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
  const capture = await captureInput(path, formatOf(parsed));
  if (capture && "source" in capture) {
    try {
      const r = await reportCapture(capture, parsePort(parsed.options.get("--port")));
      const writer = writerTo(out);
      await writer.write(slices(r.text));
      await writer.end();
      return r.status;
    } finally {
      capture.close();
    }
  }
  const svgPath = parsed.options.get("--svg");
  const baseUrl = parsed.options.get("--base-url");
  if (typeof baseUrl === "string" && !/^https?:\/\/[^\s#]+$/.test(baseUrl))
    throw new UsageError(`iggy-batch: --base-url takes the explorer's http(s) address, not ${JSON.stringify(visibleText(baseUrl))}`);
  const choice = {
    text: has(parsed, "--text"),
    svgFile: typeof svgPath === "string" ? svgPath : null,
    embedSvg: has(parsed, "--embed-svg"),
    out,
    baseUrl: typeof baseUrl === "string" ? baseUrl : null,
  };
  const format = formatOf(parsed);
  const directory = (format === "auto" || format === "partition") && (await isDirectory(path));
  if (directory && (has(parsed, "--redact") || has(parsed, "--embed-svg")))
    throw new UsageError("iggy-batch: report DIR takes neither --redact nor --embed-svg; redact or embed one segment at a time (report FILE)");
  const made = directory ? await reportDirectory(path, choice) : null;
  const subject = made ? null : await subjectOf(capture ? capture.bytes : await readInputBytes(path), path, format, redactChoice(parsed));
  const { report: text, svgFile } = made ?? reportOf(subject as Subject, choice);
  if (svgFile) {
    const sink = await openSink(svgFile.path);
    await writeText(sink, slices(svgFile.svg));
    await sink.end();
  }
  const writer = writerTo(out);
  await writer.write(slices(text + "\n"));
  await writer.end();
  return made ? made.status : (subject as Subject).analysis.summary.errors > 0 ? 1 : 0;
}

const count = (flag: string, text: string | true | undefined): number | null => {
  if (typeof text !== "string") return null;
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`iggy-batch: ${flag} takes a whole number, not ${JSON.stringify(visibleText(text))}`);
  return Number(text);
};

async function messages(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const mode = parsed.options.get("--print-payload");
  if (mode !== undefined && mode !== "text" && mode !== "hex" && mode !== "base64")
    throw new UsageError(`iggy-batch: --print-payload takes text, hex or base64, not ${JSON.stringify(visibleText(String(mode)))}`);
  const from = parsed.options.get("--from");
  if (typeof from === "string" && (!/^\d{1,20}$/.test(from) || BigInt(from) > 0xffff_ffff_ffff_ffffn))
    throw new UsageError(`iggy-batch: --from takes a message offset (a u64), not ${JSON.stringify(visibleText(from))}`);
  const template = parsed.options.get("--format");
  const inputFormat = parsed.options.get("--input-format");
  const writer = writerTo(outOf(parsed));
  const status = await listMessages(
    path,
    {
      jsonl: has(parsed, "--jsonl"),
      payload: mode ?? null,
      from: typeof from === "string" ? BigInt(from) : null,
      count: count("--count", parsed.options.get("--count")),
      batch: count("--batch", parsed.options.get("--batch")),
      template: typeof template === "string" ? template : null,
      format: typeof inputFormat === "string" ? parseFormat("--format", visibleText(inputFormat)) : "auto",
    },
    (text) => writer.write([text]),
  );
  await writer.end();
  return status;
}

function explain(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  process.stdout.write(explainText(operandOf(spec, parsed)));
  return Promise.resolve(0);
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
    `iggy-batch: wrote ${subject.bytes.length} bytes to ${visibleText(out)}: ${subject.replaced}; the same ${plural(n, "diagnostic")} as the original (SHA-256 ${subject.redacted?.originalSha256})\n`,
  );
  return 0;
}

async function render(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const rangeText = parsed.options.get("--range");
  const range = typeof rangeText === "string" ? parseRange(rangeText) : null;
  if (typeof rangeText === "string" && !range)
    throw new UsageError(`iggy-batch: --range takes A..B (decimal or 0x hex, A ≤ B), not ${JSON.stringify(visibleText(rangeText))}`);
  const bytes = await readInputBytes(path);
  if (range && range.start >= bytes.length && bytes.length > 0)
    throw new UsageError(`iggy-batch: --range starts at ${range.start}, past the end of the input (${bytes.length} bytes)`);
  const subject = await subjectOf(bytes, path, formatOf(parsed), redactChoice(parsed));
  const diagramText = parsed.options.get("--diagram");
  const target = typeof diagramText === "string" ? parseDiagramTarget(subject.analysis, diagramText) : null;
  if (typeof target === "string") throw new UsageError(`iggy-batch: ${visibleText(target)}`);
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
    throw new UsageError(`iggy-batch: --partition-id takes a u64, not ${JSON.stringify(visibleText(id))}`);
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const segment = await convertOne(await readInputBytes(path), path, formatOf(parsed), out, BigInt(id));
  if (out === "-") await (await openSink("-")).write(segment);
  else process.stderr.write(`iggy-batch: wrote a ${segment.length}-byte stamped segment to ${visibleText(out)}\n`);
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
    throw new UsageError(`iggy-batch: ${visibleText(file)} is not JSON: ${visibleText((err as Error).message)}`);
  }
  let batch: Uint8Array;
  try {
    batch = buildFromSpec(await loadXxh3(), json, {
      nowMillis: () => Date.now(),
      randomBytes: (n) => new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n))),
    });
  } catch (err) {
    if (err instanceof BuildSpecError || err instanceof RangeError) throw new UsageError(`iggy-batch: ${visibleText(err.message)}`);
    throw err;
  }
  const sink = await openSink(out);
  await sink.write(batch);
  await sink.end();
  if (out !== "-") process.stderr.write(`iggy-batch: wrote ${batch.length} bytes to ${visibleText(out)}\n`);
  return 0;
}

async function extract(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  const message = parsed.options.get("--message");
  if (typeof message !== "string" && !has(parsed, "--batches")) throw new UsageError("iggy-batch extract: give --message C:I or --batches");
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const capture = await captureInput(path, "capture");
  if (!capture || !("source" in capture)) throw new UsageError(`iggy-batch: cannot read ${visibleText(path)}`);
  let parts: Uint8Array[];
  try {
    parts = await extractCapture(
      capture,
      { message: typeof message === "string" ? message : null, batches: has(parsed, "--batches") },
      parsePort(parsed.options.get("--port")),
      redactChoice(parsed),
    );
  } finally {
    capture.close();
  }
  const sink = await openSink(out);
  let total = 0;
  for (const p of parts) {
    await sink.write(p);
    total += p.length;
  }
  await sink.end();
  if (out !== "-")
    process.stderr.write(
      `iggy-batch: wrote ${total} bytes${typeof message === "string" ? "" : ` (${plural(parts.length, "batch", "batches")})`} to ${visibleText(out)}\n`,
    );
  return 0;
}

const RUN: Record<string, (spec: CommandSpec, parsed: ParsedArgs) => Promise<number>> = {
  inspect,
  report,
  redact,
  render,
  convert,
  build,
  extract,
  wireshark,
  explain,
  messages,
};

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
    if (rest.length > 0 && !topic) throw new UsageError(`iggy-batch: no help for ${visibleText(rest[0] as string)}\n${USAGE}`);
    return print(topic ? commandHelp(topic) : USAGE);
  }
  const spec = COMMANDS.find((c) => c.name === command);
  if (!spec) throw new UsageError(`iggy-batch: unknown command ${visibleText(command)}\n${USAGE}`);
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
    const code = await run(argv);
    printPhases();
    return code;
  } catch (err) {
    if (err instanceof UsageError || err instanceof CliProblem) {
      process.stderr.write(visibleLines(err.message) + "\n");
      return 2;
    }
    // contracts.md: an I/O problem is exit 2 with a message, as an unreadable file is.
    if (err instanceof InputShrank) {
      process.stderr.write(visibleLines(`iggy-batch: cannot read the input: ${err.message}`) + "\n");
      return 2;
    }
    // Never exit 1 for a crash: 1 means "the input has errors" to scripts.
    process.stderr.write(visibleLines(`iggy-batch: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`) + "\n");
    return 2;
  }
}
