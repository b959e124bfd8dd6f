/** A 256-byte consensus header (request, reply, prepare) and the body it frames. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { COMMAND, CONSENSUS_COMMON_FIELDS, CONSENSUS_HEADER_SIZE } from "../../format/containers/consensus.ts";
import { CONSENSUS_VARIANT_FIELDS } from "../../format/containers/protocol.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import { analyzeWith } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { Findings, emptyAnalysis, placeFields } from "./merge.ts";
import { decodePollReply } from "./poll-reply.ts";
import { decodeSendMessages } from "./send-messages.ts";
import type { ContainerField } from "./types.ts";

/** The three consensus formats. */
export type ConsensusFormat = "request" | "reply" | "prepare";

const COMMAND_OF: Readonly<Record<ConsensusFormat, number>> = { request: COMMAND.request, reply: COMMAND.reply, prepare: COMMAND.prepare };
const KNOWN_COMMANDS = new Set<number>(Object.values(COMMAND));
const SEND_MESSAGES_OPERATION = 160;

/** The consensus format a command byte names, or null. */
export function consensusFormatOf(command: number): ConsensusFormat | null {
  return command === COMMAND.request ? "request" : command === COMMAND.reply ? "reply" : command === COMMAND.prepare ? "prepare" : null;
}

/** The decode of a consensus frame: header fields (common + variant), the body's fields, analysis (unmerged) and findings. */
export interface ConsensusParts {
  readonly fields: ContainerField[];
  readonly analysis: Analysis;
  readonly findings: Diagnostic[];
  /** One sentence on what the body holds. */
  readonly body: string;
}

/** Decodes a consensus frame read as `format` (the detected or forced one). */
export function decodeConsensus(xxh: Xxh3, bytes: Uint8Array, format: ConsensusFormat): ConsensusParts {
  const f = new Findings();
  const variant = CONSENSUS_VARIANT_FIELDS.get(COMMAND_OF[format]) ?? [];
  const fields = [...placeFields(bytes, CONSENSUS_COMMON_FIELDS, 0), ...placeFields(bytes, variant, 0)];
  if (bytes.length < CONSENSUS_HEADER_SIZE) {
    f.add("consensus-size-mismatch", 0, bytes.length, `a consensus header needs 256 bytes, the input has ${bytes.length}`);
    return { fields, analysis: emptyAnalysis(bytes.length), findings: f.list, body: "no body" };
  }
  const r = new ByteReader(bytes);
  const size = r.u32(48);
  const command = bytes[60] as number;
  if (command !== COMMAND_OF[format]) {
    const known = KNOWN_COMMANDS.has(command) ? `command ${command}` : `unknown command ${command}`;
    f.add("consensus-command-unexpected", 60, 61, `${known}, a ${format} has ${COMMAND_OF[format]}`);
  }
  const bodyLength = bytes.length - CONSENSUS_HEADER_SIZE;
  if (format === "prepare") {
    const analysis = analyzeWith(xxh, bytes, { startOffset: CONSENSUS_HEADER_SIZE });
    const b = analysis.batches.at(0);
    if (b?.header) {
      const expected = BigInt(CONSENSUS_HEADER_SIZE) + b.header.batchLength;
      if (BigInt(size) !== expected)
        f.add("consensus-size-mismatch", 48, 52, `size ${size}, a prepare of one ${b.header.batchLength}-byte batch has ${expected}`);
      const timestamp = r.u64(192);
      if (b.header.baseTimestamp !== timestamp)
        f.add(
          "prepare-timestamp-mismatch",
          b.start + 16,
          b.start + 24,
          `batch 0: base_timestamp ${b.header.baseTimestamp}, the prepare header's timestamp is ${timestamp}`,
          0,
        );
    } else if (size !== bytes.length) f.add("consensus-size-mismatch", 48, 52, `size ${size}, the input has ${bytes.length} bytes`);
    return { fields, analysis, findings: f.list, body: "one stamped batch" };
  }
  if (size !== bytes.length) f.add("consensus-size-mismatch", 48, 52, `size ${size}, 256 + the body's ${bodyLength} bytes is ${bytes.length}`);
  if (format === "request") {
    const operation = bytes[176] as number;
    if (operation !== SEND_MESSAGES_OPERATION)
      return {
        fields,
        analysis: emptyAnalysis(bytes.length),
        findings: f.list,
        body: `operation ${operation} is not SendMessages (160): the body is not decoded`,
      };
    const body = decodeSendMessages(xxh, bytes, CONSENSUS_HEADER_SIZE);
    return { fields: [...fields, ...body.fields], analysis: body.analysis, findings: [...f.list, ...body.findings], body: "a SendMessages body" };
  }
  const status = r.u32(216);
  if (status !== 0 || bodyLength === 0)
    return {
      fields,
      analysis: emptyAnalysis(bytes.length),
      findings: f.list,
      body: status !== 0 ? `status ${status} (an error code): no body` : "an empty body",
    };
  const body = decodePollReply(xxh, bytes, CONSENSUS_HEADER_SIZE);
  return { fields: [...fields, ...body.fields], analysis: body.analysis, findings: [...f.list, ...body.findings], body: "a poll reply body" };
}
