/**
 * The reports as a tracker shows them: the Markdown rendered by marked (GFM) holds the summary table,
 * the diagnostics, a <details> per affected batch with carets under the bad bytes, and no element,
 * link or table break from the input; sizes stay bounded on many findings; the text variant says the same.
 */
import { readFileSync } from "node:fs";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../walk/analyze.ts";
import { encodeBatch } from "../walk/encode.ts";
import { renderMarkdownReport, type ReportInput } from "./report.ts";
import { renderTextReport } from "./report-text.ts";
import { renderHexSvg } from "./render-svg.ts";
import { redactCopy } from "../edit/redact.ts";
import { LIGHT_PALETTE } from "../view/palette.ts";
import { parseXml } from "../../../test/xml-wellformed.ts";
import { concat, setU64, xxh } from "../../../test/helpers.ts";

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../test/fixtures/corpus/${f}`, import.meta.url)));
const info = (name: string, extra: Partial<ReportInput> = {}): ReportInput => ({ name, sha256: "ab".repeat(32), toolVersion: "9.9.9", ...extra });
const render = (md: string) => marked.parse(md, { gfm: true, async: false });
/** Every element name in rendered HTML; marked escapes text, so each `<name` is a real element. */
const elements = (html: string) => [...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());
const ALLOWED = new Set([
  "h1",
  "h2",
  "h4",
  "p",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "blockquote",
  "strong",
  "code",
  "pre",
  "details",
  "summary",
  "ul",
  "li",
  "a",
  "img",
]);

/** Offsets the caret lines of an xxd excerpt mark, read back from the text. */
function markedOffsets(excerpt: string): number[] {
  const lines = excerpt.split("\n");
  const out: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith(" ".repeat(10)) || !line.includes("^")) continue;
    const row = parseInt(lines[i - 1]!.slice(0, 8), 16);
    for (let k = 0; k < 16; k++) if (line[10 + 2 * k + Math.floor(k / 2)] === "^") out.push(row + k);
  }
  return out;
}

// A batch whose name, payload and user headers are HTML and Markdown, with a broken frame checksum so the frame is reported.
const HOSTILE_NAME = `<img src=x onerror=alert(1)> [click](javascript:alert(1)) | **bold** www.example.com \u202e\`code\``;
function hostileBatch(): Uint8Array {
  const bytes = encodeBatch(xxh, {
    originTimestamp: 1n,
    messages: [
      {
        payload: `<script>alert("payload")</script>|<iframe src="https://evil.example/">`,
        userHeaders: [{ key: { kind: "string", value: "<b onmouseover=x>key</b>" }, value: { kind: "string", value: "<style>*{}</style>![x](http://e/)" } }],
      },
      { payload: "<a href='x'>second</a>" },
    ],
  });
  setU64(bytes, 256, 0x1234n);
  return bytes;
}

