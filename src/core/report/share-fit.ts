/**
 * Share links that fit a GitHub issue (65,536 characters): the scopes around a problem from its batch down
 * to its bytes, and the first of them whose link fits. The smallest scope, the problem bytes, is capped
 * so that its link fits whatever the bytes compress to.
 */
import { encodeShareFragment, type SharedState } from "../../lib/share-codec.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { hexOffset } from "../../format/values.ts";
import { frameEnd, frameIndexInBatch } from "../model/frame-columns.ts";
import type { Analysis } from "../model/model.ts";

/** GitHub's limit on an issue or comment body, in characters: a link must fit well inside it. */
export const LINK_CHAR_LIMIT = 65_536;

/**
 * The most bytes the problem-bytes scope takes: deflate grows incompressible data by under 1 %, base64url by
 * 4/3, so 16 KiB make a link of under 22 KiB, leaving room for the base address, the name and the report.
 */
export const PROBLEM_BYTES_CAP = 16 * 1024;

/** One part of the input a link can carry, with the range the opened page selects. */
export interface FitScope {
  readonly id: "problem-batch" | "problem-frame-with-header" | "problem-frame" | "problem-bytes";
  readonly label: string;
  readonly start: number;
  readonly end: number;
  /** How the link names the part, e.g. "batch 2". */
  readonly partName: string;
  /** Absolute range to select once opened. */
  readonly select: { readonly start: number; readonly end: number };
}

const hex = (n: number) => hexOffset(n, 0);

/** The scopes around one finding, largest first; the last (the problem bytes) is at most PROBLEM_BYTES_CAP bytes. */
export function problemScopes(analysis: Analysis, d: Diagnostic): FitScope[] {
  const select = { start: d.start, end: Math.max(d.end, d.start + 1) };
  const scopes: FitScope[] = [];
  const b = d.batch !== null ? analysis.batches.at(d.batch) : undefined;
  if (b) {
    scopes.push({
      id: "problem-batch",
      label: `Batch ${b.index} (${b.end - b.start} bytes)`,
      start: b.start,
      end: b.end,
      partName: `batch ${b.index}`,
      select,
    });
    if (d.frame !== null && d.frame < b.frameCount) {
      const i = b.firstFrame + d.frame;
      const fs = analysis.frames.start[i] as number;
      const fe = frameEnd(analysis.frames, i);
      const k = frameIndexInBatch(analysis.batches, i);
      if (k > 0)
        scopes.push({
          id: "problem-frame-with-header",
          label: `Batch ${b.index}'s header and frames 0..${k} (${fe - b.start} bytes)`,
          start: b.start,
          end: fe,
          partName: `batch ${b.index}, frames 0..${k}`,
          select,
        });
      scopes.push({
        id: "problem-frame",
        label: `Frame ${k} of batch ${b.index} (${fe - fs} bytes)`,
        start: fs,
        end: fe,
        partName: `frame ${k} of batch ${b.index}`,
        select,
      });
    }
  }
  // The problem bytes with a row of context either side, cut to the cap around their start.
  const start = Math.max(0, d.start - (d.start % 16) - 16);
  const end = Math.min(analysis.size, Math.max(select.end + 16, start + 16), start + PROBLEM_BYTES_CAP);
  scopes.push({ id: "problem-bytes", label: `Bytes ${hex(start)}..${hex(end)}`, start, end, partName: `bytes ${hex(start)}..${hex(end)}`, select });
  return scopes.filter((s, i) => i === scopes.length - 1 || s.end - s.start > 0);
}

/** What a link carries besides the scope's bytes. */
export interface LinkBase {
  /** The page's address the fragment is appended to (e.g. https://example.org/iggy/). */
  readonly baseUrl: string;
  readonly name: string;
  readonly format?: string;
  /** SHA-256 of the whole input, for the part's provenance. */
  readonly sha256: string;
  readonly redacted?: SharedState["redacted"];
}

/** The link of one scope: its bytes cut from the input, the selection re-based onto them. */
export function scopeLink(base: LinkBase, scope: FitScope, bytes: Uint8Array, size: number): string {
  const state: SharedState = {
    name: base.name,
    bytes,
    selection: { start: scope.select.start - scope.start, end: Math.min(scope.end, scope.select.end) - scope.start },
    ...(base.format ? { format: base.format } : {}),
    ...(base.redacted ? { redacted: base.redacted } : {}),
    part: { start: scope.start, end: scope.end, size, sha256: base.sha256 },
  };
  return base.baseUrl.replace(/#.*$/, "") + encodeShareFragment(state);
}

/**
 * The largest scope around a finding whose link fits `limit` characters, with its link; `read` gives the
 * input's bytes [start, end). The problem-bytes scope always fits a base address of a few KiB.
 */
export function fittingLink(
  analysis: Analysis,
  d: Diagnostic,
  base: LinkBase,
  read: (start: number, end: number) => Uint8Array,
  limit = LINK_CHAR_LIMIT,
): { scope: FitScope; url: string } | null {
  const scopes = problemScopes(analysis, d);
  for (const scope of scopes) {
    // A link is at least 4/3 of the deflated bytes; skip scopes far too large to be worth compressing.
    if (scope.end - scope.start > limit * 16) continue;
    const url = scopeLink(base, scope, read(scope.start, scope.end), analysis.size);
    if (url.length <= limit) return { scope, url };
  }
  return null;
}
