/**
 * `npm run bench -- --capture [--capture-size 1G]` (issue #24): a capture of Iggy traffic, written once
 * and kept in the temp dir (capture-traffic.ts), then whole-process runs interleaved run by run:
 * `iggy-batch inspect FILE --json --no-frames` against the C verifier over the same batches laid end to
 * end, and against `tshark -r FILE -q` reading the same file; GNU time gives wall seconds and peak RSS.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadXxh3 } from "../../src/checksum/xxh3.ts";
import { CAPTURE_BATCHES, CAPTURE_MSS, writeCaptureTraffic, type CaptureTraffic } from "./capture-traffic.ts";
import { hasGnuTime, timeProcess } from "./native.ts";

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../bin/iggy-batch.mjs");
const MiB = 1 << 20;
/** A capture size such as 64M, 1G or 1024m (MiB and GiB), or plain bytes. */
export function parseCaptureSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(k|m|g)?(?:i?b)?$/i.exec(text.trim());
  if (!m) throw new Error(`not a capture size: ${JSON.stringify(text)}`);
  const unit = (m[2] ?? "").toLowerCase();
  const n = Math.round(Number(m[1]) * (unit === "g" ? 1024 * MiB : unit === "m" ? MiB : unit === "k" ? 1024 : 1));
  if (!(n >= MiB)) throw new Error(`capture size below 1 MiB: ${text}`);
  return n;
}

/** Bump when the traffic changes, so an old cached capture is not timed as the new one. */
const TRAFFIC_VERSION = 1;

