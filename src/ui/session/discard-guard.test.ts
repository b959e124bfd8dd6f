import { memoryBytes } from "../../lib/input-bytes.ts";
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { documentStore, nextInputId } from "../state/app-state.ts";
import { reopenInWorker } from "./loading.ts";
import { editByte, startEditing, undo } from "./editing.ts";
import { confirmDiscardEdits, discardQuestionStore, editsAtStake, warnBeforeLeaving } from "./discard-guard.ts";

const xxh = await loadXxh3();
startEditing(reopenInWorker);

function open(bytes: Uint8Array): void {
  documentStore.set({
    input: { opened: nextInputId(), name: "t.bin", bytes, source: memoryBytes(bytes), analysis: analyzeWith(xxh, bytes), ranOn: "main-thread" },
    loading: null,
    error: null,
  });
}

const leaving = () => {
  const e = {
    defaultPrevented: false,
    returnValue: "x",
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
  warnBeforeLeaving(e as unknown as BeforeUnloadEvent);
  return e.defaultPrevented;
};

describe("discard guard", () => {
  it("asks only while edits exist; cancel keeps asking, a yes lasts until the next edit", async () => {
    open(new Uint8Array(600));
    expect(editsAtStake()).toBe(false);
    expect(leaving()).toBe(false);
    await expect(confirmDiscardEdits("x")).resolves.toBe(true);
    expect(discardQuestionStore.get()).toBeNull();

    editByte(3, 1);
    expect(editsAtStake()).toBe(true);
    expect(leaving()).toBe(true);
    const no = confirmDiscardEdits("sample: A");
    expect(discardQuestionStore.get()).toMatchObject({ what: "sample: A", edits: 1 });
    discardQuestionStore.get()!.answer("cancel");
    await expect(no).resolves.toBe(false);
    expect(editsAtStake()).toBe(true);

    // A newer question cancels an open one.
    const first = confirmDiscardEdits("a.bin");
    const second = confirmDiscardEdits("b.bin");
    await expect(first).resolves.toBe(false);
    discardQuestionStore.get()!.answer("download");
    await expect(second).resolves.toBe(true);
    expect(discardQuestionStore.get()).toBeNull();
    expect(editsAtStake()).toBe(false);

    editByte(4, 2);
    expect(editsAtStake()).toBe(true);
    undo();
    undo();
    expect(editsAtStake()).toBe(false);
    expect(leaving()).toBe(false);
  });
});
