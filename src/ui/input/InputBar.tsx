/** The ways in: "Open batch file", the samples menu, and a hint for paste and drop. */
import { useId, type ChangeEvent } from "react";
import { SAMPLES } from "../../core/samples.ts";
import { loadInput, loadSample, setEnvelope } from "../session/loading.ts";
import { ENVELOPES } from "../../core/envelopes.ts";
import { envelopeStore } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";

const same = (id: string) => id;

/** The toolbar's input controls. */
export function InputBar() {
  const fileId = useId();
  const sampleId = useId();
  const envelopeId = useId();
  const envelope = useStore(envelopeStore, same);
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) void loadInput(file.name, file);
    event.target.value = "";
  };
  const onSample = (event: ChangeEvent<HTMLSelectElement>) => {
    if (event.target.value) void loadSample(event.target.value);
    event.target.value = "";
  };
  return (
    <div className="input-bar">
      <label htmlFor={fileId} className="button">Open batch file</label>
      <input id={fileId} type="file" className="visually-hidden" onChange={onFile} aria-label="Open batch file" />
      <label htmlFor={sampleId} className="visually-hidden">Load a sample</label>
      <select id={sampleId} defaultValue="" onChange={onSample} className="samples">
        <option value="" disabled>Samples…</option>
        {SAMPLES.map((s) => (
          <option key={s.id} value={s.id} title={s.note}>{s.title}{s.shows ? ` (${s.shows})` : ""}</option>
        ))}
      </select>
      <span className="envelope">
        <label htmlFor={envelopeId} className="envelope-label">Input starts with</label>
        <select id={envelopeId} value={envelope} onChange={(e) => void setEnvelope(e.target.value)} title={ENVELOPES.find((x) => x.id === envelope)?.description}>
          {ENVELOPES.map((x) => <option key={x.id} value={x.id} title={x.description}>{x.label}{x.skip ? ` (${x.skip} B)` : ""}</option>)}
        </select>
      </span>
      <span className="hint">or drop a file anywhere, or paste (Ctrl+V) binary, hex, xxd or base64</span>
    </div>
  );
}
