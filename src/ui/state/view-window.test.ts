/** The window the tables follow: the hex map's window once it holds still, never more than SETTLE_MAX_MS behind a scroll. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { publishViewWindow, settledViewWindowStore, SETTLE_MAX_MS, SETTLE_MS, viewWindowStore } from "./view-window.ts";

const at = (start: number, size = 1000) => ({ start, end: start + 10, size });

describe("settled view window", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    publishViewWindow(null);
  });
  afterEach(() => vi.useRealTimers());

  it("follows a scroll once it stops, skipping the windows in between", () => {
    publishViewWindow(at(0));
    const seen: number[] = [];
    const off = settledViewWindowStore.subscribe(() => seen.push(settledViewWindowStore.get()?.start ?? -1));
    for (let i = 1; i <= 5; i++) {
      publishViewWindow(at(i * 10));
      vi.advanceTimersByTime(SETTLE_MS / 2);
    }
    expect(viewWindowStore.get()?.start).toBe(50);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(seen).toEqual([50]);
    off();
  });

  it("keeps up with a scroll that never stops at least every SETTLE_MAX_MS", () => {
    publishViewWindow(at(0));
    const seen: number[] = [];
    const off = settledViewWindowStore.subscribe(() => seen.push(settledViewWindowStore.get()?.start ?? -1));
    const steps = (3 * SETTLE_MAX_MS) / 10;
    for (let i = 1; i <= steps; i++) {
      publishViewWindow(at(i));
      vi.advanceTimersByTime(10);
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThanOrEqual(4);
    off();
  });

  it("follows another input's window (or none) at once", () => {
    publishViewWindow(at(0, 1000));
    vi.advanceTimersByTime(SETTLE_MS);
    publishViewWindow(at(0, 2000));
    expect(settledViewWindowStore.get()?.size).toBe(2000);
    publishViewWindow(null);
    expect(settledViewWindowStore.get()).toBeNull();
  });
});
