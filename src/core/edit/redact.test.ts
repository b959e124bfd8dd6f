/**
 * Redaction keeps the verdicts: every public corpus file, container vector and partition segment,
 * redacted, raises the same diagnostics (code, severity, range, batch, frame) as the original,
 * while every nonempty payload is replaced; plus mutated inputs (fast-check) and the options.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../walk/analyze.ts";
import { encodeBatch } from "../walk/encode.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import type { Analysis } from "../model/model.ts";
import { FILLER, redactCopy } from "./redact.ts";
import { openInputWith, type FormatChoice } from "../containers/index.ts";
import { CONTAINER_SAMPLES } from "../samples/container-samples.ts";
import { concat, findings, getU32, producerBatch, stampedBatch, xxh } from "../../../test/helpers.ts";
import { frameEnd } from "../model/frame-columns.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CORPUS = join(ROOT, "test/fixtures/corpus");
const CONTAINERS = "/work/shared/corpus-containers";

interface Input {
  label: string;
  bytes: Uint8Array;
  startOffset: number;
}

const corpus: Input[] = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".bin"))
  .sort()
  .map((f) => ({ label: f, bytes: new Uint8Array(readFileSync(join(CORPUS, f))), startOffset: 0 }));

// The vectors as batches at the start their manifest gives (the container decoder is another module's).
const vectors: Input[] = (() => {
  const dir = join(CONTAINERS, "vectors");
  if (!existsSync(dir)) return [];
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { cases: Array<{ file: string; batches: Array<{ start: number }> }> };
  const segments = readdirSync(join(CONTAINERS, "partitions"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(CONTAINERS, "partitions", d.name))
        .filter((f) => f.endsWith(".log"))
        .map((f) => join(d.name, f)),
    );
  return [
    ...manifest.cases.map((c) => ({ label: c.file, bytes: new Uint8Array(readFileSync(join(dir, c.file))), startOffset: c.batches[0]?.start ?? 0 })),
    ...segments.map((p) => ({ label: p, bytes: new Uint8Array(readFileSync(join(CONTAINERS, "partitions", p))), startOffset: 0 })),
  ];
})();

/** [start, end) of every payload the walk reaches, complete or cut, by its payload_length. */
function payloadRanges(bytes: Uint8Array, a: Analysis): Array<[number, number]> {
  const f = a.frames;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < f.count; i++) out.push([(f.start[i] as number) + 48, (f.start[i] as number) + 48 + (f.payloadLength[i] as number)]);
  for (const b of a.batches) {
    const t = b.truncatedFrame;
    if (t?.headerComplete) out.push([t.start + 48, Math.min(t.end, t.start + 48 + getU32(bytes, t.start + 36))]);
  }
  return out.filter(([s, e]) => e > s);
}

const changed = (a: Uint8Array, b: Uint8Array, s: number, e: number) => a.subarray(s, e).some((v, i) => v !== b[s + i]);

function checkRedaction(input: Input, options: { userHeaders?: boolean; ids?: boolean } = {}): { original: Analysis; redacted: Analysis; out: Uint8Array } {
  const original = analyzeWith(xxh, input.bytes, { startOffset: input.startOffset });
  const { bytes: out } = redactCopy(xxh, input.bytes, original, options);
  const redacted = analyzeWith(xxh, out, { startOffset: input.startOffset });
  expect(out.length).toBe(input.bytes.length);
  expect(findings(redacted), input.label).toEqual(findings(original));
  expect(redacted.summary).toEqual(original.summary);
  for (const [s, e] of payloadRanges(input.bytes, original)) expect(changed(input.bytes, out, s, e), `${input.label}: payload ${s}..${e} replaced`).toBe(true);
  return { original, redacted, out };
}

