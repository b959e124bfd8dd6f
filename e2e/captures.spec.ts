/**
 * Network captures on the page (captures.md; contracts.md §2 "Messages"): each public capture of
 * test/fixtures/corpus-captures, opened as a person would, shows what the real CLI's `inspect --json`
 * says of the same file: the summary, one Messages row per message (data-message), every finding with
 * its message, the "Problems only" rows; a chosen message shows the bytes `iggy-batch extract` writes,
 * and a login's secret appears nowhere on the page.
 */
import AxeBuilder from "@axe-core/playwright";
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { ROOT, cell, diagnosticsList, expect, openFile, openPage, runCliJson, statusLine, summaryText, test, type Summary } from "./fixtures.ts";

const CAPTURES = path.join(ROOT, "test", "fixtures", "corpus-captures");
const FILES = readdirSync(CAPTURES).filter((f) => /\.pcap(ng)?$/.test(f));

interface CliMessage {
  index: number;
  toServer: boolean;
  packet: number;
  size: number | null;
  streamOffset: number;
  body: string;
  complete: boolean;
  batches: unknown[];
}
interface CliCapture {
  summary: Summary;
  capture: {
    connections: {
      index: number;
      client: string;
      server: string;
      bytes: { toServer: number; toClient: number };
      gaps: { toServer: boolean; streamOffset: number; bytes: number }[];
      messages: CliMessage[];
    }[];
  };
  diagnostics: { code: string; connection: number | null; message: number | null; packet: number | null; start: number; end: number }[];
}

const cli = (file: string) => runCliJson<CliCapture>(path.join(CAPTURES, file), ["--no-frames"]);
const messagesGrid = (page: Page): Locator => page.getByRole("grid", { name: "Messages", exact: true });
const messagesPanel = (page: Page): Locator => page.locator("section.messages-panel");
const allMessages = (c: CliCapture) => c.capture.connections.flatMap((conn) => conn.messages.map((m) => ({ conn: conn.index, ...m })));
/** The messages with a finding of their own, as "c:i". */
const withFindings = (c: CliCapture) =>
  new Set(c.diagnostics.filter((d) => d.connection !== null && d.message !== null).map((d) => `${d.connection}:${d.message}`));

/** The bytes `iggy-batch extract FILE --message C:I` (and `extra` options) writes. */
function extracted(file: string, key: string, extra: readonly string[] = []): Uint8Array {
  const out = test.info().outputPath(`message-${key.replace(":", "-")}${extra.length ? "-" + extra.join("") : ""}.bin`);
  const res = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin", "iggy-batch.mjs"), "extract", path.join(CAPTURES, file), "--message", key, "-o", out, ...extra],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  if (res.status !== 0) throw new Error(`extract ${file} --message ${key} exited ${res.status}: ${res.stderr}`);
  return new Uint8Array(readFileSync(out));
}

async function openCapture(page: Page, file: string): Promise<void> {
  await openPage(page);
  await openFile(page, path.join(CAPTURES, file));
  await expect(messagesGrid(page)).toBeVisible();
}

/** Chooses a message by its row and waits until the page names it as shown. */
async function chooseMessage(page: Page, key: string): Promise<void> {
  await messagesGrid(page).locator(`[data-message="${key}"]`).click();
  await expect(page.locator(".status-area .input-name")).toContainText(`message ${key} shown`);
  await expect(statusLine(page)).toHaveAttribute("aria-busy", "false");
}

