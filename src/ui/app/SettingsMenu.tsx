/** The page's settings (kept in this browser): open files at their first problem, and the base address of share links. */
import { useId } from "react";
import { settingsStore, type Settings } from "../state/settings.ts";
import { useStore } from "../state/store.ts";

const selectSettings = (s: Settings) => s;

/** A disclosure in the toolbar with the settings' controls. */
export function SettingsMenu() {
  const settings = useStore(settingsStore, selectSettings);
  const baseId = useId();
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
      </div>
    </details>
  );
}
