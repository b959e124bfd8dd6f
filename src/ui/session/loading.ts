/** Loading inputs: every way in (file, drop, paste, sample, link, partition) ends here; a new input cancels the one in flight. */
import { AnalysisClient, AbortedError, KEEP_WORKER, type AnalysisInput } from "../../worker/client.ts";
import type { InputMeta } from "../../worker/protocol.ts";
import { captureStore, documentStore, formatStore, nextInputId, partitionStore, resetInteraction, type OpenPartition } from "../state/app-state.ts";
import { openCaptureSession } from "./capture-session.ts";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { SAMPLES, DEFAULT_SAMPLE_ID } from "../../core/samples/samples.ts";
import type { FormatChoice } from "../../core/containers/index.ts";
import { CONTAINER_SAMPLES } from "../../core/samples/container-samples.ts";
import { decodeIndexEntries } from "../../core/containers/index-file.ts";
import { pagedIndexEntries } from "./index-pages.ts";
import type { Analysis } from "../../core/model/model.ts";
import { pageInputRefusal } from "../../lib/input-limit.ts";
import { confirmDiscardEdits, editsAtStake } from "./discard-guard.ts";
import { rememberSource } from "./input-source.ts";
import { onDemandFrom, rangeWorkersAsked } from "./on-demand.ts";
import { markPhase } from "../../worker/phase-marks.ts";
import { fileBytes, memoryBytes } from "../../lib/input-bytes.ts";
import { formatOfAlias } from "../common/format-choice.ts";
import { companionName, partitionLabel } from "./partition-files.ts";
import { createStore } from "../state/store.ts";
import { settingsStore } from "../state/settings.ts";
import { selectRange } from "../state/actions.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";

/** True while a new input is being decoded (not while an edit is re-checked): what Cancel can stop. */
export const cancellableStore = createStore<boolean>(false);

// Loads and re-checks have a worker each: cancelling one (which terminates its worker) never kills the other.
let loadClient: AnalysisClient | null = null;
let recheckClient: AnalysisClient | null = null;
let loading: AbortController | null = null;
let rechecking: AbortController | null = null;
// Bumped by every request to show something new, so an older request that resolves late shows nothing.
let generation = 0;
// The companion the shown input was opened with, so the Format control can open it the same way again.
let shownCompanion: { readonly name: string; readonly input: AnalysisInput } | null = null;

// An index file is small (24 bytes per flush): read on the page for the entries table beside its log.
const bytesOf = async (input: AnalysisInput): Promise<Uint8Array> =>
  input instanceof Uint8Array ? input : new Uint8Array(input instanceof Blob ? await input.arrayBuffer() : input);

/** Prefix of a container sample's id in the samples menu and in `?sample=`. */
export const CONTAINER_SAMPLE_PREFIX = "c:";

/** Starts loading once: makes the two worker clients (each starts its worker on first use). */
export function startLoading(): void {
  loadClient ??= new AnalysisClient();
  recheckClient ??= new AnalysisClient();
}

function started(client: AnalysisClient | null): AnalysisClient {
  if (!client) throw new Error("the loading session is not started (call startSession first)");
  return client;
}

/** The client whose worker opened the shown input (a capture's messages are read through it). */
export function loadingClient(): AnalysisClient {
  return started(loadClient);
}

/** How loadInput opens an input. */
export interface LoadOptions {
  /** The format to open it as; default auto-detect. */
  readonly format?: FormatChoice;
  /** The other file of its segment pair (.log ↔ .index). */
  readonly companion?: { readonly name: string; readonly input: AnalysisInput } | null;
  /** The file's own name when `name` is a label (a sample's title): decides .log / .index. */
  readonly fileName?: string;
  /** Keep the open partition (a segment of it is being shown); otherwise the partition view closes. */
  readonly inPartition?: boolean;
  /** Keep the open capture (a message of it is being shown); otherwise the Messages view closes. */
  readonly inCapture?: boolean;
  /** Why it reads as its format, said instead of the detection's words (a capture's message: its command, not a user's choice). */
  readonly why?: string;
}

// A new load cancels the load and the re-check in flight and becomes what Cancel stops.
function beginLoad(): AbortController {
  loading?.abort();
  rechecking?.abort();
  // Forgotten at once, so the aborted re-check's clean-up does not clear this load's progress.
  rechecking = null;
  const controller = new AbortController();
  loading = controller;
  cancellableStore.set(true);
  return controller;
}

