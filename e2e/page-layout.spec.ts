/**
 * The layout holds at 1024 px, 1366×768, 1920×1080 and 200 % zoom (a 683×384 CSS-pixel window):
 * no sideways page scroll, no panel over another, the hex rows inside their panel, the Verdict and
 * Checksum columns in sight, and an empty Diagnostics panel collapsed. Checked by element geometry.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { CONTAINERS_DIR, asciiPoint, expect, formatFacts, openPage, test, waitForIdle, waitForInput } from "./fixtures.ts";

const SIZES = [
  { name: "1024 px", width: 1024, height: 768 },
  { name: "1366×768", width: 1366, height: 768 },
  { name: "1920×1080", width: 1920, height: 1080 },
  { name: "200 % zoom of 1366×768", width: 683, height: 384 },
];

interface Box {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The boxes of the header, the hex panel and every side panel, in page coordinates. */
function panelBoxes(page: Page): Promise<Box[]> {
  return page.evaluate(() => {
    const els = [document.querySelector("header.top"), document.querySelector(".hex-panel"), ...document.querySelectorAll(".side > *")];
    return els
      .filter((el): el is Element => el !== null && el.getBoundingClientRect().height > 0)
      .map((el, i) => {
        const r = el.getBoundingClientRect();
        const name = el.querySelector("h2")?.textContent?.trim() || el.className || `#${i}`;
        return { name, left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY };
      });
  });
}

const overlap = (a: Box, b: Box) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/** How much of a column's header cell lies inside its table's scroll box, 0..1. */
function columnShown(page: Page, grid: string, col: string): Promise<number> {
  return page.evaluate(
    ({ grid, col }) => {
      const table = document.querySelector(`[role="grid"][aria-label="${grid}"]`);
      const scroll = table?.closest(".tbl-scroll");
      const cell = table?.querySelector(`[role="columnheader"][data-col="${col}"]`);
      if (!scroll || !cell) return -1;
      const s = scroll.getBoundingClientRect();
      const c = cell.getBoundingClientRect();
      return Math.max(0, Math.min(s.right, c.right) - Math.max(s.left, c.left)) / c.width;
    },
    { grid, col },
  );
}

for (const size of SIZES) {
  test(`the layout holds at ${size.name}`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openPage(page);
    // No sideways scroll of the page.
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll, "page scroll width").toBeLessThanOrEqual(widths.client);
    // No panel over another.
    const boxes = await panelBoxes(page);
    expect(boxes.length).toBeGreaterThan(4);
    const clashes = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => overlap(a, b))
        .map((b) => `${a.name} × ${b.name}`),
    );
    expect(clashes).toEqual([]);
    for (const b of boxes) expect(b.right, `${b.name} inside the window`).toBeLessThanOrEqual(size.width + 0.5);
    // The hex rows stay inside the hex panel.
    const hex = await page.evaluate(() => {
      const panel = document.querySelector(".hex-panel")!.getBoundingClientRect();
      const grid = document.querySelector('[data-testid="hex-scroll"]')!.getBoundingClientRect();
      return { panelBottom: panel.bottom, gridBottom: grid.bottom, gridHeight: grid.height };
    });
    expect(hex.gridBottom).toBeLessThanOrEqual(hex.panelBottom + 0.5);
    expect(hex.gridHeight, "the hex map shows rows").toBeGreaterThan(150);
    // The columns that matter are in sight.
    expect(await columnShown(page, "Batches", "verdict")).toBeGreaterThan(0.99);
    expect(await columnShown(page, "Frames", "checksum")).toBeGreaterThan(0.99);
    // And they stay in sight while a table is scrolled sideways part of the way.
    for (const [grid, col] of [
      ["Batches", "verdict"],
      ["Frames", "checksum"],
    ] as const) {
      await page.locator(`[role="grid"][aria-label="${grid}"]`).evaluate((t) => {
        const box = t.closest(".tbl-scroll")!;
        box.scrollLeft = (box.scrollWidth - box.clientWidth) / 3;
      });
      await expect.poll(() => columnShown(page, grid, col), `${grid} ${col} scrolled sideways`).toBeGreaterThan(0.99);
    }
    // No findings: the Diagnostics panel collapses, its empty list still there.
    await expect(page.getByRole("list", { name: "Diagnostics", exact: true })).toBeAttached();
    const diag = await page.locator(".diagnostics-panel").boundingBox();
    expect(diag!.height).toBeLessThan(110);
  });
}

