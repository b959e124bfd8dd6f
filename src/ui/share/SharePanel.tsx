/**
 * Share and export: one set of redaction switches for the share link, the reports (Markdown and
 * plain text), the pictures (SVG, PNG) and the .bin exports; JSON export and the copy formats.
 */
import { useCallback, useMemo, useState } from "react";
import { documentStore, formatStore, partitionStore, selectionStore, type DocumentState, type OpenPartition } from "../state/app-state.ts";
import { partitionLinkCarries, partitionReport } from "./partition-report.ts";
import { useStore } from "../state/store.ts";
import { renderMarkdownReport } from "../../core/report/report.ts";
import { renderTextReport } from "../../core/report/report-text.ts";
import { contractJsonChunks } from "../../core/model/contract-json.ts";
import { COPY_FORMATS, formatBytes, type CopyFormat } from "../../lib/byte-formats.ts";
import { TOOL_VERSION } from "../../version.ts";
import { ENVELOPES } from "../../core/model/envelopes.ts";
import { baseName, copyText, downloadFile } from "../common/download.ts";
import { ShareLinkRow } from "./ShareLinkRow.tsx";
import { LARGE_LINK_BYTES } from "./share-scope.ts";
import { inputSha256, rangeBytes, REDACT_ON_PAGE_LIMIT, subjectOf, type RedactChoice, type ShareSource } from "./share-link.ts";
import { renderFromRanges, type ReportInput, type ReportSource } from "../../core/report/report-data.ts";
import type { Analysis } from "../../core/model/model.ts";
import { residentBytes } from "../session/resident.ts";
import { canDrawDiagram, diagramSvg, pictureRange, pictureSvg, svgToPng } from "./picture.ts";
import { diagramTargetOf } from "../../core/report/render-diagram.ts";
import { provenanceOf } from "./provenance.ts";
import "./share.css";
import { formatCount, hexOffset } from "../../format/values.ts";
import { frameBatch, frameEnd, frameIndexInBatch } from "../../core/model/frame-columns.ts";

export { LARGE_LINK_BYTES, WHOLE_INPUT_SHARE_LIMIT } from "./share-scope.ts";

const selectInput = (s: DocumentState) => s.input;
const selectSelection = () => selectionStore.get();
const selectFormat = (f: string) => f;
const selectPartition = (p: OpenPartition | null) => p;

