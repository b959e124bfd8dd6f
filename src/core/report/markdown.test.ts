/** Input-derived text cannot reach a Markdown report as markup or as control characters. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mdFence, mdText } from "./markdown.ts";

// eslint-disable-next-line no-control-regex -- the control characters are what the test looks for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\x1b", "\n", "\\", "|", "`", "<", ">", "&", "*", "_", "[", "]", "\x9b", "\u202e", "\u200b"),
    fc.string({ minLength: 1, maxLength: 1, unit: "binary" }),
  ),
});

describe("Markdown escapes", () => {
  it("leave no HTML tag, no code span, no unescaped table pipe and no control character", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const md = mdText(s);
        // Every special character is preceded by a backslash that is itself not escaped.
        const bare = md.replace(/\\\\/g, "").replace(/\\[`|*_[\]~$#!@]/g, "");
        return !/[<>`|*_[\]~]/.test(bare) && !UNSAFE.test(md);
      }),
    );
    expect(mdText("<img src=x onerror=alert(1)>")).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(mdText("evil\x1b[2J.bin")).toBe("evil\\\\x1b\\[2J.bin");
  });

  it("a fence is longer than any backtick run in the text", () => {
    expect(mdFence("no ticks").split("\n")[0]).toBe("```text");
    expect(mdFence("a ```` b").split("\n")[0]).toBe("`````text");
  });
});
