/** The inline form that edits one header field's value from the Batch header table or the frame inspector. */
import { useEffect, useId, useRef, useState } from "react";
import type { FieldSpec } from "../../format/fields.ts";
import { createStore, useStore } from "../state/store.ts";
import { documentStore } from "../state/app-state.ts";
import { fieldText, parseFieldText } from "./field-value.ts";

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

/** Writes a parsed value into the field at base and records the edit under label (the editing session's applyFieldEdit). */
export type ApplyFieldEdit = (base: number, spec: FieldSpec, value: bigint | Uint8Array, label: string) => void;

/** The form for the field being edited, shown when its target belongs to `where`; onApply makes the edit. */
export function FieldEditForm({ where, onApply }: { where: FieldEditTarget["where"]; onApply: ApplyFieldEdit }) {
  const target = useStore(fieldEditStore, same);
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const input = documentStore.get().input;
    if (target && input) {
      setText(fieldText(input.bytes, target.base, target.spec));
      setError(null);
      inputRef.current?.focus();
      inputRef.current?.select();
    }
  }, [target]);

  if (!target || target.where !== where) return null;
  const apply = () => {
    const parsed = parseFieldText(text, target.spec);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    onApply(target.base, target.spec, parsed.value, `${target.label} = ${text.trim()}`);
    fieldEditStore.set(null);
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
        value={text}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        className="field-edit-input"
      />
      <button type="submit">Apply</button>
      <button type="button" onClick={() => fieldEditStore.set(null)}>
        Cancel
      </button>
      {error && (
        <span id={errorId} role="alert" className="field-edit-error">
          {error}
        </span>
      )}
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
