/** A modal <dialog> that opens on mount and tells its owner when the user closes it (Escape or a button). */
import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent, type RefObject, type SyntheticEvent } from "react";

/** The props to spread on the <dialog>. */
export interface ModalProps {
  readonly ref: RefObject<HTMLDialogElement | null>;
  readonly onCancel: (e: SyntheticEvent<HTMLDialogElement>) => void;
  readonly onClose: () => void;
  readonly onKeyDown: (e: KeyboardEvent<HTMLDialogElement>) => void;
  readonly onPaste: (e: ClipboardEvent<HTMLDialogElement>) => void;
}

/**
 * Opens the dialog with showModal() on mount and closes it on unmount. Escape (the cancel event)
 * calls onClose; a stale close event (StrictMode closes and reopens on mount) is ignored.
 * Keys and pastes inside the dialog stay inside it: the page's shortcuts (undo, "?") and its
 * paste-to-load must not act behind a modal.
 */
export function useModal(onClose: () => void): ModalProps {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);
  return {
    ref,
    onCancel: (e) => {
      e.preventDefault();
      onClose();
    },
    onClose: () => {
      if (!ref.current?.open) onClose();
    },
    onKeyDown: (e) => e.stopPropagation(),
    onPaste: (e) => e.stopPropagation(),
  };
}
