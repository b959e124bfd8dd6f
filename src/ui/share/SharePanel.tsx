/** Share and export: the share link (with size, redaction and batch-only options), the Markdown report, JSON, .bin downloads and copy formats. */
import { useState } from "react";
import { documentStore, envelopeStore, selectionStore, type DocumentState, type LoadedInput } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { encodeShareFragment } from "../../lib/share-codec.ts";
import { redactPayloads, batchBytes } from "../../core/edit.ts";
import { renderMarkdownReport } from "../../core/report.ts";
import { contractJsonChunks } from "../../core/contract-json.ts";
import { COPY_FORMATS, formatBytes, type CopyFormat } from "../../lib/byte-formats.ts";
import { TOOL_VERSION } from "../../version.ts";
import { ENVELOPES } from "../../core/envelopes.ts";
import { baseName, copyText, downloadFile, sha256Hex } from "../common/download.ts";

/** Links above this size offer sharing only the selected batch. */
export const LARGE_LINK_BYTES = 64 * 1024;
/** Inputs above this are not compressed whole on the page's thread (Chromium caps URLs at 2 MB anyway): only a batch is offered. */
export const WHOLE_INPUT_SHARE_LIMIT = 4 << 20;

const selectInput = (s: DocumentState) => s.input;
const selectSelection = () => selectionStore.get();
const kib = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);


/** Builds the share URL for the loaded input (or one batch of it), optionally redacted. */
export function shareUrl(input: LoadedInput, options: { redact: boolean; onlyBatch: number | null }): string {
  let bytes = options.redact ? redactPayloads(input.bytes, input.analysis) : input.bytes;
  let selection: { start: number; end: number } | null = selectionStore.get();
  if (options.onlyBatch !== null) {
    const b = input.analysis.batches[options.onlyBatch];
    bytes = batchBytes(bytes, input.analysis, options.onlyBatch);
    selection = b && selection ? { start: Math.max(0, selection.start - b.start), end: Math.max(0, selection.end - b.start) } : null;
  }
  const name = options.onlyBatch !== null ? `${input.name} (batch ${options.onlyBatch})` : input.name;
  // A single batch cut out of an enveloped capture is plain batches.
  const envelope = options.onlyBatch === null ? envelopeStore.get() : "none";
  const fragment = encodeShareFragment({ name, bytes, selection: selection && { start: selection.start, end: selection.end }, envelope });
  return location.href.replace(/#.*$/, "") + fragment;
}

/** The share and export panel. */
export function SharePanel() {
  const input = useStore(documentStore, selectInput);
  const selection = useStore(selectionStore, selectSelection);
  const [redact, setRedact] = useState(false);
  const [linkInfo, setLinkInfo] = useState<{ size: number; url: string; copied: boolean; batchOnly: boolean } | null>(null);
  const [format, setFormat] = useState<CopyFormat>("hex");
  const [note, setNote] = useState<string>("");
  if (!input) return null;
  const selectedBatch = selection?.batch ?? -1;

  const share = async (onlyBatch: number | null) => {
    if (onlyBatch === null && input.bytes.length > WHOLE_INPUT_SHARE_LIMIT) {
      setLinkInfo(null);
      setNote(`This input is ${(input.bytes.length / 1048576).toFixed(0)} MiB, too large for a link: select a batch and use "Share only the selected batch".`);
      return;
    }
    const url = shareUrl(input, { redact, onlyBatch });
    const fragment = url.slice(url.indexOf("#"));
    history.replaceState(null, "", fragment);
    const copied = await copyText(url);
    setLinkInfo({ size: url.length, url, copied, batchOnly: onlyBatch !== null });
  };
  const report = async (how: "copy" | "download") => {
    const envelope = ENVELOPES.find((e) => e.skip > 0 && e.skip === input.startOffset);
    const md = renderMarkdownReport(input.analysis, input.bytes, {
      name: input.name, sha256: await sha256Hex(input.bytes), toolVersion: TOOL_VERSION, envelope: envelope && `${envelope.label} (${envelope.skip} B)`,
    });
    if (how === "download") downloadFile(`${baseName(input.name)}-report.md`, md, "text/markdown");
    else setNote((await copyText(md)) ? "Report copied as Markdown." : "Clipboard unavailable: use Download report.");
  };
  const selectedBytes = selection ? input.bytes.subarray(selection.start, Math.max(selection.end, selection.start + 1)) : null;

  return (
    <section className="panel share-panel" aria-labelledby="share-heading">
      <h2 id="share-heading">Share &amp; export</h2>
      <div className="share-row">
        <button type="button" onClick={() => void share(null)}>Copy share link</button>
        <label><input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /> Redact payloads</label>
        {linkInfo && (
          <span className="link-size" data-testid="link-size">
            Link: {kib(linkInfo.size)}{linkInfo.batchOnly ? " (selected batch only)" : ""}{linkInfo.copied ? ", copied" : ", select and copy it below"}
          </span>
        )}
      </div>
      {redact && <p className="note">Redacting zeroes every payload and user-header byte but keeps lengths and structure; frame checksums then no longer match unless recomputed.</p>}
      {((linkInfo && linkInfo.size > LARGE_LINK_BYTES && !linkInfo.batchOnly) || input.bytes.length > WHOLE_INPUT_SHARE_LIMIT) && (
        <p className="note">{linkInfo ? `This link is ${kib(linkInfo.size)}, too long for most trackers.` : "Large input."}{" "}
          <button type="button" disabled={selectedBatch < 0} onClick={() => void share(Math.max(0, selectedBatch))}>Share only the selected batch</button>
        </p>
      )}
      {linkInfo && !linkInfo.copied && <input className="link-text" readOnly value={linkInfo.url} aria-label="Share link" onFocus={(e) => e.target.select()} />}
      <p className="note">The input travels in the part of the link after #, which browsers never send to a server.</p>
      <div className="share-row">
        <button type="button" onClick={() => void report("copy")}>Copy report</button>
        <button type="button" onClick={() => void report("download")}>Download report</button>
        <button type="button" onClick={() => downloadFile(`${baseName(input.name)}.json`, [...contractJsonChunks(input.analysis, input.bytes, input.name)], "application/json")}>Export JSON</button>
      </div>
      <div className="share-row">
        <button type="button" disabled={selectedBatch < 0} onClick={() => downloadFile(`${baseName(input.name)}-batch${selectedBatch}.bin`, batchBytes(input.bytes, input.analysis, selectedBatch))}>Download batch .bin</button>
        <button type="button" disabled={!selection || selection.frame < 0} onClick={() => {
          if (!selection || selection.frame < 0) return;
          const f = input.analysis.frames;
          downloadFile(`${baseName(input.name)}-frame${selection.frame}.bin`, input.bytes.slice(f.start[selection.frame] as number, f.end[selection.frame] as number));
        }}>Download frame .bin</button>
      </div>
      <div className="share-row">
        <label>Copy selection as{" "}
          <select value={format} onChange={(e) => setFormat(e.target.value as CopyFormat)}>
            {COPY_FORMATS.map((f) => <option key={f.id} value={f.id}>{f.label}</option>)}
          </select>
        </label>
        <button type="button" disabled={!selectedBytes} onClick={async () => {
          if (!selectedBytes || !selection) return;
          setNote((await copyText(formatBytes(selectedBytes, format, selection.start))) ? `Copied ${selectedBytes.length} bytes as ${format}.` : "Clipboard unavailable.");
        }}>Copy selection</button>
      </div>
      {note && <p className="note" role="status" aria-live="polite">{note}</p>}
    </section>
  );
}