/** Opens an input off the main thread as its detected or forced format and shows it; resolves true when shown. */
export async function loadInput(
  name: string,
  input: AnalysisInput,
  note: string | null = null,
  ticket = ++generation,
  options: LoadOptions = {},
): Promise<boolean> {
  const client = started(loadClient);
  if (ticket !== generation) return false;
  // Refused before anything is cancelled or read: the browser would only say the file "could not be read".
  const tooLarge = pageInputRefusal(name, input instanceof Blob ? input.size : input.byteLength);
  if (tooLarge) {
    reportInputProblem(tooLarge);
    return false;
  }
  if (editsAtStake() && (!(await confirmDiscardEdits(name)) || ticket !== generation)) return false;
  const controller = beginLoad();
  const total = input instanceof Blob ? input.size : input.byteLength;
  const format = options.format ?? "auto";
  formatStore.set(format);
  if (!options.inPartition) partitionStore.set(null);
  if (!options.inCapture) captureStore.set(null);
  documentStore.set((s) => ({ ...s, loading: { name, done: 0, total }, error: null }));
  try {
    // A capture's message is small and its worker holds the capture: a newer message drops this one's
    // result (loading !== controller below) rather than terminating that worker.
    const result = await client.open(input, options.inCapture ? KEEP_WORKER : controller.signal, {
      name: options.fileName ?? name,
      format,
      companion: options.companion ?? null,
      onDemand: input instanceof Blob && input.size >= onDemandFrom(),
      rangeWorkers: rangeWorkersAsked(),
      capturePort: settingsStore.get().capturePort ?? undefined,
      onProgress: (done, all) => {
        if (loading === controller) documentStore.set((s) => ({ ...s, loading: { name, done, total: all } }));
      },
    });
    markPhase("result");
    const companion = options.companion ?? null;
    // A large `.index` is read in pages on the page too (session/index-pages.ts): the worker sent no entries for one opened alone.
    const companionEntries =
      result.meta.format === "segment" && companion
        ? ((companion.input instanceof Blob ? pagedIndexEntries(companion.input) : null) ?? decodeIndexEntries(await bytesOf(companion.input)))
        : null;
    const meta =
      result.meta.format === "index" && result.meta.entries === null && input instanceof Blob
        ? { ...result.meta, entries: pagedIndexEntries(input) }
        : result.meta;
    if (loading !== controller) return false;
    if (result.capture) {
      // A capture: its message index is listed, and its messages are shown one at a time as request/reply inputs.
      loading = null;
      const file = input instanceof Uint8Array ? input.slice().buffer : input;
      return await openCaptureSession(name, file, result.capture);
    }
    if (input instanceof Blob && result.bytes) rememberSource(result.bytes, input);
    const source = result.bytes ? memoryBytes(result.bytes) : fileBytes(input as Blob);
    resetInteraction();
    shownCompanion = companion;
    documentStore.set({
      input: {
        opened: nextInputId(),
        name,
        bytes: result.bytes,
        source,
        analysis: result.analysis,
        ranOn: result.ranOn,
        note,
        startOffset: 0,
        meta: options.why ? { ...meta, detectedBy: options.why } : meta,
        fileName: options.fileName ?? name,
        companion: companion?.name ?? null,
        companionEntries,
      },
      loading: null,
      error: null,
    });
    markPhase("shown");
    return true;
  } catch (err) {
    if (err instanceof AbortedError || loading !== controller) return false;
    documentStore.set((s) => ({ ...s, loading: null, error: `could not analyse ${name}: ${(err as Error).message}` }));
    return false;
  } finally {
    if (loading === controller) loading = null;
    if (!loading) cancellableStore.set(false);
  }
}

/** Re-opens the shown input's bytes (edited, or with another format) off the main thread; the caller keeps its bytes. */
export function reopenInWorker(bytes: Uint8Array, format: FormatChoice, label: string): Promise<{ analysis: Analysis; meta: InputMeta } | null> {
  const input = documentStore.get().input;
  return recheck(label, bytes.length, (client, signal) =>
    client.open(bytes, signal, { name: input?.fileName ?? input?.name, format, companion: shownCompanion }),
  );
}

