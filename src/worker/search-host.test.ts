/** The search worker's body: bytes sent once, searches answered in order, a cancel stops one mid-way. */
import { describe, expect, it } from "vitest";
import { createSearchHost } from "./search-host.ts";
import type { FromSearchWorker } from "./search-protocol.ts";

function host() {
  const messages: FromSearchWorker[] = [];
  const handle = createSearchHost((m) => messages.push(m));
  const until = async (pred: () => boolean) => {
    for (let i = 0; i < 2000 && !pred(); i++) await new Promise((r) => setTimeout(r, 1));
  };
  return { messages, handle, until };
}

describe("search host", () => {
  it("answers a search over the bytes it was sent with every hit", async () => {
    const { messages, handle, until } = host();
    const bytes = new Uint8Array(100).fill(7);
    bytes.set([1, 2, 3], 10);
    bytes.set([1, 2, 3], 90);
    handle({ type: "search-data", token: 1, buffer: bytes.buffer });
    handle({ type: "search", id: 5, token: 1, pattern: Uint8Array.of(1, 2, 3), limit: 10 });
    await until(() => messages.some((m) => m.type === "search-result"));
    const result = messages.find((m) => m.type === "search-result");
    expect(result).toMatchObject({ id: 5, capped: false });
    expect([...(result as { starts: Float64Array }).starts]).toEqual([10, 90]);
  });

  it("stops a long search when cancelled, without a result, and still serves the next", async () => {
    const { messages, handle, until } = host();
    // 64 MiB: eight chunks, so the cancel lands between two of them.
    const bytes = new Uint8Array(64 << 20);
    handle({ type: "search-data", token: 2, buffer: bytes.buffer });
    handle({ type: "search", id: 1, token: 2, pattern: Uint8Array.of(9, 9), limit: 10 });
    handle({ type: "search-cancel", id: 1 });
    handle({ type: "search", id: 2, token: 2, pattern: Uint8Array.of(0, 0), limit: 3 });
    await until(() => messages.some((m) => m.type === "search-result" && m.id === 2));
    await new Promise((r) => setTimeout(r, 50));
    expect(messages.some((m) => m.type === "search-result" && m.id === 1)).toBe(false);
    const progress = messages.filter((m) => m.type === "search-progress" && m.id === 1);
    expect(progress.every((m) => m.type === "search-progress" && m.done < m.total)).toBe(true);
    expect(messages.find((m) => m.type === "search-result" && m.id === 2)).toMatchObject({ capped: true });
  });

  it("assembles bytes sent in pieces, and refuses to search them before the last piece", async () => {
    const { messages, handle, until } = host();
    const whole = Uint8Array.from({ length: 30 }, (_, i) => i);
    handle({ type: "search-data", token: 4, buffer: whole.slice(0, 12).buffer, offset: 0, total: 30 });
    handle({ type: "search", id: 7, token: 4, pattern: Uint8Array.of(11, 12, 13), limit: 5 });
    expect(messages.at(-1)).toMatchObject({ type: "search-error", id: 7 });
    handle({ type: "search-data", token: 4, buffer: whole.slice(12, 24).buffer, offset: 12, total: 30 });
    handle({ type: "search-data", token: 4, buffer: whole.slice(24).buffer, offset: 24, total: 30 });
    handle({ type: "search", id: 8, token: 4, pattern: Uint8Array.of(11, 12, 13), limit: 5 });
    await until(() => messages.some((m) => m.type === "search-result" && m.id === 8));
    expect([...(messages.find((m) => m.type === "search-result" && m.id === 8) as { starts: Float64Array }).starts]).toEqual([11]);
  });

  it("says so when asked to search bytes it does not hold", () => {
    const { messages, handle } = host();
    handle({ type: "search", id: 3, token: 9, pattern: Uint8Array.of(1), limit: 1 });
    expect(messages).toEqual([{ type: "search-error", id: 3, message: "the bytes to search were not sent" }]);
  });
});
