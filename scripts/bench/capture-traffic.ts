/**
 * The traffic of `npm run bench -- --capture`: a pcap of one Iggy connection carrying SendMessages
 * requests (batches of 100 B messages and of 1 KiB messages, alternately) and their replies, cut into
 * TCP segments of 1448 bytes by the project's pcap writer, and beside it the same batches laid end to
 * end (what the C verifier walks). Both are written as they are made, never held whole.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Xxh3 } from "../../src/checksum/xxh3.ts";
import { writePcap, type Sent } from "../../test/pcap-writer.test-util.ts";
import { producerBatch, reply, sendRequest } from "../../test/iggy-messages.test-util.ts";

/** TCP payload bytes per segment (an Ethernet MTU of 1500 less IPv4, TCP and timestamp options). */
export const CAPTURE_MSS = 1448;

/** The two kinds of batch the traffic alternates: messages per batch and payload bytes. */
export const CAPTURE_BATCHES = [
  { messages: 1000, payload: 100 },
  { messages: 100, payload: 1024 },
] as const;

/** What was written. */
export interface CaptureTraffic {
  readonly requests: number;
  readonly messages: number;
  readonly batchBytes: number;
  readonly captureBytes: number;
}

/** Writes to `fd` through a buffer of `size` bytes, so a packet costs no system call. */
class BufferedFile {
  private buf: Buffer;
  private used = 0;
  written = 0;

  constructor(
    private readonly fd: number,
    size = 4 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  write(chunk: Uint8Array): void {
    if (this.used + chunk.length > this.buf.length) this.flush();
    if (chunk.length > this.buf.length) writeSync(this.fd, chunk);
    else {
      this.buf.set(chunk, this.used);
      this.used += chunk.length;
    }
    this.written += chunk.length;
  }

  flush(): void {
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }
}

/** Writes about `targetBytes` of capture to `capturePath` and its batches end to end to `batchesPath`. */
export function writeCaptureTraffic(xxh: Xxh3, targetBytes: number, capturePath: string, batchesPath: string): CaptureTraffic {
  const batches = CAPTURE_BATCHES.map((k) => ({ ...k, bytes: producerBatch(xxh, k.messages, k.payload) }));
  const captureFd = openSync(capturePath, "w");
  const batchesFd = openSync(batchesPath, "w");
  const capture = new BufferedFile(captureFd);
  const ends = new BufferedFile(batchesFd);
  let requests = 0;
  let messages = 0;
  function* traffic(): Generator<Sent> {
    // Headers and options of a packet are about 70 bytes of its record: stop on the capture's own size.
    for (let n = 1n; capture.written < targetBytes; n++) {
      const b = batches[requests % batches.length]!;
      ends.write(b.bytes);
      requests++;
      messages += b.messages;
      yield { toServer: true, bytes: sendRequest(b.bytes, b.messages, n) };
      yield { toServer: false, bytes: reply(160, new Uint8Array(4), 0, n) };
    }
  }
  try {
    writePcap(traffic(), { mss: CAPTURE_MSS }, (chunk) => capture.write(chunk));
    capture.flush();
    ends.flush();
  } finally {
    closeSync(captureFd);
    closeSync(batchesFd);
  }
  return { requests, messages, batchBytes: ends.written, captureBytes: capture.written };
}
