import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ALL_BYTE_KINDS } from "../../format/fields.ts";
import { KIND_STYLE } from "./kind-style.ts";
import { DARK_PALETTE, LIGHT_PALETTE, type KindPalette } from "../../core/view/palette.ts";

const css = readFileSync(new URL("./kinds.css", import.meta.url), "utf8");
const darkAt = css.indexOf("@media (prefers-color-scheme: dark)");

describe("palette.ts, the DOM-free statement of kinds.css", () => {
  test.each([
    ["light", LIGHT_PALETTE, css.slice(0, darkAt)],
    ["dark", DARK_PALETTE, css.slice(darkAt)],
  ] as Array<[string, KindPalette, string]>)("%s palette has the colours kinds.css paints with", (_, palette, block) => {
    expect(block).toContain(`--kind-fg: ${palette.fg};`);
    // The first class of a kind is its colour class (container kinds share their group's).
    for (const k of ALL_BYTE_KINDS) expect(block, k).toContain(`--${KIND_STYLE[k].className.split(" ")[0]}: ${palette.bg[k]};`);
  });
});
