import { describe, expect, it } from "vitest";
import { decodeMessageId } from "../../format/values.ts";
import { capNote, HEX_CAP, idFacts, prettyJson, sizeText, utf8Text, xxdLines } from "./payload-view.ts";

const enc = new TextEncoder();

describe("hex dump", () => {
  it("matches xxd for a short line", () => {
    expect(xxdLines(enc.encode("first-payload")).lines).toEqual(["00000000: 6669 7273 742d 7061 796c 6f61 64         first-payload"]);
  });

  it("writes 16 bytes a line with dots for non-printables", () => {
    const bytes = Uint8Array.from({ length: 18 }, (_, i) => i * 15);
    expect(xxdLines(bytes).lines).toEqual([
      "00000000: 000f 1e2d 3c4b 5a69 7887 96a5 b4c3 d2e1  ...-<KZix.......",
      "00000010: f0ff                                     ..",
    ]);
  });

  it("caps at 64 KiB and says so", () => {
    const big = new Uint8Array(HEX_CAP + 100);
    const dump = xxdLines(big);
    expect(dump.lines.length).toBe(4096);
    expect(capNote(dump.shown, dump.total)).toBe("first 64 KiB of 65,636 bytes");
    expect(capNote(10, 10)).toBeNull();
    expect(xxdLines(new Uint8Array(0)).lines).toEqual([]);
  });

  it("names sizes in whole units", () => {
    expect(sizeText(65536)).toBe("64 KiB");
    expect(sizeText(1 << 20)).toBe("1 MiB");
    expect(sizeText(1000)).toBe("1,000 bytes");
    expect(sizeText(1)).toBe("1 byte");
  });
});

describe("text and JSON", () => {
  it("decodes UTF-8 with replacement characters", () => {
    expect(utf8Text(Uint8Array.from([0x68, 0x69, 0xff, 0x0a])).text).toBe("hi\ufffd\n");
    expect(utf8Text(enc.encode("abcdef"), 3)).toEqual({ text: "abc", shown: 3, total: 6 });
  });

  it("pretty-prints JSON that parses", () => {
    expect(prettyJson(enc.encode('{"a":[1,2],"b":"x"}'))).toEqual({ ok: true, text: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": "x"\n}' });
  });

  it("says why a payload is not JSON", () => {
    expect(prettyJson(new Uint8Array(0))).toEqual({ ok: false, reason: "the payload is empty" });
    const r = prettyJson(enc.encode("first-payload"));
    expect(r.ok).toBe(false);
    expect(prettyJson(enc.encode("[1]"), 2)).toEqual({ ok: false, reason: "the payload is larger than 2 bytes, not parsed" });
  });
});

describe("id facts", () => {
  const facts = (wire: number[]) => Object.fromEntries(idFacts(decodeMessageId(Uint8Array.from(wire))).map((f) => [f.label, f.value]));

  it("gives a v7 UUID's time", () => {
    const f = facts([0x01, 0x92, 0xf0, 0xc4, 0xa1, 0xb2, 0x7c, 0x3e, 0x8d, 0x4f, 0x5a, 0x6b, 0x7c, 0x8d, 0x9e, 0x0f]);
    expect(f["u128"]).toBe("0f9e8d7c6b5a4f8d3e7cb2a1c4f09201");
    expect(f["UUID (wire order)"]).toBe("0192f0c4-a1b2-7c3e-8d4f-5a6b7c8d9e0f");
    expect(f["Version"]).toBe("v7");
    expect(f["v7 time"]).toBe("2024-11-03T06:44:31.282Z");
    expect(f["UUID (u128 value, Node SDK order)"]).toBeUndefined();
  });

  it("reads a Node SDK id through its u128 value", () => {
    const f = facts([0x0f, 0x9e, 0x8d, 0x7c, 0x6b, 0x5a, 0x4f, 0x8d, 0x3e, 0x7c, 0xb2, 0xa1, 0xc4, 0xf0, 0x92, 0x01]);
    expect(f["Version"]).toBe("none: the variant bits are not RFC 9562");
    expect(f["UUID (u128 value, Node SDK order)"]).toBe("0192f0c4-a1b2-7c3e-8d4f-5a6b7c8d9e0f (v7)");
    expect(f["v7 time (u128 order)"]).toBe("2024-11-03T06:44:31.282Z");
  });

  it("says a small number is not a UUID", () => {
    const f = facts([7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(f["u128"]).toBe("00000000000000000000000000000007");
    expect(f["Version"]).toMatch(/^none/);
  });
});

describe("a payload of which only the head was read (on demand)", () => {
  it("counts the whole payload in the notes and does not parse a head as JSON", () => {
    const head = enc.encode('{"a": 1}');
    expect(utf8Text(head, 1024, 5_000_000)).toMatchObject({ text: '{"a": 1}', shown: 8, total: 5_000_000 });
    expect(capNote(xxdLines(head, 1024, 5_000_000).shown, 5_000_000)).toBe("first 8 bytes of 5,000,000 bytes");
    expect(prettyJson(head, 1 << 20, 5_000_000)).toEqual({ ok: false, reason: "the payload is larger than 1 MiB, not parsed" });
    expect(prettyJson(head, 1 << 20, 100)).toEqual({ ok: false, reason: "only 8 bytes of the payload was read" });
    expect(prettyJson(head)).toEqual({ ok: true, text: '{\n  "a": 1\n}' });
  });
});
