/**
 * Crafted share links: deflate bombs (1.45 GiB of zeros in a 2 MB link), bombs whose stream is
 * damaged after the cap, truncated and bit-flipped links, malformed base64, huge fragments. Each is
 * decoded without a throw, refused with the right reason, and never yields more than the cap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeShareResult, encodeShareFragment, MAX_SHARED_BYTES, SHARE_PREFIX } from "./share-codec.ts";
import { shareBombFragment } from "../../test/share-bomb.ts";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("share links: bombs", () => {
  it("a 2 MB link that inflates to 1.45 GiB of zeros is refused as too large", () => {
    const fragment = shareBombFragment(1485);
    expect(fragment.length).toBeLessThan(2_100_000);
    expect(decodeShareResult(fragment)).toEqual({ ok: false, reason: "too-large" });
  });

  it("stops at the cap: a bomb whose deflate stream is damaged after 40 MiB is refused as too large, not read to the damage", () => {
    expect(decodeShareResult(shareBombFragment(40, { garbageAfter: true }))).toEqual({ ok: false, reason: "too-large" });
    // The same damage within the cap is found and reported as damage.
    expect(decodeShareResult(shareBombFragment(3, { garbageAfter: true }))).toEqual({ ok: false, reason: "damaged" });
  });

  it("the cap is exact: 32 MiB of zeros opens, one MiB more does not", () => {
    const at = decodeShareResult(shareBombFragment(32));
    expect(at.ok && at.state.bytes.length).toBe(MAX_SHARED_BYTES);
    expect(decodeShareResult(shareBombFragment(33))).toEqual({ ok: false, reason: "too-large" });
  });

  it("a fragment longer than any link within the cap is refused unread", () => {
    expect(decodeShareResult(SHARE_PREFIX + "A".repeat(50 << 20))).toEqual({ ok: false, reason: "too-large" });
  });
});

describe("share links: fuzz", () => {
  const valid = encodeShareFragment({ name: "x.bin", bytes: Uint8Array.from({ length: 3000 }, (_, i) => (i * 37) & 0xff), selection: { start: 1, end: 9 } });

  it("truncated links never open as something else", () => {
    for (let cut = SHARE_PREFIX.length; cut < valid.length; cut += 7) {
      const r = decodeShareResult(valid.slice(0, cut));
      expect(r.ok).toBe(false);
    }
  });

  it("mutated links (characters changed, inserted, removed) decode or are refused, never throw, never pass the cap", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.constantFrom(...B64, "=", "+", "/", "!", " ", "é", "%"), fc.constantFrom("set", "insert", "delete")), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1000, max: 5000 }),
        (edits, maxBytes) => {
          let f = valid;
          for (const [at, ch, op] of edits) {
            const p = Math.max(SHARE_PREFIX.length, at);
            f = op === "set" ? f.slice(0, p) + ch + f.slice(p + 1) : op === "insert" ? f.slice(0, p) + ch + f.slice(p) : f.slice(0, p) + f.slice(p + 1);
          }
          const r = decodeShareResult(f, maxBytes);
          if (r.ok) expect(r.state.bytes.length).toBeLessThanOrEqual(maxBytes);
          else expect(["damaged", "too-large"]).toContain(r.reason);
        },
      ),
      { numRuns: 400, seed: 10 },
    );
  });

  it("random base64 bodies and random deflate streams are refused or bounded", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...B64), maxLength: 3000 }), (body) => {
        const r = decodeShareResult(SHARE_PREFIX + body, 10_000);
        if (r.ok) expect(r.state.bytes.length).toBeLessThanOrEqual(10_000);
      }),
      { numRuns: 400, seed: 10 },
    );
  });

  it("malformed base64 and foreign fragments say so", () => {
    expect(decodeShareResult("#other").ok).toBe(false);
    expect(decodeShareResult("#other")).toEqual({ ok: false, reason: "not-a-link" });
    for (const body of ["!!!", "AAAA", "A", "AAAAA", "AA==", "AB+/", "AB CD", ""])
      expect(decodeShareResult(SHARE_PREFIX + body)).toEqual({ ok: false, reason: "damaged" });
  });

  it("a valid link still opens whole", () => {
    const r = decodeShareResult(valid);
    expect(r.ok && r.state.name).toBe("x.bin");
    expect(r.ok && r.state.bytes.length).toBe(3000);
  });
});
