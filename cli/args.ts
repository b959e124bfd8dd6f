/** Table-driven argument parsing for iggy-batch: each command lists its options once, and help, checks and errors come from that list. */
import { visibleText } from "../src/lib/text-escape.ts";

/** One option of a command: a switch, or one that takes a value (`--name VALUE` or `--name=VALUE`). */
export interface OptionSpec {
  readonly name: string;
  /** A short spelling, e.g. "-o". */
  readonly alias?: string;
  /** The value's placeholder in help; absent for a switch. */
  readonly value?: string;
  /** Another option this one only makes sense with. */
  readonly requires?: string;
  /** Another option it cannot be given with (e.g. two ways to say the same thing). */
  readonly conflicts?: string;
  /** The command cannot run without it. */
  readonly required?: boolean;
  readonly help: string;
}

/** One command: its operand, one line of help, and its options. */
export interface CommandSpec {
  readonly name: string;
  readonly operand: string;
  readonly summary: string;
  readonly options: readonly OptionSpec[];
}

/** What parseArgs found: the operands, and each given option by its long name (true for a switch). */
export interface ParsedArgs {
  readonly operands: readonly string[];
  readonly options: ReadonlyMap<string, string | true>;
}

/** A usage problem: the caller prints it with the command's usage and exits 2. */
export class ArgError extends Error {
  override readonly name = "ArgError";
}

/** Options every command takes; main handles them before parsing. */
export const HELP_FLAGS = ["--help", "-h"];
export const VERSION_FLAG = "--version";

/** Parses a command's arguments against its table; a repeated option, an unknown one or a missing value is an ArgError. */
export function parseArgs(spec: CommandSpec, args: readonly string[]): ParsedArgs {
  const operands: string[] = [];
  const options = new Map<string, string | true>();
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (onlyOperands || arg === "-" || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyOperands = true;
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const key = eq > 0 ? arg.slice(0, eq) : arg;
    const option = spec.options.find((o) => o.name === key || o.alias === key);
    if (!option) throw new ArgError(`unknown option ${visibleText(key)} for ${spec.name}`);
    if (options.has(option.name)) throw new ArgError(`${option.name} given twice`);
    if (option.value === undefined) {
      if (eq > 0) throw new ArgError(`${option.name} takes no value`);
      options.set(option.name, true);
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    // "-o --json" is a forgotten value, not a file named --json; --out=--json says it is meant.
    if (value === undefined || value === "" || (eq < 0 && value.startsWith("-") && value !== "-")) throw new ArgError(`${option.name} needs ${option.value}`);
    options.set(option.name, value);
  }
  for (const option of spec.options) {
    if (option.required && !options.has(option.name)) throw new ArgError(`${option.alias ?? option.name} ${option.value ?? ""} is required`);
    if (option.conflicts && options.has(option.name) && options.has(option.conflicts))
      throw new ArgError(`${option.name} and ${option.conflicts} cannot be given together`);
    if (option.requires && options.has(option.name) && !options.has(option.requires)) throw new ArgError(`${option.name} only applies with ${option.requires}`);
  }
  return { operands, options };
}

/** The usage line of a command, e.g. `iggy-batch inspect FILE|- [--json] [-o OUT]`. */
export function usageLine(spec: CommandSpec): string {
  const opts = spec.options.map((o) => {
    const text = `${o.alias ?? o.name}${o.value ? " " + o.value : ""}`;
    return o.required ? text : `[${text}]`;
  });
  return ["iggy-batch", spec.name, spec.operand, ...opts].filter((part) => part !== "").join(" ");
}

/** The full help of one command: usage, summary, then one line per option. */
export function commandHelp(spec: CommandSpec): string {
  const rows = spec.options.map((o) => [[o.alias, o.name].filter(Boolean).join(", ") + (o.value ? " " + o.value : ""), o.help] as const);
  const width = rows.reduce((m, [left]) => Math.max(m, left.length), 0);
  return [
    `usage: ${usageLine(spec)}`,
    "",
    spec.summary,
    "",
    ...rows.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`),
    `  ${"-h, --help".padEnd(width)}  print this help`,
  ].join("\n");
}
