import { describe, expect, it } from "vitest";
import { luaString, luaValue } from "./lua-text.ts";

describe("Lua literals", () => {
  it("escapes quotes, backslashes and non-ASCII as UTF-8 decimal bytes", () => {
    expect(luaString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(luaString("µ")).toBe('"\\194\\181"');
    expect(luaString("line\nnext")).toBe('"line\\010next"');
  });
  it("writes records and arrays as tables, quoting keys that are not names", () => {
    expect(luaValue({ a: 1, "b-c": "x", d: [true, null] })).toBe('{ a = 1, ["b-c"] = "x", d = { true, nil } }');
  });
});
