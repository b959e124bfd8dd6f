/**
 * Editing a container (here a segment file), in Node: every edit re-opens the edited bytes in the
 * re-check worker (the client's main-thread fallback here), so the page shows an edit only once its
 * re-open lands. Hex digits typed over bytes, as the hex map types them: two nibbles per byte, each
 * read from the latest edit, whether or not the previous edit's re-open has landed in between.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { openInputWith } from "../../core/containers/index.ts";
import { encodeBatch } from "../../core/walk/encode.ts";
import { typeNibble } from "./keys.ts";
import { documentStore, nextInputId } from "../state/app-state.ts";
import { editByte, editStore, latestBytes, startEditing, undo } from "../session/editing.ts";
import { reopenInWorker, startLoading } from "../session/loading.ts";
import { memoryBytes } from "../../lib/input-bytes.ts";

const xxh = await loadXxh3();
startLoading();
startEditing(reopenInWorker);
const batch = encodeBatch(xxh, { originTimestamp: 1n, messages: [{ payload: "x", id: 1n }] });

/** Opens `copies` batches as a segment file, as the loading path shows one. */
function openSegment(copies: number): Uint8Array {
  const bytes = new Uint8Array(copies * batch.length);
  for (let i = 0; i < copies; i++) bytes.set(batch, i * batch.length);
  const { analysis, ...meta } = openInputWith(xxh, bytes, { name: "00000000000000000000.log" });
  expect(meta.format).toBe("segment");
  documentStore.set({
    input: { opened: nextInputId(), name: "00000000000000000000.log", bytes, source: memoryBytes(bytes), analysis, ranOn: "worker", meta },
    loading: null,
    error: null,
  });
  return bytes;
}

/** Waits until no re-check runs. */
async function settled(): Promise<void> {
  for (let i = 0; i < 1000 && documentStore.get().loading !== null; i++) await new Promise((r) => setTimeout(r, 5));
  expect(documentStore.get().loading).toBeNull();
}

/** Types hex digits from `offset` as the hex map does (high nibble, then low nibble and advance); `between` runs after each digit. */
async function type(offset: number, digits: string, between: () => Promise<void>): Promise<void> {
  let at = offset;
  let low = false;
  for (const d of digits) {
    const edit = typeNibble(latestBytes()![at]!, parseInt(d, 16), low);
    editByte(at, edit.value);
    low = !edit.advance;
    if (edit.advance) at++;
    await between();
  }
}

const shownHex = (start: number, end: number) => Buffer.from(documentStore.get().input!.bytes!.subarray(start, end)).toString("hex");
const noWait = () => Promise.resolve();

describe("typing over a segment's bytes", () => {
  let original: Uint8Array;
  beforeEach(() => {
    original = openSegment(4);
  });

  it("keeps the second digit typed after the first one's re-open has landed", async () => {
    await type(100, "5a", settled);
    expect(shownHex(100, 101)).toBe("5a");
    expect(editStore.get()).toMatchObject({ index: 2, steps: 2 });
    expect(editStore.get().original).toBe(original);
    // The findings shown are those of the typed bytes, decoded afresh.
    const typed = original.slice();
    typed[100] = 0x5a;
    expect(documentStore.get().input!.analysis.summary).toEqual(openInputWith(xxh, typed, { name: "00000000000000000000.log" }).analysis.summary);
    expect(documentStore.get().input!.analysis.summary.errors).toBeGreaterThan(0);
  });

  it("keeps a burst of six digits, byte by byte, with each re-open landing in between", async () => {
    await type(100, "5a6b7c", settled);
    expect(shownHex(99, 104)).toBe("005a6b7c00");
    expect(editStore.get().index).toBe(6);
    // Undo still steps back to the bytes as loaded, one nibble at a time.
    for (let i = 0; i < 6; i++) undo();
    await settled();
    expect(documentStore.get().input!.bytes).toBe(original);
  });

  it("keeps a burst of six digits typed faster than any re-open lands", async () => {
    await type(100, "5a6b7c", noWait);
    await settled();
    expect(shownHex(99, 104)).toBe("005a6b7c00");
    expect(editStore.get().index).toBe(6);
  });
});
