/**
 * Bidi overrides and control characters from an input (issue 22, item 7) never reach the CLI's output raw: a file
 * name, a payload and a user-header key holding U+202E, U+2066, U+200F and CR show as the visible escapes of
 * lib/text-escape.ts in `inspect`, `messages` and the SVG of `render`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeBatch } from "../src/core/walk/encode.ts";
import { loadHashWasmXxh3 } from "../test/reference-walk.ts";
import { runCli } from "./spawn-cli.test-util.ts";

const xxh = await loadHashWasmXxh3();
const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-escape-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// eslint-disable-next-line no-control-regex -- the raw characters are what must not appear
const RAW = /[\u202e\u2066\u200f\r\u0007]/;
const NAME = "gol\u202eexe.\r\u2066bin";
const batch = encodeBatch(xxh, {
  messages: [
    {
      payload: "pay\u202eload\r\u200f\u0007",
      userHeaders: [{ key: { kind: "string", value: "k\u202eey\r" }, value: { kind: "string", value: "v\u2066al" } }],
    },
  ],
});
const file = join(tmp, NAME);
writeFileSync(file, batch);

describe("input text in the CLI's output", () => {
  it("inspect: the file name is escaped", async () => {
    const r = await runCli(["inspect", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain("gol\\u202eexe.\\x0d\\u2066bin");
  });

  it("messages: the payload preview, the header keys and the file name are escaped", async () => {
    const r = await runCli(["messages", tmp]);
    expect(r.stdout).not.toMatch(RAW);
    const one = await runCli(["messages", file]);
    expect(one.stdout).not.toMatch(RAW);
    expect(one.stdout).toContain("[k\\u202eey\\x0d]");
    expect(one.stdout).toContain("pay\\u202eload");
    const template = await runCli(["messages", file, "--format", "%h\\n"]);
    expect(template.stdout).toBe("k\\u202eey\\x0d\n");
  });

  it("render: the SVG's caption shows the name's escapes, never the raw characters", async () => {
    const out = join(tmp, "picture.svg");
    const r = await runCli(["render", file, "--range", "0..64", "--out", out]);
    expect(r.code).toBe(0);
    const svg = readFileSync(out, "utf8");
    expect(svg).not.toMatch(RAW);
    expect(svg).toContain("gol\\u202eexe.\\x0d\\u2066bin");
  });
});
