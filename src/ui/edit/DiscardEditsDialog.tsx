/** The question before unsaved edits are lost (session/discard-guard.ts), and the warning on leaving the page. */
import { useEffect, useRef } from "react";
import { useModal } from "../common/use-modal.ts";
import { discardQuestionStore, warnBeforeLeaving, type DiscardQuestion } from "../session/discard-guard.ts";
import { documentStore } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { baseName, downloadFile } from "../common/download.ts";
import { editedParts } from "../session/editing.ts";
import { plural } from "../../format/values.ts";

const same = (q: DiscardQuestion | null) => q;

/** Mounted once: installs the leave warning and shows the question while one is open. */
export function DiscardEditsDialog() {
  const question = useStore(discardQuestionStore, same);
  useEffect(() => {
    window.addEventListener("beforeunload", warnBeforeLeaving);
    return () => window.removeEventListener("beforeunload", warnBeforeLeaving);
  }, []);
  return question ? <Question question={question} /> : null;
}

function Question({ question }: { question: DiscardQuestion }) {
  const modal = useModal(() => question.answer("cancel"));
  const cancel = useRef<HTMLButtonElement>(null);
  // After showModal() (useModal's effect runs first), which would focus the first button: the safe choice has focus.
  useEffect(() => cancel.current?.focus(), []);
  const name = documentStore.get().input?.name ?? "input";
  const downloadFirst = () => {
    downloadFile(`${baseName(name)}-edited.bin`, editedParts());
    question.answer("download");
  };
  const edits = plural(question.edits, "edit");
  return (
    <dialog {...modal} role="alertdialog" className="help discard-dialog" aria-labelledby="discard-title" aria-describedby="discard-text">
      <h2 id="discard-title">Discard your edits?</h2>
      <p id="discard-text">
        {name} has {edits} that {question.edits === 1 ? "is" : "are"} not saved. Opening {question.what} replaces it, and the edits and their undo history are
        lost.
      </p>
      <div className="share-row">
        <button type="button" onClick={downloadFirst}>
          Download edited bytes first
        </button>
        <button type="button" onClick={() => question.answer("discard")}>
          Discard edits
        </button>
        <button type="button" ref={cancel} onClick={() => question.answer("cancel")}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
