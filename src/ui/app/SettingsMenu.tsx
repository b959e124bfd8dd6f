/** The page's settings (kept in this browser): open files at their first problem, the base address of share links, a capture's Iggy port. */
import { useId, useState } from "react";
import { settingsStore, validPort, type Settings } from "../state/settings.ts";
import { useStore } from "../state/store.ts";

const selectSettings = (s: Settings) => s;

/** A disclosure in the toolbar with the settings' controls. */
export function SettingsMenu() {
  const settings = useStore(settingsStore, selectSettings);
  const baseId = useId();
  const portId = useId();
  // The text as typed: a port half typed (or cleared) is not a port yet.
  const [portText, setPortText] = useState(settings.capturePort === null ? "" : String(settings.capturePort));
  const portValid = portText.trim() === "" || validPort(Number(portText)) !== null;
  const here = location.href.split("#")[0] ?? "";
  return (
    <details className="settings">
      <summary>Settings</summary>
      <div className="settings-body" role="group" aria-label="Settings">
        <label>
          <input
            type="checkbox"
            checked={settings.openAtFirstProblem}
            onChange={(e) => settingsStore.set((s) => ({ ...s, openAtFirstProblem: e.target.checked }))}
          />{" "}
          Open files at their first problem (a partition at the file with its first error)
        </label>
        <label htmlFor={baseId}>Share links' base address</label>
        <input
          id={baseId}
          type="url"
          className="settings-url"
          placeholder={here}
          value={settings.shareBase}
          onChange={(e) => settingsStore.set((s) => ({ ...s, shareBase: e.target.value }))}
        />
        <p className="note">
          Where others open your links: a public copy of this page (any static host serving <code>dist/</code>). Empty: this page&apos;s own address. The input
          travels in the link&apos;s #fragment, which browsers never send to that host.
        </p>
        <label htmlFor={portId}>Iggy server port in captures</label>
        <input
          id={portId}
          type="number"
          min={1}
          max={65535}
          inputMode="numeric"
          className="settings-port"
          placeholder="8090"
          value={portText}
          aria-invalid={!portValid || undefined}
          onChange={(e) => {
            const text = e.target.value;
            setPortText(text);
            const port = text.trim() === "" ? null : validPort(Number(text));
            if (text.trim() === "" || port !== null) settingsStore.set((s) => ({ ...s, capturePort: port }));
          }}
        />
        <p className="note">
          A capture&apos;s connections to this TCP port are read as Iggy (the command line&apos;s <code>--port N</code>); others still are when their first
          bytes are a consensus header. Empty: 8090. It applies to the captures opened after it is set.
        </p>
      </div>
    </details>
  );
}