describe("Markdown report", () => {
  it("renders with no element, link or image from the input, and shows the input's text literally", () => {
    const bytes = hostileBatch();
    const a = analyzeWith(xxh, bytes);
    expect(a.diagnostics.map((d) => d.code)).toContain("frame-checksum-mismatch");
    const md = renderMarkdownReport(
      a,
      bytes,
      info(HOSTILE_NAME, { redacted: { originalSha256: "cd".repeat(32), what: "<img src=x onerror=alert(2)> [a](http://x)" } }),
    );
    const html = render(md);
    for (const el of elements(html)) expect(ALLOWED.has(el), `<${el}> in the rendered report`).toBe(true);
    expect(elements(html).filter((e) => e === "img")).toHaveLength(0);
    expect(elements(html).filter((e) => e === "a")).toHaveLength(0);
    expect(html).not.toMatch(/<(strong|code)>(bold|code)</);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;script&gt;alert(&quot;payload&quot;)&lt;/script&gt;");
    expect(html).toContain("&lt;b onmouseover=x&gt;key&lt;/b&gt;");
    expect(html).toContain("\\u202e");
    // Each table row keeps its seven cells: no `|` from the input split one.
    const diagRows = html.split(">Diagnostics</h2>")[1]!.split("<tbody>")[1]!.split("</tbody>")[0]!.split("<tr>").slice(1);
    expect(diagRows.length).toBe(a.diagnostics.length);
    for (const row of diagRows) expect(row.match(/<td/g)).toHaveLength(7);
    const facts = html.split("<tbody>")[1]!.split("</tbody>")[0]!.split("<tr>").slice(1);
    for (const row of facts) expect(row.match(/<td/g)).toHaveLength(2);
  });

  it("has a summary table, the diagnostics, and a <details> per affected batch with carets under the bad bytes", () => {
    const bytes = corpus("19-segment-4-batch2-bad-frame.bin");
    const md = renderMarkdownReport(analyzeWith(xxh, bytes), bytes, info("19.bin", { shareLink: "http://127.0.0.1:5173/#iggy1.abc" }));
    const html = render(md);
    // The findings axis, counted; a plain batch file has no server axis.
    const summary = analyzeWith(xxh, bytes).summary;
    expect(html).toContain(
      `<td>findings</td>\n<td><strong>${summary.errors} error${summary.errors === 1 ? "" : "s"}, ${summary.warnings} warning${summary.warnings === 1 ? "" : "s"}</strong></td>`,
    );
    expect(html).not.toContain("<td>server</td>");
    // Each finding says why: the server's behaviour and the upstream source that decides it.
    expect(html).toMatch(/<strong>Server:<\/strong> .*<strong>Likely causes:<\/strong>/);
    expect(html).toContain("<code>core/binary_protocol/src/batch.rs");
    expect(html).toContain('<a href="http://127.0.0.1:5173/#iggy1.abc">open in Iggy Batch Explorer</a>');
    expect(html.match(/<details>/g)).toHaveLength(1);
    expect(html).toMatch(/<summary>Batch 1 at 0x2b5\.\.0x51d, stamped, 3 complete frames: 1 error, 0 warnings, 0 infos<\/summary>/);
    const excerpt = md.split("<details>")[1]!.split("```text\n")[1]!.split("\n```")[0]!;
    expect(markedOffsets(excerpt)).toEqual([0x3b5, 0x3b6, 0x3b7, 0x3b8, 0x3b9, 0x3ba, 0x3bb, 0x3bc]);
  });

  it("embeds the picture as a data URL that decodes to a well-formed SVG", () => {
    const bytes = corpus("11-frame-checksum-mismatch.bin");
    const a = analyzeWith(xxh, bytes);
    const svg = renderHexSvg(a, bytes, { name: "11.bin", sha256: "ab".repeat(32), start: 0, end: 400, palette: LIGHT_PALETTE });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
    const html = render(renderMarkdownReport(a, bytes, info("11.bin", { image: { src, caption: "bytes <0..400>" } })));
    const img = /<img src="([^"]+)" alt="([^"]*)"/.exec(html);
    expect(img?.[2]).toBe("bytes &lt;0..400&gt;");
    expect(parseXml(Buffer.from(img![1]!.split(",")[1]!, "base64").toString("utf8")).name).toBe("svg");
  });

  it("stays bounded on an input with thousands of findings, counting what it leaves out", () => {
    const one = encodeBatch(xxh, { messages: Array.from({ length: 200 }, (_, i) => ({ payload: `m${i}` })) });
    // Every frame checksum broken, in 30 batches: 6,000 errors.
    const batches = Array.from({ length: 30 }, () => {
      const b = one.slice();
      const a = analyzeWith(xxh, b);
      for (let i = 0; i < a.frames.count; i++) b[a.frames.start[i] as number]! ^= 1;
      return b;
    });
    const bytes = concat(batches);
    const a = analyzeWith(xxh, bytes);
    expect(a.summary.errors).toBeGreaterThanOrEqual(6000);
    const md = renderMarkdownReport(a, bytes, info("many.bin"));
    expect(md.split("\n").length).toBeLessThan(2500);
    expect(md).toContain(`${(a.diagnostics.length - 200).toLocaleString("en-US")} more diagnostics are not listed`);
    expect(md.match(/<details>/g)).toHaveLength(20);
    expect(md).toContain("10 more affected batches are not shown.");
    expect(md.match(/```text/g)).toHaveLength(50);
    const text = renderTextReport(a, bytes, info("many.bin"));
    expect(text.split("\n").length).toBeLessThan(2500);
  });

  it("says so when it shows a redacted copy", () => {
    const bytes = corpus("11-frame-checksum-mismatch.bin");
    const a = analyzeWith(xxh, bytes);
    const copy = redactCopy(xxh, bytes, a).bytes;
    const html = render(
      renderMarkdownReport(analyzeWith(xxh, copy), copy, info("11.bin", { redacted: { originalSha256: "cd".repeat(32), what: "payloads" } })),
    );
    expect(html).toContain("<blockquote>\n<p><strong>Redacted copy.</strong> Payloads were replaced");
    expect(html).toContain("cd".repeat(32));
    expect(html).toContain("REDACTED");
  });
});

describe("plain-text report", () => {
  it("holds the facts, every listed diagnostic, and the excerpts, with controls made visible", () => {
    const bytes = hostileBatch();
    const a = analyzeWith(xxh, bytes);
    const text = renderTextReport(a, bytes, info("evil\u001b[31mred\u202e.bin"));
    expect(text).toContain("input     evil\\x1b[31mred\\u202e.bin".replace("input     ", "input       "));
    // eslint-disable-next-line no-control-regex -- no control character may reach the text
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
    expect(text).toMatch(new RegExp(`findings {4}${a.summary.errors} errors?, ${a.summary.warnings} warnings?`));
    expect(text).toMatch(/ {5}upstream: {3}apache\/iggy core\//);
    for (const d of a.diagnostics) expect(text).toContain(`${d.code}: ${d.message}`);
    expect(text).toContain("^^^^");
    expect(text).not.toContain("|---");
  });
});
