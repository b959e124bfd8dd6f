/** The builder form reducer: adding, removing and reordering messages and headers; payload mode switches keep the bytes. */
import { describe, expect, it } from "vitest";
import { convertPayload, formReducer, initialForm, parseHexText } from "./form-state.ts";

describe("formReducer", () => {
  it("adds, reorders and removes messages without touching the others", () => {
    let f = initialForm(1000n);
    expect(f.messages).toHaveLength(1);
    expect(f.originTimestamp).toBe("1000");
    f = formReducer(f, { type: "setMessageField", uid: 1, field: "timestampDelta", value: "7" });
    f = formReducer(f, { type: "addMessage" });
    f = formReducer(f, { type: "addMessage" });
    expect(f.messages.map((m) => m.uid)).toEqual([1, 2, 3]);
    expect(f.messages[1]!.timestampDelta).toBe("7"); // follows the previous message in time
    f = formReducer(f, { type: "moveMessage", uid: 3, by: -1 });
    expect(f.messages.map((m) => m.uid)).toEqual([1, 3, 2]);
    expect(formReducer(f, { type: "moveMessage", uid: 1, by: -1 })).toBe(f);
    expect(formReducer(f, { type: "moveMessage", uid: 2, by: 1 })).toBe(f);
    f = formReducer(f, { type: "removeMessage", uid: 3 });
    expect(f.messages.map((m) => m.uid)).toEqual([1, 2]);
  });

  it("adds, edits and removes header rows with fresh uids", () => {
    let f = initialForm(0n);
    f = formReducer(f, { type: "addHeader", uid: 1 });
    f = formReducer(f, { type: "addHeader", uid: 1 });
    const [h1, h2] = f.messages[0]!.headers;
    expect(h1!.uid).not.toBe(h2!.uid);
    expect(h1).toMatchObject({ key: "", kind: "string", value: "" });
    f = formReducer(f, { type: "setHeader", uid: 1, headerUid: h2!.uid, patch: { kind: "u8", value: "9" } });
    f = formReducer(f, { type: "removeHeader", uid: 1, headerUid: h1!.uid });
    expect(f.messages[0]!.headers).toEqual([{ uid: h2!.uid, key: "", kind: "u8", value: "9" }]);
    f = formReducer(f, { type: "addMessage" });
    expect(new Set([h1!.uid, h2!.uid, f.messages[1]!.uid]).size).toBe(3);
  });

  it("switching a payload to hex and back keeps its bytes", () => {
    let f = initialForm(0n);
    f = formReducer(f, { type: "setPayloadMode", uid: 1, mode: "hex" });
    expect(f.messages[0]!.payload).toBe("68 65 6c 6c 6f 2c 20 69 67 67 79");
    f = formReducer(f, { type: "setPayloadMode", uid: 1, mode: "text" });
    expect(f.messages[0]!.payload).toBe("hello, iggy");
  });
});

describe("convertPayload", () => {
  it("JSON to hex spells the compact JSON the build will write", () => {
    expect(convertPayload('{ "a": 1 }', "json", "hex")).toBe("7b 22 61 22 3a 31 7d");
    expect(convertPayload("{bad", "json", "hex")).toBe("7b 62 61 64");
  });
  it("hex that is not UTF-8, or not hex, stays as typed", () => {
    expect(convertPayload("ff fe", "hex", "text")).toBe("ff fe");
    expect(convertPayload("abc", "hex", "json")).toBe("abc");
    expect(convertPayload("7b7d", "hex", "json")).toBe("{}");
  });
  it("text and JSON keep their characters", () => {
    expect(convertPayload("x", "text", "json")).toBe("x");
  });
  it("parseHexText ignores 0x, spaces and colons", () => {
    expect(Array.from(parseHexText("0xde:ad be ef")!)).toEqual([0xde, 0xad, 0xbe, 0xef]);
    expect(parseHexText("abc")).toBeNull();
    expect(parseHexText("")).toEqual(new Uint8Array(0));
  });
});
