/**
 * The Messages table's cells and filters (contracts.md §2): what each column says of a message, in the
 * CLI's words (the core's names for commands, operations, times and IggyErrors), and which rows a filter keeps.
 */
import { captureTime, COMMAND_NAME_OF, operationName } from "../../core/containers/capture/index.ts";
import { iggyError } from "../../format/iggy-errors.ts";
import { plural } from "../../format/values.ts";
import type { MessageIndex } from "../common/message-index.ts";

/** "request send-messages", "reply poll-messages", "eviction", "?" when the header was never seen. */
export function commandText(index: MessageIndex, id: number): string {
  const { conn, msg } = index.at(id);
  const cmd = msg.command === null ? "?" : (COMMAND_NAME_OF[msg.command] ?? `command ${msg.command}`);
  const op = operationName(conn, msg);
  return op ? `${cmd} ${op}` : cmd;
}

/** The time of day of the packet holding its first byte, as the CLI lists it. */
export function timeText(index: MessageIndex, id: number, digits: number): string {
  return captureTime(index.at(id).msg.timeNs, digits).slice(11, -1);
}

/** "ok", "2010 topic_id_not_found", or "" for a request. */
export function statusText(index: MessageIndex, id: number): string {
  const s = index.at(id).msg.status;
  if (s === null) return "";
  return s === 0 ? "ok" : `${s} ${iggyError(s)?.name ?? "(not an IggyError code)"}`;
}

/** A reply's latency after its request in ms, or "". */
export function latencyText(index: MessageIndex, id: number): string {
  const m = index.at(id).msg;
  return m.latencyMicros === null || m.toServer ? "" : `${(m.latencyMicros / 1000).toFixed(3)} ms`;
}

/** "1 batch, 2 msgs" or "". */
export function batchesText(index: MessageIndex, id: number): string {
  const m = index.at(id).msg;
  return m.batchCount ? `${plural(m.batchCount, "batch", "batches")}, ${plural(m.frames, "msg", "msgs")}` : "";
}

/** "1 error, 1 info" or "" (the message's own findings, as the Diagnostics list has them). */
export function findingsText(index: MessageIndex, id: number): string {
  const f = index.findings(id);
  return [f.errors && plural(f.errors, "error"), f.warnings && plural(f.warnings, "warning"), f.infos && plural(f.infos, "info", "infos")]
    .filter(Boolean)
    .join(", ");
}

/** The worst severity of a message's findings, for the row's tone. */
export function findingsTone(index: MessageIndex, id: number): "error" | "warning" | "info" | undefined {
  const f = index.findings(id);
  return f.errors ? "error" : f.warnings ? "warning" : f.infos ? "info" : undefined;
}

/** What the Messages table keeps: everything, or one connection, one direction, one command/operation, problems only. */
export interface MessageFilter {
  readonly problemsOnly: boolean;
  /** A connection index, or null for all. */
  readonly connection: number | null;
  /** "to-server", "to-client" or null for both. */
  readonly direction: "to-server" | "to-client" | null;
  /** A commandText() value, or null for all. */
  readonly command: string | null;
}

/** No filter. */
export const ALL_MESSAGES: MessageFilter = { problemsOnly: false, connection: null, direction: null, command: null };

/** Whether a filter keeps every row (the table then needs no id array). */
export const keepsAll = (f: MessageFilter): boolean => !f.problemsOnly && f.connection === null && f.direction === null && f.command === null;

/** The row test of a filter. */
export function keepOf(index: MessageIndex, f: MessageFilter): (id: number) => boolean {
  return (id) => {
    const { conn, msg } = index.at(id);
    if (f.connection !== null && conn.index !== f.connection) return false;
    if (f.direction !== null && msg.toServer !== (f.direction === "to-server")) return false;
    if (f.problemsOnly && !findingsTone(index, id)) return false;
    return f.command === null || commandText(index, id) === f.command;
  };
}

/** The distinct command/operation texts of a capture, in order of first appearance (the operation filter's choices). */
export function commandChoices(index: MessageIndex, limit = 64): string[] {
  const seen = new Set<string>();
  for (let id = 0; id < index.length && seen.size < limit; id++) seen.add(commandText(index, id));
  return [...seen];
}