describe("redaction keeps the diagnostics", () => {
  it.each(corpus.map((c) => [c.label, c] as const))("corpus %s", (_, input) => {
    checkRedaction(input);
    checkRedaction(input, { userHeaders: true, ids: true });
  });

  it.runIf(vectors.length > 0).each(vectors.map((v) => [v.label, v] as const))("container vector %s", (_, input) => {
    checkRedaction(input);
    checkRedaction(input, { userHeaders: true, ids: true });
  });

  it("has corpus files with payloads, findings and matching checksums to judge by", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(26);
    const all = corpus.map((c) => analyzeWith(xxh, c.bytes));
    expect(all.some((a) => a.diagnostics.some((d) => d.code === "frame-checksum-mismatch"))).toBe(true);
    expect(all.some((a) => a.diagnostics.some((d) => d.code === "batch-checksum-mismatch"))).toBe(true);
    expect(all.some((a) => a.diagnostics.some((d) => d.code === "user-headers-malformed"))).toBe(true);
  });
});

describe("what a redacted copy holds", () => {
  const bytes = concat([stampedBatch(3, { baseOffset: 10n, baseTimestamp: 1_700_000_000_000_001n }), producerBatch(2)]);

  it("fills payloads with the recognisable filler and keeps every header byte but the checksums", () => {
    const a = analyzeWith(xxh, bytes);
    const { bytes: out, payloads } = redactCopy(xxh, bytes, a);
    expect(payloads).toBe(5);
    const f = a.frames;
    const s = f.start[0] as number;
    expect(new TextDecoder().decode(out.subarray(s + 48, s + 48 + (f.payloadLength[0] as number)))).toBe(FILLER.repeat(4).slice(0, f.payloadLength[0]));
    for (let i = 0; i < f.count; i++) {
      const fs = f.start[i] as number;
      expect(out.subarray(fs + 8, fs + 48)).toEqual(bytes.subarray(fs + 8, fs + 48));
    }
    for (const b of a.batches) {
      expect(out.subarray(b.start, b.start + 40)).toEqual(bytes.subarray(b.start, b.start + 40));
      expect(out.subarray(b.start + 48, b.start + 256)).toEqual(bytes.subarray(b.start + 48, b.start + 256));
    }
  });

  it("replaces ids and header values on request, keeping the headers decodable with their keys and kinds", () => {
    const withHeaders = encodeBatch(xxh, {
      messages: [
        {
          payload: "secret",
          id: 42n,
          userHeaders: [
            { key: { kind: "string", value: "tenant" }, value: { kind: "string", value: "acme-corp" } },
            { key: { kind: "string", value: "retry" }, value: { kind: "bool", value: true } },
            { key: { kind: "string", value: "amount" }, value: { kind: "f64", value: 12.5 } },
          ],
        },
      ],
    });
    const a = analyzeWith(xxh, withHeaders);
    const { bytes: out, ids, userHeaderValues } = redactCopy(xxh, withHeaders, a, { userHeaders: true, ids: true });
    expect([ids, userHeaderValues]).toEqual([1, 3]);
    expect(findings(analyzeWith(xxh, out))).toEqual([]);
    const uh = out.subarray(256 + 48 + 6, frameEnd(a.frames, 0));
    const decoded = decodeUserHeaders(uh);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.headers.map((h) => [h.key.text, h.value.kindName, h.value.text])).toEqual([
      ["tenant", "string", "REDACTEDR"],
      ["retry", "bool", "false"],
      ["amount", "f64", "0"],
    ]);
    expect(new TextDecoder().decode(out.subarray(256 + 8, 256 + 24))).toBe("REDACTEDREDACTED");
  });
});

