/**
 * Auto-detect (containers.md "Formats and their names"): the one detection every host runs, over bytes
 * in memory or a file read in small pieces. Batches whose batch_length steps exactly to the end stay
 * batches whatever their reserved bytes (the batch decoder reports those); a candidate container wins
 * only where its own structure checks out and no batch reading tiles the input. Input that fits nothing
 * and whose first 256 bytes cannot be a batch header (most reserved bytes nonzero) is "unrecognized":
 * one format-unrecognized error instead of a batch decode's noise (force a format to decode anyway).
 */
import { CONSENSUS_HEADER_SIZE } from "../../format/containers/consensus.ts";
import { LEGACY_HEADER_SIZE } from "../../format/containers/legacy.ts";
import { POLL_PREFIX_SIZE, POLL_RESYNC_SENTINEL } from "../../format/containers/poll-reply.ts";
import { BATCH_FIELD, BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { ByteReader } from "../../format/reader.ts";
import { plural } from "../../format/values.ts";
import type { Analysis } from "../model/model.ts";
import type { ByteSource } from "../walk/range-walk.ts";
import { consensusFormatOf } from "./consensus.ts";
import { isCaptureMagic } from "./capture/file.ts";
import { parseSendMetadata } from "./send-messages.ts";
import type { FormatName } from "./types.ts";
import { readHeaderAt, type WalkStop } from "./walk.ts";

/** What auto-detect chose and why, in one sentence; `recognized` is false for input that fits no Iggy format. */
export interface Detection {
  readonly format: FormatName;
  readonly detectedBy: string;
  readonly recognized: boolean;
}

/** What detection reads of an input: its length and a few bytes at a time. */
export interface DetectInput {
  readonly size: number;
  /** Up to `length` bytes from `pos` (fewer at the end); valid until the next call. */
  at(pos: number, length: number): Uint8Array;
}

/** Whether batch headers step by batch_length from byte 0 to exactly the end, and where they stop if not. */
export interface BatchTiling {
  readonly batches: number;
  readonly tiles: boolean;
  /** Why the walk stopped short (a diagnostic code of the batch walk), or null. */
  readonly stop: LengthStop | null;
  readonly stopAt: number;
}

/** The stops of a walk that reads only batch_length: reserved bytes do not stop it. */
export type LengthStop = Exclude<WalkStop, "batch-reserved-nonzero">;

const LENGTH_STOPS: ReadonlySet<string> = new Set<LengthStop>(["header-truncated", "batch-length-too-small", "batch-truncated"]);
const LENGTH_AT = BATCH_FIELD.batch_length.offset;
const BLOCK_BYTES = 64 << 10;
/** A SendMessages metadata block holds two identifiers and a partitioning (each ≤ 2 + 255 bytes) and a count. */
const SEND_HEAD_BYTES = 4 + 3 * 257 + 4;

/** A DetectInput over bytes in memory. */
export function memoryInput(bytes: Uint8Array): DetectInput {
  return { size: bytes.length, at: (pos, length) => bytes.subarray(pos, Math.min(bytes.length, pos + length)) };
}

/** A DetectInput over a ByteSource (a file read in pieces): reads go through one block (64 KiB). */
export function sourceInput(source: ByteSource, blockBytes = BLOCK_BYTES): DetectInput {
  let block = new Uint8Array(blockBytes);
  let blockStart = 0;
  let blockLength = 0;
  return {
    size: source.size,
    at(pos, length) {
      const want = Math.max(0, Math.min(length, source.size - pos));
      if (pos < blockStart || pos + want > blockStart + blockLength) {
        if (want > block.length) block = new Uint8Array(want);
        blockStart = pos;
        blockLength = source.read(block.subarray(0, Math.max(want, Math.min(block.length, source.size - pos))), pos);
      }
      return block.subarray(pos - blockStart, Math.min(blockLength, pos - blockStart + want));
    },
  };
}

/** Steps batch headers by batch_length alone (at least 256, fitting the input) from byte 0. */
export function batchTiling(input: DetectInput): BatchTiling {
  let pos = 0;
  let batches = 0;
  while (pos < input.size) {
    if (input.size - pos < BATCH_HEADER_SIZE) return { batches, tiles: false, stop: "header-truncated", stopAt: pos };
    const head = input.at(pos + LENGTH_AT, 8);
    const r = new ByteReader(head);
    // Two u32 reads, no BigInt per batch: past 2^53 the length only has to exceed the size.
    const length = r.u32(0) + r.u32(4) * 2 ** 32;
    if (length < BATCH_HEADER_SIZE) return { batches, tiles: false, stop: "batch-length-too-small", stopAt: pos };
    if (length > input.size - pos) return { batches, tiles: false, stop: "batch-truncated", stopAt: pos };
    pos += length;
    batches++;
  }
  return { batches, tiles: batches > 0, stop: null, stopAt: pos };
}

/**
 * The tiling a batch walk of the whole input proves (the walk stops where batchTiling does), or
 * undefined where it stops short: detection then walks the lengths itself to say where and why.
 */
export function walkedTiling(analysis: Analysis): BatchTiling | undefined {
  const batches = analysis.batches.length;
  if (batches === 0 || analysis.diagnostics.some((d) => d.batch !== null && LENGTH_STOPS.has(d.code))) return undefined;
  return { batches, tiles: true, stop: null, stopAt: analysis.size };
}

/** The format a file name decides under auto-detect (`.index`, `.log`), or null when its content must. */
export function detectByName(name: string): Detection | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".index")) return { format: "index", detectedBy: "auto: the file name ends in .index", recognized: true };
  if (lower.endsWith(".log")) return { format: "segment", detectedBy: "auto: the file name ends in .log", recognized: true };
  return null;
}

