/**
 * Pasting: hex, an xxd dump and base64 of a corpus file give the same status and diagnostics as
 * opening the file; a paste that is none of them shows an alert and leaves the page working.
 *
 * The paste is a ClipboardEvent with a DataTransfer fired at the document (what Ctrl+V does),
 * since headless clipboard permissions are unreliable; one test also goes through the real
 * clipboard and Ctrl+V.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { CORPUS_DIR, expect, openCorpus, openPage, pasteText, readDiagnostics, statusLine, test, waitForIdle, waitForInput, xxdDump } from "./fixtures.ts";

const FILE = "19-segment-4-batch2-bad-frame.bin";
const bytes = new Uint8Array(readFileSync(path.join(CORPUS_DIR, FILE)));
const hexOf = (b: Uint8Array, sep = " ") => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(sep);

test("hex, xxd and base64 pastes show what opening the file shows", async ({ page }) => {
  await openPage(page);
  const opened = await openCorpus(page, FILE);
  const openedDiagnostics = await readDiagnostics(page);
  expect(openedDiagnostics.length).toBeGreaterThan(0);

  const forms: [form: string, text: string][] = [
    ["hex", hexOf(bytes)],
    // Hex as copied from code: 0x prefixes, commas, line breaks.
    [
      "hex",
      Array.from(bytes, (x) => `0x${x.toString(16).padStart(2, "0")}`)
        .join(", ")
        .replace(/((?:0x.., ){12})/g, "$1\n"),
    ],
    ["xxd", xxdDump(bytes)],
    ["base64", Buffer.from(bytes).toString("base64")],
    // base64 wrapped at 76 columns, as `base64` prints it.
    [
      "base64",
      Buffer.from(bytes)
        .toString("base64")
        .replace(/(.{76})/g, "$1\n"),
    ],
  ];
  for (const [form, text] of forms) {
    // Load something else in between, so each paste visibly replaces the input.
    await openCorpus(page, "01-valid-producer-1frame.bin");
    await pasteText(page, text);
    const shown = await waitForInput(page, `pasted ${form} (${bytes.length} bytes)`);
    expect(shown, form).toBe(opened);
    expect(await readDiagnostics(page), form).toEqual(openedDiagnostics);
    await expect(page.locator(".status-area .input-name")).toContainText(`${bytes.length.toLocaleString("en-US")} bytes`);
  }
});

test("a paste that is not bytes shows an alert and keeps the page working", async ({ page }) => {
  const before = await openPage(page);
  for (const garbage of ["this is not hex!! 🙂", "zz:zz not xxd", "   "]) {
    await pasteText(page, garbage);
    if (garbage.trim() === "") continue; // an empty paste is ignored
    const alert = page.getByRole("alert");
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(/not hex, an xxd dump or base64/);
    // The input shown before is still there.
    await expect(statusLine(page)).toHaveText(before);
  }
  // The page still works: a good paste replaces the input and clears the alert.
  const small = new Uint8Array(readFileSync(path.join(CORPUS_DIR, "01-valid-producer-1frame.bin")));
  await pasteText(page, hexOf(small, ""));
  await waitForInput(page, `pasted hex (${small.length} bytes)`);
  await expect(statusLine(page)).toHaveText("1 batch · 1 frame · 0 errors · 0 warnings · 0 infos");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("Ctrl+V pastes from the clipboard", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await openPage(page);
  await page.evaluate((text) => navigator.clipboard.writeText(text), Buffer.from(bytes).toString("base64"));
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ControlOrMeta+V");
  await waitForInput(page, `pasted base64 (${bytes.length} bytes)`);
  await expect(statusLine(page)).toHaveText("4 batches · 12 frames · 1 error · 0 warnings · 0 infos");
  await waitForIdle(page);
});
