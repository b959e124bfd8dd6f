/**
 * `inspect`, `report` and `extract` over a network capture (contracts.md §1.2): the file is read
 * through a file-descriptor source (windows, never whole), standard input from memory.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { createHash } from "node:crypto";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import {
  captureJsonChunks,
  captureTime,
  COMMAND_NAME_OF,
  isCaptureMagic,
  memorySource,
  messageDocText,
  openCapture,
  QUIC_PORT,
  operationNameWith,
  readMessage,
  type CaptureConnection,
  type CaptureMessage,
  type CaptureResult,
  type CaptureSource,
} from "../src/core/containers/capture/index.ts";
import { FORMAT_TITLES, type FormatChoice } from "../src/core/containers/index.ts";
import { iggyError } from "../src/format/iggy-errors.ts";
import { plural } from "../src/format/values.ts";
import { summarySentence } from "../src/core/report/summary-text.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import { TOOL_VERSION } from "../src/version.ts";
import { readInputBytes, UsageError } from "./io.ts";
import { LineSpool } from "./capture-spool.ts";
import { phaseDone } from "./timings.ts";
import { captureBatchesOut, capturedMessageOut } from "../src/core/edit/redact-capture.ts";
import type { RedactOptions } from "../src/core/edit/redact.ts";

/** Writes text pieces (main.ts's writer). */
type Write = (chunks: Iterable<string>) => Promise<void>;

/** An opened capture input: its source, name and size, and a way to close it. */
export interface CaptureInput {
  readonly source: CaptureSource;
  readonly name: string;
  readonly size: number;
  readonly detectedBy: string;
  close(): void;
}

/** A source over an open file descriptor. */
function fdSource(fd: number, size: number): CaptureSource {
  const readInto = (start: number, buf: Uint8Array): number => {
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, start + at);
      if (n === 0) break;
      at += n;
    }
    return at;
  };
  return {
    size,
    read(start, end) {
      const s = Math.max(0, start);
      const buf = new Uint8Array(Math.max(0, Math.min(size, end) - s));
      const got = readInto(s, buf);
      return got === buf.length ? buf : buf.subarray(0, got);
    },
    readInto: (start, target) => readInto(Math.max(0, start), target.subarray(0, Math.max(0, Math.min(target.length, size - start)))),
  };
}

/**
 * The capture at `path` when it is one (by magic under auto, or forced with --format capture); null
 * otherwise, with standard input's bytes handed back so the other formats can read them.
 */
export async function captureInput(path: string, format: FormatChoice): Promise<CaptureInput | { bytes: Uint8Array } | null> {
  if (format !== "auto" && format !== "capture") return null;
  let regular: boolean;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) return null; // a partition directory: the callers read it as one
    regular = stat.isFile();
  } catch {
    regular = path === "-";
    if (!regular) return null; // the usual path words the error
  }
  if (path === "-" || !regular) {
    // Standard input, a FIFO or a device: read once (up to the input limit), then decided by its bytes.
    const bytes = await readInputBytes(path);
    if (format !== "capture" && !isCaptureMagic(bytes.subarray(0, 12))) return { bytes };
    return { source: memorySource(bytes), name: path === "-" ? "-" : basename(path), size: bytes.length, detectedBy: detectedBy(format), close: () => {} };
  }
  const fd = openSync(path, "r");
  try {
    const source = fdSource(fd, fstatSync(fd).size);
    if (format !== "capture" && !isCaptureMagic(source.read(0, 12))) {
      closeSync(fd);
      return null;
    }
    return { source, name: basename(path), size: source.size, detectedBy: detectedBy(format), close: () => closeSync(fd) };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

const detectedBy = (format: FormatChoice): string =>
  format === "capture" ? "forced: capture was chosen, not detected" : "auto: the file starts with a pcap or pcapng magic";

/** Parses --port. */
export function parsePort(value: string | boolean | undefined): number | undefined {
  if (typeof value !== "string") return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535)
    throw new UsageError(`iggy-batch: --port takes a TCP port 1..65535, not ${JSON.stringify(visibleText(value))}`);
  return Number(value);
}

