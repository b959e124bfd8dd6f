/**
 * The batch builder (issue #4 §5): compose messages (payload as text, JSON or hex; user headers;
 * id; timestamp delta), choose a producer or a stamped batch, and get the same JSON spec
 * `iggy-batch build` reads, the bytes it makes, their size and what the analyzer says of them.
 */
import { useEffect, useId, useMemo, useReducer, useRef, useState, type Dispatch, type RefObject } from "react";
import { buildFromSpec } from "../../core/build-spec.ts";
import { analyzeWith } from "../../core/analyze.ts";
import type { Analysis } from "../../core/model.ts";
import { microsToIso, plural } from "../../format/values.ts";
import { loadInput } from "../session/loading.ts";
import { copyText, downloadFile } from "../common/download.ts";
import { browserEnv, nowMicros, useXxh3 } from "../session/building.ts";
import { useModal } from "../common/use-modal.ts";
import {
  formReducer,
  initialForm,
  PAYLOAD_MODES,
  VALUE_KINDS,
  type BatchField,
  type BuilderForm,
  type FormAction,
  type HeaderKindName,
  type HeaderRow,
  type MessageForm,
  type PayloadMode,
} from "./form-state.ts";
import { fieldKey, formToSpec, payloadByteLength, specText, type FormIssue } from "./form-to-spec.ts";
import "../common/dialog.css";
import "./builder.css";

type Built = { readonly bytes: Uint8Array; readonly analysis: Analysis } | { readonly error: string };

const VALUE_PLACEHOLDER: Partial<Record<HeaderKindName, string>> = {
  raw: "hex bytes, e.g. 01 ff",
  string: "text",
  f32: "e.g. 1.5",
  f64: "e.g. 1.5",
};

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

interface FieldProps {
  readonly form: BuilderForm;
  readonly dispatch: Dispatch<FormAction>;
  readonly errorOf: ReadonlyMap<string, string>;
  readonly ids: string;
}

/** Batch-level fields: producer or stamped, and the header values that go with each. */
function BatchFields({ form, dispatch, errorOf, ids }: FieldProps) {
  const stamped = form.batchKind === "stamped";
  return (
    <fieldset className="builder-batch">
      <legend>Batch</legend>
      <fieldset className="kind-choice">
        <legend>Kind</legend>
        <label>
          <input type="radio" name={`${ids}-kind`} checked={!stamped} onChange={() => dispatch({ type: "setBatchKind", batchKind: "producer" })} /> Producer
          batch
        </label>
        <label>
          <input type="radio" name={`${ids}-kind`} checked={stamped} onChange={() => dispatch({ type: "setBatchKind", batchKind: "stamped" })} /> Stamped batch
        </label>
        <span className="note">
          {stamped
            ? "as the server stores it: partition, base offset and time set"
            : "as a producer sends it: partition_id, base_offset and base_timestamp are 0"}
        </span>
      </fieldset>
      <div className="batch-grid">
        {stamped && (
          <>
            <U64Field field="partitionId" label="partition_id" form={form} dispatch={dispatch} errorOf={errorOf} ids={ids} />
            <U64Field field="baseOffset" label="base_offset" form={form} dispatch={dispatch} errorOf={errorOf} ids={ids} />
            <U64Field field="baseTimestamp" label="base_timestamp (µs)" time form={form} dispatch={dispatch} errorOf={errorOf} ids={ids} />
          </>
        )}
        <U64Field field="originTimestamp" label="origin_timestamp (µs)" time form={form} dispatch={dispatch} errorOf={errorOf} ids={ids} />
      </div>
    </fieldset>
  );
}

/** One u64 batch field with its inline error; timestamps get a "Now" button and their date. */
function U64Field({ field, label, time = false, form, dispatch, errorOf, ids }: FieldProps & { field: BatchField; label: string; time?: boolean }) {
  const id = `${ids}-${field}`;
  const error = errorOf.get(fieldKey.batch(field));
  const value = form[field];
  let date: string | null = null;
  if (time && !error && /^\d+$/.test(value.trim())) date = microsToIso(BigInt(value.trim()));
  const hintId = `${id}-hint`;
  return (
    <div className="batch-field">
      <label htmlFor={id}>{label}</label>
      <div className="inline-row">
        <input
          id={id}
          inputMode="numeric"
          spellCheck={false}
          value={value}
          size={22}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : date ? hintId : undefined}
          onChange={(e) => dispatch({ type: "setBatchField", field, value: e.target.value })}
        />
        {time && (
          <button
            type="button"
            aria-label={`Set ${label.replace(/ \(µs\)$/, "")} to now`}
            onClick={() => dispatch({ type: "setBatchField", field, value: nowMicros().toString() })}
          >
            Now
          </button>
        )}
      </div>
      {error ? (
        <FieldError id={`${id}-error`} message={error} />
      ) : (
        date && (
          <span className="hint" id={hintId}>
            {date}
          </span>
        )
      )}
    </div>
  );
}

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}

