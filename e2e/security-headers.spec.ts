/**
 * The security headers (issue 10): the preview server of the production build (what `npm start` runs)
 * sends a CSP with frame-ancestors 'none' and the other headers on every response, the page decodes
 * its sample under them, no page can frame it, and dist/_headers carries the same headers.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, openPage, parseSummary, ROOT, test } from "./fixtures.ts";

const metaPolicy = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(readFileSync(path.join(ROOT, "index.html"), "utf8"))?.[1];
const EXPECTED = {
  "content-security-policy": `${metaPolicy}; frame-ancestors 'none'`,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

test("the page and its scripts come with the security headers, and the sample still decodes under them", async ({ page }) => {
  expect(metaPolicy).toMatch(/default-src 'self'/);
  const documents: Promise<Record<string, string>>[] = [];
  const scripts: Promise<Record<string, string> | null>[] = [];
  page.on("response", (r) => {
    const kind = r.request().resourceType();
    if (kind === "document") documents.push(r.allHeaders());
    // Scripts and the workers; a 304 revalidation carries no headers of its own (the cached ones stay).
    // A revalidation (a second worker of the same script) may be answered 304 and reported as 200 from cache: only first fetches count.
    else if (/\.js$/.test(new URL(r.url()).pathname) && r.status() === 200)
      scripts.push(
        r
          .request()
          .allHeaders()
          .then((q) => (q["if-none-match"] || q["if-modified-since"] ? null : r.allHeaders())),
      );
  });
  // The guard fixture fails the test on any console error, CSP violations included.
  expect(parseSummary(await openPage(page)).batches).toBeGreaterThan(0);
  expect(documents).toHaveLength(1);
  expect(await documents[0]).toMatchObject(EXPECTED);
  expect(scripts.length).toBeGreaterThan(0);
  const fetched = (await Promise.all(scripts)).filter((h) => h !== null);
  expect(fetched.length).toBeGreaterThan(0);
  for (const headers of fetched) expect(headers).toMatchObject(EXPECTED);
});

test("another page cannot frame the explorer", async ({ browser, baseURL }) => {
  // A context of its own: the refusal is logged as a console error, which the guard would count.
  const context = await browser.newContext();
  try {
    const host = await context.newPage();
    const refusals: string[] = [];
    host.on("console", (m) => {
      if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
    });
    // setContent waits for the host's load event, which waits for the frame's navigation to end.
    await host.setContent(`<iframe src="${baseURL}/" width="800" height="600"></iframe>`);
    await expect.poll(() => refusals.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(refusals[0]).toMatch(/frame-ancestors 'none'/);
    const framed = host.frames().find((f) => f !== host.mainFrame());
    expect(framed).toBeDefined();
    expect(await framed!.locator("#root").count()).toBe(0);
  } finally {
    await context.close();
  }
});

test("dist/_headers gives static hosts the same headers for every path", async ({ request }) => {
  const served = (await request.get("/")).headers();
  const file = readFileSync(path.join(ROOT, "dist", "_headers"), "utf8");
  const lines = file.trim().split("\n");
  expect(lines[0]).toBe("/*");
  const fromFile = Object.fromEntries(
    lines.slice(1).map((l) => {
      const at = l.indexOf(":");
      return [l.slice(0, at).trim().toLowerCase(), l.slice(at + 1).trim()];
    }),
  );
  expect(fromFile).toEqual(EXPECTED);
  for (const [name, value] of Object.entries(fromFile)) expect(served[name]).toBe(value);
});