async function recheck<T>(label: string, total: number, run: (client: AnalysisClient, signal: AbortSignal) => Promise<T>): Promise<T | null> {
  const client = started(recheckClient);
  if (loading) return null;
  rechecking?.abort();
  const controller = new AbortController();
  rechecking = controller;
  documentStore.set((s) => ({ ...s, loading: { name: label, done: 0, total } }));
  try {
    const result = await run(client, controller.signal);
    return rechecking === controller ? result : null;
  } catch {
    return null;
  } finally {
    if (rechecking === controller) {
      rechecking = null;
      documentStore.set((s) => ({ ...s, loading: null }));
    }
  }
}

/** Builds a sample with the encoder and loads it (a container sample's id starts with "c:"); a file opened meanwhile wins. */
export async function loadSample(id: string = DEFAULT_SAMPLE_ID): Promise<boolean> {
  const ticket = ++generation;
  const xxh = await loadXxh3();
  if (id.startsWith(CONTAINER_SAMPLE_PREFIX)) {
    const sample = CONTAINER_SAMPLES.find((s) => s.id === id.slice(CONTAINER_SAMPLE_PREFIX.length));
    if (sample) {
      const files = sample.build(xxh);
      if (ticket !== generation) return false;
      if (sample.format === "partition") {
        return loadPartition(
          `sample: ${sample.title}`,
          files.map((f) => ({ name: f.name, input: new Blob([f.bytes as Uint8Array<ArrayBuffer>]) })),
          ticket,
        );
      }
      const [file, companion] = files;
      if (!file) return false;
      return loadInput(`sample: ${sample.title} (${file.name})`, file.bytes, sample.note, ticket, {
        format: sample.forced ? sample.format : "auto",
        fileName: file.name,
        companion: companion ? { name: companion.name, input: companion.bytes } : null,
      });
    }
  }
  const sample = SAMPLES.find((s) => s.id === id) ?? SAMPLES[0]!;
  const bytes = sample.build(xxh);
  if (ticket !== generation) return false;
  return loadInput(`sample: ${sample.title}`, bytes, sample.note, ticket, { format: formatOfAlias(sample.envelope) ?? "auto" });
}

/** The finding a file opens on: its first error, else its first warning (infos are context, not problems). */
export function firstProblem<D extends Diagnostic>(list: readonly D[]): D | null {
  return list.find((d) => d.severity === "error") ?? list.find((d) => d.severity === "warning") ?? null;
}

// Selects the shown input's first problem (so the hex map scrolls there), unless the setting turns it off.
function openOnFirstProblem(d: Diagnostic | null = firstProblem(documentStore.get().input?.analysis.diagnostics ?? [])): void {
  if (d && settingsStore.get().openAtFirstProblem) selectRange(d.start, Math.max(d.end, d.start + 1), "diagnostic");
}

/** Opens what a person picked or dropped: one file as itself (on its first problem), several files (or a folder) as one partition. */
export async function loadFiles(files: readonly { name: string; input: Blob }[], label?: string): Promise<boolean> {
  const [only] = files;
  if (!(files.length === 1 && only && label === undefined)) return loadPartition(label ?? partitionLabel(files.length), files);
  const ticket = ++generation;
  const shown = await loadInput(only.name, only.input, null, ticket);
  if (shown && ticket === generation) openOnFirstProblem();
  return shown;
}

