/**
 * Issue #10, the page's part: a share-link bomb is refused quickly with the page alive, a file too
 * large for the page says so, and unsaved edits are guarded before they are lost.
 */
import type { Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import path from "node:path";
import { shareBombFragment } from "../test/share-bomb.ts";
import { encodeShareFragment } from "../src/lib/share-codec.ts";
import { encodeBatch } from "../src/core/walk/encode.ts";
import { BATCH_HEADER_SIZE, FRAME_HEADER_SIZE } from "../src/format/fields.ts";
import { loadHashWasmXxh3 } from "../test/reference-walk.ts";
import { CORPUS_DIR, cell, expect, openCorpus, openPage, statusLine, test, waitForIdle, waitForInput } from "./fixtures.ts";

const alert = (page: Page) => page.locator(".status-area [role=alert]");

test.describe("share-link bomb", () => {
  // 2 MB of link that would unpack to 1.45 GiB of zeros.
  const bomb = shareBombFragment(1485);

  test("opened as the first page: refused as too large, the page stays responsive and shows the default sample", async ({ page }) => {
    const t0 = Date.now();
    await page.goto("/" + bomb);
    await expect(alert(page)).toContainText("the share link is too large", { timeout: 30_000 });
    const ms = Date.now() - t0;
    console.log(`bomb link (${(bomb.length / 1e6).toFixed(2)} MB, 1.45 GiB inflated) refused after ${ms} ms from navigation`);
    await expect(alert(page)).toContainText("32 MiB");
    // Responsive: the keyboard help opens and closes, and the sample is decoded.
    await waitForIdle(page);
    await page.getByRole("button", { name: "Keyboard help" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("opened on a page already showing an input (hashchange): refused, the input stays", async ({ page }) => {
    const before = await openPage(page);
    // Each animation frame while the link is decoded: the main thread must never stall for long.
    await page.evaluate(() => {
      const w = window as unknown as { longestFrameGap: number };
      w.longestFrameGap = 0;
      let last = performance.now();
      const tick = (now: number) => {
        w.longestFrameGap = Math.max(w.longestFrameGap, now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const t0 = Date.now();
    // In the page's own clock: setting the 2 MB hash, and from there to the message.
    const setMs = await page.evaluate((hash) => {
      const w = window as unknown as { refusedAt?: number; hashSetAt?: number };
      new MutationObserver((_, o) => {
        if (document.querySelector(".status-area [role=alert]")) {
          w.refusedAt = performance.now();
          o.disconnect();
        }
      }).observe(document.body, { subtree: true, childList: true });
      const t = performance.now();
      location.hash = hash;
      w.hashSetAt = performance.now();
      return w.hashSetAt - t;
    }, bomb);
    await expect(alert(page)).toContainText("the share link is too large", { timeout: 30_000 });
    const ms = Date.now() - t0;
    const inPage = await page.evaluate(() => {
      const w = window as unknown as { refusedAt: number; hashSetAt: number };
      return w.refusedAt - w.hashSetAt;
    });
    console.log(`in the page: setting the hash took ${setMs.toFixed(0)} ms, hash set → message ${inPage.toFixed(0)} ms`);
    const gap = await page.evaluate(() => (window as unknown as { longestFrameGap: number }).longestFrameGap);
    console.log(`bomb link by hashchange refused after ${ms} ms; longest gap between animation frames ${gap.toFixed(0)} ms`);
    await expect(statusLine(page)).toHaveText(before);
  });

  test("a damaged link says it is damaged", async ({ page }) => {
    await openPage(page);
    await page.evaluate(() => {
      location.hash = "#iggy1.AAAAAAAA";
    });
    await expect(alert(page)).toContainText("the share link is damaged", { timeout: 30_000 });
  });
});

test.describe("file too large for the page", () => {
  test("a 2 GiB file dropped on the page says it is too large, with the limit and the command line, and the input stays", async ({ page }) => {
    const before = await openPage(page);
    const size = await page.evaluate(() => {
      // 2,048 references to one MiB: a real 2 GiB File without 2 GiB of memory.
      const mib = new Blob([new Uint8Array(1 << 20)]);
      const file = new File(
        Array.from({ length: 2048 }, () => mib),
        "huge-2GiB.log",
      );
      const dt = new DataTransfer();
      dt.items.add(file);
      window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      return file.size;
    });
    expect(size).toBe(2 ** 31);
    await expect(alert(page)).toContainText("huge-2GiB.log is too large for the page: it is 2.00 GiB (2,147,483,648 bytes)");
    await expect(alert(page)).toContainText("at most 2,147,483,647 bytes");
    await expect(alert(page)).toContainText("npx iggy-batch inspect");
    await expect(alert(page)).not.toContainText("permission");
    await expect(statusLine(page)).toHaveText(before);
  });
});

test.describe("editing a large input", () => {
  test("17 MiB: typing, undo and redo are re-checked in the worker from patches; Download edited has exactly the edit", async ({ page }) => {
    const batch = readFileSync(path.join(CORPUS_DIR, "01-valid-producer-1frame.bin"));
    const n = Math.ceil((17 << 20) / batch.length);
    const big = Buffer.concat(Array.from({ length: n }, () => batch));
    const clean = `${n.toLocaleString("en-US")} batches · ${n.toLocaleString("en-US")} frames · 0 errors · 0 warnings · 0 infos`;
    const oneError = clean.replace("0 errors", "1 error");
    await openPage(page);
    await page.getByLabel("Open batch file").setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: big });
    expect(await waitForInput(page, "big.bin")).toBe(clean);

    await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
    await cell(page, 100).click();
    const t0 = Date.now();
    await page.keyboard.press("a");
    await page.keyboard.press("b");
    await expect(cell(page, 100)).toHaveText("ab", { timeout: 30_000 });
    await expect(statusLine(page)).toHaveText(oneError, { timeout: 30_000 });
    await expect(page.getByTestId("edit-state")).toContainText("1 edit:");
    console.log(`17 MiB input: two hex digits typed and re-checked in ${Date.now() - t0} ms; ${await page.getByTestId("edit-state").textContent()}`);

    const undo = page.getByRole("button", { name: "Undo" });
    const redo = page.getByRole("button", { name: "Redo" });
    // The byte's two digits are one edit: one undo takes both back.
    await undo.click();
    await expect(cell(page, 100)).toHaveText("00", { timeout: 30_000 });
    await expect(undo).toBeDisabled();
    await expect(statusLine(page)).toHaveText(clean, { timeout: 30_000 });
    await redo.click();
    await expect(cell(page, 100)).toHaveText("ab", { timeout: 30_000 });
    await expect(statusLine(page)).toHaveText(oneError, { timeout: 30_000 });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download edited" }).click()]);
    const saved = readFileSync(await download.path());
    const expected = Buffer.from(big);
    expected[100] = 0xab;
    expect(saved.length).toBe(expected.length);
    expect(Buffer.compare(saved, expected)).toBe(0);
  });
});

test.describe("unsaved edits", () => {
  const FIRST = "01-valid-producer-1frame.bin";
  const EDITED = "1 batch · 1 frame · 1 error · 0 warnings · 0 infos";
  const question = (page: Page) => page.getByRole("alertdialog", { name: "Discard your edits?" });

  async function editOneByte(page: Page): Promise<void> {
    await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
    await cell(page, 100).click();
    await page.keyboard.press("a");
    await page.keyboard.press("b");
    await expect(statusLine(page)).toHaveText(EDITED);
  }

  test("opening a sample, a file, a paste or a share link asks first: Cancel keeps the edits, Download saves them, Discard goes on", async ({ page }) => {
    await openPage(page);
    await openCorpus(page, FIRST);
    await editOneByte(page);

    // A sample: Cancel keeps the input, its edits and their history.
    await page.getByLabel("Load a sample").selectOption({ index: 2 });
    const dialog = question(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${FIRST} has 1 edit that is not saved`);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).include(".discard-dialog").analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    expect(axe.passes.length).toBeGreaterThan(3);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(statusLine(page)).toHaveText(EDITED);
    await expect(page.getByTestId("edit-state")).toContainText("1 edit:");
    await expect(page.getByRole("button", { name: "Undo" })).toBeEnabled();

    // Escape is Cancel too.
    await page.getByLabel("Load a sample").selectOption({ index: 2 });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(statusLine(page)).toHaveText(EDITED);

    // A file: "Download edited bytes first" saves exactly the edited bytes, then opens the file.
    const SECOND = "03-empty-batch.bin";
    await page.getByLabel("Open batch file").setInputFiles(path.join(CORPUS_DIR, SECOND));
    await expect(dialog).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download edited bytes first" }).click()]);
    const expected = readFileSync(path.join(CORPUS_DIR, FIRST));
    expected[100] = 0xab;
    expect(Buffer.compare(readFileSync(await download.path()), expected)).toBe(0);
    await waitForInput(page, SECOND);
    await expect(page.getByTestId("edit-state")).toHaveText("unedited");

    // A paste: "Discard edits" goes on without saving.
    await openCorpus(page, FIRST);
    await editOneByte(page);
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/plain", "00 01 02");
      document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Discard edits" }).click();
    await waitForInput(page, "pasted hex (3 bytes)");

    // A share link opened in this tab (hashchange): asked too; Cancel keeps the edited input.
    await openCorpus(page, FIRST);
    await editOneByte(page);
    const link = encodeShareFragment({ name: "linked.bin", bytes: readFileSync(path.join(CORPUS_DIR, SECOND)), selection: null });
    await page.evaluate((hash) => {
      location.hash = hash;
    }, link);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Opening the share link's linked.bin");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(statusLine(page)).toHaveText(EDITED);
    await expect(page.getByTestId("edit-state")).toContainText("1 edit:");
  });

  test("leaving the page with edits asks the browser to warn; without edits it does not", async ({ page }) => {
    await openPage(page);
    await openCorpus(page, FIRST);
    await editOneByte(page);
    const seen: string[] = [];
    page.on("dialog", (d) => {
      seen.push(d.type());
      void d.dismiss();
    });
    await page.reload({ waitUntil: "commit", timeout: 5_000 }).catch(() => undefined);
    await expect.poll(() => seen).toEqual(["beforeunload"]);
    // Dismissed: the page and its edits are still here.
    await expect(statusLine(page)).toHaveText(EDITED);
    // Undone to the original: nothing to lose, no warning.
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByRole("button", { name: "Undo" })).toBeDisabled();
    await page.reload();
    await waitForIdle(page);
    expect(seen).toEqual(["beforeunload"]);
  });
});

test.describe("share link naming a prototype property as its format", () => {
  const bytes = new Uint8Array(readFileSync(path.join(CORPUS_DIR, "01-valid-producer-1frame.bin")));
  for (const format of ["__proto__", "constructor"]) {
    test(`f: "${format}" opens the input auto-detected and says the format is unknown, not a blank page`, async ({ page }) => {
      await page.goto("/" + encodeShareFragment({ name: "crafted.bin", bytes, selection: null, format }));
      await expect(alert(page)).toContainText(`unknown format "${format}"`);
      await expect(statusLine(page)).toContainText("1 batch");
      await expect(statusLine(page)).not.toContainText("No input");
    });
  }
});

test.describe("control and bidi characters from the input", () => {
  // U+202E (right-to-left override), U+2066 (isolate), U+200F (RLM) and CR in the file name, the payload and a user header.
  const RAW = /[\u202e\u2066\u200f\r]/;
  const name = "gol\u202egpj.\r\u2066bin";
  const shownName = "gol\\u202egpj.\\x0d\\u2066bin";
  const payload = "pay\u202eload\r\u200f";

  test("show as visible escapes in the status line, the tooltip, the inspector and the Frames table, never raw", async ({ page }) => {
    const xxh = await loadHashWasmXxh3();
    const bytes = encodeBatch(xxh, {
      messages: [{ payload, userHeaders: [{ key: { kind: "string", value: "k\u202eey\r" }, value: { kind: "string", value: "v\u2066al" } }] }],
    });
    await openPage(page);
    await page.getByLabel("Open batch file").setInputFiles({ name, mimeType: "application/octet-stream", buffer: Buffer.from(bytes) });
    await waitForInput(page, shownName);
    await expect(page.locator(".status-area .input-name")).toContainText(shownName);

    // The Frames table's preview of the payload.
    await expect(page.getByRole("grid", { name: "Frames", exact: true }).locator(".tbl-preview").first()).toHaveText("pay\\u202eload\\x0d\\u200f");
    // The inspector: the payload's text and the user header's key and value.
    const inspector = page.getByRole("region", { name: "Frame inspector" });
    await expect(inspector).toContainText("pay\\u202eload\\x0d\\u200f");
    await expect(inspector).toContainText("k\\u202eey\\x0d");
    await expect(inspector).toContainText("v\\u2066al");
    // The tooltip of a payload byte and of a user-header byte.
    const payloadAt = BATCH_HEADER_SIZE + FRAME_HEADER_SIZE;
    await cell(page, payloadAt).hover();
    await expect(page.getByRole("tooltip")).toContainText('"pay\\u202eload\\x0d\\u200f"');
    const tipTexts = [await page.getByRole("tooltip").innerText()];
    await cell(page, payloadAt + new TextEncoder().encode(payload).length + 2).hover();
    await expect(page.getByRole("tooltip")).toContainText("k\\u202eey\\x0d = v\\u2066al");
    tipTexts.push(await page.getByRole("tooltip").innerText());
    for (const t of tipTexts) expect(t).not.toMatch(RAW);

    // Nowhere on the page, in its text or its titles and labels, is one of the raw characters.
    const shown = await page.evaluate(() => {
      const parts = [document.body.innerText];
      for (const e of Array.from(document.querySelectorAll("[title], [aria-label]")))
        parts.push(e.getAttribute("title") ?? "", e.getAttribute("aria-label") ?? "");
      return parts.join("\n");
    });
    expect(shown).toContain(shownName);
    expect(shown).not.toMatch(RAW);
  });
});
