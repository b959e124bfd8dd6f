import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { renderFieldDocs } from "./field-docs.ts";
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS } from "./fields.ts";

describe("generated layout docs", () => {
  it("docs/FIELDS.md is what the field table generates (run `npm run docs` after changing the table)", () => {
    expect(readFileSync(new URL("../../docs/FIELDS.md", import.meta.url), "utf8")).toBe(renderFieldDocs());
  });
  it("lists every field with its offset", () => {
    const md = renderFieldDocs();
    for (const f of [...BATCH_HEADER_FIELDS, ...FRAME_HEADER_FIELDS]) expect(md).toContain(`| ${f.offset} | ${f.size} | \`${f.name}\` |`);
  });
});
