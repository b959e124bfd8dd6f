import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ALL_BYTE_KINDS } from "../../format/fields.ts";
import { KIND_STYLE } from "./kind-style.ts";
import { isContainerKind } from "../../format/containers/index.ts";

// Container kinds share one colour per role group (container-kind-style.ts); the colour class is the first class.
const colourClass = (k: (typeof ALL_BYTE_KINDS)[number]): string => KIND_STYLE[k].className.split(" ")[0] as string;
const COLOUR_CLASSES = [...new Set(ALL_BYTE_KINDS.map(colourClass))];

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
      const colours = COLOUR_CLASSES.map((name) => {
        const m = new RegExp(`--${name}: (#[0-9a-f]{6});`).exec(palette);
        expect(m, `${name} in a palette`).not.toBeNull();
        return m![1];
      });
      expect(new Set(colours).size).toBe(COLOUR_CLASSES.length);
    }
    for (const name of COLOUR_CLASSES) expect(css).toContain(`.${name} { --kind-bg: var(--${name}); }`);
  });

  test("container kinds take a group colour, batch and frame kinds one of their own", () => {
    for (const k of ALL_BYTE_KINDS) expect(colourClass(k).startsWith("kind-container-")).toBe(isContainerKind(k));
  });
});