for (const file of FILES) {
  test(`${file}: the status, the Messages rows and the Diagnostics list say what inspect --json says`, async ({ page }) => {
    const c = cli(file);
    await openCapture(page, file);
    await expect(statusLine(page)).toHaveText(summaryText(c.summary));
    const messages = allMessages(c);
    // Virtualized: aria-rowcount counts every row (and the header row).
    await expect(messagesGrid(page)).toHaveAttribute("aria-rowcount", String(messages.length + 1));
    // The first rows, in capture order (by packet), each name their message.
    const shown = await messagesGrid(page)
      .locator("[data-message]")
      .evaluateAll((rows) => rows.map((r) => ({ key: r.getAttribute("data-message"), pos: Number(r.getAttribute("data-pos")) })));
    const byPacket = [...messages].sort((a, b) => a.packet - b.packet || a.conn - b.conn || a.index - b.index);
    expect(shown.length).toBeGreaterThan(0);
    for (const r of shown) {
      const m = byPacket[r.pos]!;
      expect(r.key).toBe(`${m.conn}:${m.index}`);
    }
    // Every finding is listed; the list never says "No findings" beside a status that counts some.
    await expect(page.locator("#diagnostics-heading .count")).toHaveText(String(c.diagnostics.length));
    if (c.diagnostics.length === 0) await expect(page.getByText("No findings: every check passed.")).toBeVisible();
    const items = await diagnosticsList(page)
      .getByRole("listitem")
      .evaluateAll((els) =>
        els.map((el) => ({ pos: Number(el.getAttribute("aria-posinset")), code: el.getAttribute("data-code"), key: el.getAttribute("data-message") })),
      );
    for (const item of items) {
      const d = c.diagnostics[item.pos - 1]!;
      expect(item.code).toBe(d.code);
      if (d.message !== null) expect(item.key).toBe(`${d.connection}:${d.message}`);
      // A packet the snap length cut leads to the message its lost bytes belong to (its tcp-gap's).
      const gap = c.diagnostics.find((g) => g.code === "tcp-gap" && g.message !== null && g.connection === d.connection && g.packet === d.packet);
      if (d.code === "capture-packet-truncated" && gap) expect(item.key).toBe(`${gap.connection}:${gap.message}`);
      if (d.connection === null) expect(item.key).toBeNull();
    }
    // The connection list: endpoints, bytes each way, messages and gaps.
    const n = (v: number) => v.toLocaleString("en-US");
    const plural = (v: number, word: string) => `${n(v)} ${word}${v === 1 ? "" : "s"}`;
    for (const conn of c.capture.connections)
      await expect(page.getByRole("list", { name: "Connections" }).locator(`[data-connection="${conn.index}"]`)).toHaveText(
        `${conn.index}: ${conn.client} → ${conn.server} ${n(conn.bytes.toServer)} B to server, ${n(conn.bytes.toClient)} B to client · ${plural(conn.messages.length, "message")} · ${plural(conn.gaps.length, "gap")}`,
      );
    // Problems only keeps the messages with a finding of their own.
    await messagesPanel(page).getByLabel("Problems only").check();
    await expect(messagesGrid(page)).toHaveAttribute("aria-rowcount", String(withFindings(c).size + 1));
  });
}

test("choosing a message shows the bytes extract writes, its batches, and ← / → step messages", async ({ page }) => {
  const file = "sdk-session.pcap";
  const c = cli(file);
  await openCapture(page, file);
  const conn = c.capture.connections[0]!;
  const send = conn.messages.find((m) => m.body === "send-messages" && m.complete && m.batches.length > 0)!;
  const key = `0:${send.index}`;
  await chooseMessage(page, key);
  const bytes = extracted(file, key);
  expect(bytes.length).toBe(send.size);
  await expect(messagesGrid(page).locator(`[data-message="${key}"]`)).toHaveAttribute("aria-selected", "true");
  const shownCells = await page
    .locator("[data-offset]")
    .evaluateAll((els) => els.map((el) => [Number(el.getAttribute("data-offset")), el.textContent ?? ""] as const));
  expect(shownCells.length).toBeGreaterThan(64);
  for (const [offset, text] of shownCells) expect(text, `byte ${offset}`).toBe(bytes[offset]!.toString(16).padStart(2, "0"));
  await expect(page.getByRole("grid", { name: "Batches", exact: true })).toHaveAttribute("aria-rowcount", String(send.batches.length + 1));
  // The container panel says why the bytes read as a request: the message's command, not a format the user forced.
  await expect(page.locator(".container-panel .container-why")).toHaveText(
    `message ${key} of ${file}, client → server, whose command byte is 5 (request): read as a request`,
  );
  // The Format control governs the shown message while a capture is open, and its label says so.
  await expect(page.getByLabel("Message read as", { exact: true })).toHaveValue("request");

  // → and ← from the chosen row step to the next and previous message in the table's order.
  const row = messagesGrid(page).locator(`[data-message="${key}"]`);
  await row.focus();
  await page.keyboard.press("ArrowRight");
  const byPacket = conn.messages.map((m) => m.index).sort((a, b) => conn.messages[a]!.packet - conn.messages[b]!.packet || a - b);
  const next = byPacket[byPacket.indexOf(send.index) + 1]!;
  await expect(page.locator(".status-area .input-name")).toContainText(`message 0:${next} shown`);
  await page.keyboard.press("ArrowLeft");
  await expect(page.locator(".status-area .input-name")).toContainText(`message ${key} shown`);
});

