import { describe, expect, it } from "vitest";
import { U32List } from "./u32-list.ts";

describe("U32List", () => {
  it("holds what was pushed past several doublings, pops, and copies out exactly its length", () => {
    const list = new U32List();
    const want: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const v = (i * 2654435761) >>> 0;
      list.push(v);
      want.push(v);
      if (i % 7 === 0) {
        list.pop();
        want.pop();
      }
    }
    expect(list.length).toBe(want.length);
    expect([...list.toArray()]).toEqual(want);
    expect(list.at(want.length - 1)).toBe(want.at(-1));
    expect(list.at(want.length)).toBeUndefined();
    expect(list.at(-1)).toBeUndefined();
    const empty = new U32List();
    empty.pop();
    expect(empty.toArray().length).toBe(0);
  });
});
