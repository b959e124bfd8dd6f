/**
 * Crafted share-link metadata: any JSON the link may carry (prototype names such as `__proto__` and
 * `constructor` for the format, the old envelope id and the name; selections of any shape), and
 * fragments mutated after that. decodeShareResult() never throws, refuses only with its documented
 * reasons, and what it opens is a valid state: a string name, bytes within the cap, a selection inside them or none,
 * a format that is a string or absent, provenance of the right shapes.
 */
import fc from "fast-check";
import { deflateSync } from "fflate";
import { describe, expect, it } from "vitest";
import { decodeShareResult, SHARE_PREFIX, type ShareDecode } from "./share-codec.ts";

const PROTO_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "poll-reply",
  "replicated-record",
  "auto",
];

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

/** A fragment carrying exactly this metadata text and these bytes, as encodeShareFragment lays them out. */
function fragmentOf(metaText: string, bytes: Uint8Array): string {
  const meta = new TextEncoder().encode(metaText);
  const raw = new Uint8Array(4 + meta.length + bytes.length);
  new DataView(raw.buffer).setUint32(0, meta.length, true);
  raw.set(meta, 4);
  raw.set(bytes, 4 + meta.length);
  return SHARE_PREFIX + toBase64Url(deflateSync(raw));
}

/** The sentences an opened state breaks (empty when valid). */
function stateProblems(r: ShareDecode, maxBytes: number): string[] {
  if (!r.ok) return ["damaged", "too-large"].includes(r.reason) ? [] : [`refused with ${String(r.reason)}`];
  const s = r.state;
  const out: string[] = [];
  if (typeof s.name !== "string") out.push(`name ${typeof s.name}`);
  if (!(s.bytes instanceof Uint8Array) || s.bytes.length > maxBytes) out.push("bytes not a Uint8Array within the cap");
  if (s.selection !== null) {
    const { start, end } = s.selection;
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= s.bytes.length))
      out.push(`selection ${start}..${end} outside 0..${s.bytes.length}`);
  }
  if (s.format !== undefined && typeof s.format !== "string") out.push(`format is a ${typeof s.format}`);
  if (s.redacted && !(typeof s.redacted.originalSha256 === "string" && typeof s.redacted.what === "string")) out.push("redacted of the wrong shape");
  if (s.part && ![s.part.start, s.part.end, s.part.size].every(Number.isSafeInteger)) out.push("part of the wrong shape");
  return out;
}

const anyValue = fc.oneof(
  fc.constantFrom(...PROTO_NAMES),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.string({ maxLength: 4 }), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom(...PROTO_NAMES), fc.string({ maxLength: 4 }), { maxKeys: 3 }),
);

// Meta keys the decoder reads, plus prototype names as keys (JSON.parse makes "__proto__" an own key).
const metaObject = fc.dictionary(fc.constantFrom("n", "s", "f", "e", "r", "p", ...PROTO_NAMES), anyValue, { maxKeys: 7 });

describe("share links: crafted metadata", () => {
  it("prototype names for the format or the old envelope id yield a string or nothing, never an object", () => {
    for (const name of PROTO_NAMES) {
      for (const key of ["f", "e"]) {
        const r = decodeShareResult(fragmentOf(JSON.stringify({ n: "x", s: null, [key]: name }), new Uint8Array(8)));
        expect(stateProblems(r, 1 << 20), `${key}: ${name}`).toEqual([]);
        expect(r.ok).toBe(true);
        if (r.ok && key === "e") expect(r.state.format === undefined || ["poll-reply", "prepare"].includes(r.state.format), name).toBe(true);
      }
    }
    // A literal "__proto__" key in the JSON text is an own property after JSON.parse.
    const r = decodeShareResult(fragmentOf('{"n":"x","__proto__":{"f":"poll-reply"},"s":[0,4]}', new Uint8Array(8)));
    expect(r.ok && r.state.format).toBeUndefined();
    expect(r.ok && r.state.selection).toEqual({ start: 0, end: 4 });
  });

  it("a selection outside the bytes, reversed or not integral is dropped", () => {
    for (const s of [[-1, 3], [3, 2], [0, 9], [0.5, 2], [0, 2 ** 60], ["0", "2"], [0]]) {
      const r = decodeShareResult(fragmentOf(JSON.stringify({ n: "x", s }), new Uint8Array(8)));
      expect(r.ok && r.state.selection, JSON.stringify(s)).toBe(null);
    }
  });

  it("random metadata (any keys, any values, prototype names) and any bytes: never a throw, always a valid state or a documented refusal", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          metaObject.map((m) => JSON.stringify(m)),
          fc.string({ maxLength: 60 }),
          fc.constantFrom("null", "[]", "1", '"x"', "{", '{"__proto__":null}', '{"constructor":{"prototype":1}}'),
        ),
        fc.uint8Array({ maxLength: 300 }),
        (metaText, bytes) => {
          let r: ShareDecode;
          try {
            r = decodeShareResult(fragmentOf(metaText, bytes), 10_000);
          } catch (err) {
            throw new Error(`threw on meta ${metaText}: ${String(err)}`, { cause: err });
          }
          expect(stateProblems(r, 10_000)).toEqual([]);
        },
      ),
      { numRuns: 3000, seed: 22 },
    );
  });

  it("fragments of crafted metadata, then mutated (characters set, inserted, deleted): never a throw, a valid state or a documented refusal", () => {
    fc.assert(
      fc.property(
        metaObject.map((m) => JSON.stringify(m)),
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(..."AZaz09-_=+/!% é"), fc.constantFrom("set", "insert", "delete")), { maxLength: 4 }),
        (metaText, bytes, edits) => {
          let f = fragmentOf(metaText, bytes);
          for (const [n, ch, op] of edits) {
            const p = SHARE_PREFIX.length + (n % Math.max(1, f.length - SHARE_PREFIX.length));
            f = op === "set" ? f.slice(0, p) + ch + f.slice(p + 1) : op === "insert" ? f.slice(0, p) + ch + f.slice(p) : f.slice(0, p) + f.slice(p + 1);
          }
          expect(stateProblems(decodeShareResult(f, 10_000), 10_000)).toEqual([]);
        },
      ),
      { numRuns: 3000, seed: 23 },
    );
  });
});
