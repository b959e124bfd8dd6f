/** A side panel that can be collapsed to its heading; which ones are collapsed is kept in the settings (localStorage). */
import type { ReactNode } from "react";
import { settingsStore, togglePanel, type Settings } from "../state/settings.ts";
import { useStore } from "../state/store.ts";

const selectCollapsed = (s: Settings) => s.collapsed;

/** Wraps one panel: a toggle before its heading, and the panel shown whole or as its first line only. */
export function Fold({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const collapsed = useStore(settingsStore, selectCollapsed).includes(id);
  return (
    <div className="fold" data-fold={id} data-collapsed={collapsed || undefined} id={`panel-${id}`}>
      <button
        type="button"
        className="fold-toggle"
        aria-expanded={!collapsed}
        aria-label={`${collapsed ? "Show" : "Collapse"} ${label}`}
        onClick={() => togglePanel(id)}
      >
        <span aria-hidden="true">{collapsed ? "▸" : "▾"}</span>
      </button>
      {children}
    </div>
  );
}

/** The panels a jump bar lists, in page order. */
export interface PanelLink {
  readonly id: string;
  readonly label: string;
}

/** A row of links to the side panels: one click brings a panel (expanded) into view, however long the column. */
export function PanelJumps({ panels }: { panels: readonly PanelLink[] }) {
  const jump = (id: string) => {
    if (settingsStore.get().collapsed.includes(id)) togglePanel(id);
    // After the expanded panel is laid out.
    requestAnimationFrame(() => document.getElementById(`panel-${id}`)?.scrollIntoView({ block: "start" }));
  };
  return (
    <nav className="panel-jumps" aria-label="Panels">
      {panels.map((p) => (
        <button key={p.id} type="button" className="link-button" onClick={() => jump(p.id)}>
          {p.label}
        </button>
      ))}
    </nav>
  );
}
