/** The one summary sentence, numbers first (contracts.md §2): "2 batches · 17 frames · 1 error · 0 warnings · 0 infos". */
import type { Summary } from "./model.ts";

/** Renders a summary; `grouped` writes thousands separators (1,810,000) for the page. */
export function summarySentence(s: Summary, grouped = false): string {
  const n = (v: number) => (grouped ? v.toLocaleString("en-US") : String(v));
  const count = (v: number, one: string, many: string) => `${n(v)} ${v === 1 ? one : many}`;
  return [
    count(s.batches, "batch", "batches"),
    count(s.frames, "frame", "frames"),
    count(s.errors, "error", "errors"),
    count(s.warnings, "warning", "warnings"),
    count(s.infos, "info", "infos"),
  ].join(" · ");
}
