import { describe, expect, it } from "vitest";
import { pinShift } from "./inline-overflow.ts";

describe("pinShift", () => {
  it("leaves a column that fits in the box where it is", () => {
    expect(pinShift(300, 0, 400)).toBe(0);
    expect(pinShift(400, 0, 400)).toBe(0);
  });
  it("brings a column past the right edge back to it, less as the box scrolls towards it", () => {
    expect(pinShift(700, 0, 400)).toBe(-300);
    expect(pinShift(700, 100, 400)).toBe(-200);
    expect(pinShift(700, 300, 400)).toBe(0);
  });
  it("never shifts a column to the right", () => {
    expect(pinShift(200, 500, 400)).toBe(0);
  });
});
