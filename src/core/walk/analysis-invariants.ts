/**
 * What every Analysis must satisfy whatever the input: ranges inside the input, batches tiling it,
 * frames tiling their batches, and counts that agree with each other. The fuzzers (test/fuzz.test.ts,
 * scripts/fuzz.ts) check these on mutated inputs; a violation is a decoder bug, never a finding.
 */
import { SEVERITY_OF } from "../../format/diagnostics.ts";
import type { Analysis } from "../model/model.ts";
import { frameBatch, frameEnd, frameIndexInBatch } from "../model/frame-columns.ts";

const KEY = { error: "errors", warning: "warnings", info: "infos" } as const;

/**
 * The invariants an analysis of `size` bytes read from `startOffset` breaks, as sentences (empty when sound).
 * `container`: the analysis of a container reader (core/containers), whose batches lie back to back somewhere
 * inside the input (after an envelope, or none at all) and whose own findings belong to no batch.
 */
export function analysisViolations(a: Analysis, size: number, startOffset = 0, container = false): string[] {
  const out: string[] = [];
  const fail = (text: string): void => {
    if (out.length < 20) out.push(text);
  };
  if (a.size !== size) fail(`size ${a.size} ≠ input ${size}`);
  const from = Math.max(0, Math.min(size, startOffset));

  // Batches: back to back from the start offset, inside the input, ending at its end unless the walk had to stop.
  let expectedStart = container ? (a.batches.at(0)?.start ?? from) : from;
  a.batches.forEach((b, i) => {
    if (b.index !== i) fail(`batch ${i} has index ${b.index}`);
    if (b.start !== expectedStart) fail(`batch ${i} starts at ${b.start}, expected ${expectedStart}`);
    if (!(b.start <= b.end && b.end <= size)) fail(`batch ${i} range ${b.start}..${b.end} outside 0..${size}`);
    expectedStart = b.end;
  });
  const last = a.batches.at(a.batches.length - 1);
  const stopped = a.diagnostics.some((d) => d.code === "batch-length-too-small" && d.batch === a.batches.length - 1);
  if (!container && from < size && !last) fail(`no batch over ${size - from} bytes`);
  if (!container && last && last.end !== size && !stopped) fail(`batches end at ${last.end}, input at ${size}, and no batch-length-too-small`);

  // Frames: each batch's complete frames are a contiguous run of the columns, back to back inside the batch.
  const f = a.frames;
  let frameTotal = 0;
  for (const b of a.batches) {
    if (b.firstFrame !== frameTotal) fail(`batch ${b.index} firstFrame ${b.firstFrame}, expected ${frameTotal}`);
    let at = b.start + (b.header ? 256 : 0);
    for (let k = 0; k < b.frameCount; k++) {
      const i = b.firstFrame + k;
      const s = f.start[i] as number;
      const e = frameEnd(f, i);
      if (s !== at || !(s + 48 <= e && e <= b.end)) fail(`batch ${b.index} frame ${k} range ${s}..${e}, expected to start at ${at} and end by ${b.end}`);
      if (frameBatch(a.batches, i) !== b.index || frameIndexInBatch(a.batches, i) !== k)
        fail(`frame ${i} is found in batch ${frameBatch(a.batches, i)} frame ${frameIndexInBatch(a.batches, i)}, expected ${b.index}/${k}`);
      if (e - s < 48 + (f.payloadLength[i] as number)) fail(`frame column ${i} length ${e - s} < 48 + payload_length`);
      at = e;
    }
    const t = b.truncatedFrame;
    if (t && !(t.start === at && t.start <= t.end && t.end <= b.end))
      fail(`batch ${b.index} truncated frame ${t.start}..${t.end}, expected from ${at} within the batch`);
    if (!t && b.header && b.frameCount >= 0 && at !== b.end && !stopped)
      fail(`batch ${b.index} frames end at ${at}, batch at ${b.end}, and no truncated frame`);
    frameTotal += b.frameCount;
  }
  if (f.count !== frameTotal) fail(`frame columns hold ${f.count}, batches ${frameTotal}`);
  // Each batch's last complete frame, and only those, is listed: every other frame ends where the next starts.
  const lasts = a.batches.filter((b) => b.frameCount > 0).map((b) => b.firstFrame + b.frameCount - 1);
  if (f.lastFrames.length !== lasts.length || lasts.some((frame, k) => f.lastFrames[k] !== frame) || f.lastUserHeaders.length !== lasts.length)
    fail(`${f.lastFrames.length} last frames listed (${f.lastUserHeaders.length} lengths), batches end ${lasts.length} runs of frames`);

  // Diagnostics: in bounds, sorted, pointing at real batches, counted once.
  const seen = { errors: 0, warnings: 0, infos: 0 };
  let prevStart = -1;
  let prevEnd = -1;
  for (const d of a.diagnostics) {
    if (!(Number.isInteger(d.start) && Number.isInteger(d.end) && 0 <= d.start && d.start <= d.end && d.end <= size))
      fail(`${d.code} range ${d.start}..${d.end} outside 0..${size}`);
    if (d.start < prevStart || (d.start === prevStart && d.end < prevEnd)) fail(`${d.code} at ${d.start}..${d.end} out of order`);
    prevStart = d.start;
    prevEnd = d.end;
    if (SEVERITY_OF[d.code] !== d.severity) fail(`${d.code} has severity ${d.severity}`);
    if (d.batch !== null && !(d.batch >= 0 && d.batch < a.batches.length)) fail(`${d.code} names batch ${d.batch} of ${a.batches.length}`);
    seen[KEY[d.severity]]++;
  }
  const s = a.summary;
  if (s.batches !== a.batches.length) fail(`summary batches ${s.batches} ≠ ${a.batches.length}`);
  if (s.frames !== f.count) fail(`summary frames ${s.frames} ≠ ${f.count}`);
  const kept = seen.errors + seen.warnings + seen.infos;
  if (s.errors + s.warnings + s.infos !== kept + a.diagnosticsOmitted)
    fail(`summary counts ${s.errors + s.warnings + s.infos} ≠ ${kept} kept + ${a.diagnosticsOmitted} omitted`);
  if (a.diagnosticsOmitted === 0) {
    for (const k of ["errors", "warnings", "infos"] as const) if (s[k] !== seen[k]) fail(`summary ${k} ${s[k]} ≠ ${seen[k]} listed`);
  }
  const perBatch = { errors: 0, warnings: 0, infos: 0 };
  for (const b of a.batches) {
    perBatch.errors += b.errors;
    perBatch.warnings += b.warnings;
    perBatch.infos += b.infos;
  }
  for (const k of ["errors", "warnings", "infos"] as const)
    if (container ? perBatch[k] > s[k] : perBatch[k] !== s[k]) fail(`batches' ${k} sum to ${perBatch[k]}, summary ${s[k]}`);
  return out;
}
