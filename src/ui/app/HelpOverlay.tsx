/** The keyboard help overlay (opened with "?"): every key of the hex map and the page. */
import { HEX_KEYS } from "../hex/keys.ts";
import { useModal } from "../common/use-modal.ts";

const PAGE_KEYS: readonly { keys: string; action: string }[] = [
  { keys: "?", action: "show or hide this help" },
  { keys: "Ctrl+V", action: "paste a batch as binary, hex, xxd or base64" },
  { keys: "Tab / Shift+Tab", action: "move between the hex map, tables and lists" },
  { keys: "Enter / Space on a row", action: "select that batch, field or frame" },
  { keys: "← / → in the Messages table", action: "show the previous / next message of a capture (as the table lists them)" },
];

/** A modal dialog listing the keys; closes on Escape or its button. */
export function HelpOverlay({ onClose, onTour }: { onClose: () => void; onTour?: () => void }) {
  const modal = useModal(onClose);
  return (
    <dialog
      {...modal}
      className="help"
      aria-labelledby="help-title"
      onKeyDown={(e) => {
        modal.onKeyDown(e);
        if (e.key === "?") {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <h2 id="help-title">Keyboard</h2>
      <table aria-label="Keyboard shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {[...HEX_KEYS, ...PAGE_KEYS].map((k) => (
            <tr key={k.keys + k.action}>
              <td>
                <kbd>{k.keys}</kbd>
              </td>
              <td>{k.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={onClose} autoFocus>
        Close
      </button>
      {onTour && (
        <button type="button" onClick={onTour} className="help-tour">
          Take the tour
        </button>
      )}
    </dialog>
  );
}
