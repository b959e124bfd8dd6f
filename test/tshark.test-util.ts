/** Running Debian's tshark from tests: whether it is installed, a run with a Lua script, an empty capture to run it over. */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** True when `tshark` runs here; tests that need it are skipped (with a message) otherwise. */
export const HAS_TSHARK = spawnSync("tshark", ["--version"], { stdio: "ignore" }).status === 0;
if (!HAS_TSHARK) console.warn("tshark is not installed: the Wireshark dissector tests are skipped (apt-get install tshark)");

/** Runs tshark with `args` (never reading a terminal); throws with its stderr on a nonzero exit. */
export function tshark(args: readonly string[], env: Record<string, string> = {}): string {
  const r = spawnSync("tshark", ["-n", ...args], { encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`tshark ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return r.stdout;
}

/** Writes a pcap with no packets (what tshark reads while a Lua script runs at load time) into dir. */
export function emptyPcap(dir: string): string {
  const path = join(dir, "empty.pcap");
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(65535, 16);
  header.writeUInt32LE(1, 20);
  writeFileSync(path, header);
  return path;
}
