/**
 * The `inspect` command. A large batch file or segment streams (inspect-input.ts) with only the modules
 * that needs loaded; the capture reader and the whole-file and directory decoders load when the input
 * turns out to need them (each costs start-up time and memory that a 1 GiB segment's walk does not need).
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { isCaptureMagic } from "../src/core/containers/capture/file.ts";
import type { FormatChoice } from "../src/core/containers/types.ts";
import type { CommandSpec, ParsedArgs } from "./args.ts";
import { formatOf, operandOf, outOf, writerTo } from "./command-options.ts";
import { isDirectory, readInputBytes } from "./io.ts";
import { inspectStreamed } from "./inspect-input.ts";
import { startThreadsAhead, stopThreadsAhead } from "./stream-file.ts";
import { phaseDone } from "./timings.ts";

/** Bytes a capture's magic needs (capture.ts's captureInput reads as many). */
const MAGIC_BYTES = 12;

/**
 * Whether captureInput must look at `path`: a forced capture, standard input, a FIFO or device (read
 * once, then decided by its bytes), or a regular file starting with a capture magic. False where it
 * answers null without reading: another forced format, a path it cannot stat, a directory.
 */
function mayBeCapture(path: string, format: FormatChoice): boolean {
  if (format === "capture") return true;
  if (format !== "auto") return false;
  if (path === "-") return true;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) return false;
    if (!stat.isFile()) return true;
  } catch {
    return false; // captureInput answers null; the usual path words the error
  }
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return true; // captureInput meets and throws the same error
  }
  try {
    const head = new Uint8Array(MAGIC_BYTES);
    const got = readSync(fd, head, 0, MAGIC_BYTES, 0);
    return isCaptureMagic(head.subarray(0, got));
  } catch {
    return true; // captureInput then meets and words the same error
  } finally {
    closeSync(fd);
  }
}

/** The size of a regular file at `path`, else 0. */
function sizeOf(path: string): number {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : 0;
  } catch {
    return 0;
  }
}

/** Runs `inspect`; resolves to the exit status. */
export async function inspect(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  phaseDone("start-up and bundle load");
  const path = operandOf(spec, parsed);
  const format = formatOf(parsed);
  const json = parsed.options.has("--json");
  const withFrames = !parsed.options.has("--no-frames");
  const writer = writerTo(outOf(parsed));
  const portText = parsed.options.get("--port");
  const port = portText === undefined ? undefined : (await import("./capture.ts")).parsePort(portText);
  const dir = (format === "auto" || format === "partition") && (await isDirectory(path));
  const capture = dir || !mayBeCapture(path, format) ? null : await (await import("./capture.ts")).captureInput(path, format);
  if (capture && "source" in capture) {
    try {
      const code = await (await import("./capture.ts")).inspectCapture(writer.write, capture, json, withFrames, port);
      await writer.end();
      return code;
    } finally {
      capture.close();
    }
  }
  // Large plain batch files and segments stream through the kernel (flat memory); everything else is read whole.
  let streamed: number | null = null;
  if (!capture && !dir) {
    // A file large enough for range workers boots them now (30-80 ms each), while its format is decided and its headers
    // walked; a file that turns out not to stream stops them unused.
    const streamable = format === "auto" || format === "batches" || format === "segment" || format === "index";
    if (streamable && !(json && withFrames)) startThreadsAhead(sizeOf(path));
    try {
      streamed = await inspectStreamed(writer.write, path, format, json, withFrames);
    } finally {
      await stopThreadsAhead();
    }
  }
  let status = streamed;
  if (status === null) {
    const { inspectDirectory, inspectOne } = await import("./containers.ts");
    status = capture
      ? await inspectOne(writer.write, capture.bytes, path, format, json, withFrames)
      : dir
        ? await inspectDirectory(writer.write, path, json, withFrames)
        : await inspectOne(writer.write, await readInputBytes(path), path, format, json, withFrames);
  }
  await writer.end();
  return status;
}
