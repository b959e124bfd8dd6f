/** The CLI's input and output: bounded reads of files and streams, and sinks where a closed pipe ends the writing quietly. */
import { createReadStream } from "node:fs";
import { mkdtemp, open, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { visibleText } from "../src/lib/text-escape.ts";

/** An I/O or usage problem: main prints the message on stderr and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

// Node's readFile refuses files over 2 GiB - 1; standard input and other streams get the same limit.
const READ_FILE_LIMIT = 2 ** 31 - 1;

/** The largest input read: 2 GiB - 1 bytes, or less when IGGY_BATCH_MAX_INPUT_BYTES says so (tests use it to reach the limit quickly). */
export function inputLimit(): number {
  const fromEnv = Number(process.env.IGGY_BATCH_MAX_INPUT_BYTES);
  return Number.isSafeInteger(fromEnv) && fromEnv >= 0 ? Math.min(fromEnv, READ_FILE_LIMIT) : READ_FILE_LIMIT;
}

const limitText = (n: number): string => (n === READ_FILE_LIMIT ? "2 GiB" : `${n}-byte`);

/**
 * Reads a stream up to `limit` bytes, counting them as they come and spooling them to a temporary file, so memory holds
 * one chunk while it streams: past the limit it stops reading and throws, having held no more than that chunk; under
 * it, the file is read back as the one buffer the caller gets (no second copy of the chunks).
 */
export async function readBounded(stream: AsyncIterable<Buffer>, what: string, limit = inputLimit()): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), "iggy-batch-stream-"));
  const spool = join(dir, "input");
  try {
    const out = await open(spool, "w");
    let total = 0;
    try {
      for await (const chunk of stream) {
        total += chunk.length;
        if (total > limit) throw new UsageError(`iggy-batch: ${what} is larger than the ${limitText(limit)} input limit; nothing was checked`);
        for (let at = 0; at < chunk.length;) at += (await out.write(chunk, at, chunk.length - at)).bytesWritten;
      }
    } finally {
      await out.close();
    }
    const all = await readFile(spool);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const whyUnreadable = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT"
    ? "no such file"
    : code === "EISDIR"
      ? "is a directory"
      : code === "EACCES"
        ? "permission denied"
        : // Worded as a partition's skipped entry is (containers.ts).
          code === "ELOOP"
          ? "a symbolic link loop: it leads to no file"
          : (err as Error).message;
};

/** The bytes of FILE, or of standard input for "-"; a regular file over the limit is refused before it is read. */
export async function readInputBytes(file: string): Promise<Uint8Array> {
  if (file === "-") return readBounded(process.stdin, "standard input");
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    // A FIFO or a device (/dev/zero) has no size to check: read it as a stream, as standard input.
    if (!info.isFile()) return await readBounded(createReadStream(file), visibleText(file));
    if (info.size > inputLimit())
      throw new UsageError(`iggy-batch: ${visibleText(file)} is ${info.size} bytes, larger than the ${limitText(inputLimit())} input limit`);
    const buf = await readFile(file);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`iggy-batch: cannot read ${visibleText(file)}: ${whyUnreadable(err)}`);
  }
}

/** Where a command's output goes. After the reader of standard output goes away, `closed` is true and writes do nothing. */
export interface Sink {
  readonly closed: boolean;
  write(data: string | Uint8Array): Promise<void>;
  end(): Promise<void>;
}

let stdoutClosed = false;
let watching = false;

/** Makes a closed standard output or standard error an ordinary event instead of an unhandled 'error' with a stack trace. */
export function watchStdio(): void {
  if (watching) return;
  watching = true;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE" || err.code === "ERR_STREAM_DESTROYED") stdoutClosed = true;
  });
  // Nowhere is left to report a failing stderr.
  process.stderr.on("error", () => {});
}

const isClosedPipe = (err: unknown): boolean => ["EPIPE", "ERR_STREAM_DESTROYED"].includes((err as NodeJS.ErrnoException | null)?.code ?? "");

function stdoutSink(): Sink {
  return {
    get closed() {
      return stdoutClosed;
    },
    write(data) {
      if (stdoutClosed) return Promise.resolve();
      return new Promise((done, fail) => {
        process.stdout.write(data, (err) => {
          if (!err) done();
          else if (isClosedPipe(err)) {
            stdoutClosed = true;
            done();
          } else fail(new UsageError(`iggy-batch: cannot write standard output: ${err.message}`));
        });
      });
    },
    end: () => Promise.resolve(),
  };
}

async function fileSink(path: string): Promise<Sink> {
  const cannot = (err: unknown) => new UsageError(`iggy-batch: cannot write ${visibleText(path)}: ${whyUnreadable(err)}`);
  const handle = await open(path, "w").catch((err: unknown) => {
    throw cannot(err);
  });
  return {
    closed: false,
    // writeFile writes all of data at the current position; write() may stop short.
    async write(data) {
      await handle.writeFile(data).catch((err: unknown) => {
        throw cannot(err);
      });
    },
    async end() {
      await handle.close().catch((err: unknown) => {
        throw cannot(err);
      });
    },
  };
}

/** Opens the output: standard output for "-", else the file (created or truncated). */
export function openSink(out: string): Promise<Sink> {
  return out === "-" ? Promise.resolve(stdoutSink()) : fileSink(out);
}

const BLOCK = 1 << 20;

/**
 * Text is written in blocks of this many UTF-16 units: under the engine's large-object size (128 KiB), so a block
 * dies young. 1 MiB blocks were each a large object, kept until a full collection: a gigabyte of JSON (an index's
 * millions of entries) piled up hundreds of MiB of them.
 */
const TEXT_BLOCK = 1 << 15;

/** Writes text pieces in blocks of about 32 KiB, waiting for each; stops early once the reader has gone. */
export async function writeText(sink: Sink, pieces: Iterable<string>): Promise<void> {
  let block = "";
  for (const piece of pieces) {
    block += piece;
    if (block.length >= TEXT_BLOCK) {
      await sink.write(block);
      block = "";
      if (sink.closed) return;
    }
  }
  if (block) await sink.write(block);
}

/** A long string as pieces of about 1 MiB, for writeText. */
export function* slices(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += BLOCK) yield text.slice(at, at + BLOCK);
}

/** True when the path is a directory. */
export async function isDirectory(path: string): Promise<boolean> {
  if (path === "-") return false;
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
