/**
 * The precompiled CLI (issue 9 item 5): scripts/build-cli.mjs bundles the command into one module that
 * behaves as the sources do, and bin/iggy-batch.mjs runs it only while no input has changed since.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BROKEN = join(ROOT, "test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin");
const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-built-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const node = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 });

describe("scripts/build-cli.mjs", () => {
  it("bundles a module whose main() gives the same output and status as the sources", () => {
    const out = join(tmp, "dist-cli");
    execFileSync(process.execPath, [join(ROOT, "scripts/build-cli.mjs"), "--out-dir", out], { cwd: ROOT, stdio: "pipe" });
    const runBuilt = (args: string[]) =>
      node([
        "--input-type=module",
        "-e",
        `const { main } = await import(${JSON.stringify(pathToFileURL(join(out, "iggy-batch.mjs")).href)}); process.exitCode = await main(${JSON.stringify(args)});`,
      ]);
    const fromSource = (args: string[]) => node([join(ROOT, "bin/iggy-batch.mjs"), ...args], { IGGY_BATCH_FROM_SOURCE: "1" });
    for (const args of [["inspect", BROKEN, "--json"], ["report", BROKEN], ["--version"]]) {
      const built = runBuilt(args);
      const source = fromSource(args);
      expect(built.stderr).toBe("");
      expect({ status: built.status, stdout: built.stdout }).toEqual({ status: source.status, stdout: source.stdout });
    }
  });
});

describe("bin/iggy-batch.mjs chooses the build only while it is fresh", () => {
  // A copy of bin/ beside a fake build and fake sources that say which of them ran.
  const tree = join(tmp, "tree");
  mkdirSync(join(tree, "bin"), { recursive: true });
  mkdirSync(join(tree, "dist-cli"));
  mkdirSync(join(tree, "cli"));
  cpSync(join(ROOT, "bin/iggy-batch.mjs"), join(tree, "bin/iggy-batch.mjs"));
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  writeFileSync(join(tree, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(tree, "cli/main.ts"), 'export async function main(): Promise<number> { process.stdout.write("source"); return 0; }\n');
  writeFileSync(join(tree, "dist-cli/iggy-batch.mjs"), 'export async function main() { process.stdout.write("built"); return 0; }\n');
  const builtAt = Date.now();
  const past = new Date(builtAt - 60_000);
  utimesSync(join(tree, "cli/main.ts"), past, past);
  writeFileSync(join(tree, "dist-cli/inputs.json"), JSON.stringify({ builtAt, files: ["cli/main.ts"] }));
  const which = (env: Record<string, string> = {}) => node([join(tree, "bin/iggy-batch.mjs")], env).stdout;

  it("runs the build when no input changed since it started", () => {
    expect(which()).toBe("built");
    expect(which({ IGGY_BATCH_FROM_SOURCE: "1" })).toBe("source");
  });

  it("runs the sources once an input is newer than the build, or gone, or the list is missing", () => {
    const now = new Date(builtAt + 1000);
    utimesSync(join(tree, "cli/main.ts"), now, now);
    expect(which()).toBe("source");
    utimesSync(join(tree, "cli/main.ts"), past, past);
    expect(which()).toBe("built");
    writeFileSync(join(tree, "dist-cli/inputs.json"), JSON.stringify({ builtAt, files: ["cli/main.ts", "cli/gone.ts"] }));
    expect(which()).toBe("source");
    rmSync(join(tree, "dist-cli/inputs.json"));
    expect(which()).toBe("source");
  });
});
