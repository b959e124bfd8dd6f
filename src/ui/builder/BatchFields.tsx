/** The builder's batch-level fields: producer or stamped, and the header values that go with each. */
import type { Dispatch } from "react";
import { microsToIso } from "../../format/values.ts";
import type { BatchField, BuilderForm, FormAction } from "./form-state.ts";
import { fieldKey } from "./form-to-spec.ts";
import { nowMicros } from "../session/building.ts";

interface FieldProps {
  readonly form: BuilderForm;
  readonly dispatch: Dispatch<FormAction>;
  readonly errorOf: ReadonlyMap<string, string>;
  readonly ids: string;
}

/** Batch-level fields: producer or stamped, and the header values that go with each. */
export function BatchFields({ form, dispatch, errorOf, ids }: FieldProps) {
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

/** A field's problem, shown under it (the field names it with aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}
