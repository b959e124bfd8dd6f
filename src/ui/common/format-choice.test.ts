import { describe, expect, test } from "vitest";
import { FORMAT_NAMES } from "../../core/containers/index.ts";
import { FORMAT_OPTIONS, formatLine, formatOfAlias } from "./format-choice.ts";
import { companionName, partitionLabel } from "../session/partition-files.ts";

describe("the Format control", () => {
  test("offers auto first, then every format name once", () => {
    expect(FORMAT_OPTIONS.map((o) => o.value)).toEqual(["auto", ...FORMAT_NAMES]);
  });

  test("reads the old envelope ids as their formats, names as themselves, anything else as null", () => {
    expect(formatOfAlias("poll-reply")).toBe("poll-reply");
    expect(formatOfAlias("replicated-record")).toBe("prepare");
    expect(formatOfAlias("none")).toBe("batches");
    expect(formatOfAlias("send-messages")).toBe("send-messages");
    expect(formatOfAlias("auto")).toBe("auto");
    expect(formatOfAlias("zip")).toBeNull();
    expect(formatOfAlias(undefined)).toBeNull();
  });

  test("the format line reads as the contract's example", () => {
    expect(formatLine({ format: "send-messages", detectedBy: "auto: metadata parses, batch ends at body end" })).toBe(
      "format: SendMessages body (auto: metadata parses, batch ends at body end)",
    );
  });
});

describe("partition files", () => {
  test("segment pairs name each other; other files have no companion", () => {
    expect(companionName("00000000000000001000.log")).toBe("00000000000000001000.index");
    expect(companionName("00000000000000001000.index")).toBe("00000000000000001000.log");
    expect(companionName("capture.bin")).toBeNull();
    expect(partitionLabel(1, "p3")).toBe("p3 (1 file)");
    expect(partitionLabel(6)).toBe("partition (6 files)");
  });
});

describe("formatOfAlias and names from input", () => {
  test("finds nothing for prototype names (a crafted share link's format)", () => {
    for (const name of ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"]) expect(formatOfAlias(name), name).toBeNull();
  });
});
