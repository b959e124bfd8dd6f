/**
 * Starts the page's services. Nothing in the session layer does work when imported: the entry
 * calls startSession() once before the first render, so tests and tools can import any module freely.
 */
import { startEditing } from "./editing.ts";
import { loadInput, loadingClient, reopenInWorker, startLoading } from "./loading.ts";
import { startCaptures } from "./capture-session.ts";

/**
 * Starts loading (its worker clients), captures (shown through loading) and editing (the XXH3 kernel and the undo
 * history); building keeps no state. Safe to call twice.
 */
export function startSession(): void {
  startLoading();
  startCaptures(
    (name, bytes, note, format, fileName, why) => loadInput(name, bytes, note, undefined, { format, fileName, inCapture: true, why }),
    loadingClient,
  );
  startEditing(reopenInWorker);
}
