/** Input-derived text cannot reach a terminal as control characters (core/report/markdown.test.ts: nor a report as markup). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleLines, visibleText } from "./text-escape.ts";

// eslint-disable-next-line no-control-regex -- the control characters are what the test looks for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\x1b", "\n", "\\", "|", "`", "<", ">", "&", "*", "_", "[", "]", "\x9b", "\u202e"),
    fc.string({ minLength: 1, maxLength: 1, unit: "binary" }),
  ),
});

describe("terminal escapes", () => {
  it("show controls as \\x escapes and double a backslash, so an escape cannot be faked", () => {
    expect(visibleText("a\x1b[31mb\n\\x1b\u202e")).toBe("a\\x1b[31mb\\x0a\\\\x1b\\u202e");
    expect(visibleLines("line 1\nline\x07 2")).toBe("line 1\nline\\x07 2");
  });

  it("escape bidi controls, marks and CR become visible", () => {
    expect(visibleText("a\u202eb\u2066c\u2069d\u200ee\u200ff\rg\x85")).toBe("a\\u202eb\\u2066c\\u2069d\\u200ee\\u200ff\\x0dg\\x85");
    expect(visibleLines("one\r\ntwo\u202e")).toBe("one\\x0d\ntwo\\u202e");
  });

  it("leave no control character in any string", () => {
    fc.assert(fc.property(anyText, (s) => !UNSAFE.test(visibleText(s)) && !UNSAFE.test(visibleLines(s).replace(/\n/g, ""))));
  });
});
