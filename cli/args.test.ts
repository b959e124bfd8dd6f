/** The option table's rules, on a made-up command: each mistake is an ArgError naming the option. */
import { describe, expect, it } from "vitest";
import { ArgError, commandHelp, parseArgs, usageLine, type CommandSpec } from "./args.ts";

const SPEC: CommandSpec = {
  name: "demo",
  operand: "FILE",
  summary: "a command for this test",
  options: [
    { name: "--json", help: "JSON" },
    { name: "--lean", requires: "--json", help: "less JSON" },
    { name: "--format", value: "NAME", help: "the format" },
    { name: "--envelope", value: "NAME", conflicts: "--format", help: "an older name for some formats" },
    { name: "--out", alias: "-o", value: "OUT", required: true, help: "where" },
  ],
};

describe("parseArgs", () => {
  it("reads switches, values (both spellings), aliases and operands, and -- ends the options", () => {
    const { operands, options } = parseArgs(SPEC, ["a", "--json", "--format=x", "-o", "-", "--", "--lean"]);
    expect(operands).toEqual(["a", "--lean"]);
    expect(Object.fromEntries(options)).toEqual({ "--json": true, "--format": "x", "--out": "-" });
  });

  it.each([
    [["a", "-o", "x", "--json", "--json"], "--json given twice"],
    [["a", "-o", "x", "--out", "y"], "--out given twice"],
    [["a", "-o", "x", "--lean"], "--lean only applies with --json"],
    [["a", "-o", "x", "--format", "f", "--envelope", "e"], "--envelope and --format cannot be given together"],
    [["a"], "-o OUT is required"],
    [["a", "-o"], "--out needs OUT"],
    [["a", "-o", "x", "--json=1"], "--json takes no value"],
    [["a", "-o", "x", "--bogus"], "unknown option --bogus for demo"],
  ])("%j: %s", (args, message) => {
    expect(() => parseArgs(SPEC, args)).toThrow(new ArgError(message));
  });
});

describe("help", () => {
  it("comes from the same table", () => {
    expect(usageLine(SPEC)).toBe("iggy-batch demo FILE [--json] [--lean] [--format NAME] [--envelope NAME] -o OUT");
    expect(commandHelp(SPEC)).toMatch(/^usage: iggy-batch demo[\s\S]*-o, --out OUT\s+where\n\s+-h, --help\s+print this help$/);
  });
});