/** `inspect CAPTURE`: the JSON document or the text listing; returns the exit status. */
export async function inspectCapture(write: Write, input: CaptureInput, json: boolean, withFrames: boolean, port?: number): Promise<number> {
  const xxh = await loadXxh3();
  phaseDone("capture: kernel load");
  // Each message's document or line is made as the capture is read and waits on disk, not in memory (issue #24).
  const frames = withFrames ? { xxh, source: input.source } : null;
  const spool = new LineSpool();
  try {
    const c = openCapture(xxh, input.source, {
      port,
      release: (conn, m, request, digits) =>
        spool.add(conn.index, json ? messageDocText(conn, m, request, digits, frames) : messageLine(conn, m, digits, request)),
    });
    phaseDone("capture: walk (read, reassemble, cut, checks, message documents spooled)");
    if (json) await write(captureJsonChunks(c, input.name, input.size, input.detectedBy, frames, (conn) => spool.lines(conn)));
    else await write(captureTextChunks(c, input, spool));
    phaseDone("capture: output");
    return c.summary.errors > 0 ? 1 : 0;
  } finally {
    spool.close();
  }
}

const DIR = (m: CaptureMessage): string => (m.toServer ? "→" : "←");

/** One message's line: time, arrow, command/operation, size, status, latency, batches, findings; `request` is the request a reply answers. */
export function messageLine(
  conn: CaptureConnection,
  m: CaptureMessage,
  digits: number,
  request: CaptureMessage | null = m.replyTo === null ? null : (conn.messages[m.replyTo] ?? null),
): string {
  const time = captureTime(m.timeNs, digits).slice(11, -1);
  const cmd = m.command === null ? "?" : (COMMAND_NAME_OF[m.command] ?? `command ${m.command}`);
  const op = operationNameWith(m, request);
  const what = op ? `${cmd} ${op}` : cmd;
  const size = m.size === null ? "size ?" : `${m.size} B`;
  const status = m.status === null ? "" : m.status === 0 ? "ok" : `status ${m.status} ${iggyError(m.status)?.name ?? "?"}`;
  const latency = m.latencyMicros === null || m.toServer ? "" : `${(m.latencyMicros / 1000).toFixed(3)} ms`;
  const batches = m.batches.length ? `${plural(m.batches.length, "batch", "batches")}, ${plural(m.frames, "msg", "msgs")}` : "";
  const n = m.counts;
  const findings = [n.errors && plural(n.errors, "error"), n.warnings && plural(n.warnings, "warning"), n.infos && plural(n.infos, "info", "infos")]
    .filter(Boolean)
    .join(", ");
  const cols = [
    `${conn.index}:${m.index}`.padEnd(7),
    time,
    DIR(m),
    what.padEnd(30),
    size.padStart(10),
    status.padEnd(8),
    latency.padStart(11),
    batches,
    m.complete ? "" : "INCOMPLETE",
    findings ? `[${findings}]` : "",
    m.detail ? `— ${visibleText(m.detail)}` : "",
  ];
  return cols.join("  ").replace(/\s+$/, "");
}

function* keptLines(conn: CaptureConnection, digits: number): Generator<string> {
  for (const m of conn.messages) yield messageLine(conn, m, digits);
}

const LINK_NAMES: Readonly<Record<number, string>> = {
  0: "null/loopback",
  1: "Ethernet",
  101: "raw IP",
  108: "OpenBSD loopback",
  113: "Linux cooked v1",
  228: "raw IPv4",
  229: "raw IPv6",
  276: "Linux cooked v2",
};

/** The human listing of a capture; `spooled` holds each connection's message lines when its messages were not kept. */
export function* captureTextChunks(c: CaptureResult, input: { name: string; detectedBy: string }, spooled: LineSpool | null = null): Generator<string> {
  yield `${visibleText(input.name)}: format: ${FORMAT_TITLES.capture} [capture] (${visibleText(input.detectedBy)})\n`;
  const links = c.linkTypes.map((l) => `${l} (${LINK_NAMES[l] ?? "not decoded"})`).join(", ");
  yield `${c.fileFormat}, link type ${links || "none"}, ${plural(c.packets, "packet")}, ${plural(c.connections.length, "Iggy connection")} (server port ${c.port} or by content), ${plural(c.otherTcpConnections, "other TCP connection")}${c.quicPackets ? `, ${plural(c.quicPackets, "QUIC packet")} (UDP port ${QUIC_PORT}: encrypted, counted only)` : ""} · ${summarySentence(c.summary)}\n`;
  for (const conn of c.connections) {
    yield `\nconnection ${conn.index}: ${conn.client} → ${conn.server}  first packet ${conn.firstPacket}  ${conn.bytes.toServer} B to server, ${conn.bytes.toClient} B to client, ${plural(spooled ? spooled.count(conn.index) : conn.messages.length, "message")}, ${plural(conn.gaps.length, "gap")} (${conn.recognizedBy})${conn.encryption ? "; TLS: encrypted, no message can be read" : ""}\n`;
    let piece: string[] = [];
    for (const line of spooled ? spooled.lines(conn.index) : keptLines(conn, c.timeDigits)) {
      piece.push(line);
      if (piece.length === 512) {
        yield piece.join("\n") + "\n";
        piece = [];
      }
    }
    if (piece.length) yield piece.join("\n") + "\n";
  }
  if (c.diagnostics.length) {
    yield "\ndiagnostics:\n";
    for (const d of c.diagnostics) {
      const where = d.connection === null ? `file ${d.start}..${d.end}` : `${d.connection}:${d.message ?? "-"} ${d.start}..${d.end}`;
      yield `  ${d.severity.padEnd(7)} ${where}${d.packet === null ? "" : ` packet ${d.packet}`}  ${d.code}: ${visibleText(d.text)}\n`;
    }
  }
  yield `\n${c.summary.errors > 0 ? `verdict: FAIL (${plural(c.summary.errors, "error")})` : "verdict: ok"}\n`;
}

