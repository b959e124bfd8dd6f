/**
 * The dissector's Lua XXH3-64, run inside tshark over Wireshark's own UInt64, against our kernel:
 * every length 0..4096 (every branch: 0, 1-3, 4-8, 9-16, 17-128, 129-240, stripes, blocks) and every
 * frame and batch checksum of the corpus (test/fixtures/corpus).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { batchChecksumSpans, FRAME_CHECKSUM_FROM } from "../../checksum/verify.ts";
import { BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { hex64 } from "../../format/values.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { frameEnd } from "../model/frame-columns.ts";
import { emptyPcap, HAS_TSHARK, tshark } from "../../../test/tshark.test-util.ts";
import { XXH3_LUA } from "./xxh3-lua.ts";

const HARNESS = `${XXH3_LUA}
local f = io.open(os.getenv("IGGY_XXH3_IN"), "rb")
local data = f:read("*a")
f:close()
local out, p = io.open(os.getenv("IGGY_XXH3_OUT"), "w"), 1
while p <= #data do
  local n = r32(data, p)
  out:write(xxh3_64(data:sub(p + 4, p + 3 + n)):tohex():lower(), "\\n")
  p = p + 4 + n
end
out:close()
`;

/** XXH3-64 of each input, computed by the Lua inside tshark. */
function luaHashes(inputs: readonly Uint8Array[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), "iggy-xxh3-lua-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, "harness.lua");
  writeFileSync(script, HARNESS);
  const parts: Uint8Array[] = [];
  for (const input of inputs) {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(input.length);
    parts.push(length, input);
  }
  writeFileSync(join(dir, "in.bin"), Buffer.concat(parts));
  tshark(["-X", `lua_script:${script}`, "-r", emptyPcap(dir)], { IGGY_XXH3_IN: join(dir, "in.bin"), IGGY_XXH3_OUT: join(dir, "out.txt") });
  return readFileSync(join(dir, "out.txt"), "utf8").trim().split("\n");
}

describe.skipIf(!HAS_TSHARK)("the dissector's Lua XXH3-64 against the kernel", () => {
  it("agrees on every length 0..4096, at shifting alignments", { timeout: 120_000 }, async () => {
    const xxh = await loadXxh3();
    let seed = 0x2545f491;
    const pool = Uint8Array.from({ length: 4096 + 8 }, () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 23) & 0xff);
    const inputs = Array.from({ length: 4097 }, (_, n) => pool.subarray(n % 7, (n % 7) + n));
    const got = luaHashes(inputs);
    const want = inputs.map((input) => hex64(xxh.hash(input)));
    expect(got.length).toBe(want.length);
    const wrong = want.flatMap((w, n) => (got[n] === w ? [] : [n]));
    expect(wrong, `lengths whose Lua hash differs: ${wrong.slice(0, 10).join(", ")}`).toEqual([]);
  });

  it("agrees on every frame checksum and batch checksum of the corpus", { timeout: 120_000 }, async () => {
    const xxh = await loadXxh3();
    const dir = join(import.meta.dirname, "../../../test/fixtures/corpus");
    const inputs: Uint8Array[] = [];
    const want: string[] = [];
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".bin"))) {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      const analysis = analyzeWith(xxh, bytes);
      const frames = analysis.frames;
      for (let i = 0; i < frames.count; i++) {
        const start = (frames.start[i] as number) + FRAME_CHECKSUM_FROM;
        const end = frameEnd(frames, i);
        if (end < start || end > bytes.length) continue;
        inputs.push(bytes.subarray(start, end));
        want.push(hex64(xxh.hash(bytes.subarray(start, end))));
      }
      for (let b = 0; b < analysis.batches.length; b++) {
        const batch = analysis.batches.at(b);
        if (!batch || batch.computedChecksum === null || batch.end - batch.start < BATCH_HEADER_SIZE) continue;
        const spans = batchChecksumSpans(batch.start, batch.start + BATCH_HEADER_SIZE, frames.start, batch.firstFrame, batch.firstFrame + batch.frameCount);
        inputs.push(Buffer.concat(spans.map((s) => bytes.subarray(s.start, s.end))));
        want.push(hex64(batch.computedChecksum));
      }
    }
    expect(inputs.length).toBeGreaterThan(50);
    expect(luaHashes(inputs)).toEqual(want);
  });
});