/** The Detection of a format the user chose. */
export function forcedDetection(format: FormatName): Detection {
  return { format, detectedBy: `forced: ${format} was chosen, not detected`, recognized: true };
}

/**
 * Picks the format of one file: by `name` for `.log` and `.index`, else by content. A host that has
 * already walked the batches (the kernel's streaming walk, the CLI's range cutter) passes the `tiling`
 * it found, so the headers are not walked twice.
 */
export function detectFormat(bytes: Uint8Array | DetectInput, name = "", tiling?: BatchTiling): Detection {
  const byName = detectByName(name);
  if (byName) return byName;
  const input = bytes instanceof Uint8Array ? memoryInput(bytes) : bytes;
  const asBatches = tiling ?? batchTiling(input);
  if (asBatches.tiles) {
    const n = asBatches.batches;
    return {
      format: "batches",
      detectedBy: `auto: ${plural(n, "batch header", "batch headers")} ${n === 1 ? "ends exactly at" : "step by batch_length to exactly"} the end of the input`,
      recognized: true,
    };
  }
  const container = detectContainer(input);
  if (container) return container;
  const size = input.size;
  if (size >= BATCH_HEADER_SIZE) {
    const head = input.at(0, BATCH_HEADER_SIZE);
    let nonzero = 0;
    for (let i = 52; i < BATCH_HEADER_SIZE; i++) if (head[i] !== 0) nonzero++;
    if (nonzero * 2 > BATCH_HEADER_SIZE - 52) {
      return {
        format: "batches",
        detectedBy: `auto: does not look like any Iggy format: ${nonzero} of the 204 reserved bytes of a batch header are nonzero (a batch has none) and no container's structure checks out; force a format to decode it anyway`,
        recognized: false,
      };
    }
  }
  const why =
    size < BATCH_HEADER_SIZE
      ? `the input (${plural(size, "byte")}) is shorter than a batch header`
      : `the batch walk stops at byte ${asBatches.stopAt} (${asBatches.stop})`;
  return { format: "batches", detectedBy: `auto: no container's structure checks out and ${why}; read as batches`, recognized: true };
}

