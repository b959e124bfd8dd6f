/**
 * The inline form that edits one header field's value from the Batch header table or the frame inspector;
 * it reads only the field's bytes (from the file, for an input read on demand) to fill itself in.
 */
import { useEffect, useId, useRef, useState } from "react";
import type { FieldSpec } from "../../format/fields.ts";
import { createStore, useStore } from "../state/store.ts";
import { documentStore, type DocumentState } from "../state/app-state.ts";
import { memoryBytes } from "../../lib/input-bytes.ts";
import { fieldText, parseFieldText } from "./field-value.ts";
import { useByteWindow } from "./use-byte-window.ts";

/** Which field is being edited: its spec, where its header starts, and which panel shows the form. */
export interface FieldEditTarget {
  readonly spec: FieldSpec;
  readonly base: number;
  readonly where: "batch" | "frame";
  /** Words for the undo list, e.g. "batch 0 message_count". */
  readonly label: string;
}

/** The field being edited, or null. */
export const fieldEditStore = createStore<FieldEditTarget | null>(null);

const same = (t: FieldEditTarget | null) => t;

/** An "Edit" button for a field; opens the form in its panel. */
export function EditFieldButton({ target }: { target: FieldEditTarget }) {
  return (
    <button
      type="button"
      className="field-edit-button"
      aria-label={`Edit ${target.label}`}
      title={`Edit ${target.label}`}
      onClick={(e) => {
        e.stopPropagation();
        fieldEditStore.set(target);
      }}
      onKeyDown={(e) => e.stopPropagation()}
    >
      ✎
    </button>
  );
}

/**
 * Writes a parsed value into the field at base and records the edit under label (the editing session's applyFieldEdit);
 * a promise while it first reads a file opened on demand into memory.
 */
export type ApplyFieldEdit = (base: number, spec: FieldSpec, value: bigint | Uint8Array, label: string) => void | Promise<void>;

const NO_BYTES = memoryBytes(new Uint8Array(0));
const inputOf = (s: DocumentState) => s.input;

/** The form for the field being edited, shown when its target belongs to `where`; onApply makes the edit. */
export function FieldEditForm({ where, onApply }: { where: FieldEditTarget["where"]; onApply: ApplyFieldEdit }) {
  const target = useStore(fieldEditStore, same);
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const input = useStore(documentStore, inputOf);
  // Only the field's own bytes: on demand they are read from the file before the form fills in.
  const at = target ? target.base + target.spec.offset : 0;
  const field = useByteWindow(input?.source ?? NO_BYTES, at, at + (target?.spec.size ?? 0));
  const initial = target && field.window ? fieldText(field.window.bytes, target.base - field.window.start, target.spec) : null;

  useEffect(() => {
    if (target && initial !== null) {
      setText(initial);
      setError(null);
      inputRef.current?.focus();
      inputRef.current?.select();
    }
  }, [target, initial]);

  if (!target || target.where !== where) return null;
  const onDemand = input !== null && input.bytes === null;
  const apply = () => {
    const parsed = parseFieldText(text, target.spec);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    const done = onApply(target.base, target.spec, parsed.value, `${target.label} = ${text.trim()}`);
    if (!done) {
      fieldEditStore.set(null);
      return;
    }
    setApplying(true);
    done
      .then(
        () => fieldEditStore.set(null),
        (err: unknown) => setError(`could not read the file into memory to edit it: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => setApplying(false));
  };
  return (
    <form
      className="field-edit"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === "Escape") fieldEditStore.set(null);
      }}
    >
      <label htmlFor={inputId}>{target.label}</label>
      <input
        id={inputId}
        ref={inputRef}
        value={initial === null && !field.error ? "reading…" : text}
        readOnly={initial === null}
        aria-busy={initial === null && !field.error ? true : undefined}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby={(error ?? field.error) ? errorId : undefined}
        className="field-edit-input"
      />
      <button type="submit" disabled={initial === null || applying}>
        Apply
      </button>
      <button type="button" onClick={() => fieldEditStore.set(null)}>
        Cancel
      </button>
      {(error ?? field.error) && (
        <span id={errorId} role="alert" className="field-edit-error">
          {error ?? field.error}
        </span>
      )}
      {onDemand ? (
        <span className="note">
          {applying ? "Reading the whole file into memory to edit it…" : "Apply reads the whole file into memory first: editing needs all of it."}
        </span>
      ) : null}
      <span className="note">
        {target.spec.type === "bytes"
          ? "hex bytes"
          : target.spec.role === "checksum"
            ? "16 hex digits"
            : target.spec.type === "u128"
              ? "UUID, 0x hex or decimal"
              : "decimal or 0x hex"}
        ; checks re-run at once, Undo reverts.
      </span>
    </form>
  );
}
