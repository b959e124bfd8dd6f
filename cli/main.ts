/** The iggy-batch command line: parses arguments, reads input, prints and returns an exit status. */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { analyze } from "../src/core/analyze.ts";
import { toContractJson } from "../src/core/contract-json.ts";
import { renderText } from "./text-output.ts";

const USAGE = `usage: iggy-batch inspect FILE|- [--json] [--no-frames]

  inspect   decode a raw batch, a segment file of batches, or stdin (-)
  --json    print one JSON document (see contracts.md)
  --no-frames  leave frames out of the JSON

exit status: 0 no errors, 1 at least one error diagnostic, 2 usage or I/O problem`;

/** An exit status with a message for stderr: usage and I/O problems. */
class UsageError extends Error {
  override readonly name = "UsageError";
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

async function readInput(file: string): Promise<{ bytes: Uint8Array; name: string }> {
  if (file === "-") return { bytes: await readStdin(), name: "-" };
  try {
    const buf = await readFile(file);
    return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), name: basename(file) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (err as Error).message;
    throw new UsageError(`iggy-batch: cannot read ${file}: ${why}`);
  }
}

const bigintAsString = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? value.toString() : value);

async function inspect(args: string[]): Promise<number> {
  let json = false;
  let frames = true;
  const files: string[] = [];
  for (const arg of args) {
    if (arg === "--json") json = true;
    else if (arg === "--no-frames") frames = false;
    else if (arg.startsWith("--")) throw new UsageError(`iggy-batch: unknown option ${arg}\n${USAGE}`);
    else files.push(arg);
  }
  if (files.length !== 1) throw new UsageError(`iggy-batch: inspect takes exactly one FILE or -\n${USAGE}`);
  const { bytes, name } = await readInput(files[0] as string);
  const analysis = await analyze(bytes);
  if (json) process.stdout.write(JSON.stringify(toContractJson(analysis, bytes, name, frames), bigintAsString, 2) + "\n");
  else process.stdout.write(renderText(analysis, name));
  return analysis.summary.errors > 0 ? 1 : 0;
}

/** Runs the command with argv (without node and script); resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "inspect") return await inspect(rest);
    if (command === "--help" || command === "-h" || command === "help") {
      process.stdout.write(USAGE + "\n");
      return 0;
    }
    throw new UsageError(command ? `iggy-batch: unknown command ${command}\n${USAGE}` : USAGE);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(err.message + "\n");
      return 2;
    }
    throw err;
  }
}