/** Decodes several files as one partition in the worker (one segment at a time), lists it, and shows its first segment. */
export async function loadPartition(name: string, files: readonly { name: string; input: Blob }[], ticket = ++generation): Promise<boolean> {
  const client = started(loadClient);
  if (ticket !== generation) return false;
  if (editsAtStake() && (!(await confirmDiscardEdits(name)) || ticket !== generation)) return false;
  const controller = beginLoad();
  partitionStore.set(null);
  captureStore.set(null);
  formatStore.set("auto");
  documentStore.set((s) => ({ ...s, loading: { name, done: 0, total: files.length }, error: null }));
  try {
    const result = await client.openPartition(files, controller.signal, (done, all) => {
      if (loading === controller) documentStore.set((s) => ({ ...s, loading: { name, done, total: all } }));
    });
    if (loading !== controller) return false;
    loading = null;
    const partition: OpenPartition = { name, result, files: new Map(files.map((f) => [f.name, f.input])), shown: null };
    partitionStore.set(partition);
    // The file of the partition's first problem (a segment or its index), unless the setting keeps to the first segment.
    const problem = settingsStore.get().openAtFirstProblem ? firstProblem(result.diagnostics) : null;
    const first =
      (problem && partition.files.has(problem.file) ? problem.file : null) ?? result.segments[0]?.name ?? result.files.find((f) => f.format !== null)?.name;
    if (!first) {
      resetInteraction();
      documentStore.set({ input: null, loading: null, error: null });
      return true;
    }
    const shown = await showPartitionFile(first, ticket);
    if (shown && ticket === generation && problem?.file === first) openOnFirstProblem(problem);
    return shown;
  } catch (err) {
    if (err instanceof AbortedError || loading !== controller) return false;
    documentStore.set((s) => ({ ...s, loading: null, error: `could not open ${name}: ${(err as Error).message}` }));
    return false;
  } finally {
    if (loading === controller) loading = null;
    if (!loading) cancellableStore.set(false);
  }
}

/** Opens one file of the open partition in the hex map and tables, with its segment-pair companion. */
export async function showPartitionFile(name: string, ticket = ++generation): Promise<boolean> {
  const partition = partitionStore.get();
  const blob = partition?.files.get(name);
  if (!partition || !blob) return false;
  partitionStore.set({ ...partition, shown: name });
  const other = companionName(name);
  const companionBlob = other ? partition.files.get(other) : undefined;
  const companion = other && companionBlob ? { name: other, input: companionBlob } : null;
  return loadInput(name, blob, null, ticket, { companion, inPartition: true });
}

/** Opens the other file of the shown segment pair (.log ↔ .index) with the shown one as its companion; false when there is none. */
export async function openCompanion(): Promise<boolean> {
  const input = documentStore.get().input;
  const other = input ? companionName(input.fileName ?? input.name) : null;
  if (!input || !other) return false;
  if (partitionStore.get()?.files.has(other)) return showPartitionFile(other);
  const companion = shownCompanion;
  if (!companion || companion.name !== other) return false;
  return loadInput(companion.name, companion.input, input.note ?? null, ++generation, {
    companion: { name: input.fileName ?? input.name, input: input.bytes ?? (input.source.file as Blob) },
  });
}

/** Reports a problem with an input that never reached the decoder (unreadable paste, empty drop). */
export function reportInputProblem(message: string): void {
  documentStore.set((s) => ({ ...s, error: message }));
}

/** Reads the shown input again as another format (the Format control), keeping its bytes (and so its edit history). */
export async function setFormat(choice: FormatChoice): Promise<void> {
  formatStore.set(choice);
  const input = documentStore.get().input;
  const open = captureStore.get();
  if (choice === "capture") {
    // Read as a capture: the whole file again (the open capture's, or the shown input's), into the Messages view.
    const whole = open ? open.input : (input?.bytes ?? input?.source.file);
    const name = open?.name ?? input?.name;
    if (whole && name) await loadInput(name, whole, null, ++generation, { format: "capture", fileName: open ? open.name : input?.fileName });
    return;
  }
  if (!input) return;
  const file = input.source.file;
  if (!input.bytes && file) {
    // Read on demand, it has no edits to keep: opened again from its File as the chosen format.
    await loadInput(input.name, file, input.note ?? null, ++generation, {
      format: choice,
      fileName: input.fileName,
      companion: shownCompanion,
      inPartition: partitionStore.get() !== null,
    });
    return;
  }
  if (!input.bytes) return;
  const reopened = await reopenInWorker(input.bytes, choice, `${input.name} as ${choice}`);
  const now = documentStore.get().input;
  if (!reopened || now?.bytes !== input.bytes) return;
  resetInteraction();
  documentStore.set((s) => ({ ...s, input: { ...now, analysis: reopened.analysis, meta: reopened.meta, startOffset: 0 } }));
}

/** Stops the decode of a new input (Cancel, Esc); the input shown before stays. Returns false when none runs. */
export function cancelLoading(): boolean {
  if (!loading) return false;
  loading.abort();
  loading = null;
  generation++;
  cancellableStore.set(false);
  documentStore.set((s) => ({ ...s, loading: null, error: null }));
  return true;
}