/** What captureSection runs. */
export interface CaptureBenchConfig {
  readonly bytes: number;
  readonly runs: number;
  /** The compiled C verifier, or null (its row and ratio are skipped). */
  readonly native: string | null;
  /** Another checkout's bin/iggy-batch.mjs, whose inspect of the capture is timed beside this one's; null for none. */
  readonly baselineBin?: string | null;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** The cached capture for `bytes` (written now when missing) and what it holds; `npm run bench:page -- --capture` opens the same file. */
export async function cachedCapture(bytes: number): Promise<{ capture: string; batches: string; traffic: CaptureTraffic; made: boolean }> {
  const dir = join(tmpdir(), `iggy-bench-capture-v${TRAFFIC_VERSION}-${bytes}`);
  const capture = join(dir, "traffic.pcap");
  const batches = join(dir, "batches.bin");
  const done = join(dir, "traffic.json");
  if (existsSync(done)) return { capture, batches, traffic: JSON.parse(readFileSync(done, "utf8")) as CaptureTraffic, made: false };
  mkdirSync(dir, { recursive: true });
  const traffic = writeCaptureTraffic(await loadXxh3(), bytes, capture, batches);
  writeFileSync(done, JSON.stringify(traffic)); // written last: a run cut short leaves no half capture behind as done
  return { capture, batches, traffic, made: true };
}

/** One untimed run that reads the CLI's JSON: every message and batch found, nothing flagged. */
function checkCli(file: string, traffic: CaptureTraffic): string | null {
  const r = spawnSync(process.execPath, [BIN, "inspect", file, "--json", "--no-frames"], { encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) return `inspect exited ${r.status}: ${r.stderr.slice(-300)}`;
  const doc = JSON.parse(r.stdout) as {
    summary: { batches: number; frames: number; errors: number; warnings: number };
    capture: { connections: { messages: unknown[] }[] };
  };
  const messages = doc.capture.connections.reduce((n, c) => n + c.messages.length, 0);
  const s = doc.summary;
  if (messages !== 2 * traffic.requests || s.batches !== traffic.requests || s.frames !== traffic.messages || s.errors + s.warnings !== 0)
    return `inspect found ${messages} messages, ${s.batches} batches, ${s.frames} frames, ${s.errors} errors, ${s.warnings} warnings; the capture holds ${2 * traffic.requests}, ${traffic.requests}, ${traffic.messages}, 0, 0`;
  return null;
}

/** The printed lines of the capture comparison. */
export async function captureSection(cfg: CaptureBenchConfig): Promise<string[]> {
  if (!hasGnuTime()) return ["capture: skipped, /usr/bin/time (GNU time) is missing"];
  const t0 = performance.now();
  const { capture, batches, traffic, made } = await cachedCapture(cfg.bytes);
  const lines = [
    "",
    `capture (issue #24): ${(traffic.captureBytes / MiB).toFixed(0)} MiB pcap of one connection, ${traffic.requests.toLocaleString("en-US")} SendMessages ` +
      `(${CAPTURE_BATCHES.map((b) => `${b.messages} x ${b.payload >= 1024 ? `${b.payload / 1024} KiB` : `${b.payload} B`}`).join(" and ")} alternately) and their replies, ` +
      `TCP segments of ${CAPTURE_MSS} bytes; ${made ? `written in ${((performance.now() - t0) / 1e3).toFixed(1)} s to` : "cached in"} ${dirname(capture)}`,
    `  the same ${traffic.requests.toLocaleString("en-US")} batches end to end: ${(traffic.batchBytes / MiB).toFixed(0)} MiB, ${traffic.messages.toLocaleString("en-US")} messages`,
  ];
  const wrong = checkCli(capture, traffic);
  if (wrong) throw new Error(`capture bench: ${wrong}`);
  const hasTshark = spawnSync("tshark", ["--version"], { stdio: "ignore" }).status === 0;
  const variants: Array<{ name: string; cmd: string; args: string[] }> = [];
  if (cfg.native) variants.push({ name: "C verifier over the batches end to end", cmd: cfg.native, args: [batches] });
  variants.push({ name: "iggy-batch --help (start-up alone)", cmd: process.execPath, args: [BIN, "--help"] });
  variants.push({ name: "iggy-batch inspect FILE --json --no-frames", cmd: process.execPath, args: [BIN, "inspect", capture, "--json", "--no-frames"] });
  if (cfg.baselineBin)
    variants.push({
      name: "baseline inspect FILE --json --no-frames",
      cmd: process.execPath,
      args: [cfg.baselineBin, "inspect", capture, "--json", "--no-frames"],
    });
  if (hasTshark) variants.push({ name: "tshark -r FILE -q", cmd: "tshark", args: ["-n", "-r", capture, "-q"] });
  const times = variants.map(() => [] as number[]);
  const cpus = variants.map(() => [] as number[]);
  const rss = variants.map(() => [] as number[]);
  for (let r = 0; r < cfg.runs; r++) {
    for (const [i, v] of variants.entries()) {
      const t = timeProcess(v.cmd, v.args);
      if (t.status !== 0) throw new Error(`${v.name} exited ${t.status}`);
      times[i]!.push(t.seconds);
      cpus[i]!.push(t.cpuSeconds);
      rss[i]!.push(t.maxRssKiB);
    }
  }
  const at = (name: string, of = times): number | null => {
    const i = variants.findIndex((v) => v.name.startsWith(name));
    return i < 0 ? null : median(of[i]!);
  };
  const c = at("C verifier");
  const cli = at("iggy-batch inspect")!;
  const startup = at("iggy-batch --help")!;
  const ts = at("tshark");
  const cCpu = at("C verifier", cpus);
  const tsCpu = at("tshark", cpus);
  for (const [i, v] of variants.entries()) {
    const t = median(times[i]!);
    const cpu = median(cpus[i]!);
    const ratios: string[] = [];
    if (v.args.includes("inspect")) {
      if (c) ratios.push(`${(t / c).toFixed(2)}x C (target ≤ 2x), ${((t - startup) / c).toFixed(2)}x net of start-up`);
      if (ts) ratios.push(`${(t / ts).toFixed(2)}x tshark`);
      if (cCpu) ratios.push(`in CPU time ${(cpu / cCpu).toFixed(2)}x C`);
      if (tsCpu) ratios.push(`${(cpu / tsCpu).toFixed(2)}x tshark`);
    }
    const peak = median(rss[i]!) / 1024;
    const rssNote = v.args.includes("inspect") ? ` (target ≤ 256 MiB${peak <= 256 ? "" : ": OVER"})` : "";
    lines.push(
      `    ${v.name.padEnd(44)} ${t.toFixed(2)} s (${times[i]!.map((x) => x.toFixed(2)).join(", ")}), CPU ${cpu.toFixed(2)} s, peak RSS ${peak.toFixed(0)} MiB${rssNote}${ratios.length ? ` = ${ratios.join(", ")}` : ""}`,
    );
  }
  if (!cfg.native) lines.push("    C verifier: skipped (cc or libxxhash missing), so no ratio to C");
  if (!hasTshark) lines.push("    tshark: not installed, so no ratio to it");
  lines.push(
    `  ${(traffic.captureBytes / 1e6 / (cli - startup)).toFixed(0)} MB/s of capture through the CLI net of start-up; runs interleaved, median of ${cfg.runs}; the cached capture stays in the temp dir`,
    "  (CPU is user + system seconds of every thread, from GNU time: on a shared machine it moves less than wall time)",
    "  (start-up is the prebuilt bundle's when dist-cli is fresh, else tsx compiling the sources: `npm run build:cli` first)",
  );
  return lines;
}
