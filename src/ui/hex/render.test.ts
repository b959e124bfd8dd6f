// Server-rendered markup of the hex map's parts: the test hooks e2e tests rely on, without a DOM.
import { createElement, type RefObject } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, test } from "vitest";
import { ALL_BYTE_KINDS } from "../../format/fields.ts";
import { cursorStore, hoverStore, selectionStore } from "../state/app-state.ts";
import { KIND_STYLE } from "../common/kind-style.ts";
import { checksumCoverage, coverageStore } from "./coverage.ts";
import { fieldAt } from "./field-at.ts";
import { analysed, goldenBatch } from "./fixtures.test-util.ts";
import { HexRow } from "./HexRow.tsx";
import { HexTooltip } from "./HexTooltip.tsx";
import { inspectStore } from "./inspect.ts";
import { Legend } from "./Legend.tsx";
import { RowCache, type RowData } from "./row-data.ts";
import { memoryBytes } from "../../lib/input-bytes.ts";

const input = analysed(goldenBatch());
const cache = new RowCache(input.analysis, input.bytes);

function row(r: number): string {
  const data = cache.window(r, r + 1)[0]!;
  return renderToStaticMarkup(createElement(HexRow, { data, offsetDigits: 8, idPrefix: "t-" }));
}

function cells(html: string, attr: string): number[] {
  return [...html.matchAll(/<span [^>]*data-offset="(\d+)"[^>]*>/g)].filter((m) => m[0].includes(` ${attr}`)).map((m) => Number(m[1]));
}

afterEach(() => {
  hoverStore.set(null);
  selectionStore.set(null);
  coverageStore.set(null);
  cursorStore.set(0);
  inspectStore.set(null);
});

describe("HexRow", () => {
  test("each hex cell carries its offset and kind; ASCII cells do not repeat data-offset", () => {
    const html = row(2);
    expect(html.match(/data-offset="/g)).toHaveLength(16);
    expect(html).toContain('data-offset="40" data-kind="batch.batch_checksum"');
    expect(html).toContain('data-offset="32" data-kind="batch.batch_length"');
    expect(html).toContain('role="row" aria-rowindex="4"');
    expect(html).toContain(">00000020<");
    // Only the cursor's cell carries an id (the grid's aria-activedescendant names it).
    expect(html).not.toContain("id=");
    cursorStore.set(40);
    expect(row(2).match(/ id="[^"]*"/g)).toEqual([' id="t-b40"']);
  });

  test("hover, selection, coverage and cursor marks", () => {
    const hit = fieldAt(input.analysis, input.bytes, 40);
    hoverStore.set({ start: hit.start, end: hit.end });
    coverageStore.set(checksumCoverage(input.analysis, hit));
    selectionStore.set({ start: 36, end: 42, batch: 0, frame: -1, origin: "table" });
    cursorStore.set(45);
    const html = row(2);
    expect(cells(html, "data-hover")).toEqual([40, 41, 42, 43, 44, 45, 46, 47]);
    expect(cells(html, "data-covered")).toEqual([32, 33, 34, 35, 36, 37, 38, 39]);
    expect(cells(html, "data-selected")).toEqual([36, 37, 38, 39, 40, 41]);
    expect(cells(html, "data-cursor")).toEqual([45]);
    expect(cells(row(3), "data-covered")).toEqual([48, 49, 50, 51]);
    expect(cells(row(16), "data-covered")).toEqual([256, 257, 258, 259, 260, 261, 262, 263]);
  });

  test("diagnostics and unit edges", () => {
    const bytes = goldenBatch();
    bytes[310]! ^= 1;
    const bad = analysed(bytes);
    const data = new RowCache(bad.analysis, bad.bytes).window(16, 17)[0]!;
    const html = renderToStaticMarkup(createElement(HexRow, { data, offsetDigits: 8, idPrefix: "t-" }));
    expect(cells(html, 'data-problem="error"')).toEqual([256, 257, 258, 259, 260, 261, 262, 263]);
    expect(html).toContain('data-offset="256" data-kind="frame.checksum" data-edge="frame"');
    expect(row(0)).toContain('data-offset="0" data-kind="batch.partition_id" data-edge="batch"');
  });

  test("a row whose bytes are still being read shows placeholders, marked, never zeros; then its bytes", async () => {
    const { fileBytes } = await import("../../lib/input-bytes.ts");
    const source = fileBytes(new Blob([input.bytes.slice()]), { pageBytes: 64, maxPages: 4 });
    const onDemand = new RowCache(input.analysis, source);
    const render = (data: RowData) => renderToStaticMarkup(createElement(HexRow, { data, offsetDigits: 8, idPrefix: "t-" }));
    const waiting = render(onDemand.window(2, 3)[0]!);
    expect(waiting).toContain('aria-busy="true"');
    expect(cells(waiting, "data-pending")).toHaveLength(16);
    expect(waiting.match(/>··</g)).toHaveLength(16);
    expect(waiting).not.toMatch(/>00</);
    // Kinds come from the model meanwhile.
    expect(waiting).toContain('data-offset="40" data-kind="batch.batch_checksum"');
    await source.load(32, 48);
    const landed = render(onDemand.window(2, 3)[0]!);
    expect(landed).not.toContain("aria-busy");
    expect(cells(landed, "data-pending")).toEqual([]);
    expect(landed).toBe(row(2));
  });

  test("a short last row pads without cells", () => {
    const html = row(24);
    expect(html.match(/data-offset="/g)).toHaveLength(12);
    expect(html.match(/hx-pad/g)).toHaveLength(4);
  });
});

describe("HexTooltip", () => {
  test("renders payload text as text, never as markup", async () => {
    const { encodeBatch } = await import("../../core/walk/encode.ts");
    const { loadXxh3 } = await import("../../checksum/xxh3.ts");
    const evil = analysed(encodeBatch(await loadXxh3(), { messages: [{ payload: '<img src=x onerror="alert(1)">' }] }));
    inspectStore.set({ offset: 310, via: "pointer" });
    const gridRef: RefObject<HTMLElement | null> = { current: null };
    const html = renderToStaticMarkup(
      createElement(HexTooltip, {
        id: "tip",
        analysis: evil.analysis,
        source: memoryBytes(evil.bytes),
        diagnostics: new RowCache(evil.analysis, evil.bytes).diagnostics,
        gridRef,
        layoutKey: "",
        onReadError: () => {},
      }),
    );
    expect(html).toContain('role="tooltip"');
    expect(html).toContain("payload");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});

describe("Legend", () => {
  test("lists every kind with its swatch class and the spec's description", () => {
    const html = renderToStaticMarkup(createElement(Legend));
    for (const kind of ALL_BYTE_KINDS) {
      expect(html).toContain(`data-legend-kind="${kind}"`);
      expect(html).toContain(KIND_STYLE[kind].className);
    }
    expect(html).toContain("Must be zero; the server rejects nonzero.");
    expect(html).not.toContain("data-offset");
    expect(html).not.toContain("data-problem");
  });
});
