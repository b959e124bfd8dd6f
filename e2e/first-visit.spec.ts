/** A first visit: a sample is on screen, the legend names every byte kind, the samples menu works, the CSP is in force. */
import { diagnosticsList, expect, hexMap, isLocalUrl, openPage, parseSummary, statusLine, test, waitForInput } from "./fixtures.ts";

/** Every byte kind the field table names (src/format/fields.ts), in display order. */
const BYTE_KINDS = [
  "batch.partition_id",
  "batch.base_offset",
  "batch.base_timestamp",
  "batch.origin_timestamp",
  "batch.batch_length",
  "batch.batch_checksum",
  "batch.message_count",
  "batch.reserved",
  "frame.checksum",
  "frame.id",
  "frame.offset_delta",
  "frame.timestamp_delta",
  "frame.user_headers_length",
  "frame.payload_length",
  "frame.reserved",
  "frame.payload",
  "frame.user_headers",
  "unattributed",
];

test("a fresh visit shows the default sample, decoded", async ({ page, guard }) => {
  const text = await openPage(page);
  expect(text).not.toBe("No input");
  const summary = parseSummary(text);
  expect(summary.batches).toBeGreaterThan(0);
  expect(summary.frames).toBeGreaterThan(0);
  expect(summary.errors).toBe(0);
  await expect(page.locator(".status-area .input-name")).toHaveAttribute("title", /^sample: /);

  const map = hexMap(page);
  await expect(map).toHaveAttribute("role", "grid");
  await expect(map).toHaveAccessibleName("Hex map");
  const cells = map.locator("[data-offset]");
  expect(await cells.count()).toBeGreaterThan(100);
  await expect(map.locator('[data-offset="0"]')).toHaveAttribute("data-kind", "batch.partition_id");
  await expect(map.locator('[data-offset="0"]')).toHaveAttribute("data-edge", "batch");
  await expect(map.locator('[data-offset="256"]')).toHaveAttribute("data-edge", "frame");
  // Every rendered cell names a known kind; a clean sample has no problem cells.
  const kinds = new Set(await cells.evaluateAll((els) => els.map((el) => el.getAttribute("data-kind"))));
  for (const k of kinds) expect(BYTE_KINDS).toContain(k);
  await expect(map.locator("[data-problem]")).toHaveCount(0);
  // The Diagnostics list exists, empty.
  await expect(diagnosticsList(page)).toBeAttached();
  await expect(diagnosticsList(page).getByRole("listitem")).toHaveCount(0);

  // Nothing but the page's own origin was asked for (the guard also asserts this after the test).
  expect(guard.requests.length).toBeGreaterThan(0);
  expect(guard.requests.filter((u) => !isLocalUrl(u))).toEqual([]);
});

test("the legend lists every byte kind and the marks", async ({ page }) => {
  await openPage(page);
  await page.locator("details.legend-box > summary", { hasText: "Legend" }).click();
  const kinds = page.getByRole("list", { name: "Byte kinds" });
  await expect(kinds).toBeVisible();
  const listed = await kinds.getByRole("listitem").evaluateAll((els) => els.map((el) => el.getAttribute("data-legend-kind")));
  expect(listed).toEqual(BYTE_KINDS);
  // Each entry has a name and the spec's description.
  await expect(kinds.getByRole("listitem").filter({ hasText: "batch_checksum" })).toContainText("XXH3-64");
  await expect(kinds.getByRole("listitem").filter({ hasText: "batch reserved" })).toContainText("Must be zero");
  const marks = page.getByRole("list", { name: "Marks" });
  for (const name of ["batch start", "frame start", "error", "warning", "info", "selection", "checksum coverage", "cursor"]) {
    await expect(marks.getByRole("listitem").filter({ hasText: name }).first()).toBeVisible();
  }
});

test("the samples menu loads a violation sample and flags it", async ({ page }) => {
  await openPage(page);
  const menu = page.getByLabel("Load a sample");
  await menu.selectOption("frame-checksum-mismatch");
  const text = await waitForInput(page, "sample: Flipped payload byte");
  expect(parseSummary(text).errors).toBeGreaterThanOrEqual(1);
  const items = diagnosticsList(page).getByRole("listitem");
  await expect(items.first()).toHaveAttribute("data-code", "frame-checksum-mismatch");
  await expect(items.first()).toHaveAttribute("data-severity", "error");
  // The problem is drawn on the bytes: the first frame's stored checksum (frame at 256, bytes 256..264).
  const problems = hexMap(page).locator("[data-problem]");
  expect(await problems.count()).toBeGreaterThan(0);
  for (let o = 256; o < 264; o++) await expect(hexMap(page).locator(`[data-offset="${o}"]`)).toHaveAttribute("data-problem", "error");

  // Another one: a warning sample.
  await menu.selectOption("empty-batch");
  await waitForInput(page, "sample: Empty batch");
  await expect(statusLine(page)).toHaveText("1 batch · 0 frames · 0 errors · 1 warning · 0 infos");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute("data-severity", "warning");
  await expect(hexMap(page).locator('[data-offset="48"]')).toHaveAttribute("data-problem", "warning");
});

test("?sample=ID opens that sample", async ({ page }) => {
  await page.goto("/?sample=batch-reserved-nonzero");
  await waitForInput(page, "sample: Nonzero reserved header bytes");
  await expect(diagnosticsList(page).getByRole("listitem").first()).toHaveAttribute("data-code", "batch-reserved-nonzero");
  await expect(hexMap(page).locator('[data-offset="100"]')).toHaveAttribute("data-problem", "error");
});

test("the page carries a Content-Security-Policy that allows no other origin", async ({ page, guard }) => {
  await openPage(page);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  expect(csp).toBeTruthy();
  const directives = new Map(
    csp!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k!, v]),
  );
  expect(directives.get("default-src")).toEqual(["'self'"]);
  expect(directives.get("connect-src")).toEqual(["'self'"]);
  expect(directives.get("object-src")).toEqual(["'none'"]);
  for (const [name, sources] of directives) {
    for (const s of sources) expect(s, `${name} allows ${s}`).not.toMatch(/^(https?:|\*|wss?:)/);
  }
  // The CSP meta comes first in <head>, so it governs every script.
  const firstScriptAfterCsp = await page.evaluate(() => {
    const head = [...document.head.children];
    const csp = head.findIndex((el) => el.getAttribute("http-equiv") === "Content-Security-Policy");
    const script = head.findIndex((el) => el.tagName === "SCRIPT");
    return csp >= 0 && (script < 0 || csp < script);
  });
  expect(firstScriptAfterCsp).toBe(true);
  // A fetch to another origin is refused by the page itself.
  const refused = await page.evaluate(async () => {
    try {
      await fetch("https://example.com/", { mode: "no-cors" });
      return false;
    } catch {
      return true;
    }
  });
  expect(refused).toBe(true);
  // The browser reports the refusal on the console, and no request went out. That one console
  // error is this test's doing: take it off the guard's list (which shows the recorder works).
  await expect.poll(() => guard.consoleErrors.filter((m) => /example\.com/.test(m)).length).toBeGreaterThan(0);
  const expected = guard.consoleErrors.filter((m) => /Content Security Policy/i.test(m) && /example\.com/.test(m));
  expect(expected.length).toBeGreaterThan(0);
  for (const m of expected) guard.consoleErrors.splice(guard.consoleErrors.indexOf(m), 1);
  expect(guard.requests.filter((u) => u.includes("example.com"))).toEqual([]);
});
