/**
 * What a capture's message index shares between its entries (issue #24: peak RSS bounded however large
 * the capture): one string for each recurring detail or header value, and one findings count for the
 * messages without any, so an entry costs its own fields and not copies of its neighbours'.
 */
import type { BatchJson } from "../../model/contract-json.ts";

/** Distinct strings kept at most: past it, new ones are kept as they come (the table stays bounded). */
const INTERN_LIMIT = 4096;

/** Hands back one copy of each string it has seen (up to INTERN_LIMIT of them). */
export class Interner {
  private readonly seen = new Map<string, string>();

  /** The kept copy of `s`, or `s` itself. */
  of(s: string): string {
    const kept = this.seen.get(s);
    if (kept !== undefined) return kept;
    if (this.seen.size < INTERN_LIMIT) this.seen.set(s, s);
    return s;
  }
}

/** The findings count of every message without findings (frozen: shared by all of them). */
export const NO_FINDINGS: { errors: number; warnings: number; infos: number } = Object.freeze({ errors: 0, warnings: 0, infos: 0 });

/** A batch document whose header strings are shared: recurring values interned, a computed checksum equal to the stored one the same string. */
export function compactBatch(doc: BatchJson, intern: Interner): BatchJson {
  let header = doc.header;
  if (header) {
    // A loop, not fromEntries(entries().map()): one batch a message, a capture of many messages (issue #24).
    const shared: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(header)) shared[k] = typeof v === "string" ? intern.of(v) : v;
    header = shared as typeof header;
  }
  const stored = header?.batchChecksum;
  const computedChecksum = doc.computedChecksum !== null && doc.computedChecksum === stored ? stored : doc.computedChecksum;
  return { ...doc, header, computedChecksum };
}

/** Where each message of a connection began (direction, stream offset, packet, time), in columns: about 21 bytes a message. */
export class MessageStarts {
  private dirs = new Uint8Array(16);
  private offsets = new Float64Array(16);
  private packets = new Uint32Array(16);
  private times = new BigInt64Array(16);
  /** Messages begun. */
  length = 0;

  /** Records message `length`'s start and returns its index. */
  push(toServer: boolean, offset: number, packet: number, timeNs: bigint): number {
    const i = this.length;
    if (i === this.dirs.length) {
      const grow = <T extends Uint8Array | Float64Array | Uint32Array | BigInt64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(i * 2);
        b.set(a as never);
        return b;
      };
      this.dirs = grow(this.dirs);
      this.offsets = grow(this.offsets);
      this.packets = grow(this.packets);
      this.times = grow(this.times);
    }
    this.dirs[i] = toServer ? 1 : 0;
    this.offsets[i] = offset;
    this.packets[i] = packet;
    this.times[i] = timeNs;
    this.length = i + 1;
    return i;
  }

  /** Message `i`'s start. */
  at(i: number): { toServer: boolean; offset: number; packet: number; timeNs: bigint } {
    return { toServer: this.dirs[i] === 1, offset: this.offsets[i]!, packet: this.packets[i]!, timeNs: this.times[i]! };
  }

  /** Message `i`'s stream offset. */
  offset(i: number): number {
    return this.offsets[i]!;
  }

  /** Whether message `i` goes to the server. */
  toServer(i: number): boolean {
    return this.dirs[i] === 1;
  }
}
