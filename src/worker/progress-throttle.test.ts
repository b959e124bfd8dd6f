import { describe, expect, it } from "vitest";
import { throttleProgress } from "./progress-throttle.ts";

describe("throttleProgress", () => {
  it("reports the first call, then one in each period, and always the last", () => {
    let clock = 0;
    const seen: number[] = [];
    const report = throttleProgress(
      (done) => seen.push(done),
      100,
      () => clock,
    );
    for (let done = 1; done <= 50; done++) {
      clock = done * 7; // a call every 7 ms: 350 ms in all
      report(done, 50);
    }
    expect(seen[0]).toBe(1);
    expect(seen.at(-1)).toBe(50);
    expect(seen.length).toBe(5);
    for (let k = 1; k < seen.length - 1; k++) expect(((seen[k] as number) - (seen[k - 1] as number)) * 7).toBeGreaterThanOrEqual(100);
  });
});
