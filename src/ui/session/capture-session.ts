/**
 * A network capture on the page: the worker opened it (core capture reader) and holds it; the page keeps
 * its message index, and shows one message at a time by reading that message's bytes back (the core
 * masks a login secret) and opening them as the `request`/`reply` formats, the path a file of
 * `iggy-batch extract --message C:I` takes.
 */
import { captureStore, documentStore, partitionStore, resetInteraction, type MessageRef } from "../state/app-state.ts";
import { settingsStore } from "../state/settings.ts";
import { loadInput, loadingClient } from "./loading.ts";
import { messageIndex, messageKey, type MessageIndex } from "../common/message-index.ts";
import { consensusFormatOf } from "../../core/containers/consensus.ts";
import type { PageCapture } from "../../worker/protocol.ts";
import { AbortedError } from "../../worker/client.ts";

const indexes = new WeakMap<PageCapture, MessageIndex>();
let reading: AbortController | null = null;

/** The capture-order index of a capture's messages, built once per capture. */
export function captureIndex(capture: PageCapture): MessageIndex {
  let index = indexes.get(capture);
  if (!index) {
    index = messageIndex(capture);
    indexes.set(capture, index);
  }
  return index;
}

/** Lists an opened capture and shows its first message (its first error or warning, when the setting asks for the first problem). */
export async function openCaptureSession(name: string, input: Blob | ArrayBuffer, capture: PageCapture): Promise<boolean> {
  partitionStore.set(null);
  resetInteraction();
  captureStore.set({ name, capture, input, shown: null, shownNote: null });
  documentStore.set({ input: null, loading: null, error: null });
  const index = captureIndex(capture);
  if (index.length === 0) return true;
  let first = 0;
  if (settingsStore.get().openAtFirstProblem) {
    for (let id = 0; id < index.length; id++) {
      const f = index.findings(id);
      if (f.errors + f.warnings > 0) {
        first = id;
        break;
      }
    }
  }
  return showCaptureMessage(index.ref(first));
}

/** Shows one message of the open capture in the hex map, tables and inspector; false when it was not shown. */
export async function showCaptureMessage(ref: MessageRef): Promise<boolean> {
  const open = captureStore.get();
  const msg = open?.capture.connections[ref.connection]?.messages[ref.message];
  if (!open || !msg) return false;
  captureStore.set({ ...open, shown: ref, shownNote: null });
  reading?.abort();
  const controller = new AbortController();
  reading = controller;
  const key = messageKey(ref);
  let got;
  try {
    got = await loadingClient().captureMessage(open.capture, open.input, ref.connection, ref.message, controller.signal);
  } catch (err) {
    if (reading === controller) reading = null;
    if (!(err instanceof AbortedError)) documentStore.set((s) => ({ ...s, error: `could not read message ${key}: ${(err as Error).message}` }));
    return false;
  }
  const now = captureStore.get();
  if (reading !== controller || now?.capture !== open.capture) return false;
  reading = null;
  const notes: string[] = [];
  if (got.masked)
    notes.push(
      `the login secret (${got.masked.end - got.masked.start} bytes at ${got.masked.start}..${got.masked.end}) is masked: shown as * (0x2a), never read out`,
    );
  if (got.missingFrom !== null)
    notes.push(`bytes ${got.missingFrom}..${got.size} were never captured (a gap): the hex map shows the ${got.missingFrom} bytes before them`);
  if (!got.buffer) {
    captureStore.set({ ...now, shownNote: `message ${key}: ${got.why}` });
    resetInteraction();
    documentStore.set({ input: null, loading: null, error: null });
    return true;
  }
  const note = notes.length ? `message ${key}: ${notes.join("; ")}` : null;
  captureStore.set({ ...now, shownNote: note });
  const format = consensusFormatOf(msg.command ?? -1) ?? (msg.toServer ? "request" : "reply");
  return loadInput(`${open.name} · message ${key}`, new Uint8Array(got.buffer), note, undefined, {
    format,
    fileName: `message-${ref.connection}-${ref.message}.bin`,
    inCapture: true,
  });
}
