/** Stopping long work: the Cancel button beside the decoding progress, and Esc for a decode or a search in flight. */
import { useEffect, type JSX } from "react";
import { useStore } from "../state/store.ts";
import { cancelLoading, cancellableStore } from "../session/loading.ts";
import { cancelOtherWork, otherWorkStore } from "../session/long-work.ts";

const selectFlag = (b: boolean) => b;

/** True when a modal dialog is open: Esc is then the dialog's. */
function dialogOpen(): boolean {
  return document.querySelector("dialog[open]") !== null;
}

/** Esc anywhere on the page stops the decode in flight, else the search in flight. */
export function useEscapeCancels(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || dialogOpen()) return;
      if (cancelLoading() || cancelOtherWork()) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** The Cancel button (contracts.md §2), shown while a new input is being decoded or a search runs: it stops the decode first. */
export function CancelDecode(): JSX.Element | null {
  const decoding = useStore(cancellableStore, selectFlag);
  const searching = useStore(otherWorkStore, selectFlag);
  useEscapeCancels();
  if (!decoding && !searching) return null;
  return (
    <button
      type="button"
      className="cancel-decode"
      onClick={() => cancelLoading() || cancelOtherWork()}
      aria-keyshortcuts="Escape"
      title={decoding ? "Stop the decode (Esc)" : "Stop the search (Esc)"}
    >
      Cancel
    </button>
  );
}