/** The share and export panel. */
export function SharePanel() {
  const input = useStore(documentStore, selectInput);
  const selection = useStore(selectionStore, selectSelection);
  const inputFormat = useStore(formatStore, selectFormat);
  const partition = useStore(partitionStore, selectPartition);
  const [redact, setRedact] = useState(false);
  const [redactHeaders, setRedactHeaders] = useState(false);
  const [redactIds, setRedactIds] = useState(false);
  // The report names a picture file (downloaded with it) to attach: trackers drop inline data: images.
  const [withPicture, setWithPicture] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const [format, setFormat] = useState<CopyFormat>("hex");
  const [note, setNote] = useState<string>("");
  // What a whole-input action read into memory, said about one input (by name) beside the action's own note.
  // Said about one input (its new-input id): another input opened later does not inherit it.
  const [memoryNote, setMemoryNote] = useState({ of: 0, text: "" });
  const onLink = useCallback((url: string | null) => setLink(url), []);
  const choice: RedactChoice = useMemo(() => (redact ? { userHeaders: redactHeaders, ids: redactIds } : null), [redact, redactHeaders, redactIds]);
  const source: ShareSource | null = useMemo(
    () =>
      input && {
        name: input.name,
        bytes: input.bytes,
        source: input.source,
        analysis: input.analysis,
        startOffset: input.startOffset ?? 0,
        format: inputFormat,
      },
    [input, inputFormat],
  );
  const scopeSelection = useMemo(
    () => selection && { start: selection.start, end: selection.end, batch: selection.batch, frame: selection.frame },
    [selection],
  );
  if (!input || !source) return null;
  const selectedBatch = selection?.batch ?? -1;
  const suffix = redact ? "-redacted" : "";

  const mib = (n: number) => (n < 1 << 20 ? `${formatCount(n)} bytes` : `${(n / (1 << 20)).toFixed(1)} MiB`);
  // An action on the whole input (report, picture, JSON, redacted copy) needs all of an input read on demand: read it once, and say so.
  const wholeSource = async (what: string): Promise<ShareSource> => {
    if (source.bytes) return source;
    // The redacted copy would be refused once read: refuse before reading it.
    if (choice && input.source.size > REDACT_ON_PAGE_LIMIT)
      throw new Error(`inputs over ${REDACT_ON_PAGE_LIMIT >> 20} MiB are redacted with the command line: iggy-batch redact FILE -o OUT`);
    const say = (text: string) => setMemoryNote({ of: input.opened, text });
    say(`Reading all ${mib(input.source.size)} of ${input.name} into memory to ${what}…`);
    const bytes = await residentBytes(input);
    if (!bytes) throw new Error("another input was opened meanwhile");
    say(`Read all ${mib(bytes.length)} of ${input.name} into memory to ${what}.`);
    return { ...source, bytes, analysis: documentStore.get().input?.analysis ?? source.analysis };
  };
  // Every export of the shown input goes through here, so a redacted one never leaks the original.
  const withSubject = async (what: string, act: (subject: Awaited<ReturnType<typeof subjectOf>>) => Promise<void> | void) => {
    try {
      await act(await subjectOf(await wholeSource(what), choice));
    } catch (e) {
      setNote(`Could not ${what}: ${(e as Error).message}`);
    }
  };
  // A batch, a frame or the selection: read on demand, only its range (its batches when redacted) is read.
  const withRange = async (what: string, start: number, end: number, act: (bytes: Uint8Array) => Promise<void> | void) => {
    try {
      await act(await rangeBytes(source, start, end, choice));
    } catch (e) {
      setNote(`Could not ${what}: ${(e as Error).message}`);
    }
  };
  const exportJson = async () => {
    try {
      const whole = await wholeSource("export JSON");
      downloadFile(`${baseName(input.name)}.json`, [...contractJsonChunks(whole.analysis, whole.bytes as Uint8Array, input.name)], "application/json");
    } catch (e) {
      setNote(`Could not export JSON: ${(e as Error).message}`);
    }
  };
  const reportInfo = (sha256: string, redacted: ReportInput["redacted"], image?: ReportInput["image"]): ReportInput => {
    const envelopeInfo = ENVELOPES.find((e) => e.skip > 0 && e.skip === input.startOffset);
    return {
      name: input.name,
      sha256,
      toolVersion: TOOL_VERSION,
      envelope: envelopeInfo && `${envelopeInfo.label} (${envelopeInfo.skip} B)`,
      opened: input.meta ?? undefined,
      ...(redacted ? { redacted } : {}),
      ...(link && link.length <= LARGE_LINK_BYTES ? { shareLink: link } : {}),
      ...(image ? { image } : {}),
    };
  };
  const deliver = async (how: "copy" | "download", kind: "markdown" | "text", text: string) => {
    const label = kind === "markdown" ? "Markdown" : "plain text";
    if (how === "download")
      downloadFile(`${baseName(input.name)}${suffix}-report.${kind === "markdown" ? "md" : "txt"}`, text, kind === "markdown" ? "text/markdown" : "text/plain");
    else setNote((await copyText(text)) ? `Report copied as ${label}.` : "Clipboard unavailable: use Download report.");
  };
  const report = async (how: "copy" | "download", kind: "markdown" | "text") => {
    // A partition's report is the whole partition's: its verdict first, every segment and finding with its file.
    if (partition) {
      try {
        await deliver(how, kind, await partitionReport(partition, kind, link && link.length <= LARGE_LINK_BYTES ? link : null));
      } catch (e) {
        setNote(`Could not make the report: ${(e as Error).message}`);
      }
      return;
    }
    const render = (analysis: Analysis, bytes: ReportSource, info: ReportInput) =>
      kind === "markdown" ? renderMarkdownReport(analysis, bytes, info) : renderTextReport(analysis, bytes, info);
    // Read on demand, unredacted and without a picture, a report reads only the bytes it quotes (excerpts, previews).
    if (!source.bytes && !choice && !withPicture) {
      try {
        const info = reportInfo(await inputSha256(source), provenanceOf(input)?.redacted);
        await deliver(
          how,
          kind,
          await renderFromRanges(
            input.source.size,
            (s, e) => input.source.load(s, e),
            (r) => render(input.analysis, r, info),
          ),
        );
      } catch (e) {
        setNote(`Could not make the report: ${(e as Error).message}`);
      }
      return;
    }
    await withSubject("make the report", async (subject) => {
      const range = pictureRange(subject, selection);
      let image: ReportInput["image"];
      if (withPicture) {
        // A file beside the report, downloaded now: the report names it for the reader to attach.
        const file = `${baseName(input.name)}${suffix}-bytes.svg`;
        downloadFile(file, pictureSvg(subject, input.name, range), "image/svg+xml");
        image = { src: file, caption: `Hex map of ${input.name}, bytes ${hexOffset(range.start, 0)}..${hexOffset(range.end, 0)}, findings marked` };
      }
      const info = reportInfo(subject.sha256, subject.redacted ?? provenanceOf(input)?.redacted, image);
      await deliver(how, kind, render(subject.analysis, subject.bytes, info));
    });
  };
  const picture = (kind: "svg" | "png") =>
    withSubject("draw the picture", async (subject) => {
      const svg = pictureSvg(subject, input.name, pictureRange(subject, selection));
      const name = `${baseName(input.name)}${suffix}-bytes.${kind}`;
      if (kind === "svg") downloadFile(name, svg, "image/svg+xml");
      else downloadFile(name, new Uint8Array(await (await svgToPng(svg)).arrayBuffer()), "image/png");
    });

  const diagramTarget = diagramTargetOf(selection);
  const diagramName =
    diagramTarget.kind === "frame"
      ? `frame ${frameIndexInBatch(input.analysis.batches, diagramTarget.frame)} of batch ${frameBatch(input.analysis.batches, diagramTarget.frame)}`
      : `batch ${diagramTarget.batch}`;
  const diagram = (kind: "svg" | "png") =>
    withSubject("draw the diagram", async (subject) => {
      const svg = diagramSvg(subject, input.name, diagramTarget);
      const which = diagramTarget.kind === "frame" ? `frame${diagramTarget.frame}` : `batch${diagramTarget.batch}`;
      const name = `${baseName(input.name)}${suffix}-${which}-diagram.${kind}`;
      if (kind === "svg") downloadFile(name, svg, "image/svg+xml");
      else downloadFile(name, new Uint8Array(await (await svgToPng(svg)).arrayBuffer()), "image/png");
    });

  return (
    <section className="panel share-panel" aria-labelledby="share-heading">
      <h2 id="share-heading">Share &amp; export</h2>
      <div className="share-row">
        <label>
          <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /> Redact payloads
        </label>
        <label>
          <input type="checkbox" checked={redactHeaders} disabled={!redact} onChange={(e) => setRedactHeaders(e.target.checked)} /> and user header values
        </label>
        <label>
          <input type="checkbox" checked={redactIds} disabled={!redact} onChange={(e) => setRedactIds(e.target.checked)} /> and ids
        </label>
      </div>
      {redact && (
        <p className="note">
          Link, reports, pictures and .bin exports carry a copy with &quot;REDACTED&quot; in place of the payloads{redactHeaders ? ", header values" : ""}
          {redactIds ? ", ids" : ""}; its checksums are re-made so it shows exactly the original&apos;s findings, and the opened link names the original&apos;s
          SHA-256.
        </p>
      )}
      <ShareLinkRow source={source} selection={scopeSelection} redact={choice} onLink={onLink} />
      <p className="note">The input travels in the part of the link after #, which browsers never send to a server.</p>
      <div className="share-row">
        <button type="button" onClick={() => void report("copy", "markdown")}>
          Copy report
        </button>
        <button type="button" onClick={() => void report("download", "markdown")}>
          Download report
        </button>
        <button type="button" onClick={() => void report("copy", "text")}>
          Copy text report
        </button>
        <button type="button" onClick={() => void report("download", "text")}>
          Download text report
        </button>
        {!partition && (
          <label>
            <input type="checkbox" checked={withPicture} onChange={(e) => setWithPicture(e.target.checked)} /> with a picture file to attach
          </label>
        )}
      </div>
      {withPicture && !partition && (
        <p className="note">
          The report names the picture and it is downloaded beside it as an SVG file: attach that file to the issue (trackers drop pictures inlined in the
          text).
        </p>
      )}
      {partition && (
        <p className="note" data-testid="partition-share">
          The reports cover the whole partition ({partition.result.files.length} files: its verdict, every segment and every finding with its file). The link
          carries {partitionLinkCarries(partition)}.
        </p>
      )}
      <div className="share-row">
        <span>Picture of {selection ? "the selection" : "the first problem"}:</span>
        <button type="button" onClick={() => void picture("svg")}>
          Download SVG
        </button>
        <button type="button" onClick={() => void picture("png")}>
          Download PNG
        </button>
      </div>
      <div className="share-row">
        <span>Layout diagram of {diagramName} header:</span>
        <button type="button" disabled={!canDrawDiagram(input.analysis, diagramTarget)} onClick={() => void diagram("svg")}>
          Download diagram SVG
        </button>
        <button type="button" disabled={!canDrawDiagram(input.analysis, diagramTarget)} onClick={() => void diagram("png")}>
          Download diagram PNG
        </button>
      </div>
      <div className="share-row">
        <button type="button" onClick={() => void exportJson()}>
          Export JSON
        </button>
        <button
          type="button"
          disabled={!redact}
          onClick={() => void withSubject("redact", (s) => downloadFile(`${baseName(input.name)}-redacted.bin`, s.bytes))}
        >
          Download redacted .bin
        </button>
      </div>
      <div className="share-row">
        <button
          type="button"
          disabled={selectedBatch < 0}
          onClick={() => {
            const b = input.analysis.batches.at(selectedBatch);
            if (!b) return;
            void withRange("export the batch", b.start, b.end, (bytes) => downloadFile(`${baseName(input.name)}${suffix}-batch${selectedBatch}.bin`, bytes));
          }}
        >
          Download batch .bin
        </button>
        <button
          type="button"
          disabled={!selection || selection.frame < 0}
          onClick={() => {
            if (!selection || selection.frame < 0) return;
            const f = input.analysis.frames;
            const frame = selection.frame;
            void withRange("export the frame", f.start[frame] as number, frameEnd(f, frame), (bytes) =>
              downloadFile(`${baseName(input.name)}${suffix}-frame${frame}.bin`, bytes),
            );
          }}
        >
          Download frame .bin
        </button>
      </div>
      <div className="share-row">
        <label>
          Copy selection as{" "}
          <select value={format} onChange={(e) => setFormat(e.target.value as CopyFormat)}>
            {COPY_FORMATS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!selection}
          onClick={() => {
            if (!selection) return;
            void withRange("copy the selection", selection.start, Math.max(selection.end, selection.start + 1), async (bytes) => {
              setNote(
                (await copyText(formatBytes(bytes, format, selection.start)))
                  ? `Copied ${bytes.length}${redact ? " redacted" : ""} bytes as ${format}.`
                  : "Clipboard unavailable.",
              );
            });
          }}
        >
          Copy selection
        </button>
      </div>
      {memoryNote.of === input.opened && memoryNote.text && (
        <p className="note" data-testid="share-memory-note">
          {memoryNote.text}
        </p>
      )}
      {note && (
        <p className="note" role="status" aria-live="polite">
          {note}
        </p>
      )}
    </section>
  );
}
