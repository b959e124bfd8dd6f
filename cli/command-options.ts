/**
 * What every command reads from its parsed arguments (the operand, --format, --out, the redaction
 * flags) and the problem it exits 2 with: small, so main.ts loads it before it knows the command.
 */
import { FORMAT_NAMES, type FormatChoice } from "../src/core/containers/types.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import { ArgError, type CommandSpec, type ParsedArgs } from "./args.ts";
import { openSink, UsageError, writeText, type Sink } from "./io.ts";

/** A usage or I/O problem: exit 2 with the message on stderr. */
export class CliProblem extends Error {
  override readonly name = "CliProblem";
}

/** Parses a --format value; --envelope's names are aliases (poll-reply, replicated-record → prepare, none → batches). */
export function parseFormat(flag: string, value: string | undefined): FormatChoice {
  const v = value ?? "";
  if (flag === "--envelope") {
    if (v === "poll-reply") return "poll-reply";
    if (v === "replicated-record") return "prepare";
    if (v === "none") return "batches";
    throw new CliProblem(`iggy-batch: --envelope takes none, poll-reply, replicated-record, not ${JSON.stringify(v)}`);
  }
  if (v === "auto" || (FORMAT_NAMES as readonly string[]).includes(v)) return v as FormatChoice;
  throw new CliProblem(`iggy-batch: --format takes auto, ${FORMAT_NAMES.join(", ")}, not ${JSON.stringify(v)}`);
}

/** The one operand. */
export function operandOf(spec: CommandSpec, parsed: ParsedArgs): string {
  if (parsed.operands.length !== 1) throw new ArgError(`expected exactly one ${spec.operand}`);
  return parsed.operands[0] as string;
}

/** --format, or its --envelope alias; default auto. */
export function formatOf(parsed: ParsedArgs): FormatChoice {
  for (const flag of ["--format", "--envelope"]) {
    const value = parsed.options.get(flag);
    if (typeof value === "string") return parseFormat(flag, visibleText(value));
  }
  return "auto";
}

/** -o's path, or - (standard output). */
export const outOf = (parsed: ParsedArgs): string => (parsed.options.get("--out") as string | undefined) ?? "-";

/** Standard output or -o's file as the containers' writer; the file is opened at the first write, so a failed read leaves it as it was. */
export function writerTo(out: string): { write: (chunks: Iterable<string>) => Promise<void>; end: () => Promise<void> } {
  let sink: Sink | null = null;
  return {
    write: async (chunks) => writeText((sink ??= await openSink(out)), chunks),
    end: async () => (sink ?? (await openSink(out))).end(),
  };
}

/** Whether the flag was given. */
export const has = (parsed: ParsedArgs, flag: string): boolean => parsed.options.has(flag);

/** --redact's choice (with --user-headers, --ids), or null without --redact unless `always`. */
export const redactChoice = (parsed: ParsedArgs, always = false) =>
  always || has(parsed, "--redact") ? { userHeaders: has(parsed, "--user-headers"), ids: has(parsed, "--ids") } : null;

/** A whole-number option's value, or null when not given. */
export const count = (flag: string, text: string | true | undefined): number | null => {
  if (typeof text !== "string") return null;
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`iggy-batch: ${flag} takes a whole number, not ${JSON.stringify(visibleText(text))}`);
  return Number(text);
};
