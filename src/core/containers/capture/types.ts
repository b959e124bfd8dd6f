/** The model a capture opens into (contracts.md §1.2): connections, their messages and every finding. */
import type { DiagnosticCode, Severity } from "../../../format/diagnostics.ts";
import type { BatchJson } from "../../model/contract-json.ts";
import type { Pieces } from "./pieces.ts";

/** What a message body holds (contracts.md §1.2 `body`). */
export type BodyKind = "send-messages" | "poll-request" | "poll-reply" | "send-confirmations" | "login" | "empty" | "raw";

/** A finding of a capture, located by connection, message and packet. */
export interface CaptureDiagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** Within the message (message-level codes), else within the capture file. */
  readonly start: number;
  readonly end: number;
  readonly connection: number | null;
  readonly message: number | null;
  /** 1-based packet number, as Wireshark numbers them; null when no packet holds the place. */
  readonly packet: number | null;
  readonly batch: number | null;
  readonly frame: number | null;
  /** One sentence; never holds a login secret. */
  readonly text: string;
}

/** One protocol message of a connection. */
export interface CaptureMessage {
  readonly index: number;
  readonly toServer: boolean;
  /** The packet holding its first byte. */
  readonly packet: number;
  readonly timeNs: bigint;
  readonly streamOffset: number;
  /** The header's size, or null when it was never seen. */
  readonly size: number | null;
  readonly command: number | null;
  /** Request @176 or reply @208. */
  readonly operation: number | null;
  /** A request's legacy command code @196 when the operation is 2 (non-replicated). */
  readonly legacyCode: number | null;
  readonly request: bigint | null;
  readonly status: number | null;
  replyTo: number | null;
  repliedBy: number | null;
  latencyMicros: number | null;
  readonly body: BodyKind;
  /** Every byte seen and the message ended inside the stream. */
  readonly complete: boolean;
  /** The batches inside, as the JSON contract's batch documents without frames (ranges relative to the message). */
  readonly batches: readonly BatchJson[];
  /** Complete frames of those batches. */
  readonly frames: number;
  /** A phrase for the text output (never a secret). */
  readonly detail: string;
  /** Where a login's secret lies in the message, or null. */
  readonly secret: { readonly start: number; readonly end: number } | null;
  /** Findings of this message: errors, warnings, infos. */
  readonly counts: { errors: number; warnings: number; infos: number };
}

/** Bytes the capture never saw in one direction. */
export interface CaptureGap {
  readonly toServer: boolean;
  readonly streamOffset: number;
  readonly bytes: number;
  readonly packet: number | null;
}

/** One Iggy connection. */
export interface CaptureConnection {
  readonly index: number;
  readonly client: string;
  readonly server: string;
  readonly firstPacket: number;
  /** How it was recognised: the server's port, or the first bytes of a direction. */
  readonly recognizedBy: string;
  readonly bytes: { toServer: number; toClient: number };
  /** "tls" when its stream is TLS (Iggy over TLS): no message of it can be read. */
  encryption: "tls" | null;
  readonly gaps: CaptureGap[];
  readonly messages: CaptureMessage[];
  /** Where each direction's stream lies in the file (message bytes are read back through them). */
  readonly pieces: { readonly toServer: Pieces; readonly toClient: Pieces };
}

/** A whole capture as opened. */
export interface CaptureResult {
  readonly fileFormat: "pcap" | "pcapng";
  readonly linkTypes: readonly number[];
  readonly packets: number;
  readonly otherTcpConnections: number;
  /** UDP datagrams to or from the QUIC port (8080): Iggy over QUIC, encrypted, counted only. */
  readonly quicPackets: number;
  readonly connections: readonly CaptureConnection[];
  /** File-level first, then by connection, message and place. */
  readonly diagnostics: readonly CaptureDiagnostic[];
  readonly summary: { batches: number; frames: number; errors: number; warnings: number; infos: number };
  /** 6 (µs) or 9 (ns): how many fraction digits times are shown with. */
  readonly timeDigits: number;
  /** The port the server side was recognised by. */
  readonly port: number;
}
