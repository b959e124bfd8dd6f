/**
 * A capture's messages in capture order (contracts.md §2: one row per message of every connection, by
 * the packet holding its first byte), with each message's findings counted from the capture's own
 * diagnostics list, so the Messages table, its "Problems only" filter and the Diagnostics list agree.
 */
import type { PageCapture, PageCaptureConnection, PageCaptureMessage } from "../../worker/protocol.ts";
import type { MessageRef } from "../state/app-state.ts";

/** Flat positions over every message of a capture (ids of the Messages table). */
export interface MessageIndex {
  readonly length: number;
  /** The message at flat position `id`. */
  ref(id: number): MessageRef;
  /** The flat position of a message, or -1. */
  idOf(ref: MessageRef): number;
  /** The connection and message at `id`. */
  at(id: number): { readonly conn: PageCaptureConnection; readonly msg: PageCaptureMessage };
  /** Findings located on the message at `id` (errors, warnings, infos). */
  findings(id: number): { readonly errors: number; readonly warnings: number; readonly infos: number };
}

/** `"<conn>:<index>"`, the data-message value of a row or finding. */
export const messageKey = (r: MessageRef): string => `${r.connection}:${r.message}`;

/** Builds the capture-order index of a capture's messages. */
export function messageIndex(capture: PageCapture): MessageIndex {
  const conns = capture.connections;
  const base = new Uint32Array(conns.length + 1);
  for (let c = 0; c < conns.length; c++) base[c + 1] = base[c]! + conns[c]!.messages.length;
  const total = base[conns.length]!;
  // Ordered by packet, then connection and index: what a reader of the capture sees first comes first.
  const order = new Uint32Array(total);
  const connOf = new Uint32Array(total);
  for (let c = 0; c < conns.length; c++) connOf.fill(c, base[c], base[c + 1]);
  const packet = (flat: number) => conns[connOf[flat]!]!.messages[flat - base[connOf[flat]!]!]!.packet;
  const flats = Array.from({ length: total }, (_, k) => k).sort((a, b) => packet(a) - packet(b) || a - b);
  const idOfFlat = new Uint32Array(total);
  flats.forEach((flat, id) => {
    order[id] = flat;
    idOfFlat[flat] = id;
  });
  const counts = [new Uint32Array(total), new Uint32Array(total), new Uint32Array(total)] as const;
  for (const d of capture.diagnostics) {
    if (d.connection === null || d.message === null || d.connection >= conns.length) continue;
    const flat = base[d.connection]! + d.message;
    if (flat >= base[d.connection + 1]!) continue;
    counts[d.severity === "error" ? 0 : d.severity === "warning" ? 1 : 2][flat]!++;
  }
  const refOfFlat = (flat: number): MessageRef => ({ connection: connOf[flat]!, message: flat - base[connOf[flat]!]! });
  return {
    length: total,
    ref: (id) => refOfFlat(order[id]!),
    idOf: (r) => {
      const flat = r.connection < conns.length ? base[r.connection]! + r.message : -1;
      return flat >= 0 && r.message >= 0 && flat < base[r.connection + 1]! ? idOfFlat[flat]! : -1;
    },
    at: (id) => {
      const r = refOfFlat(order[id]!);
      return { conn: conns[r.connection]!, msg: conns[r.connection]!.messages[r.message]! };
    },
    findings: (id) => {
      const flat = order[id]!;
      return { errors: counts[0][flat]!, warnings: counts[1][flat]!, infos: counts[2][flat]! };
    },
  };
}

/** Whether the message at `id` has a finding of its own. */
export function hasFindings(index: MessageIndex, id: number): boolean {
  const f = index.findings(id);
  return f.errors + f.warnings + f.infos > 0;
}

/**
 * The message a connection-level finding leads to: a gap between messages (tcp-gap with no message)
 * is shown before the message its direction resumes with; null for anything else.
 */
export function messageAfterGap(capture: PageCapture, d: PageCapture["diagnostics"][number]): MessageRef | null {
  if (d.connection === null || d.message !== null || d.code !== "tcp-gap") return null;
  const conn = capture.connections[d.connection];
  const gap = conn?.gaps.find((g) => g.streamOffset === d.start && g.bytes === d.end - d.start && g.packet === d.packet);
  if (!conn || !gap) return null;
  const next = conn.messages.find((m) => m.toServer === gap.toServer && m.streamOffset >= gap.streamOffset + gap.bytes);
  return next ? { connection: conn.index, message: next.index } : null;
}

/**
 * For each finding of a capture, the message it belongs to or leads to: its own; for a gap between messages the
 * message its direction resumes at; for a packet the snap length cut, the message whose bytes it carried (the one
 * its tcp-gap falls in); null for a file-level finding.
 */
export function findingLinks(capture: PageCapture): (d: PageCapture["diagnostics"][number]) => MessageRef | null {
  const cut = new Map<string, MessageRef>();
  for (const d of capture.diagnostics)
    if (d.code === "tcp-gap" && d.connection !== null && d.message !== null && d.packet !== null && !cut.has(`${d.connection}:${d.packet}`))
      cut.set(`${d.connection}:${d.packet}`, { connection: d.connection, message: d.message });
  return (d) => {
    if (d.connection !== null && d.message !== null) return { connection: d.connection, message: d.message };
    if (d.code === "capture-packet-truncated" && d.connection !== null && d.packet !== null) return cut.get(`${d.connection}:${d.packet}`) ?? null;
    return messageAfterGap(capture, d);
  };
}