interface MessageProps {
  readonly message: MessageForm;
  readonly index: number;
  readonly count: number;
  readonly nextUid: number;
  readonly dispatch: Dispatch<FormAction>;
  readonly errorOf: ReadonlyMap<string, string>;
  readonly focusLater: (...keys: string[]) => void;
  readonly ids: string;
}

/** One message: order buttons, payload editor, id, timestamp delta and user header rows. */
function MessageEditor({ message: m, index, count, nextUid, dispatch, errorOf, focusLater, ids }: MessageProps) {
  const n = index + 1;
  const id = `${ids}-m${m.uid}`;
  const payloadError = errorOf.get(fieldKey.message(m.uid, "payload"));
  const idError = errorOf.get(fieldKey.message(m.uid, "id"));
  const deltaError = errorOf.get(fieldKey.message(m.uid, "timestampDelta"));
  const size = payloadByteLength(m);
  const move = (by: -1 | 1) => {
    const here = by < 0 ? `up-${m.uid}` : `down-${m.uid}`;
    const other = by < 0 ? `down-${m.uid}` : `up-${m.uid}`;
    focusLater(here, other);
    dispatch({ type: "moveMessage", uid: m.uid, by });
  };
  const remove = () => {
    focusLater(`remove-${index}`, `remove-${index - 1}`, "add-message");
    dispatch({ type: "removeMessage", uid: m.uid });
  };
  const hr = <span className="visually-hidden">Message {n} </span>;
  return (
    <li className="message-card">
      <fieldset>
        <legend>Message {n}</legend>
        <div className="message-tools">
          <button type="button" data-focus={`up-${m.uid}`} onClick={() => move(-1)} disabled={index === 0} aria-label={`Move message ${n} up`}>
            ↑ Up
          </button>
          <button type="button" data-focus={`down-${m.uid}`} onClick={() => move(1)} disabled={index === count - 1} aria-label={`Move message ${n} down`}>
            ↓ Down
          </button>
          {/* Keyed by position: after a removal the next message's Remove button takes the focus. */}
          <button type="button" data-focus={`remove-${index}`} onClick={remove} aria-label={`Remove message ${n}`}>
            Remove
          </button>
        </div>

        <div className="payload-head">
          <label htmlFor={`${id}-mode`}>{hr}Payload format</label>
          <select
            id={`${id}-mode`}
            value={m.payloadMode}
            onChange={(e) => dispatch({ type: "setPayloadMode", uid: m.uid, mode: e.target.value as PayloadMode })}
          >
            {PAYLOAD_MODES.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
          <span className="hint">
            {size === null ? "" : plural(size, "byte")}
            {m.payloadMode === "json" ? " · written compact" : ""}
          </span>
        </div>
        <label htmlFor={`${id}-payload`}>{hr}Payload</label>
        <textarea
          id={`${id}-payload`}
          data-focus={`payload-${m.uid}`}
          className={`payload-input mode-${m.payloadMode}`}
          rows={3}
          value={m.payload}
          spellCheck={m.payloadMode === "text"}
          aria-invalid={payloadError ? true : undefined}
          aria-describedby={payloadError ? `${id}-payload-error` : undefined}
          placeholder={m.payloadMode === "hex" ? "e.g. de ad be ef" : m.payloadMode === "json" ? '{"key": "value"}' : ""}
          onChange={(e) => dispatch({ type: "setMessageField", uid: m.uid, field: "payload", value: e.target.value })}
        />
        {payloadError && <FieldError id={`${id}-payload-error`} message={payloadError} />}

        <div className="message-grid">
          <div className="batch-field">
            <label htmlFor={`${id}-idmode`}>{hr}Id</label>
            <div className="inline-row">
              <select
                id={`${id}-idmode`}
                value={m.idMode}
                onChange={(e) => dispatch({ type: "setIdMode", uid: m.uid, idMode: e.target.value as "auto" | "given" })}
              >
                <option value="auto">auto UUIDv7</option>
                <option value="given">given</option>
              </select>
              {m.idMode === "given" && (
                <>
                  <label className="visually-hidden" htmlFor={`${id}-id`}>
                    Message {n} id value
                  </label>
                  <input
                    id={`${id}-id`}
                    className="id-input"
                    value={m.id}
                    size={38}
                    spellCheck={false}
                    placeholder="UUID, 0x… or decimal u128"
                    aria-invalid={idError ? true : undefined}
                    aria-describedby={idError ? `${id}-id-error` : undefined}
                    onChange={(e) => dispatch({ type: "setMessageField", uid: m.uid, field: "id", value: e.target.value })}
                  />
                </>
              )}
            </div>
            {idError && <FieldError id={`${id}-id-error`} message={idError} />}
          </div>
          <div className="batch-field">
            <label htmlFor={`${id}-delta`}>{hr}Timestamp delta (µs)</label>
            <input
              id={`${id}-delta`}
              inputMode="numeric"
              size={12}
              value={m.timestampDelta}
              spellCheck={false}
              aria-invalid={deltaError ? true : undefined}
              aria-describedby={deltaError ? `${id}-delta-error` : undefined}
              onChange={(e) => dispatch({ type: "setMessageField", uid: m.uid, field: "timestampDelta", value: e.target.value })}
            />
            {deltaError && <FieldError id={`${id}-delta-error`} message={deltaError} />}
          </div>
        </div>

        <HeaderRows message={m} n={n} nextUid={nextUid} dispatch={dispatch} errorOf={errorOf} focusLater={focusLater} id={id} />
      </fieldset>
    </li>
  );
}

/** The user header rows of one message: key, kind of the value, value, and a remove button each. */
function HeaderRows({
  message: m,
  n,
  nextUid,
  dispatch,
  errorOf,
  focusLater,
  id,
}: {
  message: MessageForm;
  n: number;
  nextUid: number;
  dispatch: Dispatch<FormAction>;
  errorOf: ReadonlyMap<string, string>;
  focusLater: (...keys: string[]) => void;
  id: string;
}) {
  const setKind = (h: HeaderRow, kind: HeaderKindName) => {
    const value = kind === "bool" && !/^(true|false)$/.test(h.value) ? "true" : h.value;
    dispatch({ type: "setHeader", uid: m.uid, headerUid: h.uid, patch: { kind, value } });
  };
  return (
    <div className="header-rows">
      {m.headers.length > 0 && (
        <table className="header-table" aria-label={`Message ${n} user headers`}>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Kind</th>
              <th scope="col">Value</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {m.headers.map((h, j) => {
              const where = `Message ${n} header ${j + 1}`;
              const keyError = errorOf.get(fieldKey.header(m.uid, h.uid, "key"));
              const valueError = errorOf.get(fieldKey.header(m.uid, h.uid, "value"));
              const hid = `${id}-h${h.uid}`;
              return (
                <tr key={h.uid}>
                  <td>
                    <input
                      aria-label={`${where} key`}
                      data-focus={`hkey-${h.uid}`}
                      value={h.key}
                      spellCheck={false}
                      placeholder="key"
                      aria-invalid={keyError ? true : undefined}
                      aria-describedby={keyError ? `${hid}-key-error` : undefined}
                      onChange={(e) => dispatch({ type: "setHeader", uid: m.uid, headerUid: h.uid, patch: { key: e.target.value } })}
                    />
                    {keyError && <FieldError id={`${hid}-key-error`} message={keyError} />}
                  </td>
                  <td>
                    <select aria-label={`${where} kind`} value={h.kind} onChange={(e) => setKind(h, e.target.value as HeaderKindName)}>
                      {VALUE_KINDS.map((k, i) => (
                        <option key={k} value={k}>
                          {i + 1} {k}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {h.kind === "bool" ? (
                      <select
                        aria-label={`${where} value`}
                        value={/^(true|1)$/i.test(h.value.trim()) ? "true" : "false"}
                        onChange={(e) => dispatch({ type: "setHeader", uid: m.uid, headerUid: h.uid, patch: { value: e.target.value } })}
                      >
                        <option value="true">true</option>
                        <option value="false">false</option>
                      </select>
                    ) : (
                      <input
                        aria-label={`${where} value`}
                        value={h.value}
                        spellCheck={false}
                        placeholder={VALUE_PLACEHOLDER[h.kind] ?? "e.g. 42"}
                        aria-invalid={valueError ? true : undefined}
                        aria-describedby={valueError ? `${hid}-value-error` : undefined}
                        onChange={(e) => dispatch({ type: "setHeader", uid: m.uid, headerUid: h.uid, patch: { value: e.target.value } })}
                      />
                    )}
                    {valueError && <FieldError id={`${hid}-value-error`} message={valueError} />}
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Remove header ${j + 1} of message ${n}`}
                      onClick={() => {
                        focusLater(`add-header-${m.uid}`);
                        dispatch({ type: "removeHeader", uid: m.uid, headerUid: h.uid });
                      }}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button
        type="button"
        data-focus={`add-header-${m.uid}`}
        aria-label={`Add header to message ${n}`}
        onClick={() => {
          focusLater(`hkey-${nextUid}`);
          dispatch({ type: "addHeader", uid: m.uid });
        }}
      >
        Add header
      </button>
    </div>
  );
}

/** What analyze() says of the built bytes: nothing, or each finding's code. */
function AnalyzerVerdict({ analysis }: { analysis: Analysis }) {
  if (analysis.diagnostics.length === 0) return <p className="note">Analyzer: no findings.</p>;
  return (
    <div>
      <p className="note">Analyzer findings:</p>
      <ul className="issue-list">
        {analysis.diagnostics.map((d, i) => (
          <li key={i} className={`issue-${d.severity}`}>
            <strong>{d.severity}</strong> {d.code}: {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A summary list of form problems or warnings. */
function IssueList({ title, issues, kind }: { title: string; issues: readonly FormIssue[]; kind: "error" | "warning" }) {
  if (issues.length === 0) return null;
  return (
    <div className={`issues issues-${kind}`}>
      <p className="issues-title">
        {kind === "error" ? "✖" : "⚠"} {title}:
      </p>
      <ul className="issue-list">
        {issues.map((e, i) => (
          <li key={`${e.field}-${i}`}>
            {e.where}: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
