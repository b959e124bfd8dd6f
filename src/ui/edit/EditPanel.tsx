/** Live editing controls: edit mode, undo/redo, recompute checksums, stamp as server, make producer, download edited. */
import { useEffect, useState } from "react";
import { documentStore, selectionStore, type DocumentState } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { commitEdit, editedParts, editModeStore, editStore, kernel, redo, revertToOriginal, undo, type EditState } from "../session/editing.ts";
import { nowMicros } from "../session/building.ts";
import { makeProducerBatch, recomputeChecksums, stampAsServer } from "../../core/edit.ts";
import { baseName, downloadFile } from "../common/download.ts";
import { hexOffset, plural } from "../../format/values.ts";

const selectInput = (s: DocumentState) => s.input;
// The actions below read the shown analysis, so they wait while a re-check is running.
const selectBusy = (s: DocumentState) => s.loading !== null;
const selectEdit = (s: EditState) => s;
const selectMode = (m: boolean) => m;
const selectSelection = () => selectionStore.get();

/** The editing toolbar and the list of what the last recompute changed. */
export function EditPanel() {
  const input = useStore(documentStore, selectInput);
  const busy = useStore(documentStore, selectBusy);
  const edit = useStore(editStore, selectEdit);
  const editMode = useStore(editModeStore, selectMode);
  const selection = useStore(selectionStore, selectSelection);
  const [stamp, setStamp] = useState({ partitionId: "1", baseOffset: "0" });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement | null)?.tagName === "INPUT") return;
      if (e.key.toLowerCase() === "z" && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if (e.key.toLowerCase() === "y" || (e.key.toLowerCase() === "z" && e.shiftKey)) {
        e.preventDefault();
        redo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (!input) return null;
  const xxh = kernel();
  const batch = selection && selection.batch >= 0 ? selection.batch : 0;
  const header = input.analysis.batches[batch]?.header ?? null;
  const edited = edit.index > 0;

  const recompute = () => {
    if (!xxh) return;
    const { bytes, changes } = recomputeChecksums(xxh, input.bytes, input.analysis);
    commitEdit(bytes, `recompute checksums (${changes.length} changed)`, changes);
  };
  const stampBatch = () => {
    if (!xxh || !header) return;
    let partitionId: bigint, baseOffset: bigint;
    try {
      partitionId = BigInt(stamp.partitionId);
      baseOffset = BigInt(stamp.baseOffset);
    } catch {
      return;
    }
    const now = nowMicros();
    commitEdit(stampAsServer(xxh, input.bytes, input.analysis, batch, { partitionId, baseOffset, baseTimestamp: now }), `stamp batch ${batch}`);
  };

  return (
    <section className="panel edit-panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">Edit (what-if)</h2>
      <div className="share-row">
        <label>
          <input type="checkbox" checked={editMode} onChange={(e) => editModeStore.set(e.target.checked)} /> Edit bytes (type hex digits in the hex map)
        </label>
        <button type="button" onClick={undo} disabled={edit.index === 0} aria-keyshortcuts="Control+Z">
          Undo
        </button>
        <button type="button" onClick={redo} disabled={edit.index >= edit.steps} aria-keyshortcuts="Control+Y">
          Redo
        </button>
      </div>
      <div className="share-row">
        <button type="button" onClick={recompute} disabled={!xxh || busy}>
          Recompute checksums
        </button>
        <button
          type="button"
          onClick={() => xxh && header && commitEdit(makeProducerBatch(xxh, input.bytes, input.analysis, batch), `make batch ${batch} a producer batch`)}
          disabled={!xxh || !header || busy}
        >
          Make producer batch
        </button>
      </div>
      <div className="share-row">
        <label>
          partition_id <input size={6} value={stamp.partitionId} onChange={(e) => setStamp({ ...stamp, partitionId: e.target.value })} />
        </label>
        <label>
          base_offset <input size={8} value={stamp.baseOffset} onChange={(e) => setStamp({ ...stamp, baseOffset: e.target.value })} />
        </label>
        <button type="button" onClick={stampBatch} disabled={!xxh || !header || busy}>
          Stamp as server
        </button>
        <span className="note">applies to batch {batch}; base_timestamp = now</span>
      </div>
      <div className="share-row">
        <button type="button" disabled={!edited} onClick={() => downloadFile(`${baseName(input.name)}-edited.bin`, editedParts())}>
          Download edited
        </button>
        <button type="button" disabled={!edited} onClick={revertToOriginal}>
          Revert to original
        </button>
        <span className="note" data-testid="edit-state">
          {edited ? `${plural(edit.index, "edit")}: ${edit.labels[edit.index]}` : "unedited"}
          {edit.lastRecheckMs !== null ? ` · re-checked in ${edit.lastRecheckMs.toFixed(1)} ms` : ""}
        </span>
      </div>
      {edit.lastChanges && (
        <div>
          <p className="note">
            {edit.lastChanges.length === 0 ? "Every checksum already matched." : `${plural(edit.lastChanges.length, "checksum")} changed:`}
          </p>
          {edit.lastChanges.length > 0 && (
            <ul aria-label="Checksum changes" className="changes">
              {edit.lastChanges.map((c) => (
                <li key={c.start}>
                  {c.what} at {hexOffset(c.start, 0)}: {c.before} → {c.after}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
