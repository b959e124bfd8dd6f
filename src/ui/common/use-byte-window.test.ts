/** Row windows over a file read on demand: each read once, kept as small copies, a failed read named once. */
import { describe, expect, it } from "vitest";
import { fileBytes, type InputBytes } from "../../lib/input-bytes.ts";
import { RowWindows } from "./use-byte-window.ts";

const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) & 0xff);

/** A file read on demand in 256-byte pages, two kept, counting the loads asked of it. */
function counted(blob: Blob): { source: InputBytes; loads: string[] } {
  const inner = fileBytes(blob, { pageBytes: 256, maxPages: 2 });
  const loads: string[] = [];
  const source: InputBytes = {
    ...inner,
    peek: (s, e) => inner.peek(s, e),
    load: (s, e) => {
      loads.push(`${s}..${e}`);
      return inner.load(s, e);
    },
    subscribe: (l) => inner.subscribe(l),
  };
  return { source, loads };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("RowWindows", () => {
  it("reads a missed row once (however often it renders), then hands back its bytes, kept after the page is dropped", async () => {
    const { source, loads } = counted(new Blob([bytes]));
    let landed = 0;
    const rows = new RowWindows(
      source,
      () => landed++,
      (m) => expect.fail(m),
    );
    expect(rows.read(300, 348)).toBeNull();
    expect(rows.read(300, 348)).toBeNull();
    expect(rows.read(1000, 1048)).toBeNull();
    expect(loads).toEqual([]);
    await settle();
    expect(loads).toEqual(["300..348", "1000..1048"]);
    expect(landed).toBe(2);
    const w = rows.read(300, 348)!;
    expect(w.start).toBe(300);
    expect(w.bytes).toEqual(bytes.subarray(300, 348));
    // Other pages push this one out of the file's cache: the row keeps its own copy, read no more.
    await source.load(2048, 2304);
    await source.load(3072, 3328);
    expect(source.peek(300, 348)).toBeNull();
    expect(rows.read(300, 348)!.bytes).toEqual(bytes.subarray(300, 348));
    expect(rows.read(300, 348)!.bytes.buffer.byteLength).toBe(48);
    await settle();
    expect(loads).toEqual(["300..348", "1000..1048", "2048..2304", "3072..3328"]);
  });

  it("names a range it could not read once, and does not read it again on every render", async () => {
    // The file on disk is now shorter than when it was opened: every slice of it comes back empty.
    const cut = { size: bytes.length, slice: () => new Blob([]) } as unknown as Blob;
    const { source, loads } = counted(cut);
    const failed: string[] = [];
    const rows = new RowWindows(
      source,
      () => expect.fail("nothing lands"),
      (m) => failed.push(m),
    );
    expect(rows.read(1300, 1348)).toBeNull();
    await settle();
    expect(rows.read(1300, 1348)).toBeNull();
    await settle();
    expect(loads).toEqual(["1300..1348"]);
    expect(failed).toEqual(["Could not read bytes 1,300..1,348 of the file: the file changed since it was opened (0 bytes at 1280). Open the file again."]);
  });
});
