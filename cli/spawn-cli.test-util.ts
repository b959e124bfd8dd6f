/** Runs the real iggy-batch command in a child process, as the CLI tests and a shell do. */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root and the bin the package declares. */
export const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
export const BIN = join(ROOT, "bin/iggy-batch.mjs");

/** What one run of the command gave. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `iggy-batch ARGS` with `stdin` (empty by default) and collects its exit status and output. */
export function runCli(args: readonly string[], stdin?: Uint8Array): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.on("error", () => undefined); // a command that exits before reading its input
    child.stdin.end(stdin ?? new Uint8Array(0));
  });
}
