import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ALL_BYTE_KINDS } from "../../format/fields.ts";
import { KIND_STYLE } from "./kind-style.ts";

const css = readFileSync(new URL("./kinds.css", import.meta.url), "utf8");

describe("KIND_STYLE", () => {
  test("gives every kind its own class and label", () => {
    const classes = ALL_BYTE_KINDS.map((k) => KIND_STYLE[k].className);
    const labels = ALL_BYTE_KINDS.map((k) => KIND_STYLE[k].label);
    expect(new Set(classes).size).toBe(ALL_BYTE_KINDS.length);
    expect(new Set(labels).size).toBe(ALL_BYTE_KINDS.length);
    expect(Object.keys(KIND_STYLE).sort()).toEqual([...ALL_BYTE_KINDS].sort());
  });

  test("every class has a colour in both palettes, and the colours differ", () => {
    const dark = css.slice(css.indexOf("@media (prefers-color-scheme: dark)"));
    const light = css.slice(0, css.indexOf("@media (prefers-color-scheme: dark)"));
    for (const palette of [light, dark]) {
      const colours = ALL_BYTE_KINDS.map((k) => {
        const name = KIND_STYLE[k].className;
        const m = new RegExp(`--${name}: (#[0-9a-f]{6});`).exec(palette);
        expect(m, `${name} in a palette`).not.toBeNull();
        return m![1];
      });
      expect(new Set(colours).size).toBe(ALL_BYTE_KINDS.length);
    }
    for (const k of ALL_BYTE_KINDS) expect(css).toContain(`.${KIND_STYLE[k].className} { --kind-bg: var(--${KIND_STYLE[k].className}); }`);
  });
});
