/**
 * Every file of the public corpus, opened through the page's "Open batch file" input: the status
 * line and the Diagnostics list must say exactly what the real CLI says of the same file
 * (`node bin/iggy-batch.mjs inspect FILE --json`), and the CLI must agree with the manifest's
 * expectations (the same rules as test/fixtures/corpus/check.py), so the page is held to the manifest.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import {
  CORPUS_DIR,
  ROOT,
  expect,
  loadManifest,
  openCorpus,
  openPage,
  readDiagnostics,
  statusLine,
  summaryText,
  test,
  type CliReport,
  type CorpusCase,
  type CorpusManifest,
} from "./fixtures.ts";

const manifest = loadManifest();

// One CLI run per corpus file, started together (a few at a time) before the first test.
const cli = new Map<string, { status: number; report: CliReport }>();
const run = promisify(execFile);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const queue = [...manifest.cases];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const file = path.join(CORPUS_DIR, c.file);
      let stdout: string;
      let status = 0;
      try {
        ({ stdout } = await run(process.execPath, [path.join(ROOT, "bin", "iggy-batch.mjs"), "inspect", file, "--json"], { cwd: ROOT, maxBuffer: 64 << 20 }));
      } catch (err) {
        const e = err as { code?: number; stdout?: string; stderr?: string };
        if (e.code !== 1 || !e.stdout) throw new Error(`iggy-batch inspect ${c.file} failed (${e.code}): ${e.stderr}`, { cause: err });
        status = 1;
        stdout = e.stdout;
      }
      cli.set(c.file, { status, report: JSON.parse(stdout) as CliReport });
    }
  };
  await Promise.all([worker(), worker(), worker()]);
});

/** check.py's rules: the CLI's answer for a case is what the manifest expects. */
function checkCliAgainstManifest(m: CorpusManifest, c: CorpusCase, status: number, report: CliReport): void {
  const where = `${c.file}: CLI vs manifest`;
  expect(report.summary.batches, where).toBe(c.batches);
  expect(report.batches.length, where).toBe(c.batches);
  expect(report.summary.frames, where).toBe(c.frames);
  const diags = report.diagnostics;
  const allowed = new Set([...c.expect.map((e) => e.code), ...c.allow]);
  for (const d of diags) {
    expect(allowed.has(d.code), `${where}: unexpected ${d.code} at ${d.start}`).toBe(true);
    expect(d.severity, `${where}: severity of ${d.code}`).toBe(m.severities[d.code]);
  }
  // A code that is expected and not also allowed appears exactly as often as expected.
  for (const code of new Set(c.expect.map((e) => e.code))) {
    if (c.allow.includes(code)) continue;
    expect(diags.filter((d) => d.code === code).length, `${where}: number of ${code}`).toBe(c.expect.filter((e) => e.code === code).length);
  }
  // Each expected entry has its own diagnostic of its code and severity whose range holds `at`.
  const used = new Set<number>();
  for (const e of c.expect) {
    const i = diags.findIndex(
      (d, k) => !used.has(k) && d.code === e.code && d.severity === e.severity && d.start <= e.at && e.at < Math.max(d.end, d.start + 1),
    );
    expect(i, `${where}: expected ${e.code} covering byte ${e.at}`).toBeGreaterThanOrEqual(0);
    used.add(i);
  }
  // Counts: each severity counted apart, and the summary is the list's tally.
  const tally = (s: string) => diags.filter((d) => d.severity === s).length;
  expect(report.summary.errors, where).toBe(tally("error"));
  expect(report.summary.warnings, where).toBe(tally("warning"));
  expect(report.summary.infos, where).toBe(tally("info"));
  const expectedErrors = c.expect.filter((e) => e.severity === "error").length;
  const allowedErrors = c.allow.filter((code) => m.severities[code] === "error");
  expect(report.summary.errors, where).toBeGreaterThanOrEqual(expectedErrors);
  if (allowedErrors.length === 0) expect(report.summary.errors, where).toBe(expectedErrors);
  expect(report.summary.warnings, where).toBe(
    c.expect.filter((e) => e.severity === "warning").length + diags.filter((d) => c.allow.includes(d.code) && d.severity === "warning").length,
  );
  const allowedErrorSeen = diags.some((d) => c.allow.includes(d.code) && d.severity === "error");
  expect(status, `${where}: exit status`).toBe(c.exit === 1 || allowedErrorSeen ? 1 : 0);
}

test.describe("corpus through Open batch file", () => {
  // One page opens every file in turn, as a person would (and much faster than a page per file).
  test("the manifest lists 26 files", () => {
    expect(manifest.cases).toHaveLength(26);
  });

  for (const c of manifest.cases) {
    test(c.file, async ({ sharedPage: page }) => {
      const result = cli.get(c.file);
      expect(result, `CLI result for ${c.file}`).toBeDefined();
      const { status, report } = result!;
      checkCliAgainstManifest(manifest, c, status, report);

      if (page.url() === "about:blank") await openPage(page);
      const shown = await openCorpus(page, c.file);
      // The page's summary is exactly the CLI's.
      expect(shown).toBe(summaryText(report.summary));
      await expect(statusLine(page)).toHaveText(summaryText(report.summary));
      await expect(page.locator(".status-area .input-name")).toContainText(`${c.size.toLocaleString("en-US")} bytes`);

      // The Diagnostics list is the CLI's diagnostics, in order.
      const listed = await readDiagnostics(page);
      expect(listed).toEqual(report.diagnostics.map((d) => ({ code: d.code, severity: d.severity })));
      for (const e of c.expect) {
        expect(
          listed.map((d) => d.code),
          `${c.file}: the list names ${e.code}`,
        ).toContain(e.code);
      }
      // Every finding is drawn on its bytes: each range's first byte is a problem cell (when rendered).
      for (const d of report.diagnostics.slice(0, 5)) {
        const first = page.locator(`[data-offset="${d.start}"]`);
        if (d.end > d.start && (await first.count()) > 0) await expect(first).toHaveAttribute("data-problem", /^(error|warning|info)$/);
      }
    });
  }
});
