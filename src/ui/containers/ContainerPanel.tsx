/**
 * The container around the batches: its format and why, its own fields (each selects its bytes), a
 * segment's recovery verdict, and a legacy dump's runs with "Convert to batches".
 */
import { visibleText } from "../../lib/text-escape.ts";
import { residentBytes } from "../session/resident.ts";
import { useState } from "react";
import type { LoadedInput } from "../state/app-state.ts";
import { selectRange } from "../state/actions.ts";
import { loadInput } from "../session/loading.ts";
import { FORMAT_TITLES, legacyToSegment, type LegacyDecode, type RecoveryVerdict } from "../../core/containers/index.ts";
import { findingsVerdict, segmentOutcome } from "../../core/containers/verdict.ts";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { downloadFile, baseName } from "../common/download.ts";

/** Container fields listed at most; the hex map still colours every one. */
const MAX_FIELDS_LISTED = 400;

/**
 * A segment's verdict on both axes (core/containers/verdict.ts): what the server's boot does with the file, and what the
 * checks found in it (its .index's findings included when it is shown with it), then the recovery sentence.
 */
function SegmentVerdict({ input, recovery }: { input: LoadedInput; recovery: RecoveryVerdict }) {
  const outcome = segmentOutcome(input.fileName ?? input.name, recovery, input.analysis.size);
  const findings = findingsVerdict(input.analysis.summary);
  return (
    <>
      <dl className="partition-verdict" aria-label="Segment verdict">
        <dt>Server</dt>
        <dd
          className={`tone-${outcome.kind === "loads" ? "ok" : outcome.kind === "truncates" ? "warn" : "bad"}`}
          data-axis="server"
          data-outcome={outcome.kind}
        >
          {outcome.sentence}
        </dd>
        <dt>Findings</dt>
        <dd className={`tone-${findings.clean ? "ok" : "bad"}`} data-axis="findings">
          {findings.words} in this file
        </dd>
      </dl>
      <p className="recovery-sentence" aria-label="Recovery verdict">
        {recovery.sentence}
      </p>
    </>
  );
}

/** The segment name a converted dump gets: its first offset in 20 digits, so it opens as a segment. */
export function convertedName(legacy: LegacyDecode): string {
  return `${(legacy.messages[0]?.offset ?? 0n).toString().padStart(20, "0")}.log`;
}

function LegacyFacts({ input, legacy }: { input: LoadedInput; legacy: LegacyDecode }) {
  const [note, setNote] = useState("");
  const counts = { verified: 0, mismatch: 0, unverifiable: 0 };
  for (const m of legacy.messages) counts[m.check]++;
  const convert = async (how: "open" | "download") => {
    // A legacy dump is never opened on demand (only batches and segments stream), so this reads nothing new.
    const bytes = await residentBytes(input);
    if (!bytes) return;
    const segment = legacyToSegment(await loadXxh3(), bytes, legacy);
    const name = convertedName(legacy);
    if (how === "download") {
      downloadFile(name, segment);
      setNote(`Downloaded ${name} (${segment.length} bytes).`);
      return;
    }
    void loadInput(
      `${name} (converted from ${input.name})`,
      segment,
      `${legacy.runs.length} batches rebuilt from ${legacy.messages.length} legacy messages of ${baseName(input.name)}`,
      undefined,
      { fileName: name },
    );
  };
  return (
    <div className="legacy-facts">
      <p>
        {legacy.messages.length} messages in {legacy.runs.length} runs (one origin batch each): {counts.verified} checksums verified, {counts.mismatch}{" "}
        mismatched, {counts.unverifiable} not checkable.
      </p>
      <ul className="legacy-runs">
        {legacy.runs.slice(0, 20).map((r) => (
          <li key={r.first}>
            messages {r.first}..{r.first + r.count - 1}: {r.note}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void convert("open")} disabled={legacy.messages.length === 0}>
        Convert to batches
      </button>{" "}
      <button type="button" onClick={() => void convert("download")} disabled={legacy.messages.length === 0}>
        Download converted segment
      </button>
      {note && (
        <span className="legacy-note" role="status">
          {note}
        </span>
      )}
    </div>
  );
}

/** Shows the container of the input, or nothing for plain batches. */
export function ContainerPanel({ input }: { input: LoadedInput }) {
  const meta = input.meta;
  if (!meta || meta.format === "batches") return null;
  const fields = meta.container?.fields ?? [];
  return (
    <section className="panel container-panel" aria-labelledby="container-heading" data-format={meta.format}>
      <h2 id="container-heading">{FORMAT_TITLES[meta.format]}</h2>
      <p className="container-why">{meta.detectedBy}</p>
      {meta.recovery && <SegmentVerdict input={input} recovery={meta.recovery} />}
      {meta.legacy && <LegacyFacts input={input} legacy={meta.legacy} />}
      {fields.length > 0 && meta.format !== "index" && (
        <div className="table-scroll">
          <table className="container-fields" aria-label="Container fields">
            <thead>
              <tr>
                <th>Field</th>
                <th>Bytes</th>
                <th>Value</th>
              </tr>
            </thead>
            <tbody>
              {fields.slice(0, MAX_FIELDS_LISTED).map((f) => (
                <tr key={`${f.start}:${f.name}`} data-kind={f.kind}>
                  <td>
                    <button type="button" className="link-button" onClick={() => selectRange(f.start, f.end, "table")}>
                      {f.name}
                    </button>
                  </td>
                  <td>
                    {f.start}..{f.end}
                  </td>
                  <td>{visibleText(f.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {fields.length > MAX_FIELDS_LISTED && <p className="empty">{fields.length - MAX_FIELDS_LISTED} more fields: hover the hex map.</p>}
        </div>
      )}
    </section>
  );
}
