/** Live editing controls: edit mode, undo/redo, recompute checksums, stamp as server, make producer, download edited. */
import { useEffect, useState } from "react";
import { documentStore, selectionStore, type DocumentState } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { commitEdit, editedParts, editModeStore, editStore, kernel, redo, revertToOriginal, undo, type EditState } from "../session/editing.ts";
import { nowMicros } from "../session/building.ts";
import { makeProducerBatch, recomputeChecksums, stampAsServer } from "../../core/edit/edit.ts";
import { stampDefaults } from "../../core/edit/stamp-defaults.ts";
import { baseName, downloadFile } from "../common/download.ts";
import { residentBytes } from "../session/resident.ts";
import { formatCount, hexOffset, plural } from "../../format/values.ts";

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
  // What the user typed, for one batch of one input (its new-input id); any other batch shows its own header's values.
  const [typed, setStamp] = useState({ of: "", partitionId: "", baseOffset: "" });
  // Said about one input (its new-input id): another input opened later does not inherit it.
  const [said, setSaid] = useState({ of: 0, text: "" });

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
  const header = input.analysis.batches.at(batch)?.header ?? null;
  const edited = edit.index > 0;
  const stampOf = `${input.opened}:${batch}`;
  const proposed = stampDefaults(input.analysis, batch);
  const stamp = typed.of === stampOf ? typed : { of: stampOf, partitionId: String(proposed.partitionId), baseOffset: String(proposed.baseOffset) };

  const note = said.of === input.opened ? said.text : "";
  const setNote = (text: string) => setSaid({ of: input.opened, text });
  const mib = (n: number) => (n < 1 << 20 ? `${formatCount(n)} bytes` : `${(n / (1 << 20)).toFixed(1)} MiB`);
  // An input read on demand has nothing to edit until all of it is in memory: each edit action reads it first and says so.
  const whole = async (): Promise<Uint8Array | null> => {
    if (input.bytes) return input.bytes;
    setNote(`Reading all ${mib(input.source.size)} of ${input.name} into memory to edit it…`);
    try {
      const bytes = await residentBytes(input);
      setNote(bytes ? `Read all ${mib(bytes.length)} of ${input.name} into memory to edit it.` : "Another input was opened meanwhile.");
      return bytes && documentStore.get().input?.bytes === bytes ? bytes : null;
    } catch (e) {
      setNote(`Could not read ${input.name} into memory to edit it: ${(e as Error).message}`);
      return null;
    }
  };
  // The shown analysis after whole(): the same model, now over bytes in memory.
  const shownAnalysis = () => documentStore.get().input?.analysis ?? input.analysis;
  const setEditMode = async (on: boolean) => {
    if (on && !(await whole())) return;
    editModeStore.set(on);
  };

  const recompute = async () => {
    const bytes = xxh && (await whole());
    if (!xxh || !bytes) return;
    const out = recomputeChecksums(xxh, bytes, shownAnalysis());
    commitEdit(out.bytes, `recompute checksums (${out.changes.length} changed)`, out.changes);
  };
  const makeProducer = async () => {
    const bytes = xxh && header && (await whole());
    if (!xxh || !bytes) return;
    commitEdit(makeProducerBatch(xxh, bytes, shownAnalysis(), batch), `make batch ${batch} a producer batch`);
  };
  const stampBatch = async () => {
    if (!xxh || !header) return;
    let partitionId: bigint, baseOffset: bigint;
    try {
      partitionId = BigInt(stamp.partitionId);
      baseOffset = BigInt(stamp.baseOffset);
    } catch {
      return;
    }
    const bytes = await whole();
    if (!bytes) return;
    const now = nowMicros();
    commitEdit(stampAsServer(xxh, bytes, shownAnalysis(), batch, { partitionId, baseOffset, baseTimestamp: now }), `stamp batch ${batch}`);
  };

  return (
    <section className="panel edit-panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">Edit (what-if)</h2>
      <div className="share-row">
        <label>
          <input type="checkbox" checked={editMode} onChange={(e) => void setEditMode(e.target.checked)} /> Edit bytes (type hex digits in the hex map)
        </label>
        <button type="button" onClick={undo} disabled={edit.index === 0} aria-keyshortcuts="Control+Z">
          Undo
        </button>
        <button type="button" onClick={redo} disabled={edit.index >= edit.steps} aria-keyshortcuts="Control+Y">
          Redo
        </button>
      </div>
      <div className="share-row">
        <button type="button" onClick={() => void recompute()} disabled={!xxh || busy}>
          Recompute checksums
        </button>
        <button type="button" onClick={() => void makeProducer()} disabled={!xxh || !header || busy}>
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
        <button type="button" onClick={() => void stampBatch()} disabled={!xxh || !header || busy}>
          Stamp as server
        </button>
        <span className="note" data-testid="stamp-why">
          applies to batch {batch}; base_timestamp = now; proposed: {proposed.why}
        </span>
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
      {(note || !input.bytes) && (
        <p className="note" role="status" data-testid="edit-resident">
          {note || `${input.name} is read from its file on demand: editing reads all ${mib(input.source.size)} of it into memory first.`}
        </p>
      )}
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
