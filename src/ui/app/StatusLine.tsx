/** The status line (role=status): the finished summary, numbers first; aria-busy while decoding. */
import { documentStore, type DocumentState, type LoadedInput } from "../state/app-state.ts";
import { ENVELOPES, decodePollPrefix } from "../../core/envelopes.ts";
import { useStore } from "../state/store.ts";
import type { Summary } from "../../core/model.ts";
import { summarySentence } from "../../core/summary-text.ts";
import { provenanceOf } from "../share/provenance.ts";

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

/** The status line and the decoding progress bar. */
export function StatusLine() {
  const doc = useStore(documentStore, selectDoc);
  const { input, loading, error } = doc;
  const percent = loading && loading.total > 0 ? Math.floor((100 * loading.done) / loading.total) : 0;
  return (
    <div className="status-area">
      <div role="status" aria-busy={loading ? "true" : "false"} aria-live="polite" className="status-line" data-testid="status-line">
        {input ? summaryText(input.analysis.summary) : "No input"}
      </div>
      {input && (
        <span className="input-name" title={input.name}>
          {input.name} · {input.analysis.size.toLocaleString("en-US")} bytes
          {input.analysis.diagnosticsOmitted > 0 ? ` · ${input.analysis.diagnosticsOmitted} diagnostics not listed` : ""}
          {input.ranOn === "main-thread" ? " · decoded on the main thread (no worker)" : ""}
        </span>
      )}
      {input && <EnvelopeFacts input={input} />}
      {input?.note && (provenanceOf(input)
        ? <span className="provenance-note" role="note" data-testid="provenance-note">{input.note}</span>
        : <span className="sample-note">{input.note}</span>)}
      {loading && (
        <span className="loading">
          Decoding {loading.name}…{" "}
          <progress max={100} value={percent} aria-label={`Decoding ${loading.name}`}>{percent}%</progress>
        </span>
      )}
      {error && <span className="input-error" role="alert">{error}</span>}
    </div>
  );
}
