/** A message's bytes as a view shows them: the captured prefix only, a login's secret masked. */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../../checksum/xxh3.ts";
import { openCapture, readMessage } from "./capture.ts";
import { memorySource } from "./source.ts";
import { SECRET_MASK_BYTE, shownMessageBytes } from "./message-bytes.ts";
import { confirmationReply, loginRequest, pcapOf, reply, sendRequest, sessionPackets } from "./synth.test-util.ts";

const xxh = await loadXxh3();
const SECRET = "s3cret-password";
const SEND = sendRequest(xxh, 3, 7);
const MESSAGES = [
  { toServer: true, bytes: loginRequest("iggy", SECRET) },
  { toServer: false, bytes: reply(1, new Uint8Array(0), 0) },
  { toServer: true, bytes: SEND },
  { toServer: false, bytes: confirmationReply(42, 7) },
];
const text = (b: Uint8Array) => new TextDecoder("latin1").decode(b);

describe("shownMessageBytes", () => {
  const file = pcapOf(sessionPackets({ messages: MESSAGES, mss: 100 }));
  const source = memorySource(file);
  const c = openCapture(xxh, source);
  const conn = c.connections[0]!;

  it("masks the login secret and keeps every other byte", () => {
    const login = shownMessageBytes(source, conn, conn.messages[0]!);
    expect(text(file)).toContain(SECRET);
    if (!login.bytes) throw new Error(login.why);
    expect(text(login.bytes)).not.toContain(SECRET);
    const secret = conn.messages[0]!.secret!;
    expect(login.masked).toEqual(secret);
    expect([...login.bytes.subarray(secret.start, secret.end)].every((b) => b === SECRET_MASK_BYTE)).toBe(true);
    const raw = readMessage(source, conn, conn.messages[0]!)!.bytes;
    expect(login.bytes.subarray(0, secret.start)).toEqual(raw.subarray(0, secret.start));
    expect(login.bytes.subarray(secret.end)).toEqual(raw.subarray(secret.end));
  });

  it("gives a whole message's bytes as sent", () => {
    const send = shownMessageBytes(source, conn, conn.messages[2]!);
    expect(send.bytes).toEqual(SEND);
    expect(send.bytes && send.missingFrom).toBeNull();
  });

  it("stops at the first byte the capture never saw", () => {
    const segs = sessionPackets({ messages: MESSAGES, mss: 100 });
    // Drop a client segment inside the send (the login is 1 segment or 2, the send starts after it).
    const lost = segs.findIndex((s) => s.sport === 40000 && (s.payload?.length ?? 0) > 0 && s.seq > 1001 + MESSAGES[0]!.bytes.length + 150);
    const cut = pcapOf(segs.filter((_, i) => i !== lost));
    const src = memorySource(cut);
    const cc = openCapture(xxh, src).connections[0]!;
    const m = cc.messages.find((x) => x.toServer && x.body === "send-messages" && !x.complete) ?? cc.messages[2]!;
    const shown = shownMessageBytes(src, cc, m);
    if (!shown.bytes) throw new Error(shown.why);
    expect(shown.missingFrom).not.toBeNull();
    expect(shown.bytes.length).toBe(shown.missingFrom);
    expect(shown.bytes).toEqual(SEND.subarray(0, shown.missingFrom!));
  });
});
