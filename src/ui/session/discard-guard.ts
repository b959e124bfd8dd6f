/**
 * The guard before unsaved edits are lost: opening another input (file, drop, paste, sample, built
 * batch, share link) asks first, and leaving the page warns. The question is a store the page's
 * dialog (edit/DiscardEditsDialog.tsx) answers, so the loading code needs no React.
 */
import { createStore } from "../state/store.ts";
import { editStore, hasUnsavedEdits, originalBytes } from "./editing.ts";

/** What the user may answer: download the edited bytes and go on, go on without them, or stay. */
export type DiscardChoice = "download" | "discard" | "cancel";

/** An open question: what would replace the edited input, and where the answer goes. */
export interface DiscardQuestion {
  readonly what: string;
  readonly edits: number;
  readonly answer: (choice: DiscardChoice) => void;
}

/** The question being asked, or null. */
export const discardQuestionStore = createStore<DiscardQuestion | null>(null);

// The edits the user agreed to lose (input and step), so the steps of one load do not ask twice; one more edit asks again.
let released: { readonly original: Uint8Array | null; readonly index: number } | null = null;

/** Whether replacing the shown input now would lose edits the user has not agreed to lose (then ask with confirmDiscardEdits). */
export function editsAtStake(): boolean {
  return hasUnsavedEdits() && !(released !== null && released.original === originalBytes() && released.index === editStore.get().index);
}

/** Resolves true when the shown input may be replaced by `what`: no unsaved edits, or the user chose to let them go. */
export function confirmDiscardEdits(what: string): Promise<boolean> {
  if (!editsAtStake()) return Promise.resolve(true);
  const agreed = { original: originalBytes(), index: editStore.get().index };
  // A newer request replaces an open question, which counts as cancelled.
  discardQuestionStore.get()?.answer("cancel");
  return new Promise((resolve) => {
    const question: DiscardQuestion = {
      what,
      edits: agreed.index,
      answer: (choice) => {
        if (discardQuestionStore.get() === question) discardQuestionStore.set(null);
        if (choice !== "cancel") released = agreed;
        resolve(choice !== "cancel");
      },
    };
    discardQuestionStore.set(question);
  });
}

/** The beforeunload listener: the browser asks before leaving while edits exist. */
export function warnBeforeLeaving(event: BeforeUnloadEvent): void {
  if (!hasUnsavedEdits()) return;
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = "";
}
