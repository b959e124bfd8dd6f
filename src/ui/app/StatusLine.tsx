/** The status line (role=status): the finished summary, numbers first; aria-busy while decoding. */
import { documentStore, type DocumentState, type LoadedInput } from "../state/app-state.ts";
import { ENVELOPES, decodePollPrefix } from "../../core/envelopes.ts";
import { useStore } from "../state/store.ts";
import type { Summary } from "../../core/model.ts";
import { summarySentence } from "../../core/summary-text.ts";
import { CancelDecode } from "./LongWork.tsx";

const selectDoc = (s: DocumentState) => s;

/** The contract's summary text, e.g. "2 batches · 17 frames · 1 error · 0 warnings · 0 infos". */
export function summaryText(s: Summary): string {
  return summarySentence(s, true);
}

/** What an envelope's own fields say (a poll reply's prefix), beside the summary. */
function EnvelopeFacts({ input }: { input: LoadedInput }) {
  const envelope = ENVELOPES.find((e) => e.skip > 0 && e.skip === input.startOffset);
  if (!envelope) return null;
  const poll = envelope.id === "poll-reply" ? decodePollPrefix(input.bytes) : null;
  return (
    <span className="envelope-facts">
      after a {envelope.label.toLowerCase()} ({envelope.skip} B)
      {poll ? `: partition_id ${poll.partitionId}, current_offset ${poll.currentOffset}, count ${poll.count}` : ""}
    </span>
  );
}

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

/** What the status line says while decoding: the new input's name and how far, never the shown input's counts. */
function decodingText(loading: NonNullable<DocumentState["loading"]>): string {
  const percent = loading.total > 0 ? Math.floor((100 * loading.done) / loading.total) : 0;
  return `Decoding ${loading.name}: ${mib(loading.done)} of ${mib(loading.total)} (${percent} %)`;
}

/** The status line and the decoding progress bar. */
export function StatusLine() {
  const doc = useStore(documentStore, selectDoc);
  const { input, loading, error } = doc;
  const percent = loading && loading.total > 0 ? Math.floor((100 * loading.done) / loading.total) : 0;
  return (
    <div className="status-area">
      <div role="status" aria-busy={loading ? "true" : "false"} aria-live="polite" className="status-line" data-testid="status-line">
        {loading ? decodingText(loading) : input ? summaryText(input.analysis.summary) : "No input"}
      </div>
      {input && (
        <span className="input-name" title={input.name}>
          {loading ? "still showing " : ""}{input.name} · {input.analysis.size.toLocaleString("en-US")} bytes
          {input.analysis.diagnosticsOmitted > 0 ? ` · ${input.analysis.diagnosticsOmitted} diagnostics not listed` : ""}
          {input.ranOn === "main-thread" ? " · decoded on the main thread (no worker)" : ""}
        </span>
      )}
      {input && <EnvelopeFacts input={input} />}
      {input?.note && <span className="sample-note">{input.note}</span>}
      {loading && (
        <span className="loading">
          <progress max={100} value={percent} aria-label={`Decoding ${loading.name}`}>{percent}%</progress>{" "}
          <CancelDecode />
        </span>
      )}
      {error && <span className="input-error" role="alert">{error}</span>}
    </div>
  );
}
