/** The status line (role=status): the finished summary, numbers first; aria-busy while decoding and until every panel shows the input. */
import { visibleText } from "../../lib/text-escape.ts";
import { captureStore, documentStore, partitionStore, type DocumentState, type OpenCapture, type OpenPartition } from "../state/app-state.ts";
import { plural } from "../../format/values.ts";
import { formatLine } from "../common/format-choice.ts";
import { useStore } from "../state/store.ts";
import type { Summary } from "../../core/model/model.ts";
import { summarySentence } from "../../core/report/summary-text.ts";
import { provenanceOf } from "../share/provenance.ts";
import { CancelDecode } from "./LongWork.tsx";
import { findingsVerdict } from "../../core/containers/verdict.ts";

const selectDoc = (s: DocumentState) => s;
const selectPartition = (p: OpenPartition | null) => p;
const selectCapture = (c: OpenCapture | null) => c;

/** The contract's summary text, e.g. "2 batches · 17 frames · 1 error · 0 warnings · 0 infos". */
export function summaryText(s: Summary): string {
  return summarySentence(s, true);
}

const findingCount = (s: Summary): number => s.errors + s.warnings + s.infos;

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

/** What the status line says while decoding: the new input's name and how far, never the shown input's counts. */
function decodingText(loading: NonNullable<DocumentState["loading"]>): string {
  const percent = loading.total > 0 ? Math.floor((100 * loading.done) / loading.total) : 0;
  return `${loading.verb ?? "Decoding"} ${visibleText(loading.name)}: ${mib(loading.done)} of ${mib(loading.total)} (${percent} %)`;
}

/** The status line and the decoding progress bar; `settling`: the side panels have not caught up with the input yet (still busy). */
export function StatusLine({ settling = false }: { settling?: boolean }) {
  const doc = useStore(documentStore, selectDoc);
  const partition = useStore(partitionStore, selectPartition);
  const open = useStore(captureStore, selectCapture);
  const { input, loading, error } = doc;
  // A partition's status sums all its files (contracts.md §2); the file in the hex map is named in the partition view.
  // A capture's sums every message of every connection, as its Diagnostics list does; the message shown is named beside it.
  // The list keeps the first findings of each file (core/containers/partition.ts listedPerFile); the summary counts all.
  const partitionUnlisted = partition ? findingCount(partition.result.summary) - partition.result.diagnostics.length : 0;
  const summary = partition ? partition.result.summary : open ? open.capture.summary : input?.analysis.summary;
  const capture = open?.capture;
  const messages = capture ? capture.connections.reduce((n, c) => n + c.messages.length, 0) : 0;
  const percent = loading && loading.total > 0 ? Math.floor((100 * loading.done) / loading.total) : 0;
  return (
    <div className="status-area">
      <div role="status" aria-busy={loading || settling ? "true" : "false"} aria-live="polite" className="status-line" data-testid="status-line">
        {loading ? decodingText(loading) : summary ? summaryText(summary) : "No input"}
      </div>
      {partition && (
        <span className="input-name" title={visibleText(partition.name)}>
          {visibleText(partition.name)} · {partition.result.files.length} files
          {partitionUnlisted > 0 ? ` · ${partitionUnlisted.toLocaleString("en-US")} diagnostics not listed` : ""}
        </span>
      )}
      {partition && (
        <span className="format-facts" data-format="partition" title={`${partition.result.files.length} files opened together; ${partition.result.sentence}`}>
          {formatLine({
            format: "partition",
            // Both axes, in the core's words: never "load" beside "1 error" without saying which is which.
            detectedBy: `auto: ${partition.result.files.length} files opened together; server ${partition.result.outcome.words}; findings: ${findingsVerdict(partition.result.summary).words}`,
          })}
        </span>
      )}
      {open && capture && (
        <span className="input-name" title={visibleText(open.name)}>
          {visibleText(open.name)} · {plural(capture.packets, "packet")} · {plural(capture.connections.length, "Iggy connection")} ·{" "}
          {plural(messages, "message")}
          {input && open.shown ? ` · message ${open.shown.connection}:${open.shown.message} shown (${input.analysis.size.toLocaleString("en-US")} bytes)` : ""}
        </span>
      )}
      {capture && (
        <span className="format-facts" data-format="capture" title={formatLine({ format: "capture", detectedBy: capture.detectedBy })}>
          {formatLine({ format: "capture", detectedBy: capture.detectedBy })}
        </span>
      )}
      {capture?.onDemand && (
        <span className="on-demand-note" data-testid="on-demand-note" title="The capture stays in its file: the page reads only the message shown">
          read on demand
        </span>
      )}
      {input && !partition && !open && (
        <span className="input-name" title={visibleText(input.name)}>
          {loading ? "still showing " : ""}
          {visibleText(input.name)} · {input.analysis.size.toLocaleString("en-US")} bytes
          {input.analysis.diagnosticsOmitted > 0 ? ` · ${input.analysis.diagnosticsOmitted.toLocaleString("en-US")} diagnostics not listed` : ""}
          {input.ranOn === "main-thread" ? " · decoded on the main thread (no worker)" : ""}
        </span>
      )}
      {/* Beside the name, not in it: a long name's ellipsis must not cut it off. */}
      {input && !partition && !open && input.bytes === null && (
        <span
          className="on-demand-note"
          data-testid="on-demand-note"
          title="Large file: the page reads from it only the bytes it shows, so its memory does not grow with the file"
        >
          read on demand
        </span>
      )}
      {input?.meta && !partition && !open && (
        <span className="format-facts" data-format={input.meta.format} title={formatLine(input.meta)}>
          {formatLine(input.meta)}
        </span>
      )}
      {input?.note &&
        (provenanceOf(input) ? (
          <span className="provenance-note" role="note" data-testid="provenance-note">
            {input.note}
          </span>
        ) : (
          <span className="sample-note">{input.note}</span>
        ))}
      {loading && (
        <span className="loading">
          <progress max={100} value={percent} aria-label={`Decoding ${visibleText(loading.name)}`}>
            {percent}%
          </progress>{" "}
          <CancelDecode />
        </span>
      )}
      {/* Otherwise it stands for a search in flight, and keeps Esc listening for one. */}
      {!loading && <CancelDecode />}
      {error && (
        <span className="input-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
