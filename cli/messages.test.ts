/** `iggy-batch messages` through the real CLI on corpus files: JSONL equals the batch JSON, filters and templates. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = new URL("../bin/iggy-batch.mjs", import.meta.url).pathname;
const CORPUS = new URL("../test/fixtures/corpus/", import.meta.url).pathname;
const PARTITIONS = new URL("../test/fixtures/corpus-containers/partitions/", import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });

interface FrameJson {
  index: number;
  start: number;
  id: string;
  offsetDelta: number;
  timestampDelta: number;
  payloadLength: number;
  userHeadersLength: number;
  checksum: string;
  computedChecksum: string | null;
}
interface BatchJson {
  index: number;
  header: { partitionId: string; baseOffset: string; baseTimestamp: string; originTimestamp: string } | null;
  frames: FrameJson[];
}

function expected(file: string) {
  const doc = JSON.parse(cli("inspect", file, "--json").stdout) as { batches: BatchJson[] };
  return doc.batches.flatMap((b) =>
    b.header
      ? b.frames.map((f) => ({
          file: null,
          batch: b.index,
          frame: f.index,
          start: f.start,
          partitionId: b.header!.partitionId,
          offset: (BigInt(b.header!.baseOffset) + BigInt(f.offsetDelta)).toString(),
          timestamp: b.header!.baseTimestamp,
          originTimestamp: (BigInt(b.header!.originTimestamp) + BigInt(f.timestampDelta)).toString(),
          id: f.id,
          payloadLength: f.payloadLength,
          userHeadersLength: f.userHeadersLength,
          checksumOk: f.checksum === f.computedChecksum,
        }))
      : [],
  );
}

describe("messages", () => {
  it.each(["02-valid-stamped-3frames-userheaders.bin", "19-segment-4-batch2-bad-frame.bin", "04-segment-5-stamped.bin"])(
    "--jsonl of %s equals the batch JSON",
    (name) => {
      const r = cli("messages", CORPUS + name, "--jsonl");
      const lines = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const want = expected(CORPUS + name);
      expect(want.length).toBeGreaterThan(0);
      expect(lines.map((l) => ({ ...l, userHeaders: undefined }))).toEqual(want.map((w) => ({ ...w, userHeaders: undefined })));
      expect(lines.every((l) => !("payload" in l))).toBe(true);
      expect(r.status).toBe(JSON.parse(cli("inspect", CORPUS + name, "--json").stdout).summary.errors > 0 ? 1 : 0);
    },
  );

  it("decodes user headers and prints the payload when asked", () => {
    const lines = cli("messages", CORPUS + "02-valid-stamped-3frames-userheaders.bin", "--jsonl", "--print-payload", "hex")
      .stdout.trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { payload: string; payloadLength: number; userHeaders: { key: unknown; kind: unknown }[] });
    expect(lines.some((l) => l.userHeaders.length > 0 && typeof l.userHeaders[0]!.key === "string" && typeof l.userHeaders[0]!.kind === "string")).toBe(true);
    for (const l of lines) expect(l.payload).toMatch(new RegExp(`^[0-9a-f]{${l.payloadLength * 2}}$`));
  });

  it("--from, --count, --batch and --format", () => {
    const file = CORPUS + "04-segment-5-stamped.bin";
    const all = expected(file);
    const from = all[2]!.offset;
    const r = cli("messages", file, "--from", from, "--count", "2", "--format", "%b|%o|%S|%k\\n");
    expect(r.stdout).toBe(
      all
        .slice(2, 4)
        .map((m) => `${m.batch}|${m.offset}|${m.payloadLength}|${m.id}\n`)
        .join(""),
    );
    const b = cli("messages", file, "--batch", "1", "--format", "%o\\t%p\\n");
    expect(b.stdout).toBe(
      all
        .filter((m) => m.batch === 1)
        .map((m) => `${m.offset}\t${m.partitionId}\n`)
        .join(""),
    );
    expect(cli("messages", file, "--count", "x").status).toBe(2);
  });

  it("a partition directory: every segment in order, each message naming its file", () => {
    const r = cli("messages", PARTITIONS + "healthy", "--jsonl");
    expect(r.status).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { offset: string; file: string });
    const offsets = lines.map((l) => BigInt(l.offset));
    expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(lines.map((l) => l.file)).size).toBe(3);
  });

  it("exits with inspect's verdict, chain and recovery findings included, for partitions and their segments alone", () => {
    // Every partition, and the segments alone where a segment's own chain or name is at fault.
    const cases = [
      ...readdirSync(PARTITIONS, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => PARTITIONS + e.name),
      `${PARTITIONS}segment-gap/00000000000000001949.log`,
      `${PARTITIONS}name-and-orphan/00000000000000001950.log`,
    ];
    const statuses = cases.map((c) => ({ c, messages: cli("messages", c).status, inspect: cli("inspect", c).status }));
    expect(statuses.filter((s) => s.messages !== s.inspect)).toEqual([]);
    // Partitions whose every batch is sound but whose chain is not (chain-gap, segment-gap): exit 1.
    expect(statuses.find((s) => s.c.endsWith("chain-gap"))?.messages).toBe(1);
    expect(statuses.find((s) => s.c.endsWith("segment-gap"))?.messages).toBe(1);
    expect(statuses.some((s) => s.inspect === 0)).toBe(true);
  });

  it("a symbolic link loop named like a segment: exit 2 saying what it is, no internal error", () => {
    const dir = mkdtempSync(join(tmpdir(), "iggy-batch-messages-loop-"));
    try {
      const loop = join(dir, "00000000000000000009.log");
      symlinkSync("00000000000000000009.log", loop);
      const r = cli("messages", loop);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`iggy-batch: cannot read ${loop}: a symbolic link loop: it leads to no file\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
