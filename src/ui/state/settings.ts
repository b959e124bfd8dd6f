/**
 * The page's settings, kept in this browser (localStorage) across visits: which side panels are
 * collapsed, whether an opened file shows its first problem, the base address share links are
 * built on, and the Iggy server port a capture's connections are recognised by. Written by the app shell's settings and panel toggles; read by app, session/loading and share.
 */
import { createStore } from "./store.ts";

/** What the page remembers between visits. */
export interface Settings {
  /** Ids of the side panels shown collapsed (heading only). */
  readonly collapsed: readonly string[];
  /** Open a file (or a partition) on its first problem instead of at byte 0. */
  readonly openAtFirstProblem: boolean;
  /** Where share links point, e.g. a public copy of this page; "" means this page's own address. */
  readonly shareBase: string;
  /** The Iggy server's TCP port in captures (CLI `--port N`); null: the default, 8090 (other connections are recognised by content). */
  readonly capturePort: number | null;
}

const KEY = "iggy-explorer.settings";
const DEFAULTS: Settings = { collapsed: [], openAtFirstProblem: true, shareBase: "", capturePort: null };

/** A TCP port a capture's server may listen on, or null for anything else. */
export function validPort(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535 ? value : null;
}

// A stored value of the wrong shape (an older page, a hand edit) falls back to the defaults field by field.
function load(): Settings {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Record<keyof Settings, unknown>>;
    return {
      collapsed: Array.isArray(raw.collapsed) ? raw.collapsed.filter((x): x is string => typeof x === "string") : DEFAULTS.collapsed,
      openAtFirstProblem: typeof raw.openAtFirstProblem === "boolean" ? raw.openAtFirstProblem : DEFAULTS.openAtFirstProblem,
      shareBase: typeof raw.shareBase === "string" ? raw.shareBase : DEFAULTS.shareBase,
      capturePort: validPort(raw.capturePort),
    };
  } catch {
    return DEFAULTS;
  }
}

/** The settings; every change is saved at once. */
export const settingsStore = createStore<Settings>(typeof localStorage === "undefined" ? DEFAULTS : load());

settingsStore.subscribe(() => {
  try {
    localStorage.setItem(KEY, JSON.stringify(settingsStore.get()));
  } catch {
    // Storage off or full: the settings hold for this visit only.
  }
});

/** Shows or collapses one side panel. */
export function togglePanel(id: string): void {
  settingsStore.set((s) => ({ ...s, collapsed: s.collapsed.includes(id) ? s.collapsed.filter((x) => x !== id) : [...s.collapsed, id] }));
}

/**
 * The base a share link is built on: the setting when it is an http(s) address (its own #fragment
 * dropped), else this page's address without its fragment.
 */
export function shareBaseOf(s: Settings, here: string): string {
  const base = s.shareBase.trim();
  if (base) {
    try {
      const url = new URL(base);
      if (url.protocol === "http:" || url.protocol === "https:") return `${url.origin}${url.pathname}${url.search}`;
    } catch {
      // Not an address: fall back to this page.
    }
  }
  return here.split("#")[0] ?? here;
}
