/**
 * Reading an input opened on demand into memory, for what needs all of it at once (editing, a
 * redacted copy, a whole-input report or JSON): asked for by that action, never on open, so
 * looking at a large file costs only the pages on screen.
 */
import { documentStore, type LoadedInput } from "../state/app-state.ts";
import { memoryBytes } from "../../lib/input-bytes.ts";
import { readBlob } from "../../worker/read-blob.ts";
import { rememberSource } from "./input-source.ts";

let pending: { readonly file: Blob; readonly read: Promise<Uint8Array> } | null = null;

/**
 * The whole of `input`'s bytes: at once when in memory, else read from its File (once, however
 * often asked) and the shown input switched to them, its analysis unchanged. Null when the input
 * was replaced meanwhile.
 */
export async function residentBytes(input: LoadedInput): Promise<Uint8Array | null> {
  if (input.bytes) return input.bytes;
  const file = input.source.file;
  if (!file) return null;
  if (pending?.file !== file) {
    const name = input.name;
    documentStore.set((s) => ({ ...s, loading: { name: `${name} into memory`, verb: "Reading", done: 0, total: file.size } }));
    const read = readBlob(file)
      .then((buffer) => new Uint8Array(buffer))
      .catch((err: unknown) => {
        pending = null;
        throw err;
      })
      .finally(() => documentStore.set((s) => ({ ...s, loading: null })));
    pending = { file, read };
  }
  const bytes = await pending.read;
  const now = documentStore.get().input;
  if (!now || now.source.file !== file) return now?.bytes ?? null;
  pending = null;
  rememberSource(bytes, file);
  documentStore.set((s) => ({ ...s, input: { ...now, bytes, source: memoryBytes(bytes) } }));
  return bytes;
}
