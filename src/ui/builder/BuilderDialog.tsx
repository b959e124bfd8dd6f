/**
 * The batch builder (issue #4 §5): compose messages (payload as text, JSON or hex; user headers;
 * id; timestamp delta), choose a producer or a stamped batch, and get the same JSON spec
 * `iggy-batch build` reads, the bytes it makes, their size and what the analyzer says of them.
 */
import { useEffect, useId, useMemo, useReducer, useRef, useState, type RefObject } from "react";
import { buildFromSpec } from "../../core/edit/build-spec.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import type { Analysis } from "../../core/model/model.ts";
import { plural } from "../../format/values.ts";
import { loadInput } from "../session/loading.ts";
import { copyText, downloadFile } from "../common/download.ts";
import { browserEnv, nowMicros, useXxh3 } from "../session/building.ts";
import { useModal } from "../common/use-modal.ts";
import { formReducer, initialForm } from "./form-state.ts";
import { formToSpec, specText } from "./form-to-spec.ts";
import { BatchFields } from "./BatchFields.tsx";
import { MessageEditor } from "./MessageEditor.tsx";
import { AnalyzerVerdict, IssueList } from "./BuildVerdict.tsx";

type Built = { readonly bytes: Uint8Array; readonly analysis: Analysis } | { readonly error: string };

/** Asks for a control to get focus after the next render (reorder, add and remove move the DOM under the user). */
function useFocusAfterRender(root: RefObject<HTMLElement | null>) {
  const pending = useRef<readonly string[] | null>(null);
  useEffect(() => {
    const keys = pending.current;
    if (!keys) return;
    pending.current = null;
    for (const key of keys) {
      const el = root.current?.querySelector<HTMLElement>(`[data-focus="${key}"]`);
      if (el && !(el as HTMLButtonElement).disabled) {
        el.focus();
        return;
      }
    }
  });
  return (...keys: string[]) => {
    pending.current = keys;
  };
}

/** The builder as a modal dialog. */
export function BuilderDialog({ onClose }: { onClose: () => void }) {
  const modal = useModal(onClose);
  const [form, dispatch] = useReducer(formReducer, undefined, () => initialForm(nowMicros()));
  const result = useMemo(() => formToSpec(form), [form]);
  const xxh = useXxh3();
  const built = useMemo<Built | null>(() => {
    if (!result.spec || !xxh) return null;
    try {
      const bytes = buildFromSpec(xxh, result.spec, browserEnv);
      return { bytes, analysis: analyzeWith(xxh, bytes) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }, [result.spec, xxh]);
  const text = result.spec ? specText(result.spec) : "";
  const [note, setNote] = useState("");
  const focusLater = useFocusAfterRender(modal.ref);
  const errorOf = useMemo(() => new Map(result.errors.map((e) => [e.field, e.message])), [result.errors]);
  const ids = useId();
  const bytes = built && "bytes" in built ? built.bytes : null;

  const showInExplorer = () => {
    if (!bytes) return;
    void loadInput(`built batch (${plural(form.messages.length, "message")}, ${bytes.length} bytes)`, bytes);
    onClose();
  };
  const copySpec = async () => {
    setNote((await copyText(text)) ? "Spec JSON copied." : "Clipboard unavailable: select the Spec JSON text and copy it.");
  };

  return (
    <dialog {...modal} className="builder-dialog" aria-labelledby={`${ids}-title`}>
      <div className="dialog-head">
        <h2 id={`${ids}-title`}>Build a batch</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="dialog-body">
        <BatchFields form={form} dispatch={dispatch} errorOf={errorOf} ids={ids} />

        <section className="builder-messages" aria-labelledby={`${ids}-messages`}>
          <h3 id={`${ids}-messages`}>
            Messages <span className="count">{form.messages.length}</span>
          </h3>
          {form.messages.length === 0 && <p className="note">No messages yet.</p>}
          <ol className="message-list">
            {form.messages.map((m, i) => (
              <MessageEditor
                key={m.uid}
                message={m}
                index={i}
                count={form.messages.length}
                nextUid={form.nextUid}
                dispatch={dispatch}
                errorOf={errorOf}
                focusLater={focusLater}
                ids={ids}
              />
            ))}
          </ol>
          <button
            type="button"
            data-focus="add-message"
            onClick={() => {
              focusLater(`payload-${form.nextUid}`);
              dispatch({ type: "addMessage" });
            }}
          >
            Add message
          </button>
        </section>

        <section className="builder-result" aria-labelledby={`${ids}-result`}>
          <h3 id={`${ids}-result`}>Result</h3>
          <p className="builder-size" data-testid="builder-size">
            {bytes ? (
              <>
                Size: <strong>{bytes.length}</strong> bytes ({plural(form.messages.length, "message")})
              </>
            ) : !xxh ? (
              "Loading the checksum kernel…"
            ) : result.errors.length > 0 ? (
              "Size: — (fix the problems below)"
            ) : (
              "Size: —"
            )}
          </p>
          {built && "analysis" in built && <AnalyzerVerdict analysis={built.analysis} />}
          {built && "error" in built && (
            <p className="field-error" role="alert">
              Cannot build: {built.error}
            </p>
          )}
          <IssueList title={`${plural(result.errors.length, "problem")} to fix`} issues={result.errors} kind="error" />
          <IssueList title={plural(result.warnings.length, "warning")} issues={result.warnings} kind="warning" />

          <label className="spec-label" htmlFor={`${ids}-spec`}>
            Spec JSON
          </label>
          <textarea
            id={`${ids}-spec`}
            className="spec-json"
            readOnly
            rows={10}
            value={text}
            spellCheck={false}
            aria-describedby={`${ids}-spec-hint`}
            placeholder="The spec appears once the form has no problems."
          />
          <p className="note" id={`${ids}-spec-hint`}>
            The same description <code>iggy-batch build SPEC.json -o batch.bin</code> reads; "auto" ids get a fresh UUIDv7 on every build.
          </p>
          <div className="share-row">
            <button type="button" onClick={() => void copySpec()} disabled={!text}>
              Copy
            </button>
            <button type="button" onClick={() => downloadFile("batch-spec.json", text + "\n", "application/json")} disabled={!text}>
              Download spec .json
            </button>
          </div>
          {note && (
            <p className="note" role="status">
              {note}
            </p>
          )}
        </section>
      </div>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={showInExplorer} disabled={!bytes}>
          Show in explorer
        </button>
        <button type="button" onClick={() => bytes && downloadFile("built-batch.bin", bytes)} disabled={!bytes}>
          Download .bin
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