/** The container whose structure checks out across the whole input, or null. */
function detectContainer(input: DetectInput): Detection | null {
  const size = input.size;
  if (isCaptureMagic(input.at(0, 12))) return { format: "capture", detectedBy: "auto: the file starts with a pcap or pcapng magic", recognized: true };
  const head = input.at(0, CONSENSUS_HEADER_SIZE);
  if (size >= CONSENSUS_HEADER_SIZE && new ByteReader(head).u32(48) === size) {
    const command = head[60] as number;
    const format = consensusFormatOf(command);
    if (format)
      return {
        format,
        detectedBy: `auto: the consensus header's size at 48 equals the input length (${size}) and command at 60 is ${command} (${format})`,
        recognized: true,
      };
  }
  // The metadata ends at 4 + metadata_length; one longer than SEND_HEAD_BYTES cannot parse, and does not here either.
  const meta = parseSendMetadata(input.at(0, SEND_HEAD_BYTES), 0);
  if (!meta.fault && meta.batchStart !== null) {
    const h = checkedHeaderAt(input, meta.batchStart);
    if (typeof h !== "string" && h.end === size)
      return {
        format: "send-messages",
        detectedBy: "auto: metadata_length, the identifiers and the partitioning parse, and the batch ends exactly at the body end",
        recognized: true,
      };
  }
  const prefix = new ByteReader(input.at(0, POLL_PREFIX_SIZE));
  if (size === POLL_PREFIX_SIZE && prefix.u32(0) === POLL_RESYNC_SENTINEL) {
    return { format: "poll-reply", detectedBy: "auto: a 16-byte body with partition_id 0xFFFFFFFF, the consumer-group resync sentinel", recognized: true };
  }
  if (size > POLL_PREFIX_SIZE) {
    const count = prefix.u32(12);
    // A poll reply's records are whole batches as upstream decodes them: reserved bytes zero.
    let pos = POLL_PREFIX_SIZE;
    let records = 0;
    let sum = 0;
    for (let h = checkedHeaderAt(input, pos); typeof h !== "string"; h = checkedHeaderAt(input, pos)) {
      sum += h.messageCount;
      records++;
      pos = h.end;
      if (pos === size) break;
    }
    if (pos === size && sum === count) {
      return {
        format: "poll-reply",
        detectedBy: `auto: the prefix's count (${sum}) equals the sum of message_count of the ${plural(records, "batch", "batches")} that tile the input from byte 16`,
        recognized: true,
      };
    }
  }
  if (legacyTiles(input))
    return {
      format: "legacy-messages",
      detectedBy: "auto: 64-byte legacy message headers tile the input exactly and their reserved bytes are zero",
      recognized: true,
    };
  return null;
}

/** The batch header at `pos` as upstream's BatchHeader::decode checks it (walk.ts readHeaderAt), fitting the input. */
function checkedHeaderAt(input: DetectInput, pos: number): ReturnType<typeof readHeaderAt> {
  if (input.size - pos < BATCH_HEADER_SIZE) return "header-truncated";
  const h = readHeaderAt(input.at(pos, BATCH_HEADER_SIZE), 0, input.size - pos);
  return typeof h === "string" ? h : { ...h, start: pos, end: pos + h.end };
}

/** True when 64-byte legacy headers tile the input exactly, each with its reserved u64 zero. */
function legacyTiles(input: DetectInput): boolean {
  let pos = 0;
  while (pos < input.size) {
    if (input.size - pos < LEGACY_HEADER_SIZE) return false;
    const r = new ByteReader(input.at(pos, LEGACY_HEADER_SIZE));
    if (r.u64(56) !== 0n) return false;
    pos += LEGACY_HEADER_SIZE + r.u32(48) + r.u32(52);
  }
  return pos === input.size && input.size > 0;
}
