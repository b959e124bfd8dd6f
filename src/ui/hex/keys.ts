/** The hex map's keyboard: the key list for the help overlay and the pure key → command mapping. */
import { BYTES_PER_ROW } from "./layout.ts";

/** Every key the hex map answers, for the help overlay. */
export const HEX_KEYS: readonly { keys: string; action: string }[] = [
  { keys: "← / →", action: "move the hex cursor one byte" },
  { keys: "↑ / ↓", action: "move the hex cursor one row (16 bytes)" },
  { keys: "PageUp / PageDown", action: "move the hex cursor one page" },
  { keys: "Home / End", action: "go to the start / end of the row" },
  { keys: "Ctrl+Home / Ctrl+End", action: "go to the start / end of the input" },
  { keys: "Enter", action: "select the field under the hex cursor" },
  { keys: "n / p", action: "select the next / previous frame" },
  { keys: "] / [", action: "select the next / previous problem" },
  { keys: "Escape", action: "cancel the decode or search in flight, else hide the byte tooltip" },
  { keys: "0–9 a–f", action: "in edit mode, overwrite the byte under the hex cursor, high nibble first" },
];

/** What a key press asks of the hex map. */
export type HexCommand =
  | { readonly type: "move"; readonly to: number }
  | { readonly type: "select-field" }
  | { readonly type: "frame"; readonly direction: 1 | -1 }
  | { readonly type: "problem"; readonly direction: 1 | -1 }
  | { readonly type: "dismiss" }
  | { readonly type: "cancel-decode" };

/** Modifier keys held with a key. */
export interface KeyMods {
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

/**
 * Maps a key (KeyboardEvent.key) to a command, given the cursor, the input size and the rows in
 * a page; null for keys the hex map leaves alone. Moves are clamped to [0, size − 1]. While a
 * decode or a search can be cancelled, Escape cancels it first (the map keeps focus, so the page's Esc never sees it).
 */
export function hexCommand(key: string, mods: KeyMods, cursor: number, size: number, pageRows: number, decoding = false): HexCommand | null {
  if (mods.altKey) return null;
  const last = Math.max(0, size - 1);
  const move = (to: number): HexCommand => ({ type: "move", to: Math.max(0, Math.min(last, to)) });
  const rowStart = cursor - (cursor % BYTES_PER_ROW);
  const page = Math.max(1, pageRows) * BYTES_PER_ROW;
  const command = mods.ctrlKey || mods.metaKey;
  if (command) {
    if (key === "Home") return move(0);
    if (key === "End") return move(last);
    return null;
  }
  switch (key) {
    case "ArrowLeft":
      return move(cursor - 1);
    case "ArrowRight":
      return move(cursor + 1);
    case "ArrowUp":
      return cursor >= BYTES_PER_ROW ? move(cursor - BYTES_PER_ROW) : move(cursor);
    case "ArrowDown":
      return cursor + BYTES_PER_ROW <= last ? move(cursor + BYTES_PER_ROW) : move(cursor);
    case "PageUp":
      return move(cursor - page < 0 ? cursor % BYTES_PER_ROW : cursor - page);
    case "PageDown":
      return move(cursor + page);
    case "Home":
      return move(rowStart);
    case "End":
      return move(rowStart + BYTES_PER_ROW - 1);
    case "Enter":
      return { type: "select-field" };
    case "n":
      return { type: "frame", direction: 1 };
    case "p":
      return { type: "frame", direction: -1 };
    case "]":
      return { type: "problem", direction: 1 };
    case "[":
      return { type: "problem", direction: -1 };
    case "Escape":
      return decoding ? { type: "cancel-decode" } : { type: "dismiss" };
    default:
      return null;
  }
}

/** The value of a hex digit key (0–9, a–f, A–F) pressed without Ctrl/Meta/Alt, else null. */
export function hexDigit(key: string, mods: KeyMods): number | null {
  if (mods.ctrlKey || mods.metaKey || mods.altKey || !/^[0-9a-fA-F]$/.test(key)) return null;
  return parseInt(key, 16);
}

/**
 * Typing a hex digit over a byte: the first digit replaces the high nibble, the second (when
 * `lowNibble`) the low one, after which the cursor advances to the next byte.
 */
export function typeNibble(old: number, digit: number, lowNibble: boolean): { value: number; advance: boolean } {
  return lowNibble ? { value: (old & 0xf0) | digit, advance: true } : { value: (digit << 4) | (old & 0x0f), advance: false };
}
