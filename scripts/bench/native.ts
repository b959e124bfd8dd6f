/**
 * The native reference of `npm run bench`: scripts/bench/verify.c compiled at bench time with the
 * system's cc and libxxhash (Debian: libxxhash-dev), run in memory or as a whole process.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), "verify.c");

/**
 * Compiles verify.c once into the temp dir, in a folder named by the source's and the compiler's hash (later
 * runs reuse it rather than leave a new folder each); the reason instead when cc or libxxhash is missing.
 */
export function buildNativeVerifier(): { path: string } | { missing: string } {
  const cc = process.env.CC ?? "cc";
  const key = createHash("sha256").update(readFileSync(SOURCE)).update(cc).digest("hex").slice(0, 12);
  const dir = join(tmpdir(), `iggy-bench-c-${key}`);
  const out = join(dir, "verify");
  if (existsSync(out)) return { path: out };
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync(cc, ["-O2", "-o", out, SOURCE, "-lxxhash"], { stdio: ["ignore", "ignore", "pipe"] });
    return existsSync(out) ? { path: out } : { missing: "cc wrote no binary" };
  } catch (err) {
    return {
      missing: `cc -O2 verify.c -lxxhash failed (${
        String((err as { stderr?: Buffer }).stderr ?? err)
          .trim()
          .split("\n")[0]
      })`,
    };
  }
}

/** Nanoseconds of each of `runs` in-memory walks of the file (read once, untimed). */
export function nativeInMemoryNs(verifier: string, file: string, runs: number): number[] {
  const r = spawnSync(verifier, [file, "--memory", String(runs)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`native verifier failed on ${file}: ${r.stderr}`);
  return r.stdout.trim().split("\n").map(Number);
}

/** Wall seconds, CPU seconds and peak RSS (KiB) of one whole process, from GNU time. */
export function timeProcess(
  cmd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { seconds: number; maxRssKiB: number; status: number | null; cpuSeconds: number } {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", cmd, ...args], { encoding: "utf8", env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 26 });
  const last = r.stderr.trim().split("\n").at(-1) ?? "";
  const [seconds, rss, user, system] = last.split(" ").map(Number);
  if (!(seconds! >= 0) || !(rss! > 0)) throw new Error(`could not time ${cmd} ${args.join(" ")}: ${r.stderr}`);
  // CPU seconds (user + system, every thread) as well: on a shared machine they move less than wall time.
  return { seconds: seconds!, maxRssKiB: rss!, status: r.status, cpuSeconds: user! + system! };
}

/** Whether GNU time is there to measure whole processes. */
export const hasGnuTime = (): boolean => existsSync("/usr/bin/time");
