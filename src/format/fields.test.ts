/** The field tables against batch-format.md's layout tables (offsets, sizes, types written out from the spec). */
import { describe, expect, it } from "vitest";
import { CONTAINER_KINDS } from "./containers/kinds.ts";
import { ALL_BYTE_KINDS, BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, describeKind, fieldByName } from "./fields.ts";

// | off | size | field | type | from the spec
const SPEC_BATCH = [
  [0, 8, "partition_id", "u64"],
  [8, 8, "base_offset", "u64"],
  [16, 8, "base_timestamp", "u64"],
  [24, 8, "origin_timestamp", "u64"],
  [32, 8, "batch_length", "u64"],
  [40, 8, "batch_checksum", "u64"],
  [48, 4, "message_count", "u32"],
  [52, 204, "reserved", "bytes"],
];
const SPEC_FRAME = [
  [0, 8, "checksum", "u64"],
  [8, 16, "id", "u128"],
  [24, 4, "offset_delta", "u32"],
  [28, 4, "timestamp_delta", "u32"],
  [32, 4, "user_headers_length", "u32"],
  [36, 4, "payload_length", "u32"],
  [40, 8, "reserved", "u64"],
];

describe("field tables", () => {
  it("match the spec's batch header (256 bytes) and frame header (48 bytes)", () => {
    expect(BATCH_HEADER_SIZE).toBe(256);
    expect(FRAME_HEADER_SIZE).toBe(48);
    expect(BATCH_HEADER_FIELDS.map((f) => [f.offset, f.size, f.name, f.type])).toEqual(SPEC_BATCH);
    expect(FRAME_HEADER_FIELDS.map((f) => [f.offset, f.size, f.name, f.type])).toEqual(SPEC_FRAME);
  });

  it("use the JSON contract's keys", () => {
    expect(BATCH_HEADER_FIELDS.slice(0, 7).map((f) => f.jsonKey)).toEqual([
      "partitionId",
      "baseOffset",
      "baseTimestamp",
      "originTimestamp",
      "batchLength",
      "batchChecksum",
      "messageCount",
    ]);
    expect(FRAME_HEADER_FIELDS.slice(0, 6).map((f) => f.jsonKey)).toEqual([
      "checksum",
      "id",
      "offsetDelta",
      "timestampDelta",
      "userHeadersLength",
      "payloadLength",
    ]);
  });

  it("find fields by name and throw on a typo", () => {
    expect(fieldByName(FRAME_HEADER_FIELDS, "payload_length").offset).toBe(36);
    expect(() => fieldByName(BATCH_HEADER_FIELDS, "payload_length")).toThrow();
  });

  it("describe every byte kind, each once", () => {
    expect(new Set(ALL_BYTE_KINDS).size).toBe(ALL_BYTE_KINDS.length);
    expect(ALL_BYTE_KINDS).toHaveLength(8 + 7 + 3 + CONTAINER_KINDS.length);
    for (const kind of ALL_BYTE_KINDS) expect(describeKind(kind).name.length).toBeGreaterThan(0);
    expect(describeKind("batch.base_offset")).toMatchObject({ name: "base_offset", scope: "batch" });
    expect(describeKind("frame.payload")).toMatchObject({ name: "payload", scope: "frame" });
    expect(describeKind("unattributed").scope).toBe("none");
  });
});
