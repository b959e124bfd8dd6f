/** The Format control's choices, the old envelope ids as aliases, and the format line beside the status. */
import { FORMAT_NAMES, FORMAT_TITLES, type FormatChoice, type FormatName } from "../../core/containers/index.ts";

/** One option of the Format control. */
export interface FormatOption {
  readonly value: FormatChoice;
  readonly label: string;
}

/** Auto-detect first, then every format of containers.md. */
export const FORMAT_OPTIONS: readonly FormatOption[] = [
  { value: "auto", label: "Auto-detect" },
  ...FORMAT_NAMES.map((name) => ({ value: name, label: FORMAT_TITLES[name] })),
];

// The envelope ids of "Input starts with" (before issue 8) and the CLI's --envelope names.
// A Map, not an object: a name from a link ("__proto__", "constructor") must find nothing.
const ALIASES: ReadonlyMap<string, FormatName> = new Map([
  ["none", "batches"],
  ["replicated-record", "prepare"],
  ["poll-reply", "poll-reply"],
]);

/** The format a name or an old envelope id stands for, or null for anything else. */
export function formatOfAlias(id: string | null | undefined): FormatChoice | null {
  if (typeof id !== "string" || !id) return null;
  if (id === "auto" || (FORMAT_NAMES as readonly string[]).includes(id)) return id as FormatChoice;
  return ALIASES.get(id) ?? null;
}

/** The line beside the status, e.g. "format: SendMessages body (auto: metadata parses, …)". */
export function formatLine(meta: { readonly format: FormatName; readonly detectedBy: string }): string {
  return `format: ${FORMAT_TITLES[meta.format]} (${meta.detectedBy})`;
}
