/** Stopping long work: the Cancel button beside the decoding progress, and Esc for a decode or a search in flight. */
import { useEffect, type JSX } from "react";
import { cancelSearch, isSearching } from "../search/search-state.ts";
import { useStore } from "../state/store.ts";
import { cancelLoading, cancellableStore } from "../session/loading.ts";

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
      if (cancelLoading()) e.preventDefault();
      else if (isSearching()) {
        cancelSearch();
        e.preventDefault();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** The Cancel button (contracts.md §2), shown while a new input is being decoded. */
export function CancelDecode(): JSX.Element | null {
  const cancellable = useStore(cancellableStore, selectFlag);
  useEscapeCancels();
  if (!cancellable) return null;
  return (
    <button type="button" className="cancel-decode" onClick={() => cancelLoading()} aria-keyshortcuts="Escape">
      Cancel
    </button>
  );
}