test("stepping fast through messages (→ held down) ends on the last one stepped to, its own bytes shown", async ({ page }) => {
  const file = "sdk-session.pcap";
  const c = cli(file);
  await openCapture(page, file);
  const conn = c.capture.connections[0]!;
  const byPacket = conn.messages.map((m) => m.index).sort((a, b) => conn.messages[a]!.packet - conn.messages[b]!.packet || a - b);
  const first = `0:${byPacket[0]}`;
  await chooseMessage(page, first);
  await messagesGrid(page).locator(`[data-message="${first}"]`).focus();
  const steps = Math.min(8, byPacket.length - 1);
  // No wait between presses: each step starts reading a message while the last is still being read and shown.
  for (let i = 0; i < steps; i++) await page.keyboard.press("ArrowRight");
  const key = `0:${byPacket[steps]}`;
  await expect(page.locator(".status-area .input-name")).toContainText(`message ${key} shown`);
  await expect(statusLine(page)).toHaveAttribute("aria-busy", "false");
  const bytes = extracted(file, key);
  const shown = await page.locator("[data-offset]").evaluateAll((els) => els.slice(0, 64).map((el) => el.textContent ?? ""));
  expect(shown).toEqual([...bytes.subarray(0, shown.length)].map((b) => b.toString(16).padStart(2, "0")));
  await expect(page.locator("#hex-heading")).toContainText(`message ${key}`);
});

test("a login's secret appears nowhere on the page; its bytes show masked", async ({ page }) => {
  const file = "sdk-session.pcap";
  const secret = "capture-s3cret-Passw0rd";
  expect(Buffer.from(readFileSync(path.join(CAPTURES, file))).includes(secret)).toBe(true);
  const c = cli(file);
  await openCapture(page, file);
  const login = c.capture.connections[0]!.messages.find((m) => m.body === "login")!;
  await chooseMessage(page, `0:${login.index}`);
  const finding = c.diagnostics.find((d) => d.code === "login-in-clear")!;
  await expect(diagnosticsList(page).locator(`[data-code="login-in-clear"][data-message="0:${login.index}"]`)).toHaveCount(1);
  await expect(page.getByTestId("message-note")).toContainText("masked");
  for (let at = finding.start; at < finding.end; at++) await expect(cell(page, at)).toHaveText("2a");
  expect(await page.content()).not.toContain(secret);
  expect(await page.evaluate(() => document.body.innerText)).not.toContain(secret);
});

test("a gap between messages is listed with the message its stream resumes at; choosing it shows that message", async ({ page }) => {
  const file = "sdk-session-any-nano.pcap";
  const c = cli(file);
  await openCapture(page, file);
  const gaps = c.diagnostics.filter((d) => d.code === "tcp-gap");
  expect(gaps.length).toBeGreaterThan(0);
  const conn = c.capture.connections[0]!;
  for (const d of gaps) {
    const gap = conn.gaps.find((g) => (d.message === null ? g.streamOffset === d.start : true))!;
    const resumes = conn.messages.find((m) => m.toServer === gap.toServer && m.streamOffset >= gap.streamOffset + gap.bytes)!;
    const key = d.message === null ? `0:${resumes.index}` : `0:${d.message}`;
    const item = diagnosticsList(page).locator(`[data-code="tcp-gap"][data-message="${key}"]`);
    await expect(item).toHaveCount(1);
  }
  const first = diagnosticsList(page).locator('[data-code="tcp-gap"]').first();
  const key = (await first.getAttribute("data-message"))!;
  await first.getByRole("button").first().click();
  await expect(page.locator(".status-area .input-name")).toContainText(`message ${key} shown`);
});

test("two connections: the Connection filter keeps one connection's messages, in capture order", async ({ page }) => {
  const file = "two-clients.pcapng";
  const c = cli(file);
  expect(c.capture.connections.length).toBe(2);
  await openCapture(page, file);
  const second = c.capture.connections[1]!;
  await messagesPanel(page).getByLabel("Connection", { exact: true }).selectOption("1");
  await expect(messagesGrid(page)).toHaveAttribute("aria-rowcount", String(second.messages.length + 1));
  const keys = await messagesGrid(page)
    .locator("[data-message]")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-message")));
  expect(keys).toEqual(second.messages.slice(0, keys.length).map((m) => `1:${m.index}`));
  await messagesPanel(page).getByLabel("Direction", { exact: true }).selectOption("to-client");
  await expect(messagesGrid(page)).toHaveAttribute("aria-rowcount", String(second.messages.filter((m) => !m.toServer).length + 1));
});

test("a message the snap length cut shows only the bytes captured, and says where they stop", async ({ page }) => {
  const file = "sdk-session-snaplen-200.pcap";
  const c = cli(file);
  await openCapture(page, file);
  const cut = c.capture.connections[0]!.messages.find((m) => !m.complete && m.size !== null && m.size > 256)!;
  const key = `0:${cut.index}`;
  await chooseMessage(page, key);
  await expect(page.getByTestId("message-note")).toContainText(/were never captured/);
  const shownBytes = Number(
    /message \S+ shown \(([\d,]+) bytes\)/.exec((await page.locator(".status-area .input-name").textContent()) ?? "")![1]!.replace(/,/g, ""),
  );
  expect(shownBytes).toBeLessThan(cut.size!);
  const offsets = await page.locator("[data-offset]").evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-offset"))));
  expect(Math.max(...offsets)).toBe(shownBytes - 1);
});