// Mutations of valid segments: one to three bytes set anywhere, the verdicts survive redaction.
describe("redaction of mutated inputs", () => {
  const plain = fc.record({ stamped: fc.boolean(), n: fc.integer({ min: 1, max: 4 }), headers: fc.boolean() }).map(({ stamped, n, headers }) => {
    const spec = headers
      ? {
          messages: Array.from({ length: n }, (_, i) => ({
            payload: `m${i}`,
            userHeaders: [{ key: { kind: "string" as const, value: "k" }, value: { kind: "u32" as const, value: i } }],
          })),
        }
      : {};
    return stamped ? stampedBatch(n, { baseOffset: 5n, baseTimestamp: 99n }, spec) : producerBatch(n, spec);
  });
  const input = fc
    .tuple(
      fc.array(plain, { minLength: 1, maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
      fc.nat({ max: 40 }),
    )
    .map(([batches, edits, cut]) => {
      const joined = concat(batches);
      for (const [at, v] of edits) joined[at % joined.length] = v;
      return joined.subarray(0, Math.max(1, joined.length - cut));
    });

  it("keeps every finding, with and without the options", () => {
    fc.assert(
      fc.property(input, fc.boolean(), (bytes, all) => {
        checkRedaction({ label: "mutated", bytes, startOffset: 0 }, all ? { userHeaders: true, ids: true } : {});
      }),
      { numRuns: 400 },
    );
  });
});

// User header blocks of every shape: random bytes (mostly not TLV), valid TLV, and valid TLV with one byte changed.
describe("redaction of user headers keeps each block as decodable as it was", () => {
  const tlv = fc
    .array(fc.record({ kind: fc.integer({ min: 1, max: 15 }), value: fc.uint8Array({ minLength: 1, maxLength: 20 }) }), { minLength: 1, maxLength: 6 })
    .map((entries) =>
      concat(
        entries.map(({ kind, value }) => {
          const widths = [0, 0, 0, 1, 1, 2, 4, 8, 16, 1, 2, 4, 8, 16, 4, 8];
          const v = widths[kind] ? new Uint8Array(widths[kind]).map((_, i) => (kind === 3 ? (value[0] ?? 0) & 1 : (value[i % value.length] ?? 0))) : value;
          return concat([new Uint8Array([kind, v.length, 0, 0, 0]), v]);
        }),
      ),
    );
  const block = fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 40 }),
    tlv,
    fc.tuple(tlv, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([b, at, v]) => {
      const c = b.slice();
      c[at % c.length] = v;
      return c;
    }),
  );
  it("same findings, user-headers-malformed included, with header values replaced", () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), (blocks) => {
        const bytes = encodeBatch(xxh, { messages: blocks.map((b, i) => ({ payload: `p${i}`, userHeaders: b })) });
        checkRedaction({ label: "headers", bytes, startOffset: 0 }, { userHeaders: true });
      }),
      { numRuns: 400 },
    );
  });
});

// Every container sample and every public container vector and partition file, opened by the container decoder
// (auto-detect, the vector's `args` format when it names one): redaction keeps every finding, container ones included.
describe("redaction through the container decoder", () => {
  const inputs: Array<{ label: string; bytes: Uint8Array; name: string; format: FormatChoice }> = [
    ...CONTAINER_SAMPLES.flatMap((s) =>
      s.build(xxh).map((f) => ({ label: `sample ${s.id}: ${f.name}`, bytes: f.bytes, name: f.name, format: "auto" as const })),
    ),
    ...vectors.map((v) => ({ label: v.label, bytes: v.bytes, name: v.label.split("/").pop()!, format: "auto" as const })),
  ];
  it.each(inputs.map((i) => [i.label, i] as const))("%s", (_, input) => {
    const opened = openInputWith(xxh, input.bytes, { name: input.name, format: input.format });
    for (const options of [{}, { userHeaders: true, ids: true }]) {
      const { bytes } = redactCopy(xxh, input.bytes, opened.analysis, options);
      const again = openInputWith(xxh, bytes, { name: input.name, format: input.format });
      expect(findings(again.analysis), `${input.label} ${JSON.stringify(options)}`).toEqual(findings(opened.analysis));
      for (const [s, e] of payloadRanges(input.bytes, opened.analysis)) expect(changed(input.bytes, bytes, s, e)).toBe(true);
    }
  });
});
