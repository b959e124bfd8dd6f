/**
 * A File opened on demand is walked by the analysis worker or by range workers of its own (all
 * cores), and either way the page shows what reading the file whole shows: the same summary and the
 * same findings, in the same order, for faults planted in batches far apart.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, openFile, openPage, readDiagnostics, statusLine, test } from "./fixtures.ts";
import { bigSegment } from "./big-segment.ts";

test("range workers on the page find what the whole-file decode finds", async ({ page }) => {
  test.setTimeout(120_000);
  const { file, plan } = await bigSegment(8);
  const bytes = new Uint8Array(readFileSync(file));
  // A payload byte of the first frame of three batches far apart: each breaks its frame's checksum.
  const hit = [1, Math.floor(plan.batches / 2), plan.batches - 2];
  for (const b of hit) bytes[b * plan.batchBytes + 256 + 48 + 7]! ^= 0xff;
  const faulty = path.join(os.tmpdir(), "iggy-e2e-pool-00000000000000000000.log");
  writeFileSync(faulty, bytes);

  await openPage(page, `/?on-demand-from=${Number.MAX_SAFE_INTEGER}`);
  await openFile(page, faulty);
  const whole = await statusLine(page).innerText();
  const wholeFindings = await readDiagnostics(page);
  expect(wholeFindings.filter((d) => d.code === "frame-checksum-mismatch")).toHaveLength(hit.length);
  await expect(page.getByTestId("on-demand-note")).toHaveCount(0);

  for (const url of ["/?on-demand-from=0&range-workers=2", "/?on-demand-from=0"]) {
    await openPage(page, url);
    await openFile(page, faulty);
    await expect(page.getByTestId("on-demand-note")).toBeVisible();
    expect(await statusLine(page).innerText(), url).toBe(whole);
    expect(await readDiagnostics(page), url).toEqual(wholeFindings);
  }
});
