/** The CLI's spool of message lines: each connection's lines come back in the order added, across stretches written to disk. */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LineSpool } from "./capture-spool.ts";

describe("LineSpool", () => {
  it("gives each connection's lines back in order, whatever was written out and when, and leaves no file behind", () => {
    const spool = new LineSpool();
    const want = new Map<number, string[]>();
    // Lines of many lengths (some past a stretch, some not ASCII) over interleaved connections, past the 8 MiB buffer.
    let total = 0;
    for (let i = 0; total < 12 << 20; i++) {
      const conn = (i * 7) % 5;
      const line = `${i}:${"é".repeat(i % 13)}${"x".repeat((i * 7919) % 90_000)}`;
      spool.add(conn, line);
      if (!want.has(conn)) want.set(conn, []);
      want.get(conn)!.push(line);
      total += line.length;
    }
    for (const [conn, lines] of want) expect([...spool.lines(conn)]).toEqual(lines);
    expect([...spool.lines(99)]).toEqual([]);
    const dir = (spool as unknown as { dir: string }).dir;
    spool.close();
    expect(existsSync(dir)).toBe(false);
  });
});
