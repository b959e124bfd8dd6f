/**
 * Long work besides a decode that Esc and the Cancel button stop (a byte search in flight): its
 * owner registers how to stop it here, so the app shell and the hex map can stop it without
 * importing the feature that runs it.
 */
import { createStore } from "../state/store.ts";

let stop: (() => void) | null = null;

/** True while some registered work can be cancelled. */
export const otherWorkStore = createStore<boolean>(false);

/** Registers `cancel` as the way to stop the work now starting (replacing any earlier one); call the returned function when it ends. */
export function beginCancellable(cancel: () => void): () => void {
  stop = cancel;
  otherWorkStore.set(true);
  return () => {
    if (stop !== cancel) return;
    stop = null;
    otherWorkStore.set(false);
  };
}

/** Stops the registered work, if any; true when there was some. */
export function cancelOtherWork(): boolean {
  const cancel = stop;
  if (!cancel) return false;
  stop = null;
  otherWorkStore.set(false);
  cancel();
  return true;
}
