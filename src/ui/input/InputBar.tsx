/** The ways in: "Open batch file" (one file, or several as a partition), the samples menu, the Format control, and a hint for paste and drop. */
import { useId, type ChangeEvent } from "react";
import { SAMPLES } from "../../core/samples.ts";
import { CONTAINER_SAMPLES } from "../../core/containers/samples.ts";
import { CONTAINER_SAMPLE_PREFIX, loadFiles, loadSample, setFormat } from "../session/loading.ts";
import { FORMAT_OPTIONS, formatOfAlias } from "../common/format-choice.ts";
import { formatStore } from "../state/app-state.ts";
import type { FormatChoice } from "../../core/containers/index.ts";
import { useStore } from "../state/store.ts";

const same = (id: FormatChoice) => id;
const good = CONTAINER_SAMPLES.filter((s) => s.shows === null);
const broken = CONTAINER_SAMPLES.filter((s) => s.shows !== null);

/** The toolbar's input controls. */
export function InputBar() {
  const fileId = useId();
  const sampleId = useId();
  const formatId = useId();
  const format = useStore(formatStore, same);
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].map((f) => ({ name: f.name, input: f }));
    if (files.length > 0) void loadFiles(files);
    event.target.value = "";
  };
  const onSample = (event: ChangeEvent<HTMLSelectElement>) => {
    if (event.target.value) void loadSample(event.target.value);
    event.target.value = "";
  };
  return (
    <div className="input-bar">
      <label htmlFor={fileId} className="button">
        Open batch file
      </label>
      <input id={fileId} type="file" multiple className="visually-hidden" onChange={onFile} aria-label="Open batch file" />
      <label htmlFor={sampleId} className="visually-hidden">
        Load a sample
      </label>
      <select id={sampleId} defaultValue="" onChange={onSample} className="samples">
        <option value="" disabled>
          Samples…
        </option>
        <optgroup label="Batches">
          {SAMPLES.map((s) => (
            <option key={s.id} value={s.id} title={s.note}>
              {s.title}
              {s.shows ? ` (${s.shows})` : ""}
            </option>
          ))}
        </optgroup>
        <optgroup label="Containers">
          {good.map((s) => (
            <option key={s.id} value={CONTAINER_SAMPLE_PREFIX + s.id} title={s.note}>
              {s.title}
            </option>
          ))}
        </optgroup>
        <optgroup label="Broken containers">
          {broken.map((s) => (
            <option key={s.id} value={CONTAINER_SAMPLE_PREFIX + s.id} title={s.note}>
              {s.title} ({s.shows})
            </option>
          ))}
        </optgroup>
      </select>
      <span className="format-choice">
        <label htmlFor={formatId} className="format-label">
          Format
        </label>
        <select
          id={formatId}
          value={format}
          onChange={(e) => void setFormat(formatOfAlias(e.target.value) ?? "auto")}
          title="Auto-detect picks the format from the file name and the bytes; choose one to force it"
        >
          {FORMAT_OPTIONS.map((x) => (
            <option key={x.value} value={x.value}>
              {x.label}
            </option>
          ))}
        </select>
      </span>
      <span className="hint">or drop a file or a partition folder anywhere, or paste (Ctrl+V) binary, hex, xxd or base64</span>
    </div>
  );
}
