/** The one summary sentence, numbers first (contracts.md §2): "2 batches · 17 frames · 1 error · 0 warnings · 0 infos". */
import type { Summary } from "../model/model.ts";
import { formatCount, plural } from "../../format/values.ts";

/** Renders a summary; `grouped` writes thousands separators (1,810,000) for the page. */
export function summarySentence(s: Summary, grouped = false): string {
  const n = grouped ? (v: number | bigint) => formatCount(Number(v)) : String;
  return [
    plural(s.batches, "batch", "batches", n),
    plural(s.frames, "frame", "frames", n),
    plural(s.errors, "error", "errors", n),
    plural(s.warnings, "warning", "warnings", n),
    plural(s.infos, "info", "infos", n),
  ].join(" · ");
}
