/**
 * A File opened on demand is walked by the analysis worker or by range workers of its own (all
 * cores), read as one stream or several at once from guessed batch starts, and either way the page
 * shows what reading the file whole shows: the same summary and the same findings, in the same order,
 * for faults planted in batches far apart, a batch_length the walk cannot step over, and batches
 * carried inside payloads (where a guess lands on a batch that is not one of the file's).
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, openFile, openPage, readDiagnostics, statusLine, test } from "./fixtures.ts";
import { bigSegment } from "./big-segment.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { concat, encodeBatch } from "../src/core/walk/encode.ts";
import type { Page } from "@playwright/test";

const ON_DEMAND = ["/?on-demand-from=0&range-workers=2", "/?on-demand-from=0&range-workers=3", "/?on-demand-from=0&range-workers=0", "/?on-demand-from=0"];

// Opens the file whole, then on demand each way, and expects the same status line and findings every time.
async function expectSameEveryWay(page: Page, file: string): Promise<Awaited<ReturnType<typeof readDiagnostics>>> {
  await openPage(page, `/?on-demand-from=${Number.MAX_SAFE_INTEGER}`);
  await openFile(page, file);
  const whole = await statusLine(page).innerText();
  const wholeFindings = await readDiagnostics(page);
  await expect(page.getByTestId("on-demand-note")).toHaveCount(0);
  for (const url of ON_DEMAND) {
    await openPage(page, url);
    await openFile(page, file);
    await expect(page.getByTestId("on-demand-note")).toBeVisible();
    expect(await statusLine(page).innerText(), url).toBe(whole);
    expect(await readDiagnostics(page), url).toEqual(wholeFindings);
  }
  return wholeFindings;
}

test("range workers on the page find what the whole-file decode finds", async ({ page }) => {
  test.setTimeout(120_000);
  const { file, plan } = await bigSegment(8);
  const bytes = new Uint8Array(readFileSync(file));
  // A payload byte of the first frame of three batches far apart: each breaks its frame's checksum.
  const hit = [1, Math.floor(plan.batches / 2), plan.batches - 2];
  for (const b of hit) bytes[b * plan.batchBytes + 256 + 48 + 7]! ^= 0xff;
  const faulty = path.join(os.tmpdir(), "iggy-e2e-pool-00000000000000000000.log");
  writeFileSync(faulty, bytes);
  const findings = await expectSameEveryWay(page, faulty);
  expect(findings.filter((d) => d.code === "frame-checksum-mismatch")).toHaveLength(hit.length);
});

test("a batch_length the walk cannot step over, mid-file, reads the same on demand", async ({ page }) => {
  test.setTimeout(120_000);
  const { file, plan } = await bigSegment(8);
  const bytes = new Uint8Array(readFileSync(file));
  const broken = Math.floor(plan.batches * 0.4);
  // batch_length (offset 32) of one batch set to 100, below a header's 256 bytes.
  new DataView(bytes.buffer).setBigUint64(broken * plan.batchBytes + 32, 100n, true);
  const faulty = path.join(os.tmpdir(), "iggy-e2e-stuck-00000000000000000000.log");
  writeFileSync(faulty, bytes);
  const findings = await expectSameEveryWay(page, faulty);
  expect(findings.some((d) => d.code === "batch-length-too-small")).toBe(true);
});

test("batches carried inside payloads read the same on demand", async ({ page }) => {
  test.setTimeout(120_000);
  const xxh = await loadXxh3();
  const inner = encodeBatch(xxh, { messages: [{ payload: new Uint8Array(40).fill(7) }, { payload: new Uint8Array(9).fill(1) }] });
  const outer = encodeBatch(xxh, { messages: Array.from({ length: 2000 }, () => ({ payload: inner })) });
  const file = path.join(os.tmpdir(), "iggy-e2e-nested-00000000000000000000.log");
  writeFileSync(file, concat([outer, outer, outer]));
  await expectSameEveryWay(page, file);
});
