/**
 * Re-checks of edited inputs too large to analyse on the page: a worker of their own holds the original
 * (sent once) and receives only the patches. One re-check runs at a time; edits made meanwhile are
 * folded into one more run when it finishes, so typing never queues a re-check per keystroke and the
 * worker is never killed (which would make it need the original again).
 */
import type { Patch } from "../../core/edit/edit-overlay.ts";
import type { Analysis } from "../../core/model/model.ts";
import { AbortedError, AnalysisClient } from "../../worker/client.ts";
import { documentStore } from "../state/app-state.ts";

/** One re-check: what to analyse, and where the answer goes (only if still wanted). */
export interface PatchedJob {
  readonly key: number;
  readonly original: Uint8Array;
  readonly patches: readonly Patch[];
  readonly startOffset: number;
  /** The File or Blob the original was read from, if any. */
  readonly source?: Blob;
  readonly done: (analysis: Analysis, ms: number) => void;
}

const LABEL = "edited bytes";
const client = new AnalysisClient();
let controller = new AbortController();
let inFlight = false;
let again = false;
let nextJob: (() => PatchedJob | null) | null = null;

/** Asks for a re-check of what `job()` returns when it starts (the latest edit, not the one that asked). */
export function requestPatchedRecheck(job: () => PatchedJob | null): void {
  nextJob = job;
  if (inFlight) {
    again = true;
    return;
  }
  void run();
}

/** Forgets the current input: cancels its re-check and lets the worker drop its original. */
export function resetPatchedRecheck(): void {
  controller.abort();
  controller = new AbortController();
  nextJob = null;
  client.terminate();
}

async function run(): Promise<void> {
  inFlight = true;
  try {
    do {
      again = false;
      const job = nextJob?.();
      if (!job) break;
      const signal = controller.signal;
      documentStore.set((s) => (s.loading ? s : { ...s, loading: { name: LABEL, done: 0, total: job.original.length } }));
      const t0 = performance.now();
      try {
        const analysis = await client.analyzePatched(job.key, job.original, job.patches, job.startOffset, signal, job.source);
        if (!signal.aborted) job.done(analysis, performance.now() - t0);
      } catch (err) {
        if (!(err instanceof AbortedError)) documentStore.set((s) => ({ ...s, error: `could not re-check the edited bytes: ${(err as Error).message}` }));
      }
    } while (again);
  } finally {
    inFlight = false;
    documentStore.set((s) => (s.loading?.name === LABEL ? { ...s, loading: null } : s));
  }
}
