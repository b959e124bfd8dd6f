/** A ByteSource over an open file: positioned reads into the caller's buffer (e.g. the kernel's input area), no whole-file copy. */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import type { ByteSource } from "../src/core/range-walk.ts";
import { IndexEntries } from "../src/core/containers/index-entries.ts";

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

/**
 * An index file's entries read 1 MiB at a time (the file opened for each page), so a huge `.index`
 * is never held whole; undefined when it is not a regular file. Throws as statSync does when it cannot be opened.
 */
export function pagedIndexFile(path: string): IndexEntries | undefined {
  const st = statSync(path);
  if (!st.isFile()) return undefined;
  return IndexEntries.paged(st.size, (into, position) => {
    const fd = openSync(path, "r");
    try {
      return readSync(fd, into, 0, into.length, position);
    } finally {
      closeSync(fd);
    }
  });
}
