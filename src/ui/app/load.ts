/** Loading inputs: every way in (file, drop, paste, sample, link) ends here; a new input cancels the one in flight. */
import { AnalysisClient, AbortedError } from "../../worker/client.ts";
import { documentStore, resetInteraction } from "../state/app-state.ts";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { SAMPLES, DEFAULT_SAMPLE_ID } from "../samples/samples.ts";
import { envelopeById } from "../../core/envelopes.ts";
import { envelopeStore } from "../state/app-state.ts";

const client = new AnalysisClient();
let inFlight: AbortController | null = null;

/** Analyses an input off the main thread and shows it; resolves when shown, cancelled or failed. */
export async function loadInput(name: string, input: Blob | ArrayBuffer, note: string | null = null): Promise<void> {
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const total = input instanceof Blob ? input.size : input.byteLength;
  const startOffset = envelopeById(envelopeStore.get())?.skip ?? 0;
  documentStore.set((s) => ({ ...s, loading: { name, done: 0, total }, error: null }));
  try {
    const result = await client.analyze(input, controller.signal, (done, all) => {
      if (inFlight === controller) documentStore.set((s) => ({ ...s, loading: { name, done, total: all } }));
    }, startOffset);
    if (inFlight !== controller) return;
    resetInteraction();
    documentStore.set({ input: { name, bytes: result.bytes, analysis: result.analysis, ranOn: result.ranOn, note, startOffset }, loading: null, error: null });
  } catch (err) {
    if (err instanceof AbortedError || inFlight !== controller) return;
    documentStore.set((s) => ({ ...s, loading: null, error: `could not analyse ${name}: ${(err as Error).message}` }));
  } finally {
    if (inFlight === controller) inFlight = null;
  }
}

/** Re-analyses edited bytes off the main thread (for inputs too large to re-check inline); the caller keeps its bytes. */
export async function reanalyzeInWorker(bytes: Uint8Array): Promise<import("../../core/model.ts").Analysis | null> {
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  documentStore.set((s) => ({ ...s, loading: { name: "edited bytes", done: 0, total: bytes.length } }));
  try {
    const result = await client.analyze(buffer, controller.signal, undefined, documentStore.get().input?.startOffset ?? 0);
    return inFlight === controller ? result.analysis : null;
  } catch {
    return null;
  } finally {
    if (inFlight === controller) {
      inFlight = null;
      documentStore.set((s) => ({ ...s, loading: null }));
    }
  }
}

/** Builds a sample with the encoder and loads it. */
export async function loadSample(id: string = DEFAULT_SAMPLE_ID): Promise<void> {
  const sample = SAMPLES.find((s) => s.id === id) ?? SAMPLES[0]!;
  const bytes = sample.build(await loadXxh3());
  envelopeStore.set(sample.envelope ?? "none");
  await loadInput(`sample: ${sample.title}`, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, sample.note);
}

/** Reports a problem with an input that never reached the decoder (unreadable paste, empty drop). */
export function reportInputProblem(message: string): void {
  documentStore.set((s) => ({ ...s, error: message }));
}

/** Re-reads the shown input with another envelope (what the bytes start with). */
export async function setEnvelope(id: string): Promise<void> {
  envelopeStore.set(id);
  const input = documentStore.get().input;
  if (!input) return;
  const { bytes } = input;
  await loadInput(input.name, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, input.note ?? null);
}
