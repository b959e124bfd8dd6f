/**
 * The ways in: "Open batch file" (one file, or several as a partition), "Open folder" (a partition
 * directory, through the browser's directory picker), the samples menu, the Format control, and a
 * hint for paste and drop.
 */
import { useId, type ChangeEvent, type InputHTMLAttributes } from "react";
import { SAMPLES } from "../../core/samples/samples.ts";
import { CONTAINER_SAMPLES } from "../../core/samples/container-samples.ts";
import { CONTAINER_SAMPLE_PREFIX, loadFiles, loadSample, setFormat } from "../session/loading.ts";
import { FORMAT_OPTIONS, formatOfAlias } from "../common/format-choice.ts";
import { captureStore, formatStore, type OpenCapture } from "../state/app-state.ts";
import type { FormatChoice } from "../../core/containers/index.ts";
import { useStore } from "../state/store.ts";
import { folderFiles } from "./dropped-files.ts";
import { partitionLabel } from "../session/partition-files.ts";

// The directory picker's attribute, which React's types do not list (every current browser supports it).
const DIRECTORY_PICKER = { webkitdirectory: "", directory: "" } as InputHTMLAttributes<HTMLInputElement>;

const same = (id: FormatChoice) => id;
const hasCapture = (c: OpenCapture | null) => c !== null;
const good = CONTAINER_SAMPLES.filter((s) => s.shows === null);
const broken = CONTAINER_SAMPLES.filter((s) => s.shows !== null);

/** The toolbar's input controls. */
export function InputBar() {
  const fileId = useId();
  const sampleId = useId();
  const formatId = useId();
  const folderId = useId();
  const format = useStore(formatStore, same);
  // With a capture open the control reads the chosen message, not the file: its label says so, or "Format: Consensus
  // reply" beside the status line's "Network capture" reads as two answers to one question.
  const capture = useStore(captureStore, hasCapture);
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].map((f) => ({ name: f.name, input: f }));
    if (files.length > 0) void loadFiles(files);
    event.target.value = "";
  };
  // A picked folder arrives as its files with paths ("p3/00….log"): opened as one partition, named after the folder.
  const onFolder = (event: ChangeEvent<HTMLInputElement>) => {
    const { files, folder } = folderFiles([...(event.target.files ?? [])]);
    event.target.value = "";
    if (files.length > 0) void loadFiles(files, partitionLabel(files.length, folder ?? undefined));
  };
  const onSample = (event: ChangeEvent<HTMLSelectElement>) => {
    if (event.target.value) void loadSample(event.target.value);
    event.target.value = "";
  };
  return (
    <div className="input-bar">
      <label htmlFor={fileId} className="button" title="Or drop a file or a partition folder anywhere, or paste (Ctrl+V) binary, hex, xxd or base64">
        Open batch file
      </label>
      <input id={fileId} type="file" multiple className="visually-hidden" onChange={onFile} aria-label="Open batch file" />
      <label htmlFor={folderId} className="button" title="Open a partition directory: its segment (.log) and .index files">
        Open folder
      </label>
      <input id={folderId} type="file" {...DIRECTORY_PICKER} className="visually-hidden" onChange={onFolder} aria-label="Open folder" />
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
          {capture ? "Message read as" : "Format"}
        </label>
        <select
          id={formatId}
          value={format}
          onChange={(e) => void setFormat(formatOfAlias(e.target.value) ?? "auto")}
          title={
            capture
              ? "How the chosen message's bytes are read (from its command byte); choose another to force it, the capture stays open"
              : "Auto-detect picks the format from the file name and the bytes; choose one to force it"
          }
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
