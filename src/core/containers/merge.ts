/** Folding container findings into a batch Analysis, and the empty Analysis of inputs that hold no batches. */
import { SEVERITY_OF, diagnostic, type Diagnostic, type DiagnosticCode, type Severity } from "../../format/diagnostics.ts";
import type { FieldSpec } from "../../format/fields.ts";
import { fieldValueText } from "../../format/containers/value-text.ts";
import type { ContainerByteKind } from "../../format/containers/kinds.ts";
import { KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import { BatchTable } from "../model/batch-table.ts";
import type { Analysis } from "../model/model.ts";
import type { ContainerField } from "./types.ts";

const key = (severity: Severity): keyof OmittedCounts => (severity === "error" ? "errors" : severity === "warning" ? "warnings" : "infos");

/** Findings past a cap, counted by severity. */
export interface OmittedCounts {
  errors: number;
  warnings: number;
  infos: number;
}

/**
 * A list of container findings being collected. With a cap (the diagnostic cap of analyze()), the
 * first `max` added are kept and the rest only counted by severity: a caller that adds them in
 * position order (an index file's checks) keeps the first by position, in memory bounded whatever the input.
 */
export class Findings {
  readonly list: Diagnostic[] = [];
  readonly omitted: OmittedCounts = { errors: 0, warnings: 0, infos: 0 };

  constructor(private readonly max = Infinity) {}

  /** Adds one finding with its code's severity; a message made by a function is made only when the finding is kept. */
  add(code: DiagnosticCode, start: number, end: number, message: string | (() => string), batch: number | null = null, frame: number | null = null): void {
    if (this.list.length >= this.max) {
      this.omitted[key(SEVERITY_OF[code])]++;
      return;
    }
    this.keep(code, start, end, typeof message === "string" ? message : message(), batch, frame);
  }

  /**
   * add() with the message made by `text(of)` only when the finding is kept: a check run millions of times (an
   * index's entries) passes one reused `of` and a row's function, and allocates nothing for the findings it only counts.
   */
  addOf<T>(code: DiagnosticCode, start: number, end: number, text: (of: T) => string, of: T): void {
    if (this.list.length >= this.max) this.omitted[key(SEVERITY_OF[code])]++;
    else this.keep(code, start, end, text(of), null, null);
  }

  private keep(code: DiagnosticCode, start: number, end: number, text: string, batch: number | null, frame: number | null): void {
    // Reading a char flattens a template's rope of pieces into one string: 200,000 kept messages then cost half.
    text.charCodeAt(0);
    this.list.push(diagnostic(code, start, end, batch, frame, text));
  }
}

/** An Analysis of an input with no batches (an index file, a legacy dump, garbage). */
export function emptyAnalysis(size: number): Analysis {
  return {
    size,
    batches: BatchTable.EMPTY,
    frames: new KeptColumnsBuilder(0).finish(),
    diagnostics: [],
    diagnosticsOmitted: 0,
    summary: { batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 },
  };
}

/** The analysis with extra findings merged in (summary and per-batch counts too) and its size set to the whole input's; a capped Findings' omitted ones are counted. */
export function mergeFindings(a: Analysis, more: readonly Diagnostic[] | Findings, size: number = a.size): Analysis {
  const extra = more instanceof Findings ? more.list : more;
  const omitted = more instanceof Findings ? more.omitted : { errors: 0, warnings: 0, infos: 0 };
  const omittedCount = omitted.errors + omitted.warnings + omitted.infos;
  if (extra.length === 0 && omittedCount === 0 && size === a.size) return a;
  const summary = { ...a.summary };
  summary.errors += omitted.errors;
  summary.warnings += omitted.warnings;
  summary.infos += omitted.infos;
  const perBatch = new Map<number, { errors: number; warnings: number; infos: number }>();
  for (const d of extra) {
    summary[key(d.severity)]++;
    if (d.batch === null) continue;
    const c = perBatch.get(d.batch) ?? { errors: 0, warnings: 0, infos: 0 };
    c[key(d.severity)]++;
    perBatch.set(d.batch, c);
  }
  const batches = perBatch.size === 0 ? a.batches : a.batches.withCounts(0, (i) => perBatch.get(a.batches.index(i)));
  const diagnostics = [...a.diagnostics, ...extra].sort((x, y) => x.start - y.start || x.end - y.end);
  return { ...a, size, batches, diagnostics, diagnosticsOmitted: a.diagnosticsOmitted + omittedCount, summary };
}

/** Places a field table at `base` in the input: one ContainerField per row that starts inside it (a cut row keeps the bytes there are). */
export function placeFields(bytes: Uint8Array, table: readonly FieldSpec[], base: number, prefix = ""): ContainerField[] {
  const out: ContainerField[] = [];
  for (const f of table) {
    const start = base + f.offset;
    if (start >= bytes.length) break;
    const end = Math.min(bytes.length, start + f.size);
    out.push({ kind: f.kind as ContainerByteKind, name: prefix + f.name, start, end, value: fieldValueText(f.type, bytes.subarray(start, end)) });
  }
  return out;
}

/** One field at an explicit range (a variable part). */
export function fieldAt(bytes: Uint8Array, kind: ContainerByteKind, name: string, start: number, end: number, value?: string): ContainerField {
  const e = Math.min(bytes.length, end);
  return { kind, name, start, end: e, value: value ?? fieldValueText("bytes", bytes.subarray(start, e)) };
}
