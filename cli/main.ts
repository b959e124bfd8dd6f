/**
 * The iggy-batch command line: parses arguments, runs the command and returns an exit status. Only the
 * command table and the argument parser load at start; each command's modules load when it runs
 * (inspect-command.ts, commands.ts, wireshark.ts), so `inspect` of a segment pays for no report, capture
 * or dissector code.
 */
import { printPhases } from "./timings.ts";
import { TOOL_VERSION } from "../src/version.ts";
import { FORMAT_NAMES } from "../src/core/containers/types.ts";
import { visibleLines, visibleText } from "../src/lib/text-escape.ts";
import { ArgError, commandHelp, HELP_FLAGS, parseArgs, usageLine, VERSION_FLAG, type CommandSpec, type ParsedArgs } from "./args.ts";
import { UsageError, watchStdio } from "./io.ts";
import { CliProblem } from "./command-options.ts";

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
  {
    name: "wireshark",
    operand: "",
    summary: "write a Lua dissector for Wireshark/tshark 4.0+ generated from the layout and code tables (see README)",
    options: [{ name: "--out", alias: "-o", value: "iggy.lua", help: "write to this file instead of standard output (- is standard output)" }],
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
  "specs: docs/spec/batch-format.md, containers.md, captures.md, contracts.md in the repository; iggy-batch explain CODE for a finding",
].join("\n");

type Run = (spec: CommandSpec, parsed: ParsedArgs) => Promise<number>;
const other =
  (name: "report" | "redact" | "render" | "convert" | "build" | "extract" | "explain" | "messages"): Run =>
  async (spec, parsed) =>
    (await import("./commands.ts"))[name](spec, parsed);

const RUN: Record<string, Run> = {
  inspect: async (spec, parsed) => (await import("./inspect-command.ts")).inspect(spec, parsed),
  report: other("report"),
  redact: other("redact"),
  render: other("render"),
  convert: other("convert"),
  build: other("build"),
  extract: other("extract"),
  wireshark: async (spec, parsed) => (await import("./wireshark.ts")).wireshark(spec, parsed),
  explain: other("explain"),
  messages: other("messages"),
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
    // The walk's InputShrank (core/walk/range-walk.ts), known by name so that this module does not load the walk.
    if (err instanceof Error && err.name === "InputShrank") {
      process.stderr.write(visibleLines(`iggy-batch: cannot read the input: ${err.message}`) + "\n");
      return 2;
    }
    // Never exit 1 for a crash: 1 means "the input has errors" to scripts.
    process.stderr.write(visibleLines(`iggy-batch: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`) + "\n");
    return 2;
  }
}
