/**
 * Message documents written out while a capture is read (issue #24: peak RSS bounded however large the
 * capture): the JSON document lists them by connection after the summary, so they wait in one temporary
 * file, each connection's lines in stretches of about 64 KiB, and are read back in order for the output.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A connection's lines not yet written, and where its written stretches lie (start, length pairs). */
interface Lines {
  text: string;
  stretches: number[];
  count: number;
}

/** Lines buffered in memory at most, all connections together, before every buffer is written. */
const BUFFERED = 8 << 20;
/** A connection's buffer is written once this long. */
const STRETCH = 64 << 10;

/** A spool of lines by connection in one temporary file; `close()` deletes it. */
export class LineSpool {
  private readonly dir = mkdtempSync(join(tmpdir(), "iggy-batch-capture-"));
  private readonly fd = openSync(join(this.dir, "messages"), "w+");
  private readonly byConn = new Map<number, Lines>();
  /** Whether the file is gone already: unlinked while open (POSIX), so a killed run leaves nothing behind. */
  private removed = removed(this.dir);
  private size = 0;
  private buffered = 0;

  /** Adds one line (no newline inside) to connection `conn`. */
  add(conn: number, line: string): void {
    let c = this.byConn.get(conn);
    if (!c) this.byConn.set(conn, (c = { text: "", stretches: [], count: 0 }));
    c.count++;
    c.text += line + "\n";
    this.buffered += line.length + 1;
    if (c.text.length >= STRETCH) this.flush(c);
    if (this.buffered >= BUFFERED) for (const each of this.byConn.values()) this.flush(each);
  }

  private flush(c: Lines): void {
    if (!c.text) return;
    const bytes = Buffer.from(c.text, "utf8");
    for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at, bytes.length - at, this.size + at);
    c.stretches.push(this.size, bytes.length);
    this.size += bytes.length;
    this.buffered -= c.text.length;
    c.text = "";
  }

  /** How many lines connection `conn` has. */
  count(conn: number): number {
    return this.byConn.get(conn)?.count ?? 0;
  }

  /** Connection `conn`'s lines, in the order added. */
  *lines(conn: number): Generator<string> {
    const c = this.byConn.get(conn);
    if (!c) return;
    for (let k = 0; k < c.stretches.length; k += 2) {
      const buf = Buffer.alloc(c.stretches[k + 1]!);
      for (let at = 0; at < buf.length;) {
        const n = readSync(this.fd, buf, at, buf.length - at, c.stretches[k]! + at);
        if (n === 0) throw new Error("the capture's message spool was cut short");
        at += n;
      }
      yield* linesOf(buf.toString("utf8"));
    }
    yield* linesOf(c.text);
  }

  /** Deletes the file. */
  close(): void {
    closeSync(this.fd);
    if (!this.removed) rmSync(this.dir, { recursive: true, force: true });
  }
}

function removed(dir: string): boolean {
  try {
    rmSync(dir, { recursive: true, force: true });
    return true;
  } catch {
    return false; // an open file cannot be deleted here (Windows): close() deletes it
  }
}

function* linesOf(text: string): Generator<string> {
  let at = 0;
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", at)) {
    yield text.slice(at, nl);
    at = nl + 1;
  }
}
