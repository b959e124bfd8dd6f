/** Loading inputs: every way in (file, drop, paste, sample, link) ends here; a new input cancels the one in flight. */
import { AnalysisClient, AbortedError, type AnalysisInput } from "../../worker/client.ts";
import { documentStore, envelopeStore, resetInteraction } from "../state/app-state.ts";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { SAMPLES, DEFAULT_SAMPLE_ID } from "../../core/samples.ts";
import { envelopeById } from "../../core/envelopes.ts";
import type { Analysis } from "../../core/model.ts";

// Loads and re-checks have a worker each: cancelling one (which terminates its worker) never kills the other.
let loadClient: AnalysisClient | null = null;
let recheckClient: AnalysisClient | null = null;
let loading: AbortController | null = null;
let rechecking: AbortController | null = null;
// Bumped by every request to show something new, so an older request that resolves late shows nothing.
let generation = 0;

/** Starts loading once: makes the two worker clients (each starts its worker on first use). */
export function startLoading(): void {
  loadClient ??= new AnalysisClient();
  recheckClient ??= new AnalysisClient();
}

function started(client: AnalysisClient | null): AnalysisClient {
  if (!client) throw new Error("the loading session is not started (call startSession first)");
  return client;
}

/** Analyses an input off the main thread and shows it; resolves true when shown, false when cancelled or failed. */
export async function loadInput(name: string, input: AnalysisInput, note: string | null = null, ticket = ++generation): Promise<boolean> {
  const client = started(loadClient);
  if (ticket !== generation) return false;
  loading?.abort();
  rechecking?.abort();
  const controller = new AbortController();
  loading = controller;
  const total = input instanceof Blob ? input.size : input.byteLength;
  const startOffset = envelopeById(envelopeStore.get())?.skip ?? 0;
  documentStore.set((s) => ({ ...s, loading: { name, done: 0, total }, error: null }));
  try {
    const result = await client.analyze(input, controller.signal, (done, all) => {
      if (loading === controller) documentStore.set((s) => ({ ...s, loading: { name, done, total: all } }));
    }, startOffset);
    if (loading !== controller) return false;
    resetInteraction();
    documentStore.set({ input: { name, bytes: result.bytes, analysis: result.analysis, ranOn: result.ranOn, note, startOffset }, loading: null, error: null });
    return true;
  } catch (err) {
    if (err instanceof AbortedError || loading !== controller) return false;
    documentStore.set((s) => ({ ...s, loading: null, error: `could not analyse ${name}: ${(err as Error).message}` }));
    return false;
  } finally {
    if (loading === controller) loading = null;
  }
}

/** Re-analyses the shown input's bytes (edited, or read with another envelope) off the main thread; the caller keeps its bytes. */
export async function reanalyzeInWorker(bytes: Uint8Array, startOffset = documentStore.get().input?.startOffset ?? 0, label = "edited bytes"): Promise<Analysis | null> {
  const client = started(recheckClient);
  if (loading) return null;
  rechecking?.abort();
  const controller = new AbortController();
  rechecking = controller;
  documentStore.set((s) => ({ ...s, loading: { name: label, done: 0, total: bytes.length } }));
  try {
    const result = await client.analyze(bytes, controller.signal, undefined, startOffset);
    return rechecking === controller ? result.analysis : null;
  } catch {
    return null;
  } finally {
    if (rechecking === controller) {
      rechecking = null;
      documentStore.set((s) => ({ ...s, loading: null }));
    }
  }
}

/** Builds a sample with the encoder and loads it; a file opened meanwhile wins. */
export async function loadSample(id: string = DEFAULT_SAMPLE_ID): Promise<boolean> {
  const ticket = ++generation;
  const sample = SAMPLES.find((s) => s.id === id) ?? SAMPLES[0]!;
  const bytes = sample.build(await loadXxh3());
  if (ticket !== generation) return false;
  envelopeStore.set(sample.envelope ?? "none");
  return loadInput(`sample: ${sample.title}`, bytes, sample.note, ticket);
}

/** Reports a problem with an input that never reached the decoder (unreadable paste, empty drop). */
export function reportInputProblem(message: string): void {
  documentStore.set((s) => ({ ...s, error: message }));
}

/** Reads the shown input again with another envelope, keeping its bytes (and so its edit history). */
export async function setEnvelope(id: string): Promise<void> {
  envelopeStore.set(id);
  const input = documentStore.get().input;
  if (!input) return;
  const startOffset = envelopeById(id)?.skip ?? 0;
  const analysis = await reanalyzeInWorker(input.bytes, startOffset, `${input.name} as ${envelopeById(id)?.label ?? id}`);
  const now = documentStore.get().input;
  if (!analysis || now?.bytes !== input.bytes) return;
  resetInteraction();
  documentStore.set((s) => ({ ...s, input: { ...now, analysis, startOffset } }));
}
