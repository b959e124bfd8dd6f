/** A ByteSource over an open file: positioned reads into the caller's buffer (e.g. the kernel's input area), no whole-file copy. */
import { fstatSync, readSync } from "node:fs";
import type { ByteSource } from "../src/core/range-walk.ts";

/** A ByteSource over an open file descriptor. */
export function fileSource(fd: number): ByteSource {
  return {
    size: fstatSync(fd).size,
    read(into, position) {
      let done = 0;
      while (done < into.length) {
        const n = readSync(fd, into, done, into.length - done, position + done);
        if (n <= 0) break;
        done += n;
      }
      return done;
    },
  };
}
