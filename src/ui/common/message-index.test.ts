/** The Messages table's index over a real (synthesized) capture: capture order, findings per message, gaps, filters. */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { openCapture, memorySource } from "../../core/containers/capture/index.ts";
import { confirmationReply, loginRequest, pcapOf, reply, sendRequest, sessionPackets } from "../../core/containers/capture/synth.test-util.ts";
import type { PageCapture } from "../../worker/protocol.ts";
import { pageConnection } from "../../worker/capture-host.ts";
import { findingLinks, hasFindings, messageAfterGap, messageIndex, messageKey } from "./message-index.ts";
import { ALL_MESSAGES, commandChoices, commandText, keepOf, latencyText, statusText } from "../tables/message-rows.ts";

const xxh = await loadXxh3();
const SEND = sendRequest(xxh, 3, 7);
const MESSAGES = [
  { toServer: true, bytes: loginRequest("iggy", "pw-123456") },
  { toServer: false, bytes: reply(1, new Uint8Array(0), 0) },
  { toServer: true, bytes: SEND },
  { toServer: false, bytes: confirmationReply(42, 7) },
  { toServer: true, bytes: SEND },
  { toServer: false, bytes: reply(3, new Uint8Array(0), 160, 2010) },
];

function pageCapture(file: Uint8Array): PageCapture {
  const c = openCapture(xxh, memorySource(file));
  return { ...c, connections: c.connections.map(pageConnection), key: 1, detectedBy: "test", onDemand: false };
}

describe("messageIndex", () => {
  const capture = pageCapture(pcapOf(sessionPackets({ messages: MESSAGES, mss: 100 })));
  const index = messageIndex(capture);

  it("lists every message once, by packet, and maps refs both ways", () => {
    expect(index.length).toBe(MESSAGES.length);
    const packets = Array.from({ length: index.length }, (_, id) => index.at(id).msg.packet);
    expect(packets).toEqual([...packets].sort((a, b) => a - b));
    const keys = Array.from({ length: index.length }, (_, id) => messageKey(index.ref(id)));
    expect(new Set(keys).size).toBe(index.length);
    for (let id = 0; id < index.length; id++) expect(index.idOf(index.ref(id))).toBe(id);
    expect(index.idOf({ connection: 0, message: 99 })).toBe(-1);
    expect(index.idOf({ connection: 5, message: 0 })).toBe(-1);
  });

  it("counts each message's findings from the capture's diagnostics, and filters on them", () => {
    const own = new Set(capture.diagnostics.filter((d) => d.message !== null).map((d) => `${d.connection}:${d.message}`));
    expect(own.size).toBeGreaterThan(0);
    const problems = Array.from({ length: index.length }, (_, id) => id).filter((id) => hasFindings(index, id));
    expect(new Set(problems.map((id) => messageKey(index.ref(id))))).toEqual(own);
    const keep = keepOf(index, { ...ALL_MESSAGES, problemsOnly: true });
    expect(problems.every(keep)).toBe(true);
  });

  it("names commands, statuses and latencies in the CLI's words", () => {
    expect(commandChoices(index)).toEqual(expect.arrayContaining(["request send-messages", "reply send-messages"]));
    const refused = Array.from({ length: index.length }, (_, id) => id).find((id) => index.at(id).msg.status === 2010)!;
    expect(statusText(index, refused)).toMatch(/^2010 topic_id_not_found/);
    expect(latencyText(index, refused)).toMatch(/^\d+\.\d{3} ms$/);
    const toServer = keepOf(index, { ...ALL_MESSAGES, direction: "to-server" });
    for (let id = 0; id < index.length; id++) {
      expect(toServer(id)).toBe(index.at(id).msg.toServer);
      if (index.at(id).msg.toServer) expect(latencyText(index, id)).toBe("");
    }
    const sends = keepOf(index, { ...ALL_MESSAGES, command: "request send-messages" });
    expect(
      Array.from({ length: index.length }, (_, id) => id)
        .filter(sends)
        .map((id) => commandText(index, id)),
    ).toHaveLength(2);
  });

  it("leads a gap between messages to the message its direction resumes at", () => {
    const segs = sessionPackets({ messages: MESSAGES, mss: 100 });
    // Drop every client segment of the first send: its bytes are a gap before the second send.
    const first = 1001 + MESSAGES[0]!.bytes.length;
    const gapped = pageCapture(
      pcapOf(segs.filter((s) => !(s.sport === 40000 && s.seq >= first && s.seq < first + SEND.length && (s.payload?.length ?? 0) > 0))),
    );
    const gap = gapped.diagnostics.find((d) => d.code === "tcp-gap" && d.message === null);
    if (!gap) throw new Error(`no gap between messages: ${gapped.diagnostics.map((d) => d.code).join(", ")}`);
    const to = messageAfterGap(gapped, gap)!;
    const msg = gapped.connections[to.connection]!.messages[to.message]!;
    expect(msg.toServer).toBe(true);
    expect(msg.streamOffset).toBeGreaterThanOrEqual(gap.end);
    expect(messageAfterGap(gapped, { ...gap, code: "reply-status" })).toBeNull();
  });

  it("links a packet the snap length cut to the message its lost bytes belong to", () => {
    const segs = sessionPackets({ messages: MESSAGES, mss: 100 });
    const file = pcapOf(segs);
    // Rewrite the capture with a snap length: every record longer than 120 bytes keeps 120 (caplen < len).
    const cut = pageCapture(snapped(file, 120));
    const truncated = cut.diagnostics.filter((d) => d.code === "capture-packet-truncated");
    expect(truncated.length).toBeGreaterThan(0);
    const link = findingLinks(cut);
    for (const d of truncated) {
      const gap = cut.diagnostics.find((g) => g.code === "tcp-gap" && g.packet === d.packet && g.message !== null)!;
      expect(link(d)).toEqual({ connection: gap.connection, message: gap.message });
    }
    for (const d of cut.diagnostics.filter((x) => x.message !== null)) expect(link(d)).toEqual({ connection: d.connection, message: d.message });
  });
});

/** A classic pcap (little-endian) rewritten with every packet cut to `snap` bytes, as `tcpdump -s` writes it. */
function snapped(file: Uint8Array, snap: number): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const parts: Uint8Array[] = [file.slice(0, 24)];
  for (let at = 24; at + 16 <= file.length;) {
    const caplen = view.getUint32(at + 8, true);
    const keep = Math.min(caplen, snap);
    const head = file.slice(at, at + 16);
    new DataView(head.buffer).setUint32(8, keep, true);
    parts.push(head, file.slice(at + 16, at + 16 + keep));
    at += 16 + caplen;
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
