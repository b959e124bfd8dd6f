/** The builder's message editor: order buttons, payload (text, JSON or hex), id, timestamp delta and user header rows. */
import type { Dispatch } from "react";
import { plural } from "../../format/values.ts";
import { PAYLOAD_MODES, VALUE_KINDS, type FormAction, type HeaderKindName, type HeaderRow, type MessageForm, type PayloadMode } from "./form-state.ts";
import { fieldKey, payloadByteLength } from "./form-to-spec.ts";
import { FieldError } from "./BatchFields.tsx";

const VALUE_PLACEHOLDER: Partial<Record<HeaderKindName, string>> = {
  raw: "hex bytes, e.g. 01 ff",
  string: "text",
  f32: "e.g. 1.5",
  f64: "e.g. 1.5",
};

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
export function MessageEditor({ message: m, index, count, nextUid, dispatch, errorOf, focusLater, ids }: MessageProps) {
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
