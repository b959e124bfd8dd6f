import { describe, expect, test } from "vitest";
import { HEX_KEYS, hexCommand, hexDigit, typeNibble, type KeyMods } from "./keys.ts";

const none: KeyMods = { ctrlKey: false, metaKey: false, altKey: false };
const ctrl: KeyMods = { ...none, ctrlKey: true };
const to = (key: string, cursor: number, mods = none, size = 396, page = 10) => {
  const c = hexCommand(key, mods, cursor, size, page);
  return c?.type === "move" ? c.to : c;
};

describe("hexCommand", () => {
  test("arrows move by a byte and a row, clamped to the input", () => {
    expect(to("ArrowRight", 5)).toBe(6);
    expect(to("ArrowLeft", 5)).toBe(4);
    expect(to("ArrowLeft", 0)).toBe(0);
    expect(to("ArrowRight", 395)).toBe(395);
    expect(to("ArrowDown", 5)).toBe(21);
    expect(to("ArrowUp", 21)).toBe(5);
    expect(to("ArrowUp", 5)).toBe(5);
    // Row 24 holds 384..395: 389 + 16 is past the end, so the cursor stays.
    expect(to("ArrowDown", 389)).toBe(389);
  });

  test("pages move by whole rows", () => {
    expect(to("PageDown", 3)).toBe(163);
    expect(to("PageDown", 300)).toBe(395);
    expect(to("PageUp", 200)).toBe(40);
    expect(to("PageUp", 100)).toBe(4);
  });

  test("Home and End stay in the row; with Ctrl they go to the input's ends", () => {
    expect(to("Home", 37)).toBe(32);
    expect(to("End", 37)).toBe(47);
    expect(to("End", 390)).toBe(395);
    expect(to("Home", 37, ctrl)).toBe(0);
    expect(to("End", 37, ctrl)).toBe(395);
    expect(to("End", 37, { ...none, metaKey: true })).toBe(395);
  });

  test("named commands", () => {
    expect(hexCommand("Enter", none, 0, 10, 1)).toEqual({ type: "select-field" });
    expect(hexCommand("n", none, 0, 10, 1)).toEqual({ type: "frame", direction: 1 });
    expect(hexCommand("p", none, 0, 10, 1)).toEqual({ type: "frame", direction: -1 });
    expect(hexCommand("]", none, 0, 10, 1)).toEqual({ type: "problem", direction: 1 });
    expect(hexCommand("[", none, 0, 10, 1)).toEqual({ type: "problem", direction: -1 });
    expect(hexCommand("Escape", none, 0, 10, 1)).toEqual({ type: "dismiss" });
  });

  test("Escape cancels a decode in flight before it hides the tooltip", () => {
    expect(hexCommand("Escape", none, 0, 10, 1, true)).toEqual({ type: "cancel-decode" });
    expect(hexCommand("Escape", none, 0, 10, 1, false)).toEqual({ type: "dismiss" });
    expect(hexCommand("Escape", { ...none, altKey: true }, 0, 10, 1, true)).toBeNull();
    expect(hexCommand("n", none, 0, 10, 1, true)).toEqual({ type: "frame", direction: 1 });
  });

  test("leaves other keys and modified letters to the page", () => {
    expect(hexCommand("?", none, 0, 10, 1)).toBeNull();
    expect(hexCommand("Tab", none, 0, 10, 1)).toBeNull();
    expect(hexCommand("n", ctrl, 0, 10, 1)).toBeNull();
    expect(hexCommand("ArrowDown", { ...none, altKey: true }, 0, 10, 1)).toBeNull();
  });

  test("every listed key is documented", () => {
    expect(HEX_KEYS.length).toBeGreaterThanOrEqual(8);
    for (const k of HEX_KEYS) expect(k.action).toMatch(/^[a-z]/);
  });
});

describe("edit-mode typing", () => {
  test("hex digits only, without modifiers", () => {
    expect(hexDigit("a", none)).toBe(10);
    expect(hexDigit("F", none)).toBe(15);
    expect(hexDigit("7", none)).toBe(7);
    expect(hexDigit("g", none)).toBeNull();
    expect(hexDigit("Enter", none)).toBeNull();
    expect(hexDigit("a", ctrl)).toBeNull();
  });

  test("high nibble first, then low nibble and advance", () => {
    expect(typeNibble(0x5c, 0xa, false)).toEqual({ value: 0xac, advance: false });
    expect(typeNibble(0xac, 0x3, true)).toEqual({ value: 0xa3, advance: true });
  });
});
