import { describe, expect, it } from "vitest";
import { MAX_PAGE_INPUT_BYTES, pageInputRefusal } from "./input-limit.ts";

describe("page input limit", () => {
  it("opens everything below 2 GiB and refuses 2 GiB and more, naming the size, the limit and the command line", () => {
    expect(pageInputRefusal("a.log", 0)).toBeNull();
    expect(pageInputRefusal("a.log", MAX_PAGE_INPUT_BYTES)).toBeNull();
    const text = pageInputRefusal("big.log", 2 ** 31);
    expect(text).toContain("big.log is too large for the page");
    expect(text).toContain("2.00 GiB (2,147,483,648 bytes)");
    expect(text).toContain("at most 2,147,483,647 bytes");
    expect(text).toContain("npx iggy-batch inspect");
    expect(text).not.toMatch(/permission/);
    expect(pageInputRefusal("huge.log", 5 * 2 ** 30)).toContain("5.00 GiB");
  });
});