test("the byte tooltip is drawn above the side panels where it reaches over them", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPage(page);
  // The last byte of the first row: its tooltip opens rightwards, over the side column.
  const last = await asciiPoint(page, 15);
  await page.mouse.move(last.x, last.y);
  const tip = page.getByRole("tooltip");
  await expect(tip).toBeVisible();
  const hits = await tip.evaluate((t) => {
    const side = document.querySelector(".side")!.getBoundingClientRect();
    const b = t.getBoundingClientRect();
    // The tooltip lets the pointer through; for the hit test only, it takes it, so the topmost box answers.
    (t as HTMLElement).style.pointerEvents = "auto";
    const points: [number, number][] = [
      [Math.max(b.left, side.left) + 20, b.top + 20],
      [b.right - 10, b.bottom - 10],
    ];
    const inside = points.map(([x, y]) => t.contains(document.elementFromPoint(x, y)));
    (t as HTMLElement).style.pointerEvents = "";
    return { reaches: b.right > side.left, inside };
  });
  expect(hits.reaches).toBe(true);
  expect(hits.inside).toEqual([true, true]);
});

const CHAIN_GAP = path.join(CONTAINERS_DIR, "partitions", "chain-gap");

for (const size of SIZES.slice(0, 3)) {
  test(`with findings at ${size.name}: the verdict columns, the first findings and the format text are in sight; the tables a click away`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openPage(page);
    await page.getByLabel("Open folder").setInputFiles(CHAIN_GAP);
    await waitForInput(page, `chain-gap (${readdirSync(CHAIN_GAP).length} files)`);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll, "page scroll width").toBeLessThanOrEqual(widths.client);
    // The partition table's judging columns lie inside its box: no sideways scroll needed to read them.
    const columns = await page.evaluate(() => {
      const table = document.querySelector('table[aria-label="Segments"]')!;
      const box = table.closest(".table-scroll")!.getBoundingClientRect();
      return [...table.querySelectorAll("th")].map((th) => {
        const r = th.getBoundingClientRect();
        return { name: th.textContent ?? "", inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
      });
    });
    for (const name of ["Server", "Findings", "Chain", "Index"])
      expect(
        columns.find((c) => c.name === name),
        name,
      ).toEqual({ name, inside: true });
    // The first finding of the Diagnostics list is above the fold, without scrolling the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    const first = await page.getByRole("list", { name: "Diagnostics", exact: true }).getByRole("listitem").first().boundingBox();
    expect(first!.y + first!.height, "first finding above the fold").toBeLessThanOrEqual(size.height);
    // The status line's format text is whole, not cut.
    const facts = await formatFacts(page).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, text: el.textContent ?? "" }));
    expect(facts.scroll).toBeLessThanOrEqual(facts.client + 1);
    expect(facts.text).toMatch(/findings: 1 error, 0 warnings\)$/);
    // The Batches and Frames tables start within two screens, and the jump bar brings each on screen in one click.
    for (const name of ["Batches", "Frames"]) {
      const panel = page.locator(`.fold[data-fold="${name.toLowerCase()}"]`);
      const top = await panel.evaluate((el) => el.getBoundingClientRect().top + scrollY);
      expect(top, `${name} top`).toBeLessThan(2 * size.height);
      await page.getByRole("navigation", { name: "Panels" }).getByRole("button", { name, exact: true }).click();
      await expect(panel).toBeInViewport();
      await page.evaluate(() => window.scrollTo(0, 0));
    }
  });
}

test("a side panel collapses to its heading and stays collapsed after a reload", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPage(page);
  const layout = page.locator('.fold[data-fold="layout"]');
  const open = (await layout.boundingBox())!.height;
  await page.getByRole("button", { name: "Collapse Layout" }).click();
  await expect(page.getByRole("figure", { name: "Layout diagram" })).toBeHidden();
  const closed = (await layout.boundingBox())!.height;
  expect(closed).toBeLessThan(50);
  expect(closed).toBeLessThan(open / 4);
  await page.reload();
  await waitForIdle(page);
  await expect(page.getByRole("figure", { name: "Layout diagram" })).toBeHidden();
  await page.getByRole("button", { name: "Show Layout" }).click();
  await expect(page.getByRole("figure", { name: "Layout diagram" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Collapse Layout" })).toHaveAttribute("aria-expanded", "true");
});
