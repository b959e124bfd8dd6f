/**
 * One verdict vocabulary on two axes, the same words in the CLI, the page, the reports and the JSON:
 * what the server does with the bytes (loads them, truncates N bytes at boot, refuses them, and why),
 * and what the files' checks found (clean, or N errors and N warnings). The two never stand apart:
 * a torn tail is "truncates 100 bytes at boot" and "1 error", never "FAIL" beside "would load".
 */
import { plural } from "../../format/values.ts";
import type { Summary } from "../model/model.ts";
import type { RecoveryVerdict } from "./types.ts";

/** What the server does with a segment or a partition at boot. */
export type ServerOutcomeKind = "loads" | "truncates" | "refuses";

/** The server axis: what it does, how many bytes it drops, why, as words and a sentence. */
export interface ServerOutcome {
  readonly kind: ServerOutcomeKind;
  /** Bytes boot recovery drops (torn tails); 0 unless kind is "truncates". */
  readonly truncatedBytes: number;
  /** Why it truncates or refuses, one clause each (file names first); empty when it loads. */
  readonly reasons: readonly string[];
  /** "loads it", "truncates 100 bytes at boot", "refuses it at boot". */
  readonly words: string;
  /** Why, or for a load what it keeps: the reasons joined, "3 segments from offset 0, 26 messages kept". */
  readonly detail: string;
  /** One sentence: the words with the reasons. */
  readonly sentence: string;
}

/** The findings axis: the counts and their words. */
export interface FindingsVerdict {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** No error and no warning (infos are context). */
  readonly clean: boolean;
  /** "clean" or "1 error, 2 warnings". */
  readonly words: string;
}

/** Both axes; server is null where no server reads the bytes as they are (a plain batch file, a capture). */
export interface Verdict {
  readonly server: ServerOutcome | null;
  readonly findings: FindingsVerdict;
  /** Exit status of the CLI: 1 when any error was found (contracts.md §1), else 0. */
  readonly status: 0 | 1;
  /** One line naming both axes: "server truncates 100 bytes at boot (…); findings: 1 error, 0 warnings". */
  readonly line: string;
}

/** The findings axis of a summary. */
export function findingsVerdict(s: Pick<Summary, "errors" | "warnings" | "infos">): FindingsVerdict {
  const clean = s.errors === 0 && s.warnings === 0;
  return {
    errors: s.errors,
    warnings: s.warnings,
    infos: s.infos,
    clean,
    words: clean ? "clean" : `${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}`,
  };
}

const WORDS: Readonly<Record<ServerOutcomeKind, (bytes: number) => string>> = {
  loads: () => "loads it",
  truncates: (n) => `truncates ${plural(n, "byte")} at boot`,
  refuses: () => "refuses it at boot",
};

/** Builds an outcome from its kind, dropped bytes and reasons. */
export function serverOutcome(kind: ServerOutcomeKind, truncatedBytes: number, reasons: readonly string[], loaded = ""): ServerOutcome {
  const words = WORDS[kind](truncatedBytes);
  const detail = kind === "loads" ? loaded : reasons.join("; ");
  return { kind, truncatedBytes, reasons, words, detail, sentence: `The server ${words}${detail ? `: ${detail}` : ""}.` };
}

/** Where and why recovery stops, as one clause: "from byte 400 (header-truncated)". */
function stopClause(r: RecoveryVerdict, size: number): string {
  return `keeps ${plural(r.keptBytes, "byte")} of ${size}, drops the rest from byte ${r.stopsAt ?? r.keptBytes}${r.reason ? `: ${r.reason}` : ""}`;
}

/**
 * The server axis of one segment from its recovery verdict: it loads what recovery keeps and truncates the
 * rest; an index entry past the log refuses the boot (upstream RecoveredSegmentSizeDivergence).
 */
export function segmentOutcome(name: string, r: RecoveryVerdict, size: number): ServerOutcome {
  if (r.keptBytes === 0 && r.reason === "index-entry-misplaced")
    return serverOutcome("refuses", 0, [`${name}: an index entry points past the end of the log (index-entry-misplaced)`]);
  if (r.keptBytes < size) return serverOutcome("truncates", size - r.keptBytes, [`${name} ${stopClause(r, size)}`]);
  return serverOutcome("loads", 0, [], `${name}, ${plural(r.keptMessages, "message")}`);
}

/** The segments of a partition as the server axis reads them. */
export interface OutcomeSegment {
  readonly name: string;
  readonly size: number;
  readonly startOffset: bigint;
  readonly recovery: RecoveryVerdict;
}

/** The server axis of a partition: refused for any refusal, else the sum of what recovery truncates, else loaded. */
export function partitionOutcome(segments: readonly OutcomeSegment[], refusals: readonly string[]): ServerOutcome {
  if (refusals.length > 0) return serverOutcome("refuses", 0, refusals);
  const torn = segments.filter((s) => s.recovery.keptBytes < s.size);
  const kept = segments.reduce((n, s) => n + s.recovery.keptMessages, 0);
  const loaded = `${plural(segments.length, "segment")}${segments[0] ? ` from offset ${segments[0].startOffset}` : ""}, ${plural(kept, "message")} kept`;
  if (torn.length > 0)
    return serverOutcome(
      "truncates",
      torn.reduce((n, s) => n + s.size - s.recovery.keptBytes, 0),
      [...torn.map((s) => `${s.name} ${stopClause(s.recovery, s.size)}`), loaded],
    );
  return serverOutcome("loads", 0, [], loaded);
}

/** Both axes of an input; `server` null where no server outcome applies. */
export function verdictOf(summary: Pick<Summary, "errors" | "warnings" | "infos">, server: ServerOutcome | null): Verdict {
  const findings = findingsVerdict(summary);
  const serverPart = server ? `server ${server.words}${server.detail ? ` (${server.detail})` : ""}; ` : "";
  return { server, findings, status: summary.errors > 0 ? 1 : 0, line: `${serverPart}findings: ${findings.words}` };
}
