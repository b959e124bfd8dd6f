/**
 * A network capture on the page: the worker opened it (core capture reader) and holds it; the page keeps
 * its message index, and shows one message at a time by reading that message's bytes back (the core
 * masks a login secret) and opening them as the `request`/`reply` formats, the path a file of
 * `iggy-batch extract --message C:I` takes.
 */
import { captureStore, documentStore, partitionStore, resetInteraction, type MessageRef } from "../state/app-state.ts";
import { settingsStore } from "../state/settings.ts";
import { messageIndex, messageKey, type MessageIndex } from "../common/message-index.ts";
import { consensusFormatOf } from "../../core/containers/consensus.ts";
import { COMMAND_NAME_OF } from "../../core/containers/capture/index.ts";
import type { PageCapture } from "../../worker/protocol.ts";
import { AbortedError, KEEP_WORKER, type AnalysisClient } from "../../worker/client.ts";
import type { FormatChoice } from "../../core/containers/index.ts";

/** Opens a message's bytes as an input of the capture (session/loading's loadInput, given at start to keep imports one-way). */
export type ShowMessageBytes = (name: string, bytes: Uint8Array, note: string | null, format: FormatChoice, fileName: string, why: string) => Promise<boolean>;

const indexes = new WeakMap<PageCapture, MessageIndex>();
let reading: AbortController | null = null;
let services: { readonly show: ShowMessageBytes; readonly client: () => AnalysisClient } | null = null;

/** Starts the capture session with how to show a message's bytes and the client whose worker holds the capture. */
export function startCaptures(show: ShowMessageBytes, client: () => AnalysisClient): void {
  services = { show, client };
}

function started(): NonNullable<typeof services> {
  if (!services) throw new Error("the capture session is not started (call startSession first)");
  return services;
}

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
    // Never aborted: an abort terminates the worker, and with it the capture it holds (the next read would
    // parse the whole file again). A stale reply is cheap and dropped below.
    got = await started().client().captureMessage(open.capture, open.input, ref.connection, ref.message, KEEP_WORKER);
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
  const command =
    msg.command === null ? "whose header was never captured" : `whose command byte is ${msg.command} (${COMMAND_NAME_OF[msg.command] ?? "unknown"})`;
  const why = `message ${key} of ${open.name}, ${msg.toServer ? "client → server" : "server → client"}, ${command}: read as a ${format}`;
  return started().show(`${open.name} · message ${key}`, new Uint8Array(got.buffer), note, format, `message-${ref.connection}-${ref.message}.bin`, why);
}