test("the Messages view has no serious or critical accessibility violation (axe, WCAG 2 A and AA)", async ({ page }) => {
  await openCapture(page, "sdk-session.pcap");
  await chooseMessage(page, "0:2");
  const results = await new AxeBuilder({ page })
    .include("section.messages-panel")
    .include("section.diagnostics-panel")
    .withTags(["wcag2a", "wcag2aa"])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  expect(results.passes.length).toBeGreaterThan(5);
});

test("a share link of a capture carries the chosen message, its login secret masked", async ({ page, browser, guard }) => {
  const file = "sdk-session.pcap";
  const c = cli(file);
  await openCapture(page, file);
  const login = c.capture.connections[0]!.messages.find((m) => m.body === "login")!;
  await chooseMessage(page, `0:${login.index}`);
  const before = await page.evaluate(() => location.href);
  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect.poll(() => page.evaluate(() => location.href)).not.toBe(before);
  const href = await page.evaluate(() => location.href);
  const context = await browser.newContext({ viewport: page.viewportSize() });
  guard.watch(context);
  try {
    const other = await context.newPage();
    await other.goto(href);
    const finding = c.diagnostics.find((d) => d.code === "login-in-clear")!;
    // The message alone (its size), opened as a consensus request, the secret's bytes masked.
    await expect(other.locator(".status-area .input-name")).toContainText(`${login.size} bytes`);
    await expect(other.locator(".status-area .format-facts")).toContainText("Consensus request");
    for (let at = finding.start; at < finding.end; at++) await expect(cell(other, at)).toHaveText("2a");
    expect(await other.content()).not.toContain("capture-s3cret-Passw0rd");
  } finally {
    await context.close();
  }
});

test("Redact payloads applies to a capture's message: its batches' payloads replaced, the bytes extract --message --redact writes", async ({ page }) => {
  const file = "sdk-session.pcap";
  const c = cli(file);
  const send = allMessages(c).find((m) => m.body === "send-messages" && m.complete && m.batches.length > 0)!;
  const key = `${send.conn}:${send.index}`;
  const raw = Buffer.from(extracted(file, key));
  const redacted = Buffer.from(extracted(file, key, ["--redact"]));
  expect(redacted.length).toBe(raw.length);
  expect(redacted.includes("REDACTED")).toBe(true);
  await openCapture(page, file);
  await chooseMessage(page, key);
  await page.getByRole("checkbox", { name: "Redact payloads" }).check();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download redacted .bin" }).click()]);
  const got = Buffer.from(readFileSync(await download.path()));
  expect(got.equals(raw)).toBe(false);
  expect(got.equals(redacted)).toBe(true);
});

test("a capture begun mid-connection on port 18390 holds no Iggy connection until Settings names the port; then it reads as inspect --port 18390 does", async ({
  page,
}) => {
  const file = path.join(ROOT, "test", "fixtures", "captures", "late-start-18390.pcap");
  const plain = runCliJson<CliCapture>(file, ["--no-frames"]);
  const onPort = runCliJson<CliCapture>(file, ["--no-frames", "--port", "18390"]);
  expect(plain.capture.connections.length).toBe(0);
  expect(onPort.capture.connections.length).toBe(1);
  await openPage(page);
  await openFile(page, file);
  await expect(statusLine(page)).toHaveText(summaryText(plain.summary));
  await expect(page.locator(".status-area .input-name")).toContainText("0 Iggy connections");

  await page.getByText("Settings", { exact: true }).click();
  await page.getByLabel("Iggy server port in captures").fill("18390");
  await page.getByText("Settings", { exact: true }).click();
  // The same capture opened again (under another name: the page tells inputs apart by name).
  const again = test.info().outputPath("late-start-again.pcap");
  copyFileSync(file, again);
  await openFile(page, again);
  await expect(statusLine(page)).toHaveText(summaryText(onPort.summary));
  await expect(page.locator(".status-area .input-name")).toContainText("1 Iggy connection");
  const messages = onPort.capture.connections[0]!.messages;
  await expect(messagesGrid(page)).toHaveAttribute("aria-rowcount", String(messages.length + 1));
  for (const m of messages) await expect(messagesGrid(page).locator(`[data-message="0:${m.index}"]`)).toHaveCount(1);
  // Kept in this browser: a reload still reads captures on that port.
  await page.reload();
  await page.getByText("Settings", { exact: true }).click();
  await expect(page.getByLabel("Iggy server port in captures")).toHaveValue("18390");
});