/** `report CAPTURE`: Markdown for a bug tracker; a login's secret is never in it. */
export async function reportCapture(input: CaptureInput, port?: number): Promise<{ text: string; status: number }> {
  const xxh = await loadXxh3();
  const c = openCapture(xxh, input.source, { port });
  const hash = createHash("sha256");
  for (let at = 0; at < input.size; at += 4 << 20) hash.update(input.source.read(at, Math.min(input.size, at + (4 << 20))));
  const lines = [
    `# iggy-batch report: ${input.name}`,
    "",
    `- Tool: iggy-batch ${TOOL_VERSION}`,
    `- Input: \`${input.name}\`, ${input.size} bytes, SHA-256 \`${hash.digest("hex")}\``,
    `- Format: ${FORMAT_TITLES.capture} (${input.detectedBy}); ${c.fileFormat}, ${plural(c.packets, "packet")}`,
    `- Summary: ${summarySentence(c.summary)}`,
    `- Verdict: ${c.summary.errors > 0 ? "FAIL" : "ok"}`,
    "",
    "Login secrets are shown as •••• with their length; no payload bytes are quoted.",
    "",
    "## Connections",
    "",
  ];
  for (const conn of c.connections) {
    lines.push(`### Connection ${conn.index}: ${conn.client} → ${conn.server}`, "", "```");
    for (const m of conn.messages) lines.push(messageLine(conn, m, c.timeDigits));
    lines.push("```", "");
  }
  if (c.diagnostics.length) {
    lines.push("## Diagnostics", "", "| severity | code | connection:message | packet | range | finding |", "|---|---|---|---|---|---|");
    for (const d of c.diagnostics.slice(0, 200))
      lines.push(
        `| ${d.severity} | \`${d.code}\` | ${d.connection === null ? "file" : `${d.connection}:${d.message ?? "-"}`} | ${d.packet ?? ""} | ${d.start}..${d.end} | ${d.text.replace(/\|/g, "\\|")} |`,
      );
    if (c.diagnostics.length > 200) lines.push("", `… and ${c.diagnostics.length - 200} more.`);
  }
  return { text: lines.join("\n") + "\n", status: c.summary.errors > 0 ? 1 : 0 };
}

/** `extract CAPTURE --message C:I` (the message's bytes) or `--batches` (every batch of the capture back to back). */
export async function extractCapture(
  input: CaptureInput,
  what: { message: string | null; batches: boolean },
  port?: number,
  redact: RedactOptions | null = null,
): Promise<Uint8Array[]> {
  const xxh = await loadXxh3();
  const c = openCapture(xxh, input.source, { port });
  if (what.message !== null) {
    const m = /^(\d+):(\d+)$/.exec(what.message);
    if (!m) throw new UsageError(`iggy-batch: --message takes CONNECTION:INDEX (e.g. 0:4), not ${JSON.stringify(visibleText(what.message))}`);
    const conn = c.connections[Number(m[1])];
    const msg = conn?.messages[Number(m[2])];
    if (!conn || !msg)
      throw new UsageError(`iggy-batch: no message ${what.message} in ${visibleText(input.name)} (${plural(c.connections.length, "connection")})`);
    const got = readMessage(input.source, conn, msg);
    if (!got || got.missing.length)
      throw new UsageError(
        `iggy-batch: message ${what.message} was not captured whole (${got ? "bytes missing in a gap" : "its size was never seen"}); nothing written`,
      );
    if (msg.secret) throw new UsageError(`iggy-batch: message ${what.message} is a login: its secret is never written out`);
    return [capturedMessageOut(xxh, input.source, conn, msg, redact) as Uint8Array];
  }
  return captureBatchesOut(xxh, input.source, c, redact);
}
